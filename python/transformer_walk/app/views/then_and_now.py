"""The 2017 vs today page's sentences: each a message id and the fields computed from the numbers
it interprets (``topics.then_and_now``), so the page only looks them up."""

from __future__ import annotations

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


def size(n_bytes: float) -> str:
    """Bytes in the largest unit that keeps a number ≥ 1: "13.3 KB", "1.6 GB" (1 KB = 1000 B)."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:.1f} {unit}"
    return f"{n_bytes:.0f} B"


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
    gqa = tan.kv_cache_bytes_per_token(cfg)
    full = tan.kv_cache_bytes_per_token(cfg, cfg.h)
    return "tan.gqa.saving", {
        "values": f"{gqa // tan.CACHE_VALUE_BYTES:,}",
        "h": cfg.h,
        "ratio": f"{full / gqa:g}",
        "context": f"{cfg.context_length:,}",
        "full": size(full * cfg.context_length),
        "gqa": size(gqa * cfg.context_length),
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


def readable_piece(piece: str) -> str:
    """A byte-level BPE piece as the page shows it: a leading space as "␣" (else invisible)."""
    return piece.replace(" ", "␣").replace("\n", "↵")
