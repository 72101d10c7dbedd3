"""Settings from the client (initializationOptions, workspace/configuration,
workspace/didChangeConfiguration) and loading the model they name."""

from __future__ import annotations

import functools
import itertools
import logging
from typing import Any

from lsprotocol import types

from ...state.engine import LoadOutcome
from ...state.settings import SECTION
from ..server import NoktaServer
from . import inlay_hints, status

log = logging.getLogger(__name__)

#: At most this long the stand-in model checks the tops of the open documents alone at start-up.
STAND_IN_FIRST_S = 10.0


def apply_settings(ls: NoktaServer, raw: Any) -> None:
    """Take new settings (never raises); reload the model when its keys changed."""
    change = ls.session.apply_settings(raw)
    for warning in change.warnings:
        log.warning(warning)
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=warning))
    if change.model_changed and ls.session.engine.key is not None:
        load_model(ls)
    elif change.changed:
        ls.refresh()
        inlay_hints.refresh_all(ls)  # on or off, or hidden while typing, with the same findings


async def pull_configuration(ls: NoktaServer) -> None:
    if not ls.session.capabilities.configuration:
        return
    try:
        result = await ls.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
        )
    except Exception as error:  # a client that fails the request keeps the current settings
        log.warning("workspace/configuration failed: %s", error)
        return
    if result and isinstance(result[0], dict):
        apply_settings(ls, result[0])


_progress_tokens = itertools.count(1)


def load_model(ls: NoktaServer) -> None:
    """Load the configured model in a thread, with work-done progress when the client shows it."""
    session = ls.session
    token = f"nokta-load-{next(_progress_tokens)}" if session.capabilities.work_done_progress else None
    if token is not None:
        ls.work_done_progress.create(token)
        ls.work_done_progress.begin(
            token, types.WorkDoneProgressBegin(title="Loading nokta model", message=session.settings.backend)
        )

    def interim() -> None:
        """On the loop: the stand-in checks the rows shown first of the open documents."""
        ls.refresh()

    def settle() -> None:
        """In the loading thread: let the stand-in finish before the configured model's
        loading competes with it for the CPU (and the GIL)."""
        ls.scheduler.idle.wait(STAND_IN_FIRST_S)

    done = functools.partial(_model_loaded, ls, token)
    session.engine.start_loading(session.settings.model_key(), ls.scheduler.loop, done, interim, settle)
    status.notify(ls)


def _model_loaded(ls: NoktaServer, token: str | None, outcome: LoadOutcome) -> None:
    """On the loop, once the engine has taken the model loaded."""
    if token is not None:
        message = outcome.model.description if outcome.model else "failed"
        ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message))
    if outcome.error:
        kind = types.MessageType.Warning if outcome.model else types.MessageType.Error
        ls.window_show_message(types.ShowMessageParams(type=kind, message=outcome.error))
    log.info("model ready: %s", outcome.model.description if outcome.model else None)
    status.notify(ls)
    ls.refresh()


async def did_change_configuration(ls: NoktaServer, params: types.DidChangeConfigurationParams) -> None:
    settings = params.settings
    if isinstance(settings, dict) and isinstance(settings.get(SECTION), dict):
        apply_settings(ls, settings[SECTION])
    else:
        await pull_configuration(ls)
