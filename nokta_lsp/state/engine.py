"""The loaded restorer and its suggestion cache, loaded off the message loop.

``Engine.start_loading`` loads in a thread: the configured backend (or model file) and,
when that fails, the count-based backend, so the server keeps serving. Each model loaded
is handed back through the event loop, which alone changes ``Engine.model``. At start-up,
when the configured model is a slower one (the neural default imports torch), the
count-based backend is loaded first and finds the rows shown first (the top of each open
document, an edit's rows) until the configured model is ready, which finds the rest, so
the first diagnostics do not wait for torch. The stand-in stops there because its pass
over a long document held the GIL while the configured model loaded, and the whole
document was found later with it than without it (``bench.lsp_latency``). The default
loads its network on first use (torch imported); the loading thread loads it before the
configured model serves, so no analysis waits for torch: edits made meanwhile are found
by the stand-in (or the model before). A model file path is only ever handed to
``load_restorer``, which reads it as data.

Torch runs on one thread (``OMP_NUM_THREADS=1`` unless set; ``process.configure_process``):
the server analyses small batches in one worker, and on two cores shared with the editor
(or anything else) a second torch thread made small batches many times slower, spinning
for a busy core. ``Engine(loader=...)`` takes another loader than ``load_restorer``
(tests give fakes).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar

from nokta_model.backends import load_restorer
from nokta_model.restorer import Restorer

from ..analysis.model import Model
from ..analysis.packed import PackedSuggestionCache
from .loop_thread import LoopThread, on_loop

log = logging.getLogger(__name__)

#: Loads a restorer by backend name or model path, with a device (``load_restorer``'s signature).
Loader = Callable[..., Restorer]

FALLBACK_BACKEND = "ngram"

T = TypeVar("T")


@dataclass(frozen=True)
class LoadOutcome:
    model: Model | None
    error: str | None  # why the configured model could not be used, if it could not


def load_model(backend: str, model_path: str, device: str, loader: Loader = load_restorer) -> LoadOutcome:
    """The configured model, else the fallback backend with the reason in ``error``."""
    wanted = model_path or backend
    try:
        return LoadOutcome(Model(loader(wanted, device=device), PackedSuggestionCache(), wanted), None)
    except Exception as error:  # any failure of a model file or backend: fall back, never crash
        log.exception("loading the %r model failed", wanted)
        reason = f"nokta: could not load the {wanted!r} model ({error})"
    if wanted == FALLBACK_BACKEND:
        return LoadOutcome(None, reason)
    try:
        model = Model(loader(FALLBACK_BACKEND, device="cpu"), PackedSuggestionCache(), FALLBACK_BACKEND)
        return LoadOutcome(model, f"{reason}; using the {FALLBACK_BACKEND!r} backend instead")
    except Exception as error:
        log.exception("loading the fallback model failed")
        return LoadOutcome(None, f"{reason}; the {FALLBACK_BACKEND!r} backend failed too ({error}); nothing is checked")


class Engine:
    """Holds the current model, which changes only on the event loop: a load hands its model
    back through the loop."""

    def __init__(self, loader: Loader = load_restorer, loop_thread: LoopThread | None = None) -> None:
        self.loader = loader
        self.loop_thread = loop_thread or LoopThread()
        self._model: Model | None = None
        self.key: tuple[str, str, str] | None = None
        self.loading = threading.Event()

    @property
    def model(self) -> Model | None:
        return self._model

    @on_loop
    def start_loading(
        self,
        key: tuple[str, str, str],
        loop: asyncio.AbstractEventLoop,
        done: Callable[[LoadOutcome], None],
        interim: Callable[[], None] = lambda: None,
        settle: Callable[[], None] = lambda: None,
    ) -> None:
        """Load ``(backend, modelPath, device)`` in a thread and hand the model back through
        ``loop``, where it becomes ``model`` and ``done`` gets the outcome.

        When a stand-in serves first, ``interim`` is called on the loop once it is in place,
        then ``settle`` in the loading thread before the configured model loads.
        """
        self.key = key
        self.loading.set()
        stand_in_first = self._model is None and (key[1] or key[0]) != FALLBACK_BACKEND

        def run() -> None:
            if stand_in_first:
                stand_in = load_model(FALLBACK_BACKEND, "", "cpu", loader=self.loader)
                if _on_loop(loop, functools.partial(self._serve_stand_in, key, stand_in, interim)).result():
                    settle()
            outcome = load_model(*key, loader=self.loader)
            load_network(outcome.model)  # while the stand-in or the model before still serves
            _on_loop(loop, functools.partial(self._loaded, key, outcome, done))

        threading.Thread(target=run, name="nokta-model-loader", daemon=True).start()

    @on_loop
    def _serve_stand_in(self, key: tuple[str, str, str], outcome: LoadOutcome, interim: Callable[[], None]) -> bool:
        if outcome.model is None or self.key != key or self._model is not None:
            return False
        self._model = replace(outcome.model, stand_in=True)
        interim()
        return True

    @on_loop
    def _loaded(self, key: tuple[str, str, str], outcome: LoadOutcome, done: Callable[[LoadOutcome], None]) -> None:
        if self.key != key:  # a newer configuration asked for another model
            return
        if outcome.model is not None:  # keep the old model when nothing loaded
            self._model = outcome.model
        self.loading.clear()
        done(outcome)


def load_network(model: Model | None) -> None:
    """Load the network that ``model`` would load on first use (``nokta_model.default.LazyNetwork``:
    torch imported), before it serves: else the first analysis that needs it waits for torch
    with an edit behind it."""
    from nokta_model.default import LazyNetwork

    network = getattr(model.restorer, "neural", None) if model is not None else None
    if isinstance(network, LazyNetwork) and not network.loaded:
        try:
            network.load()
        except Exception:  # the analysis that needs it fails as it would have without this
            log.exception("loading the network failed")


def _on_loop(loop: asyncio.AbstractEventLoop, call: Callable[[], T]) -> concurrent.futures.Future[T]:
    """Run ``call`` on the loop (from another thread); its answer comes in the future."""
    answer: concurrent.futures.Future[T] = concurrent.futures.Future()

    def run() -> None:
        if answer.set_running_or_notify_cancel():
            try:
                answer.set_result(call())
            except BaseException as error:
                answer.set_exception(error)

    loop.call_soon_threadsafe(run)
    return answer
