"""The count-based model's file: one compressed ``.npz`` of plain arrays, no pickle.

Layout (format ``nokta-ngram``, version 1):

| array | dtype | shape | meaning |
|---|---|---|---|
| meta | uint8 | (n,) | UTF-8 JSON: format, version, sizes, corpus mix, SHA-256 of the arrays |
| key_hashes | int64 | (K,) | sorted 63-bit BLAKE2b hashes of ASCII keys |
| key_spans | int32 | (K, 2) | first candidate id and number of candidates of each key |
| masks | int64 | (V,) | candidate id -> positions of the key spelled with the Turkish twin |
| counts | float32 | (V,) | candidate id -> weighted corpus count (0.5 if only in a word list) |
| bigram_keys, trigram_keys | int64 | (B,), (T,) | sorted word ids packed 21 bits each |
| bigram_counts, trigram_counts | float32 | (B,), (T,) | weighted counts |
| char_keys | int64 | (C,) | sorted hashes of character contexts |
| char_counts | uint32 | (C, 2) | times seen plain, times seen with the twin |

Loading uses ``allow_pickle=False`` and checks the format, version, every array's
dtype and shape, and the checksum, so a truncated, corrupt or foreign file gives a
``ModelFileError`` that says what is wrong.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import numpy as np

from ..errors import ModelFileError
from .charmodel import CharModel
from .lm import LanguageModel, Lexicon
from .tables import SortedTable

FORMAT, VERSION = "nokta-ngram", 1
DEFAULT_ARTIFACT = Path(__file__).resolve().parent.parent / "data" / "ngram.npz"

_SCHEMA = {
    "key_hashes": (np.int64, 1),
    "key_spans": (np.int32, 2),
    "masks": (np.int64, 1),
    "counts": (np.float32, 1),
    "bigram_keys": (np.int64, 1),
    "bigram_counts": (np.float32, 1),
    "trigram_keys": (np.int64, 1),
    "trigram_counts": (np.float32, 1),
    "char_keys": (np.int64, 1),
    "char_counts": (np.uint32, 2),
}


def _arrays(model: LanguageModel) -> dict[str, np.ndarray]:
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
    }


def _checksum(arrays: dict[str, np.ndarray]) -> str:
    digest = hashlib.sha256()
    for name in sorted(arrays):
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(arrays[name]).tobytes())
    return digest.hexdigest()


def save_model(model: LanguageModel, path: Path, info: dict) -> None:
    arrays = _arrays(model)
    meta = {"format": FORMAT, "version": VERSION, "sha256": _checksum(arrays), **info}
    meta_bytes = np.frombuffer(json.dumps(meta, ensure_ascii=False).encode("utf-8"), dtype=np.uint8)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with open(partial, "wb") as handle:
        np.savez_compressed(handle, meta=meta_bytes, **arrays)
    partial.replace(path)


def read_meta(path: Path) -> dict:
    with _open(path) as archive:
        return _meta(archive, path)


def load_model(path: Path) -> LanguageModel:
    with _open(path) as archive:
        meta = _meta(archive, path)
        arrays = {name: _checked(archive, name, dtype, ndim, path) for name, (dtype, ndim) in _SCHEMA.items()}
    if _checksum(arrays) != meta.get("sha256"):
        raise ModelFileError(f"{path}: checksum mismatch, the file is corrupt")
    try:
        return _model(arrays)
    except ValueError as error:
        raise ModelFileError(f"{path}: inconsistent tables ({error})") from None


def _model(arrays: dict[str, np.ndarray]) -> LanguageModel:
    lexicon = Lexicon(SortedTable(arrays["key_hashes"], arrays["key_spans"]), arrays["masks"], arrays["counts"])
    return LanguageModel(
        lexicon,
        SortedTable(arrays["bigram_keys"], arrays["bigram_counts"]),
        SortedTable(arrays["trigram_keys"], arrays["trigram_counts"]),
        CharModel(SortedTable(arrays["char_keys"], arrays["char_counts"])),
    )


def _open(path: Path):
    if not Path(path).is_file():
        raise ModelFileError(f"{path}: no such model file")
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise ModelFileError(f"{path}: not a readable nokta-ngram file ({error})") from None


def _meta(archive, path: Path) -> dict:
    try:
        meta = json.loads(bytes(archive["meta"]).decode("utf-8"))
    except (KeyError, ValueError, OSError, zipfile.BadZipFile, EOFError) as error:
        raise ModelFileError(f"{path}: missing or unreadable metadata ({error})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ModelFileError(f"{path}: not a {FORMAT} file")
    if meta.get("version") != VERSION:
        raise ModelFileError(f"{path}: {FORMAT} version {meta.get('version')}, this nokta reads version {VERSION}")
    return meta


def _checked(archive, name: str, dtype, ndim: int, path: Path) -> np.ndarray:
    try:
        array = archive[name]
    except (KeyError, ValueError, OSError, zipfile.BadZipFile, EOFError) as error:
        raise ModelFileError(f"{path}: array {name!r} missing or unreadable ({error})") from None
    if array.dtype != dtype or array.ndim != ndim:
        raise ModelFileError(
            f"{path}: array {name!r} has {array.dtype}{array.shape}, expected {np.dtype(dtype)} of {ndim} dims"
        )
    return array
