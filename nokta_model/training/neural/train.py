"""The training loop: resumable, budgeted in wall-clock minutes, early-stopped on dev.

Under ``torchrun`` every rank trains on its own shard of each epoch's chunks and DDP
averages the gradients; rank 0 alone evaluates and writes the run directory.

A run directory holds ``last.safetensors`` (+ optimizer state, resumed from), ``best``
(the best dev letter accuracy so far: the model to ship), ``history.json`` and
``curve.png``; when a session ends, ``resume.safetensors`` packs the last state for a
fresh clone (``train_state``: the only state file committed). The loop knows the model
only through ``forward(ids, targets=...)``.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from ...neural.checkpoint import load_model, save_model, write_json
from ...neural.config import TrainConfig
from ...neural.model import CharTagger, parameter_count
from ...neural.torch_tagger import bfloat16_native_on
from ...neural.vocab import LETTER_OF_ID
from ..corpus import default_corpus_dir
from .data import CaseMix, Stream, batches, class_counts, dev_lines, epoch_chunks, load_streams, mix_description
from .distributed import Ranks, agreed_maximum, join, leave, wrap
from .evaluate_dev import dev_metrics
from .train_state import pack, resume, save_optimizer


def train_neural(
    config: TrainConfig, run_dir: Path, corpus_dir: Path | None = None, device: str = "auto", progress: bool = True
) -> dict[str, Any]:
    """Train (or resume) the model in ``run_dir``; returns the best dev metrics."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    corpus_dir = Path(corpus_dir or default_corpus_dir())
    ranks, device_used = join(device)
    _seed_everything(config.seed, config.threads)
    streams = load_streams(corpus_dir, run_dir / "cache", config.commercial_only, config.model.cased)
    dev = dev_lines(corpus_dir, config.dev_lines, config.commercial_only, config.seed)
    model = CharTagger(config.model).to(device_used)
    model.class_weight.copy_(
        torch.from_numpy(class_weights(class_counts(streams, LETTER_OF_ID), config.class_weight_power))
    )
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    state = _resume(model, optimizer, run_dir)
    if state["step"] == 0 and config.init_weights:
        _start_from(model, config.init_weights)
    loop = TrainingLoop(config, run_dir, model, optimizer, state, dev, ranks)
    try:
        loop.run(streams, progress and ranks.is_main)
    finally:
        if ranks.is_main:
            pack(run_dir)  # once a session, also after Ctrl-C: what a fresh clone resumes from
        leave()
    return state["best"]


