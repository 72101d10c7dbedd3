"""The error-class bench: its classifier on hand-made (gold, output) pairs, its report, its pipeline path."""

import json

from bench.error_classes import (
    ACRONYM,
    CAPITAL_I,
    CLASSES,
    GOLD_NO_WORD,
    GUARD,
    LEXICON_FORM,
    NAME,
    OTHER,
    REAL_WORD,
    SUFFIX,
    TABLE,
    UNSEEN,
    BareModel,
    Restored,
    WordError,
    classify,
    markdown,
    merged_runs,
    other_kind,
    run_report,
    scopes,
    word_errors,
)
from bench.genres import DIRECT, Text
from bench.word_counts import Lexicon
from nokta_model.backends import load_restorer

COUNTS = {
    "su": 1900.0,
    "şu": 2500.0,
    "kararıyla": 30.0,
    "karariyla": 2.0,  # one slip in a human-written file
    "açısından": 1700.0,
    "internet": 990.0,
    "kalem": 400.0,
    "kalemi": 200.0,
    "kitabı": 300.0,
}
LEXICON = Lexicon(COUNTS, frozenset({"karariyla", "su"}))


def error(gold_line: str, gold: str, output: str, bare: str | None = None) -> WordError:
    start = gold_line.index(gold)
    return WordError("a.txt", 0, gold_line, start, start + len(gold), output, bare)


def test_a_word_the_bare_model_has_right_is_guard_made_whatever_else_it_is():
    assert classify(error("Bir bardak su içti.", "su", "şu", bare="su"), LEXICON) == GUARD
    assert classify(error("Bir bardak su içti.", "su", "şu", bare="şu"), LEXICON) == REAL_WORD
    assert classify(error("Bir bardak su içti.", "su", "şu"), LEXICON) == REAL_WORD  # no guards: no bare spelling


def test_a_suffix_after_an_apostrophe_a_number_a_mark_or_a_hyphen_with_its_stem_right():
    assert classify(error("Yeni Silverlight'ın sürümü.", "Silverlight'ın", "Silverlight'in"), LEXICON) == SUFFIX
    assert classify(error("Yarışı 16'ncı bitirdi.", "ncı", "nci"), LEXICON) == SUFFIX
    assert classify(error("Goethe'nin “Faust”ı okundu.", "ı", "i"), LEXICON) == SUFFIX
    assert classify(error("Mektubu yaz-dı.", "dı", "di"), LEXICON) == SUFFIX


def test_a_wrong_stem_before_an_apostrophe_or_a_whole_word_after_a_hyphen_is_no_suffix_error():
    assert classify(error("Dün İngiltere'deydim.", "İngiltere'deydim", "Ingiltere'deydim"), LEXICON) == CAPITAL_I
    assert classify(error("Bir X-ışınını çekti.", "ışınını", "isinini"), LEXICON) == OTHER


def test_an_acronym_comes_before_capital_i_but_not_on_a_line_all_in_capitals():
    assert classify(error("Dün AİHM kararını açıkladı.", "AİHM", "AIHM"), LEXICON) == ACRONYM
    assert classify(error("DÜN AİHM KARARINI AÇIKLADI", "AİHM", "AIHM"), LEXICON) == CAPITAL_I
    assert classify(error("Dün İnternet kesildi.", "İnternet", "Internet"), LEXICON) == CAPITAL_I


def test_a_name_is_capitalised_inside_a_sentence_and_no_word_running_text_counts():
    assert classify(error("Dün Ayşe Kılınçarslan geldi.", "Kılınçarslan", "Kilincarslan"), LEXICON) == NAME
    sentence_start = error("Tamam. Kılınçarslan geldi.", "Kılınçarslan", "Kilincarslan")
    assert classify(sentence_start, LEXICON) == OTHER


