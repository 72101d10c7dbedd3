"""Markup masking: nokta's line maskers against tree-sitter parsers.

    python -m bench.markup [--baseline-rev REV] [--large FILE] [--runs 5]

Correctness, in words left as prose that should not be (a restorer may change them) and
prose words blanked (left unrestored), on two test sets:

- the 652 examples of the CommonMark spec 0.31.2 (``bench/data/commonmark_spec.txt``):
  the prose of an example is the text of the spec's own HTML output outside code, raw
  HTML, comments and autolinks, with image descriptions; an example is right when the
  masker leaves exactly its words;
- ``bench/data/markup_cases.txt``: tricky Turkish Markdown (comments, escapes, fences
  with a language, HTML blocks, lists, URLs) and Python, JavaScript and shell files,
  each with the words a reader would call prose, written by hand.

Speed is masking alone (no restoring) in characters per second on a large Markdown file
(default: the spec and every Markdown file of this repository, each once), median of
``--runs`` runs taken in turn. Start-up is a fresh process importing the masker and
making it ready (the median of runs taken in turn, minus the interpreter's own start),
peak memory a fresh process masking the large file, install size the unpacked size of
the packages each needs beyond this project. ``--baseline-rev`` also measures the
Markdown masker of an earlier commit (its ``markdown.py`` and ``html.py``).
Writes bench/results/markup.json and markup.md.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import statistics
import subprocess
import sys
import time
import types
from collections import Counter
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

from bench.report import markdown_table, run_facts, write_report
from nokta_model import prose
from nokta_model.prose.base import mask_links, mask_social
from nokta_model.spans import SCORED_WORD_RE

ROOT = Path(__file__).resolve().parent
SPEC = ROOT / "data" / "commonmark_spec.txt"
CASES = ROOT / "data" / "markup_cases.txt"
#: Format of a test case -> nokta's masker.
LINE_MASKERS = {"markdown": "markdown", "python": "code-hash", "javascript": "code-c", "bash": "code-hash"}
TREE_SITTER_PACKAGES = ("tree-sitter", "tree-sitter-markdown", "tree-sitter-python", "tree-sitter-javascript")
TREE_SITTER_PACKAGES += ("tree-sitter-bash",)

Masker = Callable[[str], list[str]]  # a document's text -> its masked lines


def spec_examples() -> list[tuple[str, str, str]]:
    """(section, Markdown, reference HTML) of every example of the spec."""
    examples, section = [], ""
    lines = SPEC.read_text(encoding="utf-8").split("\n")
    fence = "`" * 32 + " example"
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("#") and not line.startswith("#" * 7):
            section = line.lstrip("#").strip()
        if line == fence:
            end = lines.index("`" * 32, index)
            dot = lines.index(".", index + 1)
            markdown = "\n".join(lines[index + 1 : dot]).replace("→", "\t")
            html = "\n".join(lines[dot + 1 : end]).replace("→", "\t")
            examples.append((section, markdown + "\n", html))
            index = end
        index += 1
    return examples


class _HtmlProse(HTMLParser):
    """The text of rendered HTML that is prose: not in code, not an autolink's text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.code_depth, self.link_href = 0, ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in ("code", "pre", "script", "style", "textarea"):
            self.code_depth += 1
        elif tag == "img":
            self.texts.append(values.get("alt") or "")
        elif tag == "a":
            self.link_href = values.get("href") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag in ("code", "pre", "script", "style", "textarea"):
            self.code_depth = max(0, self.code_depth - 1)

    def handle_data(self, data: str) -> None:
        autolink = self.link_href and self.link_href.removeprefix("mailto:") == data
        if not self.code_depth and not autolink:
            self.texts.append(data)


def html_prose_words(html: str) -> Counter[str]:
    parser = _HtmlProse()
    parser.feed(html)
    return words(" ".join(mask_social(mask_links(text)) for text in parser.texts))


