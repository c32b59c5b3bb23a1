"""The 2017 vs today page's sentences: each a message id and the fields computed from the numbers
it interprets (``topics.then_and_now``), so the page only looks them up."""

from __future__ import annotations

import numpy as np

from transformer_walk.app.views.labels import human_bytes
from transformer_walk.models.smollm2.config import SmolLM2Config
from transformer_walk.topics import then_and_now as tan
from transformer_walk.topics.claims import Claim, claim, percent

#: The RoPE sentence by ``tan.spread_verdict``.
ROPE_SAYS = {
    "same": "then_and_now.rope.same",
    "rope_varies": "then_and_now.rope.rope_varies",
    "added_same": "then_and_now.rope.added_same",
}
#: The model's trace is float32: its turned q · k and the same dot product turned here in float64
#: agree to about 1e-7 of their size; this much apart is still rounding, not another score.
TRACE_TOLERANCE = 1e-5


def _rope_fields(dots: tan.OffsetDots) -> dict[str, object]:
    return {
        "value": f"{float(dots.rope.mean()):.4f}",
        "spread": f"{dots.rope_spread:.1e}",
        "added_spread": f"{dots.added_spread:.3f}",
        "delta": dots.delta,
    }


def _rope_holds(said: Claim, dots: tan.OffsetDots) -> bool:
    verdict = ROPE_SAYS[tan.spread_verdict(dots)]
    return said.message == verdict and dict(said.fields) == _rope_fields(dots)


@claim(_rope_holds)
def rope_sentence(dots: tan.OffsetDots) -> Claim:
    """What the chart of q · k over p shows (``tan.spread_verdict``): RoPE's score the same at
    every p while the added encoding's varies, RoPE's varying, or neither varying."""
    return Claim(ROPE_SAYS[tan.spread_verdict(dots)], _rope_fields(dots))


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= TRACE_TOLERANCE * max(1.0, abs(a), abs(b))


def _trace_agrees(dots: tan.OffsetDots, here: tan.OffsetDots, traced: float) -> bool:
    """The model's own score, the one turned here at its real positions, and every score of the
    chart (the same offset at other p) all agree to rounding."""
    score = float(here.rope[0])
    return _close(traced, score) and all(_close(score, float(v)) for v in dots.rope)


def _trace_holds(
    said: Claim, dots: tan.OffsetDots, here: tan.OffsetDots, traced: float, i: int, j: int
) -> bool:
    agrees = _trace_agrees(dots, here, traced)
    return (
        0 <= j <= i
        and i - j == dots.delta == here.delta
        and list(here.starts) == [j]
        and said.fields["i"] == i
        and said.fields["j"] == j
        and said.fields["delta"] == i - j
        and said.fields["traced"] == f"{traced:.4f}"
        and said.fields["here"] == f"{float(here.rope[0]):.4f}"
        and said.fields["low"] == f"{float(dots.rope.min()):.4f}"
        and said.fields["high"] == f"{float(dots.rope.max()):.4f}"
        and said.message
        == ("then_and_now.rope.trace" if agrees else "then_and_now.rope.trace_apart")
    )


@claim(_trace_holds)
def rope_trace_check(
    dots: tan.OffsetDots, here: tan.OffsetDots, traced: float, i: int, j: int
) -> Claim | None:
    """The chart checked against the model: ``traced`` is the model's own turned q · k of the
    query at position i and the key at j (from 0); ``here`` the same vectors turned here at
    (p + Δ, p) = (i, j). Made only when Δ = i − j is the chart's offset (a key Δ places before the
    query, never a clamped one); says whether the three agree to rounding or how far apart."""
    if not (0 <= j <= i and i - j == dots.delta == here.delta and list(here.starts) == [j]):
        return None
    fields: dict[str, object] = {
        "i": i,
        "j": j,
        "delta": i - j,
        "traced": f"{traced:.4f}",
        "here": f"{float(here.rope[0]):.4f}",
        "low": f"{float(dots.rope.min()):.4f}",
        "high": f"{float(dots.rope.max()):.4f}",
    }
    agrees = _trace_agrees(dots, here, traced)
    return Claim("then_and_now.rope.trace" if agrees else "then_and_now.rope.trace_apart", fields)


