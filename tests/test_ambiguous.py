"""A close call between real words, end to end with the shipped default: ``nokta restore
--ambiguous`` lists it on standard error (the output unchanged), ``nokta check`` and the
server's hover show the same calibrated confidence."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from nokta_model.calibration import CLOSE_BELOW
from tests.lsp.client import REAL_SERVER, client_fixture, initialize, open_document, wait_for_idle

NOKTA = [sys.executable, "-m", "nokta_model"]
#: söyle (say) or şöyle (like this): both real words, and either reads well here.
CLOSE = "bunu soyle\n"
#: A file: a line with nothing close, a capital close call (Aç or Ac), then the line above.
TEXT = "Bugun hava cok guzel.\nAc misin?\nbunu soyle\n"
_CLOSE_CALL_RE = re.compile(r"(.+):(\d+):(\d+): (\S+): (\S+) \((\d\.\d\d)\) or (\S+) \((\d\.\d\d)\)")


def nokta(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run([*NOKTA, *args], input=stdin.encode(), capture_output=True, cwd=cwd, timeout=300)
    assert done.returncode == 0, done.stderr.decode()
    return done


def close_calls(stderr: bytes) -> list[tuple]:
    """(name, line, column, word, written, its confidence, the other spelling, its confidence)."""
    rows = stderr.decode().splitlines()
    found = [_CLOSE_CALL_RE.fullmatch(row) for row in rows]
    assert all(found), rows
    return [(m[1], int(m[2]), int(m[3]), m[4], m[5], float(m[6]), m[7], float(m[8])) for m in found if m]


def test_restore_ambiguous_lists_the_close_call_and_writes_the_same_output():
    plain = nokta("restore", stdin=CLOSE)
    listed = nokta("restore", "--ambiguous", stdin=CLOSE)
    assert listed.stdout == plain.stdout == "bunu söyle\n".encode()
    assert plain.stderr == b""
    [(name, line, column, word, written, confidence, other, rest)] = close_calls(listed.stderr)
    assert (name, line, column, word, written, other) == ("standard input", 1, 6, "soyle", "söyle", "şöyle")
    assert 0.5 <= confidence < CLOSE_BELOW and confidence + rest <= 1.0


def test_restore_ambiguous_names_each_file_line_and_column(tmp_path):
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text(TEXT, encoding="utf-8")
    plain = nokta("restore", "a.txt", "b.txt", cwd=tmp_path)
    listed = nokta("restore", "--ambiguous", "a.txt", "b.txt", cwd=tmp_path)
    assert listed.stdout == plain.stdout == "Bugün hava çok güzel.\nAç mısın?\nbunu söyle\n".encode() * 2
    places = [
        (name, line, column, word, written, other)
        for name, line, column, word, written, _, other, _ in close_calls(listed.stderr)
    ]
    assert places == [
        (name, line, column, word, written, other)
        for name in ("a.txt", "b.txt")
        for line, column, word, written, other in ((2, 1, "Ac", "Aç", "Ac"), (3, 6, "soyle", "söyle", "şöyle"))
    ]


def checked_confidence(text: str, word: str) -> float:
    """The confidence ``nokta check`` gives ``word`` in ``text`` (every finding shown from 0.5)."""
    findings = json.loads(
        subprocess.run(
            [*NOKTA, "check", "--threshold", "0.5", "--output-format", "json", "-"],
            input=text.encode(),
            capture_output=True,
            timeout=300,
        ).stdout
    )
    [confidence] = [finding["confidence"] for finding in findings if finding["word"] == word]
    return confidence


def test_check_shows_the_confidence_restore_ambiguous_lists():
    [(*_, confidence, _, _)] = close_calls(nokta("restore", "--ambiguous", stdin=CLOSE).stderr)
    checked = checked_confidence(CLOSE, "soyle")
    assert checked < CLOSE_BELOW and round(checked, 2) == confidence


client = client_fixture(REAL_SERVER)


async def hover_text(client: LanguageClient, uri: str, line: int, character: int) -> str:
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character)
        )
    )
    return "" if hover is None else hover.contents.value


async def test_the_server_hover_shows_the_confidence_nokta_check_shows(client: LanguageClient):
    expected = f"confidence {checked_confidence(CLOSE, 'soyle'):.0%}"
    await initialize(client, {"confidenceThreshold": 0.5})
    uri = "file:///close.txt"
    open_document(client, uri, CLOSE)
    await wait_for_idle(client, timeout=120)  # the count-based stand-in answers first, the default once it has loaded
    shown = await hover_text(client, uri, 0, 7)
    assert expected in shown and "**söyle**" in shown and "şöyle" in shown, shown
