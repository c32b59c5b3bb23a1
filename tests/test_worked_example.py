"""The "Tom loves his dog" trace: the numbers of “From word vectors to Transformer”, through every
backend that imports here."""

from __future__ import annotations

import math

import numpy as np
import pytest

from transformer_walk.app.views import latex as latex_steps
from transformer_walk.core import BACKENDS
from transformer_walk.core.status import backend_status
from transformer_walk.topics.worked_example import (
    DEFAULT_TOKENS,
    InputError,
    check_inputs,
    worked_example,
)

# The article's rounded numbers (eq. 27–30).
ARTICLE_WEIGHTS = [0.649, 0.088, 0.145, 0.119]
ARTICLE_Z = [0.853, 0.292]


def _exact_softmax(scores: list[float]) -> np.ndarray:
    e = [math.exp(s - max(scores)) for s in scores]
    return np.array([x / sum(e) for x in e])


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    status = backend_status(request.param)
    if not status.available:
        pytest.skip(f"backend {request.param!r} is not importable here: {status.error}")
    return request.param


def test_default_trace_has_the_articles_numbers(backend: str) -> None:
    trace = worked_example(backend)
    assert trace.backend == backend
    assert trace.tokens == DEFAULT_TOKENS
    assert trace.query_token == "his"
    np.testing.assert_array_equal(trace.scores, [2.5, 0.5, 1.0, 0.8])
    assert trace.max_score == 2.5
    np.testing.assert_allclose(trace.shifted_scores, [0.0, -2.0, -1.5, -1.7])
    np.testing.assert_allclose(
        trace.shifted_exp, [1.0, math.exp(-2), math.exp(-1.5), math.exp(-1.7)], rtol=1e-12
    )
    assert trace.exp_sum == pytest.approx(1 + math.exp(-2) + math.exp(-1.5) + math.exp(-1.7))
    np.testing.assert_allclose(trace.weights, ARTICLE_WEIGHTS, atol=5e-4)
    np.testing.assert_allclose(trace.weights, _exact_softmax([2.5, 0.5, 1.0, 0.8]), rtol=1e-12)
    assert trace.weights.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(trace.z, ARTICLE_Z, atol=5e-4)


def test_fused_attention_equals_the_weighted_sum(backend: str) -> None:
    trace = worked_example(backend)
    values = np.array([[1, 0], [0, 1], [1, 1], [0.5, 0.5]])
    np.testing.assert_allclose(trace.contributions, trace.weights[:, None] * values)
    np.testing.assert_allclose(trace.weighted_sum, trace.contributions.sum(axis=0))
    np.testing.assert_allclose(trace.z, trace.weighted_sum, atol=1e-12)
    assert trace.fused_difference < 1e-12


def test_winner_runner_up_and_ratio(backend: str) -> None:
    trace = worked_example(backend)
    assert trace.top_index == 0  # Tom
    assert trace.runner_up_index == 2  # his itself (1.0 beats dog's 0.8)
    assert trace.lead_ratio == pytest.approx(math.exp(1.5))
    assert trace.weight_guess_error(0, 0.25) == pytest.approx(0.25 - trace.weights[0])


def test_how_the_winner_won() -> None:
    assert worked_example("numpy").lead_kind == "clear"  # 4.5× the runner-up
    close = worked_example("numpy", scores=[1.2, 1.0, 0.0, 0.0])
    assert close.lead_kind == "close" and close.lead_ratio == pytest.approx(math.exp(0.2))
    tie = worked_example("numpy", scores=[1.0, 1.0, 1.0, 1.0])
    assert tie.lead_kind == "tie" and tie.top_indices == (0, 1, 2, 3)
    assert tie.weight_guess_verdict(0, 0.25) == "close"
    assert tie.weight_guess_verdict(0, 0.9) == "high"
    assert tie.weight_guess_verdict(0, 0.1) == "low"


def test_edited_inputs_flow_through(backend: str) -> None:
    scores = [2.5, 3.0, 1.0, 0.8]
    values = [[2, 0], [0, 2], [1, 1], [0, 0]]
    trace = worked_example(backend, scores=scores, values=values)
    expected = _exact_softmax(scores)
    np.testing.assert_allclose(trace.weights, expected, rtol=1e-12)
    np.testing.assert_allclose(trace.z, expected @ np.array(values, dtype=float), atol=1e-12)
    assert trace.top_index == 1  # loves now wins


def test_backends_agree_with_each_other() -> None:
    names = [name for name in BACKENDS if backend_status(name).available]
    traces = [worked_example(name, scores=[0.3, -1.2, 4.0, 2.2]) for name in names]
    for other in traces[1:]:
        np.testing.assert_allclose(other.weights, traces[0].weights, rtol=1e-12)
        np.testing.assert_allclose(other.z, traces[0].z, atol=1e-12)


def test_large_scores_do_not_overflow() -> None:
    trace = worked_example("numpy", scores=[1000.0, 999.0, -1000.0, 0.0])
    assert np.all(np.isfinite(trace.weights))
    assert trace.weights[0] == pytest.approx(1 / (1 + math.exp(-1)))


@pytest.mark.parametrize(
    ("scores", "code", "cells"),
    [
        ([2.5, None, 1.0, 0.8], "not_a_number", [("s", 1, None)]),  # the editor sends NaN
        ([2.5, "abc", 1.0, 0.8], "not_a_number", [("s", 1, None)]),
        ([2.5, 0.5, float("nan"), 0.8], "not_finite", [("s", 2, None)]),
        ([math.inf, 0.5, 1.0, 0.8], "not_finite", [("s", 0, None)]),
        ([1.0, 2.0], "wrong_shape", []),
    ],
)
def test_bad_scores_raise_input_error(scores: list, code: str, cells: list) -> None:
    with pytest.raises(InputError) as info:
        worked_example("numpy", scores=scores)
    assert info.value.code == code
    assert list(info.value.cells) == cells


def test_every_bad_cell_is_reported_at_once() -> None:
    values = [[1, 0], [0, "x"], [1, 1], [0.5, float("nan")]]
    with pytest.raises(InputError) as info:
        check_inputs([2.5, None, 1.0, 0.8], values, 4)
    assert info.value.cells == (("s", 1, None), ("v", 1, 1), ("v", 3, 1))
    assert info.value.code == "not_a_number"  # "x" is not a number at all


def test_numeric_strings_are_accepted() -> None:
    scores, values = check_inputs(["2.5", "0.5", 1, 0.8], [[1, 0]] * 4, 4)
    assert scores.dtype == np.float64 and values.shape == (4, 2)


def test_latex_shows_the_numbers() -> None:
    trace = worked_example("numpy")
    assert latex_steps.scores(trace).endswith(r"[2.50,\;0.50,\;1.00,\;0.80]")
    assert r"[0.649,\;0.088,\;0.145,\;0.119]" in latex_steps.weights(trace)
    assert latex_steps.weighted_sum(trace).endswith(r"\approx [0.853,\;0.292]")
    assert r"\frac{1.000}{1.541} = 0.649" in latex_steps.softmax_of_top(trace)
    assert latex_steps.number(2.5e-7) == r"2.5 \times 10^{-7}"
    assert latex_steps.number(-0.0001) == r"-1.0 \times 10^{-4}"
    assert latex_steps.number(0.0) == "0.000"
