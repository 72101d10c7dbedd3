"""``nokta-lsp``: start the language server over stdio (default) or TCP."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys

from nokta_model.backends import load_restorer

from .protocol.server import VERSION
from .state.engine import Loader


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="nokta-lsp", description="Language server that restores Turkish diacritics.")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default)")
    mode.add_argument("--tcp", nargs=2, metavar=("HOST", "PORT"), help="listen on HOST PORT")
    parser.add_argument("--log-file", help="write logs here instead of stderr")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="-v for info, -vv for debug logs")
    parser.add_argument("--version", action="version", version=f"nokta-lsp {VERSION}")
    return parser.parse_args(argv)


def configure_logging(log_file: str | None, verbose: int) -> None:
    """Logs go to stderr or the log file, never to stdout (the protocol's channel)."""
    level = (logging.WARNING, logging.INFO, logging.DEBUG)[min(verbose, 2)]
    handler = logging.FileHandler(log_file, encoding="utf-8") if log_file else logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[handler], force=True)
    if verbose < 2:  # pygls logs every message body at info level
        logging.getLogger("pygls").setLevel(logging.WARNING)


def main(argv: list[str] | None = None, loader: Loader = load_restorer) -> int:
    """The server's entry point; ``loader`` loads its models (tests give a fake one)."""
    args = parse_args(argv)
    configure_logging(args.log_file, args.verbose)
    from .process import configure_process
    from .protocol.handlers import build_server
    from .protocol.transport import serve_stdio, shutdown_requested

    configure_process()
    server = build_server(loader)
    if args.tcp:
        host, port = args.tcp
        if not port.isdigit():
            print(f"nokta-lsp: port must be a number, got {port!r}", file=sys.stderr)
            return 2
        server.start_tcp(host, int(port))
    else:
        serve_stdio(server)
    _exit_now(0 if shutdown_requested(server) else 1)
    return 0


def _exit_now(code: int) -> None:
    """Leave at once after ``exit``: an analysis still running in the worker thread is
    of no use to anyone, and the interpreter would otherwise wait for it to finish."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # already closed by the protocol's writer
            stream.flush()
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
