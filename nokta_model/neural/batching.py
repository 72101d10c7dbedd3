"""Batched inference, whatever runs the network: per position of each folded line, the
probability that the letter there is its Turkish twin. Lines longer than the model's
window are cut into overlapping windows. Pieces are sorted by length and cut into the
batches that cost least (``_batches``): every row of a batch runs as many steps as its
longest, so mixing short pieces with long ones computes padding, while each batch's
every step also costs a fixed share (``STEP_COST_ROWS``), so many small batches cost more
than a few full ones."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .config import ModelConfig
from .runtime import Tagger
from .vocab import BOUNDARY, PAD, encode_input, encode_key

#: Characters per network batch: bounds the activations held at once (larger batches
#: raised the peak memory for no gain in speed).
BATCH_TOKENS = 4_000
MAX_BATCH = 512
#: Batch widths are padded to a multiple of this: a runtime may keep what it builds for
#: each shape it meets (oneDNN did, and with bfloat16 that grew the CLI's and the server's
#: peak memory with the size of their input). Not larger: the default's windows around
#: words are a few dozen letters, and rounding them up further computes mostly padding.
WIDTH_STEP = 8
#: What a batch's step costs besides its rows' letters, in rows' worth (measured for the
#: shipped LSTM on this project's CPU: bench/results/default_speed.md).
STEP_COST_ROWS = 6


@dataclass
class Piece:
    line: int
    start: int  # offset of the piece in the line's id sequence (boundaries included)
    ids: np.ndarray
    keep_from: int  # positions [keep_from, keep_to) of the piece are kept
    keep_to: int


def twin_probabilities(tagger: Tagger, keys: list[str]) -> list[np.ndarray]:
    """For each folded line (a cased model's: asciified, its capitals kept), float32
    P(twin) per code point (0 where no head applies)."""
    out = [np.zeros(len(key) + 2, dtype=np.float32) for key in keys]
    pieces = [piece for index, key in enumerate(keys) for piece in _pieces(index, key, tagger.config)]
    pieces.sort(key=lambda piece: len(piece.ids))
    for batch in batches(pieces):
        ids, lengths = padded(batch)
        for piece, row in zip(batch, tagger.probabilities(ids, lengths), strict=True):
            out[piece.line][piece.start + piece.keep_from : piece.start + piece.keep_to] = row[
                piece.keep_from : piece.keep_to
            ]
    return [probabilities[1:-1] for probabilities in out]


def padded(batch: list[Piece]) -> tuple[np.ndarray, np.ndarray]:
    """The batch's ids padded to its width, and each row's length."""
    ids = np.full((len(batch), _width(max(len(piece.ids) for piece in batch))), PAD, dtype=np.int64)
    for row, piece in enumerate(batch):
        ids[row, : len(piece.ids)] = piece.ids
    return ids, np.array([len(piece.ids) for piece in batch], dtype=np.int64)


def _pieces(index: int, key: str, config: ModelConfig) -> list[Piece]:
    encoded = encode_input(key, cased=True) if config.cased else encode_key(key)
    ids = np.concatenate(([BOUNDARY], encoded, [BOUNDARY])).astype(np.int64)
    window, context = config.window, config.window_context
    if len(ids) <= window:
        return [Piece(index, 0, ids, 0, len(ids))]
    pieces, start, step = [], 0, window - 2 * context
    while True:
        last = start + window >= len(ids)
        keep_from = 0 if start == 0 else context
        keep_to = len(ids) - start if last else window - context
        pieces.append(Piece(index, start, ids[start : start + window], keep_from, keep_to))
        if last:
            return pieces
        start += step


def batches(pieces: list[Piece]) -> list[list[Piece]]:
    """``pieces`` (sorted by length) cut into batches of consecutive pieces at the least
    cost: a batch of n rows padded to width w costs w * (n + ``STEP_COST_ROWS``). Pieces of
    one padded width go to consecutive batches of at most ``_rows_of`` rows; which widths
    share batches is chosen by dynamic programming over the (few) widths."""
    groups: dict[int, list[Piece]] = {}
    for piece in pieces:
        groups.setdefault(_width(len(piece.ids)), []).append(piece)
    widths = list(groups)
    least = [0.0] + [math.inf] * len(widths)  # least[j]: cost of the first j widths
    first = [0] * (len(widths) + 1)  # first[j]: index of the first width of the last run
    for end in range(1, len(widths) + 1):
        width, rows, count = widths[end - 1], _rows_of(widths[end - 1]), 0
        for start in range(end, 0, -1):
            count += len(groups[widths[start - 1]])
            cost = least[start - 1] + width * (count + STEP_COST_ROWS * math.ceil(count / rows))
            if cost < least[end]:
                least[end], first[end] = cost, start - 1
    chosen: list[list[Piece]] = []
    end = len(widths)
    while end:
        start = first[end]
        run = [piece for width in widths[start:end] for piece in groups[width]]
        rows = _rows_of(widths[end - 1])
        chosen[:0] = [run[i : i + rows] for i in range(0, len(run), rows)]
        end = start
    return chosen


def _width(length: int) -> int:
    return WIDTH_STEP * math.ceil(length / WIDTH_STEP)


def _rows_of(width: int) -> int:
    """Rows of a batch of ``width``: at most ``MAX_BATCH`` and ``BATCH_TOKENS`` characters."""
    return max(1, min(MAX_BATCH, BATCH_TOKENS // width))
