"""The shipped default: the count-based lattice with every model's scores on its arcs.

Each word's candidates come from the count-based lexicon (``NgramRestorer.candidates``)
and the word trigram model scores the arcs. Each candidate's emission adds, with the
fitted ``Weights``: the cross-word character-context model's log probability of its
letters (``charctx``), optionally the network's, the vowel harmony of suffixes written
apart, the neighbours running text writes beside each spelling of a confusable word
(``ngram.collocations``), and the writer's own Turkish letters (``features``). A line is decoded first
without the network, which is then asked only about the words it can still change.

Words the lexicon lacks are spelled letter by letter from a weighted sum of three
models' letter logits: the network's (run only on windows around such words), the
count-based character model's (known stem, then in-word contexts) and the context
model's. ``nokta train --backend default`` fits the weights on the tune split.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import islice
from typing import Protocol

import numpy as np

from ..alphabet import CIRCUMFLEXES
from ..calibration import Calibration
from ..codeswitch import FOREIGN_ONLY
from ..lattice import UNK, Decoding, Position, decode, decoded_rankings, sentence_positions, typed_per_line
from ..neural.candidates import free_indices
from ..ngram.model import NgramRestorer
from ..reading import stem_back
from ..restorer import Ranking, Restorer
from ..spans import SUFFIX_AFTER_QUOTE_RE, Span
from ..words import MAX_MASK_BITS, spelling_mask, token_key, token_spans
from .features import (
    as_pronoun_o,
    disharmony,
    harmony_after_word,
    harmony_variants,
    in_harmony,
    is_detached_suffix,
    is_hyphenated_suffix,
    is_particle,
    letter_scorer,
    typed_spelling_flags,
)
from .harmony import Suffix, disagreements, harmonious_masks, harmonious_position, token_suffix
from .weights import Weights
from .wide import BigramModel, LineWords, wide_scores

UNSEEN_ALTERNATIVES = 4
_SUFFIX_GAP_RE = re.compile(r"[\s\"'“”‘’]+")
_BRACKETED_SUFFIX_RE = re.compile(r"\w\(")  # satır(lar)ın: a suffix in brackets glued to its word
_HYPHEN_GAP_RE = re.compile(r"[\s(]*-[\s(]*")  # yaz-dı, yaz-ı-yor-(lar- mış), yaz-dı (-lar-mış)
#: Letters of context the network sees either side of an unseen word: as few as keep the
#: word errors of far wider windows on the tune and dev splits (bench/results/default_speed.md).
UNSEEN_CONTEXT = 12
COMPETING_CONTEXT = 16  # … and of a word with several attested spellings
#: The network is asked about a competing word only when the count models' decoding gives
#: its best spelling less than this share: with the network's letter logits clipped (``_logit``)
#: and weighted about 1, it seldom turns a word above it. On the tune and dev splits, asking
#: also about the words up to a share of 0.999 turned one word right in each, and asking about
#: every competing word none, for a sixth more of the network's letters on unseen text
#: (bench/results/default_speed.md).
NETWORK_BELOW_SHARE = 0.99
#: … and reads fewer letters around one whose best spelling has at least this share
#: (on the tune split, no more word errors than with the wider window).
NARROW_FROM_SHARE = 0.95
NARROW_CONTEXT = 8
#: Scale of the letter models' scores of a word none of whose spellings was counted next
#: to a neighbour: there the word counts alone decide in the trigram model, and the
#: letter models weigh less against them (chosen on the tune split).
UNATTESTED_LETTER_SCALE = 0.5
#: Characters of lines decoded per chunk: the network reads one chunk while the next is
#: decoded with the count models (larger: larger network batches; smaller: less of the
#: network's time left unhidden at the end of a call).
CHUNK_CHARS = 16_000
#: Chunks the network reads at once (one torch thread each): on text the count models
#: have not seen, this thread's share of the work is the smaller, and while it waits for
#: the network another core can run more of it.
NETWORK_THREADS = 2


class LetterModel(Protocol):
    """Per line, P(Turkish twin) of each character (the context model: ``charctx.ContextModel``),
    at least inside the given spans of each line."""

    def twin_probabilities(self, lines: list[str], spans: list[list[Span]] | None = None) -> list[np.ndarray]: ...


class Network(Protocol):
    """Per line (as typed, or ``model_lower``-ed), the network's P(Turkish twin) of each
    character (``neural.NeuralRestorer``)."""

    def line_probabilities(self, lines: list[str]) -> list[np.ndarray]: ...


class DefaultRestorer(Restorer):
    name = "default"
    concurrent_batches = 2

    def __init__(
        self,
        ngram: NgramRestorer,
        context: LetterModel,
        neural: Network,
        weights: Weights | None = None,
        network_pool: ThreadPoolExecutor | None = None,
        calibration: Calibration | None = None,
        wide: BigramModel | None = None,
    ) -> None:
        self.ngram, self.context, self.neural, self.wide = ngram, context, neural, wide
        self.weights = weights or Weights()
        self.calibration = calibration or Calibration()
        # The threads the network reads chunks on (started at the first call, kept for the next).
        self.network_pool = network_pool or ThreadPoolExecutor(NETWORK_THREADS, thread_name_prefix="nokta-network")

    def with_weights(self, weights: Weights) -> DefaultRestorer:
        """The same models under other weights (they share every table, cache and thread)."""
        return DefaultRestorer(
            self.ngram, self.context, self.neural, weights, self.network_pool, self.calibration, self.wide
        )

    def dotted_capitals(self, dotted: list[str], undotted: list[str], ascii_lines: list[bool]) -> list[bool]:
        """As the count model says, never in a word with q, w or x: not Turkish (WXYI, QIS, SQLITE)."""
        allowed = self.ngram.dotted_capitals(dotted, undotted, ascii_lines)
        return [ok and FOREIGN_ONLY.isdisjoint(word) for ok, word in zip(allowed, dotted, strict=True)]

    def foreign_words(self, lines: list[str], spans: list[list[Span]]) -> list[list[bool]]:
        return self.ngram.foreign_words(lines, spans)

    def counts(self, spellings: list[str]) -> list[float]:
        """Counted by the count-based lexicon, which the default decodes with."""
        return self.ngram.counts(spellings)

    def rank(
        self,
        lines: list[str],
        spans: list[list[Span]],
        with_scores: bool,
        typed: list[str] | None = None,
        cased: list[str] | None = None,
    ) -> list[list[Ranking]]:
        """Decode each line with the count models' letters first; then ask the network about
        the words it can still change (unseen words, and competing words whose best share is
        below ``NETWORK_BELOW_SHARE``) and decode those lines again with its letters.

        Lines go through in chunks of about ``CHUNK_CHARS``: while the network reads the
        windows of up to ``NETWORK_THREADS`` chunks on threads of its own (torch lets go of
        the GIL), this one decodes the next chunk with the count models and finishes the
        chunks before."""
        typed_lines = typed_per_line(typed, len(lines))
        network_lines = cased or lines
        rankings: list[list[Ranking]] = []
        pending: deque[tuple[list[_Line], Future[_Asked]]] = deque()
        for chunk in _chunks(lines, CHUNK_CHARS):
            counted = self._counted(lines[chunk], spans[chunk], typed_lines[chunk], network_lines[chunk])
            pending.append((counted, self.network_pool.submit(self._network_probabilities, counted)))
            if len(pending) > NETWORK_THREADS:
                rankings += self._finished(*pending.popleft(), with_scores)
        while pending:
            rankings += self._finished(*pending.popleft(), with_scores)
        return rankings

    def _counted(
        self, lines: list[str], spans: list[list[Span]], typed: list[str | None], network_lines: list[str]
    ) -> list[_Line]:
        """The lines decoded with the count models' letters (and the marginals that say which
        words the network may still turn); ``network_lines`` are what the network reads."""
        tokens = [token_spans(word_spans, line) for word_spans, line in zip(spans, lines, strict=True)]
        texts = [line[t.start : t.end] for line, line_tokens in zip(lines, tokens, strict=True) for t in line_tokens]
        found = iter(self.ngram.candidates(texts))
        candidates = [list(islice(found, len(line_tokens))) for line_tokens in tokens]
        words = [_line_words(*line) for line in zip(lines, network_lines, tokens, candidates, strict=True)]
        lexicon = [[word.lexicon for word in line_words] for line_words in words]
        self._look_up_unseen_words(lines, words)
        context = self.context.twin_probabilities(lines, [_letters_decide(line_words) for line_words in words])
        self._add_neighbour_evidence(lines, words, lexicon)
        counted = [
            _Line(line, network_line, line_spans, line_typed, line_words, letters, _typed_line(line, line_words))
            for line, network_line, line_spans, line_typed, line_words, letters in zip(
                lines, network_lines, spans, typed, words, context, strict=True
            )
        ]
        for line in counted:
            line.positions = self._word_positions(line)
            line.sentence = sentence_positions(self._with_rules(line))
        for line, arcs in zip(counted, self.ngram.arc_scores([line.sentence for line in counted]), strict=True):
            line.arcs = arcs
            line.decoding = decode(line.sentence, arcs, with_marginals=True)
        return counted

    def _add_neighbour_evidence(
        self, lines: list[str], words: list[list[_Word]], lexicon: list[list[Position]]
    ) -> None:
        """Each word's evidence from its neighbours, looked up for the whole chunk at once:
        whether a spelling was counted beside one, its collocation scores and the wide
        language model's."""
        beside = self.ngram.attested_neighbours(lexicon)
        collocations = self.ngram.collocation_scores(lexicon) if self.weights.collocation else None
        wide = None
        if self.weights.wide_bigram and self.wide is not None:
            wide_lines = [
                LineWords(line, [word.token for word in line_words], positions)
                for line, line_words, positions in zip(lines, words, lexicon, strict=True)
            ]
            wide = wide_scores(self.wide, self.ngram.model.lexicon.counts, wide_lines)
        for index, line_words in enumerate(words):
            for position, word in enumerate(line_words):
                word.beside_neighbour = beside[index][position]
                if collocations is not None:
                    word.collocation = collocations[index][position]
                if wide is not None:
                    word.wide = wide[index][position]

    def _look_up_unseen_words(self, lines: list[str], words: list[list[_Word]]) -> None:
        """The count-based letters of the chunk's unseen words, looked up in one batch (the
        count model remembers them for ``_unseen_position``). One word at a time,
        each lookup is a short numpy call that lets the network's threads take the GIL."""
        if not self.weights.unseen_counted:
            return
        found: dict[tuple[str, int], None] = {}
        for line, line_words in zip(lines, words, strict=True):
            for word in line_words:
                if word.letters_decide and word.lexicon.unseen:
                    text = line[word.token.start : word.token.end]
                    key = word.lexicon.key or token_key(text)
                    found[key, spelling_mask(key, text) or 0] = None
        if found:
            self.ngram.all_unseen_letter_probabilities(list(found))

    def _finished(self, counted: list[_Line], network: Future[_Asked], with_scores: bool) -> list[list[Ranking]]:
        """The rankings of ``counted``'s lines, those the network was asked about decoded
        again with its letters."""
        for index, letters in network.result():
            line = counted[index]  # the arcs stay: the network changes no word id
            line.positions = self._word_positions(line, network=letters)
            line.sentence = sentence_positions(self._with_rules(line))
            line.decoding = decode(line.sentence, line.arcs, with_scores)
        return [
            decoded_rankings(
                line.text,
                line.spans,
                [w.token for w in line.words],
                line.sentence,
                line.decoding,
                with_scores,
                line.typed,
            )
            for line in counted
        ]

    def _word_positions(self, line: _Line, network: _NetworkLetters | None = None) -> list[Position]:
        """Each word's position scored by the letter models; with ``network``, the words
        its windows reach are scored again and the others keep their position."""
        if network is None:
            return [self._position(line, word, None) if word.letters_decide else word.lexicon for word in line.words]
        return [
            self._position(line, word, network.probabilities)
            if word.letters_decide and network.reaches(word.token)
            else before
            for word, before in zip(line.words, line.positions, strict=True)
        ]

    def _with_rules(self, line: _Line) -> list[Position]:
        """The line's positions with a lone o ending a sentence the pronoun (``as_pronoun_o``)
        and, where weighted, the vowel harmony of suffixes written apart and of suffixes
        after an apostrophe or a number."""
        positions = [as_pronoun_o(p, line.text, w.token.start) for p, w in zip(line.positions, line.words, strict=True)]
        if self.weights.particle_harmony:
            positions = self._with_vowel_harmony(line.text, line.words, positions)
        if self.weights.suffix_harmony:
            positions = [
                position if word.suffix is None else self._suffix_harmonised(position, word.suffix)
                for position, word in zip(positions, line.words, strict=True)
            ]
        return positions

    def _suffix_harmonised(self, position: Position, suffix: Suffix) -> Position:
        """The spellings of a suffix out of harmony with what it follows penalised; after a
        number (334'ü: dört), left out."""
        flags = disagreements(position, suffix)
        if len(set(flags)) < 2:
            return position
        if suffix.after_number:
            kept = [i for i, flag in enumerate(flags) if not flag]
            ids, masks = [position.ids[i] for i in kept], [position.masks[i] for i in kept]
            return Position(ids, [position.emission(i) for i in kept], masks, position.key)
        penalty = self.weights.suffix_harmony
        emissions = [position.emission(i) - penalty * flag for i, flag in enumerate(flags)]
        return Position(list(position.ids), emissions, masks=list(position.masks), key=position.key)

    def _position(self, line: _Line, word: _Word, network: np.ndarray | None) -> Position:
        """The position of a word whose spellings the letter models score (``_Word.letters_decide``)."""
        lexicon, text, start = word.lexicon, line.text[word.token.start : word.token.end], word.token.start
        free = free_indices(text, MAX_MASK_BITS)
        if not len(free):
            return lexicon
        key = lexicon.key or token_key(text)
        context_logits = _logit(line.context[start + free])
        if lexicon.unseen:
            unseen_network = None if network is None else network[start + free]
            return self._unseen_position(
                key, text, free, context_logits, unseen_network, line.typed_letters, word.suffix
            )
        weights = self.weights
        scorers = [(weights.context, letter_scorer(free, context_logits))]
        if weights.network and network is not None:
            scorers.append((weights.network, letter_scorer(free, _logit(network[start + free]))))
        scale = 1.0 if word.beside_neighbour else UNATTESTED_LETTER_SCALE
        emissions = [scale * sum(weight * score(mask) for weight, score in scorers) for mask in lexicon.masks]
        if word.collocation is not None:
            emissions = [e + weights.collocation * c for e, c in zip(emissions, word.collocation, strict=True)]
        if word.wide is not None:
            emissions = [e + weights.wide_bigram * w for e, w in zip(emissions, word.wide, strict=True)]
        typed = spelling_mask(key, text) or 0
        evidence = self._typed_evidence(lexicon, typed, line.typed_letters, not CIRCUMFLEXES.isdisjoint(text))
        if evidence:
            flags = typed_spelling_flags(lexicon, typed)
            emissions = [e + evidence * flag for e, flag in zip(emissions, flags, strict=True)]
        return Position(list(lexicon.ids), emissions, masks=list(lexicon.masks), key=key)

    def _typed_evidence(self, lexicon: Position, typed: int, typed_line: bool, circumflex: bool) -> float:
        """The bonus of the as-typed spelling: the writer typed Turkish letters in the word
        (or a circumflex: âlimi), or elsewhere on the line and the word as typed is counted
        in running text."""
        if typed or circumflex:
            return self.weights.typed_word
        if (
            typed_line
            and typed in lexicon.masks
            and self.ngram.model.lexicon.counted(lexicon.ids[lexicon.masks.index(typed)])
        ):
            return self.weights.typed_line
        return 0.0

    def _unseen_position(
        self,
        key: str,
        text: str,
        free: np.ndarray,
        context_logits: np.ndarray,
        network: np.ndarray | None,
        typed_line: bool,
        suffix: Suffix | None,
    ) -> Position:
        """The best spelling of a word the lexicon lacks by its letter logits, single-letter
        flips of it, and on a line typed with Turkish letters the word as typed; with a
        ``suffix``, each with the suffix's vowels in harmony, either way."""
        weights = self.weights
        typed = spelling_mask(key, text) or 0
        logits = weights.unseen_context * context_logits
        if weights.unseen_network and network is not None:
            logits = logits + weights.unseen_network * _logit(network)
        if weights.unseen_counted:
            counted = self.ngram.unseen_letter_probabilities(key, typed)
            logits = logits + weights.unseen_counted * _logit(np.array([counted.get(b, 0.5) for b in free.tolist()]))
        score = letter_scorer(free, logits)
        gains = dict(zip(free.tolist(), logits.tolist(), strict=True))
        best = typed | sum(1 << bit for bit, gain in gains.items() if gain > 0)
        flips = sorted(gains, key=lambda bit: abs(gains[bit]))[:UNSEEN_ALTERNATIVES]
        masks = [best] + [best ^ (1 << bit) for bit in flips]
        bonus = weights.typed_unseen if typed_line else 0.0
        if bonus and typed not in masks:
            masks.append(typed)
        if suffix is not None:
            masks = list(dict.fromkeys(m for mask in masks for m in harmonious_masks(key, suffix, mask, both=True)))
        emissions = [score(m) + (bonus if m == typed else 0.0) for m in masks]
        return Position([UNK] * len(masks), emissions, masks=masks, key=key)

    def _with_vowel_harmony(self, line: str, words: list[_Word], positions: list[Position]) -> list[Position]:
        """Suffixes written apart, in harmony with what they follow; a suffix after another
        whose vowel is still open takes that one's vowel (ara-dı-nız)."""
        tokens = [word.token for word in words]
        out = list(positions)
        wanted_before = None
        for index, (position, word) in enumerate(zip(positions, words, strict=True)):
            wanted = (
                _wanted_harmony(line, tokens, positions, index, word.cut, wanted_before)
                if len(position.masks) > 1
                else None
            )
            wanted_before = wanted
            if wanted is not None:
                out[index] = self._harmonised(position, wanted, word.cut)
        return out

    def _harmonised(self, position: Position, wanted: str, hyphen_cut: bool) -> Position:
        """A suffix cut off by a hyphen (yaz-dı) keeps only its spellings in harmony; the
        particle and other suffixes written apart have the others penalised."""
        if hyphen_cut:  # every high vowel counts, not only the first (sınız, not sıniz)
            kept = [i for i, harmonious in enumerate(in_harmony(position, wanted)) if harmonious]
            if len(kept) == len(position.masks):
                return position
            ids, masks = [position.ids[i] for i in kept], [position.masks[i] for i in kept]
            return Position(ids, [position.emission(i) for i in kept], masks, position.key)
        penalties = disharmony(position, wanted)
        if len(set(penalties)) < 2:
            return position
        emissions = [
            position.emission(i) - self.weights.particle_harmony * penalty for i, penalty in enumerate(penalties)
        ]
        return Position(list(position.ids), emissions, masks=list(position.masks), key=position.key)

    def _network_probabilities(self, counted: list[_Line]) -> _Asked:
        """(line index, the network's letters) of each line it is asked about: windows of
        ``UNSEEN_CONTEXT`` letters around unseen words and of ``COMPETING_CONTEXT`` (or
        ``NARROW_CONTEXT``) around competing words it may still turn (when the weights use
        the network there)."""
        asked = [
            (index, _NetworkLetters(np.full(len(line.text), 0.5), windows))
            for index, line in enumerate(counted)
            if (windows := _windows(line.text, self._network_reaches(line)))
        ]
        for index, letters in asked:  # a batch per line: the int8 network scales by its batch
            texts = [counted[index].network_text[start:end] for start, end in letters.windows]
            for (start, end), p in zip(letters.windows, self.neural.line_probabilities(texts), strict=True):
                letters.probabilities[start:end] = p
        return asked

    def _network_reaches(self, line: _Line) -> list[tuple[Span, int]]:
        """Each word's token and the letters of context the network reads either side of it."""
        decoding = line.decoding
        return [
            (word.token, self._network_reach(position, decoding.best_share(index)))
            for index, (word, position) in enumerate(zip(line.words, line.sentence[2:-1], strict=True), 2)
        ]

    def _network_reach(self, position: Position, best_share: float) -> int:
        """Letters of context the network reads either side of a word (0: not asked). A
        word with one spelling (an unseen word without a letter to decide) is not asked."""
        if len(position.ids) < 2:
            return 0
        if position.unseen:
            return UNSEEN_CONTEXT if self.weights.unseen_network else 0
        if best_share < NETWORK_BELOW_SHARE and self.weights.network:
            return COMPETING_CONTEXT if best_share < NARROW_FROM_SHARE else NARROW_CONTEXT
        return 0