def words(text: str) -> Counter[str]:
    return Counter(SCORED_WORD_RE.findall(text))


def read_cases() -> list[tuple[str, str, str, Counter[str]]]:
    """(format, name, text, prose words) of every hand-written case."""
    cases = []
    for block in CASES.read_text(encoding="utf-8").split("=== ")[1:]:
        header, *body = block.rstrip("\n").split("\n")
        form, name = header.split(" ", 1)
        expected = body.pop().removeprefix("prose:")
        cases.append((form, name, "\n".join(body) + "\n", Counter(expected.split())))
    return cases


def score(mask: Callable[[str, str], list[str]], tests: list[tuple[str, str, Counter[str]]]) -> dict[str, int]:
    """Examples right, words wrongly left as prose, prose words blanked, over (format, text, words)."""
    right = exposed = missed = 0
    for form, text, expected in tests:
        kept = words(" ".join(mask(form, text)))
        right += kept == expected
        exposed += sum((kept - expected).values())
        missed += sum((expected - kept).values())
    return {"examples": len(tests), "right": right, "exposed": exposed, "missed": missed}


def baseline_markdown(rev: str) -> types.ModuleType:
    """The Markdown masker module of commit ``rev``, on this tree's ``prose.base``."""
    package = types.ModuleType("nokta_baseline")
    package.__path__ = []
    sys.modules["nokta_baseline"] = package
    sys.modules["nokta_baseline.base"] = sys.modules["nokta_model.prose.base"]
    module = None
    for name in ("html", "markdown"):
        source = subprocess.run(
            ["git", "show", f"{rev}:nokta_model/prose/{name}.py"], cwd=ROOT.parent, capture_output=True, check=True
        ).stdout.decode()
        spec = importlib.util.spec_from_loader(f"nokta_baseline.{name}", loader=None)
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        module.__package__ = "nokta_baseline"
        sys.modules[spec.name] = module
        setattr(package, name, module)
        exec(compile(source, f"{rev}:{name}.py", "exec"), module.__dict__)
    assert module is not None
    return module


def line_masker(masker: prose.Masker) -> Masker:
    return lambda text: masker.mask_lines(text.split("\n"))


def tree_sitter_masker() -> tuple[Masker, Callable[[str, str], list[str]]]:
    """(Markdown masker, code-file masker by format) built on tree-sitter."""
    from bench.markup_treesitter import TreeSitterMarkdown

    parsers = TreeSitterMarkdown()
    return parsers.mask, parsers.mask_code


def correctness(maskers: dict[str, tuple[Masker, Callable[[str, str], list[str]] | None]]) -> dict:
    spec = [("markdown", markdown, html_prose_words(html)) for _, markdown, html in spec_examples()]
    cases = [(form, text, expected) for form, _, text, expected in read_cases()]
    result = {}
    for name, (markdown, code) in maskers.items():

        def mask(form: str, text: str, markdown: Masker = markdown, code=code) -> list[str]:
            if form == "markdown":
                return markdown(text)
            return code(form, text) if code else prose.masker_for(LINE_MASKERS[form]).mask_lines(text.split("\n"))

        result[name] = {
            "spec": score(mask, spec),
            "cases_markdown": score(mask, [t for t in cases if t[0] == "markdown"]),
            "cases_code": score(mask, [t for t in cases if t[0] != "markdown"]),
        }
    return result


def large_markdown() -> str:
    paths = [SPEC, *sorted(p for p in ROOT.parent.glob("**/*.md") if "node_modules" not in p.parts)]
    return "".join(path.read_text(encoding="utf-8") + "\n" for path in paths)


def speed(maskers: dict[str, Masker], text: str, runs: int) -> dict[str, float]:
    """Characters masked per second, median of ``runs`` runs taken in turn."""
    seconds: dict[str, list[float]] = {name: [] for name in maskers}
    for _ in range(runs):
        for name, mask in maskers.items():
            started = time.perf_counter()
            mask(text)
            seconds[name].append(time.perf_counter() - started)
    return {name: round(len(text) / statistics.median(times)) for name, times in seconds.items()}


