"""The calibration map, its file and its fit."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from nokta_model.calibration import (
    CALIBRATION_FILE,
    CALIBRATION_FILES,
    Calibration,
    read_calibration,
    write_calibration,
)
from nokta_model.evaluate import BATCH_LINES
from nokta_model.ngram.artifact import DEFAULT_ARTIFACT
from nokta_model.ngram.model import NgramRestorer
from nokta_model.training.calibration_fit import Decided, decisions, fit_temperature, log_loss
from nokta_model.training.corpus import TRAIN_FILES, default_corpus_dir, line_split


def test_the_identity_keeps_shares_and_a_temperature_keeps_every_order():
    shares = [0.9999, 0.0001]
    assert Calibration().shares(shares, True) == shares
    calibrated = Calibration(between_words=3.0, other=1.0)
    assert calibrated.shares(shares, False) == shares
    hot = calibrated.shares(shares, True)
    assert hot[0] > hot[1] and hot[0] < shares[0] and sum(hot) == pytest.approx(1.0)
    tops = [calibrated.shares([p, 1 - p], True)[0] for p in (0.6, 0.9, 0.99, 0.9999)]
    assert tops == sorted(tops)  # monotone
    assert calibrated.shares([1.0], True) == [1.0]  # one spelling: sure
    assert calibrated.shares([1.0, 0.0], True) == [1.0, 0.0]  # a share of exactly 0 stays 0


def test_the_shipped_calibration_reads_and_a_written_one_reads_back(tmp_path):
    shipped = read_calibration()
    assert shipped.between_words > 1 and shipped.other > 1  # the lattice's shares are too sure
    assert json.loads(CALIBRATION_FILE.read_text(encoding="utf-8"))["tune_lines"] > 0
    path = tmp_path / "calibration.json"
    write_calibration(Calibration(2.0, 3.0), path, {"tune_lines": 1})
    assert read_calibration(path) == Calibration(2.0, 3.0)


@pytest.mark.parametrize(
    "text", ["{", '{"temperatures": {"words": 2}}', '{"temperatures": {"other": 0}}', '{"fitted": 1}']
)
def test_a_bad_calibration_file_is_one_clear_error(tmp_path, text):
    path = tmp_path / "calibration.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match="cannot read the calibration from"):
        read_calibration(path)


def test_the_fit_finds_the_temperature_that_made_the_choices():
    """Choices right as often as a temperature of 3 says: the fit finds about 3."""
    rng = random.Random(1)
    found = []
    for _ in range(20_000):
        share = 1 - 10 ** rng.uniform(-8, -0.5)
        truth = Calibration(between_words=3.0).shares([share, 1 - share], True)[0]
        found.append(Decided((share, 1 - share), True, rng.random() < truth))
    temperature = fit_temperature(found)
    assert temperature == pytest.approx(3.0, rel=0.1)
    assert log_loss(found, temperature) < log_loss(found, 1.0)


def test_the_count_based_backend_reports_its_own_shipped_calibration():
    shipped = NgramRestorer.load()
    assert shipped.calibration == read_calibration(CALIBRATION_FILES["ngram"]) != Calibration()
    assert NgramRestorer.load(DEFAULT_ARTIFACT).calibration == Calibration()  # a model file of one's own: as it is
    line = "cok sik olmus"
    calibrated, raw = (
        next(c for c in restorer.choices([line])[0] if line[c.span.start : c.span.end] == "sik")
        for restorer in (shipped, NgramRestorer.load(DEFAULT_ARTIFACT))
    )
    assert calibrated.between_words and calibrated.alternatives[0].score < raw.alternatives[0].score


def test_the_fit_reads_choices_past_its_first_batch():
    restorer, lines = NgramRestorer.load(DEFAULT_ARTIFACT), ["Çok şık olmuş."] * (BATCH_LINES + 1)
    one_line = decisions(restorer, lines[:1])
    assert one_line and decisions(restorer, lines) == one_line * len(lines)


def train_calibrations(output: Path, corpus: Path | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "nokta_model", "train", "--backend", "calibration", "--output", str(output)]
    command += ["--corpus", str(corpus)] if corpus else []
    return subprocess.run(command, capture_output=True, text=True, timeout=900)


def small_tune_corpus(folder: Path) -> int:
    """Every training file of a corpus, holding the same few lines of the tune split; how many lines in all."""
    sentences = ["Çok şık olmuş, dedi", "Bugün hava çok güzel, yarın da", "Açı değil acı bir haber geldi"]
    numbered = (f"{sentence} {number}." for number in range(200) for sentence in sentences)
    lines = [line for line in numbered if line_split(line) == "tune"][:12]
    (folder / "train").mkdir(parents=True)
    for corpus_file in TRAIN_FILES:
        (folder / "train" / corpus_file.name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines) * sum(corpus_file.commercial for corpus_file in TRAIN_FILES)  # what the fit reads


def test_nokta_train_writes_both_calibrations(tmp_path):
    tune_lines = small_tune_corpus(tmp_path / "corpus")
    output = tmp_path / "out" / "calibration.json"
    output.parent.mkdir()
    done = train_calibrations(output, tmp_path / "corpus")
    assert done.returncode == 0, done.stderr
    for path, backend in ((output, "default"), (tmp_path / "out" / "calibration_ngram.json", "ngram")):
        written = json.loads(path.read_text(encoding="utf-8"))
        assert written["backend"] == backend and written["tune_lines"] == tune_lines
        assert read_calibration(path).between_words > 0


@pytest.mark.skipif(not default_corpus_dir().is_dir(), reason="no corpus beside the checkout (../shared/corpus)")
def test_the_shipped_calibrations_are_what_nokta_train_fits(tmp_path):
    output = tmp_path / "calibration.json"
    done = train_calibrations(output)
    assert done.returncode == 0, done.stderr
    default, ngram = read_calibration(output), read_calibration(tmp_path / "calibration_ngram.json")
    assert default == read_calibration(CALIBRATION_FILE) and ngram == read_calibration(CALIBRATION_FILES["ngram"])
