"""The count-based restorer: lexicon candidates, trigram Viterbi, character back-off."""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable
from itertools import chain, islice
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..alphabet import TURKISH_ONLY
from ..calibration import CALIBRATION_FILES, read_calibration
from ..codeswitch import FOREIGN_ONLY, Place, WordEvidence, log_ratio, shipped_guard
from ..lattice import BOS, EOS, UNK, Position, line_rankings, sentence_positions, typed_per_line
from ..restorer import Ranking, Restorer
from ..spans import SUFFIX_AFTER_QUOTE_RE, Span, word_part_texts
from ..words import MAX_MASK_BITS, ambiguous_positions, spelling_mask, token_key, token_spans
from .arcs import score_windows
from .artifact import DEFAULT_ARTIFACT, load_model
from .capitals import MAX_ACRONYM, all_capitals, word_stem
from .collocations import collocation_scores
from .lm import LanguageModel
from .tables import ID_BITS, hash_all

MAX_UNSEEN_ALTERNATIVES = 4
MIN_STEM = 3  # shortest known prefix trusted to spell an unseen word's stem
TOKEN_CACHE_SIZE = 20_000  # distinct tokens remembered; bounds memory (bench.cli_memory)
#: Chosen on the corpus dev split. At 0.01 a real word only the word lists hold (koydur,
#: pseudo-count 0.5) was dropped beside a twin counted 64 times, leaving the model certain
#: of köydür; 0.005 keeps it as an alternative, with the same dev and tune accuracy.
RARE_SPELLING_RATIO = 0.005
_UNSURE = (0.02, 0.98)  # a character-model letter outside this range is taken as decided
_START, _END = Position([BOS]), Position([EOS])  # the ends of every sentence; never changed
_STEM_RE = re.compile("[^'’-]*")  # a word up to its first apostrophe or hyphen (Issue'yu -> Issue)
_OPENING = frozenset(" \t\"'“‘(")  # what may stand between a word and the text of its sentence before it
_SENTENCE_END = frozenset(".!?:;…")
_SUFFIX_RE = re.compile(r"['’]\w")  # a suffix after an apostrophe (Issue'yu)
#: Every ``Place`` a word may have, by its fields: shared, rather than built word by word.
_PLACES = {(start, suffix): Place(start, suffix) for start in (False, True) for suffix in (False, True)}


class KeyEvidence(NamedTuple):
    """What the counts say of an ASCII key (``NgramRestorer._key_evidence``)."""

    log_ratio: float  # of its English frequency to its running-text count (``codeswitch.log_ratio``)
    english_zipf: float  # 0: not among the English words kept
    ascii_count: float  # running-text count of its spelling without a Turkish letter
    twin_count: float  # … of its commonest spelling with one
    turkish_acronym: bool  # running text writes it as an acronym with Turkish letters
    turkish_spelled: bool  # ``_turkish_spelled``