#: Masker -> (its import, the expression that makes it ready).
_READY = {
    "line maskers": ("from nokta_model import prose", "prose.masker_for('markdown')"),
    "tree-sitter": ("from bench.markup_treesitter import TreeSitterMarkdown", "TreeSitterMarkdown()"),
}
_MASK_FILE = {
    "line maskers": "state = m.start\nfor line in open(sys.argv[1], encoding='utf-8'):\n"
    "    _, state = m.mask_line(state, line.rstrip('\\n'))\n",
    "tree-sitter": "m.mask(open(sys.argv[1], encoding='utf-8').read())\n",
}


def startup(runs: int) -> dict[str, float]:
    """Milliseconds a fresh process takes to import and ready each masker (median of runs in
    turn). tree-sitter's figure is what it adds to ``nokta_model.prose``, imported first."""
    seconds: dict[str, list[float]] = {name: [] for name in _READY}
    for _ in range(runs):
        for name, (imports, make) in _READY.items():
            before = "from nokta_model import prose\n" if name == "tree-sitter" else ""
            script = f"{before}import time\nt = time.perf_counter()\n{imports}\n{make}\nprint(time.perf_counter() - t)"
            out = subprocess.run([sys.executable, "-c", script], cwd=ROOT.parent, capture_output=True, check=True)
            seconds[name].append(float(out.stdout))
    return {name: round(statistics.median(times) * 1000) for name, times in seconds.items()}


def peak_memory(text: str, copies: int) -> dict[str, float]:
    """Peak resident MB of a fresh process masking ``copies`` copies of ``text``, beyond one
    that only readies the masker."""
    path = ROOT / "results" / "markup_large.tmp"
    path.write_text(text * copies, encoding="utf-8")
    result = {}
    try:
        for name, (imports, make) in _READY.items():
            peaks = []
            for body in (f"{imports}\nm = {make}", f"{imports}\nm = {make}\nimport sys\n{_MASK_FILE[name]}"):
                script = f"{body}\nimport resource\nprint(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
                command = [sys.executable, "-c", script, str(path)]
                peaks.append(int(subprocess.run(command, cwd=ROOT.parent, capture_output=True, check=True).stdout))
            result[name] = round((peaks[1] - peaks[0]) / 1024, 1)
    finally:
        path.unlink()
    return result


def edit_milliseconds(text: str, runs: int) -> dict[str, float]:
    """Milliseconds to bring the masks up to date after a character is typed at the end of the
    middle line, as the server must (median of runs): the line masker re-masks lines from the
    state before the edit until a line leaves the state it left before; tree-sitter re-parses
    the block tree incrementally (its inline parse of the changed paragraph not counted)."""
    from bench.markup_treesitter import TreeSitterMarkdown

    lines = text.split("\n")
    masker, row = prose.masker_for("markdown"), len(lines) // 2
    states = [masker.start]
    for line in lines:
        states.append(masker.mask_line(states[-1], line)[1])
    parsers = TreeSitterMarkdown()
    source = text.encode("utf-8")
    offset = len("\n".join(lines[: row + 1]).encode("utf-8"))
    tree = parsers.block.parse(source)
    seconds: dict[str, list[float]] = {"line maskers": [], "tree-sitter": []}
    for run in range(runs):
        typed = lines[row] + "abcdefghijklmnopqrstuvwxyz"[run % 26]
        started = time.perf_counter()
        state, index, current = states[row], row, typed
        while True:
            state = masker.mask_line(state, current)[1]
            index += 1
            if state == states[index] or index == len(lines):
                break
            current = lines[index]
        seconds["line maskers"].append(time.perf_counter() - started)
        started = time.perf_counter()
        parsers.reparse_after_insert(tree, source, offset, typed[-1].encode())
        seconds["tree-sitter"].append(time.perf_counter() - started)
    return {name: round(statistics.median(times) * 1000, 3) for name, times in seconds.items()}


