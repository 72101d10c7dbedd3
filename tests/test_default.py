"""The default: the count-based lattice scored by the context model, the network and the rules."""

from __future__ import annotations

import pytest
import torch

from nokta_model.charctx import ContextModel
from nokta_model.default import DefaultRestorer, Weights
from nokta_model.default import restorer as default_restorer
from nokta_model.default.features import (
    harmony_variants,
    in_harmony,
    is_detached_suffix,
    is_hyphenated_suffix,
)
from nokta_model.lattice import Position
from nokta_model.neural import NeuralRestorer
from nokta_model.neural.config import ModelConfig
from nokta_model.neural.model import CharTagger
from nokta_model.neural.torch_tagger import TorchTagger
from nokta_model.ngram.model import NgramRestorer
from nokta_model.training.ngram_counts import train_ngram
from tests.fixed_network import FixedNetwork
from tests.tiny_corpus import write_tiny_corpus

TRAIN = [
    "Yaşa ülkem, yaşa!", "Bu yasa meclisten geçti.", "Yeni yasa yürürlüğe girdi.", "Hava çok güzel bugün.",
    "Geldin mi?", "Bu iyi mi?", "Kötü mü?", "Olmuş mu?", "Gol atıldı.", "Dağdaki gölü gördük.",
    "Sabah süt içtik.", "Bir gün süt aldık.", "Bir sut gördük.",
] * 3  # fmt: skip
LEXICON = ["ışık", "mı", "mi", "mu", "mü", "kötü", "golü", "gölü"]


@pytest.fixture(scope="module")
def ngram(tmp_path_factory):
    root = write_tiny_corpus(tmp_path_factory.mktemp("corpus"), TRAIN, LEXICON)
    return NgramRestorer(train_ngram(root, log=lambda _: None))


@pytest.fixture(scope="module")
def context():
    return ContextModel.count((line, 1) for line in TRAIN)


def default(ngram, context_model, neural, **weights) -> DefaultRestorer:
    return DefaultRestorer(ngram, context_model, neural, Weights(**weights))


def test_unseen_words_take_the_network_spelling(ngram, context):
    restorer = default(ngram, context, FixedNetwork(0.9), unseen_network=1.0, unseen_counted=0.0)
    assert restorer.restore(["Hava cok guzel, zzgorus."]) == ["Hava çok güzel, zzğörüş."]


def test_with_weight_zero_the_network_runs_only_for_unseen_words(ngram, context):
    network = FixedNetwork(0.9)
    restorer = default(ngram, context, network, network=0.0)
    assert restorer.restore(["Bu yasa meclisten gecti.", "Hava cok guzel."]) == [
        "Bu yasa meclisten geçti.",
        "Hava çok güzel.",
    ]
    assert network.calls == 0


def test_a_weighted_network_can_overrule_the_context_among_attested_spellings(ngram, context, monkeypatch):
    monkeypatch.setattr(default_restorer, "NETWORK_BELOW_SHARE", 2.0)  # asked about every competing word
    weighted = default(ngram, context, FixedNetwork(0.999), network=20.0, context=0.0)
    assert weighted.restore(["Bu yasa meclisten gecti."]) == ["Bu yaşa meclisten geçti."]
    plain = default(ngram, context, FixedNetwork(0.999), network=0.0, context=0.0)
    assert plain.restore(["Bu yasa meclisten gecti."]) == ["Bu yasa meclisten geçti."]


def test_the_network_is_asked_only_about_words_the_count_models_leave_in_doubt(ngram, context, monkeypatch):
    network = FixedNetwork(0.999)
    restorer = default(ngram, context, network, network=20.0, context=0.0)
    line = "Bu yasa meclisten gecti."  # yasa: 3 counts beside its neighbours, yaşa none
    assert restorer.restore([line]) == ["Bu yasa meclisten geçti."]
    assert network.calls == 0
    monkeypatch.setattr(default_restorer, "NETWORK_BELOW_SHARE", 2.0)
    assert restorer.restore([line]) == ["Bu yaşa meclisten geçti."]
    assert network.calls == 1


def test_a_competing_word_nearly_decided_gets_a_narrower_network_window(ngram, context, monkeypatch):
    network, asked = FixedNetwork(0.999), []
    answer = network.line_probabilities
    monkeypatch.setattr(network, "line_probabilities", lambda lines: asked.extend(lines) or answer(lines))
    restorer = default(ngram, context, network, network=20.0, context=0.0)
    monkeypatch.setattr(default_restorer, "NETWORK_BELOW_SHARE", 2.0)  # every competing word is asked
    for narrow_from in (2.0, 0.0):  # never narrowed, always narrowed
        monkeypatch.setattr(default_restorer, "NARROW_FROM_SHARE", narrow_from)
        restorer.restore(["Bu yasa meclisten gecti."])
    line, yasa_end = "Bu yasa meclisten gecti", 7  # as typed: a network may read case
    wide, narrow = default_restorer.COMPETING_CONTEXT, default_restorer.NARROW_CONTEXT
    assert narrow < wide
    assert asked == [line[: yasa_end + wide], line[: yasa_end + narrow]]  # all before yasa: it is 3 letters in


