"""Scoring of language-server findings against gold text (shared by the lsp_* benchmarks).

A flag is ``(line, start, end, replacement)`` in code points. The reference is the gold
text with its reviewed errors corrected (bench/data/dev_reference_errors.tsv: words of
the dev text written without a diacritic they need). On correct text every flag is a
false alarm, except a flag that puts in the reference's spelling: a detected error. On
asciified text a word "needs a change" when its reference spelling differs from the
typed one, circumflexes folded in both (a slipped text keeps the circumflexes of the
words it did not slip: ``Hâlbuki`` needs no change); a word counts as flagged when a
flag overlaps it, and a flag is exactly right when its replacement equals the reference
letters under it. Words are maximal letter runs with apostrophe suffixes, as in
shared/bench/README.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from nokta_model.alphabet import asciify, fold_circumflex
from nokta_model.spans import SCORED_WORD_RE

Flag = tuple[int, int, int, str]

REFERENCE_ERRORS = Path(__file__).resolve().parent / "data" / "dev_reference_errors.tsv"


@dataclass(frozen=True)
class ReviewedError:
    """A word of a corpus file's line written without a diacritic it needs."""

    file: str
    word: str
    correct: str
    line: str


def read_reference_errors(path: Path = REFERENCE_ERRORS) -> list[ReviewedError]:
    """The entries of a tab-separated file (file, word, correct spelling, whole line); # comments."""
    rows = path.read_text(encoding="utf-8").splitlines()
    return [ReviewedError(*row.split("\t", 3)) for row in rows if row.strip() and not row.startswith("#")]


def corrected_lines(name: str, lines: Sequence[str], errors: Iterable[ReviewedError]) -> list[str]:
    """``lines`` of corpus file ``name`` with the listed errors corrected (every occurrence
    of the word in its line). ValueError when an entry's line or word is not there."""
    out = list(lines)
    rows = {line: row for row, line in enumerate(lines)}
    for error in errors:
        if error.file != name:
            continue
        row = rows.get(error.line)
        if row is None or len(error.word) != len(error.correct):
            raise ValueError(
                f"reference error {error.word!r} of {name}: its line is not in the text, or lengths differ"
            )
        corrected = _corrected(out[row], error.word, error.correct)
        if corrected == out[row]:
            raise ValueError(f"reference error {error.word!r} of {name}: no such word in its line")
        out[row] = corrected
    return out


def _corrected(line: str, word: str, correct: str) -> str:
    return SCORED_WORD_RE.sub(lambda m: correct if m.group() == word else m.group(), line)


def changed_words(lines: Sequence[str], reference_lines: Sequence[str]) -> int:
    """How many words of ``lines`` the reference spells otherwise."""
    return sum(
        1
        for line, reference in zip(lines, reference_lines, strict=True)
        for m in SCORED_WORD_RE.finditer(line)
        if reference[m.start() : m.end()] != m.group()
    )


def is_detection(flag: Flag, reference_lines: Sequence[str]) -> bool:
    """Whether a flag on the gold text puts in the reference's spelling (circumflexes folded)."""
    row, start, end, replacement = flag
    return fold_circumflex(reference_lines[row][start:end]) == fold_circumflex(replacement)


def count_words(lines: Iterable[str]) -> int:
    return sum(len(SCORED_WORD_RE.findall(line)) for line in lines)


@dataclass
class RecallScore:
    words: int
    need_change: int
    flagged_needing: int
    flags: int
    exact_flags: int

    @property
    def recall(self) -> float:
        return self.flagged_needing / self.need_change if self.need_change else 0.0

    @property
    def exactness(self) -> float:
        return self.exact_flags / self.flags if self.flags else 1.0

    def as_dict(self) -> dict:
        return {**asdict(self), "recall": round(self.recall, 4), "exactness": round(self.exactness, 4)}


def score_restoration(ascii_lines: Sequence[str], gold_lines: Sequence[str], flags: Sequence[Flag]) -> RecallScore:
    by_line: dict[int, list[Flag]] = {}
    for flag in flags:
        by_line.setdefault(flag[0], []).append(flag)
    words = need = flagged = exact = 0
    for row, (ascii_line, gold_line) in enumerate(zip(ascii_lines, gold_lines, strict=True)):
        gold, typed = fold_circumflex(gold_line), fold_circumflex(ascii_line)
        line_flags = by_line.get(row, [])
        for match in SCORED_WORD_RE.finditer(ascii_line):
            words += 1
            if gold[match.start() : match.end()] == typed[match.start() : match.end()]:
                continue
            need += 1
            if any(start < match.end() and match.start() < end for _, start, end, _ in line_flags):
                flagged += 1
        exact += sum(1 for _, start, end, replacement in line_flags if replacement == gold[start:end])
    return RecallScore(words, need, flagged, len(flags), exact)


def partly_asciified(line: str, rng: random.Random) -> str:
    """``line`` with about one in five of its words that have Turkish letters asciified."""
    return SCORED_WORD_RE.sub(
        lambda m: asciify(m.group()) if not m.group().isascii() and rng.random() < 0.2 else m.group(), line
    )
