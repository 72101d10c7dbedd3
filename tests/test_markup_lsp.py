"""End-to-end: the server on a Markdown document as it is edited (CommonMark blocks, fences, URLs)."""

from __future__ import annotations

from pytest_lsp import LanguageClient

from tests.lsp.client import (
    change_document,
    diagnostics_for,
    initialize,
    open_document,
    span,
)

TEXT = (
    "\\<!-- Bugun cok guzel.\n"  # 0: an escaped < opens no comment
    "\n"
    "Bugun <!-- acik\n"  # 2: a comment left open in a paragraph
    "cok guzel.\n"  # 3: ... masks its paragraph only
    "\n"
    "Bugun hava guzel.\n"  # 5
    "\n"
    "```python\n"
    "# cok guzel\n"  # 8: a comment in a code block
    'guzel = cok("guzel")\n'  # 9: code, and a string
    "```\n"
    "Bkz. https://example.com/cok-guzel ve bugun@cok.com.tr\n"  # 11
)


def flagged(diagnostics) -> list[tuple[int, str]]:
    return [(d.range.start.line, d.message) for d in diagnostics]


def lines_flagged(diagnostics) -> list[int]:
    return [d.range.start.line for d in diagnostics]


async def test_markdown_blocks_by_commonmark_as_the_document_is_edited(client: LanguageClient):
    await initialize(client)
    open_document(client, "file:///r.md", TEXT, language_id="markdown")
    assert flagged(await diagnostics_for(client, "file:///r.md", 1)) == [
        (0, "Bugun → Bugün"),
        (0, "cok → çok"),
        (0, "guzel → güzel"),
        (2, "Bugun → Bugün"),
        (5, "Bugun → Bugün"),
        (5, "guzel → güzel"),
    ]  # nothing in the code block (lines 8 and 9: checkCodeComments is off)
    # Line 5 opens an HTML comment block: it runs to the end of the document, with no -->.
    change_document(client, "file:///r.md", 2, (span(5, 0, 0), "<!-- "))
    assert lines_flagged(await diagnostics_for(client, "file:///r.md", 2)) == [0, 0, 0, 2]
    # Closed on the same line, it gives the rest back (the text after --> is shown on the page).
    change_document(client, "file:///r.md", 3, (span(5, 5, 5), "not --> "))
    assert lines_flagged(await diagnostics_for(client, "file:///r.md", 3)) == [0, 0, 0, 2, 5, 5]


async def test_html_pre_and_code_are_code_in_markdown_and_html_documents(client: LanguageClient):
    await initialize(client)
    note = "Bugun <code>cok</code> guzel.\n\n<div>\n<pre>\nguzel\n\nbugun\n</pre>\n</div>\nBugun cok guzel.\n"
    open_document(client, "file:///n.md", note, language_id="markdown")
    assert flagged(await diagnostics_for(client, "file:///n.md", 1)) == [
        (0, "Bugun → Bugün"),
        (0, "guzel → güzel"),
        (9, "Bugun → Bugün"),  # after </pre> and </div>: text again
        (9, "cok → çok"),
        (9, "guzel → güzel"),
    ]
    # Inline <code> left open runs to the paragraph's end.
    change_document(client, "file:///n.md", 2, (span(0, 22, 22), "<code>"))
    assert lines_flagged(await diagnostics_for(client, "file:///n.md", 2)) == [0, 9, 9, 9]
    page = '<p>Bugun <code>cok</code> guzel.</p>\n<pre\n class="x">bugun\n</pre> cok\n'
    open_document(client, "file:///p.html", page, language_id="html")
    assert flagged(await diagnostics_for(client, "file:///p.html", 1)) == [
        (0, "Bugun → Bugün"),
        (0, "guzel → güzel"),
        (3, "cok → çok"),
    ]
