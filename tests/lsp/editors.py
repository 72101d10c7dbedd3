"""Raw-protocol editors for end-to-end tests: a document's client copy that applies the
server's edits as an editor does (``Editor``), and one that types into it (``Typist``)."""

from __future__ import annotations

from typing import Any

from bench.lsp_client import BenchClient
from nokta_lsp.analysis.autocorrect import TRIGGERS
from tests.lsp.textmodel import apply_edits, lines_of, units


class Editor:
    """The client's copy of one document: applies edits as an editor does and tells the server."""

    def __init__(self, server: BenchClient, uri: str, text: str, encoding: str):
        self.server, self.uri, self.text, self.encoding, self.version = server, uri, text, encoding, 1
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}},
        )

    def position(self, offset: int) -> dict[str, int]:
        """The client position of a code-point offset in the text."""
        for line_number, (start, line) in enumerate(lines_of(self.text)):
            if offset <= start + len(line):
                return {"line": line_number, "character": units(line[: offset - start], self.encoding)}
        raise ValueError(offset)

    def change(self, edits: list[dict[str, Any]]) -> None:
        """Apply ``edits`` (ranges in this version) and send them as one didChange."""
        self.change_in_steps([edits])

    def change_in_steps(self, steps: list[list[dict[str, Any]]]) -> None:
        """Apply each step's edits in turn and send them all as one didChange, as an editor
        that gathers its changes for a while sends them (Neovim)."""
        changes = []
        for edits in steps:
            self.text = apply_edits(self.text, edits, self.encoding)
            first_first = sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]))
            last_first = first_first[::-1]
            changes += [{"range": edit["range"], "text": edit["newText"]} for edit in last_first]
        self.version += 1
        self.server.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": self.uri, "version": self.version}, "contentChanges": changes},
        )

    def apply(self, workspace_edit: dict[str, Any]) -> bool:
        """Apply a WorkspaceEdit; a versioned one only to the version it names (False otherwise)."""
        if "documentChanges" in workspace_edit:
            (document_edit,) = workspace_edit["documentChanges"]
            if document_edit["textDocument"]["version"] != self.version:
                return False
            edits = document_edit["edits"]
        else:
            edits = workspace_edit["changes"][self.uri]
        self.change(edits)
        return True

    async def diagnostics(self) -> list[dict[str, Any]]:
        return await self.server.shown(self.uri, self.version, timeout=20)

    async def actions(self, diagnostics: list[dict[str, Any]], start: int, end: int) -> list[dict[str, Any]]:
        range_ = {"start": self.position(start), "end": self.position(end)}
        return await self.server.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": self.uri}, "range": range_, "context": {"diagnostics": diagnostics}},
        )

    async def fix(self, diagnostic: dict[str, Any], at: int) -> str | None:
        """Ask for fixes with ``diagnostic`` (perhaps stale), the cursor at code-point offset ``at``;
        apply the preferred one. Returns the title of the fix applied."""
        preferred = [a for a in await self.actions([diagnostic], at, at) if a.get("isPreferred")]
        assert len(preferred) <= 1
        if preferred and self.apply(preferred[0]["edit"]):
            return preferred[0]["title"]
        return None


class Typist(Editor):
    """Types at the end of the document; after a trigger character, asks for on-type edits and applies them."""

    async def type(self, text: str, *, apply_edits: bool = True) -> list[dict[str, Any]]:
        """Types ``text``; with ``apply_edits`` False the on-type edits are dropped, as VS Code
        drops those that arrive after the writer typed on. Returns the last trigger's edits."""
        answered: list[dict[str, Any]] = []
        for char in text:
            end = self.position(len(self.text))
            self.change([{"range": {"start": end, "end": end}, "newText": char}])
            if char in TRIGGERS:
                edits = await self.server.request(
                    "textDocument/onTypeFormatting",
                    {
                        "textDocument": {"uri": self.uri},
                        "position": self.position(len(self.text)),
                        "ch": char,
                        "options": {"tabSize": 4, "insertSpaces": True},
                    },
                )
                answered = edits or []
                if edits and apply_edits:
                    self.change(edits)
        return answered
