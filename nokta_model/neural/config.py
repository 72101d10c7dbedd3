"""Model and training settings: dataclasses saved as JSON inside every checkpoint."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BACKBONES = ("lstm", "gru", "cnn", "transformer")


@dataclass(frozen=True)
class ModelConfig:
    backbone: str = "lstm"
    embed_dim: int = 64
    hidden: int = 160  # per direction for lstm/gru; channels or width for cnn/transformer
    layers: int = 1
    attention_heads: int = 0  # 0 = no self-attention layer on top of the backbone
    dropout: float = 0.1
    kernel_size: int = 3  # cnn, and the convolutions before a recurrent backbone
    #: >0: a recurrent backbone first reads the characters through this many dilated
    #: convolutions of ``conv_channels`` channels (the cnn backbone's layers)
    conv_layers: int = 0
    conv_channels: int = 128
    #: The input also says which letters are capitals (``vocab.encode_input``); False: the
    #: folded lower-case text only, as every network before it read
    cased: bool = False
    char_window: int = (
        0  # >0: the reference's per-character mode, each letter read from its own window of this many characters
    )
    window: int = 400  # longer lines are labelled in overlapping windows of this length
    window_context: int = 48  # positions at each window edge that defer to the neighbour

    def __post_init__(self) -> None:
        if self.backbone not in BACKBONES:
            raise ValueError(f"unknown backbone {self.backbone!r}: choose one of {', '.join(BACKBONES)}")
        if min(self.embed_dim, self.hidden, self.layers, self.conv_channels) < 1 or self.conv_layers < 0:
            raise ValueError("embed_dim, hidden, layers and conv_channels must be positive, conv_layers >= 0")
        if self.window <= 2 * self.window_context:
            raise ValueError("window must be longer than twice window_context")

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> ModelConfig:
        return cls(**_known_fields(cls, values))


@dataclass(frozen=True)
class TrainConfig:
    model: ModelConfig = field(default_factory=ModelConfig)
    seq_len: int = 200  # training chunk length in characters
    batch_size: int = 64
    lr: float = 3e-4
    weight_decay: float = 0.01
    grad_clip: float = 1.0
    warmup_steps: int = 300
    max_minutes: float = 90.0  # wall-clock budget; the LR schedule is laid over it
    max_steps: int = 0  # 0 = bounded by max_minutes only
    eval_every: int = 500  # steps between dev evaluations
    checkpoint_minutes: float = 3.0
    patience: int = 6  # dev evaluations without improvement before stopping
    dev_lines: int = 3000
    class_weight_power: float = 1.0  # 1 = inverse class frequency per head, 0 = none
    commercial_only: bool = True
    seed: int = 1234
    threads: int = 1
    #: On a CPU with native bfloat16, forward passes run under bfloat16 autocast (weights,
    #: gradients and optimizer state stay float32): training steps ran about twice as fast
    #: on this project's CPU (AVX512-BF16).
    bfloat16: bool = True
    #: A cased model's chunks read without capitals, and all in capitals (``data.CaseMix``).
    case_lowered: float = 0.3
    case_all_capitals: float = 0.05
    #: A new run starts from these weights (a checkpoint of the same model config) instead
    #: of random ones: a network fine-tuned on a changed corpus mix. Relative paths are the
    #: package's (``data/neural.safetensors``: the shipped network).
    init_weights: str = ""

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> TrainConfig:
        known = _known_fields(cls, values)
        if isinstance(known.get("model"), dict):
            known["model"] = ModelConfig.from_dict(known["model"])
        return cls(**known)

    @classmethod
    def from_json(cls, path: Path) -> TrainConfig:
        try:
            values = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise ValueError(f"cannot read training config {path}: {error}") from error
        if not isinstance(values, dict):
            raise ValueError(f"training config {path} must be a JSON object")
        return cls.from_dict(values)


def _known_fields(cls: type, values: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = set(values) - names
    if unknown:
        raise ValueError(f"unknown {cls.__name__} settings: {', '.join(sorted(unknown))}")
    return dict(values)


def as_dict(config: Any) -> dict[str, Any]:
    return dataclasses.asdict(config)
