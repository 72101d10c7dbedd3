"""Model files as ``.npz`` archives of plain arrays: no pickle, ever.

Every archive holds a ``meta`` array (UTF-8 JSON: format, version, SHA-256 of the other
arrays, and whatever the writer adds) beside named arrays. Reading checks the format,
the version, every array's dtype and number of dimensions against a schema, and each
member's bytes against the CRC-32 that the zip format keeps for it, so a truncated,
corrupt or foreign file gives a ``ModelFileError`` that says what is wrong. A CRC-32
catches accidental damage (a bad copy or download, a flipped bit) at a third of a
SHA-256's cost on every start; a hash in the meta would not stop a deliberate edit
either, since whoever rewrites an array can rewrite the meta too. The meta keeps the
arrays' SHA-256 as their identity, and the tests check the shipped files against it.
Writes go to a ``.partial`` file renamed into place when complete.

Arrays are compressed unless the writer names them ``stored``: those are written as they
are, their data aligned in the file, and read as views of the file mapped in memory, so
opening a model copies and decodes nothing for them (random hashes do not compress
anyway). ``Archive`` reads each array when it is first asked for, checked against its
CRC-32; ``load_archive`` reads them all at once.
"""

from __future__ import annotations

import hashlib
import io
import json
import mmap
import struct
import zipfile
import zlib
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import ModelFileError

ALIGN = 64  # stored arrays' data starts at a multiple of this many bytes into the file
_LOCAL_HEADER = struct.Struct("<4s22xHH")  # a zip member's local header: signature, name and extra lengths
_PADDING_ID = 0xD935  # the extra field zipalign pads members with
_MAX_NPY_HEADER = 4096
_NPY_HEADER_READERS = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}


@dataclass(frozen=True)
class ArchiveFormat:
    name: str
    version: int
    schema: dict[str, tuple[type, int]]  # array name -> (dtype, number of dimensions)
    optional: frozenset[str] = frozenset()  # arrays of the schema a file written before them lacks


def checksum(arrays: dict[str, np.ndarray]) -> str:
    digest = hashlib.sha256()
    for name in sorted(arrays):
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(arrays[name]).data)  # the array's bytes, not a copy
    return digest.hexdigest()


def save_archive(
    form: ArchiveFormat, arrays: dict[str, np.ndarray], path: Path, info: dict, stored: Collection[str] = ()
) -> None:
    """Write ``arrays`` with their meta (``info``, its format, version and checksums set
    here); the arrays named in ``stored`` uncompressed and aligned."""
    meta = {
        **info,
        "format": form.name,
        "version": form.version,
        "sha256": checksum(arrays),
        "array_sha256": {name: checksum({name: array}) for name, array in arrays.items()},
    }
    members = {"meta": np.frombuffer(json.dumps(meta, ensure_ascii=False).encode("utf-8"), dtype=np.uint8), **arrays}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with open(partial, "wb") as handle, zipfile.ZipFile(handle, "w") as archive:
        for name, array in members.items():
            _write_member(archive, handle.tell(), name, array, name in stored)
    partial.replace(path)


def _write_member(archive: zipfile.ZipFile, offset: int, name: str, array: np.ndarray, stored: bool) -> None:
    """One ``.npy`` member whose local header starts at ``offset``; a stored one is padded
    (with a zip extra field) so that its array data is aligned."""
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, np.ascontiguousarray(array), allow_pickle=False)
    member = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
    member.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    if stored:  # the .npy header itself is padded to a multiple of ALIGN
        padding = -(offset + _LOCAL_HEADER.size + len(member.filename)) % ALIGN
        if 0 < padding < 4:  # an extra field is at least its 4-byte header
            padding += ALIGN
        if padding:
            member.extra = struct.pack("<HH", _PADDING_ID, padding - 4) + bytes(padding - 4)
    archive.writestr(member, buffer.getbuffer())


