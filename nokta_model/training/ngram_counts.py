"""Count the corpus into the count-based model's tables. No gradient descent.

Stages: count word uni/bi/trigrams over lower-case spellings (sentence padding
<s> </s>, corpus files weighted by the mix in ``corpus.py``), a token typed with a
capital I counted as the spelling running text confirms (``capitals.py``); add the word
lists as attested spellings; group spellings by ASCII key into candidate sets; keep only the
n-grams that can ever change a decision (those touching a word whose key has more
than one spelling, and the contexts they need); count, from all of them, the neighbours
written beside each spelling of a confusable key (``collocations.py``); count the character model over
word types; take the English word frequencies (``english.py``).
"""

from __future__ import annotations

import time
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from ..alphabet import tr_lower
from ..lattice import BOS, EOS, UNK
from ..ngram.capitals import (
    CapitalCounts,
    acronym_table,
    capital_table,
    capitals_line,
    resolve,
    turkish_start,
    word_stem,
)
from ..ngram.charmodel import CharModel
from ..ngram.collocations import confusable_words, count_collocations, edge_stem, stem_hashes
from ..ngram.lm import FIRST_WORD_ID, LIST_BONUS, LanguageModel, Lexicon
from ..ngram.tables import ID_BITS, MAX_ID, SortedTable, hash_all, pack
from ..spans import word_spans
from ..words import spelling_mask, token_key, token_spans
from .corpus import LEXICON_FILES, LIST_AGREEMENT, read_lines, split_lines
from .english_words import english_table

MIN_TRIGRAM_COUNT = 2  # rarer trigrams are left to the bigram level
PENDING = "\x00"  # marks the spelling of a token typed with a capital I until ``resolve``


def line_tokens(line: str) -> list[str]:
    """Lower-case tokens of a line of correctly written text (words found as typed: M.Ö. has two)."""
    return [spelling for _, spelling in typed_tokens(line)]


def typed_tokens(line: str) -> list[tuple[str, str]]:
    """(as typed, lower case) of each token of a line of correctly written text."""
    nfc = unicodedata.normalize("NFC", line)
    lowered = tr_lower(nfc)
    return [(nfc[s.start : s.end], lowered[s.start : s.end]) for s in token_spans(word_spans(nfc), lowered)]


def _counted_tokens(line: str, weight: int, capitals: CapitalCounts) -> list[str]:
    """The line's spellings to count; a token typed with a capital I marked ``PENDING``."""
    in_capitals = capitals_line(line)
    return [
        PENDING + spelling if capitals.add_token(typed, spelling, weight, in_capitals) else spelling
        for typed, spelling in typed_tokens(line)
    ]


