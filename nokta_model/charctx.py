"""Cross-word character contexts: P(Turkish twin) of each ambiguous letter from the
ASCII letters around it, across spaces and punctuation, learned by counting.

In the spirit of Yuret & de la Maza's decision lists (2006), but counted rather than
searched: for every ambiguous letter of the training text, the windows of
``(left, right)`` characters around it along ``CHAIN`` (nested, each one letter longer
than the one before) are counted as "plain" or "twin". At restore time the estimate
starts at the letter's prior and walks up the chain, each seen window pulling the
estimate towards its own counts with Dirichlet smoothing (``SMOOTHING``), so a long
window seen twice moves it little and one seen a thousand times decides. Everything
is vectorised over whole batches of text: windows are hashed with a polynomial
rolling hash over code points and looked up in a sorted table. A letter typed as a
capital I is not counted: in correct Turkish it is ı (Işık) or, in a foreign word, i
(Index), so it is evidence of neither.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .alphabet import AMBIGUOUS_LOWER, LOWER_TWIN, asciify, tr_lower
from .errors import ModelFileError
from .ngram.tables import SortedTable, delta_planes, from_delta_planes, narrowed_pairs
from .npz import ArchiveFormat, load_archive, save_archive
from .spans import Span

#: Nested (left, right) windows around the letter, shortest first.
CHAIN = ((1, 1), (2, 1), (2, 2), (3, 2), (3, 3), (4, 3), (4, 4), (5, 4), (5, 5), (6, 5), (6, 6), (7, 7))
PAD = 8  # separator characters between lines: no window reaches into the next line
SMOOTHING = 3.0
MIN_COUNT = 2  # windows seen fewer times are not stored
MIN_LOGIT_CHANGE = 1.0  # nor windows that move the estimate less than this (log-odds)
ESTIMATE_BLOCK = 1 << 14  # ambiguous letters estimated at once: bounds the window tables in memory
_SEPARATOR = 2  # code point used for padding (never in text)
_BASE = np.uint64(0x100000001B3)
_TWINS = frozenset(LOWER_TWIN.values())
_AMBIGUOUS_CODES = np.array([ord(c) for c in AMBIGUOUS_LOWER], dtype=np.uint32)


def _codes(lines: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Code points of the lines joined with padding, and each line's start offset."""
    pad = chr(_SEPARATOR) * PAD
    joined = pad + pad.join(lines) + pad
    codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    lengths = np.array([len(line) + PAD for line in lines], dtype=np.int64)
    starts = PAD + np.concatenate([[0], np.cumsum(lengths)[:-1]]) if lines else np.zeros(0, dtype=np.int64)
    return codes, starts


def _inside(length: int, starts: np.ndarray, spans: list[list[Span]]) -> np.ndarray:
    """Which of ``length`` joined codes (``_codes``) lie inside their line's ``spans``."""
    offsets = [start for start, line_spans in zip(starts.tolist(), spans, strict=True) for _ in line_spans]
    flat = [span for line_spans in spans for span in line_spans]
    edges = np.zeros(length + 1, dtype=np.int64)
    np.add.at(edges, np.array([o + s.start for o, s in zip(offsets, flat, strict=True)], dtype=np.int64), 1)
    np.add.at(edges, np.array([o + s.end for o, s in zip(offsets, flat, strict=True)], dtype=np.int64), -1)
    return np.cumsum(edges[:-1]) > 0


def _prefix_hashes(codes: np.ndarray) -> np.ndarray:
    """prefix[i] = polynomial hash of codes[:i] (mod 2**64): any window's hash in O(1)."""
    prefix = np.zeros(len(codes) + 1, dtype=np.uint64)
    prefix[1:] = codes
    with np.errstate(over="ignore"):
        _polynomial_prefix(prefix)
    return prefix