class NgramRestorer(Restorer):
    name = "ngram"

    def __init__(self, model: LanguageModel, source: str = ""):
        self.model = model
        self.source = source
        self._positions_of: dict[str, Position] = {}  # token text -> its lattice slot
        self._ids_of: dict[str, range] = {}  # key -> its candidate ids (``_candidate_ids``)
        self._count_of: dict[str, float] = {}  # spelling -> its running-text count (``counts``)
        self._letters_of: dict[tuple[str, int], dict[int, float]] = {}  # ``unseen_letter_probabilities``
        self._evidence_of: dict[str, KeyEvidence] = {}  # stem key -> ``_key_evidence``
        self._word_evidence_of: dict[tuple[str, bool], WordEvidence] = {}  # ``_word_evidence``
        self._cache_lock = threading.Lock()

    @classmethod
    def load(cls, path: Path | None = None) -> NgramRestorer:
        """The model file at ``path``, or the shipped one with its shipped calibration."""
        restorer = cls(load_model(Path(path) if path else DEFAULT_ARTIFACT), str(path or DEFAULT_ARTIFACT))
        if path is None:
            restorer.calibration = read_calibration(CALIBRATION_FILES["ngram"])
        return restorer

    def dotted_capitals(self, dotted: list[str], undotted: list[str], ascii_lines: list[bool]) -> list[bool]:
        """Where running text writes the dotted spelling under a capital I (Index), dotted
        only when it writes it under a capital İ at least as often. Else dotted only when
        running text has the dotted spelling at least as often as the undotted one (the
        word lists hold lower-cased foreign names, intel, that would otherwise dot them),
        or, on a line typed without Turkish letters, when the lexicon knows neither: then
        the letter models' choice stands (Istanbulca -> İstanbulca). A word with a suffix
        after an apostrophe that running text never writes goes by its stem (Index'i as Index)."""
        dotted, undotted = self._known_or_stems(dotted, undotted)
        counts = self.counts(dotted + undotted)
        under = self._under_capitals(dotted, undotted)
        return [
            under_dotted >= under_plain if under_plain else (d > 0 or (u == 0 and ascii_line)) and d >= u
            for d, u, ascii_line, (under_dotted, under_plain) in zip(
                counts[: len(dotted)], counts[len(dotted) :], ascii_lines, under, strict=True
            )
        ]

    def _known_or_stems(self, dotted: list[str], undotted: list[str]) -> tuple[list[str], list[str]]:
        """Each pair of spellings as it is, or its stems (up to an apostrophe) where running
        text never wrote the word under a capital and wrote its stem so."""
        suffixed = [i for i, word in enumerate(dotted) if "'" in word or "’" in word]
        if not suffixed:
            return dotted, undotted
        stems = [(word_stem(dotted[i]), word_stem(undotted[i])) for i in suffixed]
        under = self._under_capitals([dotted[i] for i in suffixed], [undotted[i] for i in suffixed])
        under_stems = self._under_capitals([d for d, _ in stems], [u for _, u in stems])
        dotted, undotted = list(dotted), list(undotted)
        for i, (d, u), word, stem in zip(suffixed, stems, under, under_stems, strict=True):
            if not any(word) and any(stem):
                dotted[i], undotted[i] = d, u
        return dotted, undotted

    def _under_capitals(self, dotted: list[str], undotted: list[str]) -> list[list[float]]:
        """(times written under a capital İ, under a capital I) of each word: of its hyphen
        parts the capital changes, summed (CRISPR-Cas9 is asked about as crispr)."""
        parts = [
            [part for part, plain in zip(word_part_texts(d), word_part_texts(u), strict=True) if part != plain] or [d]
            for d, u in zip(dotted, undotted, strict=True)
        ]
        flat = [part for word in parts for part in word]
        rows = iter(self.model.capitals.get(hash_all(flat), 0).reshape(-1, 2).tolist() if flat else [])
        return [[sum(column) for column in zip(*islice(rows, len(word)), strict=True)] for word in parts]

    def foreign_words(self, lines: list[str], spans: list[list[Span]]) -> list[list[bool]]:
        """Per word, whether it is foreign (``codeswitch``): its English frequency against
        its counts in Turkish running text (its stem's, up to an apostrophe or a hyphen),
        and where it stands in its sentence and line. A suffix glued to what it follows, or
        written apart after a closing quote, is Turkish (``_suffix``) unless its sentence is English."""
        guard, inputs = shipped_guard(), self.guard_inputs(lines, spans)
        in_english = guard.in_english_sentence(*inputs)
        found, english = guard.foreign_words(*inputs, in_english), iter(in_english.tolist())
        for line, line_spans, flags in zip(lines, spans, found, strict=True):
            line_english = list(islice(english, len(line_spans)))
            if "'" in line or "’" in line or ")" in line or '"' in line or "”" in line:
                flags[:] = [
                    flag and (kept or not _suffix(line, start, end))
                    for flag, kept, (start, end) in zip(flags, line_english, line_spans, strict=True)
                ]
        return found

    def guard_inputs(
        self, lines: list[str], spans: list[list[Span]]
    ) -> tuple[list[list[WordEvidence]], list[list[Place]]]:
        """The ``WordEvidence`` and ``Place`` of each word span of each (NFC, as typed) line."""
        words, places = [], []
        for line, line_spans in zip(lines, spans, strict=True):
            in_capitals = not any(map(str.islower, line))
            line_places = []
            for start, end in line_spans:
                token = stem = line[start:end]
                quoted = "'" in token or "’" in token
                if quoted or "-" in token:
                    stem = _STEM_RE.match(token).group()  # type: ignore[union-attr]  # matches always
                # Only a word that starts with a capital may be an acronym: others keep one cache entry.
                words.append((stem, stem[:1].isupper() and in_capitals))
                line_places.append(_PLACES[not _inside_sentence(line, start), quoted and _suffixed(token)])
            places.append(line_places)
        evidence = iter(self._remembered(self._word_evidence_of, words, self._word_evidence))
        return [list(islice(evidence, len(line_spans))) for line_spans in spans], places

    def _word_evidence(self, words: list[tuple[str, bool]]) -> list[WordEvidence]:
        """``WordEvidence`` of each (stem, capital on a line in capitals)."""
        keys = [token_key(stem) for stem, _ in words]
        found = self._remembered(self._evidence_of, keys, self._key_evidence)
        return [
            _word_evidence(stem, evidence, in_capitals)
            for (stem, in_capitals), evidence in zip(words, found, strict=True)
        ]

    def _key_evidence(self, keys: list[str]) -> list[KeyEvidence]:
        """``KeyEvidence`` of each key: its English frequency, its counts in running text,
        and how running text writes it as an acronym."""
        model = self.model
        hashes = hash_all(keys) if keys else np.zeros(0, dtype=np.int64)
        english = model.english.find(hashes)
        zipf = model.english.values[np.maximum(english, 0)].tolist()
        acronyms = (model.acronyms.find(hashes) >= 0).tolist()
        spelled = self._spelling_counts(keys)
        return [
            KeyEvidence(
                log_ratio(z / 10 if row >= 0 else None, sum(spelled[key].values()), model.total),
                z / 10 if row >= 0 else 0.0,
                max([count for mask, count in spelled[key].items() if not mask], default=0.0),
                max([count for mask, count in spelled[key].items() if mask], default=0.0),
                turkish_acronym,
                _turkish_spelled(key, spelled[key]),
            )
            for key, row, z, turkish_acronym in zip(keys, english.tolist(), zipf, acronyms, strict=True)
        ]

    def counts(self, spellings: list[str]) -> list[float]:
        """Running-text count of each spelling (its rarest hyphen part; LIST_BONUS if only
        in a word list, 0 if not in the lexicon), remembered for the next call."""
        return self._remembered(self._count_of, spellings, self._lexicon_counts)

    def _lexicon_counts(self, spellings: list[str]) -> list[float]:
        parts = [word_part_texts(w) for w in spellings]
        keys = {part: token_key(part) for word in parts for part in word}
        spelled = self._spelling_counts(list(keys.values()))
        found = {part: spelled[key].get(spelling_mask(key, part), 0.0) for part, key in keys.items()}
        return [min([found[part] for part in word], default=0.0) for word in parts]

    def _spelling_counts(self, keys: list[str]) -> dict[str, dict[int | None, float]]:
        """For each distinct key, the count of each spelling mask the lexicon has."""
        distinct = list(dict.fromkeys(keys))
        lexicon = self.model.lexicon
        ranges = self._candidate_ids(distinct)
        ids = [i for candidates in ranges for i in candidates]
        found = iter(zip(lexicon.masks[ids].tolist(), lexicon.counts[ids].tolist(), strict=True))
        spelled: dict[str, dict[int | None, float]] = {}
        for key, candidates in zip(distinct, ranges, strict=True):
            counts = spelled[key] = {}
            for mask, count in islice(found, len(candidates)):
                counts[mask] = max(count, counts.get(mask, 0.0))
        return spelled

    def rank(
        self,
        lines: list[str],
        spans: list[list[Span]],
        with_scores: bool,
        typed: list[str] | None = None,
        cased: list[str] | None = None,
    ) -> list[list[Ranking]]:
        tokens = [token_spans(word_spans, line) for word_spans, line in zip(spans, lines, strict=True)]
        texts = [line[start:end] for line, line_tokens in zip(lines, tokens, strict=True) for start, end in line_tokens]
        candidates = iter(self.candidates(texts))
        sentences = [sentence_positions(islice(candidates, len(t))) for t in tokens]
        scores = self.arc_scores(sentences)
        return [
            line_rankings(line, word_spans, line_tokens, sentence, arcs, with_scores, line_typed)
            for line, word_spans, line_tokens, sentence, arcs, line_typed in zip(
                lines, spans, tokens, sentences, scores, typed_per_line(typed, len(lines)), strict=True
            )
        ]

    def arc_scores(self, sentences: list[list[Position]]) -> list[dict]:
        """Trigram log scores of every arc the decoding of each sentence's lattice needs."""
        return score_windows(self.model, sentences)

    def attested_neighbours(self, sentences: list[list[Position]]) -> list[list[bool]]:
        """For each word of each sentence, whether any of its spellings was counted next to
        any spelling of the word before or after it (the sentence's ends included); one
        batched lookup."""
        if not sentences:
            return []
        slots = [slot for words in sentences for slot in (_START, *words, _END)]
        sizes = np.array([len(slot.ids) for slot in slots])  # each at least 1
        ids = np.fromiter(chain.from_iterable(slot.ids for slot in slots), dtype=np.int64, count=int(sizes.sum()))
        lengths = np.array([len(words) + 2 for words in sentences])
        ends = np.cumsum(lengths)
        lefts = np.delete(np.arange(len(slots)), ends - 1)  # each slot but a </s> begins a pair
        keys, pair_sizes = _pair_keys(ids, sizes, lefts)
        counted = self.model.bigrams.get(keys, 0) > 0
        seen_after = np.zeros(len(slots), dtype=bool)  # by the pair's left slot
        seen_after[lefts] = np.logical_or.reduceat(counted, np.cumsum(pair_sizes) - pair_sizes)
        word_slots = np.delete(np.arange(len(slots)), np.concatenate([ends - lengths, ends - 1]))
        seen = iter((seen_after[word_slots - 1] | seen_after[word_slots]).tolist())
        return [list(islice(seen, len(words))) for words in sentences]

    def collocation_scores(self, sentences: list[list[Position]]) -> list[list[list[float] | None]]:
        """For each word of each sentence, its spellings' scores by the neighbours each is
        written beside (``collocations.collocation_scores``); None where the key is not confusable."""
        model = self.model
        return collocation_scores(model.collocations, model.lexicon.counts, model.confusable, sentences)

    def candidates(self, texts: list[str]) -> list[Position]:
        """Lattice slots of (``model_lower``-ed) tokens; each distinct token text is looked up once."""
        return self._remembered(self._positions_of, texts, self._positions)

    def _positions(self, texts: list[str]) -> list[Position]:
        keys = [token_key(text) for text in texts]
        ranges = self._candidate_ids(keys)
        found = iter(self._spellings(ranges))
        known, unseen = [], []
        for key, text, ids in zip(keys, texts, ranges, strict=True):
            typed = spelling_mask(key, text) or 0
            spellings = list(islice(found, len(ids)))
            if typed:
                spellings = [spelling for spelling in spellings if spelling[1] & typed == typed]
            known.append(_plausible(spellings, typed))
            if not known[-1]:
                unseen.append((key, typed))
        letters = iter(self.all_unseen_letter_probabilities(unseen))
        return [
            Position([i for i, _, _ in spellings], masks=[mask for _, mask, _ in spellings], key=key)
            if spellings
            else _unseen_position(key, next(letters))
            for key, spellings in zip(keys, known, strict=True)
        ]

    def _spellings(self, ranges: list[range]) -> list[tuple[int, int, float]]:
        """(id, mask, count) of every candidate id in ``ranges``, one range after another."""
        lexicon = self.model.lexicon
        ids = [i for candidates in ranges for i in candidates]
        return list(zip(ids, lexicon.masks[ids].tolist(), lexicon.counts[ids].tolist(), strict=True))

    def _candidate_ids(self, keys: list[str]) -> list[range]:
        """``Lexicon.candidates`` of each key, remembered: ``counts`` asks again for the keys
        of the words just ranked."""
        return self._remembered(self._ids_of, keys, self.model.lexicon.candidates)

    def _remembered(self, cache: dict, items: list, look_up: Callable[[list], list]) -> list:
        """``look_up`` of each item, through ``cache``: each distinct item not in it is looked
        up once, without the lock, so other threads' calls go on meanwhile. When the cache
        would outgrow TOKEN_CACHE_SIZE it keeps only this call's items: the words of the
        text at hand are those that come again soonest."""
        with self._cache_lock:
            cached = list(map(cache.get, items))
        new = list(dict.fromkeys([item for item, value in zip(items, cached, strict=True) if value is None]))
        if not new:
            return cached
        found = dict(zip(new, look_up(new), strict=True))
        with self._cache_lock:
            if len(cache) + len(found) > TOKEN_CACHE_SIZE:
                kept = {item: value for item, value in zip(items, cached, strict=True) if value is not None}
                cache.clear()
                cache.update(kept)
            cache.update(found)
        return [found[item] if value is None else value for item, value in zip(items, cached, strict=True)]

    def unseen_letter_probabilities(self, key: str, typed: int) -> dict[int, float]:
        """P(twin) of each ambiguous letter of a word the lexicon lacks (``typed``: the
        letters typed Turkish): its longest known stem, then the character model.
        Remembered, as the default asks again for each occurrence; do not change the dict."""
        return self.all_unseen_letter_probabilities([(key, typed)])[0]

    def all_unseen_letter_probabilities(self, words: list[tuple[str, int]]) -> list[dict[int, float]]:
        """``unseen_letter_probabilities`` of each (key, typed) word, looked up together."""
        return self._remembered(self._letters_of, words, self._letter_probabilities)

    def _letter_probabilities(self, words: list[tuple[str, int]]) -> list[dict[int, float]]:
        fixed = self._stem_letters(words)
        for (key, typed), letters in zip(words, fixed, strict=True):
            letters.update((pos, True) for pos in range(len(key)) if typed >> pos & 1)
        return self.model.chars.all_twin_probabilities(
            [(key, letters) for (key, _), letters in zip(words, fixed, strict=True)]
        )

    def _stem_letters(self, words: list[tuple[str, int]]) -> list[dict[int, bool]]:
        """For each (key, typed) word, the spelling of the ambiguous letters of the longest
        known prefix of its key (``_stem_spelling``); all prefixes looked up at once."""
        prefixes = [[key[:end] for end in range(len(key) - 1, MIN_STEM - 1, -1)] for key, _ in words]
        ranges = self.model.lexicon.candidates([prefix for word in prefixes for prefix in word])
        spellings = iter(self._spellings(ranges))
        masks = iter([[mask for _, mask, _ in islice(spellings, len(ids))] for ids in ranges])
        return [
            _stem_spelling(word_prefixes, list(islice(masks, len(word_prefixes))), typed)
            for (_, typed), word_prefixes in zip(words, prefixes, strict=True)
        ]


