"""Viterbi decoding and max-marginals of a candidate lattice, checked against every path."""

import itertools
import random

import pytest

from nokta_model.lattice import Position, decode, sentence_positions


def random_lattice(rng: random.Random) -> tuple[list[Position], dict]:
    words = []
    for index in range(rng.randint(1, 7)):
        size = rng.choice([1, 1, 2, 3])
        ids = [10 * (index + 1) + choice for choice in range(size)]
        words.append(Position(ids, [rng.uniform(-2, 0) for _ in ids] if size > 1 else []))
    positions = sentence_positions(words)
    scores = {}
    for end in range(2, len(positions)):
        for u, v, w in itertools.product(*(positions[end - k].ids for k in (2, 1, 0))):
            if rng.random() < 0.8:
                scores[(end, u, v, w)] = rng.uniform(-5, 0)
    return positions, scores


def path_score(positions: list[Position], scores: dict, path: tuple[int, ...]) -> float:
    total = 0.0
    for end in range(2, len(positions)):
        window = tuple(positions[end - k].ids[path[end - k]] for k in (2, 1, 0))
        total += scores.get((end, *window), 0.0) + positions[end].emission(path[end])
    return total


@pytest.mark.parametrize("seed", range(40))
def test_best_path_and_max_marginals_match_every_path(seed):
    positions, scores = random_lattice(random.Random(seed))
    paths = {
        path: path_score(positions, scores, path) for path in itertools.product(*(range(len(p.ids)) for p in positions))
    }
    best, marginals = decode(positions, scores, with_marginals=True)
    assert paths[tuple(best)] == pytest.approx(max(paths.values()))
    for index, position in enumerate(positions):
        if len(position.ids) < 2:
            continue
        through = [max(s for path, s in paths.items() if path[index] == c) for c in range(len(position.ids))]
        # decode leaves out windows every path shares, so only differences are comparable
        assert [m - max(marginals[index]) for m in marginals[index]] == pytest.approx(
            [t - max(through) for t in through]
        )