def install_megabytes(packages: tuple[str, ...]) -> float:
    total = 0
    for package in packages:
        files = importlib.metadata.distribution(package).files or []
        total += sum(file.size or 0 for file in files)
    return round(total / 1e6, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline-rev", help="also measure the Markdown masker of this commit")
    parser.add_argument("--large", type=Path, help="the large Markdown file for speed and memory")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "markup")
    args = parser.parse_args()

    tree_markdown, tree_code = tree_sitter_masker()
    markdown = {"line maskers": line_masker(prose.masker_for("markdown")), "tree-sitter": tree_markdown}
    if args.baseline_rev:
        markdown[f"line maskers at {args.baseline_rev}"] = line_masker(baseline_markdown(args.baseline_rev).MASKER)
    codes = {"tree-sitter": tree_code}
    scores = correctness({name: (mask, codes.get(name)) for name, mask in markdown.items()})
    text = args.large.read_text(encoding="utf-8") if args.large else large_markdown()
    result = {
        **run_facts(),
        "large_file": {"path": str(args.large or "spec + repository *.md"), "chars": len(text)},
        "correctness": scores,
        "chars_per_second": speed(markdown, text, args.runs),
        "startup_ms": startup(args.runs),
        "edit_ms": edit_milliseconds(text, args.runs),
        "peak_memory_mb": {f"x{copies}": peak_memory(text, copies) for copies in (1, 8)},
        "install_mb": {"line maskers": 0.0, "tree-sitter": install_megabytes(TREE_SITTER_PACKAGES)},
    }
    write_report(args.out, result, report(result))


def report(result: dict) -> str:
    rows = []
    for name, scores in result["correctness"].items():
        spec, cases, code = scores["spec"], scores["cases_markdown"], scores["cases_code"]
        measured = [result[key].get(name, "") for key in ("startup_ms", "edit_ms")]
        measured += [result["peak_memory_mb"][copies].get(name, "") for copies in ("x1", "x8")]
        rows.append(
            [
                name,
                f"{spec['right']}/{spec['examples']}",
                spec["exposed"],
                spec["missed"],
                f"{cases['right']}/{cases['examples']}",
                cases["exposed"] + cases["missed"],
                "" if name.startswith("line maskers at") else f"{code['right']}/{code['examples']}",
                f"{result['chars_per_second'][name]:,}",
                *measured,
                result["install_mb"].get(name, ""),
            ]
        )
    header = ["masker", "spec right", "spec exposed", "spec missed", "cases right", "cases wrong words", "code right"]
    header += ["chars/s", "start-up ms", "edit ms", "peak MB", "peak MB x8", "install MB"]
    chars = result["large_file"]["chars"]
    caption = f"Markup maskers ({result['date']}, {result['machine']}); large file: {chars:,} chars"
    note = (
        "spec: the CommonMark 0.31.2 examples; exposed = words left to the restorer that are not prose, "
        "missed = prose words blanked. cases: bench/data/markup_cases.txt (Markdown; code files: Python, "
        "JavaScript, shell). chars/s: masking the large file alone, median of runs in turn. start-up: importing "
        "and readying the masker in a fresh process (tree-sitter: on top of nokta_model.prose). edit: bringing "
        "the masks up to date after one character typed mid-file (tree-sitter: incremental re-parse of the block "
        "tree only). peak MB: a fresh process masking the large file (x8: eight copies), beyond readying the "
        "masker (0.0: within the peak the imports reach). install MB: unpacked size of the packages needed "
        "beyond nokta. Timings were taken while other "
        "jobs shared the machine."
    )
    return markdown_table(header, rows, caption, note)


if __name__ == "__main__":
    main()
