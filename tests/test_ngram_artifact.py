"""The count-based model's file (format 3): hash keys read in place, the rest inflated when
first used, each array checked; and the upgrade of a version 2 file."""

import mmap
import struct
import zipfile

import numpy as np
import pytest

from nokta_model import charctx, npz
from nokta_model.charctx import DEFAULT_CONTEXT_MODEL
from nokta_model.errors import ModelFileError
from nokta_model.ngram.artifact import ARCHIVE, DEFAULT_ARTIFACT, load_model, save_model, upgrade
from nokta_model.ngram.model import NgramRestorer
from nokta_model.ngram.tables import delta_planes
from nokta_model.training.ngram_counts import train_ngram
from tests.tiny_corpus import write_tiny_corpus

TRAIN = ["Bu yasa meclisten geçti.", "Çok yaşa sen de.", "Yaşa ülkem, yaşa!", "Kaşık ile çorba içtik."] * 3
LINES = ["Cok yasa sen de.", "Bu yasa meclisten gecti.", "Kasikcilarimizdanmissiniz"]  # the last: unseen
PLAIN_KEYS = ("key_hashes", "english_keys", "capital_keys", "acronym_keys")


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    corpus = write_tiny_corpus(tmp_path_factory.mktemp("corpus"), TRAIN, ["ışık"])
    return train_ngram(corpus, log=lambda _: None)


def test_the_shipped_lexicon_keys_are_read_in_place_from_the_mapped_file():
    archive = npz.Archive(ARCHIVE, DEFAULT_ARTIFACT)
    keys = archive["key_hashes"]
    assert not keys.flags.writeable and not keys.flags.owndata  # a view of the file, not a copy
    assert keys.flags.aligned and keys.dtype == np.int64
    assert np.all(keys[1:] > keys[:-1])
    with zipfile.ZipFile(DEFAULT_ARTIFACT) as archive_zip:
        kinds = {member.filename: member.compress_type for member in archive_zip.infolist()}
    assert kinds["key_hashes.npy"] == zipfile.ZIP_STORED and kinds["masks.npy"] == zipfile.ZIP_DEFLATED


def test_a_model_file_is_a_plain_npz_that_numpy_reads(tiny_model, tmp_path):
    path = tmp_path / "tiny.npz"
    save_model(tiny_model, path, {})
    with np.load(path, allow_pickle=False) as archive:
        np.testing.assert_array_equal(archive["key_hashes"], tiny_model.lexicon.key_table.keys)
        np.testing.assert_array_equal(archive["counts"], tiny_model.lexicon.counts)


def test_the_character_contexts_are_read_when_an_unseen_word_first_needs_them(tiny_model, tmp_path):
    """A corrupt character table goes unnoticed until then, and is a clear error there."""
    path = tmp_path / "tiny.npz"
    save_model(tiny_model, path, {})
    _damage(path, "char_counts")
    restorer = NgramRestorer(load_model(path))
    assert restorer.restore(LINES[:2]) == ["Çok yaşa sen de.", "Bu yasa meclisten geçti."]
    with pytest.raises(ModelFileError, match=r"tiny\.npz: .*'char_counts'"):
        restorer.restore(LINES[2:])


@pytest.mark.parametrize(("form", "path"), [(ARCHIVE, DEFAULT_ARTIFACT), (charctx.ARCHIVE, DEFAULT_CONTEXT_MODEL)])
def test_the_shipped_arrays_are_those_their_writer_recorded(form, path):
    """The full SHA-256 of every array, too slow to repeat on every load (which checks CRC-32)."""
    meta, arrays = npz.load_archive(form, path)
    assert npz.checksum(arrays) == meta["sha256"]


