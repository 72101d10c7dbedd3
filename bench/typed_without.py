"""How much of a document was typed without Turkish letters, as the language server
measures it to decide when one diagnostic replaces a document's findings
(``nokta_lsp.analysis.diagnostics.TYPED_WITHOUT_SHARE``): its confident findings against those and
the words typed with a Turkish letter. On each human-written file of the corpus dev split
(dev lines only), as written, asciified, and with slips (one word in five asciified, as
``bench.lsp_precision`` makes them). Writes bench/results/typed_without.json and .md.

    python -m bench.typed_without
"""

from __future__ import annotations

import random
from pathlib import Path

from bench.lsp_precision import SLIP_SEED, versions
from bench.report import markdown_table, run_facts, write_report
from nokta_lsp.analysis.diagnostics import TYPED_WITHOUT_SHARE
from nokta_lsp.analysis.incremental import turkish_words
from nokta_model.backends import load_restorer
from nokta_model.check.findings import CheckOptions, SuggestionCache, check, document_masker, model_input
from nokta_model.training.corpus import default_corpus_dir, split_lines

HERE = Path(__file__).resolve().parent
KINDS = ("gold", "slips", "ascii")


def dev_files() -> dict[str, str]:
    found: dict[str, list[str]] = {}
    for corpus_file, line in split_lines(default_corpus_dir(), "dev"):
        if corpus_file.human:
            found.setdefault(corpus_file.name, []).append(line)
    return {name: "\n".join(lines) for name, lines in found.items()}


def typed_without_share(text: str, restorer, options: CheckOptions) -> dict:
    lines = text.split("\n")
    masker = document_masker("plaintext", ("plaintext",), False)
    assert masker is not None
    confident = sum(f.confident for f in check(lines, masker, restorer, SuggestionCache(), options))
    typed = sum(map(turkish_words, model_input(lines, masker, options.max_line_length)))
    return {"confident": confident, "typed_with": typed, "share": round(confident / max(1, confident + typed), 3)}


def measure() -> dict:
    restorer, options = load_restorer("default"), CheckOptions()
    files = {}
    for name, gold in dev_files().items():
        texts = versions(gold, random.Random(SLIP_SEED))
        files[name] = {kind: typed_without_share(texts[kind], restorer, options) for kind in KINDS}
    return {"threshold": TYPED_WITHOUT_SHARE, "files": files}


def markdown(result: dict) -> str:
    files = result["files"]
    rows = []
    for kind, label in zip(KINDS, ("as written", "slips (1 word in 5 in ASCII)", "typed in ASCII"), strict=True):
        shares = [f[kind]["share"] for f in files.values()]
        over = sum(share >= result["threshold"] for share in shares)
        rows.append([label, f"{min(shares):.3f}", f"{max(shares):.3f}", f"{over} of {len(shares)}"])
    caption = (
        f"Share of the words needing a Turkish letter typed without one, per human-written corpus dev file "
        f"(default backend, {result['date']}, {result['machine']})"
    )
    note = f"One diagnostic replaces a document's findings past `maxDiagnostics` at a share ≥ {result['threshold']}."
    return markdown_table(["text", "lowest", "highest", f"files ≥ {result['threshold']}"], rows, caption, note)


def main() -> None:
    result = {**measure(), **run_facts()}
    out = HERE / "results" / "typed_without"
    write_report(out, result, markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
