"""Per-word code-switching: which words of a line are foreign (English, acronyms) and stay as typed.

Technical Turkish mixes in English words (``Yeni bir Issue actim``); restoring them
gives ``İssue``, ``ınput``. But news writes Turkish words whose ASCII form is English
(``one`` öne, ``is`` iş, ``sure`` süre), headlines in capitals and acronyms with Turkish
letters (AİHM, FETÖ). Whether a word is foreign is a learned decision (logistic
regression, its weights fitted by ``nokta train --backend guard``: ``codeswitch_fit``)
over what the backend knows of the word (``WordEvidence``: its English frequency from
``wordfreq``, taken into the count-based model at build time; the running-text counts of
its ASCII spelling and of its Turkish twin; how running text writes it as an acronym)
and where it stands: its sentence's other words (their evidence, the Turkish letters
typed in them; a sentence ends at a full stop inside a line), its neighbours, the
suffix after its apostrophe, a capital inside a sentence or in a title, a line in
capitals, a line typed with Turkish letters. Two rules come first (``ruled_words``): a
word typed with a Turkish letter is Turkish, an acronym on a line typed with Turkish
letters is as meant.

The language of each sentence is decided the same way, on its own words alone (a second
logistic regression over ``SENTENCE_FEATURES``): every word of a sentence taken as English
stays as typed, whatever the sentences before and after it are.

The backend supplies the evidence; this module only decides.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import chain
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .errors import ModelFileError

DEFAULT_GUARD = Path(__file__).resolve().parent / "data" / "guard.json"
#: Letters no Turkish word has (wip, Twitter).
FOREIGN_ONLY = frozenset("wqxWQX")
MAX_EVIDENCE = 8.0  # no single word's log ratio counts for more (a count of one is no certainty)
#: A word English text lacks is taken as this rare there (Zipf scale: per billion words,
#: log10); one Turkish text lacks, as counted this often there.
ENGLISH_FLOOR_ZIPF = 1.0
TURKISH_FLOOR_COUNT = 0.5


def log_ratio(english_zipf: float | None, turkish_count: float, turkish_total: float) -> float:
    """log P(word | English) - log P(word | Turkish), from its English Zipf frequency (None:
    not among the English words kept) and its count in ``turkish_total`` counted words."""
    english = (ENGLISH_FLOOR_ZIPF if english_zipf is None else english_zipf) - 9.0
    turkish = math.log10(max(turkish_count, TURKISH_FLOOR_COUNT) / turkish_total)
    return (english - turkish) * math.log(10)


class WordEvidence(NamedTuple):
    """What the backend knows of one word (its stem up to an apostrophe or a hyphen)."""

    log_ratio: float  # log P(word | English) - log P(word | Turkish)
    english_zipf: float = 0.0  # its English Zipf frequency; 0: not among the English words kept
    ascii_count: float = 0.0  # running-text count of its ASCII spelling
    twin_count: float = 0.0  # … of its commonest spelling with a Turkish letter (its twin)
    turkish_letter: bool = False  # typed with a letter only Turkish has
    foreign_letter: bool = False  # has w, q or x, which Turkish words lack, and running text writes it so
    acronym: bool = False  # all capitals (``capitals.all_capitals``), on a line not typed in capitals
    turkish_acronym: bool = False  # … that running text writes with Turkish letters
    single_letter: bool = False
    short: bool = False  # two letters or fewer (in, is, on, of)
    capitalised: bool = False  # Capitalised (a capital, then lower case)
    capitals_line: bool = False  # a capital on a line typed in capitals (a headline)


class Place(NamedTuple):
    """Where a word stands in its line."""

    sentence_start: bool = False  # the first word of its sentence
    suffix: bool = False  # a suffix follows its stem after an apostrophe (Issue'yu)


#: The features of a word (``word_features``), in order.
WORD_FEATURES = (
    "bias",
    "english_zipf",
    "not_english",
    "log_ascii_count",
    "log_twin_count",
    "log_ratio",
    "acronym",
    "turkish_acronym",
    "capitals_line",
    "capitalised_inside",
    "capitalised_start",
    "capitalised_beside_capitalised",
    "foreign_letter",
    "single_letter",
    "short",
    "suffix",
    "sentence_ratio",
    "sentence_english_share",
    "sentence_turkish_typed",
    "sentence_words",
    "previous_ratio",
    "next_ratio",
    "line_turkish_typed",
    "twin_in_english_sentence",
)
#: The features of a sentence (``sentence_features``), from its words' evidence.
SENTENCE_FEATURES = (
    "bias",
    "mean_ratio",
    "plain_mean_ratio",  # … of its words but names, titles and acronyms (capitalised inside it: Atlantic Records)
    "english_share",
    "turkish_typed_share",
    "log_words",
    "capitals_line",
    "line_others_ratio",
    "line_others_ratio_per_word",  # … over its own words: the more a short sentence follows its line
    "line_others_words",
)
#: Each class of word has weights of its own for every feature (``features``): its
#: evidence counts differently (an English frequency says more of a word in capitals).
CLASSES = ("acronym", "capitalised", "other")
FEATURES = tuple(f"{kind}:{name}" for kind in CLASSES for name in WORD_FEATURES)
BIASES = tuple(FEATURES.index(f"{kind}:bias") for kind in CLASSES)


@dataclass(frozen=True)
class Guard:
    """The fitted decisions: logistic regressions over ``FEATURES`` (a word) and
    ``SENTENCE_FEATURES`` (a sentence: English when its logit is above 0)."""

    weights: np.ndarray  # one per feature
    sentence_weights: np.ndarray  # one per sentence feature
    threshold: float = 0.0  # a word is foreign when its logit is above this

    def logits(self, features: np.ndarray) -> np.ndarray:
        return features @ self.weights

    def in_english_sentence(
        self, lines: Sequence[Sequence[WordEvidence]], places: Sequence[Sequence[Place]]
    ) -> np.ndarray:
        """Per word, line after line, whether its sentence is English."""
        sentence, rows = sentence_features(lines, places)
        return (rows @ self.sentence_weights > 0)[sentence]

    def foreign_words(
        self,
        lines: Sequence[Sequence[WordEvidence]],
        places: Sequence[Sequence[Place]],
        in_english: np.ndarray | None = None,
    ) -> list[list[bool]]:
        """Which words of each line are foreign and stay as typed (``in_english``: the
        ``in_english_sentence`` of these words, when the caller has it)."""
        if not any(lines):
            return [[] for _ in lines]
        if in_english is None:
            in_english = self.in_english_sentence(lines, places)
        fitted = (self.logits(features(lines, places)) > self.threshold) | in_english
        foreign = iter(fitted.tolist())
        return [
            # ``foreign`` runs on over the next lines' words: each line takes its own from it
            [fitted if ruled is None else ruled for ruled, fitted in zip(line_rules, foreign, strict=False)]
            for line_rules in ruled_words(lines)
        ]


def ruled_words(lines: Sequence[Sequence[WordEvidence]]) -> list[list[bool | None]]:
    """The words the rules decide, foreign (True) or Turkish (False), else None: a word
    typed with a Turkish letter is Turkish; an acronym on a line typed with Turkish letters
    is as meant (its writer could type İ: ``AGI``, ``IYI`` there stay)."""
    ruled: list[list[bool | None]] = []
    for line in lines:
        typed_line = sum(word.turkish_letter for word in line)
        ruled.append([False if word.turkish_letter else True if word.acronym and typed_line else None for word in line])
    return ruled


def read_guard(path: Path = DEFAULT_GUARD) -> tuple[Guard, dict]:
    """(the guard, the rest of the file: how it was fitted)."""
    try:
        values = json.loads(Path(path).read_text(encoding="utf-8"))
        weights, sentence_weights = values.pop("weights"), values.pop("sentence_weights")
        for names, found in ((FEATURES, weights), (SENTENCE_FEATURES, sentence_weights)):
            if set(found) != set(names):
                raise ValueError(f"its features differ from {', '.join(names)}")
        guard = Guard(
            np.array([float(weights[name]) for name in FEATURES]),
            np.array([float(sentence_weights[name]) for name in SENTENCE_FEATURES]),
            float(values.pop("threshold", 0.0)),
        )
        return guard, values
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise ModelFileError(f"cannot read the foreign-word guard from {path}: {error}") from None


@cache
def shipped_guard() -> Guard:
    return read_guard()[0]


def write_guard(guard: Guard, path: Path, provenance: dict) -> None:
    weights = {name: round(float(w), 4) for name, w in zip(FEATURES, guard.weights, strict=True)}
    sentence = {name: round(float(w), 4) for name, w in zip(SENTENCE_FEATURES, guard.sentence_weights, strict=True)}
    values = {"weights": weights, "sentence_weights": sentence, "threshold": guard.threshold, **provenance}
    text = json.dumps(values, indent=1, ensure_ascii=False)
    Path(path).write_text(text + "\n", encoding="utf-8")


def features(lines: Sequence[Sequence[WordEvidence]], places: Sequence[Sequence[Place]]) -> np.ndarray:
    """The ``FEATURES`` of every word of ``lines``, one row per word, line after line: its
    ``word_features`` in the columns of its class, zeros in the others."""
    own = word_features(lines, places)
    acronym = own[:, WORD_FEATURES.index("acronym")] > 0
    capitalised = (
        own[:, WORD_FEATURES.index("capitalised_inside")] + own[:, WORD_FEATURES.index("capitalised_start")] > 0
    ) & ~acronym
    kinds = (acronym, capitalised, ~acronym & ~capitalised)
    return np.column_stack([own * kind[:, None] for kind in kinds])


def word_features(lines: Sequence[Sequence[WordEvidence]], places: Sequence[Sequence[Place]]) -> np.ndarray:
    """The ``WORD_FEATURES`` of every word of ``lines``, one row per word, line after line."""
    fields = _evidence_fields(lines)
    own, flags = fields[:, :4], fields[:, 4:] != 0
    turkish_letter, foreign_letter, acronym, turkish_acronym, single, short, capitalised, capitals_line = flags.T
    start, suffix = _place_fields(places).T
    ratio = _ratios(own[:, 0], single)
    line_of, sentence = _sentences(lines, start)
    others = np.bincount(sentence)[sentence] - 1.0
    typed = turkish_letter.astype(np.float64)
    line_typed = np.bincount(line_of, typed, len(lines))[line_of] - typed > 0
    english_share = _others_mean(sentence, (ratio > 0).astype(np.float64), others)
    twin = np.log10(own[:, 3] + TURKISH_FLOOR_COUNT)
    beside_capital = (_neighbour(capitalised, sentence, -1) + _neighbour(capitalised, sentence, 1)) > 0
    columns = [
        np.ones(len(fields)),
        own[:, 1],
        own[:, 1] == 0,
        np.log10(own[:, 2] + TURKISH_FLOOR_COUNT),
        twin,
        ratio,
        acronym,
        acronym & turkish_acronym,
        capitals_line,
        capitalised & ~start,
        capitalised & start,
        capitalised & beside_capital,
        foreign_letter & ~single,
        single,
        short,
        suffix,
        _others_mean(sentence, ratio, others),
        english_share,
        _others_mean(sentence, typed, others),
        np.log1p(others),
        _neighbour(ratio, sentence, -1),
        _neighbour(ratio, sentence, 1),
        line_typed,
        twin * english_share,
    ]
    return np.column_stack([np.asarray(column, dtype=np.float64) for column in columns])


def _evidence_fields(lines: Sequence[Sequence[WordEvidence]]) -> np.ndarray:
    """The ``WordEvidence`` fields of every word of ``lines`` as float64, one row per word,
    line after line (read in one pass: faster than row by row)."""
    return _flattened([word for line in lines for word in line], len(WordEvidence._fields))


def _place_fields(places: Sequence[Sequence[Place]]) -> np.ndarray:
    """The ``Place`` fields of every word, one row per word, line after line."""
    return _flattened([place for line in places for place in line], len(Place._fields)) != 0


def _flattened(rows: list[tuple], width: int) -> np.ndarray:
    """(rows, width): ``rows``, tuples of ``width`` numbers or booleans, as float64."""
    values = np.fromiter(chain.from_iterable(rows), dtype=np.float64, count=len(rows) * width)
    return values.reshape(len(rows), width)


def sentence_features(
    lines: Sequence[Sequence[WordEvidence]], places: Sequence[Sequence[Place]]
) -> tuple[np.ndarray, np.ndarray]:
    """(the sentence of each word of ``lines``, line after line; the ``SENTENCE_FEATURES``
    of each sentence, one row per sentence). A sentence ends at a line's end or where a
    word starts one (``Place.sentence_start``)."""
    fields, start = _evidence_fields(lines), _place_fields(places)[:, 0]
    line_of, sentence = _sentences(lines, start)
    if not len(fields):
        return sentence, np.zeros((0, len(SENTENCE_FEATURES)))

    def flag(name: str) -> np.ndarray:
        return fields[:, WordEvidence._fields.index(name)] != 0

    ratio = _ratios(fields[:, WordEvidence._fields.index("log_ratio")], flag("single_letter"))
    sizes = np.bincount(sentence).astype(np.float64)
    named = flag("acronym") | (flag("capitalised") & ~start)
    plain = np.bincount(sentence, (~named).astype(np.float64), len(sizes))
    plain_ratio = np.bincount(sentence, np.where(named, 0.0, ratio), len(sizes))

    def mean(values: np.ndarray) -> np.ndarray:
        return np.bincount(sentence, values.astype(np.float64)) / sizes

    line_of_sentence = np.zeros(len(sizes), dtype=np.int64)
    line_of_sentence[sentence] = line_of
    others = np.bincount(line_of, minlength=len(lines))[line_of_sentence] - sizes
    others_ratio = np.bincount(line_of, ratio, len(lines))[line_of_sentence] - np.bincount(sentence, ratio)
    line_ratio = np.divide(others_ratio, others, out=np.zeros_like(others), where=others > 0)
    columns = [
        np.ones(len(sizes)),
        mean(ratio),
        np.divide(plain_ratio, plain, out=np.zeros_like(plain), where=plain > 0),
        mean(ratio > 0),
        mean(flag("turkish_letter")),
        np.log1p(sizes),
        mean(flag("capitals_line")),
        line_ratio,
        line_ratio / sizes,
        np.log1p(others),
    ]
    return sentence, np.column_stack(columns)


def _ratios(log_ratios: np.ndarray, single: np.ndarray) -> np.ndarray:
    """Each word's evidence, clipped; a single letter (a, I, o, the suffix ı written apart) says nothing."""
    ratio = np.clip(log_ratios, -MAX_EVIDENCE, MAX_EVIDENCE)
    ratio[single] = 0.0
    return ratio


def _sentences(lines: Sequence[Sequence[WordEvidence]], start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the line of each word, its sentence): a sentence starts at a line's start or at ``start``."""
    line_of = np.repeat(np.arange(len(lines)), [len(line) for line in lines])
    return line_of, np.cumsum(start | np.r_[True, line_of[1:] != line_of[:-1]]) - 1


def _others_mean(sentence: np.ndarray, values: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Each word's mean of ``values`` over the other words of its sentence (0 if none)."""
    total = np.bincount(sentence, values)[sentence] - values
    return np.divide(total, others, out=np.zeros_like(total), where=others > 0)


def _neighbour(values: np.ndarray, sentence: np.ndarray, step: int) -> np.ndarray:
    """``values`` of the word before (``step`` -1) or after (1) in the same sentence, else 0."""
    shifted = np.zeros(len(values), dtype=np.float64)
    same = sentence[1:] == sentence[:-1]
    if step < 0:
        shifted[1:] = np.where(same, values[:-1], 0.0)
    else:
        shifted[:-1] = np.where(same, values[1:], 0.0)
    return shifted
