"""`nokta restore | eval | train`: thin wrappers around the library's functions."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from io import BufferedIOBase
from pathlib import Path
from typing import cast

from tqdm import tqdm

from . import __version__
from .backends import BACKENDS, keep_for_life, load_restorer, set_torch_defaults
from .cluster.corpus import add_corpus_command
from .errors import NoktaError
from .evaluate import Metrics, evaluate
from .pipeline import FILE_UNDECIDED_LINES, Piece, decode_text, prose_batches, restore_pieces
from .prose import FORMATS, PLAIN, Masker, format_for_path, masker_for
from .safe_output import StagedFile, commit_all, stage
from .training import TRAINERS
from .workers import WorkerPool

AUTO_JOBS_BYTES = 8_000_000  # inputs this large use every core unless --jobs says otherwise


def _add_backend_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--backend", default="default", help=f"{', '.join(BACKENDS)}, or a model file (default: default)"
    )
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda or mps (neural backends; default: auto)")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nokta", description="Restore Turkish diacritics (ç ğ ı ö ş ü İ).")
    parser.add_argument("--version", action="version", version=f"nokta {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    restore = commands.add_parser("restore", help="restore diacritics in files or standard input")
    restore.add_argument(
        "files", nargs="*", type=Path, metavar="FILE", help="UTF-8 text files (default: standard input)"
    )
    restore.add_argument("--output", "-o", type=Path, help="write here instead of standard output")
    restore.add_argument("--in-place", "-i", action="store_true", help="restore each FILE in place")
    restore.add_argument(
        "--format",
        default="auto",
        choices=("auto", *FORMATS),
        metavar="FORMAT",
        help="auto (by file extension; plain for standard input), plain, markdown, latex, html, rst, org, "
        "asciidoc, gitcommit or code-LANGUAGE: only prose is restored",
    )
    restore.add_argument(
        "--jobs", "-j", type=int, default=0, help="worker processes (default: every core for inputs over 8 MB)"
    )
    _add_backend_arguments(restore)
    restore.set_defaults(run=_restore)

    score = commands.add_parser("eval", help="score a backend on correctly written text")
    score.add_argument("gold", nargs="+", type=Path, metavar="GOLD", help="UTF-8 files of correct Turkish")
    score.add_argument("--json", action="store_true", help="print the metrics as JSON")
    score.add_argument("--errors", type=int, default=15, help="how many of the most frequent errors to list")
    _add_backend_arguments(score)
    score.set_defaults(run=_eval)

    train = commands.add_parser("train", help="build a model from the corpus")
    train.add_argument("--backend", choices=TRAINERS, required=True, help="which model file to rebuild")
    train.add_argument(
        "--corpus", type=Path, default=None, help="corpus folder (default: ../shared/corpus or $NOKTA_CORPUS)"
    )
    train.add_argument("--output", type=Path, help="artifact path (ngram) or run folder (neural)")
    train.add_argument(
        "--include-noncommercial",
        action="store_true",
        help="also train on non-commercial files (never ship the result)",
    )
    train.add_argument("--config", help="neural: configuration name or JSON file (default: large, as shipped)")
    train.add_argument("--device", default="auto", help="neural: auto, cpu, cuda or mps")
    train.set_defaults(run=_train)
    add_corpus_command(commands)
    return parser


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise NoktaError(f"{path}: {error.strerror or error}") from None
    return decode_text(data, str(path))


@dataclass
class _Source:
    name: str
    stream: BufferedIOBase
    size: int | None  # bytes, for files
    masker: Masker
    path: Path | None = None
    read: int = 0  # bytes read so far


def _open_sources(files: list[Path], format_name: str) -> list[_Source]:
    if not files:
        masker = PLAIN if format_name == "auto" else masker_for(format_name)
        return [_Source("standard input", cast(BufferedIOBase, sys.stdin.buffer), None, masker)]
    sources = []
    for path in files:
        masker = masker_for(format_for_path(str(path)) if format_name == "auto" else format_name)
        try:
            sources.append(_Source(str(path), open(path, "rb"), path.stat().st_size, masker, path))  # noqa: SIM115
        except OSError as error:
            raise NoktaError(f"{path}: {error.strerror or error}") from None
    return sources


class _StandardOutput:
    """Standard output as bytes, flushed after every batch (so a pipe sees each line)."""

    def __init__(self) -> None:
        try:
            os.fstat(1)
        except OSError:
            raise NoktaError("standard output is closed") from None
        self.stream = open(1, "wb", closefd=False)  # noqa: SIM115

    def write(self, text: str) -> None:
        try:
            self.stream.write(text.encode("utf-8"))
            self.stream.flush()
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # nothing more reaches the closed pipe
            raise NoktaError("standard output was closed before the end (broken pipe)") from None
        except OSError as error:
            raise NoktaError(f"standard output: {error.strerror or error}") from None


def _jobs(requested: int, sources: list[_Source]) -> int:
    if requested:
        return requested
    total = sum(source.size or 0 for source in sources)
    return os.cpu_count() or 1 if total >= AUTO_JOBS_BYTES else 1


def _batches(source: _Source) -> Iterator[list[tuple[Piece, str]]]:
    """The source's batches, with a progress bar on a terminal for a file."""
    show = source.size is not None and sys.stderr.isatty()
    undecided = FILE_UNDECIDED_LINES if source.path else 0  # a pipe's lines come out as they arrive
    with tqdm(total=source.size, unit="B", unit_scale=True, desc=source.name, disable=not show) as bar:
        for decided, read in prose_batches(source.stream, source.name, source.masker, undecided):
            bar.update(read - bar.n)
            source.read = read
            yield decided


