"""The release workflow (.github/workflows/release.yml), read and run here: a pushed tag
v* builds the sdist and the wheel (``python -m build``, the ``dist`` fixture: the same
build test_wheel.py installs), checks them with twine, packages the VS Code extension
(``npm run package``, which test_editors.py runs) and uploads all three."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

import nokta_model

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
VSCODE = "editors/vscode"


def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def steps() -> list[dict]:
    [job] = workflow()["jobs"].values()
    return job["steps"]


def commands(folder: str | None = None) -> list[str]:
    """The ``run`` commands of the steps in ``folder`` (None: the checkout's root), in order."""
    return [step["run"] for step in steps() if "run" in step and step.get("working-directory") == folder]


def test_a_pushed_version_tag_starts_it():
    flow = workflow()
    assert flow.get("on", flow.get(True)) == {"push": {"tags": ["v*"]}}  # YAML 1.1 reads `on` as true
    assert flow["permissions"] == {"contents": "write"}  # to create the release


def test_it_builds_checks_packages_and_uploads():
    version_check, install, build, check = commands()
    assert version_check.startswith('test "$GITHUB_REF_NAME" = ')
    assert install == 'python -m pip install "build>=1.2" "twine>=5"'
    assert (build, check) == ("python -m build", "python -m twine check --strict dist/*")
    assert commands(VSCODE) == ["npm ci", "npm run package"]
    [upload] = [step for step in steps() if step.get("uses", "").startswith("softprops/action-gh-release@")]
    package = json.loads((ROOT / VSCODE / "package.json").read_text(encoding="utf-8"))["scripts"]["package"]
    [vsix] = re.findall(r"vsce package .*--out (\S+)", package)
    assert upload["with"]["files"].split() == ["dist/*", f"{VSCODE}/{vsix}"]


def test_the_workflow_installs_the_build_tools_of_the_dev_extra():
    """The versions the release builds with are those a developer and CI have."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    dev = project["optional-dependencies"]["dev"]
    install = commands()[1]
    assert {"build>=1.2", "twine>=5"} <= set(dev)
    assert re.findall(r'"([^"]+)"', install) == ["build>=1.2", "twine>=5"]


def test_the_tag_must_name_this_version():
    version_check = commands()[0]
    path = f"{Path(sys.executable).parent}:{os.environ['PATH']}"  # `python` is this one
    for tag, status in ((f"v{nokta_model.__version__}", 0), ("v0.0.0", 1), ("main", 1)):
        env = os.environ | {"GITHUB_REF_NAME": tag, "PATH": path}
        assert subprocess.run(["bash", "-c", version_check], cwd=ROOT, env=env, timeout=60).returncode == status, tag


def test_the_built_sdist_and_wheel_pass_twine_check(dist: Path):
    built = sorted(path.name for path in dist.iterdir())
    version = nokta_model.__version__
    assert built == [f"nokta-{version}-py3-none-any.whl", f"nokta-{version}.tar.gz"]
    program, *arguments, files = commands()[3].split()
    assert (program, files) == ("python", "dist/*")
    twine = [sys.executable, *arguments, *map(str, sorted(dist.iterdir()))]
    checked = subprocess.run(twine, capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2, checked.stdout
