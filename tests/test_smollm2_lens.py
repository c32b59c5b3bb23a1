"""SmolLM2 read layer by layer (the logit lens) and with parts switched off (ablation).

The lens's last layer must be the model's own reading, bit for bit; an intermediate layer is
checked against an independent NumPy reading of the same residual stream (the norm and the
output layer written out); switching nothing off must change nothing, bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.models.smollm2 import LENS_MAX_TOKENS, LogitLens
from transformer_walk.models.smollm2.lens import best_first, ranks

from smollm2_support import MODEL_SKIP, RUST_SKIP, shared_model

TEXT = "Tom loves his"
needs_model = pytest.mark.skipif(MODEL_SKIP is not None, reason=str(MODEL_SKIP))
needs_rust = pytest.mark.skipif(RUST_SKIP is not None, reason=str(RUST_SKIP))


# --- the NumPy steps, on made-up scores ----------------------------------------------------------


def test_best_first_orders_by_score_then_by_lower_id() -> None:
    logits = np.array([[0.1, 0.9, 0.5, 0.9, -1.0], [3.0, 3.0, 3.0, 0.0, 1.0]], np.float32)
    assert best_first(logits, 3).tolist() == [[1, 3, 2], [0, 1, 2]]
    assert best_first(logits, 5).tolist() == [[1, 3, 2, 0, 4], [0, 1, 2, 4, 3]]


def test_ranks_count_the_tokens_listed_before() -> None:
    rng = np.random.default_rng(0)
    logits = rng.integers(0, 4, size=(6, 9)).astype(np.float32)  # many ties
    order = best_first(logits, 9)
    for token in range(9):
        chosen = np.full(6, token)
        expected = [int(np.flatnonzero(row == token)[0]) for row in order]
        assert ranks(logits, chosen).tolist() == expected


def test_first_top_is_where_the_choice_stays_on_top() -> None:
    def lens(rank: list[int]) -> LogitLens:
        r = np.array(rank)[:, None]  # [L + 1] → [L + 1, 1]
        empty = np.zeros((len(rank), 1, 1))
        return LogitLens("", [""], np.zeros(1), np.zeros(1), empty, empty, np.zeros(1), r, r)

    assert lens([5, 0, 3, 0, 0]).first_top(0) == 3  # on top at layer 1, but not for good
    assert lens([0, 0, 0]).first_top(0) == 0
    assert lens([9, 9, 0]).first_top(0) == 2


# --- the model ---------------------------------------------------------------------------------


@needs_model
@needs_rust
def test_the_last_layer_is_the_models_own_reading_bit_for_bit() -> None:
    model = shared_model("rust")
    found = model.lens(TEXT, k=5)
    ids = model.check_ids(model.tokenize(TEXT))
    logits = model.logits(ids)  # [n, V]
    hidden = model.forward(ids).hidden_states
    assert np.array_equal(model.read_out(hidden[-1])[1], logits)
    assert np.array_equal(found.top_ids[-1], best_first(logits, 5))
    assert np.array_equal(found.chosen, np.argmax(logits, axis=-1))  # the lowest id of ties
    assert (found.chosen_rank[-1] == 0).all()
    z = logits.astype(np.float64)
    p = np.exp(z - z.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    rows = np.arange(len(ids))
    assert np.allclose(found.top_probs[-1, :, 0], p[rows, found.chosen], rtol=1e-6)
    assert 0 <= found.first_top(len(ids) - 1) <= model.config.n_layers


@needs_model
@needs_rust
def test_a_position_read_alone_reads_as_among_all() -> None:
    model = shared_model("rust")
    every, one = model.lens(TEXT, k=4), model.lens(TEXT, k=4, positions=[1])
    assert one.positions.tolist() == [1] and one.top_ids.shape[1] == 1
    assert np.array_equal(one.top_ids[:, 0], every.top_ids[:, 1])
    assert np.array_equal(one.chosen_rank[:, 0], every.chosen_rank[:, 1])
    assert np.allclose(one.top_probs[:, 0], every.top_probs[:, 1], atol=1e-5)


@needs_model
@needs_rust
def test_an_inner_layer_matches_a_reading_written_out_in_numpy() -> None:
    model = shared_model("rust")
    found = model.lens(TEXT, k=10)
    out = model.run(TEXT)
    layers, n = model.config.n_layers, out.n
    assert found.top_ids.shape == (layers + 1, n, 10) and found.top_ids.dtype == np.int64
    assert found.top_probs.shape == (layers + 1, n, 10) and found.top_probs.dtype == np.float64
    assert (np.diff(found.top_probs, axis=-1) <= 0).all()  # best first
    every = np.arange(model.config.vocab_size)
    table = model.embedding.weight.rows(model.with_backend("numpy").backend, every)  # [V, d]
    gamma = np.asarray(model.norm.weight, np.float64)
    for layer in (0, 15):
        x = out.hidden_states[layer].astype(np.float64)  # [n, d_model]
        normed = x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + model.config.eps) * gamma
        logits = normed @ table.astype(np.float64).T  # [n, V]
        assert np.array_equal(found.top_ids[layer, :, 0], np.argmax(logits, axis=-1)), layer
        p = np.exp(logits - logits.max(axis=-1, keepdims=True))
        p /= p.sum(axis=-1, keepdims=True)
        top = np.take_along_axis(p, found.top_ids[layer], axis=-1)
        assert np.allclose(found.top_probs[layer], top, atol=2e-4), layer
        rows = np.arange(n)
        assert np.allclose(found.chosen_prob[layer], p[rows, found.chosen], atol=2e-4)


@needs_model
@needs_rust
def test_logit_lens_is_the_lens_top_k() -> None:
    model = shared_model("rust")
    ids, probs = model.logit_lens(TEXT, k=3)
    found = model.lens(TEXT, k=3)
    assert ids.dtype == np.int64 and probs.dtype == np.float32
    assert np.array_equal(ids, found.top_ids)
    assert np.array_equal(probs, found.top_probs.astype(np.float32))


@needs_model
def test_lens_refuses_what_it_cannot_read() -> None:
    model = shared_model("numpy")
    with pytest.raises(ValueError, match="at least one token"):
        model.lens("")
    with pytest.raises(ValueError, match=f"at most {LENS_MAX_TOKENS}"):
        model.lens("tom " * (LENS_MAX_TOKENS + 5))
    with pytest.raises(ValueError, match="k must be in"):
        model.lens(TEXT, k=0)
    with pytest.raises(TypeError, match="k must be an int"):
        model.lens(TEXT, k="3")  # type: ignore[arg-type]
    with pytest.raises(IndexError, match="position 3 is outside"):
        model.lens("Tom loves his", positions=[3])
    with pytest.raises(ValueError, match="positions is empty"):
        model.lens(TEXT, positions=[])
    with pytest.raises(ValueError, match="pure Python"):
        shared_model("python").lens("Tom")  # 31 read-outs of 49,152 scores: far past its budget


# --- switching parts off -----------------------------------------------------------------------


@needs_model
@needs_rust
def test_switching_nothing_off_changes_nothing_bit_for_bit() -> None:
    model = shared_model("rust")
    plain = model.run(TEXT)
    for off in ({}, {"ablate": ()}, {"ablate_mlp": []}, {"ablate": [], "ablate_mlp": ()}):
        same = model.run(TEXT, **off)
        assert np.array_equal(same.logits, plain.logits)
        assert np.array_equal(same.hidden_states, plain.hidden_states)


@needs_model
@needs_rust
def test_a_head_switched_off_adds_nothing_and_moves_the_logits() -> None:
    model = shared_model("rust")
    plain = model.run(TEXT, trace=True)
    off = model.run(TEXT, trace=True, ablate=[(3, 4), (3, 4)])  # a repeat is the same head
    assert off.layers is not None and plain.layers is not None
    assert not off.layers[3].head_out[4].any() and off.layers[3].head_out[3].any()
    d = model.config.d_head
    assert not off.layers[3].concat[:, 4 * d : 5 * d].any()  # (n, h·d_head): head 4's block
    assert np.array_equal(off.hidden_states[:4], plain.hidden_states[:4])  # layers before it
    assert not np.array_equal(off.hidden_states[4], plain.hidden_states[4])
    assert not np.array_equal(off.logits, plain.logits)


@needs_model
@needs_rust
def test_an_mlp_switched_off_leaves_the_stream_as_attention_left_it() -> None:
    model = shared_model("rust")
    off = model.run(TEXT, trace=True, ablate_mlp=[5])
    assert off.layers is not None
    assert np.array_equal(off.hidden_states[6], off.layers[5].resid1)
    assert off.layers[5].ffn_out.any()  # computed, recorded, not added


@needs_model
@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"ablate": [(30, 0)]}, IndexError, "layer 30 is outside 0 … 29"),
        ({"ablate": [(0, 9)]}, IndexError, "head 9 is outside 0 … 8"),
        ({"ablate": [(0, -1)]}, IndexError, "head -1"),
        ({"ablate": [("0", 1)]}, TypeError, "layer must be an int"),
        ({"ablate": [(0, 1.0)]}, TypeError, "head must be an int"),
        ({"ablate": [(0,)]}, TypeError, "pairs"),
        ({"ablate": [3]}, TypeError, "pairs"),
        ({"ablate": "03"}, TypeError, "pairs"),
        ({"ablate_mlp": [30]}, IndexError, "ablate_mlp layer 30"),
        ({"ablate_mlp": [True]}, TypeError, "ablate_mlp layer must be an int"),
    ],
)
def test_a_part_the_model_does_not_have_is_refused(
    kwargs: dict[str, object], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        shared_model("numpy").run(TEXT, **kwargs)  # type: ignore[arg-type]
