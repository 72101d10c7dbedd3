"""Per-word code-switching (``codeswitch``) and the capital I at build time (``ngram.capitals``)."""

import numpy as np
import pytest

from nokta_model.codeswitch import (
    BIASES,
    CLASSES,
    FEATURES,
    SENTENCE_FEATURES,
    WORD_FEATURES,
    Guard,
    Place,
    WordEvidence,
    features,
    log_ratio,
    read_guard,
    sentence_features,
    word_features,
    write_guard,
)
from nokta_model.ngram.capitals import all_capitals, capitals_line, dotted_reading, is_acronym, resolve, turkish_start
from nokta_model.ngram.model import NgramRestorer
from nokta_model.training.guard_fit import english_sentences, kept_spelling, logistic_fit
from nokta_model.training.ngram_counts import train_ngram
from tests.tiny_corpus import write_tiny_corpus

TURKISH = WordEvidence(-6.0, ascii_count=50.0)
ENGLISH = WordEvidence(5.0, english_zipf=5.5)
#: Sentence weights that take no sentence for English (the bias alone, below 0).
NO_ENGLISH = np.r_[-1.0, np.zeros(len(SENTENCE_FEATURES) - 1)]


def column(rows: np.ndarray, name: str) -> list[float]:
    return rows[:, WORD_FEATURES.index(name)].tolist()


def test_sentence_features_are_of_the_words_own_sentence():
    """Tamam. Issue kapandi.: the word before the full stop says nothing of Issue's sentence."""
    issue = WordEvidence(4.1, english_zipf=4.6, capitalised=True)
    one_sentence = word_features([[TURKISH, issue, TURKISH]], [[Place(True), Place(), Place()]])
    two = word_features([[TURKISH, issue, TURKISH]], [[Place(True), Place(True), Place()]])
    assert column(one_sentence, "previous_ratio")[1] == -6.0 and column(two, "previous_ratio")[1] == 0.0
    assert column(one_sentence, "sentence_ratio")[1] == -6.0 == column(two, "sentence_ratio")[1]
    assert column(two, "sentence_ratio")[0] == 0.0  # alone in its sentence
    assert column(one_sentence, "capitalised_inside")[1] == 1.0 and column(two, "capitalised_start")[1] == 1.0


def test_lines_do_not_share_sentences_or_neighbours():
    rows = word_features([[ENGLISH], [TURKISH, TURKISH]], [[Place(True)], [Place(True), Place()]])
    assert column(rows, "next_ratio")[0] == 0.0 and column(rows, "previous_ratio")[1] == 0.0
    assert column(rows, "sentence_english_share") == [0.0, 0.0, 0.0]


def test_a_line_typed_with_turkish_letters_and_a_line_in_capitals_are_features():
    typed = WordEvidence(-6.0, turkish_letter=True)
    acronym = WordEvidence(-1.0, acronym=True)
    rows = word_features([[typed, acronym], [acronym]], [[Place(True), Place()], [Place(True)]])
    assert column(rows, "line_turkish_typed") == [0.0, 1.0, 0.0]
    shouted = word_features([[WordEvidence(-6.0, capitals_line=True)]], [[Place(True)]])
    assert column(shouted, "capitals_line") == [1.0]


def test_each_class_of_word_has_its_own_columns():
    rows = features([[TURKISH, WordEvidence(-1.0, acronym=True), WordEvidence(2.0, capitalised=True)]], [[Place()] * 3])
    assert rows.shape == (3, len(FEATURES))
    assert [CLASSES[row.tolist().index(1.0)] for row in rows[:, list(BIASES)]] == ["other", "acronym", "capitalised"]


