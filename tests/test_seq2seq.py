"""The untrained read-back probe: the tanh encoder's states and what a linear read-out recovers
from h_T against h_i. (The trained encoder–decoders: tests/test_gru_seq2seq.py.)"""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.topics.seq2seq import Encoder, readback


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


def test_the_own_state_verdict_on_both_sides_of_readable() -> None:
    from transformer_walk.topics.seq2seq import ReadbackRow, own_state_verdict

    def row(own: float) -> ReadbackRow:
        return ReadbackRow(length=4, first_from_final=0.5, mean_from_final=0.5,
                           mean_from_own=own, per_position_final=(0.5,) * 4)  # fmt: skip

    assert own_state_verdict([row(0.99), row(0.9)]) == "readable"  # at the bound: readable
    assert own_state_verdict([row(0.99), row(0.899)]) == "crowded"  # one length below it
    assert own_state_verdict([]) == "crowded"
