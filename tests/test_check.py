"""`nokta check` and `nokta restore --diff/--check` as CI and pre-commit run them: real processes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from nokta_lsp.state.settings import Settings
from nokta_model.app.check_files import check_options
from nokta_model.app.cli import build_parser
from nokta_model.check.findings import CheckOptions, SuggestionCache, check
from nokta_model.config import Config
from nokta_model.prose import masker_for

NOKTA = [sys.executable, "-m", "nokta_model"]
SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
ASCII = "Bugun hava cok guzel.\n\n```\ncok = 1  # kod\n```\n"
CORRECT = "Bugün hava çok güzel.\n"


def nokta(*args: str, cwd: Path | None = None, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([*NOKTA, *args], input=stdin, capture_output=True, cwd=cwd, timeout=180)


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    (tmp_path / "a.md").write_text(ASCII, encoding="utf-8")
    (tmp_path / "ok.md").write_text(CORRECT, encoding="utf-8")
    return tmp_path


def test_findings_as_path_line_col_and_exit_1(docs):
    done = nokta("check", "a.md", "ok.md", "--backend", "ngram", cwd=docs)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.decode().splitlines()
    assert [line.rsplit(" (", 1)[0] for line in lines] == [
        "a.md:1:1: Bugun -> Bugün",
        "a.md:1:12: cok -> çok",
        "a.md:1:16: guzel -> güzel",
    ]  # the code block's `cok` is not prose
    assert all(re.search(r" \((0|1)\.\d\d\)$", line) for line in lines)


def test_correct_text_exits_0_and_prints_nothing(docs):
    done = nokta("check", "ok.md", "--backend", "ngram", cwd=docs)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_the_cli_finds_what_the_servers_checker_finds_with_its_defaults(docs):
    args = build_parser().parse_args(["check", "a.md"])
    assert check_options(Config(), args.threshold, frozenset()) == CheckOptions(
        threshold=Settings().confidenceThreshold, strict_threshold=Settings().strictConfidenceThreshold
    )
    from nokta_model import load_restorer

    options = CheckOptions(threshold=Settings().confidenceThreshold)
    lines = ASCII.split("\n")
    server = check(lines, masker_for("markdown"), load_restorer("ngram"), SuggestionCache(), options)
    done = nokta("check", "a.md", "--backend", "ngram", "--output-format", "json", cwd=docs)
    found = json.loads(done.stdout)
    assert [(f["line"], f["column"], f["suggestion"]) for f in found] == [
        (f.line + 1, f.start + 1, f.replacement) for f in server
    ]


def test_ignored_words_from_the_option_and_the_workspace_file(docs):
    (docs / ".nokta-words.txt").write_text("# ours\nguzel\n", encoding="utf-8")
    done = nokta("check", "a.md", "--backend", "ngram", "--ignore", "Bugun", cwd=docs)
    assert [line.split(" (")[0] for line in done.stdout.decode().splitlines()] == ["a.md:1:12: cok -> çok"]


def test_standard_input_is_plain_text_named_dash():
    done = nokta("check", "-", "--backend", "ngram", stdin=b"yarin gorusuruz\n")
    assert done.returncode == 1 and done.stdout.decode().startswith("-:1:1: yarin -> yarın (")


def test_github_annotations(docs):
    done = nokta("check", "a.md", "--backend", "ngram", "--output-format", "github", cwd=docs)
    assert done.returncode == 1
    assert done.stdout.decode().splitlines()[0] == (
        "::warning file=a.md,line=1,endLine=1,col=1,endColumn=6,title=nokta::Bugun -> Bugün"
    )


def test_sarif_is_valid_against_the_2_1_0_schema(docs):
    done = nokta("check", "a.md", "ok.md", "--backend", "ngram", "--output-format", "sarif", cwd=docs)
    assert done.returncode == 1, done.stderr
    log = json.loads(done.stdout)
    jsonschema.Draft4Validator(json.loads(SCHEMA.read_text(encoding="utf-8"))).validate(log)
    (run,) = log["runs"]
    assert run["columnKind"] == "unicodeCodePoints"
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]} == {"a.md"}
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in run["results"]]
    assert [(r["startLine"], r["startColumn"], r["endColumn"]) for r in regions] == [
        (1, 1, 6),
        (1, 12, 15),
        (1, 16, 21),
    ]
    clean = nokta("check", "ok.md", "--backend", "ngram", "--output-format", "sarif", cwd=docs)
    assert clean.returncode == 0 and json.loads(clean.stdout)["runs"][0]["results"] == []


def test_sarif_locations_are_uri_references(docs):
    (docs / "my notes.md").write_text(ASCII, encoding="utf-8")
    done = nokta("check", "my notes.md", "--backend", "ngram", "--output-format", "sarif", cwd=docs)
    (first, *_) = json.loads(done.stdout)["runs"][0]["results"]
    assert first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "my%20notes.md"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "missing.md"], "missing.md: No such file"),
        (["check", "a.md", "--output-format", "xml"], "invalid choice"),
        (["check", "-", "-"], "standard input (-) can be read once"),
    ],
)
def test_errors_exit_2_as_findings_are_1(docs, args, message):
    done = nokta(*args, "--backend", "ngram", cwd=docs)
    assert done.returncode == 2 and message in done.stderr.decode() and "Traceback" not in done.stderr.decode()


def test_restore_diff_prints_a_patch_and_writes_nothing(docs):
    before = (docs / "a.md").stat()
    done = nokta("restore", "--diff", "a.md", "ok.md", "--backend", "ngram", cwd=docs)
    assert done.returncode == 0, done.stderr
    diff = done.stdout.decode()
    assert diff.startswith("--- a.md\n+++ a.md\n@@ -1,4 +1,4 @@\n-Bugun hava cok guzel.\n+Bugün hava çok güzel.\n \n")
    assert "ok.md" not in diff
    after = (docs / "a.md").stat()
    assert (after.st_mtime_ns, after.st_size) == (before.st_mtime_ns, before.st_size)
    assert sorted(p.name for p in docs.iterdir()) == ["a.md", "ok.md"]
    restored = nokta("restore", "a.md", "--backend", "ngram", cwd=docs).stdout
    subprocess.run(["patch", "-s", "-p0"], input=done.stdout, cwd=docs, check=True)
    assert (docs / "a.md").read_bytes() == restored


def test_diff_marks_a_missing_final_newline(tmp_path):
    (tmp_path / "n.txt").write_bytes(b"cok")
    done = nokta("restore", "--diff", "n.txt", "--backend", "ngram", cwd=tmp_path)
    assert done.stdout.decode().endswith("-cok\n\\ No newline at end of file\n+çok\n\\ No newline at end of file\n")


def test_restore_check_exits_1_when_something_would_change(docs):
    changed = nokta("restore", "--check", "a.md", "ok.md", "--backend", "ngram", cwd=docs)
    assert changed.returncode == 1 and changed.stderr.decode() == "would restore a.md\n"
    assert (docs / "a.md").read_text(encoding="utf-8") == ASCII
    clean = nokta("restore", "--check", "ok.md", "--backend", "ngram", cwd=docs)
    assert (clean.returncode, clean.stdout, clean.stderr) == (0, b"", b"")
    refused = nokta("restore", "--check", "a.md", "-i", "--backend", "ngram", cwd=docs)
    assert refused.returncode == 2 and "write no file" in refused.stderr.decode()
