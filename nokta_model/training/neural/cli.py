"""Command-line training: ``add_train_arguments`` and ``run_train`` plug into ``nokta train``."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

from ...neural.config import TrainConfig

PRESETS = Path(__file__).with_name("configs")
SHIPPED_CONFIG = "small-cased"  # the configuration of the network the package ships


def add_train_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config", default=SHIPPED_CONFIG, help=f"a JSON training config, or a preset name from {PRESETS}"
    )
    parser.add_argument(
        "--run-dir", type=Path, default=None, help="checkpoint directory, resumed from (default runs/neural-CONFIG)"
    )
    parser.add_argument("--corpus", type=Path, default=None, help="corpus directory (default: ../shared/corpus)")
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, mps")
    parser.add_argument("--minutes", type=float, default=None, help="override the wall-clock budget")


def load_config(name_or_path: str) -> TrainConfig:
    path = Path(name_or_path)
    if not path.exists():
        path = PRESETS / f"{name_or_path}.json"
    if not path.exists():
        presets = ", ".join(sorted(p.stem for p in PRESETS.glob("*.json")))
        raise ValueError(f"no training config {name_or_path!r}: give a JSON file or one of {presets}")
    return TrainConfig.from_json(path)


def run_train(args: argparse.Namespace) -> int:
    from .train import train_neural

    config = load_config(args.config)
    if args.minutes is not None:
        config = replace(config, max_minutes=args.minutes)
    run_dir = args.run_dir or Path("runs") / f"neural-{Path(args.config).stem}"
    best = train_neural(config, run_dir, args.corpus, args.device)
    print(json.dumps({"run_dir": str(run_dir), "best_dev": best}, indent=1))
    return 0


def train_from_cli(args: argparse.Namespace) -> int:
    """``nokta train --backend neural [--config C] [--output RUN_DIR] [--corpus DIR] [--device D]``."""
    from .train import train_neural

    name = args.config or SHIPPED_CONFIG
    config = load_config(name)
    if getattr(args, "include_noncommercial", False):
        config = replace(config, commercial_only=False)
    run_dir = args.output or Path("runs") / f"neural-{Path(name).stem}"
    best = train_neural(config, run_dir, args.corpus, args.device)
    print(json.dumps({"run_dir": str(run_dir), "best_dev": best}, indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m nokta_model.training.neural", description="Train the neural restorer."
    )
    add_train_arguments(parser)
    try:
        return run_train(parser.parse_args(argv))
    except ValueError as error:
        parser.error(str(error))
        return 2
