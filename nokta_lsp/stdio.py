"""Serve over stdin/stdout with asyncio's pipe transport.

pygls' own stdio reader reads every header line and body in a thread pool: several
thread hand-offs per message, each of which can wait for the analysis thread to let go
of the GIL. Reading the pipe on the event loop removes them. Falls back to pygls'
reader when stdin is not a pipe (a file or a terminal).
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading

from pygls.io_ import StdoutWriter, run_async
from pygls.lsp.server import LanguageServer

log = logging.getLogger(__name__)


class PipeReader:
    """``readline``/``readexactly`` as pygls' message loop wants them; EOF reads as b""."""

    def __init__(self, stream: asyncio.StreamReader):
        self.stream = stream

    async def readline(self) -> bytes:
        try:
            return await self.stream.readline()
        except ValueError:  # a line longer than the stream's limit: skipped, not a header
            return b"(skipped)\n"

    async def readexactly(self, n: int) -> bytes:
        try:
            return await self.stream.readexactly(n)
        except asyncio.IncompleteReadError as error:
            return error.partial


async def _serve(server: LanguageServer) -> bool:
    """Serve until exit or end of input; False when stdin cannot be read as a pipe."""
    loop = asyncio.get_running_loop()
    stream = asyncio.StreamReader(limit=2**20)
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stream), sys.stdin.buffer)
    except (ValueError, OSError) as error:
        log.info("stdin is not a pipe (%s): using pygls' reader", error)
        return False
    server._stop_event = stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    await run_async(
        stop_event=stop_event,
        reader=PipeReader(stream),
        protocol=server.protocol,
        logger=log,
        error_handler=server.report_server_error,
    )
    return True


def serve_stdio(server: LanguageServer) -> None:
    try:
        served = asyncio.run(_serve(server))
    except BrokenPipeError:
        log.error("the client closed the connection")
        served = True
    except (KeyboardInterrupt, SystemExit):
        served = True
    if served:
        server.shutdown()
    else:
        server.start_io()