def _suffixed(token: str) -> bool:
    """Whether a token with an apostrophe has a suffix after it (Issue'yu)."""
    return _SUFFIX_RE.search(token) is not None


def _suffix(line: str, start: int, end: int) -> bool:
    """Whether the word at ``line[start:end]`` is a suffix after an apostrophe or a bracket
    glued to what comes before it (GitHub'ın, 8.40'ı: a word of its own only after a
    non-word; satır(lar)ın), or the genitive or accusative written apart after a closing
    quote ("All of the Lights" ın, "Faust" ı)."""
    if start > 1 and line[start - 1] in "'’)" and not line[start - 2].isspace():
        return True
    return SUFFIX_AFTER_QUOTE_RE.fullmatch(line, max(0, start - 2), end) is not None


def _inside_sentence(line: str, start: int) -> bool:
    """Whether a word starting at ``start`` follows other text of its sentence: the full
    stop after a capital initial ends none (A.Ş. belirlendi, M. Kemal), while one after a
    lower-case abbreviation may (d. Şam: doğum)."""
    while start and line[start - 1] in _OPENING:
        start -= 1
    if start > 1 and _capital_initial_at(line, start - 2):
        return True
    return start > 0 and line[start - 1] not in _SENTENCE_END


def _capital_initial_at(line: str, at: int) -> bool:
    """Whether ``line[at]`` is a capital standing alone before a full stop (the A and Ş of A.Ş.)."""
    return line[at].isupper() and line[at + 1 : at + 2] == "." and (at == 0 or not line[at - 1].isalpha())


