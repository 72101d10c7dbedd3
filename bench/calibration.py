"""How well the default's confidences say how often it is right, before and after calibration.

Reliability on the corpus dev split (never fitted on): every choice the default makes on
the dev text typed in ASCII (a word with more than one spelling; ``Restorer.choices``),
binned by its confidence: the share right per bin and the expected calibration error
(ECE: over ten equal bins, the gap between mean confidence and share right, weighted by
the bin's choices). Before: the lattice's shares; after: the shipped calibration
(``nokta train --backend calibration``, fitted on the tune split). For every choice and
for the choices between two real words.

Then the checker's thresholds, re-derived on the tune split for calibrated confidences
while keeping what they mean, the share of flags that are right: for each old default
(fixed on the raw shares), the lowest threshold of ``CANDIDATES`` whose flags are right at
least as often with calibrated confidences as the old default's were with raw shares (none
does: the one with the most right).
``threshold`` and ``autocorrect``: flags on the tune text typed in ASCII; ``strict``: the
flags it governs (words on lines typed with Turkish letters, slips aside) on the tune text
as written and with one word in five that has a Turkish letter typed without it.

    python -m bench.calibration
"""

from __future__ import annotations

import argparse
import copy
import random
import time
from collections.abc import Sequence
from dataclasses import asdict
from itertools import pairwise
from pathlib import Path

import numpy as np

from bench.lsp_scoring import partly_asciified
from bench.report import markdown_table, run_facts, write_report
from nokta_model.alphabet import asciify, fold_circumflex
from nokta_model.calibration import CLOSE_BELOW, Calibration
from nokta_model.check.findings import (
    CheckOptions,
    Finding,
    SuggestionCache,
    line_findings,
    model_input,
    suggestions_for,
)
from nokta_model.default import load_default_restorer
from nokta_model.neural.runtime import float32
from nokta_model.prose import PLAIN
from nokta_model.restorer import Restorer
from nokta_model.training.calibration_fit import Decided, decisions
from nokta_model.training.corpus import default_corpus_dir, split_lines

#: The lower edges of the reliability table's rows (ECE uses ten equal bins).
ROWS = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 0.999)
ECE_BINS = 10
#: The old defaults, fixed on the lattice's raw shares.
OLD = {"threshold": 0.99, "strict": 1.0, "autocorrect": 0.998}
CANDIDATES = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999, 0.9995, 0.9999, 1.0)
_UNREACHABLE = 1.01  # a threshold no confidence reaches: its flags are left out


def confidences(found: Sequence[Decided], calibration: Calibration) -> np.ndarray:
    return np.array([calibration.shares(d.shares, d.between_words)[0] for d in found])


def reliability(found: Sequence[Decided], calibration: Calibration) -> dict:
    """Per row of ``ROWS``: choices, mean confidence, share right; and the ECE."""
    confidence = confidences(found, calibration)
    right = np.array([d.right for d in found], dtype=float)
    edges = [*ROWS, np.inf]
    rows = []
    for low, high in pairwise(edges):
        inside = (confidence >= low) & (confidence < high)
        if inside.any():
            rows.append(
                {
                    "from": low,
                    "choices": int(inside.sum()),
                    "confidence": round(float(confidence[inside].mean()), 4),
                    "right": round(float(right[inside].mean()), 4),
                }
            )
    bins = np.minimum((confidence * ECE_BINS).astype(int), ECE_BINS - 1)
    gaps = [abs(confidence[bins == b].mean() - right[bins == b].mean()) * (bins == b).sum() for b in set(bins.tolist())]
    close = confidence < CLOSE_BELOW
    return {
        "choices": len(found),
        "right": round(float(right.mean()), 4),
        "ece": round(float(sum(gaps) / len(found)), 4),
        "close": {"choices": int(close.sum()), "right": round(float(right[close].mean()), 4) if close.any() else None},
        "rows": rows,
    }


def flags(texts: list[str], suggestions: list, options: CheckOptions) -> list[Finding]:
    return [
        finding
        for row, (text, found) in enumerate(zip(texts, suggestions, strict=True))
        for finding in line_findings(row, text, found, options)
    ]


def precision(found: list[Finding], gold: list[str]) -> tuple[float, int]:
    """(the share of ``found`` whose replacement is the gold spelling, how many)."""
    right = sum(f.replacement == fold_circumflex(gold[f.line][f.start : f.end]) for f in found)
    return (right / len(found) if found else 1.0), len(found)


