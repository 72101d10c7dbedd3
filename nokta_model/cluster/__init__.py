"""Corpus-scale restoring on a Ray cluster (`nokta corpus`)."""
