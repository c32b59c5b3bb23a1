"""The One-hot page's race (bench.lookup_race): one-hot @ E and the lookup agree, and the timing
stays within its budget (on a fake clock: nothing here depends on how fast the machine is)."""

from __future__ import annotations

import types

import numpy as np
import pytest

from transformer_walk.bench.lookup_race import (
    RACE_REPEATS,
    race,
    race_multiply_adds,
    race_tokens,
    random_table,
)
from transformer_walk.core import get_backend

from conftest import HAVE_RUST, FakeClock


@pytest.mark.parametrize(
    ("race_backend", "vocab_size"),
    [("python", 1_000), ("numpy", 1_000), ("numpy", 50_000), ("rust", 1_000), ("rust", 50_000)],
)
def test_race_agrees(race_backend: str, vocab_size: int) -> None:
    if race_backend == "rust" and not HAVE_RUST:
        pytest.skip("rust_core is not built")
    ids = [3, 1, 4, 1, 5, 9, 2, 6]
    result = race(race_backend, get_backend(race_backend), ids, vocab_size, d=32, budget_s=0.06)
    assert result.max_abs_diff == 0.0  # x_iᵀE picks a row exactly: no rounding at all
    assert (result.n, result.vocab_size, result.d) == (8, vocab_size, 32)
    assert result.multiply_adds == 8 * vocab_size * 32 and result.copied_numbers == 8 * 32
    assert 1 <= result.repeats <= RACE_REPEATS
    assert min(result.one_hot_s, result.matmul_s, result.lookup_s) > 0  # measured, not asserted


def test_race_keeps_to_its_budget_on_a_slow_backend(fake_clock: FakeClock) -> None:
    """Every backend call "takes" 50 ms of fake time: the check takes 100 ms, then each of the
    three steps may overrun its third of the budget by at most the one probe call."""
    numpy = get_backend("numpy")

    def slow(fn):  # noqa: ANN001, ANN202 - a wrapper of any backend function
        def call(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            fake_clock.advance(0.05)
            return fn(*args, **kwargs)

        return call

    backend = types.SimpleNamespace(
        one_hot=slow(numpy.one_hot), embedding_lookup=slow(numpy.embedding_lookup)
    )
    start = fake_clock.now()
    result = race("slow", backend, [1, 2, 3], 100, d=4, budget_s=0.6, clock=fake_clock)  # type: ignore[arg-type]
    assert fake_clock.now() - start <= 0.1 + 0.6 + 0.05
    assert result.one_hot_s == pytest.approx(0.05) and result.lookup_s == pytest.approx(0.05)
    assert 1 <= result.repeats < RACE_REPEATS  # the budget, not the repeat count, ended it


def test_race_rejects_ids_outside_the_vocabulary() -> None:
    with pytest.raises(ValueError, match=r"ids must be in \[0, 1000\)"):
        race("numpy", get_backend("numpy"), [0, 1000], 1000)


def test_long_sentences_race_their_first_tokens_and_count_their_work() -> None:
    assert race_tokens(10, 50_000) == 10
    assert race_tokens(2_000, 50_000) == 320  # 16 million one-hot cells at most
    assert race_multiply_adds(2, 10, d=3) == 2 * race_multiply_adds(1, 10, d=3)
    assert race_multiply_adds(1, 10, d=3) == (1 + 1 + RACE_REPEATS) * (10 + 3)


def test_random_table_is_seeded_float32() -> None:
    a = random_table(100, 8)
    assert a.dtype == np.float32 and a.shape == (100, 8)
    np.testing.assert_array_equal(a, random_table(100, 8))
