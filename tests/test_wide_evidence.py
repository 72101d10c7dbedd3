"""The default's evidence from the wide language model: which neighbours each spelling is scored beside."""

from __future__ import annotations

import numpy as np

from nokta_model.default.wide import MAX_GAP, UNKNOWN_GAP, LineWords, wide_scores
from nokta_model.lattice import Position
from nokta_model.spans import word_spans
from nokta_model.words import spelling_mask, token_key


class PairModel:
    """A bigram model from a table of log10 values; every other pair scores ``floor``."""

    def __init__(self, pairs: dict[tuple[str, str], float], words: set[str], floor: float = -6.0) -> None:
        self.pairs, self.words, self.floor = pairs, words, floor
        self.asked: list[tuple[str, str]] = []

    def log10_pairs(self, left: list[str], right: list[str]) -> np.ndarray:
        self.asked += list(zip(left, right, strict=True))
        return np.array([self.pairs.get(pair, self.floor) for pair in zip(left, right, strict=True)])

    def known(self, spellings: list[str]) -> np.ndarray:
        return np.array([spelling in self.words for spelling in spellings])


def _line(text: str, spellings: dict[str, list[str]]) -> LineWords:
    """A line whose words have the given spellings (id 3, counted, for each), others one."""
    tokens = word_spans(text)
    positions = []
    for token in tokens:
        key = token_key(text[token.start : token.end])
        masks = [spelling_mask(key, spelling) or 0 for spelling in spellings.get(key, [key])]
        positions.append(Position([3 + i for i in range(len(masks))], masks=masks, key=key))
    return LineWords(text, tokens, positions)


COUNTS = np.ones(16)


def test_each_spelling_is_scored_beside_its_neighbours_relative_to_the_best() -> None:
    line = _line("cok aci bir olay", {"aci": ["acı", "açı"]})
    pairs = {("çok", "acı"): -1.0, ("acı", "bir"): -1.5, ("çok", "açı"): -3.0, ("açı", "bir"): -2.0}
    model = PairModel(pairs, {"acı", "açı"})
    line = line._replace(positions=[_respelled(line.positions[0], "çok"), *line.positions[1:]])
    scores = wide_scores(model, COUNTS, [line])
    assert scores[0][0] is None and scores[0][2] is None  # one spelling: nothing to choose
    assert scores[0][1] == [0.0, -2.5]  # açı: -3 - 2 against acı: -1 - 1.5
    assert ("acı", "bir") in model.asked and ("çok", "açı") in model.asked


def test_punctuation_and_the_sentence_edges_are_the_neighbours_where_they_stand() -> None:
    line = _line("Gol, bitti. Su", {"gol": ["gol", "göl"], "su": ["su", "şu"]})
    model = PairModel({}, {"gol", "göl", "su", "şu"})
    wide_scores(model, COUNTS, [line])
    assert ("<s>", "gol") in model.asked and ("göl", ",") in model.asked  # the comma, not "bitti"
    assert ("<s>", "su") in model.asked and ("şu", "</s>") in model.asked  # after a full stop: a new sentence


def test_a_spelling_the_model_lacks_scores_below_the_best_and_the_gap_is_clipped() -> None:
    line = _line("sik", {"sik": ["sık", "şık", "sik"]})
    model = PairModel({("<s>", "sık"): -1.0, ("<s>", "şık"): -20.0}, {"sık", "şık"})
    (scores,) = wide_scores(model, COUNTS, [line])
    assert scores[0] == [0.0, -MAX_GAP, -UNKNOWN_GAP]


def test_a_word_none_of_whose_spellings_the_model_knows_scores_nothing() -> None:
    line = _line("zzgorus", {"zzgorus": ["zzgörüş", "zzgorus"]})
    (scores,) = wide_scores(PairModel({}, set()), COUNTS, [line])
    assert scores[0] == [0.0, 0.0]


def _respelled(position: Position, spelling: str) -> Position:
    return Position(position.ids, masks=[spelling_mask(position.key, spelling) or 0], key=position.key)
