"""The language server: a pygls server holding the session and the analysis scheduler.

Handlers (one module per feature in ``features``) mutate the session on the event
loop; the scheduler analyses snapshots of it in a worker thread and hands each result
back to the session and to ``deliver`` (``handlers.build_server`` gives
``features.diagnostics.deliver``: the features import the server, never the reverse).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from pygls.lsp.server import LanguageServer

from nokta_model import __version__
from nokta_model.backends import load_restorer

from ..analysis.worker import Analysis, Snapshot
from ..state.engine import Loader
from ..state.scheduler import Scheduler
from ..state.session import Session
from .transport import MALFORMED_JSON, NoktaProtocol

VERSION = __version__


#: Publishes a result the session took (``Scheduler.deliver``, with the server first).
Deliver = Callable[["NoktaServer", Snapshot, Analysis, bool], None]


class NoktaServer(LanguageServer):
    protocol: NoktaProtocol

    def __init__(self, deliver: Deliver, loader: Loader = load_restorer) -> None:
        super().__init__("nokta-lsp", VERSION, protocol_cls=NoktaProtocol, max_workers=2)
        self.session = Session(loader)
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
