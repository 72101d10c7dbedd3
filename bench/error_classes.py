"""Word errors by class (guard-made, suffix harmony, acronyms, capital I, names, lexicon forms, real-word, other).

    python -m bench.error_classes [--label before] [--out bench/results/error_classes]

Text: the corpus dev split (``nokta_model.training.corpus``, never trained on), the tune
split (never counted into a model; the weights are fitted on it) and vikipedi_test (test
only), ASCII-folded by the benchmark protocol (../shared/bench/README.md) and scored as
``nokta_model.evaluate`` scores. Scopes: the 27 files the dev split had before round 4
and the files that joined the mix then (``NEW_FILES``), each whole and its news-genre
files alone; the whole dev split; the whole tune split; vikipedi_test. Systems: the rule
table (../shared/anchors/rule_table, a separate process on the ASCII text), the
count-based backend and the default. A backend's errors are those of ``nokta restore
--format plain``, as ``nokta eval`` scores them (``pipeline.restore_lines``, each file's
dev lines one document: prose masking, the sentence language guard, then
``Restorer.restore`` with its foreign-word guard); the errors of ``Restorer.restore``
alone (``nokta eval --bare``) are counted beside them.

Every word error falls into the first of these classes it fits, in this order:

1. guard-made: the bare model (the backend's own spellings: outside the pipeline, no
   word kept as foreign) gets the word right, the pipeline does not.
2. suffix harmony: the error is in a suffix and its stem is right: after an apostrophe
   (``Silverlight'ın``), a number (``6'şar``, ``16ncı``), a closing quote or a stray
   apostrophe byte glued to a word (``"Faust"ı``), or a hyphen (``yaz-dı``: a lower-case
   part of at most five letters and two vowels).
3. acronyms: the stem is 2-6 letters, all capitals, on a line not all in capitals
   (``AİHM``, ``FETÖ``; a headline's short words are no acronyms).
4. capital I: the output differs from the gold only in I against İ (``İnternet``, ``Igor``).
5. names: a capitalised stem inside a sentence that running text does not count as a
   word (a word list's entry alone does not make a name known).
6. lexicon forms: the output lacks diacritics the gold has (``karariyla``, ``Açıkcası``),
   a word list (../shared/corpus/lexicon) holds it and running text does not count it
   as a word.
7. real-word: gold and output are both words running text counts (``su``/``şu``,
   ``golü``/``gölü``): only the context can choose.
8. other. Two kinds are counted apart: words the restorer never takes for words (in an
   identifier or a path, ``II.Dünya``: ``spans.word_spans``; they skip 6 and 7), and
   words whose gold is no word while the output is one (a misspelled gold: ``acisindan``).

The order: the cause first (guard-made: whatever the word, the guard made the error),
then the classes read off the letters, which say which code a fix belongs to (the
suffix rules, acronyms, the dotted capital), the more specific before the more general
(``PKK'yı`` with the stem right is a suffix error; ``MİT`` an acronym, not a capital I);
then the classes that say what the word is, read off the counts, which take what is
left: a name before a lexicon form (a name's letters are what no list can settle), and
lexicon forms and real-words exclude each other (the output is, or is not, a word
running text counts). "Counts as a word": at least ``WORD_COUNT`` in the count-based
model's counts (``bench.word_counts``: its training text, a human-written file counted
twice), so a slip or two in the corpus (``karariyla``: 2) makes no word.

The word lists are read once per run, keeping only the spellings asked about.
The result file keeps one run per ``--label`` (``before``, ``after``): a new run with a
label replaces that label's run and keeps the others beside it.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bench.compare import TABLE, run_rule_table
from bench.genres import DIRECT, VIKIPEDI, Text, checkout_state, dev_texts
from bench.report import markdown_table, run_facts, write_report
from bench.word_counts import Lexicon, running_text_counts
from nokta_model.alphabet import asciify, fold_circumflex, tr_lower
from nokta_model.backends import load_restorer
from nokta_model.evaluate import ascii_inputs, restore_all
from nokta_model.pipeline import restore_lines
from nokta_model.restorer import Ranking, Restorer
from nokta_model.spans import SCORED_WORD_RE, Span, word_spans
from nokta_model.training.corpus import LEXICON_FILES, default_corpus_dir, read_lines

ROOT = Path(__file__).resolve().parent
BACKENDS = ("ngram", "default")
SYSTEMS = (TABLE, *BACKENDS)
EXAMPLED = "default"  # the system whose errors the report shows examples of
NEW_FILES = ("gh_ttc3600_news.txt", "gh_parlamint_tr_sample.txt")  # joined the training mix in round 4
GUARD, SUFFIX, ACRONYM, CAPITAL_I, NAME, LEXICON_FORM, REAL_WORD, OTHER = CLASSES = (
    "guard-made",
    "suffix harmony",
    "acronyms",
    "capital I",
    "names",
    "lexicon forms",
    "real-word",
    "other",
)
GUARD_OUTSIDE = "guard-made outside `Restorer.restore`"
UNSEEN, GOLD_NO_WORD = "other: no word to the restorer", "other: the gold no word, the output one"
DETAILS = (GUARD_OUTSIDE, UNSEEN, GOLD_NO_WORD)
ACRONYM_LETTERS = range(2, 7)
HYPHEN_SUFFIX_LETTERS, HYPHEN_SUFFIX_VOWELS = 5, 2
EXAMPLES = 6  # distinct (gold, output) pairs shown per class
TOP_PAIRS = 10  # commonest (gold, output) pairs per class and system in the JSON
CONTEXT_CHARS = 30

_APOSTROPHES = "'’"
_VOWELS = frozenset("aeıioöuüAEIİOÖUÜ")
_MARKS = "'’‘`´\x92\"”»"  # apostrophes (a stray Windows byte among them) and closing quotes
_AFTER_NUMBER_RE = re.compile(rf"\d[{_MARKS}-]?$")
_AFTER_MARK_RE = re.compile(rf"[^\W\d_][{_MARKS}]$")
_AFTER_GLUED_HYPHEN_RE = re.compile(r"[^\W_]-$")
_SENTENCE_START_RE = re.compile(r"(?:^|[.!?…])[\s\"'“”‘’«»()\[\]*–—-]*$")


@dataclass(frozen=True)
class WordError:
    """A word the system got wrong: its place in the (circumflex-folded) gold line."""

    file: str
    line: int  # the line's index among the file's dev lines
    gold_line: str
    start: int
    end: int
    output: str
    bare: str | None = None  # the bare model's spelling; None for a system without guards

    @property
    def gold(self) -> str:
        return self.gold_line[self.start : self.end]

    @property
    def place(self) -> tuple[str, int, int]:
        return self.file, self.line, self.start

    def context(self) -> str:
        left = self.gold_line[max(0, self.start - CONTEXT_CHARS) : self.start]
        right = self.gold_line[self.end : self.end + CONTEXT_CHARS]
        return f"{left}**{self.gold}**{right}".strip()


def classify(error: WordError, lexicon: Lexicon) -> str:
    """The first class of ``CLASSES`` the error fits (the module's docstring defines them)."""
    gold, output = error.gold, error.output
    gold_stem = stem(gold)
    if error.bare == gold:
        return GUARD
    if suffix_error(error):
        return SUFFIX
    if gold_stem.isupper() and len(gold_stem) in ACRONYM_LETTERS and not error.gold_line.isupper():
        return ACRONYM
    if all({g, o} == {"I", "İ"} for g, o in zip(gold, output, strict=True) if g != o):
        return CAPITAL_I
    if capitalised(gold_stem) and not at_sentence_start(error) and not lexicon.is_word(gold_stem):
        return NAME
    if not taken_for_word(error):
        return OTHER
    if lacks_diacritics(gold, output) and tr_lower(output) in lexicon.listed and not lexicon.is_word(output):
        return LEXICON_FORM
    if lexicon.real_word(gold, output):
        return REAL_WORD
    return OTHER


def other_kind(error: WordError, lexicon: Lexicon) -> str | None:
    """Of an error in "other": ``UNSEEN``, ``GOLD_NO_WORD`` or None (the module's docstring)."""
    if not taken_for_word(error):
        return UNSEEN
    return GOLD_NO_WORD if lexicon.misspelling_restored(error.gold, error.output) else None


def taken_for_word(error: WordError) -> bool:
    """Whether the restorer takes the word for one: it lies in a word span of the ASCII line."""
    spans = word_spans(asciify(error.gold_line))
    return any(span.start <= error.start and error.end <= span.end for span in spans)


def stem(word: str) -> str:
    """The part before the first apostrophe (the whole word without one)."""
    return re.split(f"[{_APOSTROPHES}]", word, maxsplit=1)[0]


def suffix_error(error: WordError) -> bool:
    """The word is a suffix glued to a number, to a word by a mark the scored words do not
    take in (``Carlson’ın`` typed with a stray byte, ``"Faust"ı``) or by a hyphen; or the
    word's stem is right and its suffix after an apostrophe is not."""
    before, gold = error.gold_line[: error.start], error.gold
    if _AFTER_NUMBER_RE.search(before) or _AFTER_MARK_RE.search(before):
        return True
    if _AFTER_GLUED_HYPHEN_RE.search(before) and hyphen_suffix_shape(gold):
        return True
    return len(stem(gold)) < len(gold) and stem(gold) == stem(error.output)


def hyphen_suffix_shape(part: str) -> bool:
    return (
        part[0].islower()
        and len(part) <= HYPHEN_SUFFIX_LETTERS
        and sum(ch in _VOWELS for ch in part) <= HYPHEN_SUFFIX_VOWELS
    )


def capitalised(word: str) -> bool:
    return word[0].isupper() and not word[1:].isupper()


def at_sentence_start(error: WordError) -> bool:
    return _SENTENCE_START_RE.search(error.gold_line[: error.start]) is not None


def lacks_diacritics(gold: str, output: str) -> bool:
    """Every letter that differs is the gold's Turkish letter typed in ASCII (ş as s, İ as I)."""
    return all(o == asciify(g) for g, o in zip(gold, output, strict=True) if g != o)


def word_errors(text: Text, outputs: Sequence[str], bare: Sequence[str] | None = None) -> list[WordError]:
    """The words of ``text``'s gold that ``outputs`` (restored from its ASCII form) get wrong."""
    errors = []
    for index, (line, output) in enumerate(zip(text.lines, outputs, strict=True)):
        gold = fold_circumflex(line)
        for match in SCORED_WORD_RE.finditer(gold):
            start, end = match.span()
            if output[start:end] != match.group():
                bare_word = bare[index][start:end] if bare is not None else None
                errors.append(WordError(text.name, index, gold, start, end, output[start:end], bare_word))
    return errors


class BareModel(Restorer):
    """A backend's own spellings: no word kept as typed for being foreign (``foreign_words``
    is left at the base class's, which finds none)."""

    def __init__(self, backend: Restorer) -> None:
        self.backend, self.name = backend, f"bare {backend.name}"

    def rank(
        self,
        lines: list[str],
        spans: list[list[Span]],
        with_scores: bool,
        typed: list[str] | None = None,
        cased: list[str] | None = None,
    ) -> list[list[Ranking]]:
        return self.backend.rank(lines, spans, with_scores, typed, cased)

    def counts(self, spellings: list[str]) -> list[float]:
        return self.backend.counts(spellings)

    def dotted_capitals(self, dotted: list[str], undotted: list[str], ascii_lines: list[bool]) -> list[bool]:
        return self.backend.dotted_capitals(dotted, undotted, ascii_lines)


@dataclass
class Restored:
    """One system's errors on the texts, and (for a backend) those of ``Restorer.restore`` alone."""

    errors: list[WordError]
    restorer_errors: list[WordError] | None = None


def restore_dev(texts: list[Text]) -> tuple[dict[str, Restored], Restorer]:
    """Every system's errors on every text, and the count-based restorer (its counts serve the classes)."""
    ascii_texts = [ascii_inputs(text.lines) for text in texts]
    with ThreadPoolExecutor(1) as rule_table:  # a process of its own, beside the backends
        table_run = rule_table.submit(run_rule_table, [line for lines in ascii_texts for line in lines])
        restorers = {backend: load_restorer(backend) for backend in BACKENDS}
        restored = {backend: restore_backend(restorer, texts, ascii_texts) for backend, restorer in restorers.items()}
        table_outputs = iter(table_run.result()[0])
    table_errors = [e for text in texts for e in word_errors(text, [next(table_outputs) for _ in text.lines])]
    return {TABLE: Restored(table_errors)} | restored, restorers["ngram"]


def restore_backend(restorer: Restorer, texts: list[Text], ascii_texts: list[list[str]]) -> Restored:
    bare, errors, restorer_errors = BareModel(restorer), [], []
    for text, ascii_lines in zip(texts, ascii_texts, strict=True):
        errors += word_errors(text, restore_lines(restorer, ascii_lines), restore_all(bare, ascii_lines))
        restorer_errors += word_errors(text, restore_all(restorer, ascii_lines))
    print(f"{restorer.name}: {len(errors)} errors through the pipeline, {len(restorer_errors)} by Restorer.restore")
    return Restored(errors, restorer_errors)


def lexicon_for(errors: Iterable[WordError], counter: Restorer, corpus_dir: Path) -> Lexicon:
    """Counts of every gold, stem and output spelling; the word-list entries among the outputs."""
    errors = list(errors)
    counts = running_text_counts(counter, (w for e in errors for w in (e.gold, stem(e.gold), e.output)))
    outputs = {tr_lower(e.output) for e in errors}
    listed = set()
    for lexicon_file in LEXICON_FILES:
        for entry in read_lines(corpus_dir / "lexicon" / lexicon_file.name):
            if entry in outputs or (not entry.islower() and tr_lower(entry) in outputs):
                listed.add(tr_lower(entry))
    return Lexicon(counts, frozenset(listed))


# --- the report ---


def scopes(texts: list[Text]) -> dict[str, set[str]]:
    """Scope name → the files it takes: the dev split's old files and new files, each whole
    and its news alone; the whole dev split; the whole tune split; each test text."""
    dev = {t.name for t in texts if t.split == "dev"}
    old, new = dev - set(NEW_FILES), dev & set(NEW_FILES)
    news = {t.name for t in texts if t.genre == "news"}
    tune = {t.name for t in texts if t.split == "tune"}
    return {
        f"dev, old split ({len(old)} files)": old,
        f"dev, old split: news ({len(old & news)} files)": old & news,
        f"dev, new files ({len(new)})": new,
        f"dev, new files: news ({len(new & news)})": new & news,
        f"dev, all files ({len(dev)})": dev,
        f"tune, all files ({len(tune)})": tune,
        **{f"{t.name} (test only)": {t.name} for t in texts if t.split == "test"},
    }


def measured_texts() -> list[Text]:
    """The dev and tune splits' files (commercial-licence files only) and vikipedi_test."""
    vikipedi = VIKIPEDI.read_text(encoding="utf-8").splitlines()
    return [
        *dev_texts(commercial_only=True),
        *dev_texts(commercial_only=True, split="tune"),
        Text("vikipedi_test", "encyclopedic", "test", DIRECT, vikipedi),
    ]


Labels = dict[WordError, tuple[str, str | None]]  # each error's class and, in "other", its kind


def labelled(errors: Iterable[WordError], lexicon: Lexicon) -> Labels:
    labels: Labels = {}
    for error in errors:
        name = classify(error, lexicon)
        labels[error] = name, other_kind(error, lexicon) if name == OTHER else None
    return labels


def scope_figures(files: set[str], texts: list[Text], restored: dict[str, Restored], labels: Labels) -> dict:
    lines = [fold_circumflex(line) for text in texts if text.name in files for line in text.lines]
    return {
        "files": sorted(files),
        "words": sum(len(SCORED_WORD_RE.findall(line)) for line in lines),
        "systems": {system: system_figures(r, files, labels) for system, r in restored.items()},
    }


def system_figures(restored: Restored, files: set[str], labels: Labels) -> dict:
    """The errors in ``files`` by class, the details below the classes, and the commonest pairs of each class."""
    errors = [e for e in restored.errors if e.file in files]
    by_class: dict[str, list[WordError]] = {name: [] for name in CLASSES}
    for error in errors:
        by_class[labels[error][0]].append(error)
    kinds = Counter(labels[e][1] for e in by_class[OTHER])
    restorer_errors = restored.restorer_errors
    if restorer_errors is None:
        restorer_count = outside_restorer = None
    else:
        restorer_count = sum(e.file in files for e in restorer_errors)
        places = {e.place for e in restorer_errors}
        outside_restorer = sum(e.place not in places for e in by_class[GUARD])
    return {
        "errors": len(errors),
        "restorer_errors": restorer_count,
        "classes": {name: len(members) for name, members in by_class.items()},
        "details": {GUARD_OUTSIDE: outside_restorer, UNSEEN: kinds[UNSEEN], GOLD_NO_WORD: kinds[GOLD_NO_WORD]},
        "top_pairs": {name: top_pairs(members) for name, members in by_class.items()},
    }


def top_pairs(errors: list[WordError]) -> list[list]:
    pairs = Counter((e.gold, e.output) for e in errors)
    return [[gold, output, count] for (gold, output), count in pairs.most_common(TOP_PAIRS)]


def examples(errors: list[WordError], labels: Labels) -> dict[str, list[dict]]:
    """Per class, the commonest distinct (gold, output) pairs, each with the context of its first occurrence."""
    chosen: dict[str, list[dict]] = {}
    for name in CLASSES:
        members = [e for e in errors if labels[e][0] == name]
        first: dict[tuple[str, str], WordError] = {}
        for error in members:
            first.setdefault((error.gold, error.output), error)
        pairs = Counter((e.gold, e.output) for e in members).most_common(EXAMPLES)
        chosen[name] = [
            {"gold": g, "output": o, "count": n, "file": first[g, o].file, "context": first[g, o].context()}
            for (g, o), n in pairs
        ]
    return chosen


def run_report(texts: list[Text], restored: dict[str, Restored], lexicon: Lexicon, code: str) -> dict:
    labels = labelled((e for r in restored.values() for e in r.errors), lexicon)
    dev = {text.name for text in texts if text.split == "dev"}
    return {
        **run_facts(),
        "code": code,
        "scopes": {name: scope_figures(files, texts, restored, labels) for name, files in scopes(texts).items()},
        "examples": examples([e for e in restored[EXAMPLED].errors if e.file in dev], labels),
    }


def markdown(runs: dict[str, dict]) -> str:
    """A table per scope: a row per class, a column per run and system; then each run's examples."""
    captions = "; ".join(f"{label}: {run['date']}, {run['machine']}, code {run['code']}" for label, run in runs.items())
    parts = [
        f"`python -m bench.error_classes`: word errors by class on the corpus dev and tune splits and "
        f"vikipedi_test; {captions}",
        "",
    ]
    header = ["class", *(f"{label}: {system}" for label in runs for system in SYSTEMS)]
    for scope in dict.fromkeys(scope for run in runs.values() for scope in run["scopes"]):
        words = " / ".join(f"{run['scopes'][scope]['words']:,}" for run in runs.values() if scope in run["scopes"])
        parts += [f"### {scope}: {words} words", "", markdown_table(header, scope_rows(scope, runs))]
    parts += [NOTE, ""]
    for label, run in runs.items():
        parts += [f"### Examples: {label}, {EXAMPLED}, the whole dev split", ""]
        for name, chosen in run["examples"].items():
            shown = "; ".join(f"`{x['gold']}` → `{x['output']}` ×{x['count']} ({x['context']})" for x in chosen)
            parts.append(f"- {name}: {shown or 'none'}")
        parts.append("")
    return "\n".join(parts)


def scope_rows(scope: str, runs: dict[str, dict]) -> list[list[str]]:
    """A row per class (count and share of the errors), the details, the totals."""
    cells = [figures for run in runs.values() for figures in systems_in(run["scopes"].get(scope))]
    rows = [[name, *(share(f, f["classes"][name]) if f else "" for f in cells)] for name in CLASSES]
    rows += [[f"… {detail}", *(number(f["details"][detail] if f else None) for f in cells)] for detail in DETAILS]
    rows.append(
        ["all word errors (`nokta restore`, `nokta eval`)", *(number(f["errors"] if f else None) for f in cells)]
    )
    rows.append(
        [
            "`Restorer.restore` alone (`nokta eval --bare`)",
            *(number(f["restorer_errors"] if f else None) for f in cells),
        ]
    )
    return rows


def systems_in(scope: dict | None) -> list[dict | None]:
    return [scope["systems"].get(system) if scope else None for system in SYSTEMS]


def share(figures: dict, count: int) -> str:
    return f"{count} ({count / figures['errors']:.1%})" if figures["errors"] else str(count)


def number(value: int | None) -> str:
    return "—" if value is None else f"{value:,}"


NOTE = (
    "Each word error is counted in the first class it fits, in the order of the rows (definitions and the "
    "reasons for the order: `bench/error_classes.py`): guard-made (the bare model, outside the pipeline and "
    "without the foreign-word guard, has it right), suffix harmony (the stem right, the suffix after an "
    "apostrophe, number or hyphen wrong), acronyms (2-6 capitals), capital I (only I/İ differ), names "
    "(capitalised inside a sentence, no word running text counts), lexicon forms (rare words: diacritics "
    "missing, a word list holds the output, running text does not count it), real-word (gold and output both "
    "words running text counts), other. Share: of the system's errors in that scope. A backend's errors are those of "
    "`nokta restore --format plain`, as `nokta eval` scores them (each file's dev lines one document); the rows "
    "starting … are parts of the class above them: guard-made errors that `Restorer.restore` alone does not "
    "make (the prose masking or the sentence guard made them), and two kinds of other. The rule table reads "
    "the ASCII text as a whole and has no guards (—)."
)


def merged_runs(out: Path, label: str, run: dict) -> dict[str, dict]:
    """The runs already in ``out``.json with ``label``'s replaced by (or joined by) ``run``."""
    path = out.with_suffix(".json")
    runs = json.loads(path.read_text(encoding="utf-8"))["runs"] if path.exists() else {}
    runs[label] = run
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", default="latest", help="the run's name in the table, e.g. before or after")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "error_classes")
    parser.add_argument("--code", default=checkout_state(), help="the code measured (default: this checkout's state)")
    args = parser.parse_args()
    texts = measured_texts()
    restored, counter = restore_dev(texts)
    lexicon = lexicon_for((e for r in restored.values() for e in r.errors), counter, default_corpus_dir())
    runs = merged_runs(args.out, args.label, run_report(texts, restored, lexicon, args.code))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_report(args.out, {"runs": runs}, markdown(runs))
    print(markdown(runs))


if __name__ == "__main__":
    main()