@dataclass
class _Word:
    """One token of a line and the evidence that scores its spellings."""

    token: Span
    lexicon: Position  # its spellings in the count-based lexicon (with harmony variants)
    cut: bool  # a suffix a hyphen cuts off the word before (``_hyphen_cuts``)
    suffix: Suffix | None  # its suffix after an apostrophe or a number (``harmony.token_suffix``)
    beside_neighbour: bool = False  # a spelling of it was counted next to a neighbour's
    collocation: list[float] | None = None  # its spellings' ``ngram.collocation_scores``
    wide: list[float] | None = None  # its spellings' ``wide.wide_scores``
    #: Whether the letter models score its spellings: the lexicon has several, or none (an unseen word).
    letters_decide: bool = field(init=False)

    def __post_init__(self) -> None:
        self.letters_decide = len(self.lexicon.ids) > 1 or self.lexicon.unseen


@dataclass
class _Line:
    """A line of a chunk, decoded with the count models' letters, and what decoding it
    again with the network's needs."""

    text: str
    network_text: str  # the line as typed where known (a network may read case)
    spans: list[Span]
    typed: str | None
    words: list[_Word]
    context: np.ndarray  # the context model's P(Turkish twin) per character
    typed_letters: bool  # the writer typed a Turkish letter in a word of the line
    positions: list[Position] = field(default_factory=list)  # each word's, scored
    sentence: list[Position] = field(default_factory=list)  # the positions with the rules, padded
    arcs: dict = field(default_factory=dict)
    decoding: Decoding = field(default_factory=lambda: Decoding([], {}))

    @property
    def tokens(self) -> list[Span]:
        return [word.token for word in self.words]


