"""The tables' narrow in-memory forms: counts that fit unchanged, the rest scaled with their ratio kept."""

import numpy as np

from nokta_model.ngram.tables import narrowed_masks, narrowed_pairs


def test_counts_within_range_are_kept_exactly():
    counts = np.array([[0, 0], [3, 5], [65_535, 1]], dtype=np.uint32)
    narrowed = narrowed_pairs(counts)
    assert narrowed.dtype == np.uint16
    np.testing.assert_array_equal(narrowed, counts)


def test_counts_beyond_range_are_scaled_to_fit_with_their_ratio():
    counts = np.array([[1_705_136, 20_000], [70_000, 140_000], [2, 9]], dtype=np.uint32)
    narrowed = narrowed_pairs(counts).astype(np.float64)
    assert narrowed.max() == 65_535
    ratios = counts[:2, 1] / counts[:2].sum(axis=1)
    np.testing.assert_allclose(narrowed[:2, 1] / narrowed[:2].sum(axis=1), ratios, atol=1e-4)
    np.testing.assert_array_equal(narrowed[2], [2, 9])


def test_masks_narrow_only_when_every_one_fits():
    assert narrowed_masks(np.array([0, 5, 2**31 - 1])).dtype == np.int32
    wide = np.array([0, 2**40])
    assert narrowed_masks(wide) is wide
