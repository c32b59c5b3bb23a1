"""The 2017 vs today derivations (topics.then_and_now) and their sentences (views.then_and_now),
on constructed vectors whose answers are known."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.app.views import bpe
from transformer_walk.app.views import then_and_now as views
from transformer_walk.app.views.labels import human_bytes, readable_piece
from transformer_walk.core import get_backend
from transformer_walk.models.smollm2.config import SMOLLM2_135M
from transformer_walk.models.toy import ToyConfig
from transformer_walk.topics import then_and_now as tan

BE = get_backend("numpy")


def test_design_rows_read_the_configs() -> None:
    rows = {r.row: r for r in tan.design_rows(ToyConfig(), SMOLLM2_135M)}
    assert list(rows) == ["norm", "positions", "ffn", "heads", "mask", "sizes"]
    assert rows["norm"].toy == "layernorm_post" and rows["norm"].smol_fields == {"eps": "1e-05"}
    assert rows["heads"].smol_fields == {"h": 9, "h_kv": 3, "d_k": 64}
    assert rows["heads"].toy_fields == {"h": 2, "d_k": 4}
    assert rows["mask"].toy == "bidirectional" and rows["mask"].smol == "causal"
    assert rows["positions"].smol_fields == {"base": "100,000"}
    other = {
        r.row: r for r in tan.design_rows(ToyConfig(norm="pre", causal=True, d_ff=7), SMOLLM2_135M)
    }
    assert other["norm"].toy == "layernorm_pre" and other["mask"].toy == "causal"
    assert other["ffn"].toy_fields == {"d_ff": 7}


def test_rope_depends_on_the_offset_only() -> None:
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal(64), rng.standard_normal(64)
    starts = np.arange(0, 200, 20)
    dots = tan.offset_dots(BE, q, k, starts, 5, 10000.0)
    assert dots.rope_spread < 1e-9 * abs(dots.rope).max()
    assert dots.added_spread > 0.1
    assert tan.spread_verdict(dots) == "same"
    # At p = 0, Δ = 0 nothing turns: the plain dot product.
    zero = tan.offset_dots(BE, q, k, np.array([0]), 0, 10000.0)
    assert zero.rope[0] == pytest.approx(float(q @ k))
    # A different offset gives a different score (the check is not constant by construction).
    other = tan.offset_dots(BE, q, k, starts, 6, 10000.0)
    assert abs(other.rope[0] - dots.rope[0]) > 1e-3
    with pytest.raises(ValueError, match="even length"):
        tan.offset_dots(BE, q[:63], k[:63], starts, 1, 10000.0)
    with pytest.raises(ValueError, match="≥ 0"):
        tan.offset_dots(BE, q, k, starts, -1, 10000.0)


def test_verdict_sees_a_varying_rope() -> None:
    dots = tan.OffsetDots(np.arange(3), 1, np.array([1.0, 1.5, 2.0]), np.array([1.0, 3.0, 0.0]))
    assert tan.spread_verdict(dots) == "rope_varies"
    flat = tan.OffsetDots(np.arange(3), 1, np.ones(3), np.ones(3))
    assert tan.spread_verdict(flat) == "added_same"
    said = views.rope_sentence(dots)
    assert said is not None and said.message == "then_and_now.rope.rope_varies"
    assert said.fields["spread"] == "1.0e+00"


def test_the_rope_check_needs_a_real_key_and_says_when_it_disagrees() -> None:
    """The check against the trace is made only for a key Δ places before the query (Δ = i − j,
    never an offset clamped to the first token), and agrees only when the numbers do."""
    rng = np.random.default_rng(1)
    q, k = rng.standard_normal(64), rng.standard_normal(64)
    dots = tan.offset_dots(BE, q, k, np.arange(0, 400, 25), 3, 10000.0)
    here = tan.offset_dots(BE, q, k, np.array([1]), 3, 10000.0)
    score = float(here.rope[0])
    said = views.rope_trace_check(dots, here, score, 4, 1)
    assert said is not None and said.message == "then_and_now.rope.trace"
    assert said.fields["delta"] == 3 and said.fields["here"] == f"{score:.4f}"
    assert said.fields["low"] == said.fields["high"] == f"{score:.4f}"
    apart = views.rope_trace_check(dots, here, score + 0.5, 4, 1)
    assert apart is not None and apart.message == "then_and_now.rope.trace_apart"
    # the old page's pair: Δ = 32 with the query at 4 clamped the key to 0, i − j = 4 ≠ 32
    wide = tan.offset_dots(BE, q, k, np.arange(0, 400, 25), 32, 10000.0)
    clamped = tan.offset_dots(BE, q, k, np.array([0]), 4, 10000.0)
    assert views.rope_trace_check(wide, clamped, float(clamped.rope[0]), 4, 0) is None


def test_gqa_map_and_cache() -> None:
    reads = tan.kv_head_map(SMOLLM2_135M)
    assert reads.shape == (9, 3)
    assert (reads.sum(1) == 1).all() and (reads.sum(0) == 3).all()
    assert reads[2, 0] == reads[3, 1] == reads[8, 2] == 1
    # 2 (K and V) · 30 layers · 3 heads · 64 · 4 bytes
    assert SMOLLM2_135M.kv_bytes_per_token() == 46080
    assert SMOLLM2_135M.kv_bytes_per_token(9) == 3 * 46080
    with pytest.raises(ValueError, match="kv_heads"):
        SMOLLM2_135M.kv_bytes_per_token(0)
    said = views.gqa_sentence(SMOLLM2_135M)
    fields = said.fields
    assert said.message == "then_and_now.gqa.saving"
    assert fields["ratio"] == "3" and fields["values"] == "11,520"
    assert fields["gqa"] == "360.0 MiB" and fields["full"] == "1.1 GiB"  # · 8192 tokens


def test_norms_on_one_vector() -> None:
    x = np.array([1.0, 2.0, 3.0, 6.0])  # mean 3
    cmp = tan.compare_norms(x, 0.0)
    assert cmp.mean == 3.0
    assert cmp.rms == pytest.approx(np.sqrt(50 / 4))
    assert cmp.std == pytest.approx(np.sqrt(3.5))
    assert cmp.layer_out_mean == pytest.approx(0.0, abs=1e-12)
    assert cmp.rms_out_mean == pytest.approx(3.0 / np.sqrt(12.5))
    assert cmp.mean_share == pytest.approx(3.0 / np.sqrt(12.5))
    said = views.norm_sentence(cmp)
    assert said is not None and said.message == "then_and_now.norm.says"
    assert said.fields["share"] == "84.9%" and said.fields["mean"] == "3.0000"
    centred = views.norm_sentence(tan.compare_norms(x - x.mean(), 0.0))
    assert centred is not None and centred.message == "then_and_now.norm.says_centred"
    assert centred.fields["rms_mean"] == "0.0e+00"  # never "-0.0000" or "keeps it" for nothing
    with pytest.raises(ValueError, match="non-empty"):
        tan.compare_norms(np.array([]), 1e-5)


def test_zero_shares_and_sentence() -> None:
    gate = np.array([-0.2, -0.01, 0.0, 0.03, 1.0])
    shares = tan.zero_shares(gate)
    assert shares.exact == 0.2 and shares.near == 0.6 and shares.negative == 0.4
    assert shares.minimum == -0.2
    relu_values = np.maximum(0.0, np.array([-1.0, 2.0, -3.0, 4.0]))
    assert tan.zero_shares(relu_values).exact == 0.5
    said = views.ffn_sentence(gate, relu_values, "1 · tom")
    assert said is not None and said.message == "then_and_now.ffn.says"
    fields = said.fields
    assert fields["near"] == "60.0%" and fields["relu"] == "50.0%" and fields["exact"] == "20.0%"
    assert fields["toy_d_ff"] == 4
    # no contrast to draw when every value near zero is exactly zero
    plain = views.ffn_sentence(np.array([-0.5, 0.0, 1.0]), relu_values, "1 · tom")
    assert plain is not None and plain.message == "then_and_now.ffn.counts"
    counts, edges = tan.histogram(gate, bins=4)
    assert counts.sum() == 5 and len(edges) == 5
    with pytest.raises(ValueError, match="no values"):
        tan.zero_shares(np.array([]))


def test_traced_prefix_and_pieces() -> None:
    offsets = [(0, 3), (3, 9), (9, 13)]
    assert views.traced_prefix("Tom loves his", offsets, 5) == "Tom loves his"
    assert views.traced_prefix("Tom loves his", offsets, 2) == "Tom loves"
    with pytest.raises(ValueError):
        views.traced_prefix("x", offsets, 0)
    assert readable_piece(" loves") == "␣loves"
    assert human_bytes(46080) == "45.0 KiB" and human_bytes(12) == "12 B"


def test_bpe_summary_compares_with_wordpiece() -> None:
    split = bpe.BpeSplit([1, 2, 3], ["Tom", "␣loves", "␣dog"])
    assert split.n == 3 and split.spaced == 2
    assert bpe.bpe_summary(split, 4, 3) == (
        "tokens.bpe.summary.fewer",
        {"n": 3, "words": 3, "spaced": 2, "wordpiece": 4},
    )
    assert bpe.bpe_summary(split, 3, 3)[0] == "tokens.bpe.summary.same"
    assert bpe.bpe_summary(split, 2, 3)[0] == "tokens.bpe.summary.more"
    assert bpe.bpe_summary(split, None, 3) == (
        "tokens.bpe.summary.alone",
        {"n": 3, "words": 3, "spaced": 2},
    )
