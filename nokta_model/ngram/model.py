"""The count-based restorer: lexicon candidates, trigram Viterbi, character back-off."""

from __future__ import annotations

import math
import threading
from itertools import islice, pairwise
from pathlib import Path

import numpy as np

from ..lattice import BOS, EOS, UNK, Position, line_rankings, sentence_positions
from ..restorer import Ranking, Restorer
from ..spans import Span, word_part_texts
from ..words import ambiguous_positions, spelling_mask, token_key, token_spans
from .arcs import score_windows
from .artifact import DEFAULT_ARTIFACT, load_model
from .lm import LanguageModel
from .tables import ID_BITS

MAX_UNSEEN_ALTERNATIVES = 4
MIN_STEM = 3  # shortest known prefix trusted to spell an unseen word's stem
TOKEN_CACHE_SIZE = 20_000  # distinct tokens remembered; bounds memory (bench.cli_memory)
RARE_SPELLING_RATIO = 0.01  # chosen on the corpus dev split
_UNSURE = (0.02, 0.98)  # a character-model letter outside this range is taken as decided


class NgramRestorer(Restorer):
    name = "ngram"

    def __init__(self, model: LanguageModel, source: str = ""):
        self.model = model
        self.source = source
        self._positions_of: dict[str, Position] = {}  # token text -> its lattice slot
        self._ids_of: dict[str, range] = {}  # key -> its candidate ids (``_candidate_ids``)
        self._count_of: dict[str, float] = {}  # spelling -> its running-text count (``counts``)
        self._letters_of: dict[tuple[str, int], dict[int, float]] = {}  # ``unseen_letter_probabilities``
        self._cache_lock = threading.Lock()

    @classmethod
    def load(cls, path: Path | None = None) -> NgramRestorer:
        path = Path(path) if path else DEFAULT_ARTIFACT
        return cls(load_model(path), str(path))

    def dotted_capitals(self, dotted: list[str], undotted: list[str], ascii_lines: list[bool]) -> list[bool]:
        """Dotted only when running text has the dotted spelling at least as often as the
        undotted one (the word lists hold lower-cased foreign names, intel, that would
        otherwise dot them), or, on a line typed in ASCII, when the lexicon knows neither:
        then the letter models' choice stands (Istanbulca -> İstanbulca)."""
        counts = self.counts(dotted + undotted)
        return [
            (d > 0 or (u == 0 and ascii_line)) and d >= u
            for d, u, ascii_line in zip(counts[: len(dotted)], counts[len(dotted) :], ascii_lines)
        ]

    def counts(self, spellings: list[str]) -> list[float]:
        """Running-text count of each spelling (its rarest hyphen part; LIST_BONUS if only
        in a word list, 0 if not in the lexicon), remembered for the next call."""
        with self._cache_lock:
            known = {s: self._count_of[s] for s in spellings if s in self._count_of}
        new = [s for s in dict.fromkeys(spellings) if s not in known]
        found = dict(zip(new, self._lexicon_counts(new)))  # without the lock: other threads' calls go on
        with self._cache_lock:
            if len(self._count_of) + len(found) > TOKEN_CACHE_SIZE:
                self._count_of.clear()
            self._count_of.update(found)
        known.update(found)
        return [known[s] for s in spellings]

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
        found = iter(zip(lexicon.masks[ids].tolist(), lexicon.counts[ids].tolist()))
        spelled: dict[str, dict[int | None, float]] = {}
        for key, candidates in zip(distinct, ranges):
            counts = spelled[key] = {}
            for mask, count in islice(found, len(candidates)):
                counts[mask] = max(count, counts.get(mask, 0.0))
        return spelled

    def rank(
        self, lines: list[str], spans: list[list[Span]], with_scores: bool, typed: list[str] | None = None
    ) -> list[list[Ranking]]:
        tokens = [token_spans(word_spans, line) for word_spans, line in zip(spans, lines)]
        texts = [line[t.start : t.end] for line, line_tokens in zip(lines, tokens) for t in line_tokens]
        candidates = iter(self.candidates(texts))
        sentences = [sentence_positions(list(islice(candidates, len(t)))) for t in tokens]
        scores = self.arc_scores(sentences)
        typed_lines: list[str | None] = list(typed) if typed is not None else [None] * len(lines)
        return [
            line_rankings(line, word_spans, line_tokens, sentence, arcs, with_scores, line_typed)
            for line, word_spans, line_tokens, sentence, arcs, line_typed in zip(
                lines, spans, tokens, sentences, scores, typed_lines
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
        neighbours = [list(pairwise([Position([BOS]), *words, Position([EOS])])) for words in sentences]
        pairs = [pair for sentence in neighbours for pair in sentence]
        packed = [(u << ID_BITS) | v for left, right in pairs for u in left.ids for v in right.ids]
        counted = self.model.bigrams.get(np.array(packed, dtype=np.int64), 0) > 0
        sizes = [len(left.ids) * len(right.ids) for left, right in pairs]  # each at least 1
        starts = np.cumsum([0, *sizes[:-1]])
        seen = iter(np.logical_or.reduceat(counted, starts).tolist())
        pair_seen = [[next(seen) for _ in sentence] for sentence in neighbours]
        return [[before or after for before, after in pairwise(sentence)] for sentence in pair_seen]

    def candidates(self, texts: list[str]) -> list[Position]:
        """Lattice slots of (``model_lower``-ed) tokens; each distinct token text is looked up once."""
        with self._cache_lock:
            known = {t: self._positions_of[t] for t in texts if t in self._positions_of}
        new = [t for t in dict.fromkeys(texts) if t not in known]
        found = dict(zip(new, self._positions(new)))  # without the lock: other threads' calls go on
        with self._cache_lock:
            if len(self._positions_of) + len(found) > TOKEN_CACHE_SIZE:
                self._positions_of.clear()
            self._positions_of.update(found)
        known.update(found)
        return [known[t] for t in texts]

    def _positions(self, texts: list[str]) -> list[Position]:
        keys = [token_key(text) for text in texts]
        lexicon = self.model.lexicon
        positions = []
        for key, text, ids in zip(keys, texts, self._candidate_ids(keys)):
            typed = spelling_mask(key, text) or 0
            spellings = [i for i in ids if int(lexicon.masks[i]) & typed == typed]
            known = _plausible(spellings, lexicon.counts, lexicon.masks, typed)
            if known:
                positions.append(Position(known, masks=[int(lexicon.masks[i]) for i in known], key=key))
            else:
                positions.append(self._unseen(key, typed))
        return positions

    def _candidate_ids(self, keys: list[str]) -> list[range]:
        """``Lexicon.candidates`` of each key, remembered: ``counts`` asks again for the keys
        of the words just ranked."""
        with self._cache_lock:
            known = {k: self._ids_of[k] for k in keys if k in self._ids_of}
        new = [k for k in dict.fromkeys(keys) if k not in known]
        found = dict(zip(new, self.model.lexicon.candidates(new)))  # without the lock, as in ``candidates``
        with self._cache_lock:
            if len(self._ids_of) + len(found) > TOKEN_CACHE_SIZE:
                self._ids_of.clear()
            self._ids_of.update(found)
        known.update(found)
        return [known[k] for k in keys]

    def _unseen(self, key: str, typed: int) -> Position:
        """Candidates of a word the lexicon lacks: its longest known stem, then characters."""
        probabilities = self.unseen_letter_probabilities(key, typed)
        best = sum(1 << pos for pos, p in probabilities.items() if p > 0.5)
        unsure = sorted(
            (p for p in probabilities.items() if _UNSURE[0] < p[1] < _UNSURE[1]), key=lambda pp: abs(pp[1] - 0.5)
        )
        masks = [best] + [best ^ (1 << pos) for pos, _ in unsure[:MAX_UNSEEN_ALTERNATIVES]]
        emissions = [_log_probability(mask, probabilities) for mask in masks]
        return Position([UNK] * len(masks), emissions, masks=masks, key=key)

    def unseen_letter_probabilities(self, key: str, typed: int) -> dict[int, float]:
        """P(twin) of each ambiguous letter of a word the lexicon lacks (``typed``: the
        letters typed Turkish): its longest known stem, then the character model.
        Remembered, as the default asks again for each occurrence; do not change the dict."""
        cache = self._letters_of
        found = cache.get((key, typed))
        if found is None:
            if len(cache) >= TOKEN_CACHE_SIZE:
                cache.clear()
            fixed = self.stem_letters(key, typed)
            fixed.update((pos, True) for pos in range(len(key)) if typed >> pos & 1)
            found = cache[(key, typed)] = self.model.chars.twin_probabilities(key, fixed)
        return found

    def stem_letters(self, key: str, typed: int) -> dict[int, bool]:
        """Spelling of the ambiguous letters of the longest known prefix of ``key``."""
        lexicon = self.model.lexicon
        prefixes = [key[:end] for end in range(len(key) - 1, MIN_STEM - 1, -1)]
        for prefix, ids in zip(prefixes, lexicon.candidates(prefixes)):
            prefix_typed = typed & ((1 << len(prefix)) - 1)
            masks = [int(lexicon.masks[i]) for i in ids if int(lexicon.masks[i]) & prefix_typed == prefix_typed]
            if masks:
                return {pos: bool(masks[0] >> pos & 1) for pos in ambiguous_positions(prefix)}
        return {}


def _plausible(ids: list[int], counts, masks, typed: int) -> list[int]:
    """Drop spellings so much rarer than the most frequent one that no context could save
    them, but never the spelling exactly as typed when the writer typed a Turkish letter."""
    if len(ids) < 2:
        return ids
    floor = max(float(counts[i]) for i in ids) * RARE_SPELLING_RATIO
    return [i for i in ids if counts[i] >= floor or (typed and int(masks[i]) == typed)]


def _log_probability(mask: int, probabilities: dict[int, float]) -> float:
    return sum(math.log(max(p if mask >> pos & 1 else 1 - p, 1e-9)) for pos, p in probabilities.items())
