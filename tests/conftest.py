import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest_plugins = ["tests.lsp.fixtures"]  # the LSP tests' ``client``

#: Every session the tests build, in process or in a server they start, asserts that it
#: changes only on its event loop's thread (``nokta_lsp.state.loop_thread``).
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


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel as the release workflow builds them (``python -m build``: the
    wheel from the sdist), built once for the tests that read them (test_wheel, test_release)."""
    out = tmp_path_factory.mktemp("dist")
    root = Path(__file__).resolve().parents[1]
    build = [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(root)]
    subprocess.run(build, check=True, capture_output=True, timeout=600)
    return out
