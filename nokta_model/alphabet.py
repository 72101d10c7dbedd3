"""Turkish letter tables: asciify, length-keeping Turkish case mapping, restoration.

Every function here keeps the length of its input, so a position in the input is the
same position in the output. Python's own ``str.lower`` breaks that ("İ".lower() is two
code points) and gets Turkish wrong ("I".lower() is "i", not "ı"): never use it here.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

#: ASCII letter -> its Turkish diacritic twin, lower case (``i`` pairs with dotless ``ı``).
LOWER_TWIN = {"c": "ç", "g": "ğ", "i": "ı", "o": "ö", "s": "ş", "u": "ü"}
#: The six ambiguous ASCII letters, in head order.
AMBIGUOUS_LOWER = "cgiosu"
#: The twelve letters a restorer may change (each only into its Turkish pair).
AMBIGUOUS = frozenset("cgiosuCGIOSU")
#: Letters that only Turkish spelling produces.
TURKISH_ONLY = frozenset("çğıöşüÇĞİÖŞÜ")
#: The circumflexed vowels Turkish spelling may write (hâlâ, kâğıt, millî); ``fold_circumflex`` drops them.
CIRCUMFLEXES = frozenset("âîûÂÎÛ")

_ASCII_OF = {
    "ç": "c",
    "Ç": "C",
    "ğ": "g",
    "Ğ": "G",
    "ı": "i",
    "İ": "I",
    "ö": "o",
    "Ö": "O",
    "ş": "s",
    "Ş": "S",
    "ü": "u",
    "Ü": "U",
    "â": "a",
    "Â": "A",
    "î": "i",
    "Î": "I",
    "û": "u",
    "Û": "U",
}


def _table(mapping: dict[str, str]) -> list[str]:
    """A ``str.translate`` table indexed by code point. A dict costs a failed lookup (a
    raised KeyError) for every letter it does not map, which makes translating Turkish
    text twice as slow; a code point past the list's end is kept, as a dict would keep it."""
    table = [chr(point) for point in range(max(map(ord, mapping)) + 1)]
    for letter, mapped in mapping.items():
        table[ord(letter)] = mapped
    return table


_ASCIIFY_TABLE = _table(_ASCII_OF)
_TURKISH_LOWER_I = str.maketrans({"I": "ı", "İ": "i"})
_TWIN_TO_ASCII = _table({twin: plain for plain, twin in LOWER_TWIN.items()})
_MODEL_LOWER_I = str.maketrans({"I": "i", "İ": "i"})
_FOLD_CIRCUMFLEX_TABLE = str.maketrans({"â": "a", "Â": "A", "î": "i", "Î": "I", "û": "u", "Û": "U"})


def asciify(text: str) -> str:
    """Drop Turkish diacritics and circumflexes: ç→c … İ→I, â→a. Keeps the length."""
    return text.translate(_ASCIIFY_TABLE)


def fold_circumflex(text: str) -> str:
    """â î û → a i u (and capitals): the benchmark compares text with these folded."""
    return text.translate(_FOLD_CIRCUMFLEX_TABLE)


def _single(mapped: str, original: str) -> str:
    return mapped if len(mapped) == 1 else original


def _upper_char(ch: str) -> str:
    if ch == "i":
        return "İ"
    if ch == "ı":
        return "I"
    return _single(ch.upper(), ch)


def tr_lower(text: str) -> str:
    """Turkish lower case, one code point for one (I→ı, İ→i).

    İ is the only letter whose Unicode lower case is longer than itself, so mapping
    I and İ first leaves ``str.lower`` length-keeping.
    """
    if "I" in text or "İ" in text:
        text = text.translate(_TURKISH_LOWER_I)
    return text.lower()


def tr_upper(text: str) -> str:
    """Turkish upper case, one code point for one (i→İ, ı→I)."""
    if text.isascii():
        return text.replace("i", "İ").upper()
    return "".join(map(_upper_char, text))


def model_lower(text: str) -> str:
    """Lower case as a restorer sees typed text: ASCII I is ambiguous (I or İ), so it
    becomes plain i; only letters typed with a diacritic stay Turkish (Ş → ş)."""
    if "I" in text or "İ" in text:
        text = text.translate(_MODEL_LOWER_I)
    return text.lower()


def fold_key(text: str) -> str:
    """The model's view of text: lower case, then ASCII. 'İSTANBUL' → 'istanbul'."""
    return asciify(tr_lower(text))


_FOLDED_AMBIGUOUS = {letter: fold_key(letter) for letter in AMBIGUOUS}


def restore_letters(original: str, restored_lower: str) -> str:
    """Apply a lower-case restoration to ``original`` letter by letter, keeping its case.

    Only the twelve ambiguous ASCII letters of ``original`` may change, and each only
    into the spelling of ``restored_lower`` at that position when that is its Turkish
    pair. Everything else, letters typed with diacritics included, is kept as is.
    """
    if len(original) != len(restored_lower):
        raise ValueError("restoration must keep the length of the text")
    if original.isascii() and original.islower() and restored_lower.translate(_TWIN_TO_ASCII) == original:
        return restored_lower  # the common case: only twins of ASCII lower-case letters
    out = list(original)
    for pos, (ch, new) in enumerate(zip(original, restored_lower, strict=True)):
        if ch not in AMBIGUOUS or new.translate(_ASCIIFY_TABLE) != _FOLDED_AMBIGUOUS[ch]:
            continue
        out[pos] = _upper_char(new) if ch.isupper() else new
    return "".join(out)


def nfc_with_offsets(text: str) -> tuple[str, Sequence[int]]:
    """NFC-normalise ``text`` and map each NFC character back to where it starts.

    Returns ``(nfc, starts)`` with ``len(starts) == len(nfc) + 1``; ``starts[-1]`` is
    ``len(text)``. Already-NFC text (the common case) costs one check.
    """
    if unicodedata.is_normalized("NFC", text):
        return text, range(len(text) + 1)
    nfc_parts: list[str] = []
    starts: list[int] = []
    cluster_start = 0
    for pos in range(1, len(text) + 1):
        if pos < len(text) and unicodedata.combining(text[pos]):
            continue
        normalised = unicodedata.normalize("NFC", text[cluster_start:pos])
        nfc_parts.append(normalised)
        starts.extend([cluster_start] * len(normalised))
        cluster_start = pos
    starts.append(len(text))
    return "".join(nfc_parts), starts