@dataclass
class _NetworkLetters:
    """The network's P(Turkish twin) per character of a line (0.5 outside its windows)."""

    probabilities: np.ndarray
    windows: list[tuple[int, int]]

    def reaches(self, token: Span) -> bool:
        return any(token.start < end and start < token.end for start, end in self.windows)


#: (line index, the network's letters) of each line of a chunk the network was asked about.
_Asked = list[tuple[int, _NetworkLetters]]


def _typed_line(line: str, words: list[_Word]) -> bool:
    """Whether the writer typed a Turkish letter in a word of the line."""
    return not line.isascii() and any(
        spelling_mask(word.lexicon.key, line[word.token.start : word.token.end]) for word in words
    )


def _letters_decide(words: list[_Word]) -> list[Span]:
    """The tokens whose spellings the letter models score (``_Word.letters_decide``)."""
    return [word.token for word in words if word.letters_decide]


def _hyphen_cuts(line: str, tokens: list[Span], positions: list[Position]) -> list[bool]:
    """Per token, whether it is a suffix a hyphen cuts off the word before (yaz-dı), not a
    capitalised part (İmadu'd-Din)."""
    if "-" not in line:  # the commonest line: no hyphen
        return [False] * len(tokens)
    return [
        index > 0
        and not line[token.start].isupper()
        and _HYPHEN_GAP_RE.fullmatch(line, tokens[index - 1].end, token.start) is not None
        and is_hyphenated_suffix(position.key or token_key(line[token.start : token.end]))
        for index, (token, position) in enumerate(zip(tokens, positions, strict=True))
    ]


