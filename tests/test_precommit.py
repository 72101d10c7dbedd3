"""The hooks of .pre-commit-hooks.yaml under the real pre-commit, on a temporary git repository.

pre-commit installs a `language: python` hook by creating a virtualenv and pip-installing
this repository into it: torch and the other dependencies, minutes and network access. So
the test runs each hook as published (its entry, file types, stages, serial run) from a
local configuration with `language: system`, pointed at the nokta of the environment
running the tests; offline, in seconds.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from bench.public_index import public_index_env

ROOT = Path(__file__).resolve().parents[1]
ASCII, RESTORED = "Bugun hava cok guzel.\n", "Bugün hava çok güzel.\n"


def published_hooks() -> list[dict]:
    return yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))


def as_local(hook: dict) -> dict:
    """The published hook, run by this environment's nokta (the count-based model, for speed)."""
    command = shlex.split(hook["entry"])
    assert command[0] == "nokta"
    entry = shlex.join([sys.executable, "-m", "nokta_model", *command[1:]])
    return hook | {"language": "system", "entry": entry, "args": ["--backend", "ngram"]}


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    repo = new_repository(tmp_path / "repo")
    config = {"repos": [{"repo": "local", "hooks": [as_local(hook) for hook in published_hooks()]}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    (repo / "a.md").write_text(ASCII, encoding="utf-8")
    (repo / "ok.txt").write_text(RESTORED, encoding="utf-8")
    (repo / "code.py").write_text("x = 1  # cok guzel\n", encoding="utf-8")  # not a document: not checked
    git(repo, "add", ".")
    return repo


def new_repository(repo: Path) -> Path:
    repo.mkdir()
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "test@example.com")
    git(repo, "config", "user.name", "Test")
    return repo


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = env or offline(repo)
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, env=env, timeout=600)


def offline(repo: Path) -> dict[str, str]:
    return os.environ | {"PRE_COMMIT_HOME": str(repo.parent / "pre-commit-home"), "PIP_NO_INDEX": "1"}


def pre_commit(repo: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "pre_commit", *args]
    return subprocess.run(command, cwd=repo, capture_output=True, text=True, env=env or offline(repo), timeout=300)


