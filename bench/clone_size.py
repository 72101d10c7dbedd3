"""What a clone of the repository downloads: its whole history, a shallow clone, a blobless one.

    python -m bench.clone_size [--source .] [--revs REV ...]

For each REV (default: HEAD), fetches the history it names from SOURCE into an empty bare
repository, as ``git clone --no-local --single-branch`` of a branch there would (one pack,
made by the source's git), and reports the size of what a clone of it downloads
(``git count-objects -v``): the whole history, ``--depth 1`` (the tip's files only) and
``--filter=blob:none`` (every commit and tree, and the files the checkout needs); and the
paths whose versions weigh most in the whole history. Writes bench/results/clone_size.json and .md.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from collections import defaultdict
from pathlib import Path

from bench.report import markdown_table, run_facts, write_report

ROOT = Path(__file__).resolve().parent
WAYS = {"whole history": [], "--depth 1": ["--depth", "1"], "--filter=blob:none": ["--filter=blob:none"]}
HEAVIEST = 8


def git(*args: str, cwd: Path | None = None) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


def fetched(source: Path, commit: str, folder: Path) -> Path:
    """A bare repository holding what a clone of ``commit`` from ``source`` downloads (its
    history, as its one branch)."""
    folder.mkdir()
    git("init", "-q", "--bare", cwd=folder)
    git("fetch", "-q", "--no-tags", f"file://{source.resolve()}", f"{commit}:refs/heads/main", cwd=folder)
    git("symbolic-ref", "HEAD", "refs/heads/main", cwd=folder)
    git("config", "uploadpack.allowFilter", "true", cwd=folder)  # so that it serves --filter
    return folder


def cloned(repository: Path, options: list[str], folder: Path) -> Path:
    """A clone as a user makes one: its objects, the checked-out files' included."""
    git("clone", "-q", *options, f"file://{repository}", str(folder))
    return folder


def pack_bytes(repository: Path) -> int:
    counts = dict(line.split(": ") for line in git("count-objects", "-v", cwd=repository).splitlines())
    return int(counts["size-pack"]) * 1024 + int(counts["size"]) * 1024


def heaviest_paths(repository: Path) -> list[dict]:
    """The paths whose blobs take most of the pack: versions and bytes on disk."""
    objects = git("rev-list", "--objects", "main", cwd=repository)
    checked = subprocess.run(
        ["git", "cat-file", "--batch-check=%(objecttype) %(objectsize:disk) %(rest)"],
        input=objects,
        cwd=repository,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    versions: dict[str, int] = defaultdict(int)
    sizes: dict[str, int] = defaultdict(int)
    for line in checked.splitlines():
        kind, size, path = line.split(" ", 2)
        if kind == "blob":
            versions[path] += 1
            sizes[path] += int(size)
    heaviest = sorted(sizes, key=sizes.__getitem__, reverse=True)[:HEAVIEST]
    return [{"path": path, "versions": versions[path], "bytes": sizes[path]} for path in heaviest]


def measure(source: Path, rev: str, folder: Path) -> dict:
    commit = git("rev-parse", rev, cwd=source).strip()
    row: dict = {"rev": rev, "commit": commit[:7], "date": git("log", "-1", "--format=%cs", commit, cwd=source).strip()}
    whole = fetched(source, commit, folder / commit[:7])
    for index, (way, options) in enumerate(WAYS.items()):
        row[way] = pack_bytes(cloned(whole, options, folder / f"{commit[:7]}-{index}") if options else whole)
    row["heaviest"] = heaviest_paths(whole)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=ROOT.parent)
    parser.add_argument("--revs", nargs="+", default=["HEAD"])
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "clone_size")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        rows = [measure(args.source, rev, Path(folder)) for rev in args.revs]
    report = {**run_facts(), "git": git("--version").split()[-1], "rows": rows}
    write_report(args.out, report, table(report))


def table(report: dict) -> str:
    sizes = markdown_table(
        ["commit", *WAYS],
        (
            [f"{row['commit']} ({row['date']})", *(f"{row[way] / 1e6:,.1f} MB" for way in WAYS)]
            for row in report["rows"]
        ),
        f"What a clone of each commit downloads (the fetched pack); {report['date']}, {report['machine']}, "
        f"git {report.get('git', '?')}, `python -m bench.clone_size`",
    )
    last = report["rows"][-1]
    heaviest = markdown_table(
        ["path", "versions", "in the pack"],
        ([item["path"], item["versions"], megabytes(item["bytes"])] for item in last["heaviest"]),
        f"The heaviest paths in the history of {last['commit']} (a file stored under two paths counts under one)",
    )
    return sizes + "\n" + heaviest


def megabytes(count: int) -> str:
    return f"{count / 1e6:,.1f} MB"


if __name__ == "__main__":
    main()
