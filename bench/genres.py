"""Accuracy per genre (news, everyday, encyclopedic, technical/mixed, essays, speeches) beside the rule table.

    python -m bench.genres [--backends ngram default] [--non-commercial] [--out bench/results/genres]

Texts: the corpus dev split (never trained on) grouped by each file's genre
(``nokta_model.training.corpus.TRAIN_FILES``), each technical dev file alone, and two test-only
texts: vikipedi_test (encyclopedic) and ``bench/data/mixed_sample.md`` (technical/mixed).
Dev lines and vikipedi_test go to ``Restorer.restore`` directly; the mixed sample goes
through ``nokta restore --format markdown`` (the CLI's prose masking), and vikipedi_test
once more through ``nokta restore --format plain`` (its language guard). The mixed sample
is scored twice: whole, and without the comments and strings of its code blocks, which
``restore`` leaves as written by design (docs/what-is-checked.md) while this gold writes
them with Turkish letters. The rule table
(../shared/anchors/rule_table) runs as a separate process on the ASCII-folded text
only, so it has no figure for correct text fed as written. Scoring is
``nokta_model.evaluate``'s (the protocol of ../shared/bench/README.md).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bench.compare import TABLE, restorer_runner, run_rule_table
from bench.report import markdown_table, run_facts, write_report
from bench.word_counts import Lexicon, running_text_counts
from nokta_model import prose
from nokta_model.backends import load_restorer
from nokta_model.evaluate import Metrics, ascii_inputs, changed_spellings, score
from nokta_model.training.corpus import default_corpus_dir, split_lines

ROOT = Path(__file__).resolve().parent
SHARED = ROOT.parent.parent / "shared"
VIKIPEDI = SHARED / "bench" / "vikipedi_test.txt"
MIXED_SAMPLE = ROOT / "data" / "mixed_sample.md"
TOP_ERRORS = 15  # the commonest (gold, output) pairs kept in the JSON report
GENRES = ("news", "everyday", "encyclopedic", "technical", "essays", "speeches")
DIRECT, CLI_MARKDOWN, CLI_PLAIN = "Restorer.restore", "nokta restore --format markdown", "nokta restore --format plain"

Restore = Callable[[list[str]], tuple[list[str], float]]


@dataclass(frozen=True)
class Text:
    name: str
    genre: str
    split: str  # "dev" or "tune" (corpus splits) or "test" (test-only text)
    path: str  # DIRECT or one of the CLI commands
    lines: list[str]
    code_blocks_scored: bool = True  # False: the words of Markdown code blocks are left out of the scores


@dataclass
class Measured:
    metrics: Metrics
    #: (as written, as output) of the words changed when the correct text is fed as written; None: not fed
    changed: Counter[tuple[str, str]] | None = None

    def add(self, other: Measured) -> None:
        self.metrics.add(other.metrics)
        if other.changed is not None:
            self.changed = (self.changed or Counter()) + other.changed


def dev_texts(commercial_only: bool, split: str = "dev") -> list[Text]:
    """Each corpus file's lines of ``split`` (dev or tune), labelled with its genre; a tune
    text is named ``tune:`` and its file's name."""
    by_file: dict[str, Text] = {}
    prefix = "" if split == "dev" else f"{split}:"
    for corpus_file, line in split_lines(default_corpus_dir(), split, commercial_only):
        name = prefix + corpus_file.name
        text = by_file.setdefault(name, Text(name, corpus_file.genre, split, DIRECT, []))
        text.lines.append(line)
    return list(by_file.values())


def held_out_texts() -> list[Text]:
    vikipedi = VIKIPEDI.read_text(encoding="utf-8").splitlines()
    mixed = MIXED_SAMPLE.read_text(encoding="utf-8").splitlines()
    return [
        Text("vikipedi_test", "encyclopedic", "test", DIRECT, vikipedi),
        Text("vikipedi_test", "encyclopedic", "test", CLI_PLAIN, vikipedi),
        Text("mixed_sample.md", "technical", "test", CLI_MARKDOWN, mixed),
        Text("mixed_sample.md outside code blocks", "technical", "test", CLI_MARKDOWN, mixed, False),
    ]


def cli_runner(backend: str, format_name: str) -> Restore:
    """``nokta restore --format FORMAT --backend BACKEND`` in a process of its own: lines in, lines out."""
    command = [sys.executable, "-m", "nokta_model", "restore", "--format", format_name, "--backend", backend]

    def restore(lines: list[str]) -> tuple[list[str], float]:
        started = time.perf_counter()
        done = subprocess.run(command, input="\n".join(lines) + "\n", capture_output=True, encoding="utf-8", check=True)
        return done.stdout.split("\n")[: len(lines)], time.perf_counter() - started

    return restore


RUNNERS: dict[tuple[str, str], Restore] = {}  # one process's restorers, loaded once


def runner(system: str, path: str) -> Restore:
    """The restore of ``system`` on a text's ``path``: the rule table, a restorer, or the CLI."""
    if system == TABLE:
        return run_rule_table
    if (system, path) not in RUNNERS:
        RUNNERS[system, path] = restorer_runner(system) if path == DIRECT else cli_runner(system, path.split()[-1])
    return RUNNERS[system, path]


