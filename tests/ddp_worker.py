"""One torchrun rank of `nokta train --backend neural`, which also writes this rank's final weights
to DUMP_DIR/rank-N.safetensors so the test can compare the ranks."""

import os
import sys
from pathlib import Path

from safetensors.torch import save_file

from nokta_model.app.cli import main
from nokta_model.training.neural.train import TrainingLoop

train_then_save = TrainingLoop.run


def run_and_dump(loop: TrainingLoop, streams, progress: bool) -> None:
    train_then_save(loop, streams, progress)
    weights = {name: tensor.detach().contiguous() for name, tensor in loop.model.state_dict().items()}
    save_file(weights, str(Path(os.environ["DUMP_DIR"]) / f"rank-{loop.ranks.rank}.safetensors"))


TrainingLoop.run = run_and_dump
sys.exit(main(["train", "--backend", "neural", *sys.argv[1:]]))
