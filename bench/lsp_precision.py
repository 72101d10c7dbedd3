"""The language server's three precision/recall figures (issue 4, "Done when").

Drives ``nokta-lsp --stdio`` as an editor would (open a document, wait for its
diagnostics) on:

1. ../shared/bench/vikipedi_test.txt as given (correct Turkish): diagnostics per 2,000 words;
2. bench/data/english_django_docs.rst (English, as restructuredtext): per 5,000 words;
3. the vikipedi text asciified: recall over words that need a change, and exactness
   of the flags (replacement equals the gold spelling).

Writes bench/results/lsp_precision.json and .md. The test text is only measured here,
never tuned on (the threshold is tuned by bench/lsp_tune_threshold.py on corpus dev text).

    python -m bench.lsp_precision [--backend ngram] [--model-path FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import platform
from pathlib import Path

from bench.lsp_client import BenchClient
from bench.lsp_scoring import count_words, score_restoration
from bench.report import markdown_table, write_report
from nokta_lsp.checker import typed_with_turkish_letters
from nokta_lsp.documents import Codec
from nokta_model.alphabet import asciify

HERE = Path(__file__).resolve().parent

VIKIPEDI = HERE.parent.parent / "shared" / "bench" / "vikipedi_test.txt"
ENGLISH = HERE / "data" / "english_django_docs.rst"


def to_flags(diagnostics, lines: list[str]) -> list[tuple[int, int, int, str]]:
    codec = Codec("utf-16")
    flags = []
    for d in diagnostics:
        first, last = d["range"]["start"], d["range"]["end"]
        row = first["line"]
        start, end = codec.from_client(lines[row], first["character"]), codec.from_client(lines[row], last["character"])
        flags.append((row, start, end, d["data"]["replacement"]))
    return flags


async def measure(options: dict) -> dict:
    gold_text = VIKIPEDI.read_text(encoding="utf-8")
    english_text = ENGLISH.read_text(encoding="utf-8")
    ascii_text = asciify(gold_text)
    bench = BenchClient()
    await bench.start(options)
    await asyncio.wait_for(bench.model_loaded.wait(), 120)  # not the stand-in that serves meanwhile
    documents = {
        "file:///vikipedi_gold.txt": (gold_text, "plaintext"),
        "file:///english.rst": (english_text, "restructuredtext"),
        "file:///vikipedi_ascii.txt": (ascii_text, "plaintext"),
    }
    for uri, (text, language) in documents.items():
        bench.open(uri, text, language)
    found = {uri: (await bench.diagnostics(uri, 1))[1] for uri in documents}
    await bench.stop()

    gold_lines, ascii_lines = gold_text.split("\n"), ascii_text.split("\n")
    gold_words, english_words = count_words(gold_lines), count_words(english_text.split("\n"))
    recall = score_restoration(ascii_lines, gold_lines, to_flags(found["file:///vikipedi_ascii.txt"], ascii_lines))
    english_flags = found["file:///english.rst"]
    alarms = found["file:///vikipedi_gold.txt"]
    kinds = [typed_with_turkish_letters(gold_lines[d["range"]["start"]["line"]]) for d in alarms]
    return {
        "correct_turkish": {"words": gold_words, "diagnostics": len(found["file:///vikipedi_gold.txt"]),
                            "per_2000_words": round(2000 * len(found["file:///vikipedi_gold.txt"]) / gold_words, 3),
                            "on_lines_with_turkish_letters": sum(kinds), "on_ascii_lines": len(kinds) - sum(kinds),
                            "examples": [d["message"] for d in alarms[:40]]},
        "english": {"words": english_words, "diagnostics": len(english_flags),
                    "per_5000_words": round(5000 * len(english_flags) / english_words, 3),
                    "examples": [d["message"] for d in english_flags[:20]]},
        "asciified_turkish": recall.as_dict(),
    }  # fmt: skip


def markdown(result: dict) -> str:
    t, e, a = result["correct_turkish"], result["english"], result["asciified_turkish"]
    rows = [
        [
            f"diagnostics on correct Turkish (vikipedi_test.txt, {t['words']:,} words)",
            "≤ 1 per 2,000 words",
            f"{t['per_2000_words']} per 2,000 ({t['diagnostics']})",
        ],
        [
            f"diagnostics on English (Django docs, {e['words']:,} words)",
            "≤ 1 per 5,000 words",
            f"{e['per_5000_words']} per 5,000 ({e['diagnostics']})",
        ],
        [
            f"words needing a change that are flagged (asciified vikipedi, {a['need_change']:,} words)",
            "≥ 90%",
            f"{a['recall']:.1%}",
        ],
        [f"flags whose replacement is exactly right ({a['flags']:,} flags)", "≥ 97%", f"{a['exactness']:.1%}"],
    ]
    caption = f"Language server precision ({result['settings']}, {result['date']}, {result['machine']})"
    return markdown_table(["measure", "target", "result"], rows, caption)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="default")
    parser.add_argument("--model-path", default="")
    parser.add_argument("--threshold", type=float, help="override the default confidenceThreshold")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "lsp_precision")
    args = parser.parse_args()
    options = {"backend": args.backend, "modelPath": args.model_path, "debounceMs": 0}
    if args.threshold is not None:
        options["confidenceThreshold"] = args.threshold
    result = asyncio.run(measure(options))
    result["settings"] = ", ".join(f"{k}={v}" for k, v in options.items() if v != "")
    result["date"] = datetime.date.today().isoformat()
    result["machine"] = f"{platform.processor() or platform.machine()}, Python {platform.python_version()}"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_report(args.out, result, markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
