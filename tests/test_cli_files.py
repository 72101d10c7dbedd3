"""`nokta restore` treats files as coreutils and editors do: modes, owners, links, read-only
files, binary and empty files, and every exit status as docs/cli.md lists it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nokta_model.app.cli import FORMAT_HELP, format_name

NOKTA = [sys.executable, "-m", "nokta_model"]
ROOT = Path(__file__).resolve().parents[1]
ASCII, RESTORED = "Bugun hava cok guzel.\n", "Bugün hava çok güzel.\n"


def restore(*args: str, stdin: bytes = b"", umask: int | None = None) -> subprocess.CompletedProcess:
    set_umask = (lambda: os.umask(umask)) if umask is not None else None
    command = [*NOKTA, "restore", "--backend", "ngram", *args]
    return subprocess.run(command, input=stdin, capture_output=True, timeout=120, preexec_fn=set_umask)


def one_line(result: subprocess.CompletedProcess) -> str:
    err = result.stderr.decode()
    assert err.count("\n") == 1 and err.startswith("nokta: error: "), err
    return err


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_output_file_gets_the_mode_the_umask_gives(tmp_path, umask, mode):
    source, target = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_text(ASCII, encoding="utf-8")
    assert restore(str(source), "-o", str(target), umask=umask).returncode == 0
    assert target.read_text(encoding="utf-8") == RESTORED
    assert target.stat().st_mode & 0o7777 == mode


def test_an_existing_output_file_keeps_its_mode_and_owner(tmp_path):
    source, target = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_text(ASCII, encoding="utf-8")
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o640)
    owner = (1, 1) if os.geteuid() == 0 else (os.getuid(), os.getgid())  # only root can give files away
    os.chown(target, *owner)
    assert restore(str(source), "-o", str(target), umask=0o077).returncode == 0
    status = target.stat()
    assert (status.st_mode & 0o7777, status.st_uid, status.st_gid) == (0o640, *owner)
    assert target.read_text(encoding="utf-8") == RESTORED


def test_in_place_leaves_a_file_with_nothing_to_restore_untouched(tmp_path):
    correct, typed = tmp_path / "correct.txt", tmp_path / "typed.txt"
    correct.write_text(RESTORED, encoding="utf-8")
    typed.write_text(ASCII, encoding="utf-8")
    os.utime(correct, (1_000_000_000, 1_000_000_000))
    before, typed_inode = correct.stat(), typed.stat().st_ino
    assert restore("--in-place", str(correct), str(typed)).returncode == 0
    after = correct.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert typed.read_text(encoding="utf-8") == RESTORED and typed.stat().st_ino != typed_inode
    assert sorted(path.name for path in tmp_path.iterdir()) == ["correct.txt", "typed.txt"]


def test_in_place_follows_a_symbolic_link_and_rewrites_its_target(tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "note.txt"
    target.write_text(ASCII, encoding="utf-8")
    link = tmp_path / "note.txt"
    link.symlink_to(Path("real") / "note.txt")
    assert restore("--in-place", str(link)).returncode == 0
    assert link.is_symlink() and os.readlink(link) == str(Path("real") / "note.txt")
    assert target.read_text(encoding="utf-8") == RESTORED
    assert not list(tmp_path.rglob(".*.nokta"))


def test_a_read_only_file_is_refused_and_nothing_changes(tmp_path):
    writable, locked = tmp_path / "a.txt", tmp_path / "b.txt"
    for path in (writable, locked):
        path.write_text(ASCII, encoding="utf-8")
    locked.chmod(0o444)
    result = restore("--in-place", str(writable), str(locked))
    assert result.returncode == 1
    assert one_line(result) == f"nokta: error: {locked}: read-only file, not restored in place\n"
    assert writable.read_text(encoding="utf-8") == locked.read_text(encoding="utf-8") == ASCII
    assert locked.stat().st_mode & 0o777 == 0o444 and not list(tmp_path.glob(".*.nokta"))
    overwrite = restore(str(writable), "-o", str(locked))
    assert overwrite.returncode == 1 and "read-only file, not overwritten" in one_line(overwrite)


def test_a_binary_file_is_called_binary(tmp_path):
    executable = Path(shutil.which("ls") or sys.executable).resolve()  # an ELF file
    result = restore(str(executable))
    assert result.returncode == 1
    assert one_line(result) == f"nokta: error: {executable}: a binary file (it holds zero bytes), not text\n"
    utf16 = tmp_path / "u.txt"
    utf16.write_bytes("Bugün hava çok güzel.\n".encode("utf-16-le"))
    assert "looks like UTF-16" in one_line(restore(str(utf16)))


def test_an_empty_file_restores_to_nothing_alone_or_among_others(tmp_path):
    empty, note = tmp_path / "empty.txt", tmp_path / "note.txt"
    empty.write_bytes(b"")
    note.write_text(ASCII, encoding="utf-8")
    alone = restore(str(empty))
    among = restore(str(empty), str(note), str(empty))
    piped = restore()
    assert [r.returncode for r in (alone, among, piped)] == [0, 0, 0]
    assert (alone.stdout, among.stdout.decode(), piped.stdout) == (b"", RESTORED, b"")
    assert restore("--in-place", str(empty), str(note)).returncode == 0
    assert (empty.read_bytes(), note.read_text(encoding="utf-8")) == (b"", RESTORED)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "klingon"], "unknown format 'klingon'"),
        (["--format", "code-cobol"], "unknown format 'code-cobol'"),
        (["--in-place"], "--in-place restores FILE arguments"),
        (["-i", "x.txt", "-o", "y.txt"], "not allowed with argument"),
        (["--check", "x.txt", "-o", "y.txt"], "--diff and --check write no file"),
        (["--jobs", "two"], "'two' is not a number of worker processes (1 or more)"),
        (["--jobs", "0"], "'0' is not a number of worker processes (1 or more)"),
        (["-j", "-1"], "'-1' is not a number of worker processes (1 or more)"),
    ],
)
def test_usage_errors_exit_2_with_the_restore_usage_and_one_error_line(args, message):
    result = restore(*args, stdin=b"cok\n")
    err = result.stderr.decode()
    assert result.returncode == 2 and err.startswith("usage: nokta restore "), err
    assert err.splitlines()[-1].startswith("nokta restore: error: ") and message in err.splitlines()[-1], err
    assert "Traceback" not in err and result.stdout == b""


def test_every_format_the_help_names_is_accepted():
    named = re.findall(r"\b(?:code-[a-z]+|plain|markdown|latex|html|rst|org|asciidoc|gitcommit)\b", FORMAT_HELP)
    assert "code-python" in named and "code-rust" in named
    assert all(format_name(name) for name in named)
    assert format_name("code-python") == "code-hash" and format_name("code-rust") == "code-c"


def test_code_language_format_restores_only_comments(tmp_path):
    source = tmp_path / "script"
    source.write_text("cok = 1  # cok guzel\n", encoding="utf-8")
    result = restore(str(source), "--format", "code-python")
    assert result.returncode == 0 and result.stdout.decode() == "cok = 1  # çok güzel\n"


def test_the_docs_list_every_exit_status():
    """docs/cli.md's table is the one list; the tests here and in test_cli_restore.py and
    test_check.py exercise each status."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text.split("### Exit status", 1)[1].split("\n#", 1)[0]
    listed = {int(status) for status in re.findall(r"^\| (\d+) \|", section, flags=re.MULTILINE)}
    assert listed == {0, 1, 2, 129, 130, 143}
