import os

import pytest

#: Every session the tests build, in process or in a server they start, asserts that it
#: changes only on its event loop's thread (``nokta_lsp.loop_thread``).
os.environ["NOKTA_LSP_CHECK_THREADS"] = "1"


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", help="also run tests marked slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
