"""Errors that nokta reports to its users as one clear line."""


class NoktaError(Exception):
    """Base of the errors a command line or server turns into a message."""


class ModelFileError(NoktaError, ValueError):
    """A model file is missing, truncated, corrupt, foreign or of another version."""
