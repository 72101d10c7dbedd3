"""Copy a trained checkpoint into the package as the shipped network.

    python -m nokta_model.neural.ship RUN_DIR/best.safetensors

Then refit the default's weights with the new network: ``nokta train --backend default``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .checkpoint import load_model, save_model
from .restorer import SHIPPED


def ship(weights: Path, output: Path = SHIPPED) -> Path:
    model, meta = load_model(weights)
    extra = {key: value for key, value in meta.items() if key not in ("format", "version", "config", "alphabet")}
    save_model(model, output, extra)
    return output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("weights", type=Path)
    parser.add_argument("--output", type=Path, default=SHIPPED)
    args = parser.parse_args()
    print(ship(args.weights, args.output))


if __name__ == "__main__":
    main()
