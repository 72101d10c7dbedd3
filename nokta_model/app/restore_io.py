"""`nokta restore`'s inputs and standard output: files or standard input as streams of
decided pieces, each under its configuration (``nokta_model.config``: words accepted as
typed, ignore patterns, excluded files), a progress bar on a terminal, and unified diffs
for ``--diff``."""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Generator
from dataclasses import dataclass
from io import BufferedIOBase, BytesIO
from pathlib import Path
from typing import TextIO, cast

from ..check.words import word_key
from ..config import Config, ConfigCache
from ..errors import NoktaError
from ..pipeline import Piece, file_ignores, prose_batches
from ..prose import PLAIN, Masker, format_for_path, masker_for, with_rules

#: A FILE argument that names standard input, as ``nokta check -`` has it.
STANDARD_INPUT = Path("-")
_DIRECTIVE = b"nokta:"
_PROBE_BYTES = 1 << 16


@dataclass
class Source:
    name: str
    stream: BufferedIOBase
    size: int | None  # bytes, for files
    masker: Masker  # the format's, with directives and the configuration's ignore patterns
    path: Path | None = None
    #: Words accepted as typed (``word_key``s): the configuration's and, for a file, those
    #: its ``nokta: ignore`` directives name (standard input: from the directive's line on).
    ignores: frozenset[str] = frozenset()
    excluded: bool = False  # by the configuration: its text is passed through as it is


def open_sources(files: list[Path], format_name: str, whole: bool = False, in_place: bool = False) -> list[Source]:
    """The inputs (standard input when ``files`` is empty, or where one is ``-``) as
    streams, each with its configuration (standard input: the current folder's), each
    opened once. ``whole`` reads each into memory first (for a diff); ``in_place`` refuses,
    before any is opened, a FILE that is not a regular file."""
    if in_place:
        _refuse_unwritable(files)
    configs = ConfigCache()
    return [
        _standard_input(configs.config_for(Path.cwd()), format_name, whole)
        if path == STANDARD_INPUT
        else _file_source(path, configs.config_for(path), format_name, whole)
        for path in files or [STANDARD_INPUT]
    ]


def _standard_input(config: Config, format_name: str, whole: bool) -> Source:
    masker = with_rules(PLAIN if format_name == "auto" else masker_for(format_name), config.ignore_regex)
    stdin = cast(BufferedIOBase, sys.stdin.buffer)
    return Source("standard input", BytesIO(stdin.read()) if whole else stdin, None, masker, None, _words(config))


def _file_source(path: Path, config: Config, format_name: str, whole: bool) -> Source:
    format_masker = masker_for(format_for_path(str(path)) if format_name == "auto" else format_name)
    masker = with_rules(format_masker, config.ignore_regex)
    excluded = config.excludes(path)
    try:
        stream, size = _open_once(path, whole)
        ignores = _words(config) | (frozenset() if excluded else _directive_words(stream, str(path), masker))
    except OSError as error:
        raise NoktaError(f"{path}: {error.strerror or error}") from None
    return Source(str(path), stream, size, masker, path, ignores, excluded)


def _open_once(path: Path, whole: bool) -> tuple[BufferedIOBase, int]:
    """``path``'s stream and size in bytes: a regular file streams (unless ``whole``);
    anything else (a pipe, ``/dev/stdin``, ``<(...)``'s ``/dev/fd/N``, a FIFO) can be read
    only once, so it is read into memory."""
    stream = open(path, "rb")  # noqa: SIM115 (closed by the caller, or here once read)
    status = os.fstat(stream.fileno())
    if stat.S_ISREG(status.st_mode) and not whole:
        return stream, status.st_size
    with stream:
        data = stream.read()
    return BytesIO(data), len(data)


def _refuse_unwritable(files: list[Path]) -> None:
    """NoktaError for the first FILE that is not a regular file: its bytes can be read only
    once and it has no place to be rewritten, so ``--in-place`` cannot restore it."""
    for path in files:
        try:
            mode = path.stat().st_mode
        except OSError:
            continue  # opening it names the error
        if not stat.S_ISREG(mode):
            raise NoktaError(f"{path}: not a regular file, cannot be restored in place (restore it to standard output)")


def _words(config: Config) -> frozenset[str]:
    return frozenset(word_key(word) for word in config.words)


def _directive_words(stream: BufferedIOBase, name: str, masker: Masker) -> frozenset[str]:
    """The words a file's ``nokta: ignore`` directives name: a first pass, made only when
    the file has a directive at all; the stream is left at its start."""
    tail = b""
    try:
        while chunk := stream.read(_PROBE_BYTES):
            if _DIRECTIVE in tail + chunk:
                stream.seek(0)
                return file_ignores(stream, name, masker)
            tail = chunk[-len(_DIRECTIVE) :]
        return frozenset()
    finally:
        stream.seek(0)


class StandardOutput:
    """Standard output as bytes, flushed after every batch (so a pipe sees each line)."""

    def __init__(self) -> None:
        try:
            os.fstat(1)
        except OSError:
            raise NoktaError("standard output is closed") from None
        self.stream = open(1, "wb", closefd=False)  # noqa: SIM115

    def write(self, text: str) -> None:
        try:
            self.stream.write(text.encode("utf-8"))
            self.stream.flush()
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # nothing more reaches the closed pipe
            raise NoktaError("standard output was closed before the end (broken pipe)") from None
        except OSError as error:
            raise NoktaError(f"standard output: {error.strerror or error}") from None


def source_batches(source: Source) -> Generator[list[tuple[Piece, str]]]:
    """The source's batches, with a progress bar on a terminal for a file; ``close()`` ends the bar."""
    batches = prose_batches(source.stream, source.name, source.masker, source.ignores)
    if source.size is None or not sys.stderr.isatty():
        yield from (decided for decided, _ in batches)
        return
    from tqdm import tqdm  # a costly import, made only when a bar is shown

    terminal = _LineEnds(sys.stderr)
    try:
        # delay: no bar for a file done at once, and none drawn in the constructor, where a
        # Ctrl-C would leave it to be drawn again at exit (after "nokta: interrupted")
        with tqdm(total=source.size, unit="B", unit_scale=True, desc=source.name, delay=0.5, file=terminal) as bar:
            for decided, read in batches:
                bar.update(read - bar.n)
                yield decided
    finally:
        terminal.end_line()


class _LineEnds:
    """Standard error as the progress bar writes it, remembering whether the bar's line is
    still open: a Ctrl-C while tqdm draws it can leave tqdm closing without ending it."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.open = stream, False

    def write(self, text: str) -> int:
        if text:
            self.open = not text.endswith("\n")
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()

    def end_line(self) -> None:
        if self.open:
            self.write("\n")
            self.flush()


_LINE_RE = re.compile(r"[^\n]*\n|[^\n]+")


def unified_diff(before: str, after: str, name: str) -> str:
    """A unified diff that ``patch`` applies, with its "No newline at end of file" marks."""
    import difflib  # only ``--diff`` needs it

    lines = difflib.unified_diff(_LINE_RE.findall(before), _LINE_RE.findall(after), name, name)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
