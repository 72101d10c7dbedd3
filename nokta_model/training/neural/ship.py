"""Copy a trained checkpoint into the package as the shipped network: its weights for
torch (``neural.safetensors``) and its graph for ONNX Runtime (``neural.onnx``, int8).

    python -m nokta_model.training.neural.ship RUN_DIR/best.safetensors

Then refit the default's weights with the new network: ``nokta train --backend default``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ...neural.checkpoint import load_model, save_model
from ...neural.runtime import SHIPPED_GRAPH, SHIPPED_WEIGHTS
from .export import export_graph


def ship(weights: Path, output: Path = SHIPPED_WEIGHTS, graph: Path = SHIPPED_GRAPH) -> tuple[Path, Path]:
    model, meta = load_model(weights)
    extra = {key: value for key, value in meta.items() if key not in ("format", "version", "config", "alphabet")}
    save_model(model, output, extra)
    return output, export_graph(model, graph, extra)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("weights", type=Path)
    parser.add_argument("--output", type=Path, default=SHIPPED_WEIGHTS)
    parser.add_argument("--graph", type=Path, default=SHIPPED_GRAPH)
    args = parser.parse_args()
    for path in ship(args.weights, args.output, args.graph):
        print(path)


if __name__ == "__main__":
    main()
