"""Fitting the default's weights on a tune split: the errors it reports never grow."""

from __future__ import annotations

import json

import numpy as np
import pytest

from nokta_model.charctx import ContextModel
from nokta_model.default import DefaultRestorer, Weights
from nokta_model.ngram.model import NgramRestorer
from nokta_model.training.corpus import split_lines
from nokta_model.training.default_fit import RULE_WEIGHTS, fit_weights, with_slips
from nokta_model.training.ngram_counts import train_ngram
from tests.fixed_network import FixedNetwork
from tests.tiny_corpus import write_tiny_corpus

LINES = [f"Bu yasa {n}. kez meclisten geçti, hava çok güzel." for n in range(120)] + [
    f"Yaşa ülkem, yaşa {n} kez!" for n in range(120)
]


def test_slips_drop_turkish_letters_from_some_words_only():
    slipped = with_slips(["Çok güzel bir gün, ışık saçıyor."] * 50, rate=0.2)
    changed = {line for line in slipped if line != "Çok güzel bir gün, ışık saçıyor."}
    assert changed and all(len(line) == len("Çok güzel bir gün, ışık saçıyor.") for line in slipped)
    assert "Çok güzel bir gün, ışık saçıyor." in slipped


def test_the_fit_writes_weights_that_are_no_worse_on_the_tune_split(tmp_path):
    (tmp_path / "corpus").mkdir()
    corpus = write_tiny_corpus(tmp_path / "corpus", LINES, ["ışık"])
    assert list(split_lines(corpus, "tune"))  # some lines fall in the tune split
    ngram = NgramRestorer(train_ngram(corpus, log=lambda _: None))
    context = ContextModel.count((line, 1) for _, line in split_lines(corpus, "train"))
    log: list[str] = []
    fitted = fit_weights(
        DefaultRestorer(ngram, context, FixedNetwork(0.5), Weights(context=8.0)),
        corpus,
        tmp_path / "default.json",
        sweeps=1,
        log=log.append,
    )
    saved = json.loads((tmp_path / "default.json").read_text(encoding="utf-8"))
    assert Weights.from_dict(saved["weights"]) == fitted
    assert fitted.particle_harmony == RULE_WEIGHTS["particle_harmony"]
    start = int(log[0].split()[1])
    assert saved["tune_word_errors_ascii"] <= start
    assert np.isfinite(list(saved["weights"].values())).all()
    # The weights the models were loaded with play no part: the fit is reproducible.
    again = fit_weights(
        DefaultRestorer(ngram, context, FixedNetwork(0.5), Weights(network=4.0)),
        corpus,
        tmp_path / "again.json",
        sweeps=1,
        log=lambda _: None,
    )
    assert again == fitted


def test_weights_refuse_unknown_names():
    with pytest.raises(ValueError, match="unknown weights"):
        Weights.from_dict({"context": 1.0, "nonsense": 2.0})
