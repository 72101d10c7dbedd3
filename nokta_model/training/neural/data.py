"""Training data: the corpus mix encoded once into flat id/label streams, then cut into
shuffled fixed-length chunks (lines joined by BOUNDARY, so no padding is needed).

For a cased model each stream also keeps which characters are capitals; a share of the
chunks is read without capitals (the input the default gives today) and a share all in
capitals (headings, shouted text), as ``CaseMix`` says."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np

from ...neural.vocab import IS_LETTER, capitals, encode_with_labels, with_capitals
from ..corpus import TRAIN_FILES, split_lines

CACHE_VERSION = 1


@dataclass
class Stream:
    """One corpus file's train lines: ids and labels joined by "\\n", and its weight;
    for a cased model, which characters are capitals."""

    name: str
    weight: int
    ids: np.ndarray
    labels: np.ndarray
    capitals: np.ndarray | None = None


@dataclass(frozen=True)
class CaseMix:
    """How a cased model's training chunks are read: shares without capitals, all in capitals."""

    lowered: float = 0.0
    all_capitals: float = 0.0


def load_streams(corpus_dir: Path, cache_dir: Path, commercial_only: bool = True, cased: bool = False) -> list[Stream]:
    """The train split as one stream per file, from ``cache_dir`` when already encoded."""
    cache = Path(cache_dir) / f"neural-train-{_mix_digest(corpus_dir, commercial_only, cased)}.npz"
    if cache.exists():
        stored = np.load(cache)
        names = json.loads(str(stored["names"]))
        return [
            Stream(name, weight, stored[f"ids_{i}"], stored[f"labels_{i}"], stored.get(f"capitals_{i}"))
            for i, (name, weight) in enumerate(names)
        ]
    streams = _encode_streams(corpus_dir, commercial_only, cased)
    cache.parent.mkdir(parents=True, exist_ok=True)
    arrays = {f"ids_{i}": s.ids for i, s in enumerate(streams)} | {
        f"labels_{i}": s.labels for i, s in enumerate(streams)
    }
    arrays |= {f"capitals_{i}": s.capitals for i, s in enumerate(streams) if s.capitals is not None}
    temporary = cache.with_suffix(f".{os.getpid()}.tmp.npz")  # ranks may encode at once
    names = json.dumps([(s.name, s.weight) for s in streams])
    np.savez(temporary, names=names, **cast(dict[str, Any], arrays))  # cast: no key is a savez option
    temporary.replace(cache)
    return streams


def _encode_streams(corpus_dir: Path, commercial_only: bool, cased: bool) -> list[Stream]:
    by_file: dict[str, list[str]] = {}
    weights: dict[str, int] = {}
    for corpus_file, line in split_lines(corpus_dir, "train", commercial_only):
        by_file.setdefault(corpus_file.name, []).append(line)
        weights[corpus_file.name] = corpus_file.weight
    streams = []
    for name, lines in by_file.items():
        text = "\n".join(lines) + "\n"
        ids, labels = encode_with_labels(text)
        streams.append(Stream(name, weights[name], ids, labels, capitals(text) if cased else None))
    return streams


def dev_lines(corpus_dir: Path, limit: int, commercial_only: bool = True, seed: int = 0) -> list[str]:
    """A fixed sample of dev-split lines, mixed like the training data (weights ignored)."""
    lines = [line for _, line in split_lines(corpus_dir, "dev", commercial_only)]
    if len(lines) <= limit:
        return lines
    chosen = np.random.default_rng(seed).choice(len(lines), size=limit, replace=False)
    return [lines[i] for i in sorted(chosen)]


def mix_description(commercial_only: bool = True) -> list[dict[str, object]]:
    return [
        {"file": f.name, "kind": f.kind, "licence": f.licence, "weight": f.weight}
        for f in TRAIN_FILES
        if f.commercial or not commercial_only
    ]


def epoch_chunks(streams: list[Stream], seq_len: int, rng: np.random.Generator) -> list[tuple[int, int]]:
    """(stream index, start) of every chunk of one epoch: each file cut at a random
    offset, its chunks repeated by its weight, all shuffled together."""
    chunks: list[tuple[int, int]] = []
    for index, stream in enumerate(streams):
        offset = int(rng.integers(seq_len))
        starts = np.arange(offset, len(stream.ids) - seq_len, seq_len)
        chunks.extend((index, int(s)) for s in np.tile(starts, stream.weight))
    order = rng.permutation(len(chunks))
    return [chunks[i] for i in order]


def batches(
    streams: list[Stream],
    chunks: list[tuple[int, int]],
    seq_len: int,
    batch_size: int,
    first: int = 0,
    case_mix: CaseMix | None = None,
    seed: int = 0,
) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """(index of the next chunk, ids, labels) for consecutive batches from chunk ``first``;
    with ``case_mix``, a cased model's ids, each batch's case choices drawn from ``seed``
    and its first chunk (so a resumed run reads the same)."""
    for begin in range(first, len(chunks) - batch_size + 1, batch_size):
        picked = chunks[begin : begin + batch_size]
        ids = np.stack([streams[i].ids[s : s + seq_len] for i, s in picked])
        labels = np.stack([streams[i].labels[s : s + seq_len] for i, s in picked])
        if case_mix is not None:
            capital = np.stack([_capitals_of(streams[i])[s : s + seq_len] for i, s in picked])
            ids = read_cased(ids, capital, case_mix, np.random.default_rng((seed, begin)))
        yield begin + batch_size, ids, labels


def read_cased(ids: np.ndarray, capital: np.ndarray, mix: CaseMix, rng: np.random.Generator) -> np.ndarray:
    """A cased model's ids of (chunks, length) ``ids``: a share of the chunks without
    capitals, a share with every letter a capital, the rest as written."""
    draw = rng.random((len(ids), 1))
    lowered = draw < mix.lowered
    shouted = (draw >= mix.lowered) & (draw < mix.lowered + mix.all_capitals)
    capital = np.where(lowered, False, np.where(shouted, IS_LETTER[ids], capital))
    return with_capitals(ids, capital)


def _capitals_of(stream: Stream) -> np.ndarray:
    if stream.capitals is None:
        raise ValueError(f"{stream.name} was encoded without capitals: load the streams with cased=True")
    return stream.capitals


def class_counts(streams: list[Stream], letter_of_id: np.ndarray) -> np.ndarray:
    """(6, 2) weighted counts of plain and twin labels per head."""
    counts = np.zeros((6, 2), dtype=np.float64)
    for stream in streams:
        letters = letter_of_id[stream.ids]
        scored = stream.labels >= 0
        np.add.at(counts, (letters[scored], stream.labels[scored].astype(np.int64)), stream.weight)
    return counts


def _mix_digest(corpus_dir: Path, commercial_only: bool, cased: bool) -> str:
    digest = hashlib.sha256(f"{CACHE_VERSION}:{commercial_only}{':cased' if cased else ''}".encode())
    for corpus_file in TRAIN_FILES:
        path = Path(corpus_dir) / "train" / corpus_file.name
        if path.exists() and (corpus_file.commercial or not commercial_only):
            stat = path.stat()
            digest.update(f"{corpus_file.name}:{corpus_file.weight}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:12]
