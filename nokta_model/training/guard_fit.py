"""Fit the foreign-word guard (``codeswitch``): ``nokta train --backend guard``.

The guard matters only where the backend alone would change a word. So the fit restores
its texts with the guard off (``Restorer.keep_foreign``) and takes each word the backend
changed, but those the rules decide (``codeswitch.ruled_words``): a word to keep as typed
when the text has it as typed (a word kept has its suffix after an apostrophe restored
all the same: ``kept_spelling``), one to let the backend restore when the text has the
backend's spelling (a word the backend gets wrong either way teaches nothing). Its texts:

- the corpus tune split (never counted into any model), typed in ASCII, typed with
  slips (one word in five of those with a Turkish letter typed without it, the rest as
  written: ``default.fit.with_slips``), and as written;
- tune lines typed in ASCII with an English word of those sentences put in, some with a
  suffix after an apostrophe as the tune lines write them;
- English sentences, alone on a line and after a Turkish tune line typed in ASCII: the
  docstrings of the Python standard library that this interpreter runs (PSF License 2.0),
  read from its source files in sorted order, so the same Python gives the same text.

The language of a sentence is fitted on the sentences of the guard's own lines (its
sentences as ``codeswitch.sentence_features`` finds them): the tune lines typed in ASCII,
with slips, as written, with an English word or a capitalised English title put in and
in capitals (a headline) are Turkish; the English sentences alone, in capitals (a
licence's disclaimer), before and after a tune line typed in ASCII, are English; and
short pieces of either alone or beside a sentence (``sentence_texts``). A sentence of
both is of the language most of its words come from.

The weights minimise the logistic loss with a small L2 penalty (Newton's method; the
biases are not penalised). The network runs in float32 during the fit, as in
``default.fit``, so the same corpus and models give the same weights on every CPU. Nothing here reads ``shared/bench``.
"""

from __future__ import annotations

import ast
import datetime
import random
import re
import sysconfig
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from ..codeswitch import (
    BIASES,
    DEFAULT_GUARD,
    FEATURES,
    Guard,
    features,
    ruled_words,
    sentence_features,
    write_guard,
)
from ..evaluate import ascii_inputs, restore_all
from ..neural.runtime import float32
from ..ngram.model import NgramRestorer
from ..restorer import Restorer
from ..spans import word_spans
from .corpus import default_corpus_dir, split_lines
from .default_fit import with_slips

#: English sentences taken, and how many of them follow a Turkish line on the same line.
ENGLISH_SENTENCES = 3000
MIXED_SHARE = 0.5
#: Tune lines with an English word put in (``code_switched``).
CODE_SWITCHED_LINES = 2000
SUFFIXED_SHARE = 0.3  # … of them with a suffix after an apostrophe
_TERM_RE = re.compile(r"\b[a-z]{4,}\b")
_SUFFIX_RE = re.compile(r"(?<=\w)'[a-zçğıöşü]{1,6}\b")
PENALTY = 1.0  # L2 on every weight but the bias
NEWTON_STEPS = 30
_APOSTROPHE_RE = re.compile("['’]")
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+")
#: A prose sentence of a docstring: a capital, then words, spaces and light punctuation.
_PROSE_RE = re.compile(r"[A-Z][a-z]+(?:[ ,;:'-]+[A-Za-z]+)+[.!?]")
MIN_WORDS = 5
#: Tune lines put in capitals, as headlines are, and English sentences put in capitals
#: (``sentence_texts``).
HEADLINES = 1000
SHOUTED_SHARE = 0.2
#: Short pieces (up to ``FRAGMENT_WORDS`` words) of either language alone on a line and
#: as a sentence before or after one of its own language, or, less often, of the other
#: (``sentence_texts``).
FRAGMENTS = 1000
FRAGMENT_WORDS = 3
MIXED_FRAGMENT_SHARE = 0.3
TITLED = 1000  # tune lines with an English title put in (``_titled``)


def fit_guard(restorer: Restorer, corpus: Path | None = None, output: Path | None = None) -> Guard:
    """Fit on the tune split and English sentences with ``restorer``'s backend; write ``output``."""
    started = time.perf_counter()
    tune = [line for _, line in split_lines(Path(corpus or default_corpus_dir()), "tune")]
    english = english_sentences(ENGLISH_SENTENCES)
    texts = training_texts(tune, english)
    x, y = decisions(restorer, texts)
    xs, ys = sentence_decisions(restorer, sentence_texts(tune, english))
    guard = Guard(logistic_fit(x, y, unpenalised=BIASES), logistic_fit(xs, ys))
    wrong = int(((guard.logits(x) > guard.threshold) != y).sum())
    sentences_wrong = int(((xs @ guard.sentence_weights > 0) != ys).sum())
    provenance = {
        "fitted": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "command": "nokta train --backend guard",
        "seconds": round(time.perf_counter() - started),
        "backend": restorer.name,
        "tune_lines": len(tune),
        "english_sentences": len(english),
        "english_text": f"docstrings of the Python {sysconfig.get_python_version()} standard library (PSF License 2.0)",
        "decisions": len(y),
        "keep_as_typed": int(y.sum()),
        "decisions_wrong": wrong,
        "sentences": len(ys),
        "english_sentences_fitted": int(ys.sum()),
        "sentences_wrong": sentences_wrong,
    }
    write_guard(guard, Path(output or DEFAULT_GUARD), provenance)
    print(f"guard: {len(y):,} decisions ({int(y.sum()):,} keep as typed), {wrong} wrong on the fit's own text")
    print(f"guard: {len(ys):,} sentences ({int(ys.sum()):,} English), {sentences_wrong} wrong on the fit's own text")
    return guard


