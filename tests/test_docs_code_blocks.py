"""The rule "code blocks stay as written", as README.md, docs/cli.md, docs/what-is-checked.md
and docs/language-server.md state it: the same in each, and each doc's own example (read from
the doc) run through the real `nokta restore`, and through the server for the server's doc."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.client import apply_edits, diagnostics_for, initialize, open_document

ROOT = Path(__file__).resolve().parent.parent
DOCS = ("README.md", "docs/cli.md", "docs/what-is-checked.md", "docs/language-server.md")
RULE_RE = re.compile(r"^\*\*Code blocks stay as written\.\*\*.*?(?=\n\n)", re.M | re.S)
EXAMPLE_RE = re.compile(r"\n\n(`{3,4})(\w+)\n(.*?\n)\1\n", re.S)  # the fence right after the rule
EXTENSIONS = {"markdown": ".md", "org": ".org", "rst": ".rst"}
PROSE, RESTORED = "Bugun hava cok guzel:", "Bugün hava çok güzel:"
NOKTA = [sys.executable, "-m", "nokta_model", "restore", "--backend", "ngram"]


def rule_and_example(doc: str) -> tuple[str, str, str]:
    """(the rule's paragraph, the format of the example after it, the example) of ``doc``."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    rules = list(RULE_RE.finditer(text))
    assert len(rules) == 1, doc
    example = EXAMPLE_RE.match(text, rules[0].end())
    assert example is not None, f"{doc}: no example right after the rule"
    return rules[0].group(), example.group(2), example.group(3)


def expected(example: str) -> str:
    """The example restored: its first line, the prose, changes; the code block does not."""
    assert example.startswith(PROSE + "\n")
    return RESTORED + example[len(PROSE) :]


def test_the_four_docs_state_the_same_rule():
    rules = {doc: " ".join(rule_and_example(doc)[0].split()) for doc in DOCS}
    assert len(set(rules.values())) == 1, rules
    assert "checkCodeComments" in rules["README.md"] and "nokta restore app.py" in rules["README.md"]


def test_each_docs_example_comes_out_with_its_code_block_byte_for_byte(tmp_path):
    files = []
    for index, doc in enumerate(DOCS):
        _, format_name, example = rule_and_example(doc)
        files.append(tmp_path / f"example{index}{EXTENSIONS[format_name]}")
        files[-1].write_text(example, encoding="utf-8")
    printed = subprocess.run([*NOKTA, *map(str, files)], capture_output=True, timeout=300)
    assert printed.returncode == 0, printed.stderr
    examples = [rule_and_example(doc)[2] for doc in DOCS]
    assert printed.stdout.decode("utf-8") == "".join(map(expected, examples))
    in_place = subprocess.run([*NOKTA, "--in-place", *map(str, files)], capture_output=True, timeout=300)
    assert in_place.returncode == 0, in_place.stderr
    for file, example in zip(files, examples, strict=True):
        assert file.read_bytes() == expected(example).encode("utf-8")


async def test_the_servers_example_is_flagged_in_its_block_and_restored_outside_it(client: LanguageClient):
    _, format_name, example = rule_and_example("docs/language-server.md")
    assert format_name == "markdown"
    uri = "file:///example.md"
    await initialize(client, {"checkCodeComments": True})
    open_document(client, uri, example, language_id="markdown")
    flagged = [(d.range.start.line, d.message) for d in await diagnostics_for(client, uri, 1)]
    block_row = example.split("\n").index('echo "cok guzel"  # bugun')
    assert (block_row, "bugun → bugün") in flagged  # a comment in a code block, flagged under checkCodeComments
    applied = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="nokta.restoreDocument", arguments=[{"uri": uri}])
    )
    assert applied is True
    assert apply_edits(example, client.applied_edits[-1].changes[uri]) == expected(example)
