"""One-hot facts as the One-hot page computes them: memory and cosines (the one-hot @ E race is
in tests/test_lookup_race.py)."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.core import get_backend
from transformer_walk.topics.one_hot import (
    cosine_matrix,
    first_occurrences,
    max_off_diagonal,
    one_hot_bytes,
)


def test_memory_is_n_times_v_times_four_bytes() -> None:
    assert one_hot_bytes(4, 50_000) == 800_000
    assert one_hot_bytes(4, 30_522) == 488_352
    assert one_hot_bytes(3, 10, itemsize=8) == 240


def test_cosine_matrix() -> None:
    np.testing.assert_array_equal(cosine_matrix(np.eye(4)), np.eye(4))
    cos = cosine_matrix(np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 0.0]]))
    assert cos[0, 1] == pytest.approx(1 / np.sqrt(2))
    assert cos[2].tolist() == [0.0, 0.0, 0.0]  # a zero row is similar to nothing
    assert max_off_diagonal(np.eye(3)) == 0.0
    assert max_off_diagonal(cos) == pytest.approx(1 / np.sqrt(2))


def test_one_hot_of_cat_dog_computer_is_orthogonal(backend_name: str) -> None:
    backend = get_backend(backend_name)
    x = backend.one_hot(np.array([5, 9, 2]), 12, dtype=np.float64)  # cat, dog, computer
    cos = cosine_matrix(x)
    np.testing.assert_array_equal(cos, np.eye(3))  # sim(cat, dog) = sim(cat, computer) = 0


def test_first_occurrences() -> None:
    assert first_occurrences(["the", "dog", "saw", "the", "dog"]) == [0, 1, 2]
    assert first_occurrences([]) == []
