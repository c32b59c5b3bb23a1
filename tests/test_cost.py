"""transformer_walk.topics.cost: path and operation counts, the crossover, memory, the formula the
Cost page times and the slope fit (the timing itself is bench's: tests/test_bench.py)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.topics import cost
from transformer_walk.topics.claims import Claim

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
    source = (ROOT / "rust_core" / "src" / "kernels" / "attention.rs").read_text()
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


# --- What the fitted slope may say (fixed synthetic timings, no clock) ---------------------------

SIZES = [64, 128, 256, 512, 1024, 2048]


def _timings(p: float, wobble: list[float] | None = None) -> list[float]:
    """t = 1 ns · n^p, each point times exp(wobble) (log-normal noise, fixed here)."""
    wobble = wobble or [0.0] * len(SIZES)
    return [1e-9 * n**p * math.exp(w) for n, w in zip(SIZES, wobble, strict=True)]


def test_the_slope_interval_comes_from_the_spread_of_the_points() -> None:
    clean = cost.slope_fit(SIZES, _timings(2.0), min_n=256)
    assert clean is not None and clean.points == 4
    assert clean.slope == pytest.approx(2.0) and clean.half_width == pytest.approx(0, abs=1e-9)
    wobble = [0.0, 0.0, 0.05, -0.05, 0.05, -0.05]
    noisy = cost.slope_fit(SIZES, _timings(2.0, wobble), min_n=256)
    assert noisy is not None and noisy.low is not None and noisy.high is not None
    # by hand: x = ln n, residual spread s = √(SSE / 2), se = s / √Σ(x − x̄)², t(0.975, 2) = 4.303
    x = np.log(SIZES[2:])
    y = np.log(_timings(2.0, wobble)[2:])
    slope, intercept = np.polyfit(x, y, 1)
    s = math.sqrt(((y - slope * x - intercept) ** 2).sum() / 2)
    reach = 4.302652729911275 * s / math.sqrt(((x - x.mean()) ** 2).sum())
    assert (noisy.low, noisy.high) == pytest.approx((slope - reach, slope + reach))
    two = cost.slope_fit(SIZES[:4], _timings(2.0)[:4], min_n=256)
    assert two is not None and two.points == 2 and two.low is None and two.half_width is None


@pytest.mark.parametrize(
    ("p", "wobble", "kind"),
    [
        (2.0, [0.0, 0.0, 0.02, -0.02, 0.02, -0.01], "quadratic"),
        (0.59, [0.0, 0.0, 0.02, -0.02, 0.02, -0.01], "below"),  # the slopes the review saw
        (1.39, [0.0, 0.0, 0.02, -0.02, 0.02, -0.01], "below"),
        (3.00, [0.0, 0.0, 0.02, -0.02, 0.02, -0.01], "above"),
        (3.36, [0.0, 0.0, 0.02, -0.02, 0.02, -0.01], "above"),
        (2.0, [0.0, 0.0, 0.6, -0.6, 0.6, -0.6], "noisy"),  # scattered: nothing to read
        (1.39, [0.0, 0.0, 0.5, -0.7, 0.1, 0.4], "noisy"),
    ],
)
def test_p_near_2_only_when_the_interval_holds_2(p: float, wobble: list[float], kind: str) -> None:
    said = cost.growth(SIZES, _timings(p, wobble), 256)
    assert said is not None and said.message == f"cost.fit.{kind}"
    fit = cost.slope_fit(SIZES, _timings(p, wobble), 256)
    assert fit is not None and said.fields["slope"] == f"{fit.slope:.2f}"
    assert said.fields["low"] == f"{fit.low:.2f}" and said.fields["high"] == f"{fit.high:.2f}"
    assert ("reach" in said.fields) == (kind == "noisy")


def test_two_sizes_say_there_is_no_spread_and_one_says_nothing() -> None:
    said = cost.growth([128, 256, 512], [1e-6, 4e-6, 1.6e-5], 256)
    assert said == Claim("cost.fit.two_points", {"slope": "2.00", "points": 2})
    assert cost.growth([128, 256], [1e-6, 4e-6], 256) is None
    assert cost.two_places(-0.001) == "0.00"  # never "-0.00"


def test_the_sentences_read_the_fields_in_both_languages() -> None:
    said = cost.growth(SIZES, _timings(1.39, [0.0, 0.0, 0.02, -0.02, 0.02, -0.01]), 256)
    assert said is not None
    for language in LANGUAGES:
        text = translate(said.message, language, **said.fields)
        assert said.fields["slope"] in text and said.fields["low"] in text
        assert "2" in text and "≈ 2" not in text
