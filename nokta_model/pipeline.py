"""`nokta restore`'s path from bytes to bytes, in bounded memory.

1. ``read_pieces`` decodes a byte stream as it arrives into pieces: whole lines with
   their line ends, a line longer than ``MAX_PIECE_CHARS`` cut after a space, so memory
   never depends on the size of a file or of one line.
2. ``ProseFilter`` masks what is not Turkish prose (``nokta_model.prose``: the format's
   markup, code, URLs, @mentions; the language of each sentence is the restorer's to
   decide, on the sentence alone: ``nokta_model.codeswitch``), keeping state
   from piece to piece as a document is read.
3. ``restore_pieces`` restores the prose and puts back only the letters that changed.

``prose_batches`` chains the first two; the CLI restores its batches in this process or
in workers (``workers``) and writes them through safe output (``safe_output``).
``restore_lines`` runs all three on lines already in memory (e.g. a Ray actor's batch).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator, Sequence
from io import BufferedIOBase
from typing import NamedTuple

from .check.words import is_ignored, word_key
from .errors import NoktaError
from .prose import Masker, blank, document_ignores, line_ignores, masker_for
from .restorer import Restorer
from .spans import word_spans

#: Bytes per read, and so per batch restored: a batch's models hold their working arrays at
#: once, so its size sets the peak; larger batches peaked higher, and higher on larger
#: inputs, for no more speed (bench.cli_memory).
READ_BYTES = 1 << 16
MAX_PIECE_CHARS = 1 << 16  # a longer line is restored in pieces cut after whitespace
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
BOM = "\ufeff"  # UTF-8's byte-order mark, as text
_BINARY_PROBE = 8000
_UTF16_ADVICE = "looks like UTF-16, not UTF-8; convert it first, e.g. iconv -f UTF-16 -t UTF-8"
_TURKISH_8BIT = frozenset(b"\xfd\xfe\xf0\xdd\xde\xd0\xe7\xf6\xfc\xc7\xd6\xdc")  # ı ş ğ İ Ş Ğ ç ö ü Ç Ö Ü


class Piece(NamedTuple):  # a tuple: made for every line, faster than a frozen dataclass
    body: str  # text without its line end
    end: str  # "\n", "\r\n", or "" (the line goes on in the next piece, or the input ended)


def read_pieces(stream: BufferedIOBase, name: str) -> Iterator[tuple[list[Piece], int]]:
    """(the pieces each read completes, bytes read so far), as the bytes arrive: a pipe's
    line comes out as soon as it is complete. NoktaError for bytes that are not UTF-8."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    pending, offset = "", 0
    while True:
        chunk = stream.read1(READ_BYTES)
        if offset == 0:
            _refuse_non_text(chunk, name)
        try:
            pending += decoder.decode(chunk, final=not chunk)
        except UnicodeDecodeError as error:
            raise NoktaError(_encoding_message(name, chunk, error.start, offset)) from None
        offset += len(chunk)
        pieces, pending = _split(pending, final=not chunk)
        if pieces or not chunk:
            yield pieces, offset
        if not chunk:
            return


def _split(text: str, final: bool) -> tuple[list[Piece], str]:
    """The complete pieces of ``text`` and what is left for the next read."""
    *lines, rest = text.split("\n")
    pieces: list[Piece] = []
    for line in lines:
        body, end = (line[:-1], "\r\n") if line.endswith("\r") else (line, "\n")
        while len(body) > MAX_PIECE_CHARS:
            head, body = _cut(body)
            pieces.append(Piece(head, ""))
        pieces.append(Piece(body, end))
    while len(rest) > MAX_PIECE_CHARS:
        head, rest = _cut(rest)
        pieces.append(Piece(head, ""))
    if final and rest:
        pieces.append(Piece(rest, ""))
        rest = ""
    return pieces, rest


def _cut(text: str) -> tuple[str, str]:
    """``text`` cut after the last whitespace within ``MAX_PIECE_CHARS`` (hard cut if none)."""
    window = text[:MAX_PIECE_CHARS]
    cut = max(window.rfind(" "), window.rfind("\t"), window.rfind("\r")) + 1 or MAX_PIECE_CHARS
    return text[:cut], text[cut:]