class _Counter:
    """Counts n-grams over build-time spelling ids."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.unigrams: Counter[int] = Counter()
        self.bigrams: Counter[int] = Counter()
        self.trigrams: Counter[int] = Counter()

    def spelling_id(self, spelling: str) -> int:
        return self.ids.setdefault(spelling, len(self.ids) + FIRST_WORD_ID)

    def add_line(self, tokens: list[str], weight: int) -> None:
        ids = [BOS, BOS] + [self.spelling_id(t) for t in tokens] + [EOS]
        for pos in range(2, len(ids)):
            self.unigrams[ids[pos]] += weight
            self.bigrams[pack(ids[pos - 1], ids[pos])] += weight
            self.trigrams[pack(ids[pos - 2], ids[pos - 1], ids[pos])] += weight
        self.unigrams[BOS] += weight
        self.bigrams[pack(BOS, BOS)] += weight


def _candidate_groups(spellings: Iterable[str]) -> tuple[dict[str, list[tuple[str, int]]], dict[str, str]]:
    """Each key's spellings, one per mask; and the twins: a spelling whose key and mask were
    seen first with another (hükûmet after hükumet: circumflexes fold into the plain vowel)
    mapped to that one, whose word it is counted as."""
    groups: dict[str, list[tuple[str, int]]] = defaultdict(list)
    twins: dict[str, str] = {}
    for spelling in spellings:
        key = token_key(spelling)
        mask = spelling_mask(key, spelling)
        if mask is None:
            continue
        first = next((seen for seen, seen_mask in groups[key] if seen_mask == mask), None)
        if first is None:
            groups[key].append((spelling, mask))
        else:
            twins[spelling] = first
    return groups, twins


def _renumber(
    counter: _Counter, groups: dict[str, list[tuple[str, int]]], twins: dict[str, str]
) -> tuple[Lexicon, dict[int, int]]:
    """Give each key's spellings contiguous ids, most frequent first; a twin takes the id of
    the spelling it is counted as."""
    unigrams = Counter(counter.unigrams)
    for twin, first in twins.items():
        unigrams[counter.ids[first]] += counter.unigrams[counter.ids[twin]]
    keys = sorted(groups)
    key_hashes = hash_all(keys)
    order = np.argsort(key_hashes)
    new_id = {BOS: BOS, EOS: EOS}
    masks, counts, first_ids, size = [0] * FIRST_WORD_ID, [0.0] * FIRST_WORD_ID, [], []
    for index in order:
        # Most frequent first; between equals, more Turkish letters first (word lists hold
        # ASCII-typed junk beside the real spelling), then by mask: no dependence on set order.
        members = sorted(
            groups[keys[index]],
            key=lambda sm: (-unigrams[counter.ids[sm[0]]], -sm[1].bit_count(), sm[1]),
        )
        first_ids.append(len(masks))
        size.append(len(members))
        for spelling, mask in members:
            old = counter.ids[spelling]
            new_id[old] = len(masks)
            masks.append(mask)
            counts.append(unigrams[old] or LIST_BONUS)
    for twin, first in twins.items():
        new_id[counter.ids[twin]] = new_id[counter.ids[first]]
    if len(masks) > MAX_ID:
        raise ValueError(f"vocabulary of {len(masks)} spellings exceeds {MAX_ID}")
    lexicon = Lexicon(
        key_table=SortedTable(key_hashes[order], np.stack([first_ids, size], axis=1).astype(np.int32)),
        masks=np.array(masks, dtype=np.int64),
        counts=np.array(counts, dtype=np.float32),
    )
    return lexicon, new_id


def _stems_by_id(
    groups: dict[str, list[tuple[str, int]]], counter: _Counter, new_id: dict[int, int], size: int
) -> np.ndarray:
    """The stem hash (``collocations.stem_hashes``) of each renumbered word id's key; the
    sentence padding's own."""
    keys = [""] * size
    for key, members in groups.items():
        for spelling, _ in members:
            keys[new_id[counter.ids[spelling]]] = key
    stems = stem_hashes(keys)
    stems[BOS], stems[EOS] = edge_stem(BOS), edge_stem(EOS)
    return stems


def _unpack(keys: np.ndarray, order: int) -> list[np.ndarray]:
    mask = (1 << ID_BITS) - 1
    return [(keys >> (ID_BITS * (order - 1 - i))) & mask for i in range(order)]


def _repack(parts: list[np.ndarray]) -> np.ndarray:
    packed = np.zeros(len(parts[0]), dtype=np.int64)
    for part in parts:
        packed = (packed << ID_BITS) | part
    return packed