def training_texts(tune: Sequence[str], english: Sequence[str], seed: int = 11) -> list[tuple[str, str]]:
    """(typed, meant) lines: the tune lines typed in ASCII, with slips and as written,
    English sentences alone and after a tune line typed in ASCII."""
    rng = random.Random(seed)
    texts = [
        *zip(ascii_inputs(tune), tune, strict=True),
        *zip(with_slips(tune), tune, strict=True),
        *zip(tune, tune, strict=True),
    ]
    texts += code_switched(tune, english, rng)
    for sentence in english:
        if rng.random() < MIXED_SHARE:
            line = rng.choice(tune)
            texts.append((f"{ascii_inputs([line])[0]} {sentence}", f"{line} {sentence}"))
        else:
            texts.append((sentence, sentence))
    return texts


def code_switched(tune: Sequence[str], english: Sequence[str], rng: random.Random) -> list[tuple[str, str]]:
    """(typed, meant) tune lines typed in ASCII with an English word of ``english`` put
    between two of their words, half of them capitalised (``Yeni bir Issue actim``), some
    with a suffix after an apostrophe, as the tune lines write one (``Issue'yu``)."""
    terms = sorted({word for sentence in english for word in _TERM_RE.findall(sentence.lower())})
    suffixes = sorted({suffix for line in tune for suffix in _SUFFIX_RE.findall(line)})
    texts = []
    for line in rng.sample(list(tune), min(CODE_SWITCHED_LINES, len(tune))):
        spaces = [at.start() for at in re.finditer(" ", line)]
        if not spaces:
            continue
        at, term = rng.choice(spaces), rng.choice(terms)
        term = term.capitalize() if rng.random() < 0.5 else term
        if suffixes and rng.random() < SUFFIXED_SHARE:
            term += rng.choice(suffixes)
        meant = f"{line[:at]} {term}{line[at:]}"
        texts.append((ascii_inputs([meant])[0], meant))
    return texts


def sentence_texts(tune: Sequence[str], english: Sequence[str], seed: int = 13) -> list[list[tuple[str, bool]]]:
    """Lines as their pieces, (text, whether it is English), joined by a space: the tune
    lines as ``training_texts`` types them, with an English word or title put in and in
    capitals (a headline); English sentences alone, some in capitals, and before or after a tune
    line typed in ASCII; short pieces of either (``_fragment``) alone and as a sentence
    before or after a sentence of either."""
    rng = random.Random(seed)
    typed = ascii_inputs(tune)
    turkish = [*typed, *with_slips(tune), *tune, *(line for line, _ in code_switched(tune, english, rng))]
    turkish += [line.upper() for line in rng.sample(typed, min(HEADLINES, len(typed)))]
    turkish += [_titled(rng.choice(typed), rng.choice(english), rng) for _ in range(TITLED)]
    texts = [[(line, False)] for line in turkish]
    for sentence in english:
        sentence = sentence.upper() if rng.random() < SHOUTED_SHARE else sentence
        texts.append(_in_any_order([(sentence, True)], [(rng.choice(typed), False)], rng))
    for _ in range(FRAGMENTS):
        for pieces, sentences in ((english, english), (typed, typed), (typed, english), (english, typed)):
            piece = (_fragment(rng.choice(pieces), rng), pieces is english)
            texts.append([piece])
            if pieces is sentences or rng.random() < MIXED_FRAGMENT_SHARE:
                texts.append(_in_any_order([piece], [(rng.choice(sentences), sentences is english)], rng))
    return texts


def _titled(line: str, english: str, rng: random.Random) -> str:
    """``line`` with two to five words of ``english`` put in, capitalised, as a title or a
    name is (Turkish War of Independence veya ...)."""
    words, title = line.split(" "), english.rstrip(".!?").split()
    start = rng.randrange(len(title))
    at = rng.randint(0, len(words))
    return " ".join(
        [*words[:at], *(word.capitalize() for word in title[start : start + rng.randint(2, 5)]), *words[at:]]
    )


