"""The neural backend on tiny untrained or briefly trained models (no real training)."""

from __future__ import annotations

import json
import pickle
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from safetensors.torch import load_file

from nokta_model.alphabet import AMBIGUOUS, LOWER_TWIN, asciify, tr_lower
from nokta_model.backends import load_restorer
from nokta_model.neural import NeuralRestorer, batching, load_neural_restorer, runtime, torch_tagger
from nokta_model.neural.batching import Piece, batches, twin_probabilities
from nokta_model.neural.candidates import ranked_spellings
from nokta_model.neural.checkpoint import load_model, save_model, sidecar
from nokta_model.neural.config import ModelConfig, TrainConfig
from nokta_model.neural.model import CharTagger
from nokta_model.neural.runtime import SHIPPED_WEIGHTS
from nokta_model.neural.torch_tagger import TorchTagger, native_bfloat16
from nokta_model.neural.vocab import (
    BOUNDARY,
    UNK,
    VOCAB_SIZE,
    capitals,
    encode_input,
    encode_key,
    encode_with_labels,
)
from nokta_model.training.corpus import TRAIN_FILES
from nokta_model.training.neural.cli import SHIPPED_CONFIG, load_config
from nokta_model.training.neural.data import CaseMix, read_cased
from nokta_model.training.neural.train import class_weights, train_neural
from nokta_model.training.neural.train_state import pack, packed_step, resume

LINES = [
    "Çocuklar bahçede oyun oynuyor.",
    "Işık gölgeyi süpürdü, ağaçlar üşüdü.",
    "İstanbul'da güneşli bir gün geçirdik.",
    "Öğretmen öğrencilere şiir okudu.",
]
TINY = ModelConfig(embed_dim=8, hidden=8, window=24, window_context=4)


def probabilities(model: CharTagger, keys: list[str]) -> list[np.ndarray]:
    """``batching.twin_probabilities`` of ``model`` run by torch."""
    return twin_probabilities(TorchTagger(model), keys)


def tiny_model(config: ModelConfig = TINY, seed: int = 0) -> CharTagger:
    torch.manual_seed(seed)
    return CharTagger(config).eval()


def test_alphabet_keeps_turkish_letters_and_maps_the_rest_to_unk():
    assert UNK not in encode_key("çğıöşüİ").tolist()
    assert encode_key("日").tolist() == [UNK]
    ids, labels = encode_with_labels("Işık çok")
    assert labels.tolist() == [1, 1, 1, -1, -1, 1, 0, -1]
    assert len(ids) == len(labels)


