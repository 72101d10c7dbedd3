"""nokta: restores Turkish diacritics (ç ğ ı ö ş ü İ) in ASCII-typed text.

from nokta_model import load_restorer
load_restorer().restore(["Turkiye'nin baskenti Ankara'dir"])  # ["Türkiye'nin başkenti Ankara'dır"]
"""

from importlib import metadata

from .backends import BACKENDS, load_restorer
from .restorer import Restorer, Suggestion

try:
    __version__ = metadata.version("nokta")  # one source: pyproject.toml
except metadata.PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0+unknown"

__all__ = ["BACKENDS", "Restorer", "Suggestion", "__version__", "load_restorer"]
