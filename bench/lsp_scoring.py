"""Scoring of language-server findings against gold text (shared by the lsp_* benchmarks).

A flag is ``(line, start, end, replacement)`` in code points. On correct text every flag
is a false alarm. On asciified text a word "needs a change" when its gold spelling
differs from the typed one, circumflexes folded in both (a slipped text keeps the
circumflexes of the words it did not slip: ``Hâlbuki`` needs no change); a word counts as flagged when a flag
overlaps it, and a flag is exactly right when its replacement equals the gold letters
under it. Words are maximal letter runs with apostrophe suffixes, as in
shared/bench/README.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from nokta_model.alphabet import asciify, fold_circumflex
from nokta_model.spans import SCORED_WORD_RE

Flag = tuple[int, int, int, str]


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
    for row, (ascii_line, gold_line) in enumerate(zip(ascii_lines, gold_lines)):
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