def _word_evidence(stem: str, found: KeyEvidence, in_capitals: bool) -> WordEvidence:
    """``found``: the stem's ``_key_evidence``; ``in_capitals``: it starts with a capital on a
    line typed in capitals."""
    capital = stem[:1].isupper()  # else neither an acronym nor capitalised
    return WordEvidence(
        found.log_ratio,
        found.english_zipf,
        found.ascii_count,
        found.twin_count,
        turkish_letter=not TURKISH_ONLY.isdisjoint(stem),
        foreign_letter=not FOREIGN_ONLY.isdisjoint(stem) and not found.turkish_spelled,
        acronym=capital and not in_capitals and all_capitals(stem),
        # A word in capitals longer than an acronym is a word shouted: its lower-case spellings count.
        turkish_acronym=found.turkish_acronym or (len(stem) > MAX_ACRONYM and found.turkish_spelled),
        single_letter=len(stem) == 1,
        short=len(stem) <= 2,
        capitalised=capital and stem[1:].islower(),
        capitals_line=in_capitals,
    )


def _turkish_spelled(key: str, spellings: dict[int | None, float]) -> bool:
    """Whether running text writes ``key`` with a Turkish letter other than ı more often
    than without (``spellings``: count by spelling mask). An ı says nothing here: its
    capital is the ASCII I, and tokens typed in capitals leave ı-spellings (WIP: wıp)."""
    if not any(spellings):
        return False  # only spellings without a Turkish letter (mask 0, or None)
    dotless, at = 0, key.find("i", 0, MAX_MASK_BITS)
    while at >= 0:
        dotless |= 1 << at
        at = key.find("i", at + 1, MAX_MASK_BITS)
    turkish = sum(count for mask, count in spellings.items() if mask is not None and mask & ~dotless)
    return turkish > sum(spellings.values()) - turkish


