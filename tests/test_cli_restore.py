"""`nokta restore` on real files and pipes: safe output, streaming, formats, workers, errors."""

from __future__ import annotations

import fcntl
import json
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

NOKTA = [sys.executable, "-m", "nokta_model", "restore", "--backend", "ngram"]
SENTENCES = [
    "Bugun hava cok guzel, {n}. kez disari ciktik.",
    "Turkiye'nin baskenti Ankara'dir ve {n} kisi orada yasiyor.",
    "Yarin sabah erkenden yola cikacagiz, {n} kilometre yolumuz var.",
]


def write_text(path: Path, megabytes: float) -> bytes:
    lines, size, n = [], 0, 0
    while size < megabytes * 1_000_000:
        line = SENTENCES[n % 3].format(n=n) + "\n"
        lines.append(line)
        size += len(line)
        n += 1
    data = "".join(lines).encode()
    path.write_bytes(data)
    return data


def run(*args: str, stdin: bytes = b"", **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*NOKTA, *args], input=stdin, capture_output=True, timeout=300, **kwargs)


def _default_signals() -> None:
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


def interrupt_when_staged(args: list[str], folder: Path, signum: int = signal.SIGINT) -> subprocess.CompletedProcess:
    """Start a restore and send it ``signum`` once its temporary output exists (mid-run).
    The child gets the signals' default actions, as from a terminal: a test run started in
    the background of a shell has SIGINT ignored, and Python keeps that for its children."""
    process = subprocess.Popen(
        [*NOKTA, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=_default_signals
    )
    deadline = time.monotonic() + 60
    while not list(folder.glob(".*.nokta")) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.01)  # a poll: nothing tells when the output file appears
    assert process.poll() is None, "the run ended before it could be interrupted"
    process.send_signal(signum)
    _, stderr = process.communicate(timeout=60)
    return subprocess.CompletedProcess(args, process.returncode, b"", stderr)


@pytest.mark.parametrize(
    ("mode", "signum", "status", "message"),
    [
        ("output", signal.SIGINT, 130, "nokta: interrupted\n"),
        ("in-place", signal.SIGINT, 130, "nokta: interrupted\n"),
        ("in-place", signal.SIGTERM, 143, "nokta: stopped by SIGTERM\n"),
        ("in-place --jobs 2", signal.SIGTERM, 143, "nokta: stopped by SIGTERM\n"),  # no resource-tracker warning
        ("output", signal.SIGHUP, 129, "nokta: stopped by SIGHUP\n"),
    ],
)
def test_ctrl_c_sigterm_and_sighup_leave_every_file_whole(tmp_path, mode, signum, status, message):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    original = write_text(first, 6)
    second.write_bytes(original)
    args = [str(first), "-o", str(first)] if mode == "output" else ["--in-place", str(first), str(second)]
    result = interrupt_when_staged(args + mode.split()[1:], tmp_path, signum)
    assert result.returncode == status
    assert result.stderr.decode() == message
    assert first.read_bytes() == original and second.read_bytes() == original
    assert not list(tmp_path.glob(".*.nokta"))  # no temporary file left behind


def test_ctrl_c_ends_the_progress_bar_before_the_message(tmp_path):
    """On a terminal the bar is drawn on standard error; after Ctrl-C it is ended (its line
    closed) before "nokta: interrupted", and never drawn again after it."""
    write_text(tmp_path / "in.txt", 6)
    terminal = read_terminal(["in.txt", "-o", "out.txt"], tmp_path, interrupt_after=b"B/s]")
    assert terminal.returncode == 130
    *bar, last = terminal.stderr.decode().split("\r\n")[:-1]  # a terminal ends lines with CR LF
    assert last == "nokta: interrupted" and terminal.stderr.endswith(b"\r\n")
    assert len(bar) == 1 and bar[0].rsplit("\r", 1)[-1].startswith("in.txt: ") and "B/s]" in bar[0]