def measure(restore: Restore, gold: list[str], feed_as_written: bool = True, code_blocks: bool = True) -> Measured:
    """Scores of the restored ASCII input and, if asked, the words changed in the correct text
    fed as written; without ``code_blocks``, the words of Markdown code blocks left out."""
    unscored = [[False] * len(line) for line in gold] if code_blocks else code_block_characters(gold)
    outputs, seconds = restore(ascii_inputs(gold))
    measured = Measured(score(blanked(gold, unscored), blanked(outputs, unscored), seconds))
    if feed_as_written:
        measured.changed = changed_spellings(blanked(gold, unscored), blanked(restore(gold)[0], unscored))
    return measured


def code_block_characters(lines: list[str]) -> list[list[bool]]:
    """Per character of Markdown ``lines``: whether it is prose only in a code block's comments
    and strings (the server's ``checkCodeComments`` view), which ``restore`` never changes."""
    markdown = prose.masker_for("markdown")
    restored = prose.mask_lines(markdown, lines)
    flagged = prose.mask_lines(prose.with_code_comments(markdown), lines)
    return [
        [kept.isspace() and shown == ch and not ch.isspace() for ch, kept, shown in zip(line, a, b, strict=True)]
        for line, a, b in zip(lines, restored, flagged, strict=True)
    ]


def blanked(lines: list[str], unscored: list[list[bool]]) -> list[str]:
    """``lines`` with the ``unscored`` characters turned to spaces (the same lengths)."""
    return [
        "".join(" " if skip else ch for ch, skip in zip(line, line_unscored, strict=True))
        for line, line_unscored in zip(lines, unscored, strict=True)
    ]


def summary(parts: Iterable[Measured], lexicon: Lexicon | None = None) -> dict:
    """The table's figures for one or more texts taken together; with a lexicon, the
    real-word errors (``word_counts.Lexicon.real_word``) and the share of words changed
    when fed as written that are no word as the correct text writes them (its misspellings:
    cok, sekildeki) and a word as output."""
    summed = Measured(Metrics())
    for part in parts:
        summed.add(part)
    metrics, changed = summed.metrics, summed.changed
    return {
        "words": metrics.words,
        "word_acc": metrics.word_accuracy,
        "ambiguous_word_acc": metrics.ambiguous_word_accuracy,
        "letter_acc": metrics.letter_accuracy,
        "word_errors": metrics.words - metrics.words_correct,
        "real_word_errors": None if lexicon is None else real_word_errors(metrics, lexicon),
        "changed_when_correct": None if changed is None or not metrics.words else changed.total() / metrics.words,
        "changed_misspelt_when_correct": (
            None
            if changed is None or lexicon is None or not metrics.words
            else misspelt_changes(changed, lexicon) / metrics.words
        ),
        "top_errors": [[gold, output, count] for (gold, output), count in metrics.errors.most_common(TOP_ERRORS)],
    }


def real_word_errors(metrics: Metrics, lexicon: Lexicon) -> int:
    return sum(count for (gold, output), count in metrics.errors.items() if lexicon.real_word(gold, output))


def misspelt_changes(changed: Counter[tuple[str, str]], lexicon: Lexicon) -> int:
    """The changes of words that are no word as written and a word as output."""
    return sum(count for (written, output), count in changed.items() if lexicon.misspelling_restored(written, output))


def error_lexicon(measured: list[tuple[Text, dict[str, Measured]]]) -> Lexicon:
    """The running-text counts of every spelling in an error or a change, by the count-based model."""
    errors = [pair for _, by_system in measured for m in by_system.values() for pair in m.metrics.errors]
    errors += [pair for _, by_system in measured for m in by_system.values() for pair in m.changed or ()]
    return Lexicon(running_text_counts(load_restorer("ngram"), (word for pair in errors for word in pair)))


def table_rows(measured: list[tuple[Text, dict[str, Measured]]], lexicon: Lexicon | None = None) -> list[dict]:
    """Each genre's dev files together, then its test texts; all dev files; each technical dev file alone."""
    dev = [(text, by_system) for text, by_system in measured if text.split == "dev"]
    rows = []
    for genre in GENRES:
        members = [by_system for text, by_system in dev if text.genre == genre]
        if members:
            rows.append(table_row(f"dev: {genre} ({files(len(members))})", genre, DIRECT, members, lexicon))
        rows += [
            table_row(f"{text.name} (test only)", genre, text.path, [by_system], lexicon)
            for text, by_system in measured
            if text.split == "test" and text.genre == genre
        ]
    rows.append(table_row(f"dev: all files ({len(dev)})", "all", DIRECT, [by_system for _, by_system in dev], lexicon))
    rows += [
        table_row(f"dev file: {text.name}", text.genre, DIRECT, [by_system], lexicon)
        for text, by_system in dev
        if text.genre == "technical"
    ]
    return rows


