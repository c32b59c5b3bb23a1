"""The one "pure Python is too slow here, use NumPy" rule (core.budget) and the work its callers
count with it. Counts are checked against sums written out here; nothing is timed."""

from __future__ import annotations

import pytest

from transformer_walk.app.model_widgets import SHORTEST_TEXT_TOKENS
from transformer_walk.bench.lookup_race import race_multiply_adds
from transformer_walk.core.budget import (
    PYTHON_BUDGET_S,
    PYTHON_MULTIPLY_ADDS_PER_S,
    SCORE_MULTIPLY_ADDS,
    attention_multiply_adds,
    backend_for,
    linear_multiply_adds,
    python_seconds,
)
from transformer_walk.models.minilm import CONFIG, PYTHON_LIMIT_S
from transformer_walk.models.toy import BASE_WORDS, ToyConfig
from transformer_walk.topics.checks import LONG_LENGTHS, long_input_multiply_adds

LIMIT = int(PYTHON_MULTIPLY_ADDS_PER_S * PYTHON_BUDGET_S)  # the most work pure Python keeps


def test_only_pure_python_beyond_its_budget_is_replaced_by_numpy() -> None:
    assert python_seconds(LIMIT) == pytest.approx(PYTHON_BUDGET_S)
    assert backend_for("python", 0) == "python"
    assert backend_for("python", LIMIT) == "python"
    assert backend_for("python", LIMIT + 1) == "numpy"
    for fast in ("numpy", "rust"):
        assert backend_for(fast, 1000 * LIMIT) == fast


def test_attention_and_linear_count_their_multiply_adds() -> None:
    # 2 heads, 3 queries, 5 keys of width 4: 30 scores, each 4 multiply-adds and its softmax.
    assert attention_multiply_adds(2, 3, 5, 4) == 30 * (4 + SCORE_MULTIPLY_ADDS)
    assert attention_multiply_adds(2, 3, 5, 4, d_v=6) == 30 * (4 + SCORE_MULTIPLY_ADDS + 6)
    assert linear_multiply_adds(3, 4, 5) == 3 * 4 * 5


def test_the_toy_counts_one_hot_rows_and_one_attention_call_a_block() -> None:
    n, config = 4, ToyConfig(d_model=8, h=2, n_layers=3)
    scores = 2 * n * n  # h · n · n, each of d_k = 4
    attention = scores * (4 + SCORE_MULTIPLY_ADDS + 4)  # attention_with_weights, d_v = 4
    one_hot = n * (n + len(BASE_WORDS))
    assert config.multiply_adds(n) == one_hot + 3 * attention


@pytest.mark.parametrize(
    ("n", "config", "expected"),
    [
        (4, ToyConfig(), "python"),  # the running example
        (200, ToyConfig(), "python"),  # the default toy on a 200-word sentence
        (200, ToyConfig(d_model=64, h=16), "numpy"),  # the Multi-head page's largest sizes
        (1000, ToyConfig(), "numpy"),
        (300, ToyConfig(n_layers=6), "numpy"),
    ],
)
def test_which_toy_runs_pure_python_keeps(n: int, config: ToyConfig, expected: str) -> None:
    assert backend_for("python", config.multiply_adds(n)) == expected


def test_minilm_counts_its_dense_layers_and_attention() -> None:
    per_layer_and_token = 4 * 384 * 384 + 384 * 1536 + 1536 * 384  # Q, K, V, O and the FFN
    attention = 12 * (32 + SCORE_MULTIPLY_ADDS + 32)  # one token attends to itself, 12 heads
    assert CONFIG.multiply_adds(1) == 6 * (per_layer_and_token + attention)
    # About ten million a token: even the shortest text is over budget, so pages use NumPy.
    assert backend_for("python", CONFIG.multiply_adds(SHORTEST_TEXT_TOKENS)) == "numpy"
    # The model itself refuses pure Python beyond its own, larger limit: about 16 tokens.
    assert backend_for("python", CONFIG.multiply_adds(16), PYTHON_LIMIT_S) == "python"
    assert backend_for("python", CONFIG.multiply_adds(17), PYTHON_LIMIT_S) == "numpy"


def test_the_one_hot_race_and_the_long_input_experiment() -> None:
    assert backend_for("python", race_multiply_adds(4, 30_522)) == "python"
    assert backend_for("python", race_multiply_adds(200, 30_522)) == "numpy"
    assert race_multiply_adds(2, 10, d=3) == race_multiply_adds(1, 10, d=3) * 2
    assert backend_for("python", long_input_multiply_adds(LONG_LENGTHS)) == "numpy"
    assert long_input_multiply_adds((10,)) == 8 * 10 * 10 * (2 * (64 + SCORE_MULTIPLY_ADDS) + 64)
