"""Process-wide interpreter settings of the language server, set once by its entry point
(``cli.main``), never by a constructor: a test that builds a server in-process keeps its
own interpreter as it was."""

from __future__ import annotations

import gc
import sys

from nokta_model.backends import set_torch_defaults

from .state.memory import hold_mmap_threshold

#: The cyclic collector's thresholds: a model and a long document's analysis are a few
#: hundred thousand objects, and with Python's defaults (700, 10, 10) full collections ran
#: again and again while a document was analysed, each holding the GIL long enough for
#: an edit to wait. Most garbage here is freed by reference counting.
GC_THRESHOLDS = (10_000, 20, 10)
#: How long a thread holds the GIL before another waiting for it gets it (Python's
#: default: 5 ms). The message loop and the network's thread both need the GIL back
#: quickly while the analysis thread runs Python (``bench.lsp_latency`` measured it).
GIL_SWITCH_INTERVAL_S = 0.0005


def configure_process() -> None:
    """Collector thresholds, GIL switch interval, malloc's mmap threshold and torch's
    threads, for a server process."""
    gc.set_threshold(*GC_THRESHOLDS)
    hold_mmap_threshold()
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
    set_torch_defaults()  # read when torch is imported, by the first model load
