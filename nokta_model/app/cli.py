"""`nokta restore | check | eval | train | corpus`: thin wrappers around the library's functions."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Generator, Iterator
from io import BytesIO
from pathlib import Path
from typing import cast

from .. import __version__
from ..backends import BACKENDS, keep_for_life, load_restorer, set_torch_defaults
from ..calibration import CLOSE_BELOW
from ..check.findings import DEFAULT_THRESHOLD
from ..check.words import WORKSPACE_FILE
from ..config import ConfigCache
from ..errors import NoktaError
from ..evaluate import Metrics, evaluate
from ..pipeline import decode_text, passed_through, restore_pieces
from ..prose import FORMATS, format_for_path, masker_for_language_id
from ..restorer import Restorer
from ..training import TRAINERS
from .check_files import STDIN_NAME, check_options, file_findings, ignored_words
from .check_report import OUTPUT_FORMATS, render
from .close_calls import with_close_calls
from .cluster import add_corpus_command
from .restore_io import STANDARD_INPUT, Source, StandardOutput, open_sources, source_batches, unified_diff
from .safe_output import StagedFile, Stopped, commit_all, stage, stop_on_signals
from .workers import WorkerPool

AUTO_JOBS_BYTES = 8_000_000  # inputs this large use every core unless --jobs says otherwise


def _add_backend_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--backend", default="default", help=f"{', '.join(BACKENDS)}, or a model file (default: default)"
    )
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda or mps (neural backends; default: auto)")


FORMAT_HELP = (
    "auto (by file extension; plain for standard input), plain, markdown, latex, html, rst, org, asciidoc, "
    "gitcommit, or code-LANGUAGE for the comments and strings of a program (code-python, code-c, code-rust, "
    "...: an editor's language id, or a family: code-c, code-hash, code-dash, code-semicolon, code-percent)"
)


def format_name(value: str) -> str:
    """A ``--format`` value as a name of ``FORMATS`` (or ``auto``); ``code-LANGUAGE`` takes an
    editor's language id (code-python is code-hash)."""
    if value == "auto" or value in FORMATS:
        return value
    masker = masker_for_language_id(value.removeprefix("code-")) if value.startswith("code-") else None
    if masker is None or not masker.code:
        raise argparse.ArgumentTypeError(
            f"unknown format {value!r}; expected auto, {', '.join(FORMATS)} or code-LANGUAGE"
        )
    return masker.name


def worker_count(value: str) -> int:
    """A ``--jobs`` value: a whole number of worker processes, 1 or more."""
    try:
        count = int(value)
    except ValueError:
        count = 0
    if count < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of worker processes (1 or more)")
    return count


