"""The server's state for an editor's status item: the model loading, ready or failed, and
checking paused by the user; and whether the server is idle (no analysis of an open
document scheduled or running, the model loaded). Commands ``nokta.pause``,
``nokta.resume`` and ``nokta.status`` each answer with the state; a client that says so
(``experimental.noktaStatus`` in its capabilities) also gets a ``nokta/status``
notification whenever it changes, sent once the handler that changed it has returned (so
that a model loaded and the analyses it starts make one notification, not idle and busy).

While paused nothing is analysed and nothing is corrected as the writer types; the
diagnostics shown are cleared (pushed empty, or pulled again), and resuming checks every
open document again.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

from ..server import NoktaServer
from . import diagnostics, inlay_hints, workspace_diagnostics

NOTIFICATION = "nokta/status"
PAUSE = "nokta.pause"
RESUME = "nokta.resume"
STATUS = "nokta.status"


@dataclass
class _Reported:
    sent: dict[str, Any] | None = None  # the last notification's params
    pending: bool = False  # a notification is scheduled on the loop


_reported: weakref.WeakKeyDictionary[NoktaServer, _Reported] = weakref.WeakKeyDictionary()


def status(ls: NoktaServer) -> dict[str, Any]:
    """``{"state": "loading" | "ready" | "paused" | "failed", "model": description | None,
    "idle": bool}``; never idle while the model loads (its load analyses every document again)."""
    session = ls.session
    model = session.engine.model
    loading = session.engine.loading.is_set() or session.engine.key is None  # or not started yet
    if session.paused:
        state = "paused"
    elif loading:
        state = "loading"
    else:
        state = "ready" if model is not None else "failed"
    return {
        "state": state,
        "model": model.description if model is not None and not model.stand_in else None,
        "idle": ls.scheduler.idle.is_set() and not loading,
    }


def notify(ls: NoktaServer) -> None:
    """Tell a client that takes it the state, once the current handler has returned, if it changed."""
    if not ls.session.capabilities.status_notification:
        return
    reported = _reported.setdefault(ls, _Reported())
    if not reported.pending:
        reported.pending = True
        ls.scheduler.loop.call_soon(_send, ls, reported)


def _send(ls: NoktaServer, reported: _Reported) -> None:
    reported.pending = False
    now = status(ls)
    if now != reported.sent:
        reported.sent = now
        ls.protocol.notify(NOTIFICATION, now)


def pause(ls: NoktaServer, *arguments: Any) -> dict[str, Any]:
    session = ls.session
    if not session.paused:
        session.paused = True
        ls.scheduler.pause()
        for uri, document in session.documents.items():
            diagnostics.clear(ls, uri, document)
        workspace_diagnostics.clear_published(ls)
        refresh_views(ls)
        notify(ls)
    return status(ls)


def resume(ls: NoktaServer, *arguments: Any) -> dict[str, Any]:
    if ls.session.paused:
        ls.session.paused = False
        ls.refresh()
        refresh_views(ls)
        notify(ls)
    return status(ls)


def current(ls: NoktaServer, *arguments: Any) -> dict[str, Any]:
    return status(ls)


def refresh_views(ls: NoktaServer) -> None:
    """Have the client ask for its diagnostics (when it pulls them) and inlay hints again."""
    if ls.session.capabilities.diagnostic_refresh:
        ls.workspace_diagnostic_refresh(None)
    inlay_hints.refresh_all(ls)
