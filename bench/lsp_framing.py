"""LSP base-protocol framing (``Content-Length`` headers) for clients that drive
``nokta-lsp`` as an editor would: the benchmarks and the tests' raw client."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any


def frame(message: dict[str, Any]) -> bytes:
    """One JSON-RPC message with its header, as written to the server's stdin."""
    return frame_body(json.dumps(message).encode("utf-8"))


def frame_body(body: bytes) -> bytes:
    """Any body (malformed ones too, for robustness tests) with its header."""
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


async def read_messages(stream: asyncio.StreamReader) -> AsyncIterator[dict[str, Any]]:
    """The messages on ``stream`` (the server's stdout) until it closes."""
    while True:
        length = 0
        while (header := await stream.readline()) not in (b"\r\n", b""):
            if header.lower().startswith(b"content-length:"):
                length = int(header.split(b":")[1])
        if not header:
            return
        yield json.loads(await stream.readexactly(length))
