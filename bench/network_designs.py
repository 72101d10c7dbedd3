"""Forward time of candidate network designs on batches like the default's, in turn.

Each round runs every design once on each batch (windows of 12 and 24 letters either side
of a word, as the default asks, and whole lines); the report gives each design's median
milliseconds per batch and its cost per character against the shipped network's. Weights
are random (time does not depend on them), except the shipped network's own. One thread,
as a server worker runs beside other work on this 2-core machine.

    python -m bench.network_designs [--rounds 15] [--out bench/results/network_designs]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time
from dataclasses import asdict, replace
from pathlib import Path

import torch

from bench.report import markdown_table, run_facts, write_report
from nokta_model.neural.checkpoint import load_model
from nokta_model.neural.config import ModelConfig
from nokta_model.neural.model import CharTagger, parameter_count
from nokta_model.neural.runtime import SHIPPED_WEIGHTS
from nokta_model.neural.vocab import VOCAB_SIZE

#: (name, rows, characters per row): 12 and 24 letters either side of an 8-letter word
#: plus the two line boundaries, and whole lines of about 200 characters.
BATCHES = (("64 windows ±12", 64, 34), ("64 windows ±24", 64, 58), ("20 lines of 200", 20, 200))
LSTM = ModelConfig(backbone="lstm", embed_dim=64, layers=2, hidden=256)
DESIGNS: dict[str, tuple[ModelConfig, str]] = {
    "2×256 LSTM (shipped)": (LSTM, "bfloat16"),
    "2×256 LSTM, float32": (LSTM, "float32"),
    "2×256 LSTM, int8 dynamic": (LSTM, "int8"),
    "2×192 LSTM": (replace(LSTM, hidden=192), "bfloat16"),
    "2×128 LSTM": (replace(LSTM, hidden=128), "bfloat16"),
    "2×160 LSTM": (replace(LSTM, hidden=160), "bfloat16"),
    "1×192 LSTM": (replace(LSTM, layers=1, hidden=192), "bfloat16"),
    "1×128 LSTM": (replace(LSTM, layers=1, hidden=128), "bfloat16"),
    "CNN 6×128, k3 (±63)": (ModelConfig(backbone="cnn", hidden=128, layers=6), "bfloat16"),
    "CNN 6×128, k3, float32": (ModelConfig(backbone="cnn", hidden=128, layers=6), "float32"),
    "CNN 5×192, k3 (±31)": (ModelConfig(backbone="cnn", hidden=192, layers=5), "bfloat16"),
    "3 conv ×128 + 1×128 LSTM": (replace(LSTM, layers=1, hidden=128, conv_layers=3), "bfloat16"),
    "3 conv ×128 + 1×192 LSTM": (replace(LSTM, layers=1, hidden=192, conv_layers=3), "bfloat16"),
    "2 conv ×96 + 2×128 LSTM": (replace(LSTM, hidden=128, conv_layers=2, conv_channels=96), "bfloat16"),
    "3 conv ×128 + 2×128 LSTM": (replace(LSTM, hidden=128, conv_layers=3), "bfloat16"),
}


def build(config: ModelConfig, precision: str, shipped: bool) -> CharTagger:
    model = load_model(SHIPPED_WEIGHTS)[0] if shipped else CharTagger(config).eval()
    if precision == "int8":
        return torch.ao.quantization.quantize_dynamic(model, {torch.nn.LSTM}, dtype=torch.qint8)
    if precision == "bfloat16":
        model.keep_cast_weights(torch.bfloat16)
    return model


def forward_ms(model: CharTagger, ids: torch.Tensor, precision: str) -> float:
    autocast = torch.autocast("cpu", dtype=torch.bfloat16) if precision == "bfloat16" else contextlib.nullcontext()
    with torch.inference_mode(), autocast:
        started = time.perf_counter()
        model(ids, torch.full((ids.shape[0],), ids.shape[1]))
        return 1000 * (time.perf_counter() - started)


def measure(rounds: int) -> dict:
    torch.set_num_threads(1)
    torch.manual_seed(0)
    models = {
        name: build(config, precision, name.endswith("(shipped)")) for name, (config, precision) in DESIGNS.items()
    }
    inputs = {name: torch.randint(3, VOCAB_SIZE, (rows, width)) for name, rows, width in BATCHES}
    times: dict[str, dict[str, list[float]]] = {name: {batch: [] for batch in inputs} for name in models}
    for round_ in range(rounds + 1):  # round 0 warms up
        for name, model in models.items():
            for batch, ids in inputs.items():
                elapsed = forward_ms(model, ids, DESIGNS[name][1])
                if round_:
                    times[name][batch].append(elapsed)
    medians = {name: {batch: statistics.median(values) for batch, values in by.items()} for name, by in times.items()}
    shipped = medians["2×256 LSTM (shipped)"]
    return run_facts() | {
        "rounds": rounds,
        "threads": 1,
        "designs": {
            name: {
                "config": asdict(DESIGNS[name][0]),
                "precision": DESIGNS[name][1],
                "parameters": parameter_count(CharTagger(DESIGNS[name][0])),
                "median_ms": medians[name],
                "cost_vs_shipped": {batch: medians[name][batch] / shipped[batch] for batch in inputs},
            }
            for name in models
        },
    }


def markdown(result: dict) -> str:
    batches = [name for name, _, _ in BATCHES]
    header = ["design", "parameters", *(f"{b} (ms)" for b in batches), *(f"{b} ×shipped" for b in batches)]
    rows = [
        [
            name,
            f"{d['parameters']:,}",
            *(f"{d['median_ms'][b]:.1f}" for b in batches),
            *(f"{d['cost_vs_shipped'][b]:.2f}" for b in batches),
        ]
        for name, d in result["designs"].items()
    ]
    caption = (
        f"Network forward time per batch, median of {result['rounds']} rounds run in turn, one thread; "
        f"{result['date']}, {result['machine']} (shared: other work ran beside it)."
    )
    return markdown_table(header, rows, caption, "bfloat16 autocast unless the name says float32 or int8.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--out", type=Path, default=Path("bench/results/network_designs"))
    args = parser.parse_args()
    result = measure(args.rounds)
    write_report(args.out, result, markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