def test_the_manifest_is_valid():
    done = pre_commit(ROOT, "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert {hook["id"] for hook in published_hooks()} == {"nokta-check", "nokta-restore", "nokta-check-commit-msg"}


def test_check_hook_fails_on_documents_with_findings(repository):
    done = pre_commit(repository, "run", "nokta-check", "--all-files")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "a.md:1:1: Bugun -> Bugün (" in done.stdout
    assert "code.py" not in done.stdout and "ok.txt" not in done.stdout
    (repository / "a.md").write_text(RESTORED, encoding="utf-8")
    assert pre_commit(repository, "run", "nokta-check", "--all-files").returncode == 0


def test_fix_hook_restores_in_place_and_stops_the_commit_once(repository):
    first = pre_commit(repository, "run", "nokta-restore", "--all-files")
    assert first.returncode == 1 and "files were modified by this hook" in first.stdout, first.stdout
    assert (repository / "a.md").read_text(encoding="utf-8") == RESTORED
    assert (repository / "code.py").read_text(encoding="utf-8") == "x = 1  # cok guzel\n"
    git(repository, "add", "a.md")
    assert pre_commit(repository, "run", "nokta-restore", "--all-files").returncode == 0


def test_commit_msg_hook_checks_the_message(repository):
    installed = pre_commit(repository, "install", "--hook-type", "commit-msg")
    assert installed.returncode == 0, installed.stderr
    refused = git(repository, "commit", "-q", "-m", "Yarin gorusuruz")
    assert refused.returncode != 0 and "Yarin -> Yarın" in refused.stdout + refused.stderr
    accepted = git(repository, "commit", "-q", "-m", "Yarın görüşürüz")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert git(repository, "log", "--format=%s").stdout == "Yarın görüşürüz\n"


def test_each_hook_runs_only_in_its_stage(repository):
    """With both stages installed, a commit runs each hook once and lists none as skipped."""
    (repository / "a.md").write_text(RESTORED, encoding="utf-8")
    git(repository, "add", "a.md")
    installed = pre_commit(repository, "install", "--hook-type", "pre-commit", "--hook-type", "commit-msg")
    assert installed.returncode == 0, installed.stderr
    done = git(repository, "commit", "-m", "Yarın görüşürüz")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    ran = [line.split(".", 1)[0] for line in output.splitlines() if line.endswith(("Passed", "Skipped"))]
    assert ran == [hook["name"] for hook in published_hooks()], output


def test_the_hooks_read_the_repositorys_configuration(repository):
    """pre-commit names every file: the configuration's exclude holds for named files."""
    (repository / ".nokta.toml").write_text('exclude = ["drafts/"]\nwords = ["guzel"]\n', encoding="utf-8")
    (repository / "drafts").mkdir()
    (repository / "drafts" / "d.md").write_text(ASCII, encoding="utf-8")
    git(repository, "add", ".")
    checked = pre_commit(repository, "run", "nokta-check", "--all-files")
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "a.md:1:12: cok -> çok (" in checked.stdout
    assert "drafts" not in checked.stdout and "guzel" not in checked.stdout
    restored = pre_commit(repository, "run", "nokta-restore", "--all-files")
    assert restored.returncode == 1, restored.stdout
    assert (repository / "a.md").read_text(encoding="utf-8") == "Bugün hava çok guzel.\n"
    assert (repository / "drafts" / "d.md").read_text(encoding="utf-8") == ASCII


def documented_config() -> dict:
    """The `.pre-commit-config.yaml` of docs/ci.md, as written there."""
    page = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    found = re.search(r"```yaml\n(# \.pre-commit-config\.yaml\n.*?)```", page, re.DOTALL)
    assert found, "docs/ci.md has no .pre-commit-config.yaml block"
    return yaml.safe_load(found.group(1))


def release_tag() -> str:
    return "v" + tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def test_the_docs_name_the_release_of_this_version():
    [repository] = documented_config()["repos"]
    assert repository["rev"] == release_tag()
    pinned = re.findall(r"git\+\S+@(\S+?)\"", (ROOT / "docs" / "ci.md").read_text(encoding="utf-8"))
    assert len(pinned) == 2 and set(pinned) == {release_tag()}  # the GitHub and GitLab snippets


def test_the_documented_config_works_as_written_against_a_clone(tmp_path):
    """docs/ci.md's configuration with its repo: a clone of this repository. pre-commit builds
    the hooks' environment as a user's does (language: python, pip from the public index) and
    the commit of a Markdown file typed in ASCII is stopped, the corrected one goes through."""
    clone = tmp_path / "nokta"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, timeout=300)
    config = documented_config()
    [hooks] = config["repos"]
    if not git(clone, "tag", "--list", hooks["rev"]).stdout:
        # CI checks out main without tags, and the release is tagged last (docs/development.md):
        # the clone gets the tag the docs name, at its HEAD
        git(clone, "tag", hooks["rev"])
    assert {hook["language"] for hook in published_hooks()} == {"python"}
    hooks["repo"] = str(clone)
    repo = new_repository(tmp_path / "repo")
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    (repo / "notes.md").write_text(ASCII, encoding="utf-8")
    env = public_index_env() | {"PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    installed = pre_commit(repo, "install", "--hook-type", "pre-commit", "--hook-type", "commit-msg", env=env)
    assert installed.returncode == 0, installed.stderr
    git(repo, "add", ".")
    stopped = git(repo, "commit", "-m", "Notlar eklendi", env=env)
    output = stopped.stdout + stopped.stderr  # the hooks write to standard error under git
    assert stopped.returncode == 1 and "notes.md:1:1: Bugun -> Bugün (" in output, output
    (repo / "notes.md").write_text(RESTORED, encoding="utf-8")
    git(repo, "add", "notes.md")
    done = git(repo, "commit", "-m", "Notlar eklendi", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert git(repo, "log", "--format=%s").stdout == "Notlar eklendi\n"
