"""The count-based backend: word and character n-gram counts of the corpus in compact tables
(``model``, ``lm``, ``tables``), and the wide language model distilled from Zemberek's
(``wide_bigrams``)."""