def decode_text(data: bytes, name: str) -> str:
    """A whole file's bytes as UTF-8 text; NoktaError naming the likely encoding otherwise."""
    _refuse_non_text(data, name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise NoktaError(_encoding_message(name, data, error.start)) from None


#: Line ends as the language server splits a document (LF, CRLF, CR), so columns agree.
_LINE_END_RE = re.compile(r"\r\n|\r|\n")


def document_lines(data: bytes, name: str) -> list[str]:
    """A file's lines as the server sees them (an editor hides a UTF-8 byte-order mark, so
    columns count from after it); NoktaError for bytes that are not UTF-8 text."""
    return _LINE_END_RE.split(decode_text(data, name).removeprefix(BOM))


def _looks_like_utf16(head: bytes) -> bool:
    """A UTF-16 byte-order mark, or zero bytes in over 30% of the first 200, nearly all on
    even or all on odd offsets (UTF-16 text in the Latin script has one in every two
    bytes, on the same side; UTF-8 text has none, and a binary file has them anywhere)."""
    sample = head[:200]
    zeros = [offset % 2 for offset, byte in enumerate(sample) if byte == 0]
    one_side = max(zeros.count(0), zeros.count(1)) >= 0.9 * len(zeros)
    return head.startswith(_UTF16_BOMS) or (len(zeros) > 0.3 * len(sample) and one_side)


def _refuse_non_text(head: bytes, name: str) -> None:
    """NoktaError for UTF-16 input, which may decode as UTF-8 (zero bytes are valid there),
    and for a binary file: a zero byte in the first 8,000, as git decides."""
    if _looks_like_utf16(head):
        raise NoktaError(f"{name}: {_UTF16_ADVICE}")
    if 0 in head[:_BINARY_PROBE]:
        raise NoktaError(f"{name}: a binary file (it holds zero bytes), not text")


def _encoding_message(name: str, data: bytes, position: int, offset: int = 0) -> str:
    """One line for bytes that are not UTF-8, naming the likely encoding."""
    byte = data[position]
    if _looks_like_utf16(data):
        return f"{name}: {_UTF16_ADVICE}"
    if byte in _TURKISH_8BIT:
        return (
            f"{name}: not UTF-8 (byte {byte:#04x} at offset {offset + position}); it looks like Windows-1254 or "
            "ISO-8859-9 (Turkish 8-bit): convert it first, e.g. iconv -f WINDOWS-1254 -t UTF-8"
        )
    return f"{name}: not UTF-8 text (byte {byte:#04x} at offset {offset + position})"


class ProseFilter:
    """The prose of pieces as a document streams by: the format's masker. Words accepted
    as typed (``ignores``, as ``word_key``s) are blanked, and so are those a
    ``nokta: ignore`` directive names, from its line on."""

    def __init__(self, masker: Masker, ignores: frozenset[str] = frozenset()) -> None:
        self.masker, self.ignores = masker, ignores
        self.state = masker.start
        self.at_start = True

    def feed(self, pieces: list[Piece]) -> list[tuple[Piece, str]]:
        """Each piece with its prose (same length, the rest blanked)."""
        decided: list[tuple[Piece, str]] = []
        for piece in pieces:
            masked = self._mask(piece.body)
            named = line_ignores(self.state)
            if named:
                self.ignores = self.ignores | {word_key(word) for word in named}
            decided.append((piece, blank_ignored(masked, self.ignores) if self.ignores else masked))
        return decided

    def _mask(self, body: str) -> str:
        """The masker's prose of a piece; a byte-order mark opening the document is no text
        (the masker sees the first line as it would without it: a fence, front matter)."""
        bom = self.at_start and body.startswith(BOM)
        self.at_start = False
        masked, self.state = self.masker.mask_line(self.state, body[1:] if bom else body)
        return " " + masked if bom else masked


def blank_ignored(text: str, ignores: frozenset[str]) -> str:
    """``text`` with the words accepted as typed (and their forms: ``is_ignored``) blanked."""
    for span in word_spans(text):
        if is_ignored(text[span.start : span.end], ignores):
            text = text[: span.start] + blank(text[span.start : span.end]) + text[span.end :]
    return text


def file_ignores(stream: BufferedIOBase, name: str, masker: Masker) -> frozenset[str]:
    """The words the ``nokta: ignore`` directives of a whole file name (``masker`` from
    ``prose.with_rules``): a first pass over it, in constant memory."""
    bodies = (piece.body for pieces, _ in read_pieces(stream, name) for piece in pieces)
    return frozenset(word_key(word) for word in document_ignores(masker, bodies))


def passed_through(stream: BufferedIOBase, name: str) -> Iterator[str]:
    """A stream's text as it is, batch by batch (a file the configuration excludes)."""
    for pieces, _ in read_pieces(stream, name):
        yield "".join(piece.body + piece.end for piece in pieces)


def restore_pieces(restorer: Restorer, decided: list[tuple[Piece, str]]) -> str:
    """The pieces' text with the prose restored and every other character as it was."""
    return "".join(_restored_texts(restorer, decided))


def _restored_texts(restorer: Restorer, decided: list[tuple[Piece, str]]) -> list[str]:
    restored = restorer.restore([prose for _, prose in decided])
    return [
        _put_back(piece.body, prose, new) + piece.end for (piece, prose), new in zip(decided, restored, strict=True)
    ]


def restore_lines(restorer: Restorer, lines: Sequence[str], format_name: str = "plain") -> list[str]:
    """``lines`` restored as the lines of one document in ``format_name`` (a name of
    ``nokta_model.prose.FORMATS``), one result per line: the same letters ``nokta restore``
    changes in a file holding them. A line may hold line ends and be of any length."""
    prose = ProseFilter(masker_for(format_name))
    counts: list[int] = []
    decided: list[tuple[Piece, str]] = []
    for line in lines:
        pieces, _ = _split(line, final=True)
        counts.append(len(pieces))
        decided += prose.feed(pieces)
    texts = iter(_restored_texts(restorer, decided))
    return ["".join(next(texts) for _ in range(count)) for count in counts]


def _put_back(body: str, prose: str, restored: str) -> str:
    """``body`` with the letters that restoring changed in its prose."""
    if restored == prose:
        return body
    if prose == body:
        return restored
    letters = list(body)
    for index, (before, after) in enumerate(zip(prose, restored, strict=True)):
        if before != after:
            letters[index] = after
    return "".join(letters)


def prose_batches(
    stream: BufferedIOBase,
    name: str,
    masker: Masker,
    ignores: frozenset[str] = frozenset(),
) -> Iterator[tuple[list[tuple[Piece, str]], int]]:
    """(pieces decided with their prose, bytes read so far), one batch per read."""
    prose = ProseFilter(masker, ignores)
    for pieces, read in read_pieces(stream, name):
        decided = prose.feed(pieces)
        if decided:
            yield decided, read
