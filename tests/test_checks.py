"""The live experiments of the Check yourself page: each must show what its question claims."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.models.minilm.wordpiece import WordPieceUnavailable, load_tokenizer
from transformer_walk.models.toy import ToyConfig, ToyTransformer, tokenize
from transformer_walk.topics import checks

from conftest import HAVE_RUST
from smollm2_support import model_skip_reason, shared_model

SMOL_REASON = model_skip_reason()

BACKENDS = ("python", "numpy")


def test_check_text_cuts_long_sentences_and_replaces_too_short_ones() -> None:
    assert checks.check_text("") == (checks.DEFAULT_SENTENCE, True)
    assert checks.check_text("dog") == (checks.DEFAULT_SENTENCE, True)
    long = " ".join(f"w{i}" for i in range(200))
    text, default = checks.check_text(long)
    assert not default and tokenize(text) == tokenize(long)[: checks.MAX_TOKENS]
    assert checks.check_text("我爱我的狗") == ("我 爱 我 的 狗", False)


def test_rare_word_has_more_tokens_than_words() -> None:
    try:
        tokenizer = load_tokenizer()
    except WordPieceUnavailable:
        pytest.skip("MiniLM tokenizer not installed")
    count = checks.token_count(checks.RARE_WORD_SENTENCE, tokenizer)
    assert count.words == 4 and count.toy_tokens == 4
    assert count.wordpiece_n > count.words + 2  # more than [CLS] + [SEP] on top of the words
    assert count.pieces[0] == "[CLS]" and count.pieces[-1] == "[SEP]"
    assert checks.token_count("a b", None).wordpiece_n is None


@pytest.mark.parametrize("backend", BACKENDS)
def test_d_model_512_runs_inputs_longer_than_512(backend: str) -> None:
    result = checks.long_input(backend, lengths=(3, 520))
    assert result.backend == "numpy"  # pure Python is replaced, NumPy stays
    assert [r.n for r in result.runs] == [3, 520]
    assert result.runs[1].x_shape == (520, 512)
    assert result.runs[1].weights_shape == (8, 520, 520)
    assert all(r.finite and r.max_row_sum_error < 1e-9 for r in result.runs)
    assert len(tokenize(checks.filler_text(600))) == 600


@pytest.mark.parametrize("backend", BACKENDS)
def test_parameters_fixed_activations_not(backend: str) -> None:
    r = checks.activations_change("Tom loves his dog", backend)
    assert r.texts[0].split()[0] == r.texts[1].split()[0] == r.token == "tom"
    assert r.texts[0] != r.texts[1]
    assert r.w_q_difference == 0.0
    assert r.q_difference > 1e-3
    assert r.q_difference == pytest.approx(np.abs(r.q_first - r.q_second).max())


@pytest.mark.parametrize("backend", BACKENDS)
def test_changing_v_keeps_the_weights_and_changes_the_output(backend: str) -> None:
    r = checks.values_and_weights("Tom loves his dog", backend)
    assert r.weights_difference == 0.0
    assert r.output_difference > 0.1
    # The unmodified run matches a fresh model (the re-seeding touched only that copy).
    fresh = ToyTransformer(ToyConfig(), backend).run("Tom loves his dog")
    np.testing.assert_allclose(r.weights, fresh.blocks[0].weights[0])


def test_raw_dot_product_against_projected() -> None:
    r = checks.raw_vs_projected("Tom loves his dog", "numpy")
    assert r.tokens[r.query] == "his"
    x = ToyTransformer(ToyConfig(), "numpy").run("Tom loves his dog").x0
    s = x[2] @ x.T / np.sqrt(8)
    np.testing.assert_allclose(r.raw, np.exp(s) / np.exp(s).sum())
    assert r.raw.sum() == pytest.approx(1) and r.projected.sum() == pytest.approx(1)


def test_heads_have_their_own_columns_and_rows() -> None:
    r = checks.heads_differ("Tom loves his dog", "numpy", h=4)
    assert (r.h, r.d_k) == (4, 2) and r.column_blocks_differ
    assert r.rows.shape == (4, 4)
    assert np.abs(r.rows[0] - r.rows[1]).max() > 1e-3


def test_seeds_route_differently() -> None:
    r = checks.weights_by_seed("Tom loves his dog", "numpy")
    assert r.weights_by_seed.shape == (len(checks.SEEDS), 4)
    np.testing.assert_allclose(r.weights_by_seed.sum(1), 1.0)
    assert len(set(r.top_keys)) > 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_causal_prefixes_match_the_single_pass(backend: str) -> None:
    r = checks.causal_prefixes("Tom loves his dog today", backend)
    assert (r.parallel_passes, r.sequential_passes) == (1, 5)
    assert r.max_difference < 1e-9


@pytest.mark.parametrize("backend", BACKENDS)
def test_symmetry_and_order(backend: str) -> None:
    s = checks.symmetry("Tom loves his dog", backend)
    assert s.pair == (2, 0)
    assert s.a_ij == pytest.approx(s.weights[2, 0]) and s.a_ji == pytest.approx(s.weights[0, 2])
    assert s.max_asymmetry > 0.05
    o = checks.order_check("Tom loves his dog", backend)
    assert o.shuffled == ["dog", "his", "loves", "tom"]
    assert o.without_positions < 1e-9
    assert o.with_positions > 1e-2


def test_prefill_decode_verdict_and_ratio() -> None:
    slow = checks.PrefillDecode(4, 0.01, 0.05)
    assert slow.ratio == pytest.approx(5.0) and slow.verdict == "slower"
    quick = checks.PrefillDecode(4, 0.05, 0.04)
    assert quick.verdict == "not_slower"
    assert checks.PrefillDecode(0, 0.0, 0.0).ratio == 0.0


@pytest.mark.skipif(SMOL_REASON is not None, reason=SMOL_REASON or "")
def test_prefill_vs_decode_on_smollm2() -> None:
    model = shared_model("rust" if HAVE_RUST else "numpy")
    r = checks.prefill_vs_decode(model, "Tom loves his dog")
    assert r.n == 4 and r.prefill_seconds > 0 and r.decode_seconds > 0
    long = checks.prefill_vs_decode(model, " ".join(["word"] * 40))
    assert long.n == checks.REAL_TOKENS  # cut to 16
    # Which of the two is slower is measured, not asserted (no test holds wall-clock time): the
    # verdict follows its own numbers.
    assert long.verdict == (
        "slower" if long.decode_seconds > long.prefill_seconds else "not_slower"
    )
    assert checks.prefill_vs_decode(model, "").n == len(model.tokenize(checks.check_text("")[0]))
    with pytest.raises(ValueError, match="most"):
        checks.prefill_vs_decode(model, "dog", most=0)