def test_the_rules_come_before_the_fitted_decision():
    """A word typed with a Turkish letter is Turkish; an acronym beside one is as meant (Çok IYI)."""
    always, never = (
        Guard(np.zeros(len(FEATURES)), NO_ENGLISH, threshold=-1.0),
        Guard(np.zeros(len(FEATURES)), NO_ENGLISH),
    )
    typed, acronym = WordEvidence(5.0, turkish_letter=True), WordEvidence(-9.0, acronym=True)
    places = [[Place(True), Place(), Place()]]
    assert always.foreign_words([[ENGLISH, typed, acronym]], places) == [[True, False, True]]
    assert never.foreign_words([[ENGLISH, typed, acronym]], places) == [[False, False, True]]
    assert never.foreign_words([[ENGLISH, acronym]], [[Place(True), Place()]]) == [[False, False]]
    assert always.foreign_words([[]], [[]]) == [[]]


def sentence_column(rows: np.ndarray, name: str) -> list[float]:
    return rows[:, SENTENCE_FEATURES.index(name)].round(3).tolist()


def test_a_sentence_is_scored_on_its_own_words_with_its_line_beside_it():
    """The build failed. Sirketin cirosu artti.: two sentences; each sees the other only as its line's rest."""
    lines = [[ENGLISH, ENGLISH, TURKISH, TURKISH, TURKISH], [TURKISH]]
    places = [[Place(True), Place(), Place(True), Place(), Place()], [Place(True)]]
    sentence, rows = sentence_features(lines, places)
    assert sentence.tolist() == [0, 0, 1, 1, 1, 2]
    assert sentence_column(rows, "mean_ratio") == [5.0, -6.0, -6.0]
    assert sentence_column(rows, "english_share") == [1.0, 0.0, 0.0]
    assert sentence_column(rows, "line_others_ratio") == [-6.0, 5.0, 0.0]  # the next line is not beside it
    assert sentence_column(rows, "line_others_ratio_per_word") == [-3.0, 1.667, 0.0]


def test_names_and_acronyms_inside_a_sentence_are_left_out_of_its_plain_ratio():
    name = WordEvidence(5.0, english_zipf=5.0, capitalised=True)
    _, rows = sentence_features([[TURKISH, name, name, TURKISH]], [[Place(True), Place(), Place(), Place()]])
    assert sentence_column(rows, "mean_ratio") == [-0.5] and sentence_column(rows, "plain_mean_ratio") == [-6.0]


def test_every_word_of_a_sentence_taken_as_english_is_foreign():
    """Weights on the mean ratio alone: the English sentence keeps every word, the Turkish one is the word guard's."""
    weights = np.zeros(len(SENTENCE_FEATURES))
    weights[SENTENCE_FEATURES.index("mean_ratio")] = 1.0
    guard = Guard(np.zeros(len(FEATURES)), weights)
    lines = [[ENGLISH, TURKISH, ENGLISH, TURKISH, TURKISH]]
    places = [[Place(True), Place(), Place(), Place(True), Place()]]
    assert guard.in_english_sentence(lines, places).tolist() == [True, True, True, False, False]
    assert guard.foreign_words(lines, places) == [[True, True, True, False, False]]


def test_the_fit_separates_what_its_features_separate():
    rng = np.random.default_rng(0)
    x = np.column_stack([np.ones(400), rng.normal(size=400)])
    y = x[:, 1] + 0.1 * rng.normal(size=400) > 0.5
    weights = logistic_fit(x, y)
    assert ((x @ weights > 0) == y).mean() > 0.95
    assert weights[1] > 0 and weights[0] < 0


def test_the_guard_file_round_trips_and_a_bad_one_is_refused(tmp_path):
    guard = Guard(np.arange(len(FEATURES)) / 10, np.arange(len(SENTENCE_FEATURES)) / 10, threshold=0.25)
    write_guard(guard, tmp_path / "guard.json", {"fitted": "now"})
    read, provenance = read_guard(tmp_path / "guard.json")
    assert np.allclose(read.weights, guard.weights) and np.allclose(read.sentence_weights, guard.sentence_weights)
    assert read.threshold == 0.25 and provenance == {"fitted": "now"}
    (tmp_path / "bad.json").write_text('{"weights": {"bias": 1}}', encoding="utf-8")
    with pytest.raises(ValueError, match="foreign-word guard"):
        read_guard(tmp_path / "bad.json")