class TrainingLoop:
    def __init__(
        self,
        config: TrainConfig,
        run_dir: Path,
        model: CharTagger,
        optimizer: torch.optim.Optimizer,
        state: dict[str, Any],
        dev: list[str],
        ranks: Ranks,
    ) -> None:
        self.config, self.run_dir, self.model, self.optimizer = config, run_dir, model, optimizer
        self.state, self.dev, self.ranks = state, dev, ranks
        self.device = next(model.parameters()).device
        self.trained = wrap(model, ranks, self.device)
        self.started = time.monotonic() - state["seconds"]
        self.last_save = time.monotonic()
        self._agree_on_progress()

    def run(self, streams: list[Stream], progress: bool) -> None:
        config, state = self.config, self.state
        bar = tqdm(
            total=self._step_budget(), initial=state["step"], disable=not progress, dynamic_ncols=True, mininterval=10
        )
        device = self.device
        case_mix = CaseMix(config.case_lowered, config.case_all_capitals) if config.model.cased else None
        self.model.train()
        while not self._finished():
            rng = np.random.default_rng(config.seed + state["epoch"])
            chunks = shard(epoch_chunks(streams, config.seq_len, rng), self.ranks)
            epoch_batches = batches(
                streams,
                chunks,
                config.seq_len,
                config.batch_size,
                state["chunk"],
                case_mix,
                config.seed + state["epoch"],
            )
            for next_chunk, ids, labels in epoch_batches:
                tick = time.monotonic()
                loss = self._step(
                    torch.from_numpy(ids.astype(np.int64)).to(device), torch.from_numpy(labels).to(device)
                )
                state["step"], state["chunk"] = state["step"] + 1, next_chunk
                state["chars"] += ids.size * self.ranks.world
                bar.update(1)
                bar.set_postfix(
                    loss=f"{loss:.4f}",
                    dev=f"{state['best'].get('letter_acc', 0):.4f}",
                    cps=f"{ids.size / (time.monotonic() - tick):.0f}",
                    refresh=False,
                )
                if self.ranks.is_main:
                    self._maybe_evaluate()
                    self._maybe_save()
                self._agree_on_progress()
                if self._finished():
                    break
            else:
                state["epoch"], state["chunk"] = state["epoch"] + 1, 0
        if self.ranks.is_main:
            self._evaluate()
            self._save()
        bar.close()

    def _step(self, ids: torch.Tensor, labels: torch.Tensor) -> float:
        for group in self.optimizer.param_groups:
            group["lr"] = self.config.lr * self._lr_scale()
        with self._precision():
            _, loss = self.trained(ids, targets=labels)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.config.grad_clip)
        self.optimizer.step()
        value = loss.item()
        self.state["recent_loss"] = 0.98 * self.state.get("recent_loss", value) + 0.02 * value
        return self.state["recent_loss"]

    def _precision(self) -> torch.autocast:
        """bfloat16 autocast for the forward pass where the config asks and the CPU has it natively."""
        enabled = self.config.bfloat16 and bfloat16_native_on(self.device)
        return torch.autocast("cpu", dtype=torch.bfloat16, enabled=enabled)

    def _lr_scale(self) -> float:
        """Linear warm-up, then cosine decay to 5% over the step or time budget."""
        step = self.state["step"]
        if step < self.config.warmup_steps:
            return (step + 1) / self.config.warmup_steps
        done = min(1.0, self.fraction_done)
        return 0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * done))

    def _fraction_done(self) -> float:
        by_steps = self.state["step"] / self.config.max_steps if self.config.max_steps else 0.0
        by_time = self._elapsed() / (60 * self.config.max_minutes) if self.config.max_minutes else 0.0
        return max(by_steps, by_time)

    def _step_budget(self) -> int | None:
        return self.config.max_steps or None

    def _finished(self) -> bool:
        return self.fraction_done >= 1.0 or self.out_of_patience

    def _agree_on_progress(self) -> None:
        """Every rank takes the furthest progress and rank 0's patience, so all stop at the same step
        with the same learning rate."""
        out_of_patience = float(self.state["stale"] >= self.config.patience)
        self.fraction_done, stop = agreed_maximum([self._fraction_done(), out_of_patience], self.device)
        self.out_of_patience = stop > 0

    def _elapsed(self) -> float:
        return time.monotonic() - self.started

    def _maybe_evaluate(self) -> None:
        if self.state["step"] % self.config.eval_every == 0:
            self._evaluate()

    def _evaluate(self) -> None:
        state = self.state
        if state["history"] and state["history"][-1]["step"] == state["step"]:
            return
        metrics = dev_metrics(self.model, self.dev)
        record = {
            "step": state["step"],
            "chars": state["chars"],
            "minutes": self._elapsed() / 60,
            "train_loss": state.get("recent_loss"),
        }
        state["history"].append(record | metrics)
        if metrics["letter_acc"] > state["best"].get("letter_acc", -1.0):
            state["best"], state["stale"] = record | metrics, 0
            save_model(self.model, self.run_dir / "best.safetensors", self._description())
        else:
            state["stale"] += 1
        tqdm.write(
            f"step {state['step']}: dev letter acc {metrics['letter_acc']:.5f}, "
            f"word acc {metrics['word_acc']:.5f}, log-loss {metrics['log_loss']:.4f}"
        )
        write_json(self.run_dir / "history.json", {"history": state["history"], "best": state["best"]})
        save_curve(state["history"], self.run_dir / "curve.png")

    def _maybe_save(self) -> None:
        if time.monotonic() - self.last_save >= 60 * self.config.checkpoint_minutes:
            self._save()

    def _save(self) -> None:
        self.state["seconds"] = self._elapsed()
        save_model(self.model, self.run_dir / "last.safetensors", self._description())
        save_optimizer(self.optimizer, self.run_dir / "optimizer.safetensors", self.state)
        self.last_save = time.monotonic()

    def _description(self) -> dict[str, Any]:
        return {
            "train_config": asdict(self.config),
            "data_mix": mix_description(self.config.commercial_only),
            "parameters": parameter_count(self.model),
            "trained": {key: self.state[key] for key in ("step", "epoch", "chars")} | {"minutes": self._elapsed() / 60},
            "best_dev": self.state["best"],
        }


def shard(chunks: list[tuple[int, int]], ranks: Ranks) -> list[tuple[int, int]]:
    """This rank's share of an epoch's chunks; every rank gets as many (the remainder is dropped)."""
    usable = len(chunks) - len(chunks) % ranks.world
    return chunks[ranks.rank : usable : ranks.world]


def class_weights(counts: np.ndarray, power: float) -> np.ndarray:
    """(6, 2) loss weights: (inverse class frequency per head) ** power, mean 1 per head."""
    frequency = counts / counts.sum(axis=1, keepdims=True).clip(min=1)
    weights = (1.0 / frequency.clip(min=1e-6)) ** power
    return (weights / (weights * frequency).sum(axis=1, keepdims=True)).astype(np.float32)


def save_curve(history: list[dict[str, Any]], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError:
        return
    figure, (left, right) = pyplot.subplots(1, 2, figsize=(10, 4))
    millions = [record["chars"] / 1e6 for record in history]
    left.plot(millions, [record["train_loss"] or float("nan") for record in history], label="train loss")
    left.plot(millions, [record["log_loss"] for record in history], label="dev log-loss")
    right.plot(millions, [record["letter_acc"] for record in history], label="dev letter accuracy")
    right.plot(millions, [record["word_acc"] for record in history], label="dev word accuracy")
    for axis in (left, right):
        axis.set_xlabel("training characters (millions)")
        axis.legend()
        axis.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    pyplot.close(figure)


def _resume(model: CharTagger, optimizer: torch.optim.Optimizer, run_dir: Path) -> dict[str, Any]:
    fresh = {"step": 0, "epoch": 0, "chunk": 0, "chars": 0, "seconds": 0.0, "stale": 0, "best": {}, "history": []}
    return fresh | (resume(model, optimizer, run_dir) or {})


def _start_from(model: CharTagger, weights: str) -> None:
    """A new run's weights: a trained checkpoint's, its class weights included."""
    path = Path(weights)
    if not path.is_absolute():
        path = Path(__file__).resolve().parents[2] / path  # nokta_model/
    saved, _ = load_model(path, next(model.parameters()).device)
    if saved.config != model.config:
        raise ValueError(f"init_weights {path}: its model config differs from the run's")
    model.load_state_dict(saved.state_dict())


def _seed_everything(seed: int, threads: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    if threads > 0:
        torch.set_num_threads(threads)
