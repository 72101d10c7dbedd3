"""The model's alphabet: characters to ids, and the letter labels to learn.

The model reads ``fold_key(line)`` (Turkish lower case, then ASCII), so its input never
holds ç ğ ı ö ş ü; the alphabet still keeps every Turkish letter so that text folded
another way stays readable. Any other code point maps to UNK, never to a space.
A cased model (``ModelConfig.cased``) also reads which letters are capitals: a capital's
id is its folded letter's plus ``VOCAB_SIZE`` (``encode_input``).
"""

from __future__ import annotations

import numpy as np

from ..alphabet import AMBIGUOUS_LOWER, LOWER_TWIN, fold_key, tr_lower

PAD, UNK, BOUNDARY = 0, 1, 2  # BOUNDARY marks a line start or end
_SPECIAL = 3
_ASCII = "".join(chr(c) for c in range(32, 127))
_EXTRA = "çğıöşüÇĞİÖŞÜâîûêéèëäàáíìóòúùñßæœ’‘“”«»–—…°€£§©®·•\t"
CHARS = _ASCII + _EXTRA
NO_LETTER = -1

_TABLE = np.full(0x10000, UNK, dtype=np.uint8)
for _index, _char in enumerate(CHARS):
    _TABLE[ord(_char)] = _SPECIAL + _index
_TABLE[ord("\n")] = BOUNDARY
VOCAB_SIZE = _SPECIAL + len(CHARS)
#: Whether each id is a letter's (a capital of it is read as another id by a cased model).
IS_LETTER = np.array([False] * _SPECIAL + [char.isalpha() for char in CHARS])

#: Head index (0..5 for c g i o s u) of each id, NO_LETTER for ids of other characters.
LETTER_OF_ID = np.full(VOCAB_SIZE, NO_LETTER, dtype=np.int64)
for _head, _letter in enumerate(AMBIGUOUS_LOWER):
    LETTER_OF_ID[_TABLE[ord(_letter)]] = _head

_TWIN_CODE = np.zeros(0x80, dtype=np.uint32)
for _letter, _twin in LOWER_TWIN.items():
    _TWIN_CODE[ord(_letter)] = ord(_twin)


def code_points(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


def encode_key(key: str) -> np.ndarray:
    """Ids of already-folded text (``fold_key``); "\\n" becomes BOUNDARY."""
    points = code_points(key)
    return _TABLE[np.minimum(points, 0xFFFF)].copy() if len(points) else np.zeros(0, np.uint8)


def capitals(text: str) -> np.ndarray:
    """Per code point of ``text``, whether it is a capital (Turkish lower case changes it)."""
    return code_points(text) != code_points(tr_lower(text))


def encode_input(text: str, cased: bool) -> np.ndarray:
    """The ids a model reads for ``text`` in any case, with or without Turkish letters:
    ``fold_key(text)``'s, and for a ``cased`` model capitals' ids shifted by VOCAB_SIZE."""
    ids = encode_key(fold_key(text))
    return with_capitals(ids, capitals(text)) if cased else ids


def with_capitals(ids: np.ndarray, capital: np.ndarray) -> np.ndarray:
    """A cased model's ids: ``ids`` (of folded text) shifted by VOCAB_SIZE where ``capital``."""
    return ids.astype(np.int64) + VOCAB_SIZE * (capital & IS_LETTER[ids])


def encode_with_labels(text: str) -> tuple[np.ndarray, np.ndarray]:
    """Ids of ``fold_key(text)`` and, per position, 1 where the letter is its Turkish twin,
    0 where it is the plain letter, -1 where no head applies."""
    key = fold_key(text)
    ids = encode_key(key)
    key_points = code_points(key)
    gold_points = code_points(tr_lower(text))
    labels = np.full(len(ids), -1, dtype=np.int8)
    ambiguous = LETTER_OF_ID[ids] != NO_LETTER
    twins = _TWIN_CODE[np.minimum(key_points[ambiguous], 0x7F)]
    labels[ambiguous] = gold_points[ambiguous] == twins
    return ids, labels