def _stem_spelling(prefixes: list[str], masks: list[list[int]], typed: int) -> dict[int, bool]:
    """The ambiguous letters of the first (longest) of ``prefixes`` with a spelling (of its
    ``masks``) that has every letter ``typed`` Turkish, spelled as that spelling has them."""
    for prefix, prefix_masks in zip(prefixes, masks, strict=True):
        prefix_typed = typed & ((1 << len(prefix)) - 1)
        agreeing = [mask for mask in prefix_masks if mask & prefix_typed == prefix_typed]
        if agreeing:
            return {pos: bool(agreeing[0] >> pos & 1) for pos in ambiguous_positions(prefix)}
    return {}


def _unseen_position(key: str, probabilities: dict[int, float]) -> Position:
    """Candidates of a word the lexicon lacks, from its letters' probabilities of the twin:
    the likeliest spelling, then that with one of the least certain letters flipped."""
    best = sum(1 << pos for pos, p in probabilities.items() if p > 0.5)
    unsure = sorted(
        (p for p in probabilities.items() if _UNSURE[0] < p[1] < _UNSURE[1]), key=lambda pp: abs(pp[1] - 0.5)
    )
    masks = [best] + [best ^ (1 << pos) for pos, _ in unsure[:MAX_UNSEEN_ALTERNATIVES]]
    emissions = [_log_probability(mask, probabilities) for mask in masks]
    return Position([UNK] * len(masks), emissions, masks=masks, key=key)


