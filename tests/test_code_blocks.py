"""End to end: a code block in a document is never changed by `nokta restore` (nor by the
server's whole-document restore and fix-all), in every format; the prose around it is
restored. A code file is not a code block: its comments and strings are restored."""

from __future__ import annotations

import subprocess
import sys

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.client import apply_edits, diagnostics_for, initialize, open_document

NOKTA = [sys.executable, "-m", "nokta_model", "restore", "--backend", "ngram"]
PROSE = {"Bugun hava cok guzel": "Bugün hava çok güzel", "Sonra hava cok guzel oldu": "Sonra hava çok güzel oldu"}
BLOCK = 'x = "cok guzel"  # bugun cok guzel'  # a string and a comment that restoring would change

DOCUMENTS = {
    "named-unnamed-tilde-indented.md": (
        f'Bugun hava cok guzel.\n\n```python\n{BLOCK}\n```\n\n```\n# bugun cok guzel\necho "cok guzel"\n```\n\n'
        f"~~~\n# bugun cok guzel\n~~~\n\n~~~python\n{BLOCK}\n~~~\n\n    # bugun cok guzel\n    {BLOCK}\n\n"
        "Sonra hava cok guzel oldu.\n"
    ),
    "src.org": f"Bugun hava cok guzel.\n#+BEGIN_SRC python\n{BLOCK}\n#+END_SRC\nSonra hava cok guzel oldu.\n",
    "source.adoc": f"Bugun hava cok guzel.\n\n[source,python]\n----\n{BLOCK}\n----\n\nSonra hava cok guzel oldu.\n",
    "code-block.rst": (
        f"Bugun hava cok guzel.\n\n.. code-block:: python\n\n   {BLOCK}\n\n"
        "Sonra hava cok guzel oldu::\n\n   # bugun cok guzel\n"
    ),
    "verbatim.tex": (
        'Bugun hava cok guzel.\n\\begin{verbatim}\nx = "cok guzel"  % bugun cok guzel\n\\end{verbatim}\n'
        f"\\begin{{lstlisting}}[language=Python]\n{BLOCK}\n\\end{{lstlisting}}\n"
        f"\\begin{{minted}}{{python}}\n{BLOCK}\n\\end{{minted}}\nSonra hava cok guzel oldu.\n"
    ),
    "pre.html": (
        f"<p>Bugun hava cok guzel.</p>\n<pre>\n{BLOCK}\n</pre>\n"
        "<p>Sonra hava cok guzel oldu, <code>cok_guzel()</code> gibi.</p>\n"
    ),
    "git/COMMIT_EDITMSG": (
        f"Bugun hava cok guzel\n\n# ------------------------ >8 ------------------------\n"
        f"diff --git a/x.py b/x.py\n+{BLOCK}\n"
    ),
}


def restored_prose(text: str) -> str:
    for typed, restored in PROSE.items():
        text = text.replace(typed, restored)
    return text


def test_restore_in_place_leaves_every_formats_code_blocks_byte_for_byte(tmp_path):
    paths = []
    for name, text in DOCUMENTS.items():
        paths.append(tmp_path / name)
        paths[-1].parent.mkdir(exist_ok=True)
        paths[-1].write_text(text, encoding="utf-8")
    result = subprocess.run([*NOKTA, "--in-place", *map(str, paths)], capture_output=True, timeout=300)
    assert result.returncode == 0, result.stderr
    for path, text in zip(paths, DOCUMENTS.values(), strict=True):
        assert path.read_text(encoding="utf-8") == restored_prose(text), path.name
        assert restored_prose(text) != text  # the prose around the block was restored


def test_a_code_file_has_its_comments_and_strings_restored_not_its_code(tmp_path):
    program = tmp_path / "app.py"
    program.write_text('# bugun hava cok guzel\nx = "cok guzel"\ncok = guzel(1)\n', encoding="utf-8")
    result = subprocess.run([*NOKTA, str(program)], capture_output=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode("utf-8") == '# bugün hava çok güzel\nx = "çok güzel"\ncok = guzel(1)\n'


NOTE = 'Bugun hava cok guzel.\n\n```python\nx = "cok guzel"  # bugun\n```\n'


def whole_document_actions(client: LanguageClient, uri: str, only: list[str] | None = None):
    return client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=5, character=0)),
            context=types.CodeActionContext(diagnostics=[], only=only),
        )
    )


async def test_server_flags_a_blocks_comment_under_check_code_comments_but_never_restores_it(client: LanguageClient):
    await initialize(client, {"checkCodeComments": True})
    uri = "file:///note.md"
    open_document(client, uri, NOTE, language_id="markdown")
    diagnostics = await diagnostics_for(client, uri, 1)
    assert [(d.range.start.line, d.message) for d in diagnostics] == [
        (0, "Bugun → Bugün"),
        (0, "cok → çok"),
        (0, "guzel → güzel"),
        (3, "cok → çok"),  # the string and the comment in the block: flagged
        (3, "guzel → güzel"),
        (3, "bugun → bugün"),
    ]
    restored = 'Bugün hava çok güzel.\n\n```python\nx = "cok guzel"  # bugun\n```\n'
    applied = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="nokta.restoreDocument", arguments=[{"uri": uri}])
    )
    assert applied is True
    assert apply_edits(NOTE, client.applied_edits[-1].changes[uri]) == restored
    (fix_all,) = await whole_document_actions(client, uri, ["source.fixAll"])
    assert apply_edits(NOTE, fix_all.edit.changes[uri]) == restored
    # The flagged word's own quick fix changes that word alone, when the writer chooses it.
    comment = diagnostics[-1]
    fixes = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=comment.range,
            context=types.CodeActionContext(diagnostics=[comment], only=[types.CodeActionKind.QuickFix]),
        )
    )
    change = next(a for a in fixes if isinstance(a, types.CodeAction) and a.title == "Change to 'bugün'")
    assert apply_edits(NOTE, change.edit.changes[uri]).split("\n")[3] == 'x = "cok guzel"  # bugün'


async def test_server_leaves_code_blocks_unflagged_by_default(client: LanguageClient):
    await initialize(client)
    open_document(client, "file:///plain.md", NOTE, language_id="markdown")
    diagnostics = await diagnostics_for(client, "file:///plain.md", 1)
    assert [d.range.start.line for d in diagnostics] == [0, 0, 0]
