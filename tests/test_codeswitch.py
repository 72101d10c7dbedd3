"""Per-word code-switching (``codeswitch``) and the capital I at build time (``ngram.capitals``)."""

import pytest

from nokta_model.codeswitch import WordEvidence, foreign_posteriors, foreign_words, log_ratio
from nokta_model.ngram.capitals import all_capitals, capitals_line, dotted_reading, is_acronym, resolve, turkish_start
from nokta_model.ngram.model import NgramRestorer
from nokta_model.ngram.train import train_ngram
from nokta_model.prose import keep_turkish
from tests.tiny_corpus import write_tiny_corpus

TURKISH = WordEvidence(-6.0)
ENGLISH = WordEvidence(5.0)


def test_a_word_far_commoner_in_english_is_foreign_among_turkish_words():
    assert foreign_words([TURKISH, TURKISH, ENGLISH, TURKISH]) == [False, False, True, False]


def test_a_word_common_in_both_languages_takes_its_neighbours_language():
    both = WordEvidence(1.5)  # on, is, her: a little commoner in English
    assert foreign_words([TURKISH, both, TURKISH]) == [False, False, False]
    assert foreign_words([ENGLISH, both, ENGLISH]) == [True, True, True]


def test_each_sentence_of_a_line_starts_afresh():
    """Tamam. Issue kapandi.: the Turkish word before the full stop says nothing of Issue."""
    issue = WordEvidence(4.1)
    assert foreign_words([TURKISH, issue, TURKISH]) == [False, False, False]
    assert foreign_words([TURKISH, issue, TURKISH], starts=[0, 1]) == [False, True, False]
    assert foreign_posteriors([TURKISH, issue], starts=[0, 1])[1] == foreign_posteriors([issue])[0]


def test_posteriors_are_probabilities():
    posteriors = foreign_posteriors([TURKISH, WordEvidence(0.0), ENGLISH])
    assert all(0.0 < p < 1.0 for p in posteriors)
    assert posteriors[0] < posteriors[1] < posteriors[2]
    assert foreign_posteriors([]) == []


def test_a_word_typed_with_a_turkish_letter_is_turkish():
    assert foreign_words([ENGLISH, WordEvidence(5.0, turkish_letter=True), ENGLISH]) == [True, False, True]


def test_an_acronym_is_foreign_unless_written_with_turkish_letters_or_a_common_turkish_word():
    iis, odtu = WordEvidence(-1.0, acronym=True), WordEvidence(-1.0, acronym=True, turkish_acronym=True)
    cok = WordEvidence(-9.0, acronym=True)  # COK: çok, shouted
    assert foreign_words([TURKISH, iis, TURKISH, odtu, TURKISH, cok]) == [False, True, False, False, False, False]


def test_an_acronym_on_a_line_typed_with_turkish_letters_stays_as_typed():
    agi = WordEvidence(-9.0, acronym=True)  # AGI, though running text has ağı
    agit = WordEvidence(-9.0, acronym=True, turkish_letter=True)  # AGİT: its writer typed the İ
    typed = WordEvidence(-6.0, turkish_letter=True)
    assert foreign_words([TURKISH, agi, typed]) == [False, True, False]
    assert foreign_words([TURKISH, agit, TURKISH]) == [False, True, False]
    assert foreign_words([TURKISH, agi, TURKISH]) == [False, False, False]  # an ASCII line: maybe AĞI


def test_a_word_with_w_q_or_x_is_foreign_unless_typed_with_a_turkish_letter():
    wip = WordEvidence(-6.0, foreign_letter=True)  # wip: rare in both languages, no Turkish word has a w
    assert foreign_words([TURKISH, wip, TURKISH]) == [False, True, False]
    showlarin = WordEvidence(-6.0, foreign_letter=True, turkish_letter=True)  # showların: its writer typed the ı
    assert foreign_words([TURKISH, showlarin, TURKISH]) == [False, False, False]
    x_isini = WordEvidence(0.0, foreign_letter=True, single_letter=True)  # X-ışını: its stem is the letter X
    assert foreign_words([TURKISH, x_isini, TURKISH]) == [False, False, False]


def test_a_foreign_letter_decides_its_own_word_not_its_neighbours():
    """eb (Göktürkçe) → ew: the w word stays, the capitalised Turkish word beside it is restored."""
    name = WordEvidence(-8.0, capitalised_inside=True)
    ew = WordEvidence(-6.0, foreign_letter=True)
    assert foreign_words([ENGLISH, name, ew, TURKISH]) == [True, False, True, False]


def test_a_capital_inside_a_sentence_leans_foreign_but_not_in_a_title_cased_heading():
    on = WordEvidence(2.8, capitalised_inside=True)  # On: ön, or English on
    title_word = WordEvidence(-6.0, capitalised_inside=True)  # Çıkan, Plana
    assert foreign_words([TURKISH, on, TURKISH]) == [False, True, False]  # a term in a sentence
    assert foreign_words([TURKISH, on, title_word]) == [False, False, False]  # Öne Çıkan Sporcular
    mario = WordEvidence(3.8, capitalised_inside=True)
    assert foreign_words([TURKISH, on, mario, TURKISH]) == [False, True, True, False]  # beside a foreign name


def test_a_single_letter_says_nothing():
    assert foreign_words([TURKISH, WordEvidence(8.0, single_letter=True), TURKISH]) == [False, False, False]


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


def test_a_word_seen_only_in_capitals_keeps_its_dotted_i_in_lower_case(capitals_model):
    assert capitals_model.restore(["crispr yontemi gelistirildi"]) == ["crispr yöntemi geliştirildi"]


def test_acronyms_keep_their_letters_unless_running_text_writes_them_turkish(capitals_model):
    assert capitals_model.restore(["IIS ve ODTU ogrencileri geldi."]) == ["IIS ve ODTÜ öğrencileri geldi."]


def test_a_word_with_w_q_or_x_stays_as_typed_unless_written_with_turkish_letters(capitals_model):
    """Löwenheim is restored; showların is not: an ı is no evidence (WIP leaves wıp in the counts)."""
    typed = ["Bu showlarin hepsi iptal edildi.", "Bu showların hepsi iptal edildi.", "Lowenheim teoremi kanitlandi."]
    assert capitals_model.restore(typed) == [
        "Bu showlarin hepsi iptal edildi.",
        "Bu showların hepsi iptal edildi.",
        "Löwenheim teoremi kanıtlandı.",
    ]


def test_a_long_word_in_capitals_is_an_acronym_on_a_line_not_in_capitals(capitals_model):
    """LICENSE keeps its letters; TÜBİTAK and BİLSAT, which running text writes with Turkish letters, are restored."""
    assert capitals_model.restore(
        ["Bu LICENSE sayfasi bozuk, TUBITAK projeyi destekledi, BILSAT uydusu firlatildi."]
    ) == ["Bu LICENSE sayfası bozuk, TÜBİTAK projeyi destekledi, BİLSAT uydusu fırlatıldı."]


def test_the_language_guard_leaves_a_turkish_line_with_an_english_term_to_the_restorer():
    line = "Framework 4.8 cikti! Hemen asagidaki linke bakin"
    assert keep_turkish([line]) == [line]
    assert keep_turkish(["We went to the park and it was great."])[0].strip() == ""
