"""Data-parallel training under ``torchrun``: one process per device, gradients averaged by
DistributedDataParallel (gloo on CPU, nccl on GPU). Without torchrun's variables, one process."""

from __future__ import annotations

import os
from dataclasses import dataclass

import torch
import torch.distributed as dist

from ...neural.torch_tagger import resolve_device


@dataclass(frozen=True)
class Ranks:
    """This process's place in the job: its global rank, the job's size, its device index on its node."""

    rank: int = 0
    world: int = 1
    local: int = 0

    @property
    def is_main(self) -> bool:
        return self.rank == 0


def join(device: str) -> tuple[Ranks, torch.device]:
    """Join the process group torchrun describes (if any); this rank's place and device."""
    resolved = resolve_device(device)
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world <= 1:
        return Ranks(), resolved
    ranks = Ranks(int(os.environ["RANK"]), world, int(os.environ.get("LOCAL_RANK", "0")))
    if resolved.type == "cuda":
        resolved = torch.device("cuda", ranks.local)
        torch.cuda.set_device(resolved)
    if not dist.is_initialized():
        dist.init_process_group("nccl" if resolved.type == "cuda" else "gloo")
    return ranks, resolved


def leave() -> None:
    if dist.is_initialized():
        dist.destroy_process_group()


def agreed_maximum(values: list[float], device: torch.device) -> list[float]:
    """The largest of every rank's ``values``, element-wise (``values`` itself in one process)."""
    if not dist.is_initialized():
        return values
    tensor = torch.tensor(values, dtype=torch.float64, device=device)
    dist.all_reduce(tensor, op=dist.ReduceOp.MAX)
    return tensor.tolist()


def wrap(model: torch.nn.Module, ranks: Ranks, device: torch.device) -> torch.nn.Module:
    """``model`` wrapped in DistributedDataParallel when there are several ranks."""
    if ranks.world == 1:
        return model
    device_ids = [device.index] if device.type == "cuda" else None
    return torch.nn.parallel.DistributedDataParallel(model, device_ids=device_ids)
