"""Q, K, V helpers: the bilinear form of §13, the weighted sum of §14, rows across two sentences."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from transformer_walk.app.views import qkv
from transformer_walk.models.toy import ToyConfig, ToyTransformer


@pytest.fixture(scope="module")
def model() -> ToyTransformer:
    return ToyTransformer(ToyConfig(d_model=8, h=2, n_layers=2), "numpy")


def test_head_columns() -> None:
    assert qkv.head_columns(0, 4) == slice(0, 4)
    assert qkv.head_columns(1, 4) == slice(4, 8)


def test_matching_matrix_is_wq_times_wk_transposed(model: ToyTransformer) -> None:
    w = model.weights[0]
    M = qkv.matching_matrix(w, 1, 4)
    assert M.shape == (8, 8)
    np.testing.assert_allclose(M, w.W_Q[:, 4:8] @ w.W_K[:, 4:8].T)
    assert not np.allclose(M, M.T)  # so s_ij ≠ s_ji in general


def test_bilinear_form_equals_q_dot_k_for_every_pair(model: ToyTransformer) -> None:
    trace = model.run("Tom loves his dog")
    for head, i, j in itertools.product(range(2), range(4), range(4)):
        check = qkv.pair_check(trace, model.weights[0], head, i, j)
        assert check.difference < 1e-12
        q = trace.blocks[0].Q[i, head * 4 : (head + 1) * 4]
        k = trace.blocks[0].K[j, head * 4 : (head + 1) * 4]
        assert check.dot == pytest.approx(float(q @ k), abs=1e-12)
        assert check.score == pytest.approx(check.dot / 2.0, abs=1e-12)  # 1/√d_k, d_k = 4
        assert check.scale == pytest.approx(0.5)


def test_pair_check_without_scaling_and_on_the_python_backend() -> None:
    m = ToyTransformer(ToyConfig(d_model=4, h=1, scale=False), "python")
    trace = m.run("a b c")
    check = qkv.pair_check(trace, m.weights[0], 0, 2, 0)
    assert check.scale == 1.0
    assert check.score == pytest.approx(check.dot, abs=1e-12)
    assert check.difference < 1e-12


def test_the_page_calls_rounding_only_what_is_not_zero() -> None:
    """Guards against "they differ by 0.0e+00, which is floating-point rounding": a difference of
    exactly 0 is no rounding, and the page must say the two routes agree to the last bit."""
    q, k = np.zeros(2), np.zeros(2)
    same = qkv.PairCheck(0, 0, 0, q, k, dot=0.75, bilinear=0.75, score=0.375, scale=0.5)
    apart = qkv.PairCheck(0, 0, 0, q, k, dot=0.75, bilinear=0.75 + 2**-50, score=0.375, scale=0.5)
    assert same.message_id == "qkv.pair.identical"
    assert apart.message_id == "qkv.pair.same"


def test_mix_check_is_the_weighted_sum_of_values(model: ToyTransformer) -> None:
    trace = model.run("Tom loves his dog")
    mix = qkv.mix_check(trace, 1, 2)
    np.testing.assert_allclose(mix.z_by_hand, mix.weights @ trace.blocks[0].v_heads[1])
    assert mix.weights.sum() == pytest.approx(1.0)
    assert mix.difference < 1e-12


def test_first_layer_rows_change_only_where_the_token_changed(model: ToyTransformer) -> None:
    a, b = model.run("Tom loves his dog"), model.run("Tom loves her cat")
    rows = qkv.compare_rows(a, b, layer=0)
    assert [r.changed for r in rows] == [False, False, True, True]
    assert rows[0].q_diff == 0.0 and rows[0].input_diff == 0.0
    assert rows[2].token_a == "his" and rows[2].token_b == "her"


def test_second_layer_rows_all_change(model: ToyTransformer) -> None:
    a, b = model.run("Tom loves his dog"), model.run("Tom loves her cat")
    assert all(r.changed for r in qkv.compare_rows(a, b, layer=1))


def test_same_word_at_another_position_gets_another_row(model: ToyTransformer) -> None:
    a, b = model.run("dog Tom"), model.run("Tom dog")
    assert all(r.changed for r in qkv.compare_rows(a, b))


def test_different_lengths_leave_missing_rows_unknown(model: ToyTransformer) -> None:
    rows = qkv.compare_rows(model.run("Tom loves"), model.run("Tom loves his dog"))
    assert [r.changed for r in rows] == [False, False, None, None]
    assert rows[3].token_a is None and rows[3].token_b == "dog"


def test_comparing_two_models_is_refused(model: ToyTransformer) -> None:
    other = ToyTransformer(ToyConfig(d_model=8, h=2, n_layers=2, seed=1), "numpy")
    with pytest.raises(ValueError):
        qkv.compare_rows(model.run("Tom"), other.run("Tom"))