def read_terminal(args: list[str], cwd: Path, interrupt_after: bytes) -> subprocess.CompletedProcess:
    """Run a restore with standard error on a pseudo-terminal (80 columns), send SIGINT once
    ``interrupt_after`` was written to it, and return all it wrote there."""
    controller, terminal = os.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    process = subprocess.Popen(
        [*NOKTA, *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=terminal, preexec_fn=_default_signals
    )
    os.close(terminal)
    written, interrupted = b"", False
    while chunk := _read_some(controller):
        written += chunk
        if not interrupted and interrupt_after in written:
            process.send_signal(signal.SIGINT)
            interrupted = True
    os.close(controller)
    return subprocess.CompletedProcess(args, process.wait(timeout=60), b"", written)


def _read_some(controller: int) -> bytes:
    """What the terminal has (b"" once every writer closed it)."""
    ready, _, _ = select.select([controller], [], [], 60)
    assert ready, "nothing written to the terminal for 60 s"
    try:
        return os.read(controller, 4096)
    except OSError:  # EIO: the process closed its end
        return b""


def test_in_place_restores_each_file_and_keeps_its_mode(tmp_path):
    note = tmp_path / "note.txt"
    note.write_text("Bugun hava cok guzel.\n", encoding="utf-8")
    note.chmod(0o640)
    result = run("--in-place", str(note))
    assert result.returncode == 0, result.stderr
    assert note.read_text(encoding="utf-8") == "Bugün hava çok güzel.\n"
    assert note.stat().st_mode & 0o777 == 0o640


def test_a_line_comes_out_before_stdin_closes():
    process = subprocess.Popen(NOKTA, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    process.stdin.write(b"Bugun hava cok guzel.\n")
    process.stdin.flush()
    assert process.stdout.readline() == "Bugün hava çok güzel.\n".encode()
    process.stdin.write(b"Yarin gelecegim.\n")
    process.stdin.flush()
    assert process.stdout.readline() == "Yarın geleceğim.\n".encode()
    process.stdin.close()
    assert process.wait(timeout=60) == 0


def peak_rss_kb(path: Path) -> int:
    """Peak resident memory of one `nokta restore` process on ``path``."""
    probe = (
        "import resource, subprocess, sys; "
        f"subprocess.run({[*NOKTA, str(path)]!r}, stdout=subprocess.DEVNULL, check=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    return int(subprocess.run([sys.executable, "-c", probe], capture_output=True, check=True).stdout)


def test_memory_does_not_grow_with_the_file(tmp_path):
    small, large = tmp_path / "small.txt", tmp_path / "large.txt"
    write_text(small, 1)
    write_text(large, 8)
    assert peak_rss_kb(large) - peak_rss_kb(small) < 20_000


def test_a_huge_line_is_restored_in_pieces():
    line = "cok guzel bir gun " * 20_000 + "\n"  # 360,000 characters, no line break
    result = run(stdin=line.encode())
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode() == "çok güzel bir gün " * 20_000 + "\n"


def test_markup_is_kept_and_only_turkish_prose_restored(tmp_path):
    note = tmp_path / "note.md"
    note.write_text(
        "Detaylar icin [belgelere bakin](https://ornek.com/cok). @Ozlem bunu gordu.\n\n"
        "It is urgent and this sentence is English.\n\n"
        "```\ncikti = degismemeli()\n```\n",
        encoding="utf-8",
    )
    paper = tmp_path / "paper.tex"
    paper.write_text("\\textbf{cok guzel} bir gun. $x_i = cok$\n", encoding="utf-8")
    page = tmp_path / "page.html"
    page.write_text('<p>Bugun <b>hava</b> cok guzel.</p><a href="/cok/sayfa">Sayfaya git</a>\n', encoding="utf-8")
    result = run(str(note), str(paper), str(page))
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode() == (
        "Detaylar için [belgelere bakın](https://ornek.com/cok). @Ozlem bunu gördü.\n\n"
        "It is urgent and this sentence is English.\n\n"
        "```\ncikti = degismemeli()\n```\n"
        "\\textbf{çok güzel} bir gün. $x_i = cok$\n"
        '<p>Bugün <b>hava</b> çok güzel.</p><a href="/cok/sayfa">Sayfaya git</a>\n'
    )


def test_format_option_overrides_the_extension(tmp_path):
    note = tmp_path / "note.txt"
    note.write_text("```\ncok\n```\ncok guzel\n", encoding="utf-8")
    assert run(str(note)).stdout.decode() == "```\nçok\n```\nçok güzel\n"
    assert run(str(note), "--format", "markdown").stdout.decode() == "```\ncok\n```\nçok güzel\n"


def test_two_workers_give_the_same_bytes(tmp_path):
    source = tmp_path / "in.txt"
    write_text(source, 0.3)
    one = run(str(source), "--jobs", "1")
    two = subprocess.Popen([*NOKTA, str(source), "--jobs", "2"], stdout=subprocess.PIPE, start_new_session=True)
    stdout, _ = two.communicate(timeout=300)
    assert one.returncode == two.returncode == 0
    assert one.stdout == stdout and "çok güzel".encode() in stdout
    # no worker outlives the command (workers run multiprocessing's spawn_main)
    workers = subprocess.run(["pgrep", "-s", str(two.pid), "-f", "spawn_main"], capture_output=True)
    assert workers.stdout == b""


def test_version():
    result = subprocess.run([sys.executable, "-m", "nokta_model", "--version"], capture_output=True, timeout=60)
    assert result.returncode == 0 and result.stdout.decode().startswith("nokta ")


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["-o", "/dev/full"], b"cok guzel\n", "/dev/full: No space left on device"),
        (["--device", "cuda", "--backend", "default"], b"cok\n", "device 'cuda' is not available"),
        ([], "çok güzel".encode("utf-16"), "looks like UTF-16"),
        ([], "güzel ışık".encode("cp1254"), "Windows-1254"),
    ],
)
def test_system_errors_give_one_line(args, stdin, message):
    if message.startswith("device") and _cuda_available():
        pytest.skip("this machine has CUDA")
    result = run(*args, stdin=stdin)
    err = result.stderr.decode()
    assert result.returncode == 1 and message in err and err.count("\n") == 1, err


