"""The cross-word character-context model: counting, estimates across spaces, its file."""

from __future__ import annotations

import numpy as np
import pytest

from nokta_model.charctx import ContextModel, load_context_model, save_context_model
from nokta_model.errors import ModelFileError
from nokta_model.spans import Span

LINES = ["Bu iyi mi?", "Geldin mi?", "Kötü mü?", "Bu kötü mü?", "Olmuş mu?", "Yaşa ülkem.", "Bu yasa iyi."] * 4


@pytest.fixture(scope="module")
def model() -> ContextModel:
    return ContextModel.count((line, 1) for line in LINES)


def test_a_letter_is_decided_by_the_words_around_it(model):
    mu_after_kotu, mu_after_olmus = model.twin_probabilities(["kotu mu?", "olmus mu?"])
    assert mu_after_kotu[6] > 0.8  # kötü mü: the u of "mu" takes its twin
    assert mu_after_olmus[7] < 0.2  # olmuş mu
    assert np.isnan(mu_after_kotu[0])  # k is not an ambiguous letter


def test_probabilities_cover_every_position_of_every_line(model):
    lines = ["", "x", "cok guzel bir gun", "ÇOK"]
    probabilities = model.twin_probabilities(lines)
    assert [len(p) for p in probabilities] == [len(line) for line in lines]


def test_the_file_round_trips_and_refuses_a_corrupt_copy(model, tmp_path):
    path = tmp_path / "context.npz"
    save_context_model(model, path, {"note": "test"})
    loaded = load_context_model(path)
    lines = ["kotu mu", "bu yasa iyi"]
    for a, b in zip(loaded.twin_probabilities(lines), model.twin_probabilities(lines), strict=True):
        np.testing.assert_array_equal(a, b)
    path.write_bytes(path.read_bytes()[:200])
    with pytest.raises(ModelFileError, match=r"context\.npz"):
        load_context_model(path)


def test_spans_limit_the_estimates_to_the_letters_inside_them(model):
    lines = ["su cok guzel", "kisa bir yol"]
    spans = [[Span(3, 6)], [Span(0, 4), Span(9, 12)]]
    full = model.twin_probabilities(lines)
    limited = model.twin_probabilities(lines, spans)
    for line, line_spans, everywhere, inside in zip(lines, spans, full, limited, strict=True):
        wanted = np.zeros(len(line), dtype=bool)
        for span in line_spans:
            wanted[span.start : span.end] = True
        np.testing.assert_array_equal(inside[wanted], everywhere[wanted])
        assert np.isnan(inside[~wanted]).all()
        assert not np.isnan(everywhere[~wanted]).all()  # there were letters to leave out
