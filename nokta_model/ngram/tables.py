"""Compact lookup tables on sorted numpy arrays: no Python objects per entry.

Strings are looked up by a 64-bit BLAKE2b hash of their UTF-8 bytes, n-grams by word
ids packed into one 64-bit integer. Lookups are batched with ``np.searchsorted``.
"""

from __future__ import annotations

import hashlib

import numpy as np

ID_BITS = 21  # up to 2,097,151 word ids, three of them packed in one int64
MAX_ID = (1 << ID_BITS) - 1
_PAIR_LIMIT = np.iinfo(np.uint16).max
SORTED_SEARCH_MIN = 256  # smaller batches of queries are searched as they come


def _digest(text: str) -> bytes:
    """Eight bytes of BLAKE2b over ``text``'s UTF-8: read little-endian and shifted right by
    one, a stable 63-bit hash (fits a signed int64)."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()


def string_hash(text: str) -> int:
    """The 63-bit hash of ``text`` (``_digest``)."""
    return int.from_bytes(_digest(text), "little") >> 1


def hash_all(texts: list[str]) -> np.ndarray:
    """``string_hash`` of each text, the digests read by numpy in one go."""
    blake2b = hashlib.blake2b
    digests = b"".join([blake2b(text.encode("utf-8"), digest_size=8).digest() for text in texts])  # ``_digest``, inline
    return (np.frombuffer(digests, dtype="<u8") >> 1).astype(np.int64)


def pack(*ids: int) -> int:
    """Word ids -> one n-gram key (the first id in the highest bits)."""
    key = 0
    for word_id in ids:
        key = (key << ID_BITS) | word_id
    return key


class SortedTable:
    """``keys`` (sorted int64) -> rows of ``values``; missing keys give ``default``."""

    def __init__(self, keys: np.ndarray, values: np.ndarray):
        if len(keys) != len(values):
            raise ValueError("keys and values differ in length")
        if len(keys) > 1 and not np.all(keys[1:] > keys[:-1]):
            raise ValueError("table keys are not sorted and unique")
        self.keys = keys
        self.values = values

    @classmethod
    def build(cls, keys: np.ndarray, values: np.ndarray) -> SortedTable:
        order = np.argsort(keys, kind="stable")
        return cls(keys[order], values[order])

    @classmethod
    def summed(cls, keys: np.ndarray, counts: np.ndarray) -> SortedTable:
        """A table of the distinct keys, each with the sum of its counts."""
        unique, inverse = np.unique(keys, return_inverse=True)
        return cls(unique, np.bincount(inverse, weights=counts, minlength=len(unique)).astype(counts.dtype))

    def find(self, queries: np.ndarray) -> np.ndarray:
        """Row index of each query, or -1 where the key is absent."""
        queries = np.asarray(queries, dtype=np.int64)
        if len(self.keys) == 0:
            return np.full(len(queries), -1, dtype=np.int64)
        rows = _sorted_search(self.keys, queries)
        rows[rows == len(self.keys)] = 0
        return np.where(self.keys[rows] == queries, rows, -1)

    def get(self, queries: np.ndarray, default: float = 0) -> np.ndarray:
        rows = self.find(queries)
        if len(self.values) == 0:
            return np.full(rows.shape + self.values.shape[1:], default, dtype=self.values.dtype)
        found = self.values[np.maximum(rows, 0)]
        present = (rows >= 0).reshape(rows.shape + (1,) * (self.values.ndim - 1))
        return np.where(present, found, default)

    def __len__(self) -> int:
        return len(self.keys)


def _sorted_search(keys: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """``np.searchsorted(keys, queries)``, the queries searched in sorted order: each search
    then starts where the last one ended, in memory the last one touched: much faster for
    a large batch in a table of millions of keys."""
    if queries.size < SORTED_SEARCH_MIN:
        return keys.searchsorted(queries)
    order = np.argsort(queries.ravel())
    rows = np.empty(queries.size, dtype=np.intp)
    rows[order] = keys.searchsorted(queries.ravel()[order])
    return rows.reshape(queries.shape)


def delta_planes(keys: np.ndarray) -> np.ndarray:
    """Sorted int64 keys as the byte planes (8, n) of their differences: random hashes
    compress little, but the differences of sorted ones have zero high bytes, which the
    archive's compression then removes (about a quarter of the bytes)."""
    deltas = np.diff(np.asarray(keys, dtype=np.int64), prepend=np.int64(0))
    return np.ascontiguousarray(deltas.astype("<i8").view(np.uint8).reshape(-1, 8).T)


def from_delta_planes(planes: np.ndarray) -> np.ndarray:
    """The keys ``delta_planes`` stored."""
    if planes.ndim != 2 or planes.shape[0] != 8:
        raise ValueError("delta planes must have 8 rows")
    deltas = np.empty((planes.shape[1], 8), dtype=np.uint8)
    for byte, plane in enumerate(planes):  # column by column: faster than a transposed copy
        deltas[:, byte] = plane
    keys = deltas.view("<i8").ravel()
    return np.cumsum(keys, out=keys)  # in place: faster than into a new array


def narrowed_pairs(counts: np.ndarray) -> np.ndarray:
    """(n, 2) counts (times plain, times twin) as uint16, to hold half the memory: the few
    rows beyond its range (46 of the shipped character model's 1.8 M, the commonest short
    contexts) are scaled down to fit, their ratio kept to 1 part in 65,535, which is all
    a probability taken from them reads."""
    over = np.flatnonzero(np.maximum(counts[:, 0], counts[:, 1]) > _PAIR_LIMIT)
    narrowed = counts.astype(np.uint16)  # the rows over its range wrap: set below
    if over.size:
        rows = counts[over].astype(np.float64)
        narrowed[over] = np.rint(rows * (_PAIR_LIMIT / rows.max(axis=1))[:, None])
    return narrowed


def narrowed_masks(masks: np.ndarray) -> np.ndarray:
    """Spelling masks as int32 where every one fits (half the memory), else as they are."""
    fits = masks.size > 0 and masks.min() >= 0 and masks.max() <= np.iinfo(np.int32).max
    return masks.astype(np.int32) if fits else masks
