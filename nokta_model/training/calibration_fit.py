"""Fit the calibrations of the default and the count-based backend on the corpus tune split:
``nokta train --backend calibration``.

Every choice the default makes on the tune text typed in ASCII (the gold lines folded as
``nokta eval`` folds them: ``evaluate.ascii_inputs``) is kept with its shares, its kind
and whether the spelling written first is the gold one. For each kind, the temperature
on a fixed grid with the lowest log loss of the choices' confidences is kept
(``calibration.Calibration``). Choices whose other spellings have a share of exactly 0
(the float ran out) keep 1.0 at any temperature and are left out of the loss.

Each backend's weights and models decide its shares, so rerun this after
``nokta train --backend default`` (or any retrained model). The network runs in float32
(``neural.runtime.float32``), as in the weights' fit. Nothing here reads ``shared/bench``.
"""

from __future__ import annotations

import copy
import datetime
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..alphabet import fold_circumflex
from ..calibration import CALIBRATION_FILE, CALIBRATION_FILES, Calibration, write_calibration
from ..default import load_default_restorer
from ..evaluate import BATCH_LINES, ascii_inputs
from ..neural.runtime import float32
from ..ngram.model import NgramRestorer
from ..restorer import Restorer
from .corpus import default_corpus_dir, split_lines

#: Temperatures tried: from 0.5 to 100, 1% apart (1: the shares as they are).
TEMPERATURES = np.geomspace(0.5, 100.0, 534)


@dataclass(frozen=True)
class Decided:
    """One choice on gold text typed in ASCII."""

    shares: tuple[float, ...]  # of every spelling, best first, uncalibrated
    between_words: bool
    right: bool  # the spelling written first is the gold one


def decisions(restorer: Restorer, gold_lines: Sequence[str]) -> list[Decided]:
    """Every choice ``restorer`` makes on ``gold_lines`` typed in ASCII, with its shares."""
    uncalibrated = copy.copy(restorer)
    uncalibrated.calibration = Calibration()
    gold = [fold_circumflex(line) for line in gold_lines]
    inputs = ascii_inputs(gold_lines)
    found: list[Decided] = []
    for start in range(0, len(inputs), BATCH_LINES):
        batch = inputs[start : start + BATCH_LINES]
        for line, choices in zip(gold[start : start + BATCH_LINES], uncalibrated.choices(batch), strict=True):
            found.extend(
                Decided(
                    tuple(alt.score for alt in choice.alternatives),
                    choice.between_words,
                    choice.alternatives[0].text == line[choice.span.start : choice.span.end],
                )
                for choice in choices
            )
    return found


def log_loss(found: Sequence[Decided], temperature: float) -> float:
    """The mean log loss of the confidences at ``temperature`` (choices it can change)."""
    return float(_log_losses(found, np.array([temperature]))[0])


def _log_losses(found: Sequence[Decided], temperatures: np.ndarray) -> np.ndarray:
    """Mean log loss at each temperature, of the choices with another spelling's share above 0."""
    width = max((len(d.shares) for d in found), default=1)
    logs = np.full((len(found), width), -np.inf)
    for row, decided in enumerate(found):
        with np.errstate(divide="ignore"):
            logs[row, : len(decided.shares)] = np.log(decided.shares)
    gaps = logs[:, 1:] - logs[:, :1]  # each other spelling's log share below the best's (≤ 0)
    kept = np.isfinite(gaps).any(axis=1)
    gaps, right = gaps[kept], np.array([d.right for d in found])[kept]
    if not len(gaps):
        return np.zeros(len(temperatures))
    losses = []
    for temperature in temperatures:
        rest = np.exp(gaps / temperature).sum(axis=1)  # the others' weight against the best's 1
        log_best = -np.log1p(rest)  # log of the calibrated confidence
        log_other = np.log(rest) + log_best  # log of 1 - it
        losses.append(-np.where(right, log_best, log_other).mean())
    return np.array(losses)


def fit_temperature(found: Sequence[Decided]) -> float:
    """The temperature of ``TEMPERATURES`` with the lowest log loss on ``found``."""
    return round(float(TEMPERATURES[int(np.argmin(_log_losses(found, TEMPERATURES)))]), 4)


def fit_calibrations(corpus_dir: Path | None = None, output: Path | None = None, device: str = "auto") -> None:
    """Both shipped calibrations; with ``output``, the default's there and the count-based
    backend's beside it (``NAME_ngram.json``)."""
    default_output = Path(output) if output else CALIBRATION_FILE
    ngram_output = default_output.with_stem(f"{default_output.stem}_ngram") if output else CALIBRATION_FILES["ngram"]
    fit_calibration(load_default_restorer(None, device), corpus_dir, default_output)
    fit_calibration(NgramRestorer.load(), corpus_dir, ngram_output)


def fit_calibration(
    restorer: Restorer,
    corpus_dir: Path | None = None,
    output: Path = CALIBRATION_FILE,
    log: Callable[[str], None] = print,
) -> Calibration:
    started = time.perf_counter()
    gold = [line for _, line in split_lines(Path(corpus_dir or default_corpus_dir()), "tune")]
    with float32():  # the same shares on every CPU
        found = decisions(restorer, gold)
    words = [d for d in found if d.between_words]
    other = [d for d in found if not d.between_words]
    calibration = Calibration(between_words=fit_temperature(words), other=fit_temperature(other))
    provenance = {
        "backend": restorer.name,
        "fitted": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "seconds": round(time.perf_counter() - started),
        "tune_lines": len(gold),
        "choices": {"between_words": len(words), "other": len(other)},
        "log_loss": {
            kind: {"before": round(log_loss(chosen, 1.0), 5), "after": round(log_loss(chosen, temperature), 5)}
            for kind, chosen, temperature in (
                ("between_words", words, calibration.between_words),
                ("other", other, calibration.other),
            )
        },
        "temperatures_tried": [float(TEMPERATURES[0]), float(TEMPERATURES[-1]), len(TEMPERATURES)],
    }
    write_calibration(calibration, output, provenance)
    log(f"wrote {output}: {asdict(calibration)}")
    return calibration
