"""The README and docs/: short references, no dead relative link, the Python example runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK_RE = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("page", ["README.md", "docs/language-server.md", "docs/model-card.md"])
def test_the_references_are_short(page: str):
    assert len((ROOT / page).read_text(encoding="utf-8")) <= 15_000


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_to_files(page: Path):
    for target in LINK_RE.findall(page.read_text(encoding="utf-8")):
        if not target.startswith(("http://", "https://", "mailto:")):
            assert (page.parent / target).exists(), f"{page.name}: dead link {target}"


def test_the_readme_python_example_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(.*?)```", readme, flags=re.DOTALL)
    lines = [line.split("  #")[0] for line in example.splitlines()]
    namespace: dict = {}
    exec("\n".join(lines), namespace)
    assert namespace["restorer"].restore(["Bugun hava cok guzel."]) == ["Bugün hava çok güzel."]


def test_ci_runs_the_readme_install_and_test_commands():
    """.ci/run runs the README's install line as written, and its test command."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    install = re.search(r"## Set up\n.*?```\n(python -m pip install [^\n]*)\n```", readme, flags=re.DOTALL)
    test = re.search(r"## Test\n+```\n([^\n]+)\n```", readme)
    assert install and test, "README.md: no install line under Set up or no command under Test"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert install.group(1) in ci
    assert any(line == test.group(1) or line.startswith(test.group(1) + " ") for line in ci)
