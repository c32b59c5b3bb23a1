"""The key/value cache walked step by step (``topics.decoder_cache``): each step writes its tokens'
rows, the cached keys are those a forward over the whole text computes, the chosen tokens are
greedy generation's, the weights are distributions over the cache, the bytes agree three ways
(the file's tensors, the config, the cache's arrays), and the check against a forward without a
cache fails when the cache is wrong."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.topics import decoder_cache as cache

from smollm2_support import MODEL_SKIP, RUST_SKIP, shared_model

BACKEND = "numpy" if RUST_SKIP is not None else "rust"
PROMPT = "Tom loves his dog"


@pytest.fixture(scope="module")
def model():  # noqa: ANN201 - SmolLM2
    if MODEL_SKIP is not None:
        pytest.skip(MODEL_SKIP)
    return shared_model(BACKEND)


@pytest.fixture(scope="module")
def walked(model):  # noqa: ANN001, ANN201 - CacheWalk
    return cache.walk(model, model.tokenize(PROMPT))


def test_each_step_writes_its_tokens_and_takes_the_last_choice(model, walked) -> None:  # noqa: ANN001
    prompt = model.tokenize(PROMPT)
    steps = walked.steps
    assert len(steps) == cache.NEW_TOKENS + 1
    assert steps[0].ids.tolist() == prompt and steps[0].start == 0
    for before, step in zip(steps, steps[1:], strict=False):
        assert step.ids.tolist() == [before.chosen] and step.start == before.length
        assert step.length == step.start + 1
    assert walked.ids.tolist() == prompt + [s.chosen for s in steps[:-1]]
    greedy = model.generate(prompt, cache.NEW_TOKENS + 1, stop_at_end=False)
    assert greedy.ids.tolist() == [s.chosen for s in steps]


def test_the_weights_are_the_newest_querys_over_the_cache(model, walked) -> None:  # noqa: ANN001
    cfg = model.config
    for step in walked.steps:
        assert step.weights.shape == (cfg.n_layers, cfg.h, step.length)
        assert np.allclose(step.weights.sum(axis=-1), 1.0, atol=1e-5)
    out = model.run(model.decode(walked.ids.tolist()))
    assert out.n == len(walked.ids)
    last = walked.steps[-1]
    assert np.allclose(last.weights, out.attentions[:, :, -1, :], atol=2e-3)


def test_the_cached_keys_and_values_are_a_whole_forwards(model, walked) -> None:  # noqa: ANN001
    traced = model.run(model.decode(walked.ids.tolist()), trace=True).layers
    assert traced is not None
    keys = np.stack([layer.k_rot for layer in traced])  # L × (h_kv, n, d) → (L, h_kv, n, d)
    values = np.stack([layer.v for layer in traced])
    assert walked.keys.shape == keys.shape == walked.values.shape
    scale = np.abs(keys).max()
    assert np.abs(walked.keys - keys).max() <= 1e-3 * scale
    assert np.abs(walked.values - values).max() <= 1e-3 * np.abs(values).max()


def test_the_bytes_agree_from_the_file_the_config_and_the_arrays(model, walked) -> None:  # noqa: ANN001
    per = cache.cache_bytes(model)
    assert per.per_token == model.config.kv_bytes_per_token() == 46_080
    assert per.per_token_full == model.config.kv_bytes_per_token(model.config.h)
    for step in walked.steps:
        assert step.cache_bytes == per.per_token * step.length
    assert walked.keys.nbytes + walked.values.nbytes == walked.steps[-1].cache_bytes


def test_a_decoding_step_is_cheaper_than_recomputing(walked) -> None:  # noqa: ANN001
    first = walked.steps[0]
    assert first.multiply_adds == first.recompute_multiply_adds
    for step in walked.steps[1:]:
        assert step.multiply_adds < step.recompute_multiply_adds


def test_the_check_holds_and_fails_for_a_wrong_cache(model, walked) -> None:  # noqa: ANN001
    assert cache.same_claim(walked.last_logits, walked.recomputed_logits) is not None
    # the last token written at the position before its own: another text, other logits
    ids = walked.ids.copy()
    ids[-1], ids[-2] = ids[-2], ids[-1]
    other = model.forward(ids, last_only=True).logits[-1]
    assert cache.same_claim(walked.last_logits, other) is None


def test_bad_counts_and_prompts_are_refused(model) -> None:  # noqa: ANN001
    for count in (0, cache.MAX_NEW_TOKENS + 1):
        with pytest.raises(ValueError, match="new_tokens"):
            cache.walk(model, [1, 2], count)
    with pytest.raises(ValueError, match="empty"):
        cache.walk(model, [])
