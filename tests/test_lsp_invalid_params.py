"""Messages whose parameters the server cannot read (issue 48, item 6): the real server over
stdio answers a request with an error, ignores a notification, logs each in one line
(never pygls' traceback of 40 to 60 lines) and goes on answering."""

from __future__ import annotations

import pytest

from tests.lsp.client import REAL_SERVER, raw_client

NOT_AN_INT = "invalid value for type, expected int @ $.params.position.character"
NO_TEXT = "required field missing @ $.params.text_document.text"


async def test_invalid_params_are_logged_in_one_line_and_the_server_answers_on(tmp_path):
    with open(tmp_path / "stderr.log", "wb") as log:
        server = raw_client(REAL_SERVER, stderr=log)
        await server.start({"debounceMs": 0})
        try:
            bad_hover = {"textDocument": {"uri": "file:///x.txt"}, "position": {"line": 0, "character": "a"}}
            with pytest.raises(RuntimeError, match=r"invalid params: .*\$\.params\.position\.character"):
                await server.request("textDocument/hover", bad_hover)
            without_text = {"uri": "file:///ok.txt", "languageId": "plaintext", "version": 1}
            server.notify("textDocument/didOpen", {"textDocument": without_text})
            server.notify("textDocument/didOpen", {"textDocument": without_text | {"text": "cok guzel"}})
            flagged = await server.shown("file:///ok.txt", 1)
            assert [diagnostic["message"] for diagnostic in flagged] == ["cok → çok", "guzel → güzel"]
        finally:
            await server.stop()
    logged = (tmp_path / "stderr.log").read_text(encoding="utf-8")
    assert "Traceback" not in logged and "sub-exception" not in logged, logged
    invalid = [line for line in logged.splitlines() if "invalid params" in line]
    assert len(invalid) == 2, logged
    assert invalid[0].endswith("textDocument/hover: invalid params, ignored: " + NOT_AN_INT)
    assert invalid[1].endswith("textDocument/didOpen: invalid params, ignored: " + NO_TEXT)
