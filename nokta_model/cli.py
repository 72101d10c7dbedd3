"""`nokta restore | eval | train`: thin wrappers around the library's functions."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from .backends import BACKENDS, load_restorer
from .errors import NoktaError
from .evaluate import Metrics, evaluate
from .restorer import Restorer
from .training import TRAINERS

RESTORE_BATCH_LINES = 2000


def _add_backend_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--backend", default="default", help=f"{', '.join(BACKENDS)}, or a model file (default: default)"
    )
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda or mps (neural backends; default: auto)")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nokta", description="Restore Turkish diacritics (ç ğ ı ö ş ü İ).")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    restore = commands.add_parser("restore", help="restore diacritics in files or standard input")
    restore.add_argument(
        "files", nargs="*", type=Path, metavar="FILE", help="UTF-8 text files (default: standard input)"
    )
    restore.add_argument("--output", "-o", type=Path, help="write here instead of standard output")
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
    train.add_argument("--config", help="neural: configuration name or JSON file")
    train.add_argument("--device", default="auto", help="neural: auto, cpu, cuda or mps")
    train.set_defaults(run=_train)
    return parser


def _read_text(path: Path | None, stream: BinaryIO | None = None) -> str:
    name = str(path) if path else "standard input"
    try:
        data = path.read_bytes() if path else stream.read()
    except OSError as error:
        raise NoktaError(f"{name}: {error.strerror or error}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise NoktaError(f"{name}: not UTF-8 text (byte {data[error.start]:#04x} at offset {error.start})") from None


def _batches(text: str) -> Iterator[list[str]]:
    lines = text.splitlines(keepends=True)
    for start in range(0, len(lines), RESTORE_BATCH_LINES):
        yield lines[start : start + RESTORE_BATCH_LINES]


def restore_text(restorer: Restorer, text: str) -> Iterator[str]:
    """Restored text, batch by batch; line ends and every other character kept."""
    for batch in _batches(text):
        bodies = [line.rstrip("\r\n") for line in batch]
        for body, line, restored in zip(bodies, batch, restorer.restore(bodies)):
            yield restored + line[len(body) :]


def _restore(args: argparse.Namespace) -> int:
    texts = [_read_text(path) for path in args.files] if args.files else [_read_text(None, sys.stdin.buffer)]
    if not any(texts):
        raise NoktaError("empty input: nothing to restore")
    restorer = load_restorer(args.backend, device=args.device)
    output = _open_output(args.output)
    try:
        for text in texts:
            for chunk in restore_text(restorer, text):
                output.write(chunk)
    finally:
        if args.output:
            output.close()
        else:
            output.flush()
    return 0


def _open_output(path: Path | None):
    if path is None:
        return open(sys.stdout.fileno(), "w", encoding="utf-8", newline="", closefd=False)
    try:
        return open(path, "w", encoding="utf-8", newline="")
    except OSError as error:
        raise NoktaError(f"{path}: {error.strerror or error}") from None


def _eval(args: argparse.Namespace) -> int:
    golds = {path: _read_text(path).splitlines() for path in args.gold}
    for path, lines in golds.items():
        if not any(line.strip() for line in lines):
            raise NoktaError(f"{path}: empty file, nothing to score")
    restorer = load_restorer(args.backend, device=args.device)
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
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except (NoktaError, FileNotFoundError, ValueError) as error:
        print(f"nokta: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
