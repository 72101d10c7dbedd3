"""The network's runtimes side by side: time per batch and the default's word errors.

    python -m bench.runtime [--rounds 7] [--no-accuracy]

Runtimes: the shipped graph (int8) on ONNX Runtime, the same network exported in float32,
and the shipped checkpoint on torch in float32 and, where the CPU has it natively, in
bfloat16. Each runs, on one thread, the batches the default gives its network: windows
around words of the corpus dev split, cut and batched by ``neural.batching`` exactly as
in a restore; the rounds interleave the runtimes and the median is quoted. Accuracy: the
default with each runtime on the corpus tune and dev splits (never fitted on the dev
split): word errors, and words changed when the correct dev text is fed as written.
Needs the ``nokta[torch]`` extra and ``onnx``. Writes bench/results/runtime.json and .md.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

from bench.report import markdown_table, run_facts, write_report
from nokta_model.alphabet import asciify
from nokta_model.default import DEFAULT_WEIGHTS, DefaultRestorer, LazyNetwork, read_weights
from nokta_model.evaluate import changed_words, evaluate, restore_all
from nokta_model.neural import NeuralRestorer
from nokta_model.neural.batching import Piece, batches, padded
from nokta_model.neural.checkpoint import load_model
from nokta_model.neural.onnx_tagger import OnnxTagger
from nokta_model.neural.runtime import SHIPPED_GRAPH, SHIPPED_WEIGHTS, Tagger
from nokta_model.neural.torch_tagger import TorchTagger, native_bfloat16
from nokta_model.neural.vocab import BOUNDARY, encode_input
from nokta_model.training.corpus import default_corpus_dir, split_lines
from nokta_model.training.neural.export import export_graph

ROOT = Path(__file__).resolve().parent
WINDOW = 16  # letters either side of a word, as the default's windows (UNSEEN_CONTEXT, COMPETING_CONTEXT)
WINDOWS = 4_000


def runtimes(folder: Path) -> dict[str, Tagger]:
    torch.set_num_threads(1)
    model, meta = load_model(SHIPPED_WEIGHTS)
    graph32 = export_graph(model, folder / "float32.onnx", meta, int8=False)
    chosen: dict[str, Tagger] = {
        "ONNX Runtime, int8 (shipped)": OnnxTagger.load(SHIPPED_GRAPH),
        "ONNX Runtime, float32": OnnxTagger.load(graph32),
        "torch, float32": TorchTagger(model, meta, bfloat16=False),
    }
    if native_bfloat16():
        chosen["torch, bfloat16"] = TorchTagger.load(SHIPPED_WEIGHTS, "cpu")
    return chosen


def network_batches(lines: list[str]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Padded batches of windows around the words of ``lines`` (asciified, as typed)."""
    pieces = []
    for line in lines:
        key = asciify(line)
        for start in range(0, len(key), 2 * WINDOW):
            window = key[max(0, start - WINDOW) : start + 3 * WINDOW]
            ids = np.concatenate(([BOUNDARY], encode_input(window, cased=True), [BOUNDARY])).astype(np.int64)
            pieces.append(Piece(len(pieces), 0, ids, 0, len(ids)))
            if len(pieces) == WINDOWS:
                return _padded_batches(pieces)
    return _padded_batches(pieces)


def _padded_batches(pieces: list[Piece]) -> list[tuple[np.ndarray, np.ndarray]]:
    pieces.sort(key=lambda piece: len(piece.ids))
    return [padded(batch) for batch in batches(pieces)]


def time_per_batch(taggers: dict[str, Tagger], work: list[tuple[np.ndarray, np.ndarray]], rounds: int) -> dict:
    seconds: dict[str, list[float]] = {name: [] for name in taggers}
    for _ in range(rounds):
        for name, tagger in taggers.items():
            started = time.perf_counter()
            for ids, lengths in work:
                tagger.probabilities(ids, lengths)
            seconds[name].append(time.perf_counter() - started)
    letters = sum(int(lengths.sum()) for _, lengths in work)
    return {
        name: {"ms_per_batch": 1000 * statistics.median(values) / len(work), "letters_per_s": letters / min(values)}
        for name, values in seconds.items()
    }


def default_errors(tagger: Tagger, tune: list[str], dev: list[str]) -> dict:
    from nokta_model.charctx import load_context_model
    from nokta_model.ngram.model import NgramRestorer

    weights, _ = read_weights(DEFAULT_WEIGHTS)
    network = NeuralRestorer(tagger)
    models = NgramRestorer.load(None), load_context_model(None)
    restorer = DefaultRestorer(*models, LazyNetwork(lambda: network), weights)
    tune_metrics, dev_metrics = evaluate(restorer, tune), evaluate(restorer, dev)
    changed, words = changed_words(dev, restore_all(restorer, dev))
    return {
        "tune_word_errors": tune_metrics.words - tune_metrics.words_correct,
        "dev_word_errors": dev_metrics.words - dev_metrics.words_correct,
        "dev_changed": changed,
        "dev_words": words,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--no-accuracy", action="store_true", help="time the batches only")
    args = parser.parse_args()
    corpus = default_corpus_dir()
    dev = [line for _, line in split_lines(corpus, "dev")]
    tune = [line for _, line in split_lines(corpus, "tune")]
    with tempfile.TemporaryDirectory() as folder:
        taggers = runtimes(Path(folder))
        work = network_batches(dev)
        speed = time_per_batch(taggers, work, args.rounds)
        accuracy = {} if args.no_accuracy else {name: default_errors(t, tune, dev) for name, t in taggers.items()}
    report = {**run_facts(), "rounds": args.rounds, "batches": len(work), "speed": speed, "accuracy": accuracy}
    markdown = table(report)
    write_report(ROOT / "results" / "runtime", report, markdown)
    print(markdown)


def table(report: dict) -> str:
    rows = []
    for name, figures in report["speed"].items():
        accuracy = report["accuracy"].get(name, {})
        row = [name, f"{figures['ms_per_batch']:.1f} ms", f"{figures['letters_per_s'] / 1000:,.0f} k"]
        if accuracy:
            changed = 100 * accuracy["dev_changed"] / accuracy["dev_words"]
            row += [str(accuracy["tune_word_errors"]), str(accuracy["dev_word_errors"]), f"{changed:.2f}%"]
        rows.append(row)
    header = ["runtime", "time per batch", "letters per second"]
    if report["accuracy"]:
        header += ["default: tune word errors", "dev word errors", "dev changed when correct"]
    caption = (
        f"`python -m bench.runtime`: the default's network batches ({report['batches']} batches of windows "
        f"around the corpus dev split's words), one thread, median of {report['rounds']} interleaved rounds; "
        f"{report['date']}, {report['machine']}"
    )
    note = (
        "Accuracy: the default with each runtime on the corpus tune and dev splits, as in `nokta train "
        "--backend default` and `bench.genres`. The dev split comes from the training sources (held out by "
        "line); vikipedi_test and the other unseen texts are in bench/results/genres.md and throughput.md."
    )
    return markdown_table(header, rows, caption, note)


if __name__ == "__main__":
    main()