def _damage(path, name):
    """Flip a bit in the middle of member ``name``'s data, as a bad copy would."""
    with zipfile.ZipFile(path) as archive:
        member = archive.getinfo(f"{name}.npy")
    data = bytearray(path.read_bytes())
    name_length, extra_length = struct.unpack_from("<HH", data, member.header_offset + 26)
    data[member.header_offset + 30 + name_length + extra_length + member.compress_size // 2] ^= 1
    path.write_bytes(data)


def test_a_version_2_file_is_refused_and_upgraded_to_the_same_model(tiny_model, tmp_path):
    current = tmp_path / "current.npz"
    save_model(tiny_model, current, {"note": "kept"})
    old = tmp_path / "old.npz"
    _write_version_2(current, old)
    with pytest.raises(ModelFileError, match="version 2, this nokta reads version 3"):
        load_model(old)
    upgraded = tmp_path / "upgraded.npz"
    upgrade(old, upgraded)
    assert npz.read_meta(ARCHIVE, upgraded)["note"] == "kept"
    assert NgramRestorer(load_model(upgraded)).restore(LINES) == NgramRestorer(tiny_model).restore(LINES)


def _write_version_2(current, old):
    """The layout of version 2: every key array as compressed delta planes."""
    archive = npz.Archive(ARCHIVE, current)
    arrays = {name: archive[name] for name in ARCHIVE.schema}
    arrays.update({name: delta_planes(arrays[name]) for name in PLAIN_KEYS})
    schema = {**ARCHIVE.schema, **{name: (np.uint8, 2) for name in PLAIN_KEYS}}
    npz.save_archive(npz.ArchiveFormat(ARCHIVE.name, 2, schema), arrays, old, archive.meta)


def _resident_kb(path) -> int:
    """Resident KiB of this process's mappings of ``path`` (Linux's smaps)."""
    resident, inside = 0, False
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            fields = line.split()
            if "-" in fields[0] and len(fields) >= 5:
                inside = fields[-1] == str(path)
            elif inside and fields[0] == "Rss:":
                resident += int(fields[1])
    return resident


@pytest.mark.skipif(not hasattr(mmap, "MADV_DONTNEED"), reason="madvise")
def test_a_compressed_array_once_inflated_leaves_its_file_pages_out_of_memory(tmp_path):
    form = npz.ArchiveFormat("test", 1, {"stored": (np.int64, 1), "packed": (np.int64, 1)})
    packed = np.random.default_rng(0).integers(0, 2**62, size=1_000_000)  # 8 MB that barely compresses
    path = tmp_path / "arrays.npz"
    npz.save_archive(form, {"stored": np.arange(1000), "packed": packed}, path, {}, stored=["stored"])
    archive = npz.Archive(form, path)
    np.testing.assert_array_equal(archive["packed"], packed)
    np.testing.assert_array_equal(archive["packed"], packed)  # read again from the dropped pages
    assert archive["stored"][-1] == 999
    assert _resident_kb(path.resolve()) < 1024  # of 8 MB mapped


def test_loaded_tables_hold_narrow_types_with_the_same_lookups(tiny_model, tmp_path):
    """Masks as int32 and the character counts as uint16: half their bytes in memory."""
    path = tmp_path / "tiny.npz"
    save_model(tiny_model, path, {})
    loaded = load_model(path)
    assert loaded.lexicon.masks.dtype == np.int32 and loaded.chars.table.values.dtype == np.uint16
    np.testing.assert_array_equal(loaded.lexicon.masks, tiny_model.lexicon.masks)
    np.testing.assert_array_equal(loaded.chars.table.values, tiny_model.chars.table.values)
    assert NgramRestorer(loaded).restore(LINES) == NgramRestorer(tiny_model).restore(LINES)


def test_a_loaded_model_written_again_reads_back_the_same(tiny_model, tmp_path):
    """The writer states the file's dtypes, whatever the narrowed ones held in memory."""
    first, second = tmp_path / "first.npz", tmp_path / "second.npz"
    save_model(tiny_model, first, {})
    save_model(load_model(first), second, {})
    again = load_model(second)
    np.testing.assert_array_equal(again.lexicon.masks, tiny_model.lexicon.masks)
    assert NgramRestorer(again).restore(LINES) == NgramRestorer(tiny_model).restore(LINES)
