"""The LSP tests' fixtures, for every test module (``pytest_plugins`` in ``tests/conftest.py``):
``client`` is pytest-lsp's client of the server with the fixed-lexicon restorer. A module
that needs the real model defines its own: ``client = client_fixture(REAL_SERVER)``."""

from tests.lsp.client import FAKE_SERVER, client_fixture

client = client_fixture(FAKE_SERVER)
