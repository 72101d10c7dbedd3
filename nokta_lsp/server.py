"""The language server: a pygls server holding the session and the analysis scheduler.

Handlers (one module per feature in ``features``) mutate the session on the event
loop; the scheduler analyses snapshots of it in a worker thread and hands each result
back to the session and to ``features.diagnostics.deliver``.
"""

from __future__ import annotations

import functools
import gc
import sys
from typing import Any

from pygls.lsp.server import LanguageServer

from nokta_model import __version__

from .features.diagnostics import deliver
from .scheduler import Scheduler
from .session import Session
from .transport import MALFORMED_JSON, NoktaProtocol

VERSION = __version__

#: The cyclic collector's thresholds: a model and a long document's analysis are a few
#: hundred thousand objects, and with Python's defaults (700, 10, 10) full collections
#: ran every few hundred ms while a document was analysed, each holding the GIL for up
#: to 0.2 s (an edit waited for it). Most garbage here is freed by reference counting.
GC_THRESHOLDS = (10_000, 20, 10)
#: How long a thread holds the GIL before another waiting for it gets it (Python's
#: default: 5 ms). The network's thread needs the GIL back between its torch calls while
#: the other analysis thread runs Python; at 0.5 ms it waits less each time.
#: ``bench.lsp_latency``, default model, 14 interleaved runs each: whole document median
#: 4.70 s (4.49-4.95) against 4.85 s (4.50-5.25) at 5 ms.
GIL_SWITCH_INTERVAL_S = 0.0005


class NoktaServer(LanguageServer):
    protocol: NoktaProtocol

    def __init__(self) -> None:
        super().__init__("nokta-lsp", VERSION, protocol_cls=NoktaProtocol, max_workers=2)
        gc.set_threshold(*GC_THRESHOLDS)
        sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
        self.session = Session()
        self.scheduler = Scheduler(self.session, functools.partial(deliver, self))

    def refresh(self) -> None:
        """Analyse every open document again (settings, dictionary or model changed)."""
        self.scheduler.schedule_all(0)

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Malformed JSON gets a JSON-RPC parse error (-32700), not a message to the user
        (it is the client's fault); the server keeps reading."""
        if isinstance(error, MALFORMED_JSON):
            self.protocol.send_error(-32700, f"Parse error: {error}")
            return
        super().report_server_error(error, source)