def derived_thresholds(restorer: Restorer, gold: list[str]) -> dict:
    """The old defaults' precision on raw shares and the lowest candidate keeping it calibrated."""
    uncalibrated = copy.copy(restorer)
    uncalibrated.calibration = Calibration()
    texts = {
        "ascii": [asciify(fold_circumflex(line)) for line in gold],
        "typed": gold + [partly_asciified(line, random.Random(6)) for line in gold],
    }
    golds = {"ascii": gold, "typed": gold + gold}
    seen = {name: model_input(lines, PLAIN, 20_000) for name, lines in texts.items()}
    suggested = {
        (name, label): suggestions_for(seen[name], model, SuggestionCache())
        for name in texts
        for label, model in (("raw", uncalibrated), ("calibrated", restorer))
    }

    def options(name: str, value: float) -> CheckOptions:
        if name == "strict":
            return CheckOptions(threshold=_UNREACHABLE, strict_threshold=value)
        return CheckOptions(threshold=value, strict_threshold=_UNREACHABLE)

    result = {}
    for name, old in OLD.items():
        text = "typed" if name == "strict" else "ascii"

        def at(label: str, value: float, name: str = name, text: str = text) -> tuple[float, int]:
            return precision(flags(seen[text], suggested[text, label], options(name, value)), golds[text])

        old_precision, old_flags = at("raw", old)
        rows = [
            {"threshold": value, **dict(zip(("precision", "flags"), at("calibrated", value), strict=True))}
            for value in CANDIDATES
        ]
        kept = [row for row in rows if row["precision"] >= old_precision]
        chosen = kept[0] if kept else max(rows, key=lambda row: row["precision"])
        result[name] = {
            "old": old,
            "old_precision": round(old_precision, 5),
            "old_flags": old_flags,
            "chosen": chosen["threshold"],
            "rows": [{**row, "precision": round(row["precision"], 5)} for row in rows],
        }
    return result


def markdown(result: dict) -> str:
    facts = result["facts"]
    parts = [
        f"# Calibration of the default's confidences\n\n{facts['date']}, {facts['machine']}; "
        f"`python -m bench.calibration`. Temperatures (fitted on the tune split): "
        f"{result['temperatures']}.\n"
    ]
    for scope, label in (("all", "every choice"), ("between_words", "choices between two real words")):
        before, after = result["dev"][scope]["before"], result["dev"][scope]["after"]
        parts.append(
            markdown_table(
                ["", "choices", "share right", "ECE", f"below {CLOSE_BELOW}", f"right below {CLOSE_BELOW}"],
                [
                    [name, r["choices"], r["right"], r["ece"], r["close"]["choices"], r["close"]["right"]]
                    for name, r in (("before", before), ("after", after))
                ],
                caption=f"## Dev split, {label}",
            )
        )
        for name, r in (("before", before), ("after", after)):
            parts.append(
                markdown_table(
                    ["confidence from", "choices", "mean confidence", "share right"],
                    [[row["from"], row["choices"], row["confidence"], row["right"]] for row in r["rows"]],
                    caption=f"Reliability {name} calibration, {label} (dev)",
                )
            )
    parts.append(
        markdown_table(
            [
                "threshold",
                "old default (raw shares)",
                "its flags right",
                "flags",
                "chosen (calibrated)",
                "its flags right",
                "flags",
            ],
            [
                [name, t["old"], t["old_precision"], t["old_flags"], t["chosen"], *_chosen_row(t)]
                for name, t in result["thresholds"].items()
            ],
            caption="## Thresholds re-derived on the tune split",
            note="The lowest candidate whose flags, on calibrated confidences, are right at least as often as "
            "the old default's were on raw shares (if none is, the one whose flags are right most often).",
        )
    )
    return "\n".join(parts)


def _chosen_row(found: dict) -> list:
    row = next(r for r in found["rows"] if r["threshold"] == found["chosen"])
    return [row["precision"], row["flags"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("bench/results/calibration"))
    args = parser.parse_args()
    started = time.perf_counter()
    restorer = load_default_restorer()
    corpus = default_corpus_dir()
    dev = [line for _, line in split_lines(corpus, "dev")]
    tune = [line for _, line in split_lines(corpus, "tune")]
    with float32():  # as the calibration was fitted
        found = decisions(restorer, dev)
        thresholds = derived_thresholds(restorer, tune)
    scopes = {"all": found, "between_words": [d for d in found if d.between_words]}
    result = {
        "facts": run_facts(),
        "temperatures": asdict(restorer.calibration),
        "dev_lines": len(dev),
        "tune_lines": len(tune),
        "dev": {
            scope: {
                "before": reliability(chosen, Calibration()),
                "after": reliability(chosen, restorer.calibration),
            }
            for scope, chosen in scopes.items()
        },
        "thresholds": thresholds,
        "seconds": round(time.perf_counter() - started),
    }
    write_report(args.out, result, markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
