"""The language server's precision and recall, per file (issue 12, point 5).

Drives ``nokta-lsp --stdio`` as an editor would (open documents, wait for their
diagnostics) on each human-written file of the corpus dev split (its dev lines) and on
../shared/bench/vikipedi_test.txt, each in three versions:

1. as written (correct Turkish): every diagnostic is a false alarm, per 2,000 words,
   except one that corrects a reviewed error of the dev text (bench/data/
   dev_reference_errors.tsv: words written without a diacritic they need), counted as
   a detected error instead;
2. asciified (a writer without Turkish letters): recall over the words that need a
   change, and exactness of the flags (replacement equals the reference spelling: the
   gold with its reviewed errors corrected);
3. with slips (a writer with a Turkish keyboard who misses a letter now and then): one
   word in five of those with a Turkish letter asciified, the rest as written; recall
   over the slipped words (and the reviewed errors).

and on bench/data/english_django_docs.rst (English, as reStructuredText): per 5,000 words.
The thresholds and the slip rule were chosen on dev lines by bench/lsp_tune_threshold.py;
vikipedi_test is only measured here. Writes bench/results/lsp_precision.json and .md.

    python -m bench.lsp_precision [--backend default] [--model-path FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import random
from pathlib import Path

from bench.lsp_client import BenchClient
from bench.lsp_scoring import (
    RecallScore,
    ReviewedError,
    changed_words,
    corrected_lines,
    count_words,
    is_detection,
    partly_asciified,
    read_reference_errors,
    score_restoration,
)
from bench.report import markdown_table, run_facts, write_report
from nokta_lsp.analysis.documents import Codec
from nokta_model.alphabet import asciify
from nokta_model.training.corpus import default_corpus_dir, split_lines

HERE = Path(__file__).resolve().parent

VIKIPEDI = HERE.parent.parent / "shared" / "bench" / "vikipedi_test.txt"
ENGLISH = HERE / "data" / "english_django_docs.rst"
SLIP_SEED = 6


def texts() -> dict[str, str]:
    """Gold text by name: each human-written dev file's dev lines, then vikipedi_test."""
    found: dict[str, list[str]] = {}
    for corpus_file, line in split_lines(default_corpus_dir(), "dev"):
        if corpus_file.human:
            found.setdefault(corpus_file.name, []).append(line)
    return {**{name: "\n".join(lines) for name, lines in found.items()}, "vikipedi_test": VIKIPEDI.read_text("utf-8")}


def to_flags(diagnostics, lines: list[str]) -> list[tuple[int, int, int, str]]:
    codec = Codec("utf-16")
    flags = []
    for d in diagnostics:
        first, last = d["range"]["start"], d["range"]["end"]
        row = first["line"]
        start, end = codec.from_client(lines[row], first["character"]), codec.from_client(lines[row], last["character"])
        flags.append((row, start, end, d["data"]["replacement"]))
    return flags


def versions(gold: str, rng: random.Random) -> dict[str, str]:
    lines = gold.split("\n")
    return {"gold": gold, "ascii": asciify(gold), "slips": "\n".join(partly_asciified(line, rng) for line in lines)}


async def measure(options: dict) -> dict:
    golds, rng = texts(), random.Random(SLIP_SEED)
    documents = {(name, kind): text for name, gold in golds.items() for kind, text in versions(gold, rng).items()}
    english = ENGLISH.read_text(encoding="utf-8")
    bench = BenchClient()
    await bench.start(options)
    await asyncio.wait_for(bench.model_loaded.wait(), 120)  # not the stand-in that serves meanwhile
    for (name, kind), text in documents.items():
        bench.open(f"file:///{kind}/{name}", text, "plaintext")
    bench.open("file:///english.rst", english, "restructuredtext")
    found = {
        key: (await bench.final_diagnostics(f"file:///{key[1]}/{key[0]}", 1))[1] for key in documents
    }  # all, not the top
    english_flags = (await bench.final_diagnostics("file:///english.rst", 1))[1]
    await bench.stop()

    errors = read_reference_errors()
    files = {name: file_scores(name, gold, documents, found, errors) for name, gold in golds.items()}
    english_words = count_words(english.split("\n"))
    return {
        "files": files,
        "english": {
            "words": english_words,
            "diagnostics": len(english_flags),
            "per_5000_words": round(5000 * len(english_flags) / english_words, 3),
            "examples": [d["message"] for d in english_flags[:20]],
        },
    }


