"""transformer_walk.topics.cost: path and operation counts, the crossover, memory, the slope fit,
and that timing returns measured medians (never how fast they are)."""

from __future__ import annotations

import math
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
    q, k, v = cost.random_qkv(5, 4)
    assert q.dtype == np.float32 and q.shape == (5, 4)
    s = (q.astype(float) @ k.T.astype(float)) / 2.0
    a = np.exp(s) / np.exp(s).sum(1, keepdims=True)
    np.testing.assert_allclose(cost.numpy_attention(q, k, v), a @ v, rtol=1e-5, atol=1e-6)


def test_fitted_slope_recovers_a_power_law() -> None:
    ns = [64, 128, 256, 512, 1024]
    assert cost.fitted_slope(ns, [3e-9 * n**2 for n in ns]) == pytest.approx(2.0)
    assert cost.fitted_slope(ns, [n**1.5 for n in ns], min_n=256) == pytest.approx(1.5)
    assert cost.fitted_slope(ns, [1.0] * 5, min_n=1024) is None  # one point: no line


def test_time_attention_yields_every_cell_in_order() -> None:
    calls: list[int] = []

    def lane(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> None:
        calls.append(q.shape[0])

    out = list(cost.time_attention({"a": lane, "b": lane}, [32, 16], 4, repeats=2, budget_s=5))
    assert [(t.lane, t.n) for t in out] == [("a", 16), ("a", 32), ("b", 16), ("b", 32)]
    assert all(t.seconds > 0 and 1 <= t.samples <= 2 for t in out)
    assert set(calls) == {16, 32}


def test_time_attention_skips_cells_past_the_budget() -> None:
    def slow(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> None:
        import time

        time.sleep(0.02)

    out = list(cost.time_attention({"x": slow}, [8, 16, 32, 64], 2, repeats=1, budget_s=0.01))
    assert len(out) == 4 and out[0] is not None and out[-1] is None


def test_one_thread_restores_rust_threads() -> None:
    rust = pytest.importorskip("rust_core")
    before = rust.get_num_threads()
    with cost.one_thread(rust):
        assert rust.get_num_threads() == 1
    assert rust.get_num_threads() == before
    assert math.isfinite(before)


def test_overlapping_measurements_from_two_sessions_restore_the_pool() -> None:
    # Guards against: two sessions measuring at once (Cost and Speed pages share one process)
    # interleaving save/restore — A saves 2, B saves 1 (A's setting), A restores 2, B restores 1 —
    # and leaving every session on one thread.
    import threading

    from transformer_walk import bench

    rust = pytest.importorskip("rust_core")
    rust.set_num_threads(2)
    inside = threading.Event()
    release = threading.Event()

    def measuring_session() -> None:
        with cost.one_thread(rust):
            inside.set()
            release.wait(5)

    a = threading.Thread(target=measuring_session)
    a.start()
    assert inside.wait(5)
    seen = []

    def other_session() -> None:
        with bench._threads(rust, 1):
            seen.append(rust.get_num_threads())

    b = threading.Thread(target=other_session)
    b.start()
    b.join(0.3)
    assert b.is_alive()  # it waits for the first measurement to finish
    release.set()
    a.join(5)
    b.join(5)
    assert seen == [1] and rust.get_num_threads() == 2
