"""Code actions and command edits, built from findings and ``Diagnostic.data`` only, each
resolved against the document's current text (``edits``): a diagnostic the client sends
back may be stale, and its range is never trusted."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from lsprotocol import types

from nokta_model.check.findings import Finding

from ..analysis.diagnostics import CODE_DOCUMENT, SOURCE
from ..analysis.documents import Codec, Document
from ..analysis.edits import WordChange, checked, relocate, restores

RESTORE_DOCUMENT = "nokta.restoreDocument"
RESTORE_SELECTION = "nokta.restoreSelection"
ADD_TO_DICTIONARY = "nokta.addToDictionary"
COMMANDS = (RESTORE_DOCUMENT, RESTORE_SELECTION, ADD_TO_DICTIONARY)

FIX_ALL_KIND = "source.fixAll.nokta"
KINDS = (types.CodeActionKind.QuickFix, FIX_ALL_KIND, types.CodeActionKind.RefactorRewrite)

_IGNORE_TITLES = {
    "document": "Ignore '{word}' in this document",
    "workspace": "Add '{word}' to the workspace dictionary",
    "user": "Add '{word}' to the user dictionary",
}


def workspace_edit(uri: str, edits: list[types.TextEdit], version: int | None) -> types.WorkspaceEdit:
    """``edits`` to the document ``uri``; for its ``version`` when given (a client that takes
    ``documentChanges`` then refuses the edit if the text has changed since)."""
    if version is None:
        return types.WorkspaceEdit(changes={uri: edits})
    identifier = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
    return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=identifier, edits=edits)])


def resolve(
    document: Document, diagnostic: types.Diagnostic, codec: Codec, line_findings: Sequence[Finding] | None
) -> types.Diagnostic | None:
    """The diagnostic with its word found again in the current text (``edits.relocate``,
    near where its range points now; among the current findings of its line when they are
    known), or None when the word is no longer there."""
    word, row = _data(diagnostic).get("original"), diagnostic.range.start.line
    if not isinstance(word, str) or not 0 <= row < len(document.lines):
        return None
    line = document.lines[row]
    flagged = None if line_findings is None else {f.start for f in line_findings if f.original == word}
    start = relocate(document.lines, row, codec.from_client(line, diagnostic.range.start.character), word, flagged)
    if start is None:
        return None
    resolved = copy.copy(diagnostic)
    resolved.range = types.Range(
        start=types.Position(line=row, character=codec.to_client(line, start)),
        end=types.Position(line=row, character=codec.to_client(line, start + len(word))),
    )
    return resolved


def quick_fixes(uri: str, diagnostic: types.Diagnostic, version: int | None = None) -> list[types.CodeAction]:
    """One fix per spelling in the data of a diagnostic of the document's current text
    (``resolve``), the best one preferred (so an editor's "apply the preferred fix" needs
    no menu), then the ignore actions. Only spellings restoring the word's letters."""
    data = _data(diagnostic)
    word = data.get("original")
    if not isinstance(word, str):
        return []
    spellings = [s for s in data.get("alternatives", []) if isinstance(s, str)]
    if isinstance(data.get("replacement"), str) and data["replacement"] not in spellings:
        spellings.insert(0, data["replacement"])
    actions = [
        types.CodeAction(
            title=f"Change to '{spelling}'",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic],
            is_preferred=index == 0,
            edit=workspace_edit(uri, [types.TextEdit(range=diagnostic.range, new_text=spelling)], version),
        )
        for index, spelling in enumerate(s for s in dict.fromkeys(spellings) if restores(word, s))
    ]
    return actions + ignore_actions(uri, word, diagnostic)


def _data(diagnostic: types.Diagnostic) -> dict[str, Any]:
    return diagnostic.data if isinstance(diagnostic.data, dict) else {}


def ignore_actions(uri: str, word: str, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
    return [
        types.CodeAction(
            title=title.format(word=word),
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic],
            command=types.Command(
                title=title.format(word=word),
                command=ADD_TO_DICTIONARY,
                arguments=[{"uri": uri, "word": word, "scope": scope}],
            ),
        )
        for scope, title in _IGNORE_TITLES.items()
    ]


def restore_edit(
    document: Document, findings: Sequence[Finding], codec: Codec, version: int | None
) -> types.WorkspaceEdit | None:
    """An edit applying every confident finding given that still reads its word in the
    current text, or None when there is nothing to do."""
    changes = checked(
        document.lines,
        [WordChange(f.line, f.start, f.end, f.original, f.replacement) for f in findings if f.confident],
    )
    if not changes:
        return None
    return workspace_edit(document.uri, [text_edit(document.lines, change, codec) for change in changes], version)


