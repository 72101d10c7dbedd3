"""Every kind of input path is read once and nothing in it is lost: `-`, `/dev/stdin`,
`<(...)` (a `/dev/fd/N` path), a named FIFO, as `nokta restore` (output, `--check`,
`--diff`, `--in-place` refused) and `nokta check` read them; and a UTF-8 byte-order mark
moves no column and is kept."""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from nokta_model.app.restore_io import open_sources
from nokta_model.pipeline import document_lines

NOKTA = [sys.executable, "-m", "nokta_model"]
ASCII, RESTORED = "Bugun hava cok guzel.\n", "Bugün hava çok güzel.\n"
TIMEOUT_S = 120  # a run that blocks on its input fails here instead of hanging the tests
KINDS = ("-", "/dev/stdin", "<(...)", "fifo")
#: The name each kind of path has in messages and findings.
NAMES = {"-": "-", "/dev/stdin": "/dev/stdin", "<(...)": r"/dev/fd/\d+", "fifo": r".*/fifo"}


def nokta(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([*NOKTA, *args], input=stdin, capture_output=True, timeout=TIMEOUT_S)


def nokta_reading(
    kind: str, args: list[str], text: str, folder: Path, feed: bool = True
) -> subprocess.CompletedProcess:
    """``nokta ARGS PATH`` where PATH, of ``kind``, holds ``text`` (a FIFO is fed only if ``feed``)."""
    data = text.encode("utf-8")
    if kind in ("-", "/dev/stdin"):
        return nokta(*args, kind, stdin=data)
    if kind == "<(...)":
        command = ["bash", "-c", '"$@" <(printf %s "$NOKTA_TEXT")', "bash", *NOKTA, *args]
        env = os.environ | {"NOKTA_TEXT": text}
        return subprocess.run(command, env=env, capture_output=True, timeout=TIMEOUT_S)
    fifo = folder / "fifo"
    os.mkfifo(fifo)
    if feed:
        feed_fifo(fifo, data, time.monotonic() + TIMEOUT_S)
    return nokta(*args, str(fifo))


def feed_fifo(fifo: Path, data: bytes, deadline: float) -> None:
    """Write ``data`` into ``fifo`` from a thread once a reader opens it; the thread gives up
    at ``deadline``, so it never outlives a test whose reader never comes."""

    def write() -> None:
        while True:
            try:
                descriptor = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError as error:
                if error.errno != errno.ENXIO or time.monotonic() > deadline:  # ENXIO: no reader yet
                    return
                time.sleep(0.02)  # a poll: nothing tells when the reader opens the FIFO
        os.set_blocking(descriptor, True)
        with contextlib.suppress(BrokenPipeError), open(descriptor, "wb") as stream:
            stream.write(data)

    threading.Thread(target=write, daemon=True).start()


@pytest.mark.parametrize("kind", KINDS)
def test_restore_writes_what_each_kind_of_path_holds(kind, tmp_path):
    result = nokta_reading(kind, ["restore", "--backend", "ngram"], ASCII, tmp_path)
    assert (result.returncode, result.stdout.decode(), result.stderr) == (0, RESTORED, b"")


@pytest.mark.parametrize("kind", KINDS)
def test_restore_check_exits_1_when_the_path_would_change(kind, tmp_path):
    result = nokta_reading(kind, ["restore", "--backend", "ngram", "--check"], ASCII, tmp_path)
    assert result.returncode == 1, result.stderr
    name = "standard input" if kind == "-" else NAMES[kind]
    assert re.fullmatch(f"would restore {name}\n", result.stderr.decode())


@pytest.mark.parametrize("kind", KINDS)
def test_restore_check_exits_0_when_nothing_would_change(kind, tmp_path):
    result = nokta_reading(kind, ["restore", "--backend", "ngram", "--check"], RESTORED, tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")


@pytest.mark.parametrize("kind", KINDS)
def test_restore_diff_shows_the_change(kind, tmp_path):
    result = nokta_reading(kind, ["restore", "--backend", "ngram", "--diff"], ASCII, tmp_path)
    assert result.returncode == 0, result.stderr
    header, hunk = result.stdout.decode().split("@@ -1 +1 @@\n")
    name = "standard input" if kind == "-" else NAMES[kind]
    assert re.fullmatch(f"--- {name}\n\\+\\+\\+ {name}\n", header)
    assert hunk == f"-{ASCII}+{RESTORED}"


@pytest.mark.parametrize("kind", KINDS)
def test_check_lists_the_findings_of_each_kind_of_path(kind, tmp_path):
    result = nokta_reading(kind, ["check", "--backend", "ngram"], ASCII, tmp_path)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.decode().splitlines()
    assert [re.sub(r"\(.*\)$", "", line) for line in lines] == [
        f"{name}:1:{column}: {word} -> {fixed} "
        for name in [lines[0].split(":1:")[0]]
        for column, word, fixed in ((1, "Bugun", "Bugün"), (12, "cok", "çok"), (16, "guzel", "güzel"))
    ]
    assert re.fullmatch(NAMES[kind], lines[0].split(":1:")[0])


@pytest.mark.parametrize("kind", ["/dev/stdin", "<(...)", "fifo"])
def test_in_place_refuses_a_path_that_is_not_a_regular_file(kind, tmp_path):
    """Refused before the path is opened: an unfed FIFO would block the run (and fail it at
    the timeout) if it were."""
    result = nokta_reading(kind, ["restore", "--backend", "ngram", "-i"], ASCII, tmp_path, feed=False)
    assert (result.returncode, result.stdout) == (1, b"")
    refused = "not a regular file, cannot be restored in place \\(restore it to standard output\\)"
    assert re.fullmatch(f"nokta: error: {NAMES[kind]}: {refused}\n", result.stderr.decode())


def test_in_place_refuses_standard_input_as_a_usage_error(tmp_path):
    typed = tmp_path / "typed.txt"
    typed.write_text(ASCII, encoding="utf-8")
    result = nokta("restore", "--backend", "ngram", "-i", str(typed), "-", stdin=ASCII.encode())
    assert result.returncode == 2
    refused = "nokta restore: error: --in-place restores files; standard input (-) is not one"
    assert result.stderr.decode().splitlines()[-1] == refused
    assert typed.read_text(encoding="utf-8") == ASCII  # the file named before it is not restored either


def test_standard_input_among_files_comes_in_its_place(tmp_path):
    first, last = tmp_path / "first.txt", tmp_path / "last.txt"
    first.write_text("cok\n", encoding="utf-8")
    last.write_text("guzel\n", encoding="utf-8")
    restored = nokta("restore", "--backend", "ngram", str(first), "-", str(last), stdin=ASCII.encode())
    assert (restored.returncode, restored.stdout.decode()) == (0, f"çok\n{RESTORED}güzel\n")
    checked = nokta("check", "--backend", "ngram", str(first), "-", str(last), stdin=b"cok\n")
    assert checked.returncode == 1
    names = [line.split(":1:")[0] for line in checked.stdout.decode().splitlines()]
    assert names == [str(first), "-", str(last)]


def test_standard_input_is_read_once():
    result = nokta("restore", "--backend", "ngram", "-", "-", stdin=ASCII.encode())
    assert result.returncode == 2
    assert result.stderr.decode().splitlines()[-1] == "nokta restore: error: standard input (-) can be read once"


def test_a_regular_file_streams_and_a_pipe_is_read_once_into_memory(tmp_path):
    """Only what cannot be read twice is held in memory: a regular file keeps its stream."""
    typed = tmp_path / "typed.txt"
    typed.write_text(ASCII, encoding="utf-8")
    read, write = os.pipe()
    os.write(write, ASCII.encode())
    os.close(write)
    try:
        file, pipe = open_sources([typed, Path(f"/dev/fd/{read}")], "auto")
    finally:
        os.close(read)
    assert isinstance(file.stream, io.BufferedReader) and file.stream.name == str(typed)
    assert isinstance(pipe.stream, io.BytesIO) and pipe.stream.read() == ASCII.encode()
    file.stream.close()


# --- a UTF-8 byte-order mark ---------------------------------------------------------

BOM = codecs.BOM_UTF8


def test_check_columns_after_a_byte_order_mark_are_those_without(tmp_path):
    with_bom, without = tmp_path / "bom.txt", tmp_path / "plain.txt"
    with_bom.write_bytes(BOM + ASCII.encode())
    without.write_bytes(ASCII.encode())
    found = [nokta("check", "--backend", "ngram", str(path)).stdout.decode() for path in (with_bom, without)]
    assert found[0] == found[1].replace(str(without), str(with_bom))
    assert found[0].startswith(f"{with_bom}:1:1: Bugun -> Bugün")


def test_restore_keeps_the_byte_order_mark(tmp_path):
    typed = tmp_path / "bom.txt"
    typed.write_bytes(BOM + ASCII.encode())
    assert nokta("restore", "--backend", "ngram", str(typed)).stdout == BOM + RESTORED.encode()
    assert nokta("restore", "--backend", "ngram", stdin=BOM + ASCII.encode()).stdout == BOM + RESTORED.encode()
    assert nokta("restore", "--backend", "ngram", "-i", str(typed)).returncode == 0
    assert typed.read_bytes() == BOM + RESTORED.encode()


def test_a_document_read_from_disk_has_its_lines_without_the_byte_order_mark():
    """As an editor shows the file, so the server's workspace check counts its columns."""
    assert document_lines(BOM + b"cok\r\nguzel", "bom.txt") == ["cok", "guzel"]


def test_a_bom_does_not_hide_what_opens_a_markdown_file(tmp_path):
    """A fence or front matter on line 1 is still code after a byte-order mark."""
    text = '```python\nx = "cok guzel"\n```\nBugun hava cok guzel.\n'
    typed = tmp_path / "bom.md"
    typed.write_bytes(BOM + text.encode())
    restored = nokta("restore", "--backend", "ngram", str(typed)).stdout
    assert restored == BOM + text.replace("Bugun hava cok guzel", "Bugün hava çok güzel").encode()
    matter = tmp_path / "matter.md"
    matter.write_bytes(BOM + b"---\ntitle: cok guzel\n---\nBugun hava cok guzel.\n")
    assert nokta("restore", "--backend", "ngram", str(matter)).stdout.startswith(BOM + b"---\ntitle: cok guzel\n---\n")