class Archive:
    """An archive opened for reading: its meta checked at once, each array read and
    checked (schema, CRC-32) the first time it is asked for. Stored arrays are
    read-only views of the file mapped in memory; compressed ones are inflated."""

    def __init__(self, form: ArchiveFormat, path: Path):
        self.form, self.path = form, Path(path)
        self._map, self._members = _map_members(form, self.path)
        self.meta = self._checked_meta()

    def __getitem__(self, name: str) -> np.ndarray:
        """The array ``name`` of the schema, its dtype and dimensions checked."""
        dtype, ndim = self.form.schema[name]
        array = self._member(name)
        if array.dtype != dtype or array.ndim != ndim:
            raise ModelFileError(
                f"{self.path}: array {name!r} has {array.dtype}{array.shape}, expected {np.dtype(dtype)} of {ndim} dims"
            )
        return array

    def __contains__(self, name: str) -> bool:
        return f"{name}.npy" in self._members

    def _checked_meta(self) -> dict:
        try:
            meta = json.loads(bytes(self._member("meta")).decode("utf-8"))
        except (ModelFileError, ValueError) as error:
            raise ModelFileError(f"{self.path}: missing or unreadable metadata ({error})") from None
        form = self.form
        if not isinstance(meta, dict) or meta.get("format") != form.name:
            raise ModelFileError(f"{self.path}: not a {form.name} file")
        if meta.get("version") != form.version:
            raise ModelFileError(
                f"{self.path}: {form.name} version {meta.get('version')}, this nokta reads version {form.version}"
            )
        return meta

    def _member(self, name: str) -> np.ndarray:
        """The member's array, its bytes checked against the member's CRC-32."""
        member = self._members.get(f"{name}.npy")
        if member is None:
            raise ModelFileError(f"{self.path}: array {name!r} missing")
        start = _data_start(self._map, member, self.path)
        data = memoryview(self._map)[start : start + member.compress_size]
        if member.compress_type == zipfile.ZIP_DEFLATED:
            try:
                data = memoryview(zlib.decompress(data, -zlib.MAX_WBITS, member.file_size))
            except zlib.error as error:
                raise ModelFileError(f"{self.path}: array {name!r} unreadable ({error})") from None
            _forget_pages(self._map, start, member.compress_size)
        elif member.compress_type != zipfile.ZIP_STORED:
            raise ModelFileError(f"{self.path}: array {name!r} compressed in a way nokta does not read")
        if zlib.crc32(data) != member.CRC:
            raise ModelFileError(f"{self.path}: checksum mismatch in {name!r}, the file is corrupt")
        return _npy_array(data, name, self.path)


def _map_members(form: ArchiveFormat, path: Path) -> tuple[mmap.mmap, dict[str, zipfile.ZipInfo]]:
    """The file mapped in memory, and its zip members by name."""
    if not path.is_file():
        raise ModelFileError(f"{path}: no such model file")
    try:
        with open(path, "rb") as handle, zipfile.ZipFile(handle) as archive:
            members = {member.filename: member for member in archive.infolist()}
            return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ), members
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise ModelFileError(f"{path}: not a readable {form.name} file ({error})") from None


def _forget_pages(mapped: mmap.mmap, start: int, length: int) -> None:
    """Drop the mapped pages wholly inside [start, start + length) from this process's
    resident memory: a compressed member, once inflated, is not read again, and its
    pages would otherwise count in the process's RSS for as long as the file is mapped
    (27 MB of ``ngram.npz``). The system's page cache keeps them; elsewhere than Linux
    and macOS nothing is dropped."""
    if not hasattr(mmap, "MADV_DONTNEED"):
        return
    first = -(-start // mmap.PAGESIZE) * mmap.PAGESIZE
    end = (start + length) // mmap.PAGESIZE * mmap.PAGESIZE
    if end > first:
        mapped.madvise(mmap.MADV_DONTNEED, first, end - first)


def _data_start(mapped: mmap.mmap, member: zipfile.ZipInfo, path: Path) -> int:
    """Where the member's data begins: after its local header, whose name and extra
    field may differ in length from the central directory's."""
    offset = member.header_offset
    if offset + _LOCAL_HEADER.size > len(mapped):
        raise ModelFileError(f"{path}: truncated file")
    signature, name_length, extra_length = _LOCAL_HEADER.unpack_from(mapped, offset)
    start = offset + _LOCAL_HEADER.size + name_length + extra_length
    if signature != b"PK\x03\x04" or start + member.compress_size > len(mapped):
        raise ModelFileError(f"{path}: truncated or corrupt file")
    return start


def _npy_array(data: memoryview, name: str, path: Path) -> np.ndarray:
    """The array a ``.npy`` image holds, as a view of it; never an object array."""
    header = io.BytesIO(data[:_MAX_NPY_HEADER])
    try:
        read_header = _NPY_HEADER_READERS.get(np.lib.format.read_magic(header))
        if read_header is None:
            raise ValueError("an .npy version nokta does not read")
        shape, fortran_order, dtype = read_header(header)
    except (ValueError, EOFError) as error:
        raise ModelFileError(f"{path}: array {name!r} unreadable ({error})") from None
    count = int(np.prod(shape, dtype=np.int64))
    if dtype.hasobject or fortran_order or header.tell() + count * dtype.itemsize != len(data):
        raise ModelFileError(f"{path}: array {name!r} is not a plain array of its stated size")
    return np.frombuffer(data, dtype=dtype, count=count, offset=header.tell()).reshape(shape)


def read_meta(form: ArchiveFormat, path: Path) -> dict:
    return Archive(form, path).meta


def load_archive(form: ArchiveFormat, path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    """(meta, arrays) of a checked archive, every array it holds read (an optional one it
    lacks left out)."""
    archive = Archive(form, path)
    return archive.meta, {name: archive[name] for name in form.schema if name not in form.optional or name in archive}
