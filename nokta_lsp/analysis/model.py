"""A loaded model as the analysis sees it: the restorer, its description and the caches of
its own suggestions. The engine (``state.engine``) loads one and hands it to the worker."""

from __future__ import annotations

from dataclasses import dataclass, field

from nokta_model.check.findings import SuggestionCache
from nokta_model.restorer import Restorer

from .lookahead import LookAhead

#: Lines whose suggestions autocorrect keeps, per model.
TYPING_CACHE_LINES = 2_000


@dataclass(frozen=True)
class Model:
    """A restorer with the caches of its own suggestions (never shared with another model,
    so a model change drops them): ``cache``, the analysis worker's (filled and sized on its
    thread alone), and ``typing_cache``, autocorrect's (on the event loop)."""

    restorer: Restorer
    cache: SuggestionCache
    description: str
    stand_in: bool = False  # serves only the rows shown first while the configured model loads
    ahead: LookAhead = field(init=False, compare=False)  # fills ``cache``
    typing_cache: SuggestionCache = field(default_factory=lambda: SuggestionCache(TYPING_CACHE_LINES), compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ahead", LookAhead(self.restorer))  # frozen: set once, here
