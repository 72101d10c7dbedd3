"""Hybrid decoding: the count-based lattice with the network's letter probabilities."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from tiny_corpus import write_tiny_corpus

from nokta_model.alphabet import AMBIGUOUS_LOWER
from nokta_model.default import HybridRestorer, HybridSettings
from nokta_model.neural import NeuralRestorer
from nokta_model.neural.config import ModelConfig
from nokta_model.neural.model import CharTagger
from nokta_model.ngram.model import NgramRestorer
from nokta_model.ngram.train import train_ngram

TRAIN = ["Yaşa ülkem, yaşa!", "Bu yasa meclisten geçti.", "Yeni yasa yürürlüğe girdi.", "Hava çok güzel bugün."] * 3


class FixedNetwork(NeuralRestorer):
    """A network stand-in: every ambiguous letter is its twin with probability ``p``."""

    def __init__(self, p: float) -> None:
        super().__init__(CharTagger(ModelConfig(embed_dim=4, hidden=4)))
        self.p, self.calls = p, 0

    def line_probabilities(self, lines):
        self.calls += len(lines)
        return [np.array([self.p if ch in AMBIGUOUS_LOWER else 0.0 for ch in line], dtype=np.float32) for line in lines]


@pytest.fixture(scope="module")
def ngram(tmp_path_factory):
    root = write_tiny_corpus(tmp_path_factory.mktemp("corpus"), TRAIN, ["ışık"])
    return NgramRestorer(train_ngram(root, log=lambda _: None))


def test_unseen_words_take_the_network_spelling(ngram):
    hybrid = HybridRestorer(ngram, FixedNetwork(0.9))
    assert hybrid.restore(["Hava cok guzel, zzgorus."]) == ["Hava çok güzel, zzğörüş."]


def test_with_weight_zero_the_network_runs_only_for_unseen_words(ngram):
    network = FixedNetwork(0.9)
    hybrid = HybridRestorer(ngram, network, HybridSettings(weight=0.0))
    assert hybrid.restore(["Bu yasa meclisten gecti.", "Hava cok guzel."]) == [
        "Bu yasa meclisten geçti.",
        "Hava çok güzel.",
    ]
    assert network.calls == 0


def test_a_weighted_network_can_overrule_the_context_among_attested_spellings(ngram):
    hybrid = HybridRestorer(ngram, FixedNetwork(0.999), HybridSettings(weight=20.0))
    assert hybrid.restore(["Bu yasa meclisten gecti."]) == ["Bu yaşa meclisten geçti."]
    plain = HybridRestorer(ngram, FixedNetwork(0.999), HybridSettings(weight=0.0))
    assert plain.restore(["Bu yasa meclisten gecti."]) == ["Bu yasa meclisten geçti."]


def test_hybrid_keeps_the_restorer_invariants(ngram):
    torch.manual_seed(0)
    hybrid = HybridRestorer(ngram, NeuralRestorer(CharTagger(ModelConfig(embed_dim=4, hidden=4))), HybridSettings(0.5))
    lines = ["YASA cok guzel Istanbul", "IŞIK ve sis, dogru-yanlis x_y www.site.com"]
    restored = hybrid.restore(lines)
    assert [len(line) for line in restored] == [len(line) for line in lines]
    assert hybrid.restore(restored) == restored
    for suggestion in hybrid.suggest(lines)[1]:
        assert suggestion.alternatives[0].text == suggestion.replacement


def test_unseen_mix_one_spells_unseen_words_like_the_count_based_model(ngram):
    lines = ["Hava cok guzel, zzgorus ve sisirgeclik."]
    counted_only = HybridRestorer(ngram, FixedNetwork(0.9), HybridSettings(weight=0.0, unseen_mix=1.0))
    assert counted_only.restore(lines) == ngram.restore(lines)
    assert HybridRestorer(ngram, FixedNetwork(0.9)).restore(lines) != ngram.restore(lines)


def test_the_shipped_default_is_the_hybrid_with_a_small_commercial_only_network():
    from nokta_model.backends import load_restorer
    from nokta_model.neural.restorer import SHIPPED

    assert SHIPPED.stat().st_size <= 15_000_000
    default = load_restorer("default", device="cpu")
    assert isinstance(default, HybridRestorer)
    assert "ud_imst.txt" not in {entry["file"] for entry in default.neural.meta["data_mix"]}
    assert default.restore(["Bugun hava cok guzel."]) == ["Bugün hava çok güzel."]
    assert all(suggestion.attested for suggestion in default.suggest(["Bugun hava cok guzel."])[0])