def _window_hashes(prefix: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Hash of every ``CHAIN`` window around each position, from ``_prefix_hashes`` of
    the codes: shape (len(positions), len(CHAIN))."""
    powers = np.ones(2 * max(max(w) for w in CHAIN) + 2, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for i in range(1, len(powers)):
            powers[i] = powers[i - 1] * _BASE
        out = np.empty((len(positions), len(CHAIN)), dtype=np.uint64)
        for column, (left, right) in enumerate(CHAIN):
            start, end = positions - left, positions + right + 1
            window = prefix[end] - prefix[start] * powers[left + right + 1]
            out[:, column] = _mix(window ^ np.uint64(column * 0x9E3779B97F4A7C15 % 2**64))
    return (out >> np.uint64(1)).astype(np.int64)


def _polynomial_prefix(prefix: np.ndarray) -> None:
    """In place: prefix[i] = sum_{j<i} values[j] * B**(i-1-j), given prefix[1:] = values."""
    length, shift, power = len(prefix), 1, _BASE
    while shift < length:
        prefix[shift:] = prefix[shift:] + prefix[:-shift] * power
        power = power * power
        shift *= 2


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: spreads the bits of a polynomial hash."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


class ContextModel:
    """Sorted table: window hash -> (times plain, times twin); priors per ambiguous letter."""

    def __init__(self, table: SortedTable, priors: np.ndarray):
        self.table = table
        self.priors = priors  # code point -> P(twin) of that ambiguous letter, no context

    @classmethod
    def count(cls, weighted_lines: Iterable[tuple[str, int]], batch_chars: int = 4_000_000) -> ContextModel:
        """Count windows over correctly written lines, each line counted ``weight`` times."""
        parts: list[_Counts] = []
        batch: list[tuple[str, int]] = []
        size = 0
        for line, weight in weighted_lines:
            batch.append((line, weight))
            size += len(line)
            if size >= batch_chars:
                parts.append(_merge([*parts[-1:], _count_batch(batch)]))
                del parts[:-1]
                batch, size = [], 0
        if batch:
            parts.append(_count_batch(batch))
        return cls.from_counts(_merge(parts))

    @classmethod
    def from_counts(cls, counts: _Counts) -> ContextModel:
        keep = _pruned(counts)
        table = SortedTable(
            counts.hashes[keep], np.stack([counts.plain[keep], counts.twin[keep]], axis=1).astype(np.uint32)
        )
        return cls(table, _priors(table))

    def twin_probabilities(self, lines: list[str], spans: list[list[Span]] | None = None) -> list[np.ndarray]:
        """P(twin) at every position of each ``model_lower``-ed line (NaN where not ambiguous);
        given ``spans`` (per line, not overlapping), only at the positions inside them (NaN
        elsewhere)."""
        folded = [asciify(line) for line in lines]
        codes, starts = _codes(folded)
        positions = np.flatnonzero(np.isin(codes, _AMBIGUOUS_CODES))
        if spans is not None:
            positions = positions[_inside(len(codes), starts, spans)[positions]]
        prefix = _prefix_hashes(codes)
        probabilities = np.full(len(codes), np.nan)
        for first in range(0, len(positions), ESTIMATE_BLOCK):
            block = positions[first : first + ESTIMATE_BLOCK]
            probabilities[block] = self._estimate(codes, prefix, block)
        return [probabilities[start : start + len(line)] for start, line in zip(starts.tolist(), folded, strict=True)]

    def _estimate(self, codes: np.ndarray, prefix: np.ndarray, positions: np.ndarray) -> np.ndarray:
        estimate = self.priors[codes[positions]]
        counts = self.table.get(_window_hashes(prefix, positions).ravel(), default=0).reshape(len(positions), -1, 2)
        for column in range(len(CHAIN)):
            plain, twin = counts[:, column, 0].astype(np.float64), counts[:, column, 1].astype(np.float64)
            estimate = (twin + SMOOTHING * estimate) / (plain + twin + SMOOTHING)
        return estimate


@dataclass
class _Counts:
    """Counted windows: hash, times plain, times twin, the hash of the window one step
    shorter on the chain (the letter's prior row for the first), and the chain step."""

    hashes: np.ndarray
    plain: np.ndarray
    twin: np.ndarray
    parents: np.ndarray
    steps: np.ndarray


def _count_batch(batch: list[tuple[str, int]]) -> _Counts:
    lowered = [tr_lower(line) for line, _ in batch]
    codes, starts = _codes([asciify(line) for line in lowered])
    gold, _ = _codes(lowered)
    weights = np.zeros(len(codes), dtype=np.int64)
    for start, (line, weight) in zip(starts.tolist(), batch, strict=True):
        weights[start : start + len(line)] = weight
    typed, _ = _codes([line for line, _ in batch])
    weights[typed == ord("I")] = 0  # a capital I is ı or, in a foreign word, i: no evidence
    positions = np.flatnonzero(np.isin(codes, _AMBIGUOUS_CODES))
    is_twin = np.isin(gold[positions], np.array([ord(c) for c in _TWINS], dtype=np.uint32))
    priors = -(codes[positions].astype(np.int64) + 1)  # negative keys: the letter's prior, no context
    chain = np.concatenate([priors[:, None], _window_hashes(_prefix_hashes(codes), positions)], axis=1)
    steps = np.broadcast_to(np.arange(-1, len(CHAIN), dtype=np.int8), chain.shape)
    parents = np.concatenate([priors[:, None], chain[:, :-1]], axis=1)
    return _summed(
        chain.ravel(),
        np.repeat(weights[positions] * ~is_twin, chain.shape[1]).astype(np.float64),
        np.repeat(weights[positions] * is_twin, chain.shape[1]).astype(np.float64),
        parents.ravel(),
        steps.ravel(),
    )


def _summed(hashes: np.ndarray, plain: np.ndarray, twin: np.ndarray, parents: np.ndarray, steps: np.ndarray) -> _Counts:
    unique, first, inverse = np.unique(hashes, return_index=True, return_inverse=True)
    return _Counts(
        unique,
        np.bincount(inverse, weights=plain, minlength=len(unique)),
        np.bincount(inverse, weights=twin, minlength=len(unique)),
        parents[first],
        steps[first],
    )


def _merge(parts: list[_Counts]) -> _Counts:
    return _summed(*(np.concatenate([getattr(p, name) for p in parts]) for name in _Counts.__dataclass_fields__))


def _pruned(counts: _Counts) -> np.ndarray:
    """Which windows to store: seen ``MIN_COUNT`` times, and moving the estimate of the
    window one step shorter by more than ``MIN_LOGIT_CHANGE`` (else it adds nothing)."""
    total = counts.plain + counts.twin
    parent_rows = np.searchsorted(counts.hashes, counts.parents)
    estimate = np.zeros(len(total))
    for step in range(-1, len(CHAIN)):
        rows = np.flatnonzero(counts.steps == step)
        prior = 0.5 if step < 0 else estimate[parent_rows[rows]]
        estimate[rows] = (counts.twin[rows] + SMOOTHING * prior) / (total[rows] + SMOOTHING)
    logit = np.log(estimate + 1e-9) - np.log1p(1e-9 - estimate)
    moves = np.abs(logit - logit[parent_rows]) > MIN_LOGIT_CHANGE
    return (counts.steps < 0) | ((total >= MIN_COUNT) & moves)


def _priors(table: SortedTable) -> np.ndarray:
    """Code point (below 128) -> P(twin) of that ambiguous letter, from the prior rows (negative keys)."""
    counts = table.get(-(_AMBIGUOUS_CODES.astype(np.int64) + 1), default=0).astype(np.float64)
    priors = np.full(128, 0.5)
    priors[_AMBIGUOUS_CODES] = (counts[:, 1] + 0.5) / (counts.sum(axis=1) + 1.0)
    return priors


DEFAULT_CONTEXT_MODEL = Path(__file__).resolve().parent / "data" / "context.npz"
ARCHIVE = ArchiveFormat(  # window hashes stored as ``delta_planes`` (version 2)
    "nokta-charctx", 2, {"window_hashes": (np.uint8, 2), "window_counts": (np.uint32, 2), "priors": (np.float64, 1)}
)


def save_context_model(model: ContextModel, path: Path, info: dict) -> None:
    arrays = {
        "window_hashes": delta_planes(model.table.keys),
        "window_counts": model.table.values.astype(np.uint32),
        "priors": model.priors,
    }
    save_archive(ARCHIVE, arrays, path, {"chain": [list(w) for w in CHAIN], "smoothing": SMOOTHING, **info})


def load_context_model(path: Path | None = None) -> ContextModel:
    path = Path(path) if path else DEFAULT_CONTEXT_MODEL
    meta, arrays = load_archive(ARCHIVE, path)
    if meta.get("chain") != [list(w) for w in CHAIN] or len(arrays["priors"]) != 128:
        raise ModelFileError(f"{path}: counted with other context windows than this nokta uses")
    try:
        keys = from_delta_planes(arrays["window_hashes"])
        return ContextModel(SortedTable(keys, narrowed_pairs(arrays["window_counts"])), arrays["priors"])
    except ValueError as error:
        raise ModelFileError(f"{path}: inconsistent tables ({error})") from None