def _line_words(line: str, cased: str, tokens: list[Span], positions: list[Position]) -> list[_Word]:
    """The words of a line with the rules' view of them (``cased``: the line as typed, for
    the capitals of acronyms)."""
    if "'" not in line and "’" not in line:  # the commonest line: no suffix after an apostrophe
        suffixes: list[Suffix | None] = [None] * len(tokens)
    else:
        suffixes = [
            token_suffix(cased, token, position.key or token_key(line[token.start : token.end]))
            for token, position in zip(tokens, positions, strict=True)
        ]
    cuts = _hyphen_cuts(line, tokens, positions)
    return [
        _Word(token, _with_harmony_variants(position, cut, suffix), cut, suffix)
        for token, position, cut, suffix in zip(tokens, positions, cuts, suffixes, strict=True)
    ]


def _with_harmony_variants(position: Position, cut: bool, suffix: Suffix | None) -> Position:
    """A suffix cut off its word by a hyphen (yaz-dı, ara-dı-nız) or after a number
    (1990'lı) is no word of its own: its spellings include those of its vowels in either
    harmony (nız beside niz, which the lexicon has); ``_with_vowel_harmony`` and the
    suffix harmony keep or favour the right ones. A suffix after an apostrophe keeps
    its vowels in harmony with each other (ları, not lari). Unseen words get theirs in
    ``_unseen_position``."""
    if cut and position.key:
        ids, masks = harmony_variants(position)
        return Position(ids, masks=masks, key=position.key)
    if suffix is not None and position.key and not position.unseen:
        return harmonious_position(position, suffix, both=suffix.fixed_back is not None)
    return position


