"""What the Self-attention and Multi-head pages select and derive from a trace (views.attention,
and the queries and pairs they start from, topics.attention_picks)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from transformer_walk.app.views import attention as views
from transformer_walk.app.views.window import window
from transformer_walk.models.toy import ToyConfig, ToyTransformer, tokenize
from transformer_walk.topics import attention_picks as picks


@pytest.fixture(scope="module")
def trace():
    return ToyTransformer(ToyConfig(), "numpy").run("Tom loves his dog")


@pytest.fixture(scope="module")
def wide_trace():
    return ToyTransformer(ToyConfig(d_model=12, h=3), "numpy").run("the cat sat on the cat")


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# --- heads and widths -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("d_model", "expected"),
    [
        (8, [1, 2, 4, 8]),
        (12, [1, 2, 3, 4, 6, 12]),
        (7, [1, 7]),
        (64, [1, 2, 4, 8, 16]),
        (2, [1, 2]),
    ],
)
def test_valid_head_counts_are_the_divisors_up_to_h_max(d_model: int, expected: list[int]) -> None:
    assert views.valid_head_counts(d_model) == expected
    for h in expected:
        ToyConfig(d_model=d_model, h=h).validate()  # the model agrees: each one is accepted


@pytest.mark.parametrize(("d_model", "h"), [(8, 3), (12, 5), (7, 2), (64, 12)])
def test_every_other_h_is_what_the_model_rejects(d_model: int, h: int) -> None:
    assert h not in views.valid_head_counts(d_model)
    with pytest.raises(ValueError, match="does not divide"):
        ToyConfig(d_model=d_model, h=h).validate()


@pytest.mark.parametrize(
    ("d_model", "h", "closest"),
    [(8, 3, 2), (8, 5, 4), (8, 7, 8), (12, 5, 4), (7, 4, 1), (7, 5, 7), (64, 12, 8), (8, 4, 4)],
)
def test_closest_valid_head_count(d_model: int, h: int, closest: int) -> None:
    assert views.closest_valid_head_count(d_model, h) == closest


def test_head_shapes_of_the_original_base_model() -> None:
    shapes = views.HeadShapes(n=10, d_model=512, h=8)
    assert shapes.d_k == 64
    assert shapes.head == (10, 64)
    assert shapes.concat == (10, 512)
    assert shapes.w_o == (512, 512)
    assert shapes.out == (10, 512)


def test_projection_parameters_are_four_d_model_squared_whatever_h() -> None:
    assert views.attention_parameters(512) == 1_048_576
    assert views.attention_parameters(8) == 256
    for h in views.valid_head_counts(48):
        p = views.ProjectionParameters(48, h)
        assert p.per_head_matrix == 48 * (48 // h)
        assert p.qkv == 3 * 48 * 48
        assert p.total == views.attention_parameters(48)
    base = views.ProjectionParameters(views.BASE_D_MODEL, views.BASE_H)
    assert (base.d_k, base.per_head_matrix, base.total) == (64, 512 * 64, 4 * 512**2)


def test_projection_parameters_match_the_toy_models_matrices() -> None:
    model = ToyTransformer(ToyConfig(d_model=12, h=3), "numpy")
    w = model.weights[0]
    counted = sum(m.size for m in (w.W_Q, w.W_K, w.W_V, w.W_O))
    assert counted == views.ProjectionParameters(12, 3).total


# --- one head's matrix ---------------------------------------------------------------------


def test_layer_weights_are_the_softmax_of_the_recorded_scores(trace) -> None:  # noqa: ANN001
    weights = views.layer_weights(trace)
    assert weights.shape == (2, 4, 4)
    np.testing.assert_allclose(weights, _softmax(trace.blocks[0].scores), atol=1e-12)
    np.testing.assert_allclose(views.row_sums(weights), np.ones((2, 4)), atol=1e-12)


@pytest.mark.parametrize("head", [0, 1])
@pytest.mark.parametrize("i", [0, 2, 3])
def test_query_row_weighted_sum_equals_the_heads_output(trace, head: int, i: int) -> None:  # noqa: ANN001
    row = views.query_row(trace, head, i)
    b = trace.blocks[0]
    # Independently: softmax(q_i · K_headᵀ / √d_k) · V_head.
    q, k, v = b.q_heads[head], b.k_heads[head], b.v_heads[head]
    a = _softmax(q[i] @ k.T / math.sqrt(trace.config.d_k))
    np.testing.assert_allclose(row.weights, a, atol=1e-12)
    np.testing.assert_allclose(row.contributions, a[:, None] * v, atol=1e-12)
    np.testing.assert_allclose(row.weighted_sum, a @ v, atol=1e-12)
    np.testing.assert_allclose(row.trace_output, b.head_out[head, i])
    assert row.difference < 1e-12
    assert row.top == int(np.argmax(a))


def test_query_row_difference_notices_a_wrong_output(trace) -> None:  # noqa: ANN001
    row = views.query_row(trace, 0, 1)
    broken = views.QueryRow(row.index, row.weights, row.values, row.trace_output + 0.5)
    assert broken.difference == pytest.approx(0.5)


def test_asymmetry_is_antisymmetric_and_nonzero_for_the_toy(trace) -> None:  # noqa: ANN001
    a = views.layer_weights(trace)[0]
    gap = picks.asymmetry(a)
    np.testing.assert_allclose(gap, -gap.T)
    np.testing.assert_allclose(np.diag(gap), 0)
    assert np.abs(gap).max() > 0.05  # the toy's matrix is far from symmetric
    i, j = picks.most_asymmetric_pair(a)
    assert i != j
    assert gap[i, j] == pytest.approx(np.abs(gap).max())
    assert a[i, j] > a[j, i]


def test_asymmetry_of_a_symmetric_matrix_is_zero() -> None:
    s = np.array([[0.5, 0.2], [0.2, 0.5]])
    np.testing.assert_array_equal(picks.asymmetry(s), np.zeros((2, 2)))
    assert picks.most_asymmetric_pair(np.ones((1, 1))) == (0, 0)


def test_default_pair_and_query_follow_the_seed(trace) -> None:  # noqa: ANN001
    weights = views.layer_weights(trace)[0]
    assert picks.default_pair(trace.tokens, weights) == (2, 0)  # (his, tom)
    assert picks.default_query(trace.tokens) == 2
    assert picks.default_query(["a", "b", "c"]) == 2  # the last token
    assert picks.default_query(["at", "sea", ",", "."]) == 1  # the last word, not punctuation
    assert picks.default_query([",", "."]) == 1  # no word at all: the last token
    animal = tokenize("The animal didn't cross the street because it was too tired.")
    assert animal[picks.default_query(animal)] == "it"  # a pronoun, not the last word "tired"
    assert picks.default_query(tokenize("她说他爱他的狗")) == 4  # the last pronoun, 他 of 他的
    assert picks.default_query(tokenize("her cat saw his dog")) == 3  # "his" first, wherever
    assert picks.default_pair(["a", "b", "c"], weights[:3, :3]) == picks.most_asymmetric_pair(
        weights[:3, :3]
    )


@pytest.mark.parametrize("backend", ["python", "numpy"])
def test_causal_mask_empties_the_upper_triangle(backend: str) -> None:
    text = "Tom loves his dog"
    free = ToyTransformer(ToyConfig(), backend).run(text)
    masked = ToyTransformer(ToyConfig(causal=True), backend).run(text)
    assert views.upper_triangle_mass(views.layer_weights(free)) > 0.5
    assert views.upper_triangle_mass(views.layer_weights(masked)) == 0.0
    for head in range(2):
        assert views.visible_keys(views.layer_weights(masked)[head], 0) == [0]
        assert views.visible_keys(views.layer_weights(masked)[head], 3) == [0, 1, 2, 3]
        assert views.visible_keys(views.layer_weights(free)[head], 0) == [0, 1, 2, 3]
    np.testing.assert_allclose(views.layer_weights(masked)[:, 0, 0], 1.0)


def test_upper_triangle_mass_counts_only_above_the_diagonal() -> None:
    a = np.array([[0.5, 0.25, 0.25], [0.1, 0.6, 0.3], [0.2, 0.3, 0.5]])
    assert views.upper_triangle_mass(a) == pytest.approx(0.25 + 0.25 + 0.3)
    assert views.upper_triangle_mass(np.stack([a, a])) == pytest.approx(1.6)


def test_score_count_is_quadratic() -> None:
    assert views.score_count(4) == 16
    assert views.score_count(4, h=2) == 32
    assert views.score_count(200) == 4 * views.score_count(100)


# --- multi-head ------------------------------------------------------------------------------


def test_query_rows_by_head(wide_trace) -> None:  # noqa: ANN001
    rows = views.query_rows_by_head(wide_trace, 2)
    assert rows.shape == (3, 6)
    for head in range(3):
        np.testing.assert_array_equal(rows[head], wide_trace.blocks[0].weights[head, 2])


def test_concat_is_the_heads_side_by_side(wide_trace) -> None:  # noqa: ANN001
    b = wide_trace.blocks[0]
    assert b.concat.shape == (6, 12) and b.head_out.shape == (3, 6, 4)
    np.testing.assert_array_equal(b.concat[:, 4:8], b.head_out[1])  # head 2's block, by hand
    assert views.concat_difference(wide_trace) == 0.0


def test_concat_difference_notices_a_wrong_order(wide_trace) -> None:  # noqa: ANN001
    b = wide_trace.blocks[0]
    original = b.concat
    try:
        b.concat = b.head_out.reshape(6, 12)  # (h, n, d_k) flattened the wrong way
        assert views.concat_difference(wide_trace) > 0.1
    finally:
        b.concat = original


def test_output_difference_uses_w_o(wide_trace) -> None:  # noqa: ANN001
    w_o = ToyTransformer(ToyConfig(d_model=12, h=3), "numpy").weights[0].W_O
    assert views.output_difference(wide_trace, w_o) < 1e-12
    assert views.output_difference(wide_trace, w_o.T) > 0.01


# --- the token window of long sentences -----------------------------------------------------


@pytest.mark.parametrize(
    ("n", "start", "size", "expected"),
    [
        (4, 0, 24, (0, 4)),
        (50, 0, 24, (0, 24)),
        (50, 40, 24, (26, 50)),
        (50, -3, 24, (0, 24)),
        (100, 90, 40, (60, 100)),
        (10, 3, 40, (0, 10)),
    ],
)
def test_window(n: int, start: int, size: int, expected: tuple[int, int]) -> None:
    assert window(n, start, size) == expected
