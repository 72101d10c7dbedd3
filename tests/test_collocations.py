"""Collocation scores: each confusable word's spellings scored by the neighbours written
beside them, all words of a batch looked up and summed together, exactly as one word at a
time by the formula of ``ngram.collocations``."""

import math

import numpy as np

from nokta_model.lattice import UNK, Position
from nokta_model.ngram.collocations import (
    DISTANCE_WEIGHTS,
    MAX_LOG_RATIO,
    PRIOR_WEIGHT,
    collocation_scores,
    edge_stem,
    pair_keys,
    stem_hashes,
)
from nokta_model.ngram.tables import SortedTable

# word ids 3..8: su (3) / şu (4), gol (5) / göl (6) / göL (7: a third spelling), kule (8)
COUNTS = np.array([0, 0, 0, 900, 300, 50, 40, 5, 70], dtype=np.float32)
CONFUSABLE = np.array([False, False, False, True, True, True, True, True, False])
STEMS = {
    "<s>": edge_stem(0),
    "</s>": edge_stem(1),
    **dict(zip(["kule", "su", "gol"], stem_hashes(["kule", "su", "gol"]).tolist(), strict=True)),
}
BESIDE = {(3, 1, "kule"): 40.0, (4, 1, "kule"): 2.0, (4, -1, "<s>"): 30.0, (6, 1, "</s>"): 9.0, (5, -2, "kule"): 4.0}


def _table() -> SortedTable:
    keys = pair_keys(
        np.array([word for word, _, _ in BESIDE]),
        np.array([offset for _, offset, _ in BESIDE]),
        np.array([STEMS[stem] for _, _, stem in BESIDE], dtype=np.int64),
    )
    return SortedTable.build(keys, np.array(list(BESIDE.values()), dtype=np.float32))


def _one_word(ids: list[int], neighbours: dict[int, str]) -> list[float]:
    """The module's formula for one word, offset after offset in plain Python."""
    prior = [(float(COUNTS[i]) if i != UNK else 0.0) + 1e-3 for i in ids]
    shares = [p / sum(prior) for p in prior]
    total = [0.0] * len(ids)
    for offset, stem in neighbours.items():
        seen = [BESIDE.get((i, offset, stem), 0.0) for i in ids]
        for c, (count, share) in enumerate(zip(seen, shares, strict=True)):
            ratio = math.log((count + PRIOR_WEIGHT * share) / ((sum(seen) + PRIOR_WEIGHT) * share))
            total[c] += DISTANCE_WEIGHTS[offset] * min(max(ratio, -MAX_LOG_RATIO), MAX_LOG_RATIO)
    return total


def test_each_word_of_a_batch_scores_as_alone_by_the_formula():
    su, gol, kule = Position([3, 4], key="su"), Position([5, 6, 7], key="gol"), Position([8], key="kule")
    unseen = Position([UNK, UNK], key="xq")
    sentences = [[su, kule, gol], [gol], [unseen, su, kule]]
    scores = collocation_scores(_table(), COUNTS, CONFUSABLE, sentences)
    expected = [
        [
            _one_word(su.ids, {-2: "<s>", -1: "<s>", 1: "kule", 2: "gol"}),
            None,
            _one_word(gol.ids, {-2: "su", -1: "kule", 1: "</s>"}),
        ],
        [_one_word(gol.ids, {-2: "<s>", -1: "<s>", 1: "</s>"})],
        [None, _one_word(su.ids, {-2: "<s>", -1: "xq", 1: "kule", 2: "</s>"}), None],
    ]
    assert [[None if s is None else len(s) for s in line] for line in scores] == [[2, None, 3], [3], [None, 2, None]]
    for line, wanted in zip(scores, expected, strict=True):
        for found, value in zip(line, wanted, strict=True):
            assert (found is None) == (value is None)
            if found is not None:
                np.testing.assert_allclose(found, value, rtol=1e-12, atol=1e-12)
    assert scores[0][0][1] > scores[0][0][0]  # şu is written at a sentence's start more than su is
    assert scores[2][1][0] > scores[2][1][1]  # … and su before kule (su kulesi)