def text_edit(lines: Sequence[str], change: WordChange, codec: Codec) -> types.TextEdit:
    line = lines[change.line]
    return types.TextEdit(
        range=types.Range(
            start=types.Position(line=change.line, character=codec.to_client(line, change.start)),
            end=types.Position(line=change.line, character=codec.to_client(line, change.end)),
        ),
        new_text=change.new_text,
    )


def in_range(findings: Sequence[Finding], start: tuple[int, int], end: tuple[int, int]) -> list[Finding]:
    """Findings inside the code-point range ``start``..``end``."""
    return [f for f in findings if start <= (f.line, f.start) and (f.line, f.end) <= end]


RESTORE_ALL_TITLE = "Restore all Turkish diacritics in this document"


def document_actions(
    document: Document,
    findings: Sequence[Finding],
    selection: list[Finding],
    codec: Codec,
    fix_all: bool,
    version: int | None,
    max_edits: int,
) -> list[types.CodeAction]:
    """Restore-all (of kind ``source.fixAll.nokta`` when ``fix_all``, else a quick fix) and
    restore-in-selection actions; one of each at most. A quick fix with more than
    ``max_edits`` findings runs ``nokta.restoreDocument`` rather than carrying its edit (an
    editor asks for code actions at every move of the cursor)."""
    actions: list[types.CodeAction] = []
    if not fix_all and len(findings) > max_edits:
        if any(finding.confident for finding in findings):
            actions.append(restore_document_action(document.uri))
    elif (whole := restore_edit(document, findings, codec, version)) is not None:
        kind = FIX_ALL_KIND if fix_all else types.CodeActionKind.QuickFix
        actions.append(types.CodeAction(title=RESTORE_ALL_TITLE, kind=kind, edit=whole))
    partial = restore_edit(document, selection, codec, version)
    if partial is not None and len(selection) > 1:
        actions.append(
            types.CodeAction(
                title="Restore Turkish diacritics in the selection",
                kind=types.CodeActionKind.RefactorRewrite,
                edit=partial,
            )
        )
    return actions


def restore_document_action(uri: str) -> types.CodeAction:
    command = types.Command(title=RESTORE_ALL_TITLE, command=RESTORE_DOCUMENT, arguments=[{"uri": uri}])
    return types.CodeAction(title=RESTORE_ALL_TITLE, kind=types.CodeActionKind.QuickFix, command=command)


def fixing(actions: list[types.CodeAction], diagnostics: list[types.Diagnostic]) -> None:
    """Make the restore-all quick fix the fix of ``diagnostics`` (the document's one diagnostic
    when it is typed without Turkish letters), preferred."""
    for action in actions:
        if diagnostics and action.title == RESTORE_ALL_TITLE and action.kind == types.CodeActionKind.QuickFix:
            action.diagnostics, action.is_preferred = diagnostics, True


def touches(diagnostic: types.Diagnostic, range_: types.Range) -> bool:
    """Whether a diagnostic's range meets the requested range (a cursor is an empty range)."""
    start, end = diagnostic.range.start, diagnostic.range.end
    return (start.line, start.character) <= (range_.end.line, range_.end.character) and (
        range_.start.line,
        range_.start.character,
    ) <= (end.line, end.character)


def asks_for_source_actions(kinds: Sequence[str] | None) -> bool:
    """A request that names ``source`` kinds (fix on save) rather than a menu's."""
    return any(k == "source" or k.startswith("source.") for k in kinds or ())


def wanted(kinds: Sequence[str] | None, kind: str) -> bool:
    """Whether a code action of ``kind`` answers a request for ``kinds`` (None = all)."""
    return not kinds or any(kind == k or kind.startswith(k + ".") for k in kinds)


def nokta_diagnostics(diagnostics: Sequence[types.Diagnostic]) -> list[types.Diagnostic]:
    """The client's nokta diagnostics of words (not the one of a whole document)."""
    return [d for d in diagnostics if d.source == SOURCE and d.code != CODE_DOCUMENT]


def document_diagnostics(diagnostics: Sequence[types.Diagnostic], range_: types.Range) -> list[types.Diagnostic]:
    """The client's diagnostic of a document typed without Turkish letters, when ``range_`` meets it."""
    return [d for d in diagnostics if d.source == SOURCE and d.code == CODE_DOCUMENT and touches(d, range_)]


def command_argument(arguments: Sequence[Any] | None) -> dict[str, Any]:
    """The single object argument of a nokta command (``{"uri": ..., ...}``)."""
    if not arguments or not isinstance(arguments[0], dict) or not isinstance(arguments[0].get("uri"), str):
        raise ValueError('expected one argument {"uri": ...}')
    return arguments[0]
