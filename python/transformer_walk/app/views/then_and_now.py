"""The 2017 vs today page's sentences: each a message id and the fields computed from the numbers
it interprets (``topics.then_and_now``), so the page only looks them up."""

from __future__ import annotations

from transformer_walk.app.views.labels import human_bytes
from transformer_walk.models.smollm2.config import SmolLM2Config
from transformer_walk.topics import then_and_now as tan
from transformer_walk.topics.claims import Claim, claim

Sentence = tuple[str, dict[str, object]]
#: The RoPE sentence by ``tan.spread_verdict``.
ROPE_SAYS = {
    "same": "tan.rope.same",
    "rope_varies": "tan.rope.rope_varies",
    "added_same": "tan.rope.added_same",
}
#: The model's trace is float32: its turned q · k and the same dot product turned here in float64
#: agree to about 1e-7 of their size; this much apart is still rounding, not another score.
TRACE_TOLERANCE = 1e-5


def percent(share: float) -> str:
    """0.1234 → "12.3%" (a share of values)."""
    return f"{100 * share:.1f}%"


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
        and said.message == ("tan.rope.trace" if agrees else "tan.rope.trace_apart")
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
    return Claim("tan.rope.trace" if agrees else "tan.rope.trace_apart", fields)


def gqa_sentence(cfg: SmolLM2Config) -> Sentence:
    gqa = cfg.kv_bytes_per_token()
    full = cfg.kv_bytes_per_token(cfg.h)
    return "tan.gqa.saving", {
        "values": f"{cfg.kv_bytes_per_token(nbytes=1):,}",
        "h": cfg.h,
        "ratio": f"{full / gqa:g}",
        "context": f"{cfg.context_length:,}",
        "full": human_bytes(full * cfg.context_length),
        "gqa": human_bytes(gqa * cfg.context_length),
    }


def _shows_zero(value: float, digits: int = 4) -> bool:
    return f"{abs(value):.{digits}f}" == f"{0:.{digits}f}"


def _norm_claim(cmp: tan.NormComparison) -> Claim:
    centred = _shows_zero(cmp.rms_out_mean) or not _close(cmp.layer_out_mean, 0.0)
    if centred:  # nothing for RMSNorm to keep that shows (or LayerNorm did not centre)
        return Claim(
            "tan.norm.says_centred",
            {
                "mean": f"{cmp.mean:.1e}",
                "share": percent(cmp.mean_share),
                "ln_mean": f"{cmp.layer_out_mean:.1e}",
                "rms_mean": f"{cmp.rms_out_mean:.1e}",
            },
        )
    return Claim(
        "tan.norm.says",
        {
            "mean": f"{cmp.mean:.4f}",
            "share": percent(cmp.mean_share),
            "ln_mean": f"{cmp.layer_out_mean:.1e}",
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
    return "tan.norm.check" if within else "tan.norm.check_apart"


def _norm_check_holds(said: Claim, error: float, size: float) -> bool:
    return said.message == _norm_check_message(error, size) and dict(said.fields) == {
        "error": f"{error:.1e}"
    }


@claim(_norm_check_holds)
def norm_check(error: float, size: float) -> Claim:
    """The RMSNorm worked out here (times γ) against the model's recorded one: ``error`` the
    largest gap, ``size`` the largest |value|. "Matches" only within float32 rounding."""
    return Claim(_norm_check_message(error, size), {"error": f"{error:.1e}"})


def ffn_sentence(
    gate: tan.ZeroShares, relu: tan.ZeroShares, toy_token: str, toy_d_ff: int
) -> Sentence:
    return "tan.ffn.says", {
        "near": percent(gate.near),
        "negative": percent(gate.negative),
        "minimum": f"{gate.minimum:.3f}",
        "exact": percent(gate.exact),
        "toy_token": toy_token,
        "relu": percent(relu.exact),
        "toy_d_ff": toy_d_ff,
    }


def traced_prefix(text: str, offsets: list[tuple[int, int]], most: int) -> str:
    """The start of ``text`` that holds its first ``most`` tokens (``offsets``: each token's
    character span), the whole text when it has no more."""
    if most < 1:
        raise ValueError(f"most must be at least 1, got {most}")
    return text if len(offsets) <= most else text[: offsets[most - 1][1]]
