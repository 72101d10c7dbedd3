"""The count-based model's file: one compressed ``.npz`` of plain arrays, no pickle.

Layout (format ``nokta-ngram``, version 2):

| array | dtype | shape | meaning |
|---|---|---|---|
| meta | uint8 | (n,) | UTF-8 JSON: format, version, sizes, corpus mix, SHA-256 of the arrays |
| key_hashes | uint8 | (8, K) | sorted 63-bit BLAKE2b hashes of ASCII keys (``tables.delta_planes``, as all *_keys) |
| key_spans | int32 | (K, 2) | first candidate id and number of candidates of each key |
| masks | int64 | (V,) | candidate id -> positions of the key spelled with the Turkish twin |
| counts | float32 | (V,) | candidate id -> weighted corpus count (0.5 if only in a word list) |
| bigram_keys, trigram_keys | uint8 | (8, B), (8, T) | sorted word ids packed 21 bits each |
| bigram_counts, trigram_counts | float32 | (B,), (T,) | weighted counts |
| char_keys | uint8 | (8, C) | sorted hashes of character contexts |
| char_counts | uint32 | (C, 2) | times seen plain, times seen with the twin |
| english_keys, english_zipf | uint8 | (8, E), (E,) | sorted hashes of English words' ASCII keys; Zipf frequency × 10 |
| capital_keys, capital_counts | uint8, float32 | (8, P), (P, 2) | spellings read as i under a capital I: under İ, I |
| acronym_keys, acronym_counts | uint8, float32 | (8, A), (A,) | acronyms written with Turkish letters: times so |

Loading uses ``allow_pickle=False`` and checks the format, version, every array's
dtype and shape, and the checksum, so a truncated, corrupt or foreign file gives a
``ModelFileError`` that says what is wrong.
"""

from __future__ import annotations

import threading
import weakref
from pathlib import Path

import numpy as np

from .. import npz
from ..errors import ModelFileError
from ..npz import ArchiveFormat, load_archive, save_archive
from .charmodel import CharModel
from .lm import LanguageModel, Lexicon
from .tables import SortedTable, delta_planes, from_delta_planes

FORMAT, VERSION = "nokta-ngram", 2
DEFAULT_ARTIFACT = Path(__file__).resolve().parent.parent / "data" / "ngram.npz"

_SCHEMA: dict[str, tuple[type, int]] = {
    "key_hashes": (np.uint8, 2),
    "key_spans": (np.int32, 2),
    "masks": (np.int64, 1),
    "counts": (np.float32, 1),
    "bigram_keys": (np.uint8, 2),
    "bigram_counts": (np.float32, 1),
    "trigram_keys": (np.uint8, 2),
    "trigram_counts": (np.float32, 1),
    "char_keys": (np.uint8, 2),
    "char_counts": (np.uint32, 2),
    "english_keys": (np.uint8, 2),
    "english_zipf": (np.uint8, 1),
    "capital_keys": (np.uint8, 2),
    "capital_counts": (np.float32, 2),
    "acronym_keys": (np.uint8, 2),
    "acronym_counts": (np.float32, 1),
}


ARCHIVE = ArchiveFormat(FORMAT, VERSION, _SCHEMA)
#: Models this process has loaded and still uses, by file identity (``load_model``).
_loaded: weakref.WeakValueDictionary[tuple, LanguageModel] = weakref.WeakValueDictionary()
_loading = threading.Lock()


#: The sorted key arrays, stored as ``delta_planes``.
_KEY_ARRAYS = ("key_hashes", "bigram_keys", "trigram_keys", "char_keys", "english_keys", "capital_keys", "acronym_keys")


def _arrays(model: LanguageModel) -> dict[str, np.ndarray]:
    arrays = _plain_arrays(model)
    return {name: delta_planes(array) if name in _KEY_ARRAYS else array for name, array in arrays.items()}


def _plain_arrays(model: LanguageModel) -> dict[str, np.ndarray]:
    lexicon = model.lexicon
    return {
        "key_hashes": lexicon.key_table.keys,
        "key_spans": lexicon.key_table.values.astype(np.int32),
        "masks": lexicon.masks,
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
    }


def save_model(model: LanguageModel, path: Path, info: dict) -> None:
    save_archive(ARCHIVE, _arrays(model), path, info)


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
            model = _loaded[identity] = _read_model(path)
        return model


def _identity(path: Path) -> tuple:
    try:
        stat = path.stat()
    except OSError:
        return (str(path),)  # reading it fails too: nothing is kept
    return (str(path.resolve()), stat.st_size, stat.st_mtime_ns)


def _read_model(path: Path) -> LanguageModel:
    _, arrays = load_archive(ARCHIVE, path)
    try:
        return _model(arrays)
    except ValueError as error:
        raise ModelFileError(f"{path}: inconsistent tables ({error})") from None


def _model(stored: dict[str, np.ndarray]) -> LanguageModel:
    arrays = {name: from_delta_planes(array) if name in _KEY_ARRAYS else array for name, array in stored.items()}
    lexicon = Lexicon(SortedTable(arrays["key_hashes"], arrays["key_spans"]), arrays["masks"], arrays["counts"])
    return LanguageModel(
        lexicon,
        SortedTable(arrays["bigram_keys"], arrays["bigram_counts"]),
        SortedTable(arrays["trigram_keys"], arrays["trigram_counts"]),
        CharModel(SortedTable(arrays["char_keys"], arrays["char_counts"])),
        SortedTable(arrays["english_keys"], arrays["english_zipf"]),
        SortedTable(arrays["capital_keys"], arrays["capital_counts"]),
        SortedTable(arrays["acronym_keys"], arrays["acronym_counts"]),
    )
