"""``nokta restore --ambiguous``: the words of the restored prose where another spelling was
close (``calibration.CLOSE_BELOW``), listed on standard error as ``FILE:LINE:COLUMN``.

The restorer is asked for the choices of each batch's prose as it passes on to be
restored; what is restored and written is left as it is. Lines and columns are 1-based,
columns count code points, as ``nokta check`` counts them.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import TextIO

from ..calibration import CLOSE_BELOW
from ..pipeline import Piece
from ..restorer import Choice, Restorer


def close_call_line(name: str, line: int, column: int, choice: Choice) -> str:
    """``NAME:LINE:COLUMN: word: spelling (confidence) or spelling (confidence)``: the spelling
    written, then the next best."""
    best, other = choice.alternatives[:2]
    return (
        f"{name}:{line}:{column}: {choice.original}: {best.text} ({best.score:.2f}) or {other.text} ({other.score:.2f})"
    )


def with_close_calls(
    batches: Iterator[list[tuple[Piece, str]]], restorer: Restorer, name: str, stream: TextIO = sys.stderr
) -> Iterator[list[tuple[Piece, str]]]:
    """``batches`` (pieces with their prose) as they are, each one's close calls written to
    ``stream`` before it is passed on."""
    line, column = 1, 0  # where the next piece starts (a long line comes in several pieces)
    for batch in batches:
        for (piece, _), choices in zip(batch, restorer.choices([prose for _, prose in batch]), strict=True):
            for choice in choices:
                if choice.confidence < CLOSE_BELOW:
                    print(close_call_line(name, line, column + choice.span.start + 1, choice), file=stream)
            line, column = (line + 1, 0) if piece.end else (line, column + len(piece.body))
        stream.flush()
        yield batch
