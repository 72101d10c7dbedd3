"""Capital letters as evidence, counted at build time: the twin rule for a capital I, and acronyms.

In correctly written Turkish a capital I is the capital of ı (Işık) or, in a foreign word
or name, of i (Instagram, Index): Turkish casing of ``Instagram`` gives the false
spelling ``ınstagram``. So a token typed with a capital I is not counted as the ı-spelling
on its own word: it is counted as a twin of the spelling running text confirms for its
stem (up to an apostrophe: API'leri as api), the ı-spelling written in lower case (ışık) or
the i-spelling (instagram, issue), and only when neither is written do rules decide
(``resolve``). An ı-spelling seen only under a capital I is no evidence of ı: the token
counts as the i-spelling (CRISPR, MNIST, PCIe) unless its writer typed Turkish capitals
(a Turkish letter in the token, or the whole line in capitals: IĞDIR, KULLANMADIM). A
word-initial ı before a front vowel (ınitial, ındex) breaks vowel harmony: never Turkish.

The counts kept for restoring: how often a spelling with i was written under a capital İ
and how often under a capital I (Index: foreign, keep the I), and which acronyms (all
capitals, on lines not typed in capitals) running text writes with Turkish letters (ODTÜ,
İTÜ, TÜBİTAK): others keep their letters (IIS, IE, API, LICENSE).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..alphabet import TURKISH_ONLY
from ..words import token_key
from .tables import SortedTable, hash_all

MAX_ACRONYM = 5
_ACRONYM_RE = re.compile(r"[A-ZÇĞİÖŞÜ]{2,5}")
_CAPITALS_RE = re.compile(r"[A-ZÇĞİÖŞÜ]{2,}")
_NOT_TURKISH_START_RE = re.compile(r"ı[^aeıioöuü]*[eiöü]")
_APOSTROPHE_RE = re.compile("['’]")
#: A foreign word typed under a capital I that running text never writes in lower case
#: is taken as foreign when English text has it at least this often (Zipf scale).
ENGLISH_ZIPF = 3.0


def turkish_start(spelling: str) -> bool:
    """False for a word-initial ı followed by a front vowel (ınitial, ındex): no Turkish
    word starts so, in vowel harmony."""
    return _NOT_TURKISH_START_RE.match(spelling) is None


def word_stem(spelling: str) -> str:
    """``spelling`` up to its first apostrophe (api'leri -> api)."""
    return _APOSTROPHE_RE.split(spelling, maxsplit=1)[0]


def dotted_reading(spelling: str, typed: str) -> str:
    """``spelling`` (``typed`` in Turkish lower case) with i wherever ``typed`` has a capital I."""
    return "".join("i" if ch == "I" else low for ch, low in zip(typed, spelling, strict=True))


def is_acronym(token: str) -> bool:
    """All capitals, two to five letters."""
    return _ACRONYM_RE.fullmatch(token) is not None


def all_capitals(token: str) -> bool:
    """All capitals, two letters or more: an acronym, or a longer word that on a line not
    typed in capitals is taken as one (LICENSE, README; running text writes TÜBİTAK)."""
    return _CAPITALS_RE.fullmatch(token) is not None


@dataclass
class CapitalCounts:
    """What the count gathers about capitals: tokens typed with a capital I (their
    Turkish-lower spelling, their i-reading, whether their writer typed Turkish capitals),
    spellings written under a capital İ, and acronyms by key."""

    pending: dict[str, tuple[str, bool]] = field(default_factory=dict)  # ı-spelling -> (i-reading, Turkish capitals)
    dotted: Counter[str] = field(default_factory=Counter)
    acronyms_turkish: Counter[str] = field(default_factory=Counter)
    acronyms_ascii: Counter[str] = field(default_factory=Counter)

    def add_token(self, typed: str, spelling: str, weight: int, capitals_line: bool) -> bool:
        """Note one token (``spelling``: its Turkish lower case); True when it waits for
        ``resolve`` (a capital I was typed in it)."""
        if not capitals_line and all_capitals(typed):
            counter = self.acronyms_ascii if typed.isascii() else self.acronyms_turkish
            counter[token_key(typed)] += weight
        if "İ" in typed:
            self.dotted[spelling] += weight
        if "I" not in typed:
            return False
        turkish_capitals = capitals_line or not TURKISH_ONLY.isdisjoint(word_stem(typed))
        reading, seen_turkish = self.pending.get(spelling, (dotted_reading(spelling, typed), False))
        self.pending[spelling] = (reading, seen_turkish or turkish_capitals)
        return True


def resolve(
    spelling: str,
    reading: str,
    turkish_capitals: bool,
    written: Callable[[str], float],
    listed: Callable[[str], bool],
    english_zipf: Callable[[str], float],
) -> str:
    """The spelling a token typed with a capital I is counted as: ``spelling`` (ı under
    the capital) or ``reading`` (i), decided on their stems. ``turkish_capitals``: its
    writer typed a Turkish letter in it or the whole line in capitals; ``written``: a
    stem's count in lower-case running text; ``listed``: whether the word lists hold it."""
    undotted, dotted = word_stem(spelling), word_stem(reading)
    if not turkish_start(undotted):
        return reading
    as_undotted, as_dotted = written(undotted), written(dotted)
    if as_undotted or as_dotted:
        return spelling if as_undotted >= as_dotted else reading
    if not turkish_capitals and english_zipf(dotted) >= ENGLISH_ZIPF:
        return reading  # before the lists: they hold lower-cased English names (ınstagram, fıfa)
    if listed(undotted) or listed(dotted):
        return spelling if listed(undotted) else reading
    return spelling if turkish_capitals else reading


def capital_table(dotted: Counter[str], plain: Counter[str]) -> SortedTable:
    """Spelling hash -> (times written under a capital İ, under a capital I), for the
    spellings written under a capital I read as i."""
    spellings = sorted(plain)
    values = np.array([[dotted[s], plain[s]] for s in spellings], dtype=np.float32).reshape(-1, 2)
    return SortedTable.build(hash_all(spellings), values)


def acronym_table(counts: CapitalCounts) -> SortedTable:
    """Key hash -> times written with Turkish letters, for the acronyms running text
    writes with Turkish letters at least as often as in ASCII."""
    keys = sorted(
        key for key, turkish in counts.acronyms_turkish.items() if turkish >= counts.acronyms_ascii.get(key, 0)
    )
    values = np.array([counts.acronyms_turkish[key] for key in keys], dtype=np.float32)
    return SortedTable.build(hash_all(keys), values)


def capitals_line(line: str) -> bool:
    """A line typed in capitals (no lower-case letter): its words are no acronyms."""
    return not any(ch.islower() for ch in line)
