"""Copy a trained checkpoint into the package as the shipped model, with the hybrid
settings chosen on dev and the measurements that chose them.

    python -m nokta_model.neural.ship RUN_DIR/best.safetensors --dev-results runs/hybrid-dev.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .checkpoint import load_model, save_model
from .hybrid import HybridSettings
from .restorer import SHIPPED


def ship(weights: Path, dev_results: Path, output: Path = SHIPPED) -> Path:
    model, meta = load_model(weights)
    results = json.loads(Path(dev_results).read_text(encoding="utf-8"))
    best = results["best"]
    extra = {key: value for key, value in meta.items() if key not in ("format", "version", "config", "alphabet")}
    settings = {name: best[name] for name in HybridSettings.__dataclass_fields__}
    extra |= {"hybrid": settings, "hybrid_dev": results}
    save_model(model, output, extra)
    return output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("weights", type=Path)
    parser.add_argument("--dev-results", type=Path, required=True, help="output of bench/neural_hybrid_dev.py --output")
    parser.add_argument("--output", type=Path, default=SHIPPED)
    args = parser.parse_args()
    print(ship(args.weights, args.dev_results, args.output))


if __name__ == "__main__":
    main()
