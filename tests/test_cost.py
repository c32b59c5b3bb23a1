"""transformer_walk.topics.cost: path and operation counts, the crossover, memory, the formula the
Cost page times and the slope fit (the timing itself is bench's: tests/test_bench.py)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from transformer_walk.topics import cost

ROOT = Path(__file__).resolve().parents[1]


def test_paths_follow_table_1_of_the_paper() -> None:
    rnn, cnn, attn = cost.layer_costs(n=10, d=8, k=3)
    assert (rnn.max_path, rnn.sequential_steps, rnn.operations) == (9, 10, 10 * 64)
    # width 3: each layer widens the view by 2 tokens; 9 gaps need 5 layers
    assert (cnn.max_path, cnn.sequential_steps, cnn.operations) == (5, 1, 3 * 10 * 64)
    assert (attn.max_path, attn.sequential_steps, attn.operations) == (1, 1, 100 * 8)


@pytest.mark.parametrize("n", [1, 2, 3, 17, 1000])
@pytest.mark.parametrize("k", [2, 3, 5])
def test_cnn_layers_are_the_fewest_that_see_all_n(n: int, k: int) -> None:
    layers = cost.cnn_layers_to_connect(n, k)
    assert 1 + layers * (k - 1) >= n
    assert layers == 0 or 1 + (layers - 1) * (k - 1) < n


def test_cnn_kernel_must_span_two_tokens() -> None:
    with pytest.raises(ValueError):
        cost.cnn_layers_to_connect(5, 1)


def test_crossover_is_where_the_terms_meet() -> None:
    d = 512
    n, attn, dense = cost.crossover_curve(d, 4096)
    assert np.all(np.diff(n) > 0) and n[0] == 1 and n[-1] == 4096
    assert np.all((attn > dense) == (n > cost.crossover_n(d)))
    assert cost.attention_ops(d, d) == cost.dense_ops(d, d) == d**3


def test_memory_full_matrix_is_quadratic_tile_is_constant() -> None:
    assert cost.score_matrix_bytes(2048) == 2048 * 2048 * 4
    assert cost.score_matrix_bytes(10, heads=8) == 8 * 100 * 4
    assert cost.tiled_working_bytes(10) == 10 * 10 * 4
    big = cost.TILE_QUERIES * cost.TILE_KEYS * 4
    assert cost.tiled_working_bytes(4096) == cost.tiled_working_bytes(1 << 20) == big


def test_tile_sizes_match_rust_core_source() -> None:
    source = (ROOT / "rust_core" / "src" / "attention.rs").read_text()
    block_q = int(re.search(r"const BLOCK_Q: usize = (\d+);", source).group(1))
    block_k = int(re.search(r"const BLOCK_K: usize = (\d+);", source).group(1))
    assert (cost.TILE_QUERIES, cost.TILE_KEYS) == (block_q, block_k)


def test_numpy_attention_is_the_formula() -> None:
    q, k, v = np.random.default_rng(0).standard_normal((3, 5, 4), dtype=np.float32)  # 3 × [5, 4]
    s = (q.astype(float) @ k.T.astype(float)) / 2.0
    a = np.exp(s) / np.exp(s).sum(1, keepdims=True)
    np.testing.assert_allclose(cost.numpy_attention(q, k, v), a @ v, rtol=1e-5, atol=1e-6)


def test_fitted_slope_recovers_a_power_law() -> None:
    ns = [64, 128, 256, 512, 1024]
    assert cost.fitted_slope(ns, [3e-9 * n**2 for n in ns]) == pytest.approx(2.0)
    assert cost.fitted_slope(ns, [n**1.5 for n in ns], min_n=256) == pytest.approx(1.5)
    assert cost.fitted_slope(ns, [1.0] * 5, min_n=1024) is None  # one point: no line