def _gqa_holds(said: Claim, cfg: SmolLM2Config) -> bool:
    """Recomputed from the config's sizes: 2 · L · h_kv · d_head numbers a token, and h / h_kv
    times as many without grouping."""
    per_token = 2 * cfg.n_layers * cfg.h_kv * cfg.d_head
    f = said.fields
    if said.message == "then_and_now.gqa.no_saving":
        return cfg.h_kv == cfg.h and f == {"values": f"{per_token:,}", "h": cfg.h}
    context = cfg.context_length
    return (
        said.message == "then_and_now.gqa.saving"
        and cfg.h_kv < cfg.h
        and f["values"] == f"{per_token:,}"
        and f["h"] == cfg.h
        and float(str(f["ratio"])) == cfg.h / cfg.h_kv
        and f["context"] == f"{context:,}"
        and f["full"] == human_bytes(4 * per_token * cfg.h // cfg.h_kv * context)
        and f["gqa"] == human_bytes(4 * per_token * context)
    )


@claim(_gqa_holds)
def gqa_sentence(cfg: SmolLM2Config) -> Claim:
    """What grouping the key/value heads saves in the cache, from the model's sizes; that it
    saves nothing when every query head has its own key/value head."""
    gqa = cfg.kv_bytes_per_token()
    full = cfg.kv_bytes_per_token(cfg.h)
    values = f"{cfg.kv_bytes_per_token(nbytes=1):,}"
    if cfg.h_kv == cfg.h:
        return Claim("then_and_now.gqa.no_saving", {"values": values, "h": cfg.h})
    return Claim(
        "then_and_now.gqa.saving",
        {
            "values": values,
            "h": cfg.h,
            "ratio": f"{full / gqa:g}",
            "context": f"{cfg.context_length:,}",
            "full": human_bytes(full * cfg.context_length),
            "gqa": human_bytes(gqa * cfg.context_length),
        },
    )


def _shows_zero(value: float, digits: int = 4) -> bool:
    return f"{abs(value):.{digits}f}" == f"{0:.{digits}f}"


def tiny(value: float) -> str:
    """A value near 0 in scientific notation, but an exact 0 as "0" ("0.0e+00" reads as a
    formatting slip, and a kernel may well centre a row exactly)."""
    return "0" if value == 0 else f"{value:.1e}"


def _norm_claim(cmp: tan.NormComparison) -> Claim:
    centred = _shows_zero(cmp.rms_out_mean) or not _close(cmp.layer_out_mean, 0.0)
    if centred:  # nothing for RMSNorm to keep that shows (or LayerNorm did not centre)
        return Claim(
            "then_and_now.norm.says_centred",
            {
                "mean": f"{cmp.mean:.1e}",
                "share": percent(cmp.mean_share, 1),
                "ln_mean": tiny(cmp.layer_out_mean),
                "rms_mean": f"{cmp.rms_out_mean:.1e}",
            },
        )
    return Claim(
        "then_and_now.norm.says",
        {
            "mean": f"{cmp.mean:.4f}",
            "share": percent(cmp.mean_share, 1),
            "ln_mean": tiny(cmp.layer_out_mean),
            "rms_mean": f"{cmp.rms_out_mean:.4f}",
        },
    )


def _norm_holds(said: Claim, cmp: tan.NormComparison) -> bool:
    expected = _norm_claim(cmp)  # "keeps it" needs a mean that shows, "removes it" a 0
    return said.message == expected.message and dict(said.fields) == dict(expected.fields)


@claim(_norm_holds)
def norm_sentence(cmp: tan.NormComparison) -> Claim:
    """What the two norms did to the vector's mean: LayerNorm removed it and RMSNorm kept it,
    said only when RMSNorm's mean shows at the four decimals printed and LayerNorm's is rounding;
    otherwise that the vector's mean was too small to tell them apart, with the numbers."""
    return _norm_claim(cmp)


def _norm_check_message(error: float, size: float) -> str:
    within = error <= TRACE_TOLERANCE * max(1.0, size)
    return "then_and_now.norm.check" if within else "then_and_now.norm.check_apart"


def _norm_check_holds(said: Claim, error: float, size: float) -> bool:
    return said.message == _norm_check_message(error, size) and dict(said.fields) == {
        "error": f"{error:.1e}"
    }


@claim(_norm_check_holds)
def norm_check(error: float, size: float) -> Claim:
    """The RMSNorm worked out here (times γ) against the model's recorded one: ``error`` the
    largest gap, ``size`` the largest |value|. "Matches" only within float32 rounding."""
    return Claim(_norm_check_message(error, size), {"error": f"{error:.1e}"})


def _ffn_fields(gate: np.ndarray, relu: np.ndarray, toy_token: str) -> dict[str, object]:
    g, r = tan.zero_shares(gate), tan.zero_shares(relu)
    return {
        "near": percent(g.near, 1),
        "negative": percent(g.negative, 1),
        "minimum": f"{g.minimum:.3f}",
        "exact": percent(g.exact, 1),
        "toy_token": toy_token,
        "relu": percent(r.exact, 1),
        "toy_d_ff": relu.size,
    }


def _ffn_holds(said: Claim, gate: np.ndarray, relu: np.ndarray, toy_token: str) -> bool:
    """Counted again here from the raw values; "but … exactly 0" needs fewer exact zeros than
    near ones, and "down to" a negative minimum."""
    g = np.asarray(gate, np.float64).reshape(-1)  # any shape → (d_ff,)
    r = np.asarray(relu, np.float64).reshape(-1)
    exact, near = np.count_nonzero(g == 0), np.count_nonzero(np.abs(g) < tan.NEAR_ZERO)
    contrast = exact < near and g.min() < 0
    f = said.fields
    return (
        said.message == ("then_and_now.ffn.says" if contrast else "then_and_now.ffn.counts")
        and f["exact"] == percent(exact / g.size, 1)
        and f["near"] == percent(near / g.size, 1)
        and f["negative"] == percent(np.count_nonzero(g < 0) / g.size, 1)
        and f["minimum"] == f"{g.min():.3f}"
        and f["relu"] == percent(np.count_nonzero(r == 0) / r.size, 1)
        and f["toy_d_ff"] == r.size
        and f["toy_token"] == toy_token
    )


@claim(_ffn_holds)
def ffn_sentence(gate: np.ndarray, relu: np.ndarray, toy_token: str) -> Claim | None:
    """SwiGLU's gate values (one token of one layer) against the toy model's ReLU outputs on
    ``toy_token``: many gate values near zero but few exactly zero, where ReLU zeroes a share
    outright — the contrast said only when the counts show it. None for empty vectors."""
    if np.size(gate) == 0 or np.size(relu) == 0:
        return None
    g = tan.zero_shares(gate)
    contrast = g.exact < g.near and g.minimum < 0
    return Claim(
        "then_and_now.ffn.says" if contrast else "then_and_now.ffn.counts",
        _ffn_fields(gate, relu, toy_token),
    )


def traced_prefix(text: str, offsets: list[tuple[int, int]], most: int) -> str:
    """The start of ``text`` that holds its first ``most`` tokens (``offsets``: each token's
    character span), the whole text when it has no more."""
    if most < 1:
        raise ValueError(f"most must be at least 1, got {most}")
    return text if len(offsets) <= most else text[: offsets[most - 1][1]]