def test_lines_decoded_in_chunks_restore_as_in_one_and_the_network_reads_each_line_alone(ngram, context, monkeypatch):
    torch.manual_seed(0)
    network = NeuralRestorer(TorchTagger(CharTagger(ModelConfig(embed_dim=4, hidden=4))))
    asked: list[list[str]] = []
    answer = network.line_probabilities
    monkeypatch.setattr(network, "line_probabilities", lambda lines: asked.append(lines) or answer(lines))
    restorer = default(ngram, context, network, network=1.0, unseen_network=1.0)
    lines = ["Hava cok guzel, zzgorus.", "Bu yasa meclisten gecti.", "Kotu mu? zzsiris", "Sabah sut ictik."] * 3
    monkeypatch.setattr(default_restorer, "CHUNK_CHARS", 10**6)
    whole = restorer.restore(lines)
    unseen = sum("zz" in line for line in lines)  # the lines with unseen words, a network batch each
    assert len(asked) == unseen
    monkeypatch.setattr(default_restorer, "CHUNK_CHARS", 1)  # a chunk per line
    assert restorer.restore(lines) == whole
    assert len(asked) == 2 * unseen


def test_the_default_keeps_the_restorer_invariants(ngram, context):
    torch.manual_seed(0)
    network = NeuralRestorer(TorchTagger(CharTagger(ModelConfig(embed_dim=4, hidden=4))))
    restorer = default(ngram, context, network, network=0.5, particle_harmony=1.0, typed_line=1.0)
    lines = ["YASA cok guzel Istanbul", "IŞIK ve sis, dogru-yanlis x_y www.site.com", "Kotu mu? mı mü"]
    restored = restorer.restore(lines)
    assert [len(line) for line in restored] == [len(line) for line in lines]
    assert restorer.restore(restored) == restored
    for suggestion in restorer.suggest(lines)[1]:
        assert suggestion.alternatives[0].text == suggestion.replacement


def test_unseen_counted_alone_spells_unseen_words_like_the_count_based_model(ngram, context):
    lines = ["Hava cok guzel, zzgorus ve sisirgeclik."]
    counted_only = default(ngram, context, FixedNetwork(0.9), unseen_network=0.0, unseen_counted=1.0)
    assert counted_only.restore(lines) == ngram.restore(lines)
    networked = default(ngram, context, FixedNetwork(0.9), unseen_network=1.0, unseen_counted=0.0)
    assert networked.restore(lines) != ngram.restore(lines)


def test_the_question_particle_follows_the_vowel_harmony_of_the_word_before(ngram, context):
    restorer = default(ngram, context, FixedNetwork(0.5), context=0.0, particle_harmony=4.0)
    assert restorer.restore(["Geldin mi?", "Bu iyi mi yoksa kotu mu?", "Olmus mu?"]) == [
        "Geldin mi?",
        "Bu iyi mi yoksa kötü mü?",
        "Olmuş mu?",
    ]


def test_only_suffixes_that_no_word_spells_count_as_detached():
    assert all(is_detached_suffix(key) for key in ("dir", "dim", "tir", "nin", "li", "lik", "si", "yi"))
    assert not any(is_detached_suffix(key) for key in ("dik", "in", "i", "sin", "tur", "mi"))


def test_hyphen_cut_suffixes_but_not_the_izafet():
    assert all(is_hyphenated_suffix(key) for key in ("di", "dir", "tin", "mis", "im", "sin", "siniz", "niz", "lik"))
    assert not any(is_hyphenated_suffix(key) for key in ("i", "yi", "kitap", "misal"))


def test_harmony_variants_spell_every_high_vowel_alike_under_the_id_they_come_from():
    ids, masks = harmony_variants(Position([7, 8], masks=[0b100, 0b000], key="mis"))  # miş, mis
    assert dict(zip(masks, ids, strict=True)) == {0b100: 7, 0b110: 7, 0b000: 8, 0b010: 8}  # + mış, mıs
    siniz = Position([5, 5, 5], masks=[0b00000, 0b01010, 0b00010], key="siniz")  # siniz, sınız, sıniz
    assert in_harmony(siniz, "ı") == [False, True, False]
    assert in_harmony(Position([5, 5], masks=[0, 1], key="i"), "u") == [True, True]  # Kanun-i: no u to spell


def test_a_hyphen_cut_suffix_keeps_only_spellings_with_every_vowel_in_harmony(ngram, context):
    # sınız and sıniz agree on the first vowel; only sınız has every vowel as wanted
    siniz = Position([5, 5], [0.0, -1.0], masks=[0b00010, 0b01010], key="siniz")
    kept = default(ngram, context, FixedNetwork(0.5))._harmonised(siniz, "ı", hyphen_cut=True)
    assert kept.masks == [0b01010] and kept.emissions == [-1.0]


