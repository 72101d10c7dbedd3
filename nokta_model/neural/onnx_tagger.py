"""The network run by ONNX Runtime on the CPU, from the graph ``export.py`` wrote: no
torch. The graph takes ``ids`` (batch, width) and ``lengths`` (batch) and gives ``p``,
P(twin) per position; its metadata holds the model config and the alphabet."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from .config import ModelConfig
from .vocab import CHARS

GRAPH_FORMAT = "nokta-neural-onnx"
GRAPH_VERSION = 1
METADATA_KEY = "nokta"


class OnnxTagger:
    runtime = "onnx"

    def __init__(self, session: Any, config: ModelConfig, description: dict[str, Any]) -> None:
        self.session = session
        self.config = config
        self.description = description

    @classmethod
    def load(cls, path: Path) -> OnnxTagger:
        """The graph at ``path``; ValueError when it is missing, unreadable or not nokta's."""
        try:
            import onnxruntime
        except ImportError as error:
            raise ValueError(f"ONNX Runtime is not installed ({error}): pip install onnxruntime") from error
        if not Path(path).is_file():
            raise ValueError(f"network graph not found: {path}")
        options = onnxruntime.SessionOptions()
        # One thread per call: the default runs two chunks at once, each call on its own
        # thread, and one thread each kept the CPU's cores for the count models.
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        # Shapes change with every batch: planning memory per shape only kept more of it.
        options.enable_mem_pattern = False
        options.log_severity_level = 3
        try:
            session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as error:  # ONNX Runtime's own exception types, one per failure kind
            raise ValueError(f"{path} is not a readable network graph (corrupt or truncated?): {error}") from error
        config, description = _read_metadata(session, Path(path))
        return cls(session, config, description)

    def probabilities(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        (p,) = self.session.run(["p"], {"ids": ids, "lengths": lengths.astype(np.int32)})
        return p


def graph_metadata(config: dict[str, Any], description: dict[str, Any], int8: bool) -> str:
    """What ``export.py`` stores in the graph for ``_read_metadata`` to check: the model
    config, the alphabet and the checkpoint's description."""
    return json.dumps(
        {
            "format": GRAPH_FORMAT,
            "version": GRAPH_VERSION,
            "config": config,
            "alphabet": CHARS,
            "int8": int8,
            "description": description,
        }
    )


def _read_metadata(session: Any, path: Path) -> tuple[ModelConfig, dict[str, Any]]:
    try:
        meta = json.loads(session.get_modelmeta().custom_metadata_map[METADATA_KEY])
    except (KeyError, json.JSONDecodeError) as error:
        raise ValueError(f"{path} is not a nokta network graph (no {METADATA_KEY!r} metadata)") from error
    if meta.get("format") != GRAPH_FORMAT or meta.get("version") != GRAPH_VERSION:
        raise ValueError(f"{path} is not a {GRAPH_FORMAT} v{GRAPH_VERSION} graph")
    if meta.get("alphabet") != CHARS:
        raise ValueError(f"{path} was exported with a different alphabet; export it again with this version")
    try:
        return ModelConfig.from_dict(meta["config"]), meta.get("description", {})
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{path} has an invalid model config: {error}") from error