def _plausible(spellings: list[tuple[int, int, float]], typed: int) -> list[tuple[int, int, float]]:
    """Drop (id, mask, count) spellings so much rarer than the most frequent one that no
    context could save them, but never the spelling exactly as typed when the writer typed
    a Turkish letter. The counts are float32, and so is the floor they are held to."""
    if len(spellings) < 2:
        return spellings
    floor = float(np.float32(max(count for _, _, count in spellings) * RARE_SPELLING_RATIO))
    return [spelling for spelling in spellings if spelling[2] >= floor or (typed and spelling[1] == typed)]


def _pair_keys(ids: np.ndarray, sizes: np.ndarray, lefts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Packed bigram keys of each id of slot ``left`` with each id of slot ``left + 1``,
    for each of ``lefts``, one pair's keys after another; and the number of each pair's keys.
    ``ids`` holds the ids of all slots, one slot after another, ``sizes`` how many each has."""
    first = np.cumsum(sizes) - sizes
    rights = lefts + 1
    pair_sizes = sizes[lefts] * sizes[rights]
    pair = np.repeat(np.arange(len(lefts)), pair_sizes)  # the pair of each key
    rank = np.arange(len(pair)) - (np.cumsum(pair_sizes) - pair_sizes)[pair]  # the key's place in its pair
    right_size = sizes[rights][pair]
    left_ids = ids[first[lefts][pair] + rank // right_size]
    right_ids = ids[first[rights][pair] + rank % right_size]
    return (left_ids << ID_BITS) | right_ids, pair_sizes


def _log_probability(mask: int, probabilities: dict[int, float]) -> float:
    return sum(math.log(max(p if mask >> pos & 1 else 1 - p, 1e-9)) for pos, p in probabilities.items())
