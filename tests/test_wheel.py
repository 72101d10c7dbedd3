"""The package a user installs: a wheel built from the checkout, installed into a fresh
virtual environment (not editable), run from outside the checkout."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

import nokta_model
from nokta_lsp.framing import frame

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("ngram.npz", "context.npz", "neural.safetensors", "neural.json", "default.json", "LICENSES.md")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (built,) = out.glob("nokta-*.whl")
    return built


@pytest.fixture(scope="module")
def environment(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv with the wheel; dependencies (torch, pygls…) from this environment."""
    folder = tmp_path_factory.mktemp("venv")
    venv.create(folder, system_site_packages=True, with_pip=True)
    python = folder / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return folder


def test_the_wheel_carries_the_models_and_their_licences(wheel: Path):
    names = zipfile.ZipFile(wheel).namelist()
    assert all(f"nokta_model/data/{name}" in names for name in SHIPPED)
    assert wheel.name.startswith(f"nokta-{nokta_model.__version__}-")


def test_the_installed_commands_run_outside_the_checkout(environment: Path, tmp_path: Path):
    python, bin_dir = environment / "bin" / "python", environment / "bin"
    where = subprocess.run(
        [python, "-c", "import nokta_model; print(nokta_model.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert Path(where).resolve().is_relative_to(environment.resolve())  # the wheel's copy, not the checkout
    restored = subprocess.run(
        [bin_dir / "nokta", "restore", "--backend", "ngram"],
        input="Turkiye'nin baskenti Ankara'dir.\n",
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout == "Türkiye'nin başkenti Ankara'dır.\n"
    assert initialize_and_exit(bin_dir / "nokta-lsp", tmp_path)["serverInfo"]["name"] == "nokta-lsp"


def initialize_and_exit(server: Path, cwd: Path) -> dict:
    """The server's initialize result; it must then shut down and exit with status 0."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    stdin = b"".join(frame(message) for message in messages)
    result = subprocess.run([server, "--stdio"], input=stdin, cwd=cwd, capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode()
    replies = [json.loads(part.split(b"\r\n\r\n", 1)[1]) for part in result.stdout.split(b"Content-Length")[1:]]
    by_id = {reply.get("id"): reply for reply in replies}
    assert by_id[2]["result"] is None
    return by_id[1]["result"]