def test_a_word_typed_with_a_turkish_letter_keeps_its_other_letters(ngram, context):
    # The context prefers gölü here; the writer typed ü and left the o plain, so golü stays.
    line = "Dağdaki golü gördük."
    assert default(ngram, context, FixedNetwork(0.5), typed_word=20.0).restore([line]) == [line]
    assert default(ngram, context, FixedNetwork(0.5)).restore([line]) == ["Dağdaki gölü gördük."]


def test_letter_models_weigh_less_where_no_neighbour_was_counted_beside_the_word(ngram, context, monkeypatch):
    # süt is counted twice as often as sut; the network leans to sut by logit(0.25) (1.1),
    # more than the counts' log ratio (0.7) at full weight, less at half weight.
    line = "Zzz sut zzz."
    restorer = default(ngram, context, FixedNetwork(0.25), context=0.0, network=1.0)
    assert restorer.restore([line]) == ["Zzz süt zzz."]
    monkeypatch.setattr(default_restorer, "UNATTESTED_LETTER_SCALE", 1.0)
    assert restorer.restore([line]) == ["Zzz sut zzz."]


def test_a_capital_i_stays_undotted_in_a_word_the_lexicon_has_not_seen(ngram, context):
    restorer = default(ngram, context, FixedNetwork(0.1))
    assert restorer.restore(["Intel ve IŞIK"]) == ["Intel ve IŞIK"]


def test_the_shipped_default_is_the_lattice_with_every_model():
    from nokta_model.backends import load_restorer
    from nokta_model.neural.runtime import SHIPPED_GRAPH, SHIPPED_WEIGHTS

    assert SHIPPED_WEIGHTS.stat().st_size <= 15_000_000 and SHIPPED_GRAPH.stat().st_size <= 5_000_000
    shipped = load_restorer("default", device="cpu")
    assert isinstance(shipped, DefaultRestorer)
    assert "ud_imst.txt" not in {entry["file"] for entry in shipped.neural.load().meta["data_mix"]}
    assert shipped.restore(["Bugun hava cok guzel."]) == ["Bugün hava çok güzel."]
    [suggestions] = shipped.suggest(["Bugün hava cok guzel."])
    assert [(s.replacement, s.attested) for s in suggestions] == [("çok", True), ("güzel", True)]


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("Geldin mi?", "Geldin mi?"),
        ("Bu iyi mi yoksa kotu mu?", "Bu iyi mi yoksa kötü mü?"),
        ("M.O. 300 yilinda", "M.Ö. 300 yılında"),
        ("M.O 300 yilinda", "M.Ö 300 yılında"),
        ("Kitabi okudun mu?", "Kitabı okudun mu?"),
        ("Intel yeni islemcisini tanitti.", "Intel yeni işlemcisini tanıttı."),
        ("Istanbulca konusurlar.", "İstanbulca konuşurlar."),  # unseen: the letter models dot it
        ("Istanbulca konuşurlar.", "Istanbulca konuşurlar."),  # typed with Turkish letters: I is meant
        ("“Istanbulca” konusurlar.", "“İstanbulca” konuşurlar."),  # typographic quotes are no Turkish letters
        ("Calismayi bitirdi.Sonra eve gitti.", "Çalışmayı bitirdi.Sonra eve gitti."),
        ("1990'li yillarda buyudu.", "1990'lı yıllarda büyüdü."),  # a suffix after a number: doksan
        ('Adi "Sirlar Kitabi" dir.', 'Adı "Sırlar Kitabı" dır.'),  # a suffix written apart
        ("ara-di-niz, bak-ti-niz, yaz-mis-sin", "ara-dı-nız, bak-tı-nız, yaz-mış-sın"),  # cut off by hyphens
        ("Bu nokta-i nazardan", "Bu nokta-i nazardan"),  # the izafet keeps its -i
        ("Bu âlimi herkes tanir.", "Bu âlimi herkes tanır."),  # a circumflex typed: the word's letters stand
    ],
)
def test_the_shipped_default_on_each_error_class(typed, meant):
    from nokta_model.backends import load_restorer

    assert load_restorer("default", device="cpu").restore([typed]) == [meant]


def test_a_confusable_word_is_settled_by_the_stem_of_its_neighbour(tmp_path):
    # şu is the commoner spelling, and "su kulesinde" was never written: the word trigrams
    # choose şu. Running text writes su before kulesi and kulesine (stem "kules"): the
    # collocation weight turns it.
    lines = ["Bu su kulesi eski.", "Köydeki su kulesine baktık.", "Su kulesi yıkıldı."]
    lines += ["Şu kitap güzel.", "Şu adam geldi.", "Bunu şu an yaptık.", "Şu ev bizim.", "Şu yol uzun."] * 2
    ngram = NgramRestorer(train_ngram(write_tiny_corpus(tmp_path, lines, []), log=lambda _: None))
    context = ContextModel.count((line, 1) for line in lines)
    line = ["Yeni su kulesinde durduk."]
    assert default(ngram, context, FixedNetwork(0.5), context=0.0).restore(line) == ["Yeni şu kulesinde durduk."]
    with_collocations = default(ngram, context, FixedNetwork(0.5), context=0.0, collocation=1.0)
    assert with_collocations.restore(line) == ["Yeni su kulesinde durduk."]