def test_the_shipped_guard_has_every_feature():
    guard, provenance = read_guard()
    assert guard.weights.shape == (len(FEATURES),) and provenance["command"] == "nokta train --backend guard"
    assert guard.sentence_weights.shape == (len(SENTENCE_FEATURES),)


def test_a_kept_word_has_its_suffix_restored():
    assert kept_spelling("Issue'yu", "İssue'yü") == "Issue'yü"
    assert kept_spelling("Issue", "İssue") == "Issue"


def test_english_sentences_are_prose_from_the_standard_library(tmp_path):
    (tmp_path / "a.py").write_text(
        '"""Return the value of the key, or None if it is missing.\n\nSee also: x[1].\n"""\n'
        "def f():\n    '''Open the file and read it into memory. Uses os.open().'''\n",
        encoding="utf-8",
    )
    assert english_sentences(10, tmp_path) == [
        "Return the value of the key, or None if it is missing.",
        "Open the file and read it into memory.",
    ]


def test_log_ratio_compares_frequencies_with_floors_for_unknown_words():
    assert log_ratio(5.0, 1.0, 1e7) > 0 > log_ratio(None, 100.0, 1e7)
    assert log_ratio(None, 0.0, 1e7) < 0  # unknown to both: Turkish is likelier (its words are many)


@pytest.mark.parametrize(
    ("spelling", "turkish"),
    [("ışık", True), ("ılık", True), ("ığdır", True), ("ınitial", False), ("ındex", False), ("ıtem", False)],
)
def test_a_word_initial_dotless_i_before_a_front_vowel_is_not_turkish(spelling, turkish):
    assert turkish_start(spelling) is turkish


def test_a_capital_i_counts_as_the_spelling_running_text_confirms():
    written = {"ışık": 40, "instagram": 3, "issue": 2}.get

    def counted(spelling: str, typed: str, english: float = 0.0, listed: tuple = ()) -> str:
        reading = dotted_reading(spelling, typed)
        turkish_letter = any(ch in "çğıöşüÇĞİÖŞÜ" for ch in typed.replace("I", ""))
        return resolve(
            spelling, reading, turkish_letter, lambda s: written(s, 0), listed.__contains__, lambda _: english
        )

    assert counted("ışık", "Işık") == "ışık"
    assert counted("ınstagram", "Instagram") == "instagram"
    assert counted("ıssue", "Issue") == "issue"
    assert counted("ınitial", "Initial") == "initial"  # front vowel: never Turkish
    assert counted("ığdır", "Iğdır") == "ığdır"  # written nowhere else, but typed with ğ
    assert counted("ınput", "Input", english=4.4) == "input"
    assert counted("ıslak", "Islak", listed=("ıslak",)) == "ıslak"


def _resolved(spelling: str, typed: str, turkish_capitals: bool = False, english: float = 0.0, **known) -> str:
    written, listed = known.get("written", {}), known.get("listed", ())
    return resolve(
        spelling,
        dotted_reading(spelling, typed),
        turkish_capitals,
        lambda s: written.get(s, 0),
        listed.__contains__,
        lambda _: english,
    )


def test_a_capital_i_is_decided_on_the_stem_before_an_apostrophe():
    assert _resolved("apı'leri", "API'leri", written={"api": 3}) == "api'leri"
    assert _resolved("ırak'ta", "Irak'ta", listed=("ırak",)) == "ırak'ta"


def test_an_undotted_spelling_seen_only_under_a_capital_i_is_no_evidence_of_it():
    """CRISPR, MNIST: written nowhere in lower case, listed nowhere, rare in English."""
    assert _resolved("crıspr", "CRISPR") == "crispr"
    assert _resolved("mnıst", "MNIST") == "mnist"
    # … unless its writer types Turkish capitals: a Turkish letter in it, or a line in capitals.
    assert _resolved("konaklamadım", "KONAKLAMADIM", turkish_capitals=True) == "konaklamadım"


