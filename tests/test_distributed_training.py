"""`nokta train --backend neural` under torchrun: 2 CPU ranks (gloo) train in step, rank 0 writes the run."""

import json
import os
import subprocess
import sys
from pathlib import Path

import torch
from safetensors.torch import load_file

from tests.tiny_corpus import write_tiny_corpus

LINES = [
    "Çocuklar bahçede güzel oyunlar oynuyor.",
    "Öğretmen sınıfta şiir okudu ve öğrenciler dinledi.",
    "Işık söndüğünde şehrin sokakları sessizleşti.",
    "Güneşli günlerde deniz kıyısında yürümeyi çok severim.",
]
CONFIG = {
    "model": {"backbone": "lstm", "embed_dim": 16, "hidden": 16, "layers": 1},
    "seq_len": 32,
    "batch_size": 4,
    "lr": 0.01,
    "max_minutes": 2,
    "max_steps": 24,
    "eval_every": 8,
    "dev_lines": 20,
    "warmup_steps": 2,
    "threads": 1,
}


def torchrun(tmp_path: Path, corpus: Path, run: Path, config: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2"]
    command += [str(Path(__file__).with_name("ddp_worker.py"))]
    command += ["--config", str(config), "--output", str(run), "--corpus", str(corpus), "--device", "cpu"]
    root = Path(__file__).resolve().parents[1]
    env = os.environ | {"DUMP_DIR": str(tmp_path), "PYTHONPATH": str(root), "OMP_NUM_THREADS": "1"}
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=180)


def test_two_cpu_ranks_train_in_step_and_resume(tmp_path):
    corpus = write_tiny_corpus(tmp_path, [f"{line} {n}" for n in range(40) for line in LINES], [])
    config, run = tmp_path / "config.json", tmp_path / "run"
    config.write_text(json.dumps(CONFIG))
    done = torchrun(tmp_path, corpus, run, config)
    assert done.returncode == 0, done.stderr[-3000:]

    history = json.loads((run / "history.json").read_text())["history"]
    assert [record["step"] for record in history] == [8, 16, 24]
    assert history[-1]["log_loss"] < history[0]["log_loss"]
    assert history[-1]["train_loss"] < history[0]["train_loss"]
    ranks = [load_file(str(tmp_path / f"rank-{rank}.safetensors")) for rank in (0, 1)]
    assert all(torch.equal(ranks[0][name], ranks[1][name]) for name in ranks[0])
    assert all(torch.equal(ranks[0][name], value) for name, value in load_file(str(run / "last.safetensors")).items())

    config.write_text(json.dumps(CONFIG | {"max_steps": 32}))
    resumed = torchrun(tmp_path, corpus, run, config)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    history = json.loads((run / "history.json").read_text())["history"]
    assert [record["step"] for record in history] == [8, 16, 24, 32]