def _restore(args: argparse.Namespace) -> int:
    if args.in_place and (args.output or not args.files):
        raise NoktaError("--in-place restores FILE arguments in place; give files and no --output")
    sources = _open_sources(args.files, args.format)
    jobs = _jobs(args.jobs, sources)
    pool = WorkerPool(args.backend, args.device, jobs) if jobs > 1 else None
    restorer = None if pool else load_restorer(args.backend, device=args.device)
    keep_for_life()

    def restored(source: _Source) -> Iterator[str]:
        batches = _batches(source)
        if pool:
            return pool.restore(batches)
        assert restorer is not None
        return (restore_pieces(restorer, batch) for batch in batches)

    staged: list[StagedFile] = []
    finished = False
    try:
        if args.in_place:
            for source in sources:
                assert source.path is not None  # --in-place takes files only
                _restore_into(stage(source.path, staged), restored(source))
        else:
            output = stage(args.output, staged) if args.output else _StandardOutput()
            for source in sources:
                _restore_into(output, restored(source))
        if not any(source.read for source in sources):
            raise NoktaError("empty input: nothing to restore")
        commit_all(staged)
        finished = True
    except BaseException:
        for file in staged:
            file.discard()
        raise
    finally:
        if pool:
            pool.close(finished)
        for source in sources:
            if source.path:
                source.stream.close()
    return 0


def _restore_into(output: StagedFile | _StandardOutput, texts: Iterator[str]) -> None:
    for text in texts:
        output.write(text)


def _eval(args: argparse.Namespace) -> int:
    golds = {path: _read_text(path).splitlines() for path in args.gold}
    for path, lines in golds.items():
        if not any(line.strip() for line in lines):
            raise NoktaError(f"{path}: empty file, nothing to score")
    restorer = load_restorer(args.backend, device=args.device)
    keep_for_life()
    total, per_file = Metrics(), {}
    for path, lines in golds.items():
        metrics = evaluate(restorer, lines)
        per_file[str(path)] = metrics.summary(args.errors)
        total.add(metrics)
    report = {"backend": args.backend, "files": per_file, "total": total.summary(args.errors)}
    print(json.dumps(report, ensure_ascii=False, indent=2) if args.json else _format_report(report))
    return 0


def _format_report(report: dict) -> str:
    rows = [
        f"backend: {report['backend']}",
        "",
        "| file | words | word acc | ambiguous-word acc | letter acc | recall | chars/s |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, m in [*report["files"].items(), ("total", report["total"])]:
        rows.append(
            f"| {name} | {m['words']:,} | {m['word_accuracy']:.4f} | {m['ambiguous_word_accuracy']:.4f} | "
            f"{m['letter_accuracy']:.4f} | {m['recall']:.4f} | {m['chars_per_second']:,.0f} |"
        )
    rows += ["", "most frequent errors (gold → output × count):"]
    rows += [f"  {e['gold']} → {e['output']} × {e['count']}" for e in report["total"]["top_errors"]]
    return "\n".join(rows)


def _train(args: argparse.Namespace) -> int:
    from .training import train

    return train(args)


def main(argv: list[str] | None = None) -> int:
    # One torch thread per process, as in the workers and the language server: --jobs uses
    # more cores. With torch's default of one per core, a whole restore ran 3× slower on
    # two cores shared with other work, the threads spinning for a busy core.
    set_torch_defaults()
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except (NoktaError, FileNotFoundError, ValueError) as error:
        print(f"nokta: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("nokta: interrupted", file=sys.stderr)
        return 130
    except OSError as error:
        print(f"nokta: error: {error.strerror or error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
