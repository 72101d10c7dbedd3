"""`nokta corpus IN OUT`: restore every .txt/.jsonl/.parquet file under IN into OUT on Ray Data.

Each file type is one Ray dataset whose rows keep their file's path; ``map_batches`` runs a pool
of actors that each load the model once. Ray Data is told to preserve order, so rows come back in
input order (files sorted by path, lines in file order) and the driver writes each file whole,
through a temporary file renamed into place.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

SUFFIXES = (".txt", ".jsonl", ".parquet")


def add_corpus_command(commands: Any) -> None:
    """Register ``nokta corpus`` on the CLI's subcommands."""
    corpus = commands.add_parser("corpus", help="restore a directory of .txt/.jsonl/.parquet files on Ray")
    corpus.add_argument("input", type=Path, help="input directory")
    corpus.add_argument("output", type=Path, help="output directory (same relative paths)")
    corpus.add_argument("--field", default="text", help="text field of JSONL/Parquet rows (default: text)")
    corpus.add_argument("--backend", default="default", help="model name or file (default: default)")
    corpus.add_argument("--address", help="Ray cluster to join (default: a local Ray)")
    corpus.add_argument("--num-actors", type=int, default=1, help="model actors (default: 1)")
    corpus.add_argument("--gpus-per-actor", type=float, default=0.0, help="GPUs per actor (default: 0, CPU)")
    corpus.add_argument("--batch-size", type=int, default=256, help="lines per batch (default: 256)")
    corpus.set_defaults(run=run_corpus)


class RestoreActor:
    """One model per actor, restoring the ``field`` column of each batch."""

    def __init__(self, backend: str, field: str, device: str) -> None:
        from ..backends import load_restorer

        self.restorer, self.field = load_restorer(backend, device), field

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        lines = [str(text) for text in batch[self.field]]
        batch[self.field] = self.restorer.restore(lines)
        return batch


def input_files(root: Path) -> list[Path]:
    if not root.is_dir():
        raise ValueError(f"{root} is not a directory")
    files = sorted(path for path in root.rglob("*") if path.is_file() and path.suffix in SUFFIXES)
    if not files:
        raise ValueError(f"{root} holds no .txt, .jsonl or .parquet files")
    return files


def run_corpus(args: argparse.Namespace) -> int:
    import ray
    import ray.data

    files = input_files(args.input)
    ray.init(address=args.address, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    ray.data.DataContext.get_current().execution_options.preserve_order = True
    ray.data.DataContext.get_current().enable_progress_bars = False
    for suffix in SUFFIXES:
        group = [path for path in files if path.suffix == suffix]
        if group:
            _restore_group(ray.data, group, suffix, args)
    return 0


def _read(data: Any, paths: list[str], suffix: str, field: str) -> Any:
    if suffix == ".txt":
        return data.read_text(paths, include_paths=True, drop_empty_lines=False).rename_columns({"text": field})
    reader = data.read_json if suffix == ".jsonl" else data.read_parquet
    return reader(paths, include_paths=True)


def _restore_group(data: Any, group: list[Path], suffix: str, args: argparse.Namespace) -> None:
    dataset = _read(data, [str(path.resolve()) for path in group], suffix, args.field)
    if args.field not in dataset.columns():
        raise ValueError(f"{suffix} files under {args.input} have no field {args.field!r}")
    device = "cuda" if args.gpus_per_actor > 0 else "cpu"
    restored = dataset.map_batches(
        RestoreActor,
        fn_constructor_kwargs={"backend": args.backend, "field": args.field, "device": device},
        batch_size=args.batch_size,
        batch_format="pandas",
        concurrency=args.num_actors,
        num_gpus=args.gpus_per_actor,
    )
    frame = restored.to_pandas()
    for path in group:
        rows = frame[frame["path"] == str(path.resolve())].drop(columns="path")
        _write(rows, args.output / path.relative_to(args.input), suffix, args.field)


def _write(rows: Any, target: Path, suffix: str, field: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.tmp")
    if suffix == ".txt":
        temporary.write_text("".join(f"{line}\n" for line in rows[field]), encoding="utf-8")
    elif suffix == ".jsonl":
        rows.to_json(temporary, orient="records", lines=True, force_ascii=False)
    else:
        rows.to_parquet(temporary, index=False)
    os.replace(temporary, target)
