"""The count-based model's file: one ``.npz`` of plain arrays, no pickle.

Layout (format ``nokta-ngram``, version 3):

| array | dtype | shape | meaning |
|---|---|---|---|
| meta | uint8 | (n,) | UTF-8 JSON: format, version, sizes, corpus mix, SHA-256 of the arrays |
| key_hashes | int64 | (K,) | sorted 63-bit BLAKE2b hashes of ASCII keys (``tables.string_hash``) |
| key_spans | int32 | (K, 2) | first candidate id and number of candidates of each key |
| masks | int64 | (V,) | candidate id -> positions of the key spelled with the Turkish twin |
| counts | float32 | (V,) | candidate id -> weighted corpus count (0.5 if only in a word list) |
| bigram_keys, trigram_keys | uint8 | (8, B), (8, T) | sorted word ids packed 21 bits each, as ``tables.delta_planes`` |
| bigram_counts, trigram_counts | float32 | (B,), (T,) | weighted counts |
| char_keys | uint8 | (8, C) | sorted hashes of character contexts, as ``tables.delta_planes`` |
| char_counts | uint32 | (C, 2) | times seen plain, times seen with the twin |
| english_keys, english_zipf | int64, uint8 | (E,), (E,) | hashes of English words' ASCII keys; Zipf frequency × 10 |
| capital_keys, capital_counts | int64, float32 | (P,), (P, 2) | spellings read as i under a capital I: under İ, I |
| acronym_keys, acronym_counts | int64, float32 | (A,), (A,) | acronyms written with Turkish letters: times so |
| collocation_keys, collocation_counts | uint8, float32 | (8, L), (L,) | ``collocations.pair_keys``; counts |

The plain int64 keys are stored uncompressed and read in place, mapped in memory
(``npz``): every word is looked up in them, and random hashes do not compress. The other
arrays are compressed; the character contexts are inflated only when a word the lexicon
lacks first needs them. In memory the masks are int32 and the character counts uint16
(``tables.narrowed_masks``, ``narrowed_pairs``): half their bytes, for the language
server's sake. ``upgrade`` rewrites a version 2 file (every key array as
compressed delta planes) in this layout. A version 3 file written before the
collocations were counted has none: it loads with an empty table.

Loading uses no pickle and checks the format, version, every array's dtype and shape,
and its checksum, so a truncated, corrupt or foreign file gives a ``ModelFileError``
that says what is wrong.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from .. import npz
from ..errors import ModelFileError
from ..npz import Archive, ArchiveFormat, load_archive, save_archive
from .charmodel import CharModel
from .lm import LanguageModel, Lexicon
from .tables import SortedTable, delta_planes, from_delta_planes, narrowed_masks, narrowed_pairs

FORMAT, VERSION = "nokta-ngram", 3
DEFAULT_ARTIFACT = Path(__file__).resolve().parent.parent / "data" / "ngram.npz"

_SCHEMA: dict[str, tuple[type, int]] = {
    "key_hashes": (np.int64, 1),
    "key_spans": (np.int32, 2),
    "masks": (np.int64, 1),
    "counts": (np.float32, 1),
    "bigram_keys": (np.uint8, 2),
    "bigram_counts": (np.float32, 1),
    "trigram_keys": (np.uint8, 2),
    "trigram_counts": (np.float32, 1),
    "char_keys": (np.uint8, 2),
    "char_counts": (np.uint32, 2),
    "english_keys": (np.int64, 1),
    "english_zipf": (np.uint8, 1),
    "capital_keys": (np.int64, 1),
    "capital_counts": (np.float32, 2),
    "acronym_keys": (np.int64, 1),
    "acronym_counts": (np.float32, 1),
    "collocation_keys": (np.uint8, 2),
    "collocation_counts": (np.float32, 1),
}
#: Arrays a file may lack (written before they were counted): read as empty.
_OPTIONAL = ("collocation_keys", "collocation_counts")
#: Keys stored as they are, uncompressed (read in place); and those stored as ``delta_planes``.
_STORED = ("key_hashes", "english_keys", "capital_keys", "acronym_keys")
_DELTA_KEYS = ("bigram_keys", "trigram_keys", "char_keys", "collocation_keys")

#: Read when the model is loaded; the character contexts wait until a word needs them.
_EAGER = tuple(name for name in _SCHEMA if not name.startswith("char_"))
#: Arrays read side by side at load: inflating, hashing and summing let go of the GIL.
READ_THREADS = 2

ARCHIVE = ArchiveFormat(FORMAT, VERSION, _SCHEMA, frozenset(_OPTIONAL))
#: Models this process has loaded and still uses, by file identity (``load_model``).
_loaded: weakref.WeakValueDictionary[tuple, LanguageModel] = weakref.WeakValueDictionary()
_loading = threading.Lock()


def _arrays(model: LanguageModel) -> dict[str, np.ndarray]:
    lexicon = model.lexicon
    arrays = {
        "key_hashes": lexicon.key_table.keys,
        "key_spans": lexicon.key_table.values.astype(np.int32),
        "masks": lexicon.masks.astype(np.int64),  # int32 in memory once loaded
        "counts": lexicon.counts,
        "bigram_keys": model.bigrams.keys,
        "bigram_counts": model.bigrams.values.astype(np.float32),
        "trigram_keys": model.trigrams.keys,
        "trigram_counts": model.trigrams.values.astype(np.float32),
        "char_keys": model.chars.table.keys,
        "char_counts": model.chars.table.values.astype(np.uint32),
        "english_keys": model.english.keys,
        "english_zipf": model.english.values.astype(np.uint8),
        "capital_keys": model.capitals.keys,
        "capital_counts": model.capitals.values.astype(np.float32),
        "acronym_keys": model.acronyms.keys,
        "acronym_counts": model.acronyms.values.astype(np.float32),
        "collocation_keys": model.collocations.keys,
        "collocation_counts": model.collocations.values.astype(np.float32),
    }
    return {name: delta_planes(array) if name in _DELTA_KEYS else array for name, array in arrays.items()}


def save_model(model: LanguageModel, path: Path, info: dict) -> None:
    save_archive(ARCHIVE, _arrays(model), path, info, stored=_STORED)


def upgrade(old: Path, new: Path) -> None:
    """Rewrite a version 2 file (every key array stored as compressed delta planes) as
    version 3, with the same tables and meta."""
    stored_as_planes = {name: (np.uint8, 2) for name in _STORED}
    meta, arrays = load_archive(ArchiveFormat(FORMAT, 2, {**_SCHEMA, **stored_as_planes}, ARCHIVE.optional), old)
    arrays.update({name: from_delta_planes(arrays[name]) for name in _STORED})
    save_archive(ARCHIVE, arrays, new, meta, stored=_STORED)


def read_meta(path: Path) -> dict:
    return npz.read_meta(ARCHIVE, path)


def load_model(path: Path) -> LanguageModel:
    """The model in the file at ``path``. A file this process has loaded and still uses
    (same path, size and modification time) is shared rather than read again: the
    language server's count-based stand-in and the default it makes way for read the
    same tables, and the tables are never written to."""
    identity = _identity(Path(path))
    with _loading:
        model = _loaded.get(identity)
        if model is None:
            model = _loaded[identity] = _read_model(Path(path))
        return model


def _identity(path: Path) -> tuple:
    try:
        stat = path.stat()
    except OSError:
        return (str(path),)  # reading it fails too: nothing is kept
    return (str(path.resolve()), stat.st_size, stat.st_mtime_ns)


def _read_model(path: Path) -> LanguageModel:
    archive = Archive(ARCHIVE, path)
    with _inconsistent_tables_refused(path), ThreadPoolExecutor(READ_THREADS) as pool:
        arrays = dict(zip(_EAGER, pool.map(lambda name: _array(archive, name), _EAGER), strict=True))

        def table(keys: str, values: str) -> SortedTable:
            return SortedTable(arrays[keys], arrays[values])

        return LanguageModel(
            Lexicon(table("key_hashes", "key_spans"), narrowed_masks(arrays["masks"]), arrays["counts"]),
            table("bigram_keys", "bigram_counts"),
            table("trigram_keys", "trigram_counts"),
            CharModel.deferred(lambda: _char_table(archive)),
            table("english_keys", "english_zipf"),
            table("capital_keys", "capital_counts"),
            table("acronym_keys", "acronym_counts"),
            table("collocation_keys", "collocation_counts"),
        )


def _char_table(archive: Archive) -> SortedTable:
    with _inconsistent_tables_refused(archive.path):
        return SortedTable(_array(archive, "char_keys"), narrowed_pairs(_array(archive, "char_counts")))


def _array(archive: Archive, name: str) -> np.ndarray:
    """The array as the tables hold it (delta planes summed back into keys); an optional
    one the file lacks, empty."""
    if name in _OPTIONAL and name not in archive:
        return np.zeros(0, np.int64 if name in _DELTA_KEYS else _SCHEMA[name][0])
    stored = archive[name]
    return from_delta_planes(stored) if name in _DELTA_KEYS else stored


@contextmanager
def _inconsistent_tables_refused(path: Path) -> Iterator[None]:
    """A table's ValueError (keys unsorted, lengths differing) as a ModelFileError."""
    try:
        yield
    except ModelFileError:
        raise
    except ValueError as error:
        raise ModelFileError(f"{path}: inconsistent tables ({error})") from None