def test_english_frequency_outweighs_the_lists_lower_cased_names():
    """The word lists hold ınstagram and fıfa: Turkish lower case of Instagram, FIFA."""
    assert _resolved("ınstagram", "Instagram", english=4.3, listed=("ınstagram",)) == "instagram"
    assert _resolved("ısparta", "Isparta", english=1.3, listed=("ısparta",)) == "ısparta"


def test_acronyms_and_lines_in_capitals():
    assert is_acronym("IIS") and is_acronym("ODTÜ") and not is_acronym("Index") and not is_acronym("KUYRUKLAR")
    assert all_capitals("IIS") and all_capitals("LICENSE") and all_capitals("TÜBİTAK")
    assert not all_capitals("Readme") and not all_capitals("I")
    assert capitals_line("BU OTEL ÇOK GÜZEL.") and not capitals_line("Bu IIS sunucusu.")


@pytest.fixture(scope="module")
def capitals_model(tmp_path_factory):
    lines = [
        "Yeni bir Issue açtım ve Index sayfası bozuk.",
        "Bu issue kapandı, index de güncel.",
        "Işık yandı, ışık söndü.",
        "İstanbul çok güzel, istanbul'da yaşıyorum.",
        "ODTÜ ve İTÜ öğrencileri geldi.",
        "IIS sunucusu yeniden başladı.",
        "Bu yasa meclisten geçti.",
        "Çok yaşa sen de.",
        "Bu showların hepsi iptal edildi.",
        "TÜBİTAK projeyi destekledi.",
        "BİLSAT uydusu fırlatıldı.",
        "Löwenheim teoremi kanıtlandı.",
        "CRISPR yöntemi geliştirildi.",
    ] * 3
    corpus = write_tiny_corpus(tmp_path_factory.mktemp("corpus"), lines, ["ışık"])
    return NgramRestorer(train_ngram(corpus, log=lambda _: None))


def test_the_count_spells_a_capital_i_as_running_text_does(capitals_model):
    counts = capitals_model.counts(["ıssue", "issue", "ındex", "index", "ışık", "istanbul"])
    assert counts[0] == 0 and counts[1] > 0 and counts[2] == 0 and counts[3] > 0
    assert counts[4] > 0 and counts[5] > 0


def test_a_word_running_text_writes_under_a_capital_i_keeps_it(capitals_model):
    assert capitals_model.restore(["Index sayfasi", "Istanbul'da", "Isik yandi"]) == [
        "Index sayfası",
        "İstanbul'da",
        "Işık yandı",
    ]


def test_a_word_with_a_suffix_never_written_under_a_capital_goes_by_its_stem(capitals_model):
    # running text wrote Index, never Index'i: the stem's capital decides
    assert capitals_model.restore(["Index'i guncel", "Istanbul'u guzel"]) == ["Index'i güncel", "İstanbul'u güzel"]


def test_a_word_seen_only_in_capitals_keeps_its_dotted_i_in_lower_case(capitals_model):
    assert capitals_model.restore(["crispr yontemi gelistirildi"]) == ["crispr yöntemi geliştirildi"]


def test_acronyms_keep_their_letters_unless_running_text_writes_them_turkish(capitals_model):
    assert capitals_model.restore(["IIS ve ODTU ogrencileri geldi."]) == ["IIS ve ODTÜ öğrencileri geldi."]


def test_a_word_with_w_q_or_x_running_text_writes_with_turkish_letters_is_restored(capitals_model):
    typed = ["Bu showların hepsi iptal edildi.", "Lowenheim teoremi kanitlandi."]
    assert capitals_model.restore(typed) == ["Bu showların hepsi iptal edildi.", "Löwenheim teoremi kanıtlandı."]


def test_a_word_in_capitals_running_text_writes_with_turkish_letters_is_restored(capitals_model):
    """TÜBİTAK and BİLSAT, on a line not in capitals (LICENSE keeps its letters: ``test_foreign_words``)."""
    assert capitals_model.restore(["Bu sayfa bozuk, TUBITAK projeyi destekledi, BILSAT uydusu firlatildi."]) == [
        "Bu sayfa bozuk, TÜBİTAK projeyi destekledi, BİLSAT uydusu fırlatıldı."
    ]
