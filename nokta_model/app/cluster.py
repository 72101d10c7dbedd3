"""`nokta corpus IN OUT`: restore every .txt/.jsonl/.parquet file under IN into OUT on Ray Data.

Each file type is one Ray dataset whose rows keep their file's path; ``map_batches`` runs a pool
of actors that each load the model once. Ray Data is told to preserve order, so batches come back
in input order (files sorted by path, lines in file order). The driver streams them: it holds one
batch at a time, appends its rows to the temporary file of the file they belong to, and renames
that into place when the next file's rows begin. A file already in OUT is finished and skipped, so
running the command again resumes an interrupted run.
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
    todo = [path for path in files if not _output_path(path, args).exists()]
    if not todo:
        return 0
    ray.init(address=args.address, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    ray.data.DataContext.get_current().execution_options.preserve_order = True
    ray.data.DataContext.get_current().enable_progress_bars = False
    for suffix in SUFFIXES:
        group = [path for path in todo if path.suffix == suffix]
        if group:
            _restore_group(ray.data, group, suffix, args)
    return 0


def _output_path(path: Path, args: argparse.Namespace) -> Path:
    return args.output / path.relative_to(args.input)


def _read(data: Any, paths: list[str], suffix: str, field: str) -> Any:
    if suffix == ".txt":
        return data.read_text(paths, include_paths=True, drop_empty_lines=False).rename_columns({"text": field})
    reader = data.read_json if suffix == ".jsonl" else data.read_parquet
    return reader(paths, include_paths=True)


def _restore_group(data: Any, group: list[Path], suffix: str, args: argparse.Namespace) -> None:
    by_resolved = {str(path.resolve()): path for path in group}
    dataset = _read(data, list(by_resolved), suffix, args.field)
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
    writer: _FileWriter | None = None
    try:
        for batch in restored.iter_batches(batch_size=None, batch_format="pandas", prefetch_batches=1):
            for resolved, rows in batch.groupby("path", sort=False):
                if writer is None or writer.source != resolved:
                    if writer is not None:
                        writer.finish()
                    writer = _FileWriter(resolved, _output_path(by_resolved.pop(resolved), args), suffix, args.field)
                writer.append(rows.drop(columns="path"))
        if writer is not None:
            writer.finish()
            writer = None
    finally:
        if writer is not None:
            writer.discard()
    for path in by_resolved.values():  # files without a row
        _write_empty(path, _output_path(path, args))


def _write_empty(source: Path, target: Path) -> None:
    """The output of an input without rows: empty, or a Parquet table of its columns and no row."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.tmp")
    if source.suffix == ".parquet":
        import pyarrow.parquet as pq  # type: ignore[import-untyped]

        pq.write_table(pq.read_schema(source).empty_table(), temporary)
    else:
        temporary.write_bytes(b"")
    os.replace(temporary, target)


class _FileWriter:
    """One output file written batch by batch into a temporary file beside it, renamed into
    place by ``finish``."""

    def __init__(self, source: str, target: Path, suffix: str, field: str) -> None:
        self.source, self.target, self.suffix, self.field = source, target, suffix, field
        target.parent.mkdir(parents=True, exist_ok=True)
        self.temporary = target.with_name(f".{target.name}.tmp")
        self.handle = None if suffix == ".parquet" else open(self.temporary, "w", encoding="utf-8")  # noqa: SIM115
        self.parquet: Any = None

    def append(self, rows: Any) -> None:
        if self.suffix == ".txt":
            assert self.handle is not None
            self.handle.write("".join(f"{line}\n" for line in rows[self.field]))
        elif self.suffix == ".jsonl":
            rows.to_json(self.handle, orient="records", lines=True, force_ascii=False)
        else:
            self._append_parquet(rows)

    def _append_parquet(self, rows: Any) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if self.parquet is None:
            table = pa.Table.from_pandas(rows, preserve_index=False)
            self.parquet = pq.ParquetWriter(self.temporary, table.schema)
        else:
            table = pa.Table.from_pandas(rows, schema=self.parquet.schema, preserve_index=False)
        self.parquet.write_table(table)

    def finish(self) -> None:
        if self.handle is not None:
            self.handle.close()
        else:
            self.parquet.close()  # opened by the first batch: a writer gets at least one
        os.replace(self.temporary, self.target)

    def discard(self) -> None:
        if self.handle is not None:
            self.handle.close()
        elif self.parquet is not None:
            self.parquet.close()
        self.temporary.unlink(missing_ok=True)
