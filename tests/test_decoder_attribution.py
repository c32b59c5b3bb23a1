"""The direct attribution of one SmolLM2 logit (``topics.decoder_attribution``): its terms sum to
the model's own logit within float32 rounding, each layer's head terms to what the model's W^O
product wrote, and the ablation check's controls are other heads of the same layers."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.topics import decoder_attribution as da

from smollm2_support import MODEL_SKIP, shared_model

TEXT = "Tom loves his"
needs_model = pytest.mark.skipif(MODEL_SKIP is not None, reason=str(MODEL_SKIP))


@pytest.fixture(scope="module")
def traced():  # noqa: ANN201 - (model, trace, attribution)
    if MODEL_SKIP is not None:
        pytest.skip(MODEL_SKIP)
    model = shared_model("numpy")
    out = model.run(TEXT, trace=True)
    position = out.n - 1
    token = int(np.argmax(out.logits[position]))
    return model, out, da.attribute(model, out, position, token)


@needs_model
def test_the_terms_sum_to_the_models_logit(traced) -> None:  # noqa: ANN001
    model, out, found = traced
    sizes = abs(found.embedding) + np.abs(found.heads).sum() + np.abs(found.mlps).sum()
    assert found.heads.shape == (30, 9) and found.mlps.shape == (30,)
    assert found.logit == out.logits[found.position, found.token]
    assert abs(found.total - found.logit) <= 1e-5 * sizes  # float32 rounding of the forward


@needs_model
def test_a_layers_head_terms_are_what_its_w_o_product_wrote(traced) -> None:  # noqa: ANN001
    model, out, found = traced
    x = out.hidden_states[-1][found.position].astype(np.float64)
    scale = 1 / np.sqrt(np.mean(x * x) + model.norm.eps)
    row = model.head.rows(model.backend, np.array([found.token]))[0].astype(np.float64)
    direction = scale * model.norm.weight * row
    for layer in (0, 14, 29):
        written = out.layers[layer].attn_out[found.position].astype(np.float64) @ direction
        assert np.isclose(found.heads[layer].sum(), written, rtol=1e-4, atol=1e-4), layer


@needs_model
def test_switching_no_head_off_changes_nothing(traced) -> None:  # noqa: ANN001
    model, _, found = traced
    assert da.logit_change(model, TEXT, found.position, found.token, []) == 0.0


def test_top_heads_are_the_largest_terms_first() -> None:
    heads = np.array([[0.5, -2.0, 3.0], [1.0, 3.0, 0.1]])
    found = da.Attribution(0, 0, 1.0, 0.0, heads, np.zeros(2), 0.0)
    assert found.top_heads(3) == [(0, 2), (1, 1), (1, 0)]  # equal terms: the earlier layer first
    pushing_down = da.Attribution(0, 0, 1.0, 0.0, np.array([[-1.0, 2.0, 0.0]]), np.zeros(1), 0.0)
    assert pushing_down.top_heads(3) == [(0, 1)]  # only heads that raise the logit


def test_the_ablation_verdict_says_falls_or_rises_and_against_which_controls() -> None:
    def verdict(change: float) -> str:
        said = da.ablation_claim(["L1·H1"], "“c”", change, [-1.0, 0.5])
        assert said is not None
        return said.message.rsplit(".", 1)[-1]

    assert [verdict(c) for c in (-2.0, -0.5, 0.0, 0.7)] == [
        "falls_most", "among", "among", "rises_most",
    ]  # fmt: skip
    said = da.ablation_claim(["L1·H1"], "“c”", -0.2, [-1.0, -0.5])
    assert said is not None and said.message.endswith("falls_least")
    said = da.ablation_claim(["L1·H1"], "“c”", 0.1, [0.5, 0.9])
    assert said is not None and said.message.endswith("rises_least")
    assert said.fields["change"] == "+0.10" and da.signed(-1.5) == "−1.50"


def test_controls_are_other_heads_of_the_same_layers() -> None:
    rng = np.random.default_rng(0)
    top = [(3, 4), (3, 5), (7, 0)]
    for controls in da.control_heads(top, 9, 20, rng):
        assert [layer for layer, _ in controls] == [3, 3, 7]
        assert not set(controls) & set(top) and len(set(controls)) == 3
    with pytest.raises(ValueError, match="layer 0 has no head left"):
        da.control_heads([(0, 0), (0, 1)], 2, 1, rng)


@needs_model
def test_bad_positions_and_tokens_are_refused(traced) -> None:  # noqa: ANN001
    model, out, _ = traced
    with pytest.raises(IndexError, match="position 3 is outside"):
        da.attribute(model, out, 3, 0)
    with pytest.raises(IndexError, match="token 49152 is outside"):
        da.attribute(model, out, 0, 49152)
    with pytest.raises(ValueError, match="needs a trace"):
        da.attribute(model, model.run(TEXT), 0, 0)