def _add_format_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", default="auto", type=format_name, metavar="FORMAT", help=FORMAT_HELP)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nokta", description="Restore Turkish diacritics (ç ğ ı ö ş ü İ).")
    parser.add_argument("--version", action="version", version=f"nokta {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    restore = commands.add_parser("restore", help="restore diacritics in files or standard input")
    restore.add_argument(
        "files", nargs="*", type=Path, metavar="FILE", help="UTF-8 text files, or - (default: standard input)"
    )
    writes = restore.add_mutually_exclusive_group()
    writes.add_argument("--output", "-o", type=Path, help="write here instead of standard output")
    writes.add_argument("--in-place", "-i", action="store_true", help="restore each FILE in place")
    restore.add_argument("--diff", action="store_true", help="print a unified diff of the changes; write no file")
    restore.add_argument(
        "--check", action="store_true", help="write no file; exit 1 if any input would change (as black --check)"
    )
    restore.add_argument(
        "--ambiguous",
        action="store_true",
        help=f"also list on standard error the words where another spelling was close (calibrated confidence "
        f"below {CLOSE_BELOW}): FILE:LINE:COLUMN, both spellings and their confidences; the output is unchanged",
    )
    _add_format_argument(restore)
    restore.add_argument(
        "--jobs",
        "-j",
        type=worker_count,
        metavar="N",
        help="worker processes, 1 or more (default: every core for inputs over 8 MB)",
    )
    _add_backend_arguments(restore)
    restore.set_defaults(run=_restore)

    check = commands.add_parser(
        "check", help="list words missing their diacritics (exit 1 if any), as the language server flags them"
    )
    check.add_argument("files", nargs="*", metavar="FILE", help="UTF-8 text files, or - (default: standard input)")
    check.add_argument("--output-format", choices=OUTPUT_FORMATS, default="text", help="default: text")
    _add_format_argument(check)
    check.add_argument(
        "--threshold",
        type=float,
        help="confidence a finding needs (default: the configuration's confidence-threshold, "
        f"else {DEFAULT_THRESHOLD}, the language server's)",
    )
    check.add_argument("--ignore", action="append", default=[], metavar="WORD", help="never flag WORD (repeatable)")
    check.add_argument(
        "--dictionary", type=Path, help=f"file of ignored words, one a line (default: ./{WORKSPACE_FILE} if present)"
    )
    _add_backend_arguments(check)
    check.set_defaults(run=_check)

    score = commands.add_parser(
        "eval", help="score what `nokta restore` makes of correctly written text folded to ASCII"
    )
    score.add_argument("gold", nargs="+", type=Path, metavar="GOLD", help="UTF-8 files of correct Turkish")
    score.add_argument("--json", action="store_true", help="print the metrics as JSON")
    score.add_argument("--errors", type=int, default=15, help="how many of the most frequent errors to list")
    score.add_argument(
        "--bare", action="store_true", help="also score the bare model: every line, no prose masking, no language guard"
    )
    _add_format_argument(score)
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
    for command in commands.choices.values():
        command.set_defaults(parser=command)  # a UsageError shows the command's own usage
    return parser


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise NoktaError(f"{path}: {error.strerror or error}") from None
    return decode_text(data, str(path))


def _jobs(requested: int | None, sources: list[Source]) -> int:
    if requested is not None:
        return requested
    total = sum(source.size or 0 for source in sources)
    return os.cpu_count() or 1 if total >= AUTO_JOBS_BYTES else 1


def _restore(args: argparse.Namespace) -> int:
    if args.in_place and not args.files:
        raise UsageError("--in-place restores FILE arguments in place; give files")
    if args.in_place and STANDARD_INPUT in args.files:
        raise UsageError("--in-place restores files; standard input (-) is not one")
    _read_once(args.files)
    preview = args.diff or args.check
    if preview and (args.output or args.in_place):
        raise UsageError("--diff and --check write no file; drop --output and --in-place")
    sources = open_sources(args.files, args.format, whole=preview, in_place=args.in_place)
    jobs = _jobs(args.jobs, sources)
    pool = WorkerPool(args.backend, args.device, jobs) if jobs > 1 else None
    # --ambiguous asks this process's restorer for the close calls, workers or not
    restorer = None if pool and not args.ambiguous else load_restorer(args.backend, device=args.device)
    keep_for_life()
    opened: list[Generator] = []  # each source's batches, closed (its progress bar ended) before any message

    def restored(source: Source) -> Iterator[str]:
        if source.excluded:
            return passed_through(source.stream, source.name)
        batches = source_batches(source)
        opened.append(batches)
        decided = (
            with_close_calls(batches, restorer, source.name) if restorer is not None and args.ambiguous else batches
        )
        if pool:
            return pool.restore(decided)
        assert restorer is not None
        return (restore_pieces(restorer, batch) for batch in decided)

    staged: list[StagedFile] = []
    finished = False
    try:
        if preview:
            changed = _preview(sources, restored, args.diff)
        elif args.in_place:
            for source in sources:
                assert source.path is not None  # --in-place takes files only
                if source.excluded:
                    continue
                _restore_into(stage(source.path, staged, in_place=True), restored(source))
        else:
            output = stage(args.output, staged) if args.output else StandardOutput()
            for source in sources:
                _restore_into(output, restored(source))
        commit_all(staged)
        finished = True
    except BaseException:
        for file in staged:
            file.discard()
        raise
    finally:
        if pool:
            pool.close(finished)
        for batches in opened:
            batches.close()
        for source in sources:
            if source.path:
                source.stream.close()
    return 1 if preview and args.check and changed else 0


def _restore_into(output: StagedFile | StandardOutput, texts: Iterator[str]) -> None:
    for text in texts:
        output.write(text)


def _preview(sources: list[Source], restored: Callable[[Source], Iterator[str]], diff: bool) -> int:
    """Print each changed source's diff (``diff``) or its name; how many would change."""
    changed = 0
    output = StandardOutput()
    for source in sources:
        before = cast(BytesIO, source.stream).getvalue().decode("utf-8")  # restored() checked it is UTF-8
        after = "".join(restored(source))
        if after == before:
            continue
        changed += 1
        if diff:
            output.write(unified_diff(before, after, source.name))
        else:
            print(f"would restore {source.name}", file=sys.stderr)
    return changed


def _check(args: argparse.Namespace) -> int:
    names = args.files or [STDIN_NAME]
    _read_once(names)
    configs = ConfigCache()
    checked = [(name, configs.config_for(Path.cwd() if name == STDIN_NAME else name)) for name in names]
    inputs = [
        (name, config, _read_input(name))
        for name, config in checked
        if name == STDIN_NAME or not config.excludes(name)  # pre-commit names every file
    ]
    ignore = ignored_words(args.dictionary, args.ignore)
    restorer = load_restorer(args.backend, device=args.device)
    keep_for_life()
    found = [
        found
        for name, config, data in inputs
        for found in file_findings(
            name, data, args.format, restorer, check_options(config, args.threshold, ignore), config.ignore_regex
        )
    ]
    report = render(found, args.output_format, __version__)
    if report:
        StandardOutput().write(report)
    return 1 if found else 0


def _read_once(names: list[str] | list[Path]) -> None:
    if [str(name) for name in names].count(STDIN_NAME) > 1:
        raise UsageError("standard input (-) can be read once")


def _read_input(name: str) -> bytes:
    try:
        return sys.stdin.buffer.read() if name == STDIN_NAME else Path(name).read_bytes()
    except OSError as error:
        raise NoktaError(f"{name}: {error.strerror or error}") from None


def _eval(args: argparse.Namespace) -> int:
    golds = {path: _read_text(path).splitlines() for path in args.gold}
    for path, lines in golds.items():
        if not any(line.strip() for line in lines):
            raise NoktaError(f"{path}: empty file, nothing to score")
    restorer = load_restorer(args.backend, device=args.device)
    keep_for_life()
    formats = {path: format_for_path(str(path)) if args.format == "auto" else args.format for path in golds}
    report: dict = {"backend": args.backend, "format": args.format}
    report.update(_scores(restorer, golds, formats, args.errors))
    if args.bare:
        report["bare"] = _scores(restorer, golds, dict.fromkeys(golds), args.errors)
    print(json.dumps(report, ensure_ascii=False, indent=2) if args.json else _format_report(report))
    return 0


def _scores(restorer: Restorer, golds: dict[Path, list[str]], formats: dict[Path, str | None], errors: int) -> dict:
    """Each gold file's metrics and their total, restored as a document of its format (None: the bare model)."""
    total, per_file = Metrics(), {}
    for path, lines in golds.items():
        metrics = evaluate(restorer, lines, formats[path])
        per_file[str(path)] = metrics.summary(errors)
        total.add(metrics)
    return {"files": per_file, "total": total.summary(errors)}


def _format_report(report: dict) -> str:
    paths = [("restore", report)] + ([("bare", report["bare"])] if "bare" in report else [])
    rows = [
        f"backend: {report['backend']}, format: {report['format']}",
        "restore: as `nokta restore` restores it (prose masking, language guard); bare: the model on every line",
        "",
        "| file | path | words | word acc | ambiguous-word acc | letter acc | recall | chars/s |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name in [*report["files"], "total"]:
        for label, scores in paths:
            m = scores["total"] if name == "total" else scores["files"][name]
            rows.append(
                f"| {name} | {label} | {m['words']:,} | {m['word_accuracy']:.4f} | {m['ambiguous_word_accuracy']:.4f} "
                f"| {m['letter_accuracy']:.4f} | {m['recall']:.4f} | {m['chars_per_second']:,.0f} |"
            )
    rows += ["", "most frequent errors of restore (gold → output × count):"]
    rows += [f"  {e['gold']} → {e['output']} × {e['count']}" for e in report["total"]["top_errors"]]
    return "\n".join(rows)


def _train(args: argparse.Namespace) -> int:
    from ..training import train

    return train(args)


class UsageError(Exception):
    """Options that do not go together: exit status 2, as argparse's own usage errors."""


def main(argv: list[str] | None = None) -> int:
    # One torch thread per process, as in the workers and the language server: --jobs uses
    # more cores. With torch's default of one per core, a whole restore ran much slower on
    # two cores shared with other work, the threads spinning for a busy core.
    set_torch_defaults()
    parser = build_parser()
    args = parser.parse_args(argv)
    stop_on_signals()
    # Where exit status 1 means findings (check, restore --check), an error is 2.
    error_status = 2 if args.command == "check" or getattr(args, "check", False) else 1
    try:
        return args.run(args)
    except UsageError as error:
        command: argparse.ArgumentParser = args.parser
        command.error(str(error))
    except (NoktaError, FileNotFoundError, ValueError) as error:
        print(f"nokta: error: {error}", file=sys.stderr)
        return error_status
    except KeyboardInterrupt:
        print("nokta: interrupted", file=sys.stderr)
        return 130
    except Stopped as stop:
        print(f"nokta: stopped by {stop.name}", file=sys.stderr)
        return 128 + stop.signum
    except OSError as error:
        print(f"nokta: error: {error.strerror or error}", file=sys.stderr)
        return error_status


if __name__ == "__main__":
    sys.exit(main())
