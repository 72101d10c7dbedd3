"""Output that replaces its target only when complete, as editors and ``sed -i`` do.

A ``StagedFile`` writes to a temporary file beside its target; ``commit`` renames it
over the target (in place, only when the output differs from it), ``discard`` removes
it. An interrupted (Ctrl-C, SIGTERM, SIGHUP) or
failed run discards, so the target is never truncated or half-written: ``nokta restore
f -o f`` and ``--in-place`` are safe. A symbolic link is followed: its target is
rewritten and the link kept. An existing target keeps its mode and (where allowed) its
owner and group; a new one gets the mode the umask gives (``0666 & ~umask``). A target
without write permission is refused. Targets that are not regular files (/dev/null, a
FIFO, a terminal) are written directly.
"""

from __future__ import annotations

import contextlib
import filecmp
import os
import signal
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from ..errors import NoktaError


class Stopped(BaseException):
    """SIGTERM or SIGHUP arrived: unwinds like KeyboardInterrupt, so staged files are discarded."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
        self.name = signal.Signals(signum).name


HELD_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def stop_on_signals() -> None:
    """Make SIGTERM and SIGHUP raise ``Stopped`` (unless ignored, as under ``nohup``); main thread only."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(signum) != signal.SIG_IGN:
            signal.signal(signum, _raise_stopped)


def _raise_stopped(signum: int, _frame: object) -> None:
    raise Stopped(signum)


class StagedFile:
    def __init__(self, target: Path, in_place: bool = False) -> None:
        self.name = target  # as the user gave it, for messages
        self.target = Path(os.path.realpath(target))  # a symbolic link's target is what changes
        self.temporary: Path | None = None
        self.in_place = in_place
        try:
            existing = _existing(self.target)
            if existing is not None and not stat.S_ISREG(existing.st_mode):
                self.handle: BinaryIO = open(self.target, "wb")  # noqa: SIM115 (closed by commit/discard)
                return
            if existing is not None and not _writable(self.target, existing):
                what = "restored in place" if in_place else "overwritten"
                raise NoktaError(f"{target}: read-only file, not {what}")
            descriptor, name = tempfile.mkstemp(dir=self.target.parent, prefix=f".{self.target.name}.", suffix=".nokta")
        except OSError as error:
            raise NoktaError(f"{target}: {error.strerror or error}") from None
        self.temporary = Path(name)
        self.handle = os.fdopen(descriptor, "wb")
        _take_attributes(descriptor, existing)

    def write(self, text: str) -> None:
        try:
            self.handle.write(text.encode("utf-8"))
        except OSError as error:
            raise NoktaError(f"{self.name}: {error.strerror or error}") from None

    def commit(self) -> None:
        try:
            self.handle.flush()
            if self.temporary:
                os.fsync(self.handle.fileno())
            self.handle.close()
            if self.temporary and self.in_place and filecmp.cmp(self.temporary, self.target, shallow=False):
                self.temporary.unlink()  # nothing restored: the file, its inode and times stay as they were
            elif self.temporary:
                os.replace(self.temporary, self.target)
        except OSError as error:
            self.discard()
            raise NoktaError(f"{self.name}: {error.strerror or error}") from None

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            self.handle.close()
        if self.temporary:
            with contextlib.suppress(FileNotFoundError):
                self.temporary.unlink()


def _existing(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except FileNotFoundError:
        return None


def _writable(path: Path, status: os.stat_result) -> bool:
    """Whether the user may write ``path``; for root (who always may), whether any write bit is set."""
    return os.access(path, os.W_OK) and bool(status.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def _take_attributes(descriptor: int, existing: os.stat_result | None) -> None:
    """Give the temporary file the target's mode, owner and group, or a new file's mode."""
    if existing is None:
        os.fchmod(descriptor, 0o666 & ~_umask())
        return
    os.fchmod(descriptor, stat.S_IMODE(existing.st_mode))
    with contextlib.suppress(PermissionError):  # only root may give a file to another owner
        os.fchown(descriptor, existing.st_uid, existing.st_gid)
        os.fchmod(descriptor, stat.S_IMODE(existing.st_mode))  # chown clears set-user/group-id bits


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def stage(target: Path, staged: list[StagedFile], in_place: bool = False) -> StagedFile:
    """A ``StagedFile`` for ``target``, appended to ``staged`` with Ctrl-C (and SIGTERM,
    SIGHUP) held back meanwhile: an interrupt between creating its temporary file and
    listing it would leave the file behind, as nobody would discard it."""
    with _signals_held():
        staged.append(StagedFile(target, in_place))
    return staged[-1]


def commit_all(files: list[StagedFile]) -> None:
    """Rename every staged file over its target, with Ctrl-C held back until all are done."""
    with _signals_held():
        for index, staged in enumerate(files):
            try:
                staged.commit()
            except NoktaError:
                for rest in files[index + 1 :]:
                    rest.discard()
                raise


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP during the block act once it is done; main thread only, as
    the CLI runs. (Handlers are swapped rather than the signals masked: a mask holds only
    the main thread, and a signal can reach any.)"""
    caught: list[int] = []
    previous = {signum: signal.signal(signum, lambda signum, _frame: caught.append(signum)) for signum in HELD_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for held in dict.fromkeys(caught):
            signal.raise_signal(held)
