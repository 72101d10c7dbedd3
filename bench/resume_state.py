"""A training run resumed from its packed ``resume.safetensors`` against one resumed from
the working checkpoint, and one resumed with no optimizer state.

    python -m bench.resume_state [--run training/neural-small-cased] [--steps 100] [--cache DIR]

Copies the run four times into a temporary folder and trains each copy ``--steps`` more
steps on the same batches (its own training config, with the schedule stretched to the new
last step, so the learning rate is near the end of its cosine): from the working
checkpoint (float32 weights, both AdamW moments), from the packed state alone (what a
fresh clone has: float16 weights, bfloat16 second moments), from the packed optimizer
state with the float32 weights, and from the packed weights with AdamW started afresh.
Reports the dev figures on the first ``--dev-lines`` lines of the dev split as resumed
(step 0) and every ``--eval-every`` steps, and the size of each state.
``--cache`` is a folder holding (or to hold) the encoded corpus, shared by the copies.
Writes bench/results/resume_state.json and .md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import torch
from safetensors import safe_open
from safetensors.torch import load_file, save_file

from bench.report import markdown_table, run_facts, write_report
from nokta_model.neural.checkpoint import read_json
from nokta_model.neural.config import TrainConfig
from nokta_model.neural.model import CharTagger
from nokta_model.training.corpus import default_corpus_dir
from nokta_model.training.neural.data import dev_lines
from nokta_model.training.neural.evaluate_dev import dev_metrics
from nokta_model.training.neural.train import train_neural
from nokta_model.training.neural.train_state import BEST, LAST, OPTIMIZER, RESUME, pack, resume, working_step

ROOT = Path(__file__).resolve().parent
WORKING = (LAST, OPTIMIZER, BEST)  # and their JSON sidecars
ARMS = {
    "working checkpoint": "float32 weights, both moments",
    "packed state": "float16 weights, bfloat16 second moments",
    "packed optimizer state, float32 weights": "isolates the weights' rounding",
    "packed weights, no optimizer state": "AdamW restarted",
}


def prepare(run: Path, folder: Path, arm: str, cache: Path) -> Path:
    """A copy of ``run`` that resumes as ``arm`` says, its corpus cache linked to ``cache``."""
    copy = folder / arm.replace(" ", "-").replace(",", "")
    copy.mkdir()
    for path in run.iterdir():
        if path.is_file():
            shutil.copy(path, copy / path.name)
    (copy / "cache").symlink_to(cache, target_is_directory=True)
    (copy / RESUME).unlink(missing_ok=True)
    pack(copy)
    if arm == "working checkpoint":
        return copy
    with safe_open(str(copy / RESUME), "pt") as packed:
        metadata = packed.metadata()
    tensors = load_file(str(copy / RESUME))
    if arm == "packed optimizer state, float32 weights":
        tensors |= {f"last.{name}": value for name, value in load_file(str(copy / LAST)).items()}
    if arm == "packed weights, no optimizer state":
        tensors = {key: value for key, value in tensors.items() if not key.startswith("optimizer.")}
    save_file(tensors, str(copy / RESUME), metadata)
    for name in WORKING:  # a fresh clone: the packed state alone
        (copy / name).unlink(missing_ok=True)
        (copy / name).with_suffix(".json").unlink(missing_ok=True)
    return copy


def resumed_dev_figures(copy: Path, config: TrainConfig, dev: list[str]) -> dict:
    """The dev figures of the weights the copy resumes with, before any step."""
    model = CharTagger(config.model)
    progress = resume(model, torch.optim.AdamW(model.parameters()), copy) or {}
    return {"step": progress["step"], "train_loss": progress.get("recent_loss")} | dev_metrics(model, dev)


def state_sizes(run: Path, folder: Path) -> dict[str, int]:
    """Bytes of the working checkpoint (as the run has it) and of its packed state."""
    copy = folder / "sizes"
    shutil.copytree(run, copy, ignore=shutil.ignore_patterns("cache", RESUME))
    started = time.perf_counter()
    pack(copy)
    seconds = time.perf_counter() - started
    working = sum((copy / name).stat().st_size for name in WORKING if (copy / name).exists())
    return {"working": working, "packed": (copy / RESUME).stat().st_size, "pack_seconds": round(seconds, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, default=Path("training/neural-small-cased"))
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--eval-every", type=int, default=50)
    parser.add_argument("--dev-lines", type=int, default=3000)
    parser.add_argument("--cache", type=Path, help="encoded corpus folder, shared (default: a temporary one)")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "resume_state")
    args = parser.parse_args()
    step = working_step(args.run)
    if step is None:
        raise SystemExit(f"{args.run}: no working checkpoint (last.safetensors and optimizer.safetensors)")
    saved = TrainConfig.from_dict(read_json(args.run / "last.json")["train_config"])
    config = replace(
        saved,
        max_steps=step + args.steps,
        max_minutes=0,
        eval_every=args.eval_every,
        dev_lines=args.dev_lines,
        patience=10**6,
        checkpoint_minutes=10**6,
    )
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        cache = args.cache or folder / "cache"
        cache.mkdir(parents=True, exist_ok=True)
        sizes = state_sizes(args.run, folder)
        arms = {}
        dev = dev_lines(default_corpus_dir(), config.dev_lines, config.commercial_only, config.seed)
        for arm in ARMS:
            copy = prepare(args.run, folder, arm, cache)
            before = resumed_dev_figures(copy, config, dev)
            started = time.perf_counter()
            train_neural(config, copy, device="cpu", progress=False)
            history = read_json(copy / "history.json")["history"]
            arms[arm] = {
                "seconds": round(time.perf_counter() - started),
                "history": [before, *(record for record in history if record["step"] > step)],
            }
            print(arm, arms[arm]["history"])
    report = {
        **run_facts(),
        "load_average": load,
        "run": str(args.run),
        "from_step": step,
        "steps": args.steps,
        "dev_lines": args.dev_lines,
        "sizes": sizes,
        "arms": arms,
    }
    write_report(args.out, report, table(report))


def table(report: dict) -> str:
    rows = [
        [
            f"{arm} ({ARMS[arm]})",
            f"{record['step'] - report['from_step']:,}",
            f"{record['train_loss']:.4f}" if record["train_loss"] is not None else "",
            f"{record['log_loss']:.5f}",
            f"{record['letter_acc']:.5f}",
            f"{record['word_acc']:.5f}",
        ]
        for arm, result in report["arms"].items()
        for record in result["history"]
    ]
    sizes = report["sizes"]
    caption = (
        f"`{report['run']}` resumed at step {report['from_step']:,} for {report['steps']} steps on the same "
        f"batches; dev figures on the first {report['dev_lines']:,} dev-split lines; "
        f"{report['date']}, {report['machine']}, load average {report['load_average']:.1f} at the start"
    )
    note = (
        f"The working checkpoint (last, optimizer and best files): {sizes['working'] / 1e6:.2f} MB; "
        f"packed into resume.safetensors: {sizes['packed'] / 1e6:.2f} MB ({sizes['pack_seconds']} s)."
    )
    header = ["resumed from", "steps after", "train loss (EMA)", "dev log-loss", "dev letter acc", "dev word acc"]
    return markdown_table(header, rows, caption, note)


if __name__ == "__main__":
    main()
