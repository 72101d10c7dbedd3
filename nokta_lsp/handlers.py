"""The server with every feature's handlers registered (the handlers are in ``features``)."""

from __future__ import annotations

from nokta_model.backends import load_restorer

from .engine import Loader
from .features import autocorrect, code_actions, commands, configuration, diagnostics, documents, hover, lifecycle
from .server import NoktaServer


def build_server(loader: Loader = load_restorer) -> NoktaServer:
    server = NoktaServer(loader)
    for feature in (lifecycle, configuration, documents, diagnostics, hover, code_actions, commands, autocorrect):
        feature.register(server)
    return server
