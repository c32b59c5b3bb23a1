"""The 2017 vs today page's sentences: each a message id and the fields computed from the numbers
it interprets (``topics.then_and_now``), so the page only looks them up."""

from __future__ import annotations

from transformer_walk.app.views.labels import human_bytes
from transformer_walk.models.smollm2.config import SmolLM2Config
from transformer_walk.topics import then_and_now as tan

Sentence = tuple[str, dict[str, object]]
#: The RoPE sentence by ``tan.spread_verdict``.
ROPE_SAYS = {
    "same": "tan.rope.same",
    "rope_varies": "tan.rope.rope_varies",
    "added_same": "tan.rope.added_same",
}


def percent(share: float) -> str:
    """0.1234 → "12.3%" (a share of values)."""
    return f"{100 * share:.1f}%"


def rope_sentence(dots: tan.OffsetDots) -> Sentence:
    verdict = tan.spread_verdict(dots)
    fields: dict[str, object] = {
        "value": f"{float(dots.rope.mean()):.4f}",
        "spread": f"{dots.rope_spread:.1e}",
        "added_spread": f"{dots.added_spread:.3f}",
        "delta": dots.delta,
    }
    return ROPE_SAYS[verdict], fields


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


def norm_sentence(cmp: tan.NormComparison) -> Sentence:
    return "tan.norm.says", {
        "mean": f"{cmp.mean:.4f}",
        "share": percent(cmp.mean_share),
        "ln_mean": f"{cmp.layer_out_mean:.1e}",
        "rms_mean": f"{cmp.rms_out_mean:.4f}",
    }


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