def _wanted_harmony(
    line: str, tokens: list[Span], positions: list[Position], index: int, cut: bool, wanted_before: str | None
) -> str | None:
    """The high vowel the token at ``index`` takes: the question particle, a suffix written
    apart from its word by a space or quotes ("Kitabı" dır), cut off by a hyphen (yaz-dı)
    or after a suffix in brackets (satır(lar)ın), after the word before, or the vowel
    that one was given (``wanted_before``) when its own spellings still differ in it.
    ``cut``: the token is a suffix a hyphen cuts off."""
    start = tokens[index].start
    if index == 0 or not positions[index - 1].key:
        return None
    key, gap = positions[index].key, line[tokens[index - 1].end : start]
    if SUFFIX_AFTER_QUOTE_RE.fullmatch(line, max(0, start - 2), tokens[index].end):
        title_word = line[tokens[index - 1].start : tokens[index - 1].end]
        return _read_harmony(title_word) or harmony_after_word(positions[index - 1])
    if is_particle(key) or (is_detached_suffix(key) and _SUFFIX_GAP_RE.fullmatch(gap)) or cut:
        return harmony_after_word(positions[index - 1]) or wanted_before
    if gap == ")" and _BRACKETED_SUFFIX_RE.match(line, max(0, tokens[index - 1].start - 2), tokens[index - 1].start):
        return harmony_after_word(positions[index - 1])
    return None


def _read_harmony(word: str) -> str | None:
    """ı or i for a suffix after ``word`` as it is read ("All of the Lights" ın: layts),
    where its spelling settles it (``reading.stem_back``)."""
    back = stem_back(word, word)
    return None if back is None else "ı" if back else "i"


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p.astype(np.float64), 1e-3, 1 - 1e-3)
    p[np.isnan(p)] = 0.5  # as np.nan_to_num before the clip, at a third of its cost (it runs per word)
    return np.log(p) - np.log1p(-p)


def _windows(line: str, reaches: list[tuple[Span, int]]) -> list[tuple[int, int]]:
    """Merged spans of ``width`` letters either side of each token that has one."""
    merged: list[tuple[int, int]] = []
    for token, width in reaches:
        if not width:
            continue
        start, end = max(0, token.start - width), min(len(line), token.end + width)
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _chunks(lines: list[str], chars: int) -> Iterator[slice]:
    """Consecutive slices of ``lines`` holding about ``chars`` characters each."""
    start = total = 0
    for index, line in enumerate(lines):
        total += len(line)
        if total >= chars:
            yield slice(start, index + 1)
            start, total = index + 1, 0
    if start < len(lines):
        yield slice(start, len(lines))
