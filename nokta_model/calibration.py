"""Calibrated confidence: of the choices a restorer makes at confidence p, about p are right.

A lattice's shares (the softmax of its max-marginals, ``lattice.Decoding``) are far too
sure: a word between two real spellings (sık/şık) gets 0.9999 where such choices are right
far less often, since every feature's log score adds up as if they were independent. A
``Calibration`` divides the log shares by a temperature (temperature scaling), one per kind
of choice: between two spellings the lexicon has both of (``between_words``), or any other.
That keeps every order (the best spelling stays the best; a higher share stays higher
within a kind) and turns a one-spelling word's 1.0 into 1.0.

``nokta train --backend calibration`` fits the temperatures on the corpus tune split
(``training/calibration_fit.py``): the default's into ``data/calibration.json``, the
count-based backend's (the language server's stand-in while the default loads, and
``--backend ngram``) into ``data/calibration_ngram.json``; rerun it whenever the weights
or models change. ``Restorer.suggest`` and ``Restorer.choices`` report
calibrated confidences, so ``nokta check``, ``nokta restore --ambiguous`` and the language
server show the same number.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path

_DATA = Path(__file__).resolve().parent / "data"
#: The shipped calibration of each backend that has one, fitted for its shipped models.
CALIBRATION_FILES = {"default": _DATA / "calibration.json", "ngram": _DATA / "calibration_ngram.json"}
CALIBRATION_FILE = CALIBRATION_FILES["default"]

#: A choice is a close call (``nokta restore --ambiguous``) below this calibrated confidence:
#: another spelling is right at least about one time in ten.
CLOSE_BELOW = 0.9


@dataclass(frozen=True)
class Calibration:
    """Temperatures of the log shares; 1.0 keeps the shares as they are."""

    between_words: float = 1.0  # the best two spellings are both words the lexicon has
    other: float = 1.0

    def shares(self, shares: Sequence[float], between_words: bool) -> list[float]:
        """The calibrated probabilities of a word's spellings, from their shares (same order)."""
        temperature = self.between_words if between_words else self.other
        if temperature == 1.0:
            return list(shares)
        logs = [math.log(share) / temperature if share > 0 else -math.inf for share in shares]
        top = max(logs)
        exps = [math.exp(value - top) for value in logs]
        total = sum(exps)
        return [value / total for value in exps]

    @classmethod
    def from_dict(cls, values: dict) -> Calibration:
        names = {field.name for field in fields(cls)}
        unknown = set(values) - names
        if unknown:
            raise ValueError(f"unknown temperatures: {', '.join(sorted(unknown))}")
        temperatures = {name: float(value) for name, value in values.items()}
        if any(not value > 0 for value in temperatures.values()):
            raise ValueError("a temperature must be above 0")
        return cls(**temperatures)


def read_calibration(path: Path = CALIBRATION_FILE) -> Calibration:
    """The temperatures of a calibration file (``write_calibration``)."""
    try:
        return Calibration.from_dict(json.loads(Path(path).read_text(encoding="utf-8"))["temperatures"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"cannot read the calibration from {path}: {error}") from None


def write_calibration(calibration: Calibration, path: Path, provenance: dict) -> None:
    text = json.dumps({"temperatures": asdict(calibration), **provenance}, indent=1, ensure_ascii=False) + "\n"
    Path(path).write_text(text, encoding="utf-8")
