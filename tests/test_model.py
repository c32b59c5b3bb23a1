"""The toy Transformer: shapes, agreement across backends, and the properties the pages teach."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.models.toy import (
    EmptyInputError,
    ToyConfig,
    ToyTransformer,
    layer_norm,
    positional_encoding,
    tokenize,
)

from conftest import BACKEND_NAMES, HAVE_RUST


def test_tokenize_words_cjk_emoji_and_apostrophes():
    assert tokenize("Tom loves his dog") == ["tom", "loves", "his", "dog"]
    assert tokenize("我爱我的狗") == ["我", "爱", "我", "的", "狗"]
    assert tokenize("Tom's dog 🐶!") == ["tom's", "dog", "🐶", "!"]
    assert tokenize("   \n\t ") == []


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_trace_shapes_and_backend_agreement(backend):
    cfg = ToyConfig(d_model=12, h=3, d_ff=20, n_layers=2, seed=3)
    text = "Tom loves his dog because his dog loves Tom"
    ref = ToyTransformer(cfg, "numpy").run(text)
    t = ToyTransformer(cfg, backend).run(text)
    n, V = 9, len(t.vocab)
    assert t.tokens == tokenize(text) and t.n == n
    assert t.one_hot.shape == (n, V) and t.embedding_table.shape == (V, 12)
    np.testing.assert_array_equal(t.one_hot @ t.embedding_table, t.embeddings)
    assert len(t.blocks) == 2
    b = t.blocks[0]
    assert b.Q.shape == b.K.shape == b.V.shape == (n, 12)
    assert b.q_heads.shape == (3, n, 4) and b.scores.shape == b.weights.shape == (3, n, n)
    assert b.head_out.shape == (3, n, 4) and b.concat.shape == (n, 12)
    assert b.ffn_hidden.shape == (n, 20) and b.out.shape == (n, 12)
    for name in ("weights", "head_out", "concat", "out"):
        got, want = getattr(b, name), getattr(ref.blocks[0], name)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(t.output, ref.output, rtol=1e-12, atol=1e-12)


def test_attention_is_softmax_of_scaled_scores_times_v():
    t = ToyTransformer(ToyConfig(d_model=8, h=2)).run("Tom loves his dog")
    b = t.blocks[0]
    d_k = 4
    scores = b.q_heads @ b.k_heads.transpose(0, 2, 1) / np.sqrt(d_k)
    np.testing.assert_allclose(b.scores, scores)
    e = np.exp(scores - scores.max(-1, keepdims=True))
    np.testing.assert_allclose(b.weights, e / e.sum(-1, keepdims=True), rtol=1e-12)
    np.testing.assert_allclose(b.head_out, b.weights @ b.v_heads, rtol=1e-12)
    np.testing.assert_allclose(b.concat[:, :4], b.head_out[0])
    np.testing.assert_allclose(b.concat[:, 4:], b.head_out[1])


def test_unscaled_and_causal_options():
    base = ToyTransformer(ToyConfig(d_model=16, h=2, seed=1))
    text = "Tom loves his dog"
    scaled = base.run(text).blocks[0]
    raw = base.with_config(scale=False).run(text).blocks[0]
    np.testing.assert_allclose(raw.scores, scaled.scores * np.sqrt(8))
    causal = base.with_config(causal=True).run(text).blocks[0]
    assert np.all(np.triu(causal.weights[0], k=1) == 0)
    assert causal.weights[0][0, 0] == 1.0  # the first token can only see itself


def test_post_ln_output_rows_are_normalised_and_pre_ln_differs():
    m = ToyTransformer(ToyConfig(d_model=8, h=2, n_layers=2))
    out = m.run("Tom loves his dog").output
    np.testing.assert_allclose(out.mean(-1), 0, atol=1e-12)
    np.testing.assert_allclose(out.var(-1), 1, atol=1e-4)
    pre = m.with_config(norm="pre").run("Tom loves his dog")
    assert not np.allclose(pre.output, out)
    b = pre.blocks[0]
    np.testing.assert_allclose(b.attn_in, layer_norm(b.x_in))
    np.testing.assert_allclose(b.out, b.resid1 + b.ffn_out)


def test_without_positions_shuffling_tokens_permutes_the_output():
    words = "tom loves his dog".split()
    perm = [2, 0, 3, 1]
    text, shuffled = " ".join(words), " ".join(words[i] for i in perm)
    no_pos = ToyTransformer(ToyConfig(positions=False))
    np.testing.assert_allclose(no_pos.run(shuffled).output, no_pos.run(text).output[perm])
    with_pos = ToyTransformer(ToyConfig(positions=True))
    assert not np.allclose(with_pos.run(shuffled).output, with_pos.run(text).output[perm])


def test_positional_encoding_formula():
    pe = positional_encoding(5, 6)
    assert pe.shape == (5, 6)
    np.testing.assert_allclose(pe[3, 2], np.sin(3 / 10000 ** (2 / 6)))
    np.testing.assert_allclose(pe[3, 3], np.cos(3 / 10000 ** (2 / 6)))
    assert positional_encoding(4, 7).shape == (4, 7)  # odd d_model


def test_same_weights_different_sentence_different_qkv():
    m = ToyTransformer()
    a = m.run("Tom loves his dog").blocks[0]
    b = m.run("Anna feeds his cat").blocks[0]
    # Same W^Q; the query of "his" (same position) is the same in the first layer ...
    np.testing.assert_allclose(a.Q[2], b.Q[2])
    # ... but the keys it is compared with, and so its weights, are not.
    assert not np.allclose(a.weights[:, 2], b.weights[:, 2])


def test_bad_configs_and_empty_text_are_clear_errors():
    with pytest.raises(ValueError, match="does not divide d_model"):
        ToyTransformer(ToyConfig(d_model=10, h=3))
    with pytest.raises(EmptyInputError):
        ToyTransformer().run("  ")


def test_long_and_mixed_script_text_runs():
    text = " ".join(["word"] * 200) + " 我爱我的狗 🐶 مرحبا"
    t = ToyTransformer(backend="rust" if HAVE_RUST else "numpy").run(text)
    assert t.n == 200 + 5 + 1 + 1
    assert np.isfinite(t.output).all()
