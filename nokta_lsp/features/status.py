"""The server's state for an editor's status item: the model loading, ready or failed, and
checking paused by the user. Commands ``nokta.pause``, ``nokta.resume`` and ``nokta.status``
each answer with the state; a client that says so (``experimental.noktaStatus`` in its
capabilities) also gets a ``nokta/status`` notification whenever it changes.

While paused nothing is analysed and nothing is corrected as the writer types; the
diagnostics shown are cleared (pushed empty, or pulled again), and resuming checks every
open document again.
"""

from __future__ import annotations

from typing import Any

from ..server import NoktaServer  # at run time: pygls reads the commands' type hints
from . import diagnostics, inlay_hints, workspace_diagnostics

NOTIFICATION = "nokta/status"
PAUSE = "nokta.pause"
RESUME = "nokta.resume"
STATUS = "nokta.status"


def status(ls: NoktaServer) -> dict[str, Any]:
    """``{"state": "loading" | "ready" | "paused" | "failed", "model": description | None}``."""
    session = ls.session
    model = session.engine.model
    if session.paused:
        state = "paused"
    elif session.engine.loading.is_set():
        state = "loading"
    else:
        state = "ready" if model is not None else "failed"
    return {"state": state, "model": model.description if model is not None and not model.stand_in else None}


def notify(ls: NoktaServer) -> None:
    """Tell a client that takes it what the state is now."""
    if ls.session.capabilities.status_notification:
        ls.protocol.notify(NOTIFICATION, status(ls))


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