def test_a_closed_pipe_and_a_closed_stdout_give_one_line(tmp_path):
    source = tmp_path / "in.txt"
    write_text(source, 2)
    piped = subprocess.run(
        f"{' '.join(NOKTA)} {source} | head -c 10 > /dev/null; exit ${{PIPESTATUS[0]}}",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        timeout=120,
    )
    assert piped.returncode == 1 and piped.stderr.decode() == (
        "nokta: error: standard output was closed before the end (broken pipe)\n"
    )
    closed = subprocess.run([*NOKTA, str(source)], stdout=None, stderr=subprocess.PIPE, timeout=60, **_closed_stdout())
    message = closed.stderr.decode()  # "is closed", or "Bad file descriptor" once fd 1 is reused for reading
    assert closed.returncode == 1 and message.startswith("nokta: error: standard output") and message.count("\n") == 1


def _closed_stdout() -> dict:
    return {"preexec_fn": lambda: os.close(1)}


def _cuda_available() -> bool:
    probe = "import torch, json; print(json.dumps(torch.cuda.is_available()))"
    return json.loads(subprocess.run([sys.executable, "-c", probe], capture_output=True, check=True).stdout)


def test_ctrl_c_while_a_file_is_staged_acts_once_it_is_listed_for_discarding(tmp_path, monkeypatch):
    from nokta_model.app import safe_output

    real = safe_output.StagedFile

    def interrupted(target: Path, in_place: bool) -> safe_output.StagedFile:
        staged_file = real(target, in_place)  # its temporary file exists, but is listed nowhere yet
        signal.raise_signal(signal.SIGINT)
        return staged_file

    monkeypatch.setattr(safe_output, "StagedFile", interrupted)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal
    staged: list = []
    try:
        with pytest.raises(KeyboardInterrupt):
            safe_output.stage(tmp_path / "a.txt", staged)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert len(staged) == 1
    staged[0].discard()
    assert not list(tmp_path.glob(".*.nokta"))
