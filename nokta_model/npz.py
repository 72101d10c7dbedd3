"""Model files as compressed ``.npz`` archives of plain arrays: no pickle, ever.

Every archive holds a ``meta`` array (UTF-8 JSON: format, version, SHA-256 of the other
arrays, and whatever the writer adds) beside named arrays. Reading checks the format,
the version, every array's dtype and number of dimensions against a schema, and the
checksum, so a truncated, corrupt or foreign file gives a ``ModelFileError`` that says
what is wrong. Writes go to a ``.partial`` file renamed into place when complete.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
from numpy.lib.npyio import NpzFile
from numpy.typing import DTypeLike

from .errors import ModelFileError


@dataclass(frozen=True)
class ArchiveFormat:
    name: str
    version: int
    schema: dict[str, tuple[type, int]]  # array name -> (dtype, number of dimensions)


def checksum(arrays: dict[str, np.ndarray]) -> str:
    digest = hashlib.sha256()
    for name in sorted(arrays):
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(arrays[name]).data)  # the array's bytes, not a copy
    return digest.hexdigest()


def save_archive(form: ArchiveFormat, arrays: dict[str, np.ndarray], path: Path, info: dict) -> None:
    meta = {"format": form.name, "version": form.version, "sha256": checksum(arrays), **info}
    meta_bytes = np.frombuffer(json.dumps(meta, ensure_ascii=False).encode("utf-8"), dtype=np.uint8)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with open(partial, "wb") as handle:
        np.savez_compressed(handle, meta=meta_bytes, **cast(dict[str, Any], arrays))  # no key is a savez option
    partial.replace(path)


def read_meta(form: ArchiveFormat, path: Path) -> dict:
    with _open(form, path) as archive:
        return _meta(form, archive, path)


def load_archive(form: ArchiveFormat, path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    """(meta, arrays) of a checked archive."""
    with _open(form, path) as archive:
        meta = _meta(form, archive, path)
        arrays = {name: _checked(archive, name, dtype, ndim, path) for name, (dtype, ndim) in form.schema.items()}
    if checksum(arrays) != meta.get("sha256"):
        raise ModelFileError(f"{path}: checksum mismatch, the file is corrupt")
    return meta, arrays


def _open(form: ArchiveFormat, path: Path) -> NpzFile:
    if not Path(path).is_file():
        raise ModelFileError(f"{path}: no such model file")
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise ModelFileError(f"{path}: not a readable {form.name} file ({error})") from None


def _meta(form: ArchiveFormat, archive: NpzFile, path: Path) -> dict:
    try:
        meta = json.loads(bytes(archive["meta"]).decode("utf-8"))
    except (KeyError, ValueError, OSError, zipfile.BadZipFile, EOFError) as error:
        raise ModelFileError(f"{path}: missing or unreadable metadata ({error})") from None
    if not isinstance(meta, dict) or meta.get("format") != form.name:
        raise ModelFileError(f"{path}: not a {form.name} file")
    if meta.get("version") != form.version:
        raise ModelFileError(
            f"{path}: {form.name} version {meta.get('version')}, this nokta reads version {form.version}"
        )
    return meta


def _checked(archive: NpzFile, name: str, dtype: DTypeLike, ndim: int, path: Path) -> np.ndarray:
    try:
        array = archive[name]
    except (KeyError, ValueError, OSError, zipfile.BadZipFile, EOFError) as error:
        raise ModelFileError(f"{path}: array {name!r} missing or unreadable ({error})") from None
    if array.dtype != dtype or array.ndim != ndim:
        raise ModelFileError(
            f"{path}: array {name!r} has {array.dtype}{array.shape}, expected {np.dtype(dtype)} of {ndim} dims"
        )
    return array
