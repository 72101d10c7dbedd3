"""The trained network as an ONNX graph for ONNX Runtime (``onnx_tagger.py``), written
at ship time (``ship.py``); needs torch and the ``onnx`` package.

The graph is built node by node from the checkpoint's weights rather than traced: the
recurrent layers become ONNX ``LSTM`` nodes given each row's length, so the backward
direction starts at each row's own end as ``CharTagger`` does, and the graph's output is
what ``TorchTagger.probabilities`` gives (a test compares them). ``int8`` stores the
LSTM and output weights in int8 (ONNX Runtime's dynamic quantization): a quarter of the
size and about twice the speed of float32 on this CPU, for the same default word errors
on the tune and dev splits (bench/results/runtime.md).
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from ...neural.model import CharTagger
from ...neural.onnx_tagger import METADATA_KEY, graph_metadata
from ...neural.vocab import NO_LETTER

OPSET = 17
#: PyTorch orders an LSTM's gate blocks input, forget, cell, output; ONNX input, output, forget, cell.
_GATES_ONNX_FROM_TORCH = (0, 3, 1, 2)


def export_graph(model: CharTagger, path: Path, description: dict[str, Any], int8: bool = True) -> Path:
    """Write ``model`` (an LSTM backbone without attention) to ``path`` as an ONNX graph
    that carries ``description`` (its checkpoint's data mix, training and metrics)."""
    graph = _graph(model)
    metadata = graph_metadata(dataclasses.asdict(model.config), description, int8)
    graph.metadata_props.add(key=METADATA_KEY, value=metadata)
    onnx.checker.check_model(graph)
    path = Path(path)
    with tempfile.TemporaryDirectory(dir=path.parent) as folder:  # renamed into place: never half written
        written = Path(folder) / path.name
        onnx.save(graph, written)
        if int8:
            _quantize(written, Path(folder) / "int8.onnx").replace(written)
        os.replace(written, path)
    return path


def _quantize(plain: Path, out: Path) -> Path:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(plain, out, weight_type=QuantType.QInt8, op_types_to_quantize=["LSTM", "MatMul"])
    if not any(prop.key == METADATA_KEY for prop in onnx.load(out).metadata_props):
        raise RuntimeError("the quantized graph lost its metadata")
    return out


def _graph(model: CharTagger) -> onnx.ModelProto:
    config = model.config
    if config.backbone != "lstm" or config.conv_layers or config.attention_heads or config.char_window:
        raise ValueError("only a plain LSTM backbone (no convolutions, attention or per-character windows) exports")
    weights = {name: tensor.detach().float().cpu().numpy() for name, tensor in model.state_dict().items()}
    builder = _Builder()
    features = builder.node("Transpose", builder.node("Gather", builder.constant(weights["embed.weight"]), "ids"))
    for layer in range(config.layers):
        features = builder.lstm_layer(features, weights, layer, config.hidden)
    batch_major = builder.node("Transpose", features, perm=[1, 0, 2])
    heads = builder.node(
        "Add",
        builder.node("MatMul", batch_major, builder.constant(weights["heads.weight"].T)),
        builder.constant(weights["heads.bias"]),
    )
    builder.twin_probabilities(heads, model.letter_of_id.cpu().numpy(), weights["class_weight"])
    graph = helper.make_graph(
        builder.nodes,
        "nokta-char-tagger",
        [
            helper.make_tensor_value_info("ids", TensorProto.INT64, ["batch", "width"]),
            helper.make_tensor_value_info("lengths", TensorProto.INT32, ["batch"]),
        ],
        [helper.make_tensor_value_info("p", TensorProto.FLOAT, ["batch", "width"])],
        builder.initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=8)


class _Builder:
    """Nodes and constants of a graph, each output named in turn."""

    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []

    def constant(self, value: np.ndarray) -> str:
        name = f"c{len(self.initializers)}"
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(self, op: str, *inputs: str, output: str | None = None, **attributes: Any) -> str:
        output = output or f"t{len(self.nodes)}"
        if op == "Transpose" and "perm" not in attributes:
            attributes["perm"] = [1, 0, 2]  # (batch, width, features) <-> (width, batch, features)
        self.nodes.append(helper.make_node(op, list(inputs), [output], **attributes))
        return output

    def lstm_layer(self, features: str, weights: dict[str, np.ndarray], layer: int, hidden: int) -> str:
        """One bidirectional layer over (width, batch, features): (width, batch, 2 * hidden)."""
        directions = [f"{layer}", f"{layer}_reverse"]

        def stacked(name: str) -> np.ndarray:
            return np.stack([_onnx_gates(weights[f"backbone.rnn.{name}_l{d}"], hidden) for d in directions])

        biases = np.concatenate([stacked("bias_ih"), stacked("bias_hh")], axis=1)
        out = self.node(
            "LSTM",
            features,
            self.constant(stacked("weight_ih")),
            self.constant(stacked("weight_hh")),
            self.constant(biases),
            "lengths",
            direction="bidirectional",
            hidden_size=hidden,
        )  # (width, 2, batch, hidden)
        joined = self.node("Transpose", out, perm=[0, 2, 1, 3])
        return self.node("Reshape", joined, self.constant(np.array([0, 0, -1], dtype=np.int64)))

    def twin_probabilities(self, heads: str, letter_of_id: np.ndarray, class_weight: np.ndarray) -> None:
        """``p``: at each position the sigmoid of its letter's head, the class-weight shift
        removed (``CharTagger.calibrated``); 0.5 where no head applies."""
        letters = self.node("Gather", self.constant(letter_of_id.astype(np.int64)), "ids")
        head = self.node("Max", letters, self.constant(np.array(0, dtype=np.int64)))
        last_axis = self.constant(np.array([-1], dtype=np.int64))
        picked = self.node(
            "Squeeze", self.node("GatherElements", heads, self.node("Unsqueeze", head, last_axis), axis=2), last_axis
        )
        shift = np.log(class_weight[:, 1] / class_weight[:, 0]).astype(np.float32)
        calibrated = self.node("Sub", picked, self.node("Gather", self.constant(shift), head))
        no_letter = self.node("Equal", letters, self.constant(np.array(NO_LETTER, dtype=np.int64)))
        logit = self.node("Where", no_letter, self.constant(np.array(0.0, dtype=np.float32)), calibrated)
        self.node("Sigmoid", logit, output="p")


def _onnx_gates(weight: np.ndarray, hidden: int) -> np.ndarray:
    return np.concatenate([weight[i * hidden : (i + 1) * hidden] for i in _GATES_ONNX_FROM_TORCH], axis=0)
