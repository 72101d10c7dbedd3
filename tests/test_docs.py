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
