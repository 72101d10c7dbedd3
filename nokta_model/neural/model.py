"""The character tagger: embedding, a backbone over the whole line, optional
self-attention, and six binary heads (c/ç g/ğ i/ı o/ö s/ş u/ü), each applied only
where its letter stands. ``forward(ids, lengths, targets) -> (logits, loss)``."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import torch
from torch import _VF, nn
from torch.nn import functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from .config import ModelConfig
from .vocab import LETTER_OF_ID, NO_LETTER, PAD, VOCAB_SIZE

HEADS = 6


class Backbone(nn.Module):
    """Reads embedded characters (batch, length, embed) into features (batch, length, ``out_dim``)."""

    out_dim: int

    def keep_cast_weights(self, dtype: torch.dtype) -> None:
        """For a model that only infers from now on: keep the weights autocast would cast
        to ``dtype`` on every call already cast (a backbone that gains from it says how)."""


class RecurrentBackbone(Backbone):
    """Bidirectional LSTM or GRU layers, optionally after ``conv_layers`` dilated convolutions."""

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        rnn = nn.LSTM if config.backbone == "lstm" else nn.GRU
        dropout = config.dropout if config.layers > 1 else 0.0
        self.front = (
            DilatedCnnBackbone(replace(config, hidden=config.conv_channels, layers=config.conv_layers))
            if config.conv_layers
            else None
        )
        width = config.conv_channels if self.front is not None else config.embed_dim
        self.rnn = rnn(width, config.hidden, config.layers, batch_first=True, bidirectional=True, dropout=dropout)
        self.out_dim = 2 * config.hidden
        self._cast: dict[str, list[torch.Tensor]] = {}
        self._cast_dtype: torch.dtype | None = None

    def keep_cast_weights(self, dtype: torch.dtype) -> None:
        """Under autocast each call cast every weight again (a large share of a short
        call's time); inference uses these copies instead."""
        self._cast = {
            f"{layer}{suffix}": [w.detach().to(dtype) for w in self._parameters_of(layer, suffix)]
            for layer in range(self.rnn.num_layers)
            for suffix in ("", "_reverse")
        }
        self._cast_dtype = dtype

    def forward(self, x: torch.Tensor, lengths: torch.Tensor | None) -> torch.Tensor:
        if self.front is not None:
            x = self.front(x, lengths)
        if lengths is None or bool((lengths == x.shape[1]).all()):
            return self._whole_stack(x) if self._casts_for(x.device.type) else self.rnn(x)[0]
        if not torch.is_grad_enabled():
            return self._padded_directions(x, lengths.to(x.device))
        packed = pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
        return pad_packed_sequence(self.rnn(packed)[0], batch_first=True, total_length=x.shape[1])[0]

    def _padded_directions(self, x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """Inference without packing (faster on CPU): each direction runs on a plain
        padded batch, the backward one on rows reversed within their own length."""
        batch, width = x.shape[:2]
        steps = torch.arange(width, device=x.device).unsqueeze(0)
        reverse = torch.where(steps < lengths.unsqueeze(1), lengths.unsqueeze(1) - 1 - steps, steps)
        reverse = (reverse + width * torch.arange(batch, device=x.device).unsqueeze(1)).reshape(-1)
        h = x
        for layer in range(self.rnn.num_layers):
            forward = self._direction(h, layer, "")
            backward = self._direction(_gather_steps(h, reverse), layer, "_reverse")
            h = torch.cat([forward, _gather_steps(backward, reverse)], dim=-1)
        return h

    def _whole_stack(self, x: torch.Tensor) -> torch.Tensor:
        """Every layer and direction in one call, as ``self.rnn(x)`` in eval mode, with the cast weights."""
        layers = self.rnn.num_layers
        weights = [w for layer in range(layers) for suffix in ("", "_reverse") for w in self._cast[f"{layer}{suffix}"]]
        return self._run(x, weights, layers, bidirectional=True)

    def _direction(self, h: torch.Tensor, layer: int, suffix: str) -> torch.Tensor:
        cast = self._casts_for(h.device.type)
        weights = self._cast[f"{layer}{suffix}"] if cast else self._parameters_of(layer, suffix)
        return self._run(h, weights, 1, bidirectional=False)

    def _run(self, h: torch.Tensor, weights: list[torch.Tensor], layers: int, bidirectional: bool) -> torch.Tensor:
        zeros = h.new_zeros(layers * (1 + bidirectional), h.shape[0], self.rnn.hidden_size)
        if isinstance(self.rnn, nn.LSTM):
            return _VF.lstm(h, (zeros, zeros), weights, True, layers, 0.0, False, bidirectional, True)[0]
        return _VF.gru(h, zeros, weights, True, layers, 0.0, False, bidirectional, True)[0]

    def _casts_for(self, device_type: str) -> bool:
        """Whether autocast is on and casts to the type of the kept weights."""
        return bool(self._cast) and (
            torch.is_autocast_enabled(device_type) and torch.get_autocast_dtype(device_type) == self._cast_dtype
        )

    def _parameters_of(self, layer: int, suffix: str) -> list[torch.Tensor]:
        return [
            getattr(self.rnn, f"{name}_l{layer}{suffix}") for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
        ]


def _gather_steps(h: torch.Tensor, flat_index: torch.Tensor) -> torch.Tensor:
    """Rows of ``h`` (batch, length, features) picked by their index in ``h`` flattened to
    (batch * length, features): whole feature vectors at once, many times as fast as ``gather``."""
    return h.reshape(-1, h.shape[-1]).index_select(0, flat_index).view(h.shape)


class DilatedCnnBackbone(Backbone):
    """Residual 1-D convolutions with dilations 1, 2, 4, ...; padding masked after each."""

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.project = nn.Linear(config.embed_dim, config.hidden)
        self.convs = nn.ModuleList(
            nn.Conv1d(
                config.hidden,
                config.hidden,
                config.kernel_size,
                dilation=2**i,
                padding=2**i * (config.kernel_size // 2),
            )
            for i in range(config.layers)
        )
        self.norms = nn.ModuleList(nn.LayerNorm(config.hidden) for _ in range(config.layers))
        self.dropout = nn.Dropout(config.dropout)
        self.out_dim = config.hidden

    def forward(self, x: torch.Tensor, lengths: torch.Tensor | None) -> torch.Tensor:
        mask = _valid_mask(x, lengths).unsqueeze(-1)
        h = self.project(x) * mask
        for conv, norm in zip(self.convs, self.norms, strict=True):
            update = F.gelu(conv(h.transpose(1, 2)).transpose(1, 2))
            h = norm(h + self.dropout(update)) * mask
        return h


class TransformerBackbone(Backbone):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        heads = max(config.attention_heads, 4)
        self.project = nn.Linear(config.embed_dim, config.hidden)
        layer = nn.TransformerEncoderLayer(
            config.hidden, heads, 4 * config.hidden, config.dropout, batch_first=True, norm_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, config.layers, enable_nested_tensor=False)
        self.out_dim = config.hidden

    def forward(self, x: torch.Tensor, lengths: torch.Tensor | None) -> torch.Tensor:
        h = self.project(x) + sinusoidal_positions(x.shape[1], self.out_dim, x.device)
        return self.encoder(h, src_key_padding_mask=~_valid_mask(x, lengths))


class SelfAttention(nn.Module):
    """Multi-head self-attention with a residual connection, over the backbone output."""

    def __init__(self, dim: int, heads: int, dropout: float) -> None:
        super().__init__()
        self.attention = nn.MultiheadAttention(dim, heads, dropout=dropout, batch_first=True)
        self.norm = nn.LayerNorm(dim)

    def forward(self, h: torch.Tensor, lengths: torch.Tensor | None) -> torch.Tensor:
        padding = ~_valid_mask(h, lengths)
        attended = self.attention(h, h, h, key_padding_mask=padding, need_weights=False)[0]
        return self.norm(h + attended)


class CharTagger(nn.Module):
    class_weight: torch.Tensor  # buffers, registered in __init__
    letter_of_id: torch.Tensor

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.config = config
        self.embed = nn.Embedding(input_size(config), config.embed_dim, padding_idx=PAD)
        self.backbone = _make_backbone(config)
        dim = self.backbone.out_dim
        self.attention = SelfAttention(dim, config.attention_heads, config.dropout) if config.attention_heads else None
        self.dropout = nn.Dropout(config.dropout)
        self.heads = nn.Linear(dim, HEADS)
        # Loss weight of (plain, twin) per head; saved so the logit shift it causes can be undone.
        self.register_buffer("class_weight", torch.ones(HEADS, 2))
        letter_of_id = np.tile(LETTER_OF_ID, input_size(config) // VOCAB_SIZE)
        self.register_buffer("letter_of_id", torch.from_numpy(letter_of_id), persistent=False)

    def forward(
        self, ids: torch.Tensor, lengths: torch.Tensor | None = None, targets: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        """Per position the logit that the letter there is its Turkish twin (0 where no
        head applies) and, given ``targets`` (1, 0, or -1 = ignore), the weighted loss."""
        letters = self.letter_of_id[ids]
        if self.config.char_window:
            logits = self._per_character_logits(ids, letters)
        else:
            h = self.backbone(self.embed(ids), lengths)
            if self.attention is not None:
                h = self.attention(h, lengths)
            logits = self.heads(self.dropout(h)).gather(-1, letters.clamp(min=0).unsqueeze(-1)).squeeze(-1)
        logits = logits.masked_fill(letters == NO_LETTER, 0.0)
        if targets is None:
            return logits, None
        return logits, self._loss(logits, letters, targets)

    def _per_character_logits(self, ids: torch.Tensor, letters: torch.Tensor) -> torch.Tensor:
        """The reference design: every letter classified from its own window of
        ``char_window`` characters, read by the backbone; the window's centre decides."""
        half = self.config.char_window // 2
        windows = F.pad(ids, (half, half), value=PAD).unfold(1, 2 * half + 1, 1)
        where = letters != NO_LETTER
        chosen = windows[where]
        h = self.backbone(self.embed(chosen), None)
        if self.attention is not None:
            h = self.attention(h, None)
        centre = self.heads(self.dropout(h[:, half]))
        logits = torch.zeros(ids.shape, dtype=centre.dtype, device=ids.device)
        logits[where] = centre.gather(-1, letters[where].unsqueeze(-1)).squeeze(-1)
        return logits

    def _loss(self, logits: torch.Tensor, letters: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        scored = (targets >= 0) & (letters != NO_LETTER)
        target = targets[scored].long()
        weight = self.class_weight[letters[scored], target]
        losses = F.binary_cross_entropy_with_logits(logits[scored], target.float(), reduction="none")
        return (losses * weight).sum() / weight.sum().clamp(min=1e-6)

    def keep_cast_weights(self, dtype: torch.dtype) -> None:
        """For a model that only infers from now on (see ``Backbone.keep_cast_weights``)."""
        self.backbone.keep_cast_weights(dtype)

    def calibrated(self, logits: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
        """Logits with the class-weight shift removed: log(w_twin / w_plain) per head."""
        shift = (self.class_weight[:, 1] / self.class_weight[:, 0]).log()
        letters = self.letter_of_id[ids]
        return logits - shift[letters.clamp(min=0)] * (letters != NO_LETTER)


def sinusoidal_positions(length: int, dim: int, device: torch.device) -> torch.Tensor:
    position = torch.arange(length, device=device, dtype=torch.float32).unsqueeze(1)
    rate = torch.exp(torch.arange(0, dim, 2, device=device, dtype=torch.float32) * (-math.log(10000.0) / dim))
    table = torch.zeros(length, dim, device=device)
    table[:, 0::2] = torch.sin(position * rate)
    table[:, 1::2] = torch.cos(position * rate[: dim // 2])
    return table


def _valid_mask(x: torch.Tensor, lengths: torch.Tensor | None) -> torch.Tensor:
    positions = torch.arange(x.shape[1], device=x.device).unsqueeze(0)
    if lengths is None:
        return torch.ones(x.shape[0], x.shape[1], dtype=torch.bool, device=x.device)
    return positions < lengths.to(x.device).unsqueeze(1)


def input_size(config: ModelConfig) -> int:
    """Ids the model reads: the alphabet's, twice over for a cased input (``vocab.encode_input``)."""
    return 2 * VOCAB_SIZE if config.cased else VOCAB_SIZE


def _make_backbone(config: ModelConfig) -> Backbone:
    if config.backbone in ("lstm", "gru"):
        return RecurrentBackbone(config)
    if config.backbone == "cnn":
        return DilatedCnnBackbone(config)
    return TransformerBackbone(config)


def parameter_count(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())
