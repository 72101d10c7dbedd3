"""Evidence from a wide Turkish language model for the words whose spellings compete.

Our corpus holds too few word pairs to choose between two real words (acı/açı,
oldu/öldü) by their neighbours. Zemberek's bigram model, counted on a far larger corpus
and distilled into ``ngram.wide_bigrams``, scores each spelling of such a word by its
neighbours: log10 P(spelling | word before) + log10 P(word after | spelling). Its words
include punctuation, so a neighbour is the mark between two words where there is one
(``,``), the sentence's start or end, or the next word read as its likeliest spelling
in the count-based lexicon (its own spelling is as uncertain as the word's); a word
the lexicon lacks says nothing as a neighbour. A spelling the wide model does not know
scores ``UNKNOWN_GAP`` below the best. Scores are relative to the word's best spelling
and clipped ``MAX_GAP`` below it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

import numpy as np

from ..lattice import UNK, Position
from ..spans import Span
from ..words import spell

SENTENCE_START, SENTENCE_END = "<s>", "</s>"
SENTENCE_MARKS = ".!?…"
MAX_GAP = 4.0  # log10: a spelling's score is at most this far below its word's best
UNKNOWN_GAP = 3.0  # … and a spelling the model does not know, this far


class BigramModel(Protocol):
    """log10 P(right | left) of lower-case spellings, with back-off; which it knows."""

    def log10_pairs(self, left: list[str], right: list[str]) -> np.ndarray: ...

    def known(self, spellings: list[str]) -> np.ndarray: ...


class LineWords(NamedTuple):
    """A line's text, its word tokens and their lattice positions."""

    text: str
    tokens: list[Span]
    positions: list[Position]


def wide_scores(model: BigramModel, counts: np.ndarray, lines: list[LineWords]) -> list[list[list[float] | None]]:
    """For each word of each line, its spellings' scores by their neighbours (None where
    fewer than two spellings compete); one batched lookup for all lines."""
    rows: list[tuple[int, int, int]] = []  # (line, word, spelling) of each query
    lefts: list[str | None] = []
    words: list[str] = []
    rights: list[str | None] = []
    for n, line in enumerate(lines):
        for w, position in enumerate(line.positions):
            if len(position.masks) < 2 or not position.key:
                continue
            left, right = _neighbours(line, w, counts)
            for c, mask in enumerate(position.masks):
                rows.append((n, w, c))
                lefts.append(left)
                words.append(spell(position.key, mask))
                rights.append(right)
    scores: list[list[list[float] | None]] = [[None] * len(line.positions) for line in lines]
    if not rows:
        return scores
    both = _known_pairs(model, [*lefts, *words], [*words, *rights])  # one lookup: (left, word), then (word, right)
    values = both[: len(words)] + both[len(words) :]
    values[~model.known(words)] = -np.inf
    for (n, w, c), value in zip(rows, values.tolist(), strict=True):
        found = scores[n][w]
        if found is None:
            found = scores[n][w] = [0.0] * len(lines[n].positions[w].masks)
        found[c] = value
    return [[None if found is None else _relative(found) for found in line_scores] for line_scores in scores]


def _neighbours(line: LineWords, index: int, counts: np.ndarray) -> tuple[str | None, str | None]:
    """The wide model's words before and after the word at ``index``."""
    tokens = line.tokens
    start = tokens[index - 1].end if index else 0
    end = tokens[index + 1].start if index + 1 < len(tokens) else len(line.text)
    before = line.text[start : tokens[index].start].strip()
    after = line.text[tokens[index].end : end].strip()
    if before:
        left: str | None = SENTENCE_START if before[-1] in SENTENCE_MARKS else before[-1]
    else:
        left = _likeliest(line.positions[index - 1], counts) if index else SENTENCE_START
    if after:
        right: str | None = after[0]
    else:
        right = _likeliest(line.positions[index + 1], counts) if index + 1 < len(tokens) else SENTENCE_END
    return left, right


def _likeliest(position: Position, counts: np.ndarray) -> str | None:
    """The spelling of a neighbour the lexicon counts most often (None: it counts none)."""
    known = [(float(counts[i]), mask) for i, mask in zip(position.ids, position.masks, strict=True) if i > UNK]
    if not known or not position.key:
        return None
    return spell(position.key, max(known)[1])


def _known_pairs(model: BigramModel, left: Sequence[str | None], right: Sequence[str | None]) -> np.ndarray:
    """log10 P(right | left) where both are known words, else 0 (the pair says nothing)."""
    values = np.zeros(len(left))
    pairs = [(i, a, b) for i, (a, b) in enumerate(zip(left, right, strict=True)) if a is not None and b is not None]
    if pairs:
        at, known_left, known_right = zip(*pairs, strict=True)
        values[list(at)] = model.log10_pairs(list(known_left), list(known_right))
    return values


def _relative(values: list[float]) -> list[float]:
    """Each value against the best (a word none of whose spellings the model knows: all 0)."""
    best = max(values)
    if best == -np.inf:
        return [0.0] * len(values)
    return [max(value - best, -UNKNOWN_GAP if value == -np.inf else -MAX_GAP) for value in values]
