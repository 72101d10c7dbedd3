"""nokta: restores Turkish diacritics (ç ğ ı ö ş ü İ) in ASCII-typed text.

from nokta_model import load_restorer
load_restorer().restore(["Turkiye'nin baskenti Ankara'dir"])  # ["Türkiye'nin başkenti Ankara'dır"]
"""

from .backends import BACKENDS, load_restorer
from .restorer import Restorer, Suggestion

__all__ = ["BACKENDS", "Restorer", "Suggestion", "load_restorer"]
