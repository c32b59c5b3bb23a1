"""views.next_token: the reshaping the page draws agrees with what ``generate`` samples from, the
loss and perplexity with a direct computation, the key/value cache with the model's own cache,
and the sentences follow their numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from transformer_walk.app.views import next_token as views
from transformer_walk.app.views.labels import readable_piece
from transformer_walk.models.smollm2 import SMOLLM2_135M, KVCache, SmolLM2

from smollm2_support import MODEL_SKIP, shared_model

needs_model = pytest.mark.skipif(MODEL_SKIP is not None, reason=str(MODEL_SKIP))


def test_readable_piece_marks_spaces_and_newlines() -> None:
    assert readable_piece(" wife") == "␣wife"
    assert readable_piece("\n\n") == "⏎⏎"
    assert readable_piece("Tom") == "Tom"
    assert readable_piece("") == "∅"


def test_temperature_reshapes_softmax_of_z_over_t() -> None:
    z = np.array([2.0, 1.0, 0.0, -1.0])
    for temp in (0.5, 1.0, 2.0):
        expected = np.exp(z / temp) / np.exp(z / temp).sum()
        np.testing.assert_allclose(views.distribution(z, temp, None, None), expected, rtol=1e-12)
    greedy = views.distribution(z, 0.0, None, None)
    assert greedy.tolist() == [1.0, 0.0, 0.0, 0.0]
    flat = views.distribution(z, 1e6, None, None)
    np.testing.assert_allclose(flat, 0.25, atol=1e-5)


def test_top_k_and_top_p_cut_then_renormalise() -> None:
    z = np.log(np.array([0.5, 0.3, 0.15, 0.05]))
    np.testing.assert_allclose(views.distribution(z, 1.0, 2, None), [0.625, 0.375, 0, 0])
    # 0.5 + 0.3 reaches 0.75, 0.5 alone does not: two tokens are kept.
    np.testing.assert_allclose(views.distribution(z, 1.0, None, 0.75), [0.625, 0.375, 0, 0])
    np.testing.assert_allclose(
        views.distribution(z, 1.0, None, 0.81), np.array([0.5, 0.3, 0.15, 0]) / 0.95
    )
    with pytest.raises(ValueError, match="temperature"):
        views.distribution(z, -1.0, None, None)
    with pytest.raises(ValueError, match="top_p"):
        views.distribution(z, 1.0, None, 1.5)


def test_top_candidates_are_by_logit_with_both_probabilities() -> None:
    z = np.array([0.0, 3.0, 1.0, 3.0])
    probs = views.distribution(z, 1.0, 1, None)
    top = views.top_candidates(z, probs, 3)
    assert [c.id for c in top] == [1, 3, 2]  # a tie broken by id
    assert [c.probability for c in top] == [1.0, 0.0, 0.0]
    assert top[0].model_probability == pytest.approx(math.exp(3) / (2 * math.exp(3) + 1 + math.e))
    with pytest.raises(ValueError, match="k must"):
        views.top_candidates(z, probs, 0)


def test_token_losses_are_minus_log_softmax_of_the_next_token() -> None:
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(70, 11)).astype(np.float32)  # more rows than one chunk
    ids = rng.integers(0, 11, size=70)
    z = logits.astype(np.float64)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    expected = -logp[np.arange(69), ids[1:]]
    np.testing.assert_allclose(views.token_losses(logits, ids), expected, rtol=1e-12)
    assert views.token_losses(logits[:1], ids[:1]).size == 0
    with pytest.raises(ValueError, match="logits must be"):
        views.token_losses(logits, ids[:5])


def test_perplexity_and_its_reading() -> None:
    assert views.perplexity(np.array([])) is None
    assert views.perplexity(np.log(np.array([4.0, 16.0]))) == pytest.approx(8.0)
    assert views.perplexity_reading(None, 100)[0] == "next_token.ppl.none"
    assert views.perplexity_reading(1.5, 100)[0] == "next_token.ppl.sure"
    key, fields = views.perplexity_reading(8.0, 100)
    assert key == "next_token.ppl.between" and fields["ppl"] == "8.0"
    assert views.perplexity_reading(11.0, 100) == (
        "next_token.ppl.lost",
        {"ppl": "11.0", "vocab": "100", "share": "11%"},
    )


def test_kv_cache_bytes_follow_the_config_and_the_models_cache() -> None:
    cfg = SMOLLM2_135M
    assert cfg.kv_bytes_per_token() == 2 * 30 * 3 * 64 * 4 == 46_080
    size = views.cache_size(cfg, 10)
    assert size.total == 460_800 and size.per_token_full == 3 * size.per_token
    assert size.saving == pytest.approx(2 / 3)
    cache = KVCache(cfg.n_layers, cfg.h_kv, cfg.d_head)
    for layer in cache.layers:  # ten positions through the model's own cache
        layer.append(np.zeros((cfg.h_kv, 10, cfg.d_head), np.float32), np.zeros_like(
            np.zeros((cfg.h_kv, 10, cfg.d_head), np.float32)))  # fmt: skip
    assert cache.nbytes == size.total


def test_speed_reading_and_rates() -> None:
    assert views.tokens_per_second(0, 1.0) is None and views.tokens_per_second(3, 0.0) is None
    assert views.tokens_per_second(10, 0.5) == 20.0
    assert views.speed_reading(None, 3.0)[0] == "next_token.speed.pending"
    key, fields = views.speed_reading(300.0, 30.0)
    assert key == "next_token.speed.faster" and fields["ratio"] == "10.0"
    assert views.speed_reading(40.0, 35.0)[0] == "next_token.speed.similar"
    assert views.speed_reading(20.0, 35.0)[0] == "next_token.speed.slower"


def test_a_certain_token_has_zero_bits_never_minus_zero() -> None:
    assert f"{views.entropy_bits(np.array([1.0, 0.0, 0.0])):.2f}" == "0.00"
    assert f"{views.entropy_bits(np.array([1.0 + 1e-12, 1e-13])):.2f}" == "0.00"


def test_the_speed_bars_have_a_row_height_of_their_own() -> None:
    """A fixed chart height drew one or two bars about 1 px thick in the app: each bar gets a
    step instead, whatever the number of rows."""
    from transformer_walk.app.charts.next_token import speed_bars

    for rows in (1, 2):
        spec = speed_bars([f"way {i}" for i in range(rows)], [3.0] * rows, rate_title="r")
        assert spec.to_dict()["height"] == {"step": 36}


def test_the_causal_heat_map_draws_masked_cells_grey_without_numbers() -> None:
    from transformer_walk.app.charts.next_token import MASKED_GREY, causal_heatmap

    masked = views.masked_attention(np.tril(np.full((3, 3), 0.5)))
    spec = causal_heatmap(masked, ["a", "b", "c"], query_title="q", key_title="k", value_title="w")
    cells = spec["data"]["values"]
    hidden = [c for c in cells if c["value"] is None]
    assert len(hidden) == 3 and all(c["text"] == "" for c in hidden)
    assert spec["layer"][0]["mark"]["color"] == MASKED_GREY
    assert spec["layer"][0]["transform"] == [{"filter": "datum.value === null"}]


def test_masked_attention_hides_the_upper_triangle() -> None:
    w = np.tril(np.full((3, 3), 0.5))
    masked = views.masked_attention(w)
    assert np.isnan(masked[0, 1]) and np.isnan(masked[0, 2]) and np.isnan(masked[1, 2])
    assert masked[2, 0] == 0.5 and masked[1, 1] == 0.5
    with pytest.raises(ValueError, match="square"):
        views.masked_attention(np.zeros((2, 3)))


@pytest.fixture(scope="module")
def model() -> SmolLM2:
    return shared_model("numpy")


@needs_model
def test_the_page_reshaping_is_what_generate_samples_from(model: SmolLM2) -> None:
    ids = model.tokenize("Tom loves his")
    last = model.logits(ids)[-1]
    for temp, k, p in ((0.7, None, None), (1.3, 5, None), (1.0, None, 0.5), (0.0, None, None)):
        step = model.generate(ids, 1, temperature=temp, top_k=k, top_p=p, seed=1).steps[0]
        probs = views.distribution(last, temp, k, p)
        # The same bits: logits(ids)[-1] is the one-row head generate scores (SmolLM2.forward).
        np.testing.assert_array_equal(probs[step.top_ids], step.top_sample_probs)
        top = views.top_candidates(last, probs, len(step.top_ids))
        assert [c.id for c in top] == step.top_ids.tolist()
        assert probs[step.id] > 0  # the sampled token is one the page gives a chance


@needs_model
def test_prompt_losses_match_the_models_logits(model: SmolLM2) -> None:
    ids = model.tokenize("Tom loves his")
    logits = model.logits(ids).astype(np.float64)
    losses = views.token_losses(model.logits(ids), ids)
    for t in range(2):
        p = np.exp(logits[t] - logits[t].max())
        assert losses[t] == pytest.approx(-math.log(p[ids[t + 1]] / p.sum()), rel=1e-9)