def file_scores(name: str, gold: str, documents: dict, found: dict, errors: list[ReviewedError]) -> dict:
    gold_lines = gold.split("\n")
    reference = corrected_lines(name, gold_lines, errors)
    on_gold = found[(name, "gold")]
    detections = [is_detection(flag, reference) for flag in to_flags(on_gold, gold_lines)]
    alarms = [d for d, detected in zip(on_gold, detections, strict=True) if not detected]
    words = count_words(gold_lines)

    def recall(kind: str) -> RecallScore:
        lines = documents[(name, kind)].split("\n")
        return score_restoration(lines, reference, to_flags(found[(name, kind)], lines))

    return {
        "words": words,
        "false_alarms": len(alarms),
        "per_2000_words": round(2000 * len(alarms) / words, 3),
        "reference_errors": changed_words(gold_lines, reference),
        "reference_errors_flagged": sum(detections),
        "ascii": recall("ascii").as_dict(),
        "slips": recall("slips").as_dict(),
        "false_alarm_examples": [d["message"] for d in alarms[:10]],
    }


def _totals(files: dict) -> dict:
    words = sum(f["words"] for f in files.values())
    alarms = sum(f["false_alarms"] for f in files.values())

    def share(kind: str, part: str, whole: str) -> float:
        total = sum(f[kind][whole] for f in files.values())
        return sum(f[kind][part] for f in files.values()) / total if total else 0.0

    return {
        "words": words,
        "per_2000_words": 2000 * alarms / words,
        "false_alarms": alarms,
        "reference_errors": sum(f["reference_errors"] for f in files.values()),
        "reference_errors_flagged": sum(f["reference_errors_flagged"] for f in files.values()),
        "ascii_recall": share("ascii", "flagged_needing", "need_change"),
        "ascii_exactness": share("ascii", "exact_flags", "flags"),
        "slip_recall": share("slips", "flagged_needing", "need_change"),
        "slips": sum(f["slips"]["need_change"] for f in files.values()),
    }


def markdown(result: dict) -> str:
    files = result["files"]
    dev = {name: f for name, f in files.items() if name != "vikipedi_test"}
    rows = [
        [
            name,
            f"{f['words']:,}",
            f"{f['per_2000_words']:.2f} ({f['false_alarms']})",
            f"{f['reference_errors_flagged']} / {f['reference_errors']}",
            f"{f['ascii']['recall']:.3f}",
            f"{f['ascii']['exactness']:.3f}",
            f"{f['slips']['recall']:.3f} ({f['slips']['need_change']})",
        ]
        for name, f in files.items()
    ]
    total = _totals(dev)
    rows.append(
        [
            "**dev, human-written, all files**",
            f"{total['words']:,}",
            f"{total['per_2000_words']:.2f} ({total['false_alarms']})",
            f"{total['reference_errors_flagged']} / {total['reference_errors']}",
            f"{total['ascii_recall']:.3f}",
            f"{total['ascii_exactness']:.3f}",
            f"{total['slip_recall']:.3f} ({total['slips']})",
        ]
    )
    e = result["english"]
    caption = (
        f"Language server precision and recall per file ({result['settings']}, {result['date']}, "
        f"{result['machine']}). Targets: false alarms ≤ 1 per 2,000 words, recall ≥ 0.93 on asciified "
        f"text and ≥ 0.85 on slips. A flag that corrects a reviewed error of the dev text "
        f"(bench/data/dev_reference_errors.tsv) is a detection, not a false alarm. "
        f"English (Django docs, {e['words']:,} words): "
        f"{e['per_5000_words']} diagnostics per 5,000 words ({e['diagnostics']}; target ≤ 1)."
    )
    header = [
        "text",
        "words",
        "false alarms / 2,000 words",
        "dev-text errors flagged",
        "ascii recall",
        "ascii exactness",
        "slip recall (slips)",
    ]
    return markdown_table(header, rows, caption)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="default")
    parser.add_argument("--model-path", default="")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "lsp_precision")
    args = parser.parse_args()
    options = {"backend": args.backend, "modelPath": args.model_path, "debounceMs": 0}
    result = asyncio.run(measure(options))
    result["settings"] = ", ".join(f"{k}={v}" for k, v in options.items() if v != "")
    result.update(run_facts())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_report(args.out, result, markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
