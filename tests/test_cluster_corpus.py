"""`nokta corpus` on a local Ray (this machine's CPUs, 1 actor) equals `nokta restore`, line for line."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("ray.data")

ROOT = Path(__file__).resolve().parents[1]
TEXTS = [
    ["cocuklar bahcede oynuyor", "", "ogretmen siir okudu ve ogrenciler dinledi"],
    ["isik sondugunde sehrin sokaklari sessizlesti", "guzel gunler gelecek"],
    ["cok guzel bir gun", "deniz kiyisinda yurumeyi severim"],
    ["dogru soyledin", "kisa bir yol", "agac dallari"],
]


def nokta(*args: str) -> subprocess.CompletedProcess:
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "nokta_model", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=240)


def write_corpus(root: Path) -> None:
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("\n".join(TEXTS[0]) + "\n", encoding="utf-8")
    (root / "sub" / "b.txt").write_text("\n".join(TEXTS[1]) + "\n", encoding="utf-8")
    rows = [{"id": n, "body": text} for n, text in enumerate(TEXTS[2])]
    (root / "c.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    pd.DataFrame({"id": range(3), "body": TEXTS[3]}).to_parquet(root / "sub" / "d.parquet", index=False)


def restored_by_cli(lines: list[str], tmp_path: Path) -> list[str]:
    source = tmp_path / "lines.txt"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = nokta("restore", str(source))
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_corpus_on_local_ray_equals_restore(tmp_path):
    write_corpus(tmp_path / "in")
    done = nokta("corpus", str(tmp_path / "in"), str(tmp_path / "out"), "--field", "body", "--num-actors", "1")
    assert done.returncode == 0, done.stderr[-3000:]
    out = tmp_path / "out"
    lines = [
        (out / "a.txt").read_text(encoding="utf-8").splitlines(),
        (out / "sub" / "b.txt").read_text(encoding="utf-8").splitlines(),
        [json.loads(row)["body"] for row in (out / "c.jsonl").read_text(encoding="utf-8").splitlines()],
        list(pd.read_parquet(out / "sub" / "d.parquet")["body"]),
    ]
    expected = [restored_by_cli(texts, tmp_path) for texts in TEXTS]
    assert lines == expected
    assert list(pd.read_parquet(out / "sub" / "d.parquet")["id"]) == [0, 1, 2]
    assert not list(out.rglob(".*.tmp"))

    # As after an interruption: one file not finished (its temporary file left), the others done.
    (out / "sub" / "b.txt").rename(out / "sub" / ".b.txt.tmp")
    (out / "a.txt").write_text("finished before\n", encoding="utf-8")
    again = nokta("corpus", str(tmp_path / "in"), str(out), "--field", "body", "--num-actors", "1")
    assert again.returncode == 0, again.stderr[-3000:]
    assert (out / "a.txt").read_text(encoding="utf-8") == "finished before\n"  # skipped
    assert (out / "sub" / "b.txt").read_text(encoding="utf-8").splitlines() == expected[1]
    assert not list(out.rglob(".*.tmp"))


def test_bad_input_is_one_line(tmp_path):
    (tmp_path / "empty").mkdir()
    for folder in ("missing", "empty"):
        done = nokta("corpus", str(tmp_path / folder), str(tmp_path / "out"))
        assert done.returncode == 1 and done.stderr.count("\n") == 1 and "nokta: error:" in done.stderr


DRIVER_PROBE = """
import re, sys, threading, time
from nokta_model.app.cli import main

peak = 0

def sample():
    global peak
    while True:
        with open("/proc/self/status") as status:
            peak = max(peak, int(re.search(r"RssAnon:\\s+(\\d+)", status.read()).group(1)))
        time.sleep(0.05)  # the sampling interval of the peak measured

threading.Thread(target=sample, daemon=True).start()
code = main(sys.argv[1:])
print(peak)
sys.exit(code)
"""


def driver_peak_kb(source: Path, target: Path) -> int:
    """Peak private resident memory (RssAnon: not the object store's shared pages) of the
    driver process restoring ``source`` into ``target``."""
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", DRIVER_PROBE, "corpus", str(source), str(target), "--batch-size", "1024"]
    done = subprocess.run([*command, "--backend", "ngram"], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return int(done.stdout.split()[-1])


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's /proc")
def test_the_driver_streams_its_memory_stays_flat_as_the_input_grows_4x(tmp_path):
    """The driver holds one block at a time: 4x the rows (200,000 against 50,000) leave its
    peak within a few MB, where collecting the rows (to_pandas) grew it by 17.7 MB."""
    peaks = []
    for rows in (50_000, 200_000):
        source = tmp_path / f"in{rows}"
        source.mkdir()
        (source / "a.txt").write_text("".join(f"cok guzel gun {n % 97}\n" for n in range(rows)), encoding="utf-8")
        peaks.append(driver_peak_kb(source, tmp_path / f"out{rows}"))
    assert peaks[1] - peaks[0] < 8_000, peaks
    restored = nokta("restore", "--backend", "ngram", str(tmp_path / "in200000" / "a.txt"))
    assert (tmp_path / "out200000" / "a.txt").read_text(encoding="utf-8") == restored.stdout
