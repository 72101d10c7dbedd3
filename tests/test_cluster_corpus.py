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
    assert lines == [restored_by_cli(texts, tmp_path) for texts in TEXTS]
    assert list(pd.read_parquet(out / "sub" / "d.parquet")["id"]) == [0, 1, 2]


def test_bad_input_is_one_line(tmp_path):
    (tmp_path / "empty").mkdir()
    for folder in ("missing", "empty"):
        done = nokta("corpus", str(tmp_path / folder), str(tmp_path / "out"))
        assert done.returncode == 1 and done.stderr.count("\n") == 1 and "nokta: error:" in done.stderr
