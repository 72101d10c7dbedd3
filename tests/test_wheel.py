"""The package a user installs: a wheel built from the checkout, installed into a fresh
virtual environment (not editable), run from outside the checkout."""

from __future__ import annotations

import asyncio
import json
import os
import site
import subprocess
import tarfile
import venv
import zipfile
from pathlib import Path
from typing import Any

import pytest

import nokta_model
from bench.lsp_framing import frame, read_messages
from nokta_model.training.corpus import TRAIN_FILES

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = (
    "ngram.npz",
    "context.npz",
    "neural.safetensors",
    "neural.json",
    "neural.onnx",
    "default.json",
    "guard.json",
    "calibration.json",
    "calibration_ngram.json",
    "wide_bigrams.npz",
    "LICENSES.md",
)
LICENCE_FILES = ("LICENSE", "nokta_model/data/LICENSES.md")
# The installed commands run as a user's would: no PYTHONPATH pointing back into a checkout.
USER_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}


@pytest.fixture(scope="module")
def wheel(dist: Path) -> Path:
    (built,) = dist.glob("nokta-*.whl")
    return built


@pytest.fixture(scope="module")
def environment(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv with the wheel; dependencies (torch, pygls…) from the environment
    running the tests. (``system_site_packages`` would give the base interpreter's, which
    lacks them when the tests run in a virtualenv, as the README sets one up.) The folders
    are listed in a ``.pth`` file: their own ``.pth`` files, such as an editable install's
    hook back into the checkout, are not run, so ``nokta_model`` is the wheel's."""
    folder = tmp_path_factory.mktemp("venv")
    venv.create(folder, with_pip=True)
    python = folder / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    running = [*site.getsitepackages(), *([site.getusersitepackages()] if site.ENABLE_USER_SITE else [])]
    (Path(purelib) / "nokta-test-dependencies.pth").write_text("\n".join(running) + "\n", encoding="utf-8")
    subprocess.run(
        [python, "-m", "pip", "install", "--no-deps", "--no-index", str(wheel)],
        env=USER_ENV,
        check=True,
        capture_output=True,
        timeout=600,
    )
    return folder


def test_the_wheel_carries_the_models_their_licences_and_the_config_schema(wheel: Path):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(f"nokta-{nokta_model.__version__}.dist-info/METADATA").decode()
    assert all(f"nokta_model/data/{name}" in names for name in SHIPPED)
    assert "nokta_model/config/schema.json" in names  # the configuration's schema, for editors
    assert wheel.name.startswith(f"nokta-{nokta_model.__version__}-")
    assert all(f"License-File: {name}" in metadata.splitlines() for name in LICENCE_FILES)


def test_the_sdist_carries_the_models_and_their_licences(dist: Path):
    (sdist,) = dist.glob("nokta-*.tar.gz")
    top = f"nokta-{nokta_model.__version__}"
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    assert all(f"{top}/nokta_model/data/{name}" in names for name in SHIPPED)
    assert all(f"{top}/{name}" in names for name in LICENCE_FILES)


def test_the_installed_commands_run_outside_the_checkout(environment: Path, tmp_path: Path):
    python, bin_dir = environment / "bin" / "python", environment / "bin"
    where = subprocess.run(
        [python, "-c", "import nokta_model; print(nokta_model.__file__)"],
        cwd=tmp_path,
        env=USER_ENV,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert Path(where).resolve().is_relative_to(environment.resolve())  # the wheel's copy, not the checkout
    restored = subprocess.run(
        [bin_dir / "nokta", "restore", "--backend", "ngram"],
        input="Turkiye'nin baskenti Ankara'dir.\n",
        cwd=tmp_path,
        env=USER_ENV,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout == "Türkiye'nin başkenti Ankara'dır.\n"
    assert initialize_and_exit(bin_dir / "nokta-lsp", tmp_path)["serverInfo"]["name"] == "nokta-lsp"


def test_the_installed_commands_print_the_extension_version(environment: Path, tmp_path: Path):
    extension = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    for command in ("nokta", "nokta-lsp"):
        printed = subprocess.run(
            [environment / "bin" / command, "--version"],
            cwd=tmp_path,
            env=USER_ENV,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert printed.stdout.split() == [command, extension["version"]], printed.stderr


def initialize_and_exit(server: Path, cwd: Path) -> dict:
    """The server's initialize result; it must then shut down and exit with status 0."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    stdin = b"".join(frame(message) for message in messages)
    result = subprocess.run([server, "--stdio"], input=stdin, cwd=cwd, env=USER_ENV, capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode()
    by_id = {reply.get("id"): reply for reply in decoded(result.stdout)}
    assert by_id[2]["result"] is None
    return by_id[1]["result"]


def decoded(stdout: bytes) -> list[dict[str, Any]]:
    """The messages in a finished server's output, read by the shared LSP reader."""

    async def read_all() -> list[dict[str, Any]]:
        stream = asyncio.StreamReader()
        stream.feed_data(stdout)
        stream.feed_eof()
        return [message async for message in read_messages(stream)]

    return asyncio.run(read_all())


def test_the_wheel_trains_the_network_from_its_own_presets(wheel: Path, environment: Path, tmp_path: Path):
    with zipfile.ZipFile(wheel) as archive:
        presets = {Path(name).stem for name in archive.namelist() if "training/neural/configs/" in name}
    assert {"small-cased", "main", "tiny"} <= presets
    corpus = tmp_path / "corpus" / "train"
    corpus.mkdir(parents=True)
    lines = [f"Bugün hava çok güzel, {n}. gün ışığı içeri düşüyor." for n in range(200)]
    for corpus_file in TRAIN_FILES:
        (corpus / corpus_file.name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = tmp_path / "run"
    command = ["train", "--backend", "neural", "--config", "tiny", "--corpus", str(corpus.parent), "--output", str(run)]
    trained = subprocess.run(
        [environment / "bin" / "nokta", *command],
        cwd=tmp_path,
        env=USER_ENV,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert trained.returncode == 0, trained.stderr
    assert (run / "best.safetensors").exists()
    assert json.loads((run / "history.json").read_text())["history"]
