"""The network's two runtimes: the exported ONNX graph run by ONNX Runtime (no torch)
and the checkpoint run by torch give the same letters and the same restored words."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest
import torch

from nokta_model.default import load_default_restorer
from nokta_model.neural.batching import twin_probabilities
from nokta_model.neural.config import ModelConfig
from nokta_model.neural.model import CharTagger
from nokta_model.neural.onnx_tagger import OnnxTagger
from nokta_model.neural.runtime import SHIPPED_GRAPH, choose_runtime, float32, load_tagger
from nokta_model.neural.torch_tagger import TorchTagger
from nokta_model.training.neural.export import export_graph

# Lines of different lengths, so that batches pad rows (the backward direction must start
# at each row's own end) and one line is cut into windows.
KEYS = [
    "Bugun hava cok guzel",
    "Cocuklar bahcede oyun oynuyor, aksam olunca eve donduler.",
    "Isik",
    "SIRKETIN YONETIM KURULU TOPLANTISI ERTELENDI",
    "Sabah erkenden kalkip gunes dogmadan yola ciktik; " * 4,
]

PARAGRAPHS = [
    "Toplanti yarin sabah saat dokuzda baslayacak, herkesin zamaninda gelmesi gerekiyor.",
    "Zzgorusmelerimizde yeni cozumler uzerinde anlastik ve calismalara basladik.",
    "Kopru insaati bu yil bitmezse ulasim sorunu buyuyecek.",
    "Ogrenciler sinav sonuclarini internetten ogrenebilecek.",
    "Cekmecedeki eski fotograflara bakinca cocuklugum aklima geldi.",
]


def tiny(config: ModelConfig, seed: int = 0) -> CharTagger:
    torch.manual_seed(seed)
    return CharTagger(config).eval()


@pytest.mark.parametrize("layers, cased", [(1, False), (2, True)])
def test_an_exported_float32_graph_gives_the_probabilities_torch_gives(tmp_path, layers, cased):
    model = tiny(ModelConfig(embed_dim=8, hidden=8, layers=layers, cased=cased, window=40, window_context=8))
    model.class_weight.copy_(torch.tensor([[1.0, 3.0]] * 6))  # the calibration shift is in the graph too
    graph = export_graph(model, tmp_path / "tiny.onnx", {"trained": {"step": 1}}, int8=False)
    onnx_tagger = OnnxTagger.load(graph)
    assert onnx_tagger.config == model.config and onnx_tagger.description == {"trained": {"step": 1}}
    with float32():
        by_torch = twin_probabilities(TorchTagger(model), KEYS)
    for expected, got in zip(by_torch, twin_probabilities(onnx_tagger, KEYS), strict=True):
        np.testing.assert_allclose(got, expected, atol=1e-5)


def test_the_shipped_int8_graph_decides_the_letters_the_shipped_checkpoint_does():
    graph, checkpoint = load_tagger(None, "cpu", "onnx"), load_tagger(None, "cpu", "torch")
    assert graph.runtime == "onnx" and graph.config == checkpoint.config
    with float32():
        by_torch = twin_probabilities(checkpoint, KEYS)
    for key, expected, got in zip(KEYS, by_torch, twin_probabilities(graph, KEYS), strict=True):
        letters = [i for i, ch in enumerate(key) if ch.lower() in "cgiosu"]
        np.testing.assert_allclose(got[letters], expected[letters], atol=0.05)
        confident = [i for i in letters if abs(expected[i] - 0.5) > 0.1]
        assert ((got[confident] > 0.5) == (expected[confident] > 0.5)).all()


def test_the_default_restores_the_same_words_with_either_runtime(monkeypatch):
    outputs = []
    for runtime in ("onnx", "torch"):
        monkeypatch.setenv("NOKTA_RUNTIME", runtime)
        restorer = load_default_restorer(device="cpu")
        outputs.append(restorer.restore(PARAGRAPHS))
        assert restorer.neural.load().tagger.runtime.startswith(runtime)
    assert outputs[0] == outputs[1]
    assert outputs[0][1].startswith("Zzgörüşmelerimizde yeni çözümler")


def test_the_runtime_is_chosen_by_file_and_device_and_can_be_forced(monkeypatch, tmp_path):
    monkeypatch.delenv("NOKTA_RUNTIME", raising=False)
    assert choose_runtime(None, "auto") == "onnx"
    assert choose_runtime(None, "cuda") == "torch"
    assert choose_runtime(tmp_path / "best.safetensors", "cpu") == "torch"
    assert choose_runtime(tmp_path, "cpu") == "torch"  # a training run folder
    monkeypatch.setenv("NOKTA_RUNTIME", "torch")
    assert choose_runtime(None, "cpu") == "torch"
    with pytest.raises(ValueError, match=r"ONNX Runtime reads an exported \.onnx graph"):
        choose_runtime(tmp_path / "best.safetensors", "cpu", "onnx")
    with pytest.raises(ValueError, match="CPU only"):
        choose_runtime(None, "cuda", "onnx")
    monkeypatch.setenv("NOKTA_RUNTIME", "tpu")
    with pytest.raises(ValueError, match="unknown network runtime 'tpu'"):
        choose_runtime(None, "cpu")


def test_a_graph_that_is_not_nokta_s_or_is_truncated_is_refused_in_one_line(tmp_path):
    truncated = tmp_path / "truncated.onnx"
    truncated.write_bytes(SHIPPED_GRAPH.read_bytes()[:5000])
    with pytest.raises(ValueError, match="not a readable network graph"):
        OnnxTagger.load(truncated)
    with pytest.raises(ValueError, match="not found"):
        OnnxTagger.load(tmp_path / "missing.onnx")
    model = tiny(replace(ModelConfig(), hidden=4, embed_dim=4))
    graph = export_graph(model, tmp_path / "plain.onnx", {}, int8=False)
    import onnx

    stripped = onnx.load(graph)
    del stripped.metadata_props[:]
    onnx.save(stripped, tmp_path / "stripped.onnx")
    with pytest.raises(ValueError, match="not a nokta network graph"):
        OnnxTagger.load(tmp_path / "stripped.onnx")


NO_TORCH = """
import sys
sys.modules["torch"] = None  # as on a machine without the torch extra
from nokta_model.app.cli import main
status = main(sys.argv[1:])
assert "torch" not in sys.modules or sys.modules["torch"] is None
sys.exit(status)
"""


def test_nokta_restore_runs_the_network_without_torch(tmp_path):
    text = tmp_path / "in.txt"
    text.write_text("Zzgorusmelerimizde cok guzel seyler oldu.\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", NO_TORCH, "restore", str(text)], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == "Zzgörüşmelerimizde çok güzel şeyler oldu.\n"


def test_a_torch_network_asked_for_without_torch_is_a_clear_error(tmp_path):
    text = tmp_path / "in.txt"
    text.write_text("cok guzel\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", NO_TORCH, "restore", "--backend", "neural", str(text)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NOKTA_RUNTIME": "torch"},
    )
    assert run.returncode != 0 and "Traceback" not in run.stderr
    assert "pip install 'nokta[torch]'" in run.stderr
