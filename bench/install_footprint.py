"""What installing nokta puts on a user's disk: its wheel in a fresh virtual environment,
the dependencies from the public index.

    python -m bench.install_footprint

Builds the wheel from the checkout and installs it into a new venv with pip, this
machine's local wheel mirror and pip configuration switched off
(``env -u PIP_FIND_LINKS PIP_CONFIG_FILE=/dev/null``) and no pip cache, as on a user's
machine. Reports the venv's size on disk (``du -sh``), each installed distribution's
files, the time the install took, and what it downloads (the files ``pip download``
fetches for the same wheel). The VS Code extension's install and a pre-commit hook environment are this install.
Writes bench/results/install_footprint.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.public_index import CUDA_STACK, public_index_env
from bench.report import markdown_table, run_facts, write_report

ROOT = Path(__file__).resolve().parent
LISTED = 8  # the largest distributions named in the table

SIZES = """
import json, importlib.metadata as metadata
sizes = {d.metadata["Name"]: (d.version, sum(f.size or 0 for f in d.files or ())) for d in metadata.distributions()}
print(json.dumps(sizes))
"""


def build_wheel(folder: Path) -> Path:
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(folder)]
    subprocess.run([*command, str(ROOT.parent)], check=True, capture_output=True)
    (wheel,) = folder.glob("nokta-*.whl")
    return wheel


def disk_bytes(path: Path) -> int:
    """What ``du -sh`` counts: the disk blocks of every file under ``path``."""
    kilobytes = subprocess.run(["du", "-sk", str(path)], capture_output=True, text=True, check=True).stdout.split()[0]
    return int(kilobytes) * 1024


def install(wheel: Path, folder: Path) -> dict:
    env = public_index_env() | {"PIP_NO_CACHE_DIR": "1"}  # a user's machine, not this one's cache
    venv = folder / "venv"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], check=True, env=env)
    seconds = time.perf_counter() - started
    downloads = folder / "downloads"
    subprocess.run([str(venv / "bin" / "pip"), "download", "-q", "-d", str(downloads), str(wheel)], check=True, env=env)
    listed = subprocess.run(
        [str(venv / "bin" / "python"), "-I", "-c", SIZES], capture_output=True, text=True, check=True
    )
    distributions = sorted(json.loads(listed.stdout).items(), key=lambda item: -item[1][1])
    return {
        "seconds": round(seconds, 1),
        "venv_bytes": disk_bytes(venv),
        "downloaded_bytes": sum(path.stat().st_size for path in downloads.iterdir()) - wheel.stat().st_size,
        "distributions": [{"name": name, "version": version, "bytes": size} for name, (version, size) in distributions],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "install_footprint")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        wheel = build_wheel(folder)
        report = {**run_facts(), "load_average": load, "wheel": wheel.name, "wheel_bytes": wheel.stat().st_size}
        report |= install(wheel, folder)
    write_report(args.out, report, table(report))


def table(report: dict) -> str:
    distributions = report["distributions"]
    rest = distributions[LISTED:]
    rows = [[f"{d['name']} {d['version']}", megabytes(d["bytes"])] for d in distributions[:LISTED]]
    rows.append(
        [f"{len(rest)} others ({', '.join(d['name'] for d in rest)})", megabytes(sum(d["bytes"] for d in rest))]
    )
    heavy = [d["name"] for d in distributions if d["name"].lower().startswith(CUDA_STACK)]
    caption = (
        f"`pip install {report['wheel']}` in a fresh venv from the public index "
        f"({', '.join(heavy) if heavy else 'no torch, no CUDA package'}): {megabytes(report['venv_bytes'])} on disk; "
        f"the wheel ({megabytes(report['wheel_bytes'])}) and {megabytes(report['downloaded_bytes'])} of "
        "dependencies downloaded; "
        f"{report['seconds']:.0f} s; {report['date']}, {report['machine']}, load {report['load_average']:.1f}, "
        "`python -m bench.install_footprint`"
    )
    return markdown_table(["installed", "on disk"], rows, caption)


def megabytes(count: int) -> str:
    return f"{count / 1e6:,.1f} MB"


if __name__ == "__main__":
    main()
