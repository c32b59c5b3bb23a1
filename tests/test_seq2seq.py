"""The toy encoder–decoder: states, the alignment construction and the bottleneck experiment."""

from __future__ import annotations

import math

import numpy as np
import pytest

from transformer_walk.core import get_backend
from transformer_walk.topics.seq2seq import PAIRS, Encoder, ToyPair, mirror_pair, readback, run


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_encoder_states_follow_the_recurrence() -> None:
    enc = Encoder.init(6, seed=2)
    x = enc.embed(["tom", "loves", "his", "dog"])  # (4, 6)
    h = enc.states(x)
    prev = np.zeros(6)
    for t in range(4):
        prev = np.tanh(enc.W_x @ x[t] + enc.W_h @ prev)
        np.testing.assert_allclose(h[t], prev)
    # batched states equal one-by-one states
    batch = enc.states(np.stack([x, x[::-1]]))  # (2, 4, 6)
    np.testing.assert_allclose(batch[0], h)
    np.testing.assert_allclose(batch[1], enc.states(x[::-1]))
    assert np.linalg.norm(enc.W_h, 2) == pytest.approx(0.8)  # contracting: old inputs fade


def test_mirror_pair_reverses_and_aligns_anti_diagonally() -> None:
    pair = mirror_pair(["a", "b", "c"])
    assert pair.target == ("c", "b", "a")
    assert pair.alignment == ((2,), (1,), (0,))
    with pytest.raises(ValueError):
        ToyPair("x", ("a",), ("b", "c"), ((0,),))
    with pytest.raises(ValueError):
        ToyPair("x", ("a",), ("b",), ((3,),))


@pytest.mark.parametrize("backend_name", ["python", "numpy"])
def test_run_matches_an_independent_computation(backend_name: str) -> None:
    pair = PAIRS["fr"]
    trace = run(pair, get_backend(backend_name), backend_name, d=8, sharpness=3.0)
    enc = Encoder.init(8, 0)
    x = enc.embed(pair.source)
    h = enc.states(x)
    q = np.tanh(np.stack([x[list(a)].mean(0) for a in pair.alignment]) @ enc.W_x.T)
    scores = q @ h.T * 3.0 / math.sqrt(8)
    alpha = _softmax(scores)
    np.testing.assert_allclose(trace.scores, scores)
    np.testing.assert_allclose(trace.weights, alpha, atol=1e-12)
    np.testing.assert_allclose(trace.contexts, alpha @ h, atol=1e-12)
    np.testing.assert_allclose(trace.fixed_context, h[-1])
    np.testing.assert_allclose(trace.weights.sum(axis=1), 1.0)


def test_the_construction_recovers_the_reordering() -> None:
    be = get_backend("numpy")
    for pair in [*PAIRS.values(), mirror_pair("tom loves his dog".split())]:
        trace = run(pair, be, "numpy", d=16, sharpness=4.0)
        assert trace.aligned_hits == len(pair.target), pair.key
        assert trace.weight_on_aligned.min() > 0.4, pair.key
    fr = run(PAIRS["fr"], be, "numpy", d=16)
    assert fr.top_source == [0, 2, 1, 3]  # le→the, chat→cat, noir→black, dort→sleeps
    # more sharpness, more peaked weights
    soft = run(PAIRS["fr"], be, "numpy", d=16, sharpness=0.5)
    assert soft.weights.max() < fr.weights.max()


def test_the_fixed_context_forgets_early_words() -> None:
    rows = {r.length: r for r in readback(d=8, lengths=(1, 2, 16), n_train=600, n_test=300)}
    chance = 1 / 16
    assert rows[1].first_from_final > 0.6  # one word: its own state holds it
    assert rows[16].first_from_final < chance + 0.1  # sixteen words later it is gone
    assert rows[16].mean_from_own > 0.6  # but each word's own state still holds it
    last = rows[16].per_position_final
    assert last[-1] > last[0] + 0.3  # recent words survive in h_T, early ones do not
    assert len(last) == 16


def test_a_bigger_state_remembers_more() -> None:
    small = readback(d=4, lengths=(3,), n_train=600, n_test=300)[0]
    big = readback(d=32, lengths=(3,), n_train=600, n_test=300)[0]
    assert big.mean_from_final > small.mean_from_final


def test_empty_source_is_refused() -> None:
    with pytest.raises(ValueError):
        run(mirror_pair([]), get_backend("numpy"), "numpy")
