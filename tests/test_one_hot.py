"""One-hot facts as the One-hot page computes them: memory, cosines, and the one-hot @ E race."""

from __future__ import annotations

import time

import numpy as np
import pytest

from transformer_walk.core import get_backend
from transformer_walk.topics.one_hot import (
    MIN_SAMPLES,
    cosine_matrix,
    first_occurrences,
    human_bytes,
    max_off_diagonal,
    median_seconds,
    one_hot_bytes,
    race,
    random_table,
)

from conftest import HAVE_RUST


def test_memory_is_n_times_v_times_four_bytes() -> None:
    assert one_hot_bytes(4, 50_000) == 800_000
    assert one_hot_bytes(4, 30_522) == 488_352
    assert one_hot_bytes(3, 10, itemsize=8) == 240
    assert human_bytes(512) == "512 B"
    assert human_bytes(1536) == "1.5 KB"
    assert human_bytes(800_000) == "781.2 KB"
    assert human_bytes(40_000_000) == "38.1 MB"


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


# The pure-Python lookup converts all of E to lists, so it races only the small vocabulary.
@pytest.mark.parametrize(
    ("race_backend", "vocab_size"),
    [("python", 1_000), ("numpy", 1_000), ("numpy", 50_000), ("rust", 1_000), ("rust", 50_000)],
)
def test_race_agrees(race_backend: str, vocab_size: int) -> None:
    if race_backend == "rust" and not HAVE_RUST:
        pytest.skip("rust_core is not built")
    ids = [3, 1, 4, 1, 5, 9, 2, 6]
    result = race(race_backend, get_backend(race_backend), ids, vocab_size, d=32)
    assert result.max_abs_diff == 0.0  # x_iᵀE picks a row exactly: no rounding at all
    assert (result.n, result.vocab_size, result.d) == (8, vocab_size, 32)
    assert result.multiply_adds == 8 * vocab_size * 32 and result.copied_numbers == 8 * 32
    assert result.repeats >= MIN_SAMPLES
    assert min(result.one_hot_s, result.matmul_s, result.lookup_s) > 0  # measured, not asserted


def test_race_rejects_ids_outside_the_vocabulary() -> None:
    with pytest.raises(ValueError):
        race("numpy", get_backend("numpy"), [0, 1000], 1000)


def test_random_table_is_seeded_float32() -> None:
    a = random_table(100, 8)
    assert a.dtype == np.float32 and a.shape == (100, 8)
    np.testing.assert_array_equal(a, random_table(100, 8))


def test_median_seconds_keeps_the_minimum_samples_past_the_deadline() -> None:
    calls = []

    def work() -> None:
        calls.append(1)
        time.sleep(0.002)

    median, samples = median_seconds(work, repeats=20, deadline=time.perf_counter())
    assert samples == MIN_SAMPLES  # the deadline is already past: only the required samples
    assert median >= 0.0015  # each call sleeps 2 ms: a floor, whatever else the machine does
    assert len(calls) == MIN_SAMPLES + 1  # plus the warm-up

    _, samples = median_seconds(work, repeats=8, deadline=None)
    assert samples == 8
