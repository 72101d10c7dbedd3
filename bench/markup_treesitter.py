"""A Markdown masker built on tree-sitter, for ``bench.markup`` to measure against the line maskers.

Needs ``tree-sitter``, ``tree-sitter-markdown`` and the grammars of the fence languages it
masks as code (``tree-sitter-python``, ``tree-sitter-javascript``, ``tree-sitter-bash``).
It parses a whole document: the block grammar, then each inline node with the inline
grammar, then each fence whose language it has a grammar for. What it blanks follows
``nokta_model.prose.markdown``: code, raw HTML, link targets, front matter; URLs and
@mentions afterwards with the same ``prose.base`` functions, so the two differ only in
how they parse.
"""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter
import tree_sitter_bash
import tree_sitter_javascript
import tree_sitter_markdown
import tree_sitter_python

from nokta_model.prose.base import mask_links, mask_social

_BLANK_BLOCKS = frozenset(
    {"indented_code_block", "link_reference_definition", "minus_metadata", "plus_metadata", "fenced_code_block"}
)
_BLANK_INLINES = frozenset(
    {
        "code_span",
        "html_tag",
        "uri_autolink",
        "email_autolink",
        "link_destination",
        "link_title",
        "link_label",
        "entity_reference",
        "numeric_character_reference",
    }
)
_RAW_HTML_STARTS = (b"<!--", b"<?", b"<!", b"<pre", b"<script", b"<style", b"<textarea")
_CODE_KEEP = frozenset({"comment", "string_content", "string_fragment", "raw_string"})
_CODE_BLANK = frozenset(
    {
        "escape_sequence",
        "interpolation",
        "template_substitution",
        "simple_expansion",
        "expansion",
        "command_substitution",
    }
)
#: A blanked byte: a character's first byte becomes a space, its continuation bytes 0xff
#: (dropped when decoding), so a line keeps its length in characters; line ends and tabs stay.
_BLANK_TABLE = bytes(b if b in b"\t\r\n" else 0xFF if 0x80 <= b < 0xC0 else 0x20 for b in range(256))


def _language(module: object) -> tree_sitter.Language:
    return tree_sitter.Language(module.language())  # type: ignore[attr-defined]


class TreeSitterMarkdown:
    """``mask(text)``: the lines of a Markdown document with non-prose blanked, as
    ``prose.mask_lines("markdown", lines)`` gives them."""

    def __init__(self) -> None:
        self.block = tree_sitter.Parser(_language(tree_sitter_markdown))
        self.inline_language = tree_sitter.Language(tree_sitter_markdown.inline_language())
        python, javascript, bash = (
            _language(m) for m in (tree_sitter_python, tree_sitter_javascript, tree_sitter_bash)
        )
        self.code = {"python": python, "py": python, "javascript": javascript, "js": javascript}
        self.code |= {"bash": bash, "sh": bash, "shell": bash}

    def mask(self, text: str) -> list[str]:
        source = text.encode("utf-8")
        out = bytearray(source)
        for start, end, blanked in self._ranges(source):
            out[start:end] = source[start:end].translate(_BLANK_TABLE) if blanked else source[start:end]
        masked = out.decode("utf-8", errors="ignore")
        return [mask_social(mask_links(line)) for line in masked.split("\n")]

    def _ranges(self, source: bytes) -> Iterator[tuple[int, int, bool]]:
        """(start, end, blanked) byte ranges, applied in order: a fence is blanked whole,
        then its comments and strings are put back."""
        stack = [self.block.parse(source).root_node]
        while stack:
            node = stack.pop()
            if node.type in _BLANK_BLOCKS:
                yield node.start_byte, node.end_byte, True
                if node.type == "fenced_code_block":
                    yield from self._fence_code(source, node)
            elif node.type == "html_block":
                if source[node.start_byte : node.end_byte].lstrip().lower().startswith(_RAW_HTML_STARTS):
                    yield node.start_byte, node.end_byte, True
                else:
                    yield from self._inline(source, node)
            elif node.type == "inline":
                yield from self._inline(source, node)
            else:
                stack.extend(node.children)

    def _inline(self, source: bytes, node: tree_sitter.Node) -> Iterator[tuple[int, int, bool]]:
        parser = tree_sitter.Parser(self.inline_language, included_ranges=[node.range])
        stack = [parser.parse(source).root_node]
        while stack:
            inline = stack.pop()
            if inline.type in _BLANK_INLINES:
                yield inline.start_byte, inline.end_byte, True
            else:
                stack.extend(inline.children)

    def _fence_code(self, source: bytes, fence: tree_sitter.Node) -> Iterator[tuple[int, int, bool]]:
        """The comments and strings of a fence in a language it has a grammar for, kept."""
        info = next((c for c in fence.children if c.type == "info_string"), None)
        content = next((c for c in fence.children if c.type == "code_fence_content"), None)
        words = source[info.start_byte : info.end_byte].split() if info else []
        language = self.code.get(words[0].decode().lower()) if words else None
        if language is None or content is None:
            return
        tree = tree_sitter.Parser(language, included_ranges=[content.range]).parse(source)
        yield from _comments_and_strings(tree.root_node)

    def reparse_after_insert(
        self, tree: tree_sitter.Tree, source: bytes, offset: int, inserted: bytes
    ) -> tree_sitter.Tree:
        """The block tree of ``source`` with ``inserted`` put in at ``offset``, re-parsed
        incrementally from ``tree`` (which is left as it was)."""
        edited = tree.copy()
        row = source.count(b"\n", 0, offset)
        column = offset - (source.rfind(b"\n", 0, offset) + 1)
        end = offset + len(inserted)
        edited.edit(offset, offset, end, (row, column), (row, column), (row, column + len(inserted)))
        return self.block.parse(source[:offset] + inserted + source[offset:], edited)

    def mask_code(self, language: str, text: str) -> list[str]:
        """The lines of a code file in ``language`` with all but comments and strings blanked."""
        source = text.encode("utf-8")
        out = bytearray(source.translate(_BLANK_TABLE))
        for start, end, _ in _comments_and_strings(tree_sitter.Parser(self.code[language]).parse(source).root_node):
            out[start:end] = source[start:end]
        return [mask_social(mask_links(line)) for line in out.decode("utf-8", errors="ignore").split("\n")]


def _comments_and_strings(root: tree_sitter.Node) -> Iterator[tuple[int, int, bool]]:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in _CODE_KEEP:
            yield from _kept(node)
        else:
            stack.extend(node.children)


def _kept(node: tree_sitter.Node) -> Iterator[tuple[int, int, bool]]:
    """``node``'s range kept, but for its escapes and interpolations."""
    start = node.start_byte
    for child in node.children:
        if child.type in _CODE_BLANK:
            yield start, child.start_byte, False
            start = child.end_byte
    yield start, node.end_byte, False