@pytest.mark.parametrize(
    "backbone,heads,char_window",
    [("lstm", 0, 0), ("lstm", 2, 0), ("gru", 0, 0), ("cnn", 0, 0), ("transformer", 0, 0), ("lstm", 0, 8)],
)
def test_a_tiny_model_learns_a_few_lines(backbone, heads, char_window):
    torch.manual_seed(0)
    config = replace(
        TINY, backbone=backbone, attention_heads=heads, char_window=char_window, hidden=16, layers=2, dropout=0.0
    )
    model = CharTagger(config).train()
    encoded = [encode_with_labels(line) for line in LINES]
    width = max(len(ids) for ids, _ in encoded)
    ids = torch.tensor(np.stack([np.pad(i, (0, width - len(i))) for i, _ in encoded]).astype(np.int64))
    labels = torch.tensor(np.stack([np.pad(lab, (0, width - len(lab)), constant_values=-1) for _, lab in encoded]))
    lengths = torch.tensor([len(i) for i, _ in encoded])
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(30):
        _, loss = model(ids, lengths, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert losses[-1] < 0.6 * losses[0]


def test_a_cased_input_shifts_capitals_and_training_reads_chunks_lowered_or_all_in_capitals():
    assert encode_input("Işık 1", cased=False).tolist() == encode_key("isik 1").tolist()
    cased = encode_input("Işık 1", cased=True)
    assert (cased - encode_key("isik 1")).tolist() == [VOCAB_SIZE, 0, 0, 0, 0, 0]
    ids = np.stack([encode_key("ab c1")] * 400)
    written = np.stack([capitals("Ab C1")] * 400)
    read = read_cased(ids, written, CaseMix(lowered=0.5, all_capitals=0.25), np.random.default_rng(0))
    shifted = (read >= VOCAB_SIZE).sum(axis=1).tolist()
    assert set(shifted) == {0, 2, 3}  # lowered; as written (A, C); every letter (a, b, c)
    assert shifted.count(0) / 400 == pytest.approx(0.5, abs=0.08)
    assert shifted.count(3) / 400 == pytest.approx(0.25, abs=0.08)


def test_a_cased_network_with_convolutions_before_its_lstm_trains_resumes_and_reads_case(tmp_path):
    corpus = fake_corpus(tmp_path / "corpus")
    tiny = load_config("tiny")
    model = replace(tiny.model, cased=True, conv_layers=2, conv_channels=8)
    config = replace(tiny, model=model, max_steps=4, eval_every=2, dev_lines=20)
    run = tmp_path / "run"
    train_neural(config, run, corpus, device="cpu", progress=False)
    train_neural(replace(config, max_steps=6), run, corpus, device="cpu", progress=False)
    history = json.loads((run / "history.json").read_text())["history"]
    assert [record["step"] for record in history] == [2, 4, 6]
    restorer = load_restorer(str(run / "best.safetensors"), device="cpu")
    assert restorer.tagger.config == model
    [as_written, lowered] = twin_probabilities(restorer.tagger, ["ISIK yakin", "isik yakin"])
    assert as_written.shape == lowered.shape and not np.array_equal(as_written, lowered)


@pytest.mark.parametrize("cased", [True, False])
def test_the_restorer_gives_the_network_its_lines_as_typed_and_only_a_cased_one_reads_the_capitals(cased, monkeypatch):
    torch.manual_seed(0)
    network = NeuralRestorer(TorchTagger(CharTagger(ModelConfig(embed_dim=4, hidden=4, cased=cased))))
    [as_typed, lowered] = network.line_probabilities(["ISIK Yakin", "isik yakin"])
    assert np.array_equal(as_typed, lowered) is not cased
    seen: list[str] = []
    answer = network.line_probabilities
    monkeypatch.setattr(network, "line_probabilities", lambda lines: seen.extend(lines) or answer(lines))
    network.restore(["ISIK Yakin"])
    assert seen == ["ISIK Yakin"]


def test_batched_inference_matches_one_line_at_a_time_and_windows_cover_long_lines():
    model = tiny_model(replace(TINY, attention_heads=2))
    keys = [asciify(tr_lower(line)) for line in LINES] + ["cok uzun bir satir " * 6]
    together = probabilities(model, keys)
    for key, line_probabilities in zip(keys, together, strict=True):
        assert line_probabilities.shape == (len(key),)
        np.testing.assert_allclose(line_probabilities, probabilities(model, [key])[0], atol=1e-5)
    assert (together[-1][[i for i, ch in enumerate(keys[-1]) if ch in "cgiosu"]] > 0).all()


def test_native_bfloat16_is_read_from_the_cpu_flags(tmp_path):
    with_bf16, without, missing = tmp_path / "a", tmp_path / "b", tmp_path / "none"
    with_bf16.write_text("processor : 0\nflags : fpu sse avx512f avx512_bf16 amx_tile\n")
    without.write_text("processor : 0\nflags : fpu sse avx2\n")
    assert native_bfloat16(with_bf16) and not native_bfloat16(without) and not native_bfloat16(missing)


def test_the_network_runs_in_bfloat16_where_native_unless_float32_is_asked(monkeypatch):
    model = tiny_model(replace(TINY, window=200))  # each line in one piece
    keys = [asciify(tr_lower(line)) for line in LINES]
    monkeypatch.setattr(torch_tagger, "native_bfloat16", lambda: True)
    bfloat16 = probabilities(model, keys)
    with runtime.float32():
        float32 = probabilities(model, keys)
    monkeypatch.setenv("NOKTA_NETWORK_FLOAT32", "1")
    for a, b in zip(float32, probabilities(model, keys), strict=True):
        np.testing.assert_array_equal(a, b)
    with torch.inference_mode():
        for key, line_probabilities in zip(keys, float32, strict=True):
            ids = torch.tensor([[BOUNDARY, *encode_key(key), BOUNDARY]])
            logits, _ = model(ids, None)
            direct = torch.sigmoid(model.calibrated(logits, ids))[0, 1:-1].numpy()
            np.testing.assert_allclose(line_probabilities, direct, atol=1e-6)
    assert any(not np.array_equal(a, b) for a, b in zip(bfloat16, float32, strict=True))
    for a, b in zip(bfloat16, float32, strict=True):
        np.testing.assert_allclose(a, b, atol=0.02)


@pytest.mark.parametrize("backbone", ["lstm", "gru"])
def test_weights_kept_cast_give_the_same_probabilities_as_autocast_casting_them(monkeypatch, backbone):
    """Lines of different lengths (one direction at a time) and alone (the whole stack at once)."""
    model = tiny_model(replace(TINY, window=200, backbone=backbone, layers=2))
    keys = [asciify(tr_lower(line)) for line in LINES]
    monkeypatch.setattr(torch_tagger, "native_bfloat16", lambda: True)
    cast_each_call = [probabilities(model, keys), *(probabilities(model, [key]) for key in keys)]
    with runtime.float32():
        float32 = probabilities(model, keys)
    model.keep_cast_weights(torch.bfloat16)
    kept = [probabilities(model, keys), *(probabilities(model, [key]) for key in keys)]
    for before, after in zip(cast_each_call, kept, strict=True):
        for a, b in zip(before, after, strict=True):
            np.testing.assert_array_equal(a, b)
    with runtime.float32():  # no autocast: the parameters, not the copies
        for a, b in zip(float32, probabilities(model, keys), strict=True):
            np.testing.assert_array_equal(a, b)
    with torch.no_grad():  # the copies are what autocast reads now, whatever the parameters
        for parameter in model.backbone.parameters():
            parameter.zero_()
    for a, b in zip(cast_each_call[0], probabilities(model, keys), strict=True):
        np.testing.assert_array_equal(a, b)


def _batch_lengths(lengths: list[int]) -> list[list[int]]:
    pieces = [Piece(0, 0, np.zeros(n, dtype=np.int64), 0, n) for n in lengths]
    return [[len(piece.ids) for piece in batch] for batch in batches(pieces)]


def test_batches_keep_pieces_in_order_and_long_pieces_apart_from_many_short_ones():
    lengths = [10] * 50 + [12, 20, 28, 29, 400]
    batches = _batch_lengths(lengths)
    assert [n for batch in batches for n in batch] == lengths
    assert batches[-1] == [400]  # padding 55 short rows to 400 steps would cost far more than a batch


def test_a_few_pieces_of_nearby_lengths_share_a_batch_and_a_full_width_splits():
    assert _batch_lengths([17, 18, 40, 41]) == [[17, 18, 40, 41]]  # one batch's steps cost less than two
    rows = batching.BATCH_TOKENS // 32
    assert [len(batch) for batch in _batch_lengths([30] * (rows + 3))] == [rows, 3]


def test_saved_model_loads_with_identical_predictions(tmp_path):
    model = tiny_model()
    weights = tmp_path / "model.safetensors"
    save_model(model, weights, {"metrics": {"note": "untrained"}})
    loaded, meta = load_model(weights)
    assert meta["config"]["hidden"] == TINY.hidden and meta["metrics"] == {"note": "untrained"}
    keys = [asciify(tr_lower(line)) for line in LINES]
    for before, after in zip(probabilities(model, keys), probabilities(loaded, keys), strict=True):
        np.testing.assert_array_equal(before, after)


def saved(tmp_path: Path) -> Path:
    weights = tmp_path / "model.safetensors"
    save_model(tiny_model(), weights, {})
    return weights


def test_truncated_weights_give_a_clear_error(tmp_path):
    weights = saved(tmp_path)
    weights.write_bytes(weights.read_bytes()[:100])
    with pytest.raises(ValueError, match="corrupt or truncated"):
        load_model(weights)


def test_corrupt_or_incompatible_description_gives_a_clear_error(tmp_path):
    weights = saved(tmp_path)
    meta = json.loads(sidecar(weights).read_text())
    sidecar(weights).write_text(json.dumps(meta | {"config": meta["config"] | {"hidden": 12}}))
    with pytest.raises(ValueError, match="does not match its config"):
        load_model(weights)
    sidecar(weights).write_text(json.dumps(meta | {"config": meta["config"] | {"backbone": "rnn"}}))
    with pytest.raises(ValueError, match="invalid model config"):
        load_model(weights)
    sidecar(weights).write_text('{"format": "nokta-neu')
    with pytest.raises(ValueError, match="not valid JSON"):
        load_model(weights)
    sidecar(weights).unlink()
    with pytest.raises(ValueError, match="not found"):
        load_model(weights)


class _Exploit:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_a_pickle_passed_as_checkpoint_runs_no_code(tmp_path):
    weights = saved(tmp_path)
    marker = tmp_path / "pwned"
    weights.write_bytes(pickle.dumps({"state": _Exploit(marker)}))
    with pytest.raises(ValueError):
        load_restorer(str(weights))
    assert not marker.exists()


def test_load_restorer_finds_a_run_directory(tmp_path):
    save_model(tiny_model(), tmp_path / "best.safetensors", {})
    assert isinstance(load_restorer(str(tmp_path), device="cpu"), NeuralRestorer)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no model weights"):
        load_neural_restorer(tmp_path / "empty")


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_cuda_predictions_match_cpu():
    model = tiny_model()
    keys = [asciify(tr_lower(line)) for line in LINES]
    on_cpu = probabilities(model, keys)
    on_gpu = probabilities(model.to("cuda"), keys)
    for a, b in zip(on_cpu, on_gpu, strict=True):
        np.testing.assert_allclose(a, b, atol=1e-4)


def test_ranked_spellings_are_best_first_and_keep_typed_diacritics():
    ranked = ranked_spellings("çogus", np.array([0.0, 0.9, 0.2, 0.0, 0.6], dtype=np.float32), 8)
    assert ranked[0][0] == "çöguş"
    assert [p for _, p in ranked] == sorted((p for _, p in ranked), reverse=True)
    assert all(word[0] == "ç" for word, _ in ranked) and len(ranked) == 8
    assert sum(p for _, p in ranked) <= 1.0 + 1e-9


_PAIRS = {
    **{k: v for k, v in LOWER_TWIN.items()},
    **{k.upper(): v.upper() for k, v in LOWER_TWIN.items() if k != "i"},
    "I": "İ",
}


_RESTORER = NeuralRestorer(TorchTagger(tiny_model(seed=3)))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.text(alphabet="cgiosuCGIOSUaAeEçİı '-.x1", max_size=30), min_size=1, max_size=4))
def test_restorer_invariants(lines):
    restorer = _RESTORER
    restored = restorer.restore(lines)
    for before, after in zip(lines, restored, strict=True):
        assert len(before) == len(after)
        for a, b in zip(before, after, strict=True):
            assert a == b or (a in AMBIGUOUS and _PAIRS[a] == b)
    assert restorer.restore(restored) == restored


