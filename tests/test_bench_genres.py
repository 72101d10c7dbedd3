"""The per-genre bench: its scoring of tiny known examples, its grouping, and the CLI path it reads."""

from bench.genres import (
    CLI_MARKDOWN,
    CLI_PLAIN,
    DIRECT,
    TABLE,
    Measured,
    Text,
    cell,
    cli_runner,
    markdown,
    measure,
    measure_all,
    summary,
    table_rows,
)
from bench.word_counts import Lexicon
from nokta_model.alphabet import asciify
from nokta_model.evaluate import Metrics

GOLD = ["Bu kapı açık ve ışık yok."]


def unchanged(lines: list[str]) -> tuple[list[str], float]:
    return list(lines), 0.0


def folded(lines: list[str]) -> tuple[list[str], float]:
    return [asciify(line) for line in lines], 0.0


def test_a_restorer_that_changes_nothing_scores_what_the_ascii_text_already_has_right():
    # Words: Bu kapı açık ve ışık yok; those with c g i o s u: all but "ve"; letters:
    # u, i, c i, i s i, o, of which the u of "Bu" and the o of "yok" are right as typed.
    figures = summary([measure(unchanged, GOLD)])
    assert figures == {
        "words": 6,
        "word_acc": 3 / 6,
        "ambiguous_word_acc": 2 / 5,
        "letter_acc": 2 / 8,
        "word_errors": 3,
        "real_word_errors": None,
        "changed_when_correct": 0.0,
        "changed_misspelt_when_correct": None,
        "top_errors": [["kapı", "kapi", 1], ["açık", "acik", 1], ["ışık", "isik", 1]],
    }


def test_the_comments_and_strings_of_code_blocks_can_be_left_out_of_the_scores():
    gold = ["Bir örnek:", "", "```python", 'x = "güzel"  # açıklama', "```", "", "Çok güzel."]
    whole, prose_only = summary([measure(folded, gold)]), summary([measure(folded, gold, code_blocks=False)])
    assert whole["words"] == prose_only["words"] + 2  # güzel and açıklama, in the block
    assert prose_only["words"] == 6 and prose_only["word_errors"] == 3  # Bir örnek python x Çok güzel


def test_words_changed_when_the_correct_text_is_fed_as_written():
    assert summary([measure(folded, GOLD)])["changed_when_correct"] == 3 / 6  # kapı, açık, ışık


def test_changes_of_the_texts_own_misspellings_are_counted_apart():
    def restored(lines):
        return [line.replace("kapi", "kapı").replace("acik", "açık") for line in lines], 0.0

    lexicon = Lexicon({"kapı": 50.0, "kapi": 5.0, "açık": 900.0, "acik": 2.0})  # kapi a word, acik a slip
    figures = summary([measure(restored, ["Bu kapi acik."])], lexicon)
    assert figures["changed_when_correct"] == 2 / 3 and figures["changed_misspelt_when_correct"] == 1 / 3
    assert cell(figures).endswith(" / 66.67% (33.33%)")


def test_a_system_not_fed_the_correct_text_has_no_changed_figure():
    measured = measure(folded, GOLD, feed_as_written=False)
    assert measured.changed is None
    assert summary([measured])["changed_when_correct"] is None


def test_real_word_errors_are_those_whose_gold_and_output_running_text_both_counts():
    lexicon = Lexicon({"kapı": 50.0, "kapi": 5.0, "açık": 900.0, "acik": 2.0})  # acik: a slip or two, no word
    assert summary([measure(unchanged, GOLD)], lexicon)["real_word_errors"] == 1
    assert cell(summary([measure(unchanged, GOLD)], lexicon)) == "0.5000 / 0.4000 / 0.2500 / 3 (1) / 0.00% (0.00%)"


def test_a_total_sums_words_and_errors_over_texts():
    figures = summary([measure(unchanged, GOLD), measure(unchanged, ["Çok güzel."])])
    assert (figures["words"], figures["word_errors"], figures["changed_when_correct"]) == (8, 5, 0.0)


def test_rows_group_dev_files_by_genre_with_test_texts_beside_them_and_technical_files_alone():
    def texts(name, genre, split, path=DIRECT):
        return Text(name, genre, split, path, GOLD), {
            "rule table": measure(folded, GOLD, False),
            "x": measure(unchanged, GOLD),
        }

    measured = [
        texts("a.txt", "news", "dev"),
        texts("b.txt", "news", "dev"),
        texts("c.txt", "technical", "dev"),
        texts("sample.md", "technical", "test", CLI_MARKDOWN),
    ]
    rows = table_rows(measured)
    assert [row["text"] for row in rows] == [
        "dev: news (2 files)",
        "dev: technical (1 file)",
        "sample.md (test only)",
        "dev: all files (3)",
        "dev file: c.txt",
    ]
    assert rows[0]["systems"]["x"]["words"] == 12
    assert rows[2]["path"] == CLI_MARKDOWN
    report = {"date": "d", "machine": "m", "code": "c", "dev_files": "f", "systems": ["rule table", "x"], "rows": rows}
    first_row = markdown(report).splitlines()[4]
    assert first_row == (
        "| dev: news (2 files) | restore | 12 | 0.5000 / 0.4000 / 0.2500 / 6 / — "
        "| 0.5000 / 0.4000 / 0.2500 / 6 / 0.00% |"
    )
    assert "c.txt" in markdown(report)


def test_measured_totals_keep_an_unfed_system_unfed():
    total = Measured(Metrics())
    total.add(Measured(Metrics(words=2)))
    assert total.changed is None


def test_the_cli_path_gives_one_output_line_per_input_line_and_leaves_fenced_code_alone():
    document = ["# Başlık", "", "```", "x = kisi_sayisi(1)", "```", "Bu bir cümle."]
    outputs, _ = cli_runner("ngram", "markdown")(document)
    assert len(outputs) == len(document)
    assert outputs[3] == "x = kisi_sayisi(1)"


def test_each_system_measures_each_text_and_the_rule_table_each_text_once(monkeypatch):
    calls = []

    def runner(system, path):
        calls.append((system, path))
        return folded if system == "x" else unchanged

    monkeypatch.setattr("bench.genres.runner", runner)
    texts = [Text("a.txt", "news", "dev", DIRECT, GOLD), Text("a.txt", "news", "test", CLI_PLAIN, GOLD)]
    measured = measure_all(texts, ["x"], jobs=1)
    assert sorted(calls) == sorted([("x", DIRECT), ("x", CLI_PLAIN), (TABLE, DIRECT)])
    assert [text for text, _ in measured] == texts
    for _, by_system in measured:
        assert by_system[TABLE].changed is None
        assert by_system["x"].changed.total() == 3
