"""Per-candidate scores the default adds to the lattice's emissions, besides the models'.

- Letter scorers: the log probability of a spelling mask under independent per-letter
  logits (the context model's, the network's).
- The question particle (mi, mı, mu, mü and its inflections: misin, mıydı, müymüş …)
  is written apart but follows the vowel harmony of the word before it.
- The writer's own Turkish letters: a word typed with one keeps its other letters as
  typed, and on a line typed with Turkish letters a word typed without any is more
  likely meant so, when its typed form is a spelling counted in running text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from ..lattice import Position
from ..words import spell

MaskScorer = Callable[[int], float]

_PARTICLE_RE = re.compile(
    r"m[iu](?:"
    r"|s[iu]n|s[iu]n[iu]z|y[iu]m|y[iu]z|d[iu]r|d[iu]rl[ae]r|l[ae]r"
    r"|yd[iu](?:m|n|k|n[iu]z|l[ae]r)?|ym[iu]s(?:[iu]m|s[iu]n|[iu]z|s[iu]n[iu]z|l[ae]r)?|yken"
    r")"
)
_VOWELS = "aeıioöuü"
#: The particle's vowel after each last vowel of the word before it.
_HARMONY = {"a": "ı", "ı": "ı", "e": "i", "i": "i", "o": "u", "u": "u", "ö": "ü", "ü": "ü"}


def letter_scorer(free: np.ndarray, logits: np.ndarray) -> MaskScorer:
    """Log probability of a spelling mask under independent letter logits at positions ``free``."""
    plain_total = -float(np.logaddexp(0.0, logits).sum())
    gains = dict(zip(free.tolist(), logits.tolist()))

    def log_probability(mask: int) -> float:
        return plain_total + sum(gain for bit, gain in gains.items() if mask >> bit & 1)

    return log_probability


def is_particle(key: str) -> bool:
    """Whether an ASCII token key is a form of the question particle (mi, misin, miydi …)."""
    return _PARTICLE_RE.fullmatch(key) is not None


def particle_disharmony(previous: Position, particle: Position) -> list[float]:
    """For each spelling of the particle, 1.0 where its vowel breaks the harmony of the
    word before it, else 0.0; all 0.0 when that word's spellings disagree on their last
    vowel (or have none): then the lattice's other scores decide."""
    last_vowels = {_last_vowel(spell(previous.key, mask)) for mask in previous.masks}
    last = last_vowels.pop() if len(last_vowels) == 1 else None
    if last is None:
        return [0.0] * len(particle.masks)
    wanted = _HARMONY[last]
    return [float(spell(particle.key, mask)[1] != wanted) for mask in particle.masks]


def _last_vowel(word: str) -> str | None:
    return next((ch for ch in reversed(word) if ch in _VOWELS), None)


def typed_spelling_flags(position: Position, typed_mask: int) -> list[float]:
    """1.0 for the candidate spelled exactly as typed, 0.0 for the others."""
    return [float(mask == typed_mask) for mask in position.masks]