def test_an_ascii_form_a_word_list_holds_is_a_lexicon_form_unless_running_text_counts_it():
    karariyla = error("Kurul kararıyla kapandı.", "kararıyla", "karariyla")
    assert classify(karariyla, LEXICON) == LEXICON_FORM
    assert classify(karariyla, Lexicon(COUNTS | {"karariyla": 40.0}, LEXICON.listed)) == REAL_WORD
    assert classify(karariyla, Lexicon(COUNTS, frozenset())) == OTHER


def test_other_tells_words_the_restorer_never_saw_and_golds_that_are_no_words():
    in_identifier = error("Bunu kalem_kitabı adıyla kaydet.", "kitabı", "kitabi")
    assert (classify(in_identifier, LEXICON), other_kind(in_identifier, LEXICON)) == (OTHER, UNSEEN)
    misspelled_gold = error("Bu acisindan sorun yok.", "acisindan", "açısından")
    assert (classify(misspelled_gold, LEXICON), other_kind(misspelled_gold, LEXICON)) == (OTHER, GOLD_NO_WORD)


GOLD = ["Bir bardak su içti.", "Kurul kararıyla kapandı."]


def report_of(outputs: list[str], bare: list[str]) -> dict:
    text = Text("a.txt", "news", "dev", DIRECT, GOLD)
    restored = {TABLE: Restored(word_errors(text, outputs)), "default": Restored(word_errors(text, outputs, bare), [])}
    return run_report([text], restored, LEXICON, "abc1234")


def test_the_report_counts_each_class_and_keeps_runs_with_other_labels_beside_a_new_one(tmp_path):
    outputs, bare = (
        ["Bir bardak şu içti.", "Kurul karariyla kapandı."],
        ["Bir bardak su içti.", "Kurul karariyla kapandı."],
    )
    before = report_of(outputs, bare)
    scope = before["scopes"]["dev, old split (1 files)"]
    assert scope["words"] == 7
    assert scope["systems"][TABLE]["classes"] == {**dict.fromkeys(CLASSES, 0), REAL_WORD: 1, LEXICON_FORM: 1}
    assert scope["systems"]["default"]["classes"][GUARD] == 1
    assert scope["systems"]["default"]["details"]["guard-made outside `Restorer.restore`"] == 1
    assert before["examples"][LEXICON_FORM][0]["context"] == "Kurul **kararıyla** kapandı."
    out = tmp_path / "classes"
    out.with_suffix(".json").write_text(json.dumps({"runs": merged_runs(out, "before", before)}), encoding="utf-8")
    runs = merged_runs(out, "after", report_of(GOLD, GOLD))
    assert list(runs) == ["before", "after"]
    table = markdown(runs)
    assert "| class | before: rule table | before: ngram | before: default | after: rule table |" in table
    assert "| real-word | 1 (50.0%) |  | 0 (0.0%) | 0 |  | 0 |" in table


def test_the_bare_model_keeps_no_word_as_foreign():
    lines = ["Yeni bir Issue actim."]
    restorer = load_restorer("ngram")
    assert restorer.restore(lines) == ["Yeni bir Issue açtım."]
    assert BareModel(restorer).restore(lines) == ["Yeni bir İssue açtım."]


def test_tune_and_test_texts_have_scopes_of_their_own_and_stay_out_of_the_dev_scopes():
    texts = [
        Text("a.txt", "news", "dev", DIRECT, GOLD),
        Text("gh_ttc3600_news.txt", "news", "dev", DIRECT, GOLD),
        Text("tune:a.txt", "news", "tune", DIRECT, GOLD),
        Text("vikipedi_test", "encyclopedic", "test", DIRECT, GOLD),
    ]
    assert scopes(texts) == {
        "dev, old split (1 files)": {"a.txt"},
        "dev, old split: news (1 files)": {"a.txt"},
        "dev, new files (1)": {"gh_ttc3600_news.txt"},
        "dev, new files: news (1)": {"gh_ttc3600_news.txt"},
        "dev, all files (2)": {"a.txt", "gh_ttc3600_news.txt"},
        "tune, all files (1)": {"tune:a.txt"},
        "vikipedi_test (test only)": {"vikipedi_test"},
    }
