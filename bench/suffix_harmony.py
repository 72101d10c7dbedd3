"""The default's suffix-harmony rules against what the corpus's writers write.

    python -m bench.suffix_harmony [--out bench/results/suffix_harmony]

Every suffix after an apostrophe whose first vowel is a high one (ı i u ü) in the train
split's correct text (Google'ın, PKK'yı, 1990'lı): per rule of ``default/harmony.py``
that reads what the suffix follows (a number, a Roman numeral, an acronym, a word), how
many suffixes the writers spell as the rule says, how many the other way, and how many the
rule leaves unsettled (the models decide them); with the stems most often written against
the rule. Then the suffixes whose own vowels disagree (``harmonious_masks`` would change
them): what the hard rule of agreement inside a suffix would have changed in correct text.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

from bench.report import markdown_table, run_facts, write_report
from nokta_model.alphabet import model_lower
from nokta_model.default.harmony import Suffix, harmonious_masks
from nokta_model.reading import number_vowel, stem_reading
from nokta_model.training.corpus import default_corpus_dir, split_lines
from nokta_model.words import spelling_mask, token_key

ROOT = Path(__file__).resolve().parent
_SUFFIXED_RE = re.compile(r"(?<![\w'’.,])([^\W_]+(?:[.,]\d+)*)['’]([a-zçğıöşü]+)\b")
_HIGH, _BACK, _VOWELS = "ıiuü", "aıou", "aeıioöuü"
EXAMPLES = 6


def reading(stem: str) -> tuple[str, bool | None]:
    """The rule that reads ``stem`` (as written) and the backness it gives."""
    if stem[-1].isdigit():
        return "number", number_vowel(stem) in _BACK if stem.replace(".", "").replace(",", "").isdigit() else None
    return stem_reading(stem, model_lower(stem))


def measure(lines: list[str]) -> dict:
    rules: dict[str, Counter] = {}
    against: dict[str, Counter] = {}
    disagreeing, suffixes = Counter(), 0
    for line in lines:
        for found in _SUFFIXED_RE.finditer(line):
            stem, suffix = found.groups()
            key = token_key(suffix)
            mask = spelling_mask(key, suffix) or 0
            if harmonious_masks(key, Suffix(0), mask, both=False) != [mask]:
                disagreeing[suffix] += 1
            first = next((ch for ch in suffix if ch in _VOWELS), "")
            if not first or first not in _HIGH:
                continue
            suffixes += 1
            rule, back = reading(stem)
            verdict = "unsettled" if back is None else "agree" if back == (first in _BACK) else "against"
            rules.setdefault(rule, Counter())[verdict] += 1
            if verdict == "against":
                against.setdefault(rule, Counter())[f"{stem}'{suffix}"] += 1
    return {
        "suffixes": suffixes,
        "rules": {
            rule: {
                **{v: counts[v] for v in ("agree", "against", "unsettled")},
                "against_examples": against.get(rule, Counter()).most_common(EXAMPLES),
            }
            for rule, counts in sorted(rules.items(), key=lambda item: -sum(item[1].values()))
        },
        "disagreeing_inside": sum(disagreeing.values()),
        "disagreeing_examples": disagreeing.most_common(EXAMPLES),
    }


def markdown(report: dict) -> str:
    header = ["rule", "suffixes", "as the rule says", "the other way", "unsettled", "written against it most"]
    rows = []
    for rule, counts in report["rules"].items():
        settled = counts["agree"] + counts["against"]
        share = f" ({counts['agree'] / settled:.1%})" if settled else ""
        examples = ", ".join(f"{word} ×{count}" for word, count in counts["against_examples"])
        total = settled + counts["unsettled"]
        rows.append(
            [
                rule,
                f"{total:,}",
                f"{counts['agree']:,}{share}",
                f"{counts['against']:,}",
                f"{counts['unsettled']:,}",
                examples,
            ]
        )
    caption = f"{report['date']}, {report['machine']}; the corpus train split, commercial-licence files"
    note = (
        f"{report['suffixes']:,} suffixes after an apostrophe with a high first vowel. Unsettled: the rule "
        "gives no vowel, the network and the counts decide. Of all suffixes after an apostrophe, "
        f"{report['disagreeing_inside']:,} have vowels that disagree with each other (the rule would change them): "
        + ", ".join(f"{word} ×{count}" for word, count in report["disagreeing_examples"])
        + "."
    )
    return markdown_table(header, rows, caption, note)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "suffix_harmony")
    args = parser.parse_args()
    lines = [line for _, line in split_lines(default_corpus_dir(), "train")]
    report = {**run_facts(), **measure(lines)}
    write_report(args.out, report, markdown(report))
    print(markdown(report))


if __name__ == "__main__":
    main()
