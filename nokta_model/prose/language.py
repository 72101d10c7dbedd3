"""Turkish-or-not, decided per sentence from the evidence on it and around it.

A sentence's evidence is counted on its ASCII-folded words: common Turkish words and
suffixes and letters only Turkish has (ç ğ ı ö ş ü) against common English words and
English-only spelling (w, x, q, "th", "-ing", "-tion", "n't"). Words that are common
in both languages once asciified ("is"/"iş", "on", "can", "her", "sure"/"süre") count
for neither. A sentence is English only when clearly so, with at least two English
words, one of them a common English word (``Framework 4.8 cikti!`` and ``PostgreSQL icin
postgresql`` are Turkish with English terms: the restorer decides such words one by one,
``nokta_model.codeswitch``). A sentence without evidence takes the
language of the nearest decided sentence before it (after it at the start of a
document), and so does a line's first sentence with a single word of evidence when it
starts in lower case (it continues a wrapped sentence); a document without any evidence
is taken as Turkish. Non-Turkish sentences are blanked before the model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from nokta_model.alphabet import TURKISH_ONLY, fold_key
from nokta_model.spans import SCORED_WORD_RE, SUFFIX_AFTER_QUOTE_RE

from .base import blank


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_ENGLISH_WORDS = _words(
    "the of and to in that it with as was for be by this are or from an but not have has had which you we they he "
    "she his their there been were will would should could if when what where who how why all any each more most "
    "other some such than then these those into about after before over under only also just like use used using "
    "your our its them him my me do does did done make makes made may might must shall very here because while both "
    "between through during without within new one two three first same see so no yes get gets got set file files "
    "default example value values return returns function option options command following whether however "
    "therefore thus etc name data user number time way well even many much own out up down off again too now above "
    "below until upon via per let note true false can't don't doesn't isn't won't it's that's you're we're they're "
    "i'm i've you'll we'll there's what's let's always never something anything nothing everything someone anyone "
    "people ways want wants need needs work works take takes give gives show shows find found run runs call called "
    "calls every another"
)
_TURKISH_WORDS = _words(
    "ve bir bu su da de ile icin gibi cok daha ne mi mu ki ama fakat veya ya olan olarak kadar sonra once sey var "
    "yok ben sen biz siz onlar bunu buna bunun bunlar simdi nasil neden degil evet hayir icinde uzerinde arasinda "
    "tarafindan ise ancak hem hic cunku diye oldu olur olup olmak etti eder etmek yapmak yapti gore dogru iyi kotu "
    "buyuk kucuk yeni eski ilk tum butun bazi baska diger kendi zaman yil gun ayni sadece artik hala yine bana sana "
    "ona beni seni onu onun benim senin bizim sizin iki uc dort bes alti yedi sekiz dokuz yuz bin milyon ilgili "
    "sahip boyle soyle oyle nerede hangi niye belki herkes hep hicbir az pek gerek lazim bugun yarin dun aksam "
    "sabah gece hava guzel ayrica birlikte birkac bircok oldukca icerisinde uzere karsi dolayi itibaren ragmen beri "
    "dahil hakkinda yaninda altinda ustunde gelen giden yapilan edilen bulunan olmasi olmayan tarihinde yilinda "
    "sayesinde"
)
#: Endings of Turkish words (ASCII-folded), tested on words of six letters or more.
_TURKISH_SUFFIXES = tuple(
    _words(
        "iyor uyor iyordu uyordu yorum yoruz acak ecek acagi aagi ecegi mak mek masi mesi lari leri larin lerin lar "
        "ler dir tir nin nun sin siz suz lik luk digi dugu tigi mis mistir dan den tan ten inda inde una une ina ine "
        "ini unu"
    )
)
_ENGLISH_SPELLING_RE = re.compile(r"[wxq]|th|ing$|tion$|tions$|ness$|n't$|'s$|ee|oo[^o]|ould$|ght")
_SENTENCE_RE = re.compile(r"[^.!?;:]+[.!?;:]*")
_CLAUSE_RE = re.compile(r"[^,]+")
_QUOTED_RE = re.compile(r'"[^"]+"|“[^”]+”')
_CAPITALISED_RE = re.compile(r"\b[A-Z]")
ENGLISH_CLAUSE_WORDS = 2
TURKISH_SENTENCE_WORDS = 3  # … and Turkish words that make a sentence Turkish whatever else it has


#: Distinct words remembered: enough for most running text in a few megabytes (a larger
#: cache was no faster on the corpus and took several times the memory).
WORD_CACHE_SIZE = 1 << 14


@lru_cache(maxsize=WORD_CACHE_SIZE)
def word_evidence(word: str) -> int:
    """+2 for a letter only Turkish has, +1 for a common Turkish word or suffix, -1 for
    a common English word or English spelling, 0 for none (or both)."""
    if not TURKISH_ONLY.isdisjoint(word):
        return 2
    key = fold_key(word).replace("’", "'")
    if key in _TURKISH_WORDS:
        return 1
    if key in _ENGLISH_WORDS or (len(key) >= 3 and _ENGLISH_SPELLING_RE.search(key)):
        return -1
    if len(key) >= 6 and key.endswith(_TURKISH_SUFFIXES):
        return 1
    return 0


@lru_cache(maxsize=WORD_CACHE_SIZE)
def common_english_word(word: str) -> bool:
    return fold_key(word).replace("’", "'") in _ENGLISH_WORDS


def sentences(line: str) -> list[tuple[int, int]]:
    """(start, end) of the sentences of a line; one piece when it has no punctuation."""
    return [(m.start(), m.end()) for m in _SENTENCE_RE.finditer(line)] or [(0, len(line))]


@dataclass(frozen=True)
class Sentence:
    start: int
    end: int
    score: int  # its evidence, English clauses left out unless it has nothing else
    english_clauses: tuple[tuple[int, int], ...]  # (start, end) in the line


def _english_clause(scores: list[int]) -> bool:
    """A clause is English on its own evidence when it has no Turkish word and English
    words are at least two and at least half of it (one alone is too weak: koordinasyon
    has the English "oo"; names do not make a clause English: "The Chief" lakabiyla)."""
    english = scores.count(-1)
    return max(scores, default=0) <= 0 and english >= ENGLISH_CLAUSE_WORDS and 2 * english >= len(scores)


def _word_scores(line: str, start: int, end: int, first: int) -> tuple[list[str], list[int]]:
    """The scored words of ``line[start:end]`` and their evidence. A capitalised word after
    the sentence's first word (at ``first``) is a name or a title (Atlantic Records, "White
    and Nerdy", PostgreSQL): its English spelling says nothing of the sentence's language;
    nor do the words of a title in double quotes when it has a capitalised word ("All of the
    Lights"), nor a suffix written apart after the closing quote ("Stronger" in klibi)."""
    found = list(SCORED_WORD_RE.finditer(line, start, end))
    words = [match.group() for match in found]
    scores = list(map(word_evidence, words))
    if -1 in scores:
        titles = _quoted_titles(line, start, end) if '"' in line or "“" in line else ()
        # The range's first word is the sentence's first when the range starts at or before it.
        for index, (word, match) in enumerate(zip(words, found)):
            if scores[index] < 0 and (
                ((index or start > first) and word[0].isupper())
                or any(a < match.start() < b for a, b in titles)
                or SUFFIX_AFTER_QUOTE_RE.match(line, match.start() - 2, match.end())
            ):
                scores[index] = 0
    return words, scores


def _quoted_titles(line: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of the spans in double quotes in ``line[start:end]`` that hold a capitalised word."""
    return [m.span() for m in _QUOTED_RE.finditer(line, start, end) if _CAPITALISED_RE.search(m.group())]


def _scored_sentence(line: str, start: int, end: int) -> Sentence:
    """The sentence's evidence; its English clauses are set apart so that the rest
    decides (Toplanti yarin, it is urgent though: a Turkish sentence with an English clause)."""
    first_word = SCORED_WORD_RE.search(line, start, end)
    first = first_word.start() if first_word else start
    words, sentence_scores = _word_scores(line, start, end, first)
    if sentence_scores.count(-1) < ENGLISH_CLAUSE_WORDS or not any(map(common_english_word, words)):
        # Too few English words for an English clause, or only English spellings: names and
        # terms (postgresql) in a Turkish sentence; English has its common words.
        return Sentence(start, end, _net(max(0, sum(sentence_scores)), words, sentence_scores), ())
    english: list[tuple[int, int]] = []
    total = rest = 0
    for clause in _CLAUSE_RE.finditer(line, start, end):
        scores = _word_scores(line, *clause.span(), first)[1]
        score = sum(scores)
        total += score
        if _english_clause(scores):
            english.append(clause.span())
        else:
            rest += score
    return Sentence(start, end, _net(rest if rest else total, words, sentence_scores), tuple(english))


def _net(score: int, words: list[str], scores: list[int]) -> int:
    """A sentence's evidence: one whose Turkish words its English words only balance, or
    one with ``TURKISH_SENTENCE_WORDS`` Turkish words, is Turkish (+1 at least), its English
    words then left to the restorer's word guard (West, Twitter'i uzerinden "All of the
    Lights" in albumun bir sonraki single'i olacagini yazdi). Words in capitals do not
    count here (a licence's PARTICULAR has a Turkish ending)."""
    turkish = sum(s > 0 and not word.isupper() for word, s in zip(words, scores))
    return max(score, 1) if turkish >= TURKISH_SENTENCE_WORDS or (turkish and not score) else score


@lru_cache(maxsize=4096)
def _scored_sentences(line: str) -> tuple[Sentence, ...]:
    return tuple(_scored_sentence(line, start, end) for start, end in sentences(line))


@lru_cache(maxsize=4096)
def turkish_line(line: str, turkish: bool | None) -> tuple[str, bool | None, bool | None]:
    """One line, given the language before it (None: no evidence yet in the document).

    Returns the line with its non-Turkish sentences blanked, the language after it, and
    the document's first decision when it is made on this line (else None). Sentences
    waiting for that decision take it; a line that ends still undecided is returned as
    is (its caller blanks it if the document's first decision is not Turkish).
    """
    if not line or line.isspace():
        return line, turkish, None
    out, first = line, None
    pending: list[tuple[int, int]] = []
    for index, sentence in enumerate(_scored_sentences(line)):
        if sentence.score and not (index == 0 and _continues(line, sentence)):
            if turkish is None:
                first = sentence.score > 0
                if not first:
                    for piece in pending:
                        out = _blank_piece(out, *piece)
            turkish = sentence.score > 0
        if turkish is None:
            pending.append((sentence.start, sentence.end))
        elif not turkish:
            out = _blank_piece(out, sentence.start, sentence.end)
        else:
            for clause in sentence.english_clauses:
                out = _blank_piece(out, *clause)
    return out, turkish, first


def _continues(line: str, sentence: Sentence) -> bool:
    """A line's first sentence that starts in lower case with a single piece of evidence
    continues the sentence before it (a wrapped paragraph: "May be given more than" /
    "once."): one word there is no evidence, so the language goes on as it came."""
    first_word = SCORED_WORD_RE.search(line, sentence.start, sentence.end)
    return abs(sentence.score) == 1 and first_word is not None and first_word.group()[0].islower()


def keep_turkish(lines: Sequence[str]) -> list[str]:
    """Lines with every sentence not taken as Turkish blanked (lengths kept).

    A sentence with evidence decides for itself and for the sentences without evidence
    after it; those before the document's first decision take it (Turkish if none).
    """
    out: list[str] = []
    undecided: list[int] = []
    turkish: bool | None = None
    for row, line in enumerate(lines):
        text, after, first = turkish_line(line, turkish)
        out.append(text)
        if after is None:
            undecided.append(row)
        elif first is False:
            for pending in undecided:
                out[pending] = blank(out[pending])
        turkish = after
    return out


def _blank_piece(text: str, start: int, end: int) -> str:
    return text[:start] + blank(text[start:end]) + text[end:]
