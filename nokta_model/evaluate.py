"""Score a restorer on correctly written text, by the protocol of shared/bench/README.md.

The gold text is turned into ASCII, restored, and compared with the gold after
folding circumflexes in both. Words are maximal runs of letters, an apostrophe
suffix included ("Ankara'dır" is one word). ``evaluate`` restores as ``nokta restore``
does (the format's prose masking: ``pipeline.restore_lines``),
so its figures are what users get; ``format_name=None`` scores the bare model.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field

from .alphabet import AMBIGUOUS, asciify, fold_circumflex
from .pipeline import restore_lines
from .restorer import Restorer
from .spans import SCORED_WORD_RE

BATCH_LINES = 512


@dataclass
class Metrics:
    characters: int = 0
    words: int = 0
    words_correct: int = 0
    ambiguous_words: int = 0
    ambiguous_words_correct: int = 0
    ambiguous_letters: int = 0
    ambiguous_letters_correct: int = 0
    changed_words: int = 0
    changed_words_correct: int = 0
    seconds: float = 0.0
    errors: Counter = field(default_factory=Counter)

    @property
    def word_accuracy(self) -> float:
        return _ratio(self.words_correct, self.words)

    @property
    def ambiguous_word_accuracy(self) -> float:
        return _ratio(self.ambiguous_words_correct, self.ambiguous_words)

    @property
    def letter_accuracy(self) -> float:
        return _ratio(self.ambiguous_letters_correct, self.ambiguous_letters)

    @property
    def recall(self) -> float:
        return _ratio(self.changed_words_correct, self.changed_words)

    @property
    def chars_per_second(self) -> float:
        return self.characters / self.seconds if self.seconds else 0.0

    def add(self, other: Metrics) -> None:
        for name, value in asdict(other).items():
            if name != "errors":
                setattr(self, name, getattr(self, name) + value)
        self.errors.update(other.errors)

    def summary(self, top_errors: int = 20) -> dict:
        return {
            "word_accuracy": self.word_accuracy,
            "ambiguous_word_accuracy": self.ambiguous_word_accuracy,
            "letter_accuracy": self.letter_accuracy,
            "recall": self.recall,
            "chars_per_second": self.chars_per_second,
            "characters": self.characters,
            "words": self.words,
            "ambiguous_words": self.ambiguous_words,
            "ambiguous_letters": self.ambiguous_letters,
            "changed_words": self.changed_words,
            "seconds": self.seconds,
            "top_errors": [{"gold": g, "output": o, "count": n} for (g, o), n in self.errors.most_common(top_errors)],
        }


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def evaluate(restorer: Restorer, gold_lines: Sequence[str], format_name: str | None = "plain") -> Metrics:
    """Restore the ASCII form of ``gold_lines`` and score the output against them: as the
    lines of one document in ``format_name`` through ``nokta restore``'s pipeline, or with
    None, every line through the bare model (``Restorer.restore``)."""
    inputs = ascii_inputs(gold_lines)
    started = time.perf_counter()
    outputs = restore_all(restorer, inputs) if format_name is None else restore_lines(restorer, inputs, format_name)
    return score(gold_lines, outputs, seconds=time.perf_counter() - started)


def ascii_inputs(gold_lines: Sequence[str]) -> list[str]:
    """What the restorer is given: the gold text typed without Turkish letters."""
    return [asciify(fold_circumflex(line)) for line in gold_lines]


def restore_all(restorer: Restorer, lines: Sequence[str]) -> list[str]:
    outputs: list[str] = []
    for start in range(0, len(lines), BATCH_LINES):
        outputs.extend(restorer.restore(lines[start : start + BATCH_LINES]))
    return outputs


def score(gold_lines: Sequence[str], outputs: Sequence[str], seconds: float = 0.0) -> Metrics:
    """Metrics of ``outputs`` restored from ``ascii_inputs(gold_lines)``; any restorer's, even another program's."""
    gold = [fold_circumflex(line) for line in gold_lines]
    metrics = Metrics(seconds=seconds)
    for gold_line, input_line, output_line in zip(gold, ascii_inputs(gold_lines), outputs, strict=True):
        score_line(metrics, gold_line, input_line, output_line)
    return metrics


def changed_words(written: Sequence[str], outputs: Sequence[str]) -> tuple[int, int]:
    """(words changed, words) when correctly written text is fed as written."""
    pairs = list(_written_and_output_words(written, outputs))
    return sum(word != output for word, output in pairs), len(pairs)


def changed_spellings(written: Sequence[str], outputs: Sequence[str]) -> Counter[tuple[str, str]]:
    """How often each (word as written, as output) changed when correctly written text is fed as written."""
    return Counter(pair for pair in _written_and_output_words(written, outputs) if pair[0] != pair[1])


def _written_and_output_words(written: Sequence[str], outputs: Sequence[str]) -> Iterator[tuple[str, str]]:
    for line, output in zip(written, outputs, strict=True):
        for match in SCORED_WORD_RE.finditer(line):
            yield match.group(), output[match.start() : match.end()]


def score_line(metrics: Metrics, gold: str, ascii_input: str, output: str) -> None:
    if len(output) != len(gold):
        raise ValueError("restorer changed the length of a line")
    metrics.characters += len(gold)
    for pos, ch in enumerate(ascii_input):
        if ch in AMBIGUOUS:
            metrics.ambiguous_letters += 1
            metrics.ambiguous_letters_correct += output[pos] == gold[pos]
    for match in SCORED_WORD_RE.finditer(gold):
        gold_word, output_word = match.group(), output[match.start() : match.end()]
        input_word = ascii_input[match.start() : match.end()]
        correct = gold_word == output_word
        metrics.words += 1
        metrics.words_correct += correct
        if any(ch in AMBIGUOUS for ch in input_word):
            metrics.ambiguous_words += 1
            metrics.ambiguous_words_correct += correct
        if gold_word != input_word:
            metrics.changed_words += 1
            metrics.changed_words_correct += correct
        if not correct:
            metrics.errors[(gold_word, output_word)] += 1