def _ngram_arrays(ngrams: Counter[int], order: int, new_ids: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """Renumbered word ids of every n-gram, and its count."""
    keys = np.fromiter(ngrams.keys(), dtype=np.int64, count=len(ngrams))
    counts = np.fromiter(ngrams.values(), dtype=np.float64, count=len(ngrams)).astype(np.float32)
    return [new_ids[part] for part in _unpack(keys, order)], counts


def _touching(parts: list[np.ndarray], competing: np.ndarray) -> np.ndarray:
    keep = np.zeros(len(parts[0]), dtype=bool)
    for part in parts:
        keep |= competing[part]
    return keep


def _bigram_table(keys: np.ndarray, counts: np.ndarray, keep: np.ndarray, trigram_keys: np.ndarray) -> SortedTable:
    """Kept bigrams plus the (u, v) contexts and (v, w) back-offs of the kept trigrams."""
    needed = np.concatenate([trigram_keys >> ID_BITS, trigram_keys & ((1 << 2 * ID_BITS) - 1)])
    keep = keep | np.isin(keys, needed)
    return SortedTable.summed(keys[keep], counts[keep])


def _agreed_list_spellings(corpus_dir: Path) -> set[str]:
    """Lower-case spellings held by at least ``LIST_AGREEMENT`` word lists."""
    lists_holding: Counter[str] = Counter()
    for lexicon_file in LEXICON_FILES:
        spellings = set()
        for entry in read_lines(corpus_dir / "lexicon" / lexicon_file.name):
            if entry != entry.upper():  # all-caps entries can't tell I from İ
                spellings.update(line_tokens(entry))
        lists_holding.update(spellings)
    return {s for s, lists in lists_holding.items() if lists >= LIST_AGREEMENT and turkish_start(s)}


def _resolved_capitals(counter: _Counter, capitals: CapitalCounts, listed: set[str]) -> tuple[dict[str, str], Counter]:
    """Each ``PENDING`` spelling -> the spelling it is counted as (``capitals.resolve``),
    added to the counter; and the count of each i-spelling typed under a capital I."""
    english = english_table()
    pairs = [(spelling, reading) for spelling, (reading, _) in capitals.pending.items()]
    stems_written = _stem_counts(counter, {word_stem(s) for pair in pairs for s in pair})
    listed_stems = {word_stem(spelling) for spelling in listed}

    def english_zipf(spelling: str) -> float:
        return float(english.get(hash_all([token_key(spelling)]), 0)[0]) / 10

    resolved: dict[str, str] = {}
    plain: Counter[str] = Counter()
    for spelling, (reading, turkish_capitals) in capitals.pending.items():
        target = resolve(
            spelling, reading, turkish_capitals, stems_written.__getitem__, listed_stems.__contains__, english_zipf
        )
        counter.spelling_id(target)
        resolved[PENDING + spelling] = target
        if target == reading:
            plain[reading] += counter.unigrams[counter.ids[PENDING + spelling]]
    return resolved, plain


def _stem_counts(counter: _Counter, stems: set[str]) -> Counter[str]:
    """Running-text count of each of ``stems``: of the lower-case tokens with that stem."""
    counts: Counter[str] = Counter()
    for spelling, word_id in counter.ids.items():
        stem = word_stem(spelling)
        if stem in stems:
            counts[stem] += counter.unigrams[word_id]
    return counts


def train_ngram(corpus_dir: Path, commercial_only: bool = True, log: Callable[[str], None] = print) -> LanguageModel:
    started = time.perf_counter()
    counter = _Counter()
    capitals = CapitalCounts()
    for lines, (corpus_file, line) in enumerate(split_lines(corpus_dir, "train", commercial_only), 1):
        counter.add_line(_counted_tokens(line, corpus_file.weight, capitals), corpus_file.weight)
        if lines % 100_000 == 0:
            log(f"counted {lines:,} lines, {len(counter.ids):,} spellings")
    list_spellings = _agreed_list_spellings(corpus_dir)
    resolved, plain_capitals = _resolved_capitals(counter, capitals, list_spellings)
    for spelling in list_spellings:
        counter.spelling_id(spelling)
    groups, twins = _candidate_groups(s for s in counter.ids if not s.startswith(PENDING))
    grouped = {spelling for members in groups.values() for spelling, _ in members}
    for pending, target in resolved.items():
        target = twins.get(target, target)
        if target in grouped:
            twins[pending] = target
    log(f"{len(groups):,} keys, {len(counter.ids):,} spellings ({len(twins):,} counted as a twin); renumbering")
    lexicon, new_id = _renumber(counter, groups, twins)
    new_ids = np.full(len(counter.ids) + FIRST_WORD_ID, UNK, dtype=np.int64)
    new_ids[list(new_id)] = list(new_id.values())
    competing = lexicon.competing_words()
    tri_parts, tri_counts = _ngram_arrays(counter.trigrams, 3, new_ids)
    keep = _touching(tri_parts, competing) & (tri_counts >= MIN_TRIGRAM_COUNT)
    trigrams = SortedTable.summed(_repack(tri_parts)[keep], tri_counts[keep])
    bi_parts, bi_counts = _ngram_arrays(counter.bigrams, 2, new_ids)
    bigrams = _bigram_table(_repack(bi_parts), bi_counts, _touching(bi_parts, competing), trigrams.keys)
    confusable = confusable_words(lexicon.counts, lexicon.key_table.values)
    stems = _stems_by_id(groups, counter, new_id, len(lexicon.masks))
    collocations = count_collocations(bi_parts, bi_counts, tri_parts, tri_counts, confusable, stems)
    log(
        f"{len(bigrams):,} bigrams, {len(trigrams):,} trigrams kept; {len(collocations):,} collocations"
        f" of {int(confusable.sum()):,} confusable spellings; counting characters"
    )
    chars = CharModel.count((key, mask) for key, members in groups.items() for _, mask in members)
    log(f"{len(chars.table):,} character contexts; done in {time.perf_counter() - started:.0f} s")
    return LanguageModel(
        lexicon,
        bigrams,
        trigrams,
        chars,
        english_table(),
        capital_table(capitals.dotted, plain_capitals),
        acronym_table(capitals),
        collocations,
    )
