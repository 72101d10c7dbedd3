"""Code actions and command edits, built from findings and ``Diagnostic.data`` only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lsprotocol import types

from nokta_model.check.findings import Finding

from .diagnostics import SOURCE, text_edits
from .documents import Codec, Document

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


def _edit(uri: str, edits: list[types.TextEdit]) -> types.WorkspaceEdit:
    return types.WorkspaceEdit(changes={uri: edits})


def quick_fixes(uri: str, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
    """One fix per spelling in the diagnostic's data, the best one preferred (so an
    editor's "apply the preferred fix" needs no menu), then the ignore actions."""
    data = diagnostic.data if isinstance(diagnostic.data, dict) else {}
    spellings = [s for s in data.get("alternatives", []) if isinstance(s, str)]
    if isinstance(data.get("replacement"), str) and data["replacement"] not in spellings:
        spellings.insert(0, data["replacement"])
    actions = [
        types.CodeAction(
            title=f"Change to '{spelling}'",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic],
            is_preferred=index == 0,
            edit=_edit(uri, [types.TextEdit(range=diagnostic.range, new_text=spelling)]),
        )
        for index, spelling in enumerate(dict.fromkeys(spellings))
    ]
    word = data.get("original")
    if isinstance(word, str):
        actions.extend(ignore_actions(uri, word, diagnostic))
    return actions


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


def restore_edit(document: Document, findings: Sequence[Finding], codec: Codec) -> types.WorkspaceEdit | None:
    """An edit applying every confident finding given, or None when there is nothing to do."""
    chosen = [f for f in findings if f.confident]
    if not chosen:
        return None
    return _edit(document.uri, text_edits(chosen, document.lines, codec))


def in_range(findings: Sequence[Finding], start: tuple[int, int], end: tuple[int, int]) -> list[Finding]:
    """Findings inside the code-point range ``start``..``end``."""
    return [f for f in findings if start <= (f.line, f.start) and (f.line, f.end) <= end]


def document_actions(
    document: Document, findings: Sequence[Finding], selection: list[Finding], codec: Codec, fix_all: bool
) -> list[types.CodeAction]:
    """Restore-all (of kind ``source.fixAll.nokta`` when ``fix_all``, else a quick fix) and
    restore-in-selection actions; one of each at most."""
    actions: list[types.CodeAction] = []
    whole = restore_edit(document, findings, codec)
    if whole is not None:
        kind = FIX_ALL_KIND if fix_all else types.CodeActionKind.QuickFix
        actions.append(types.CodeAction(title="Restore all Turkish diacritics in this document", kind=kind, edit=whole))
    partial = restore_edit(document, selection, codec)
    if partial is not None and len(selection) > 1:
        actions.append(
            types.CodeAction(
                title="Restore Turkish diacritics in the selection",
                kind=types.CodeActionKind.RefactorRewrite,
                edit=partial,
            )
        )
    return actions


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
    return [d for d in diagnostics if d.source == SOURCE]


def command_argument(arguments: Sequence[Any] | None) -> dict[str, Any]:
    """The single object argument of a nokta command (``{"uri": ..., ...}``)."""
    if not arguments or not isinstance(arguments[0], dict) or not isinstance(arguments[0].get("uri"), str):
        raise ValueError('expected one argument {"uri": ...}')
    return arguments[0]