def _in_any_order(
    first: list[tuple[str, bool]], second: list[tuple[str, bool]], rng: random.Random
) -> list[tuple[str, bool]]:
    """Both, or either alone, in a random order."""
    return rng.choice([first, second + first, first + second])


def _fragment(line: str, rng: random.Random) -> str:
    """The first one to ``FRAGMENT_WORDS`` words of ``line``, as a sentence of its own."""
    return " ".join(line.split()[: rng.randint(1, FRAGMENT_WORDS)]).rstrip(".!?:;,") + "."


def sentence_decisions(restorer: Restorer, texts: Sequence[list[tuple[str, bool]]]) -> tuple[np.ndarray, np.ndarray]:
    """The ``SENTENCE_FEATURES`` of each sentence of ``texts`` and whether it is English:
    whether most of its words are of English pieces."""
    lines, english = [], []
    for pieces in texts:
        lines.append(" ".join(text for text, _ in pieces))
        english.append([is_english for text, is_english in pieces for _ in word_spans(text)])
    spans = [word_spans(line) for line in lines]
    sentence, rows = sentence_features(*guard_backend(restorer).guard_inputs(lines, spans))
    flags = np.array([flag for line_flags in english for flag in line_flags], dtype=np.float64)
    share = np.bincount(sentence, flags, len(rows)) / np.bincount(sentence, minlength=len(rows)).clip(1)
    return rows, share > 0.5


def decisions(restorer: Restorer, texts: Sequence[tuple[str, str]]) -> tuple[np.ndarray, np.ndarray]:
    """The features of each word the backend alone changes, and whether it is to be kept as typed."""
    typed = [line for line, _ in texts]
    restorer.keep_foreign = False
    try:
        with float32():  # the same outputs, so the same weights, on every CPU
            bare = restore_all(restorer, typed)
    finally:
        restorer.keep_foreign = True
    spans = [word_spans(line) for line in typed]
    evidence, places = guard_backend(restorer).guard_inputs(typed, spans)
    rows, labels = [], []
    row = 0
    for (line, meant), out, line_spans, ruled in zip(texts, bare, spans, ruled_words(evidence), strict=True):
        for span, rule in zip(line_spans, ruled, strict=True):
            was, became, wanted = (text[span.start : span.end] for text in (line, out, meant))
            kept = kept_spelling(was, became)
            if kept != became and rule is None and wanted in (kept, became):
                rows.append(row)
                labels.append(wanted == kept)
            row += 1
    return features(evidence, places)[rows], np.array(labels, dtype=bool)


def kept_spelling(typed: str, restored: str) -> str:
    """What a word the guard keeps becomes: as typed up to its first apostrophe, the
    backend's spelling after it (``Issue'yu``: a Turkish suffix)."""
    stem = _APOSTROPHE_RE.search(typed)
    return typed if stem is None else typed[: stem.start()] + restored[stem.start() :]


def guard_backend(restorer: Restorer) -> NgramRestorer:
    """The backend whose counts the guard reads: the count-based model (the default's own)."""
    backend = getattr(restorer, "ngram", restorer)
    if not isinstance(backend, NgramRestorer):
        raise ValueError(f"the {restorer.name} backend has no count-based model for the guard to read")
    return backend


def logistic_fit(
    x: np.ndarray, y: np.ndarray, penalty: float = PENALTY, unpenalised: Sequence[int] = (0,)
) -> np.ndarray:
    """Weights minimising the logistic loss of ``x @ w`` against ``y`` plus ``penalty``·|w|²
    (the ``unpenalised`` columns, the biases, left out of the penalty)."""
    weights = np.zeros(x.shape[1])
    ridge = np.full(x.shape[1], penalty)
    ridge[list(unpenalised)] = 0.0
    target = y.astype(np.float64)
    for _ in range(NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ weights, -30, 30)))
        gradient = x.T @ (p - target) + ridge * weights
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(ridge + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if np.abs(step).max() < 1e-6:
            break
    return weights


def english_sentences(limit: int, stdlib: Path | None = None) -> list[str]:
    """``limit`` English prose sentences, evenly spaced, from the standard library's docstrings."""
    found = list(dict.fromkeys(_docstring_sentences(Path(stdlib or sysconfig.get_paths()["stdlib"]))))
    step = max(1, len(found) // limit)
    return found[::step][:limit]


def _docstring_sentences(stdlib: Path) -> Iterator[str]:
    for path in sorted(stdlib.glob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                text = " ".join((ast.get_docstring(node) or "").split())
                for sentence in _SENTENCE_RE.split(text):
                    if len(sentence.split()) >= MIN_WORDS and _PROSE_RE.fullmatch(sentence):
                        yield sentence


__all__ = [
    "FEATURES",
    "decisions",
    "english_sentences",
    "fit_guard",
    "logistic_fit",
    "sentence_decisions",
    "sentence_texts",
    "training_texts",
]
