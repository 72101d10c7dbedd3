"""``nokta train --backend NAME``: one command rebuilds each shipped model file from the corpus.

| name | writes | how |
|---|---|---|
| ngram | data/ngram.npz | counts words, n-grams and in-word characters (minutes) |
| context | data/context.npz | counts cross-word character windows (minutes) |
| neural | a run folder (``python -m nokta_model.training.neural.ship`` ships it) | trains the network (hours) |
| default | data/default.json | fits the default's weights on the tune split, with the shipped models |
| guard | data/guard.json | fits the foreign-word guard on the tune split and English text (after the others) |
| calibration | data/calibration.json, data/calibration_ngram.json | fits the default's and the count-based |
| | | backend's confidence calibrations on the tune split (after the others) |
"""

from __future__ import annotations

import argparse
import importlib
import time
from pathlib import Path

from ..errors import NoktaError
from .corpus import default_corpus_dir, split_lines

TRAINERS = ("ngram", "context", "neural", "default", "guard", "calibration")
#: What a trainer imports beyond nokta's runtime dependencies: the ``train`` extra brings them.
NEEDS = {"ngram": "wordfreq", "neural": "torch"}


def train(args: argparse.Namespace) -> int:
    _require(args.backend)
    corpus = Path(args.corpus or default_corpus_dir())
    commercial_only = not args.include_noncommercial
    if args.backend == "ngram":
        from .ngram_build import build_artifact

        build_artifact(corpus, args.output, commercial_only=commercial_only)
    elif args.backend == "context":
        build_context_model(corpus, args.output, commercial_only)
    elif args.backend == "default":
        from ..default import DEFAULT_WEIGHTS, load_default_restorer
        from .default_fit import fit_weights

        fit_weights(load_default_restorer(None, args.device), corpus, args.output or DEFAULT_WEIGHTS)
    elif args.backend == "guard":
        from ..default import load_default_restorer
        from .guard_fit import fit_guard

        fit_guard(load_default_restorer(None, args.device), corpus, args.output)
    elif args.backend == "calibration":
        from .calibration_fit import fit_calibrations

        fit_calibrations(corpus, args.output, args.device)
    else:
        from .neural.cli import train_from_cli

        return train_from_cli(args)
    return 0


def _require(backend: str) -> None:
    """NoktaError naming the extra to install when the trainer's own package is missing."""
    module = NEEDS.get(backend)
    if module is None:
        return
    try:
        importlib.import_module(module)
    except ImportError:
        raise NoktaError(f"nokta train --backend {backend} needs {module}: pip install 'nokta[train]'") from None


def build_context_model(corpus: Path, output: Path | None, commercial_only: bool = True) -> Path:
    from ..charctx import DEFAULT_CONTEXT_MODEL, ContextModel, save_context_model

    output = Path(output) if output else DEFAULT_CONTEXT_MODEL
    started = time.perf_counter()
    weighted = ((line, f.weight) for f, line in split_lines(corpus, "train", commercial_only))
    model = ContextModel.count(weighted)
    seconds = round(time.perf_counter() - started, 1)
    save_context_model(
        model, output, {"seconds": seconds, "commercial_only": commercial_only, "windows": len(model.table)}
    )
    print(f"wrote {output} ({output.stat().st_size / 1e6:.1f} MB, {len(model.table):,} windows) in {seconds:.0f} s")
    return output