def test_suggestions_carry_ranked_alternatives():
    restorer = NeuralRestorer(TorchTagger(tiny_model(seed=1)))
    for suggestion in restorer.suggest(["cocuk gozluk sisi"])[0]:
        scores = [alternative.score for alternative in suggestion.alternatives]
        assert scores == sorted(scores, reverse=True) and suggestion.confidence == scores[0]


def fake_corpus(root: Path) -> Path:
    (root / "train").mkdir(parents=True)
    for index, corpus_file in enumerate(TRAIN_FILES):
        lines = [f"{line} {index} {n}" for n in range(30) for line in LINES]
        (root / "train" / corpus_file.name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def test_training_writes_checkpoints_and_resumes(tmp_path):
    corpus = fake_corpus(tmp_path / "corpus")
    config = replace(load_config("tiny"), max_steps=6, eval_every=3, dev_lines=20)
    run = tmp_path / "run"
    first = train_neural(config, run, corpus, device="cpu", progress=False)
    assert {"letter_acc", "word_acc", "log_loss"} <= set(first)
    train_neural(replace(config, max_steps=9), run, corpus, device="cpu", progress=False)
    history = json.loads((run / "history.json").read_text())["history"]
    assert [record["step"] for record in history] == [3, 6, 9]
    restorer = load_restorer(str(run / "best.safetensors"), device="cpu")
    assert restorer.meta["data_mix"] and restorer.meta["trained"]["step"] in (3, 6, 9)


TRACKED = ("resume.safetensors", "best.json", "last.json", "history.json")  # what a commit of a run holds


def test_a_fresh_clone_resumes_from_the_packed_state_and_the_trainer_from_the_newer_one(tmp_path):
    corpus = fake_corpus(tmp_path / "corpus")
    config = replace(load_config("tiny"), max_steps=6, eval_every=3, dev_lines=20)
    trainer, clone = tmp_path / "trainer", tmp_path / "clone"
    train_neural(config, trainer, corpus, device="cpu", progress=False)
    kinds = {(name.split(".")[0], name.rsplit(".", 1)[-1], value.dtype) for name, value in packed_tensors(trainer)}
    assert kinds >= {("last", "weight", torch.float16), ("optimizer", "exp_avg_sq", torch.bfloat16)}
    assert not any(name.endswith(".exp_avg") for name, _ in packed_tensors(trainer))
    assert not pack(trainer)  # written once a session, and only when the run moved on

    clone.mkdir()
    for name in TRACKED:
        shutil.copy(trainer / name, clone / name)
    train_neural(replace(config, max_steps=9), clone, corpus, device="cpu", progress=False)
    # resumed, not restarted: the first two evaluations are the trainer's, wall-clock minutes and all
    assert history(clone)[:2] == history(trainer) and [record["step"] for record in history(clone)] == [3, 6, 9]
    assert load_restorer(str(clone / "best.safetensors"), device="cpu").meta["trained"]["step"] in (3, 6, 9)

    shutil.copy(clone / "resume.safetensors", trainer / "resume.safetensors")  # the trainer pulls: 9 beats its 6
    train_neural(replace(config, max_steps=12), trainer, corpus, device="cpu", progress=False)
    assert history(trainer)[:3] == history(clone) and history(trainer)[-1]["step"] == 12


def test_a_run_folder_of_the_earlier_format_resumes_and_packs(tmp_path):
    corpus = fake_corpus(tmp_path / "corpus")
    config = replace(load_config("tiny"), max_steps=6, eval_every=3, dev_lines=20)
    run = tmp_path / "run"
    train_neural(config, run, corpus, device="cpu", progress=False)
    (run / "resume.safetensors").unlink()  # last, best and optimizer files only, as runs before it
    before = history(run)
    optimizer = torch.optim.AdamW(CharTagger(config.model).parameters())
    assert resume(CharTagger(config.model), optimizer, run)["step"] == 6
    assert pack(run) and packed_step(run) == 6
    train_neural(replace(config, max_steps=9), run, corpus, device="cpu", progress=False)
    assert history(run)[:2] == before and [record["step"] for record in history(run)] == [3, 6, 9]
    assert packed_step(run) == 9


def test_the_packed_state_keeps_the_weights_to_float16_and_the_second_moments_to_bfloat16(tmp_path):
    corpus = fake_corpus(tmp_path / "corpus")
    config = replace(load_config("tiny"), max_steps=6, eval_every=3, dev_lines=20)
    run = tmp_path / "run"
    train_neural(config, run, corpus, device="cpu", progress=False)
    model = CharTagger(config.model)
    optimizer = torch.optim.AdamW(model.parameters())
    (run / "last.safetensors").rename(run / "kept.safetensors")  # only the packed state is left to resume
    assert resume(model, optimizer, run)["step"] == 6
    for name, value in load_file(str(run / "kept.safetensors")).items():
        assert torch.allclose(model.state_dict()[name], value, rtol=1e-3, atol=1e-4), name
    saved = load_file(str(run / "optimizer.safetensors"))
    for index, state in optimizer.state_dict()["state"].items():
        assert torch.allclose(state["exp_avg_sq"], saved[f"state.{index}.exp_avg_sq"], rtol=1e-2)
        assert not state["exp_avg"].any() and state["step"] == saved[f"state.{index}.step"]


def packed_tensors(run: Path) -> list[tuple[str, torch.Tensor]]:
    return list(load_file(str(run / "resume.safetensors")).items())


def history(run: Path) -> list[dict]:
    return json.loads((run / "history.json").read_text())["history"]


@pytest.mark.parametrize("asked", [True, False])
def test_training_steps_run_under_bfloat16_autocast_when_asked_on_a_cpu_that_has_it(tmp_path, monkeypatch, asked):
    autocast_in_training = []
    forward = CharTagger.forward

    def recording_forward(self, *args, **kwargs):
        if self.training:
            autocast_in_training.append(torch.is_autocast_enabled("cpu"))
        return forward(self, *args, **kwargs)

    monkeypatch.setattr(CharTagger, "forward", recording_forward)
    monkeypatch.setattr("nokta_model.training.neural.train.bfloat16_native_on", lambda device: True)
    config = replace(load_config("tiny"), max_steps=2, eval_every=2, dev_lines=20, bfloat16=asked)
    train_neural(config, tmp_path / "run", fake_corpus(tmp_path / "corpus"), device="cpu", progress=False)
    assert autocast_in_training == [asked, asked]


def test_class_weights_are_inverse_frequency_with_mean_one():
    counts = np.array([[90.0, 10.0]] * 6)
    weights = class_weights(counts, power=1.0)
    assert weights[0, 1] / weights[0, 0] == pytest.approx(9.0)
    assert (weights * counts / 100).sum(axis=1) == pytest.approx(np.ones(6))


def test_bad_training_configs_are_rejected(tmp_path):
    with pytest.raises(ValueError, match="unknown TrainConfig settings"):
        TrainConfig.from_dict({"learning_rate": 1})
    with pytest.raises(ValueError, match="no training config"):
        load_config(str(tmp_path / "nope"))
    (tmp_path / "bad.json").write_text("[1]")
    with pytest.raises(ValueError, match="JSON object"):
        TrainConfig.from_json(tmp_path / "bad.json")


def test_nokta_train_neural_defaults_to_the_shipped_networks_configuration():
    shipped = json.loads(SHIPPED_WEIGHTS.with_suffix(".json").read_text())["config"]
    assert load_config(SHIPPED_CONFIG).model == ModelConfig.from_dict(shipped)