def files(count: int) -> str:
    return f"{count} file" if count == 1 else f"{count} files"


def table_row(
    name: str, genre: str, path: str, parts: list[dict[str, Measured]], lexicon: Lexicon | None = None
) -> dict:
    systems = {s: summary((p[s] for p in parts), lexicon) for s in parts[0]}
    return {"text": name, "genre": genre, "path": path, "systems": systems}


def markdown(report: dict) -> str:
    """The table, a row per text; ``python -m bench.figures`` puts its figures into the docs."""
    systems = report["systems"]
    header = [
        "text",
        "path",
        "words",
        *(f"{s}: word / amb-word / letter acc / errors (real-word) / changed" for s in systems),
    ]
    rows = [
        [row["text"], PATH_LABELS[row["path"]], f"{row['systems'][systems[0]]['words']:,}"]
        + [cell(row["systems"][s]) for s in systems]
        for row in report["rows"]
    ]
    caption = f"{report['date']}, {report['machine']}, code {report['code']}; dev split: {report['dev_files']}"
    return markdown_table(header, rows, caption, NOTE)


def cell(figures: dict) -> str:
    changed, real_words = figures["changed_when_correct"], figures.get("real_word_errors")
    misspelt = figures.get("changed_misspelt_when_correct")
    return (
        f"{figures['word_acc']:.4f} / {figures['ambiguous_word_acc']:.4f} / {figures['letter_acc']:.4f} / "
        f"{figures['word_errors']}{'' if real_words is None else f' ({real_words})'} / "
        f"{'—' if changed is None else f'{changed:.2%}'}"
        f"{'' if misspelt is None else f' ({changed - misspelt:.2%})'}"
    )


PATH_LABELS = {DIRECT: "restore", CLI_MARKDOWN: "CLI markdown", CLI_PLAIN: "CLI plain"}
NOTE = (
    "word / amb-word / letter acc: word accuracy over all words and over words with an ambiguous letter "
    "(c g i o s u), accuracy over those letters, of the ASCII-folded text restored; errors: words wrong, in "
    "brackets those whose gold and output are both words running text counts (real-word errors, only context "
    "can choose: `bench.word_counts`; `bench.error_classes` sorts every error into a class); "
    "changed: share of words changed when the correct text is fed as written, in brackets without the "
    "changes of the text's own misspellings (a word as written no word running text counts, restored to "
    "one: cok, sekildeki). Path: `restore` is "
    "`Restorer.restore` on each line (no prose masking, no language guard); `CLI markdown` and `CLI plain` "
    "are `nokta restore --format markdown|plain` (prose masking and the language guard). The rule table "
    "always reads the ASCII-folded text as a whole, unmasked, and is never fed the correct text (—)."
)


def checkout_state() -> str:
    """The commit checked out, and whether tracked files differ from it (others' work in a shared checkout)."""
    git = ["git", "-C", str(ROOT)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if head.returncode:
        return "unknown"
    dirty = subprocess.run([*git, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True)
    return head.stdout.strip() + (" with uncommitted changes" if dirty.stdout.strip() else "")


def measure_all(texts: list[Text], backends: list[str], jobs: int) -> list[tuple[Text, dict[str, Measured]]]:
    """Every system on every text in ``jobs`` processes; the rule table once per text, whatever nokta's path."""
    tasks = [(text, system) for text in texts for system in backends]
    tasks += [(text, TABLE) for text in {text.name: text for text in reversed(texts)}.values()]
    tasks.sort(key=lambda task: -sum(map(len, task[0].lines)))  # longest first, so the processes end together
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(measure_task, tasks))
    else:
        results = list(map(measure_task, tasks))
    done = {(text.name, text.path, system): result for (text, system), result in zip(tasks, results, strict=True)}
    table = {name: result for (name, _, system), result in done.items() if system == TABLE}
    return [(text, {TABLE: table[text.name]} | {s: done[text.name, text.path, s] for s in backends}) for text in texts]


def measure_task(task: tuple[Text, str]) -> Measured:
    text, system = task
    measured = measure(runner(system, text.path), text.lines, system != TABLE, text.code_blocks_scored)
    print(text.name, PATH_LABELS[text.path], system, cell(summary([measured])), flush=True)
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="+", default=["ngram", "default"])
    parser.add_argument("--non-commercial", action="store_true", help="also the non-commercial corpus files")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "genres")
    parser.add_argument("--jobs", type=int, default=1, help="processes measuring texts side by side")
    parser.add_argument("--code", default=checkout_state(), help="the code measured (default: this checkout's state)")
    args = parser.parse_args()
    texts = dev_texts(commercial_only=not args.non_commercial) + held_out_texts()
    measured = measure_all(texts, args.backends, args.jobs)
    report = {
        **run_facts(),
        "code": args.code,
        "dev_files": "all, non-commercial included" if args.non_commercial else "commercial-licence files only",
        "systems": [TABLE, *args.backends],
        "rows": table_rows(measured, error_lexicon(measured)),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_report(args.out, report, markdown(report))
    print(markdown(report))


if __name__ == "__main__":
    main()
