"""The server with every feature's handlers registered (the handlers are in ``features``)."""

from __future__ import annotations

from .features import code_actions, commands, configuration, diagnostics, documents, hover, lifecycle
from .server import NoktaServer


def build_server() -> NoktaServer:
    server = NoktaServer()
    for feature in (lifecycle, configuration, documents, diagnostics, hover, code_actions, commands):
        feature.register(server)
    return server
