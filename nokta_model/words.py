"""Words as the count-based model sees them: lower-case tokens, keys and spelling masks.

A token is one hyphen-separated part of a word, apostrophe suffixes included
("ankara'dır"). Its key is the ASCII fold ("ankara'dir"); a spelling of the key is
stored as a bit mask of the positions that take the Turkish twin letter.
"""

from __future__ import annotations

from functools import lru_cache

from .alphabet import AMBIGUOUS_LOWER, LOWER_TWIN, fold_key
from .spans import Span, word_parts

MAX_MASK_BITS = 62  # longer words keep only spellings that differ in their first 62 letters
SPELLING_CACHE_SIZE = 1 << 15


def token_spans(word_spans: list[Span], line: str) -> list[Span]:
    """The hyphen parts of every word, as spans in ``line``."""
    if "-" not in line:  # the commonest line: each word is one token
        return list(word_spans)
    tokens = []
    for word in word_spans:
        text = line[word.start : word.end]
        if "-" not in text:
            tokens.append(word)
            continue
        parts = word_parts(text)
        tokens.extend(Span(word.start + p.start, word.start + p.end) for p in parts)
    return tokens


def token_key(token: str) -> str:
    if token.isascii():
        return token.lower()  # the same, for ASCII, as the fold below (I -> ı -> i)
    return fold_key(token).replace("’", "'")


def spelling_mask(key: str, spelling: str) -> int | None:
    """Bits of ``key`` positions spelled with the Turkish twin; None if not a spelling."""
    if spelling == key:
        return 0
    mask = 0
    for pos, (plain, written) in enumerate(zip(key, spelling, strict=True)):
        if written == plain or plain not in AMBIGUOUS_LOWER or written != LOWER_TWIN[plain]:
            continue
        if pos >= MAX_MASK_BITS:
            return None
        mask |= 1 << pos
    return mask


@lru_cache(maxsize=SPELLING_CACHE_SIZE)
def spell(key: str, mask: int) -> str:
    """The spelling of ``key`` that ``mask`` describes (remembered: each sentence's
    lattice spells its candidates again)."""
    if not mask:
        return key
    letters = list(key)
    limit = min(len(key), MAX_MASK_BITS)
    while mask:  # one step per set bit, lowest first
        pos = (mask & -mask).bit_length() - 1
        if pos >= limit:
            break
        letters[pos] = LOWER_TWIN[letters[pos]]
        mask &= mask - 1
    return "".join(letters)


def ambiguous_positions(key: str) -> list[int]:
    return [pos for pos, ch in enumerate(key) if ch in AMBIGUOUS_LOWER]
