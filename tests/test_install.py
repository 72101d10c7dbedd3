"""What `pip install` of the project resolves from the public index, as on a user's machine:
this machine's wheel mirror and pip configuration switched off. Needs the network to PyPI
(CI has it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.public_index import CUDA_STACK, public_index_env

ROOT = Path(__file__).resolve().parents[1]


def resolved(requirement: str, report: Path) -> list[str]:
    """The names of the packages ``pip install requirement`` would install in an empty environment."""
    command = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet"]
    done = subprocess.run(
        [*command, "--report", str(report), requirement],
        env=public_index_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return sorted(item["metadata"]["name"].lower() for item in json.loads(report.read_text())["install"])


def test_a_plain_install_brings_onnx_runtime_and_no_torch_or_cuda_package(tmp_path):
    names = resolved(str(ROOT), tmp_path / "report.json")
    assert "nokta" in names and "onnxruntime" in names, names
    assert [name for name in names if name.startswith(CUDA_STACK)] == [], names
