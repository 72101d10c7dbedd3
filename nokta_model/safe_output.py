"""Output that replaces its target only when complete.

A ``StagedFile`` writes to a temporary file beside its target; ``commit`` renames it
over the target (keeping the target's permissions), ``discard`` removes it. An
interrupted or failed run discards, so the target is never truncated or half-written:
``nokta restore f -o f`` and ``--in-place`` are safe. Targets that are not regular
files (/dev/null, a FIFO, a terminal) are written directly.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from .errors import NoktaError


class StagedFile:
    def __init__(self, target: Path) -> None:
        self.target = target
        self.temporary: Path | None = None
        try:
            if _is_special(target):
                self.handle: BinaryIO = open(target, "wb")  # noqa: SIM115 (closed by commit/discard)
                return
            descriptor, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".nokta")
        except OSError as error:
            raise NoktaError(f"{target}: {error.strerror or error}") from None
        self.temporary = Path(name)
        self.handle = os.fdopen(descriptor, "wb")

    def write(self, text: str) -> None:
        try:
            self.handle.write(text.encode("utf-8"))
        except OSError as error:
            raise NoktaError(f"{self.target}: {error.strerror or error}") from None

    def commit(self) -> None:
        try:
            self.handle.flush()
            if self.temporary:
                os.fsync(self.handle.fileno())
            self.handle.close()
            if self.temporary:
                if self.target.exists():
                    shutil.copymode(self.target, self.temporary)
                os.replace(self.temporary, self.target)
        except OSError as error:
            self.discard()
            raise NoktaError(f"{self.target}: {error.strerror or error}") from None

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            self.handle.close()
        if self.temporary:
            with contextlib.suppress(FileNotFoundError):
                self.temporary.unlink()


def _is_special(path: Path) -> bool:
    try:
        return not stat.S_ISREG(path.stat().st_mode)
    except FileNotFoundError:
        return False


def stage(target: Path, staged: list[StagedFile]) -> StagedFile:
    """A ``StagedFile`` for ``target``, appended to ``staged`` with Ctrl-C held back
    meanwhile: an interrupt between creating its temporary file and listing it would
    leave the file behind, as nobody would discard it."""
    with _ctrl_c_held():
        staged.append(StagedFile(target))
    return staged[-1]


def commit_all(files: list[StagedFile]) -> None:
    """Rename every staged file over its target, with Ctrl-C held back until all are done."""
    with _ctrl_c_held():
        for index, staged in enumerate(files):
            try:
                staged.commit()
            except NoktaError:
                for rest in files[index + 1 :]:
                    rest.discard()
                raise


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """A Ctrl-C during the block acts once it is done; main thread only, as the CLI runs.
    (Its handler is swapped rather than the signal masked: a mask holds only the main
    thread, and the signal can reach any.)"""
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            signal.raise_signal(signal.SIGINT)
