"""2017 vs today: the original block (the toy model: Post-LN, sinusoidal positions added, ReLU
FFN, h full heads, no mask) against SmolLM2's decoder layer (Pre-RMSNorm, RoPE, SwiGLU,
grouped-query attention, causal). Small functions over configs and recorded vectors; the pages
render what they return and recompute no model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from transformer_walk.core import Backend
from transformer_walk.models.smollm2.config import SmolLM2Config
from transformer_walk.models.toy import ToyConfig, positional_encoding

#: |value| below this counts as "near zero" in the gate's values and ReLU's outputs.
NEAR_ZERO = 0.05


# --- the comparison table ---------------------------------------------------------------------


@dataclass(frozen=True)
class DesignRow:
    """One row of the table: ``row`` names it (a message id's tail), each cell is a message id's
    tail and the fields read from that side's config."""

    row: str
    toy: str
    toy_fields: dict[str, object]
    smol: str
    smol_fields: dict[str, object]


def design_rows(toy: ToyConfig, smol: SmolLM2Config) -> list[DesignRow]:
    """The two designs side by side, every value read from the configs."""
    return [
        DesignRow("norm", f"layernorm_{toy.norm}", {}, "rmsnorm_pre", {"eps": f"{smol.eps:g}"}),
        DesignRow(
            "positions",
            "sinusoidal" if toy.positions else "no_positions",
            {},
            "rope",
            {"base": f"{smol.rope_base:,.0f}"},
        ),
        DesignRow("ffn", "relu", {"d_ff": toy.d_ff}, "swiglu", {"d_ff": smol.d_ff}),
        DesignRow(
            "heads",
            "full_heads",
            {"h": toy.h, "d_k": toy.d_k},
            "gqa",
            {"h": smol.h, "h_kv": smol.h_kv, "d_k": smol.d_head},
        ),
        DesignRow("mask", "causal" if toy.causal else "bidirectional", {}, "causal", {}),
        DesignRow(
            "sizes",
            "sizes",
            {"L": toy.n_layers, "d_model": toy.d_model},
            "sizes",
            {"L": smol.n_layers, "d_model": smol.d_model},
        ),
    ]


# --- RoPE: the dot product depends on the offset only ----------------------------------------


@dataclass(frozen=True)
class OffsetDots:
    """q·k with q at position p + delta and k at p, for each p in ``starts``."""

    starts: np.ndarray  # [m] the key's positions p
    delta: int
    rope: np.ndarray  # [m] RoPE(q, p + Δ) · RoPE(k, p)
    added: np.ndarray  # [m] (q + PE[p + Δ]) · (k + PE[p]): positions added, as in 2017

    @property
    def rope_spread(self) -> float:
        return float(self.rope.max() - self.rope.min())

    @property
    def added_spread(self) -> float:
        return float(self.added.max() - self.added.min())


def offset_dots(
    be: Backend, q: np.ndarray, k: np.ndarray, starts: np.ndarray, delta: int, base: float
) -> OffsetDots:
    """One real query and key ([d_head] each, before RoPE) placed at (p + Δ, p) for each p:
    turned by the backend's RoPE (the model's own kernel), or with the sinusoidal encoding of
    d_head added. ValueError for vectors of different or odd length, or a negative position."""
    q, k = np.asarray(q, np.float64), np.asarray(k, np.float64)
    starts = np.asarray(starts, np.int64)
    if q.ndim != 1 or q.shape != k.shape or q.shape[0] % 2:
        raise ValueError(f"q and k must be vectors of one even length, got {q.shape} and {k.shape}")
    if starts.ndim != 1 or len(starts) == 0 or starts.min() < 0 or delta < 0:
        raise ValueError("the positions p and the offset Δ must be ≥ 0 (and p not empty)")
    m, d = len(starts), q.shape[0]
    q_rot = be.rope(np.tile(q, (m, 1)), starts + delta, base)  # (m, d): q at p + Δ
    k_rot = be.rope(np.tile(k, (m, 1)), starts, base)  # (m, d): k at p
    pe = positional_encoding(int(starts.max()) + delta + 1, d)  # (max + 1, d)
    added = ((q + pe[starts + delta]) * (k + pe[starts])).sum(-1)  # (m,)
    return OffsetDots(starts, delta, (np.asarray(q_rot) * np.asarray(k_rot)).sum(-1), added)


def spread_verdict(dots: OffsetDots, tolerance: float = 1e-3) -> str:
    """ "same" when RoPE's dot products agree within ``tolerance`` of their size while the added
    encoding's differ by more, "rope_varies" if RoPE's do not, "added_same" if neither varies."""
    scale = max(1e-12, float(np.abs(dots.rope).max()))
    if dots.rope_spread > tolerance * scale:
        return "rope_varies"
    return "same" if dots.added_spread > tolerance * scale else "added_same"


# --- grouped-query attention -------------------------------------------------------------------


def kv_head_map(cfg: SmolLM2Config) -> np.ndarray:
    """[h, h_kv] 1 where query head j reads key/value head j // (h / h_kv), else 0."""
    reads = np.zeros((cfg.h, cfg.h_kv))
    reads[np.arange(cfg.h), np.arange(cfg.h) // cfg.group] = 1.0
    return reads


# --- RMSNorm vs LayerNorm -----------------------------------------------------------------------


@dataclass(frozen=True)
class NormComparison:
    mean: float  # of x: what LayerNorm subtracts
    rms: float  # √(mean(x²) + ε): what RMSNorm divides by
    std: float  # √(var(x) + ε): what LayerNorm divides by
    rms_out: np.ndarray  # [d] x / rms (before γ)
    layer_out: np.ndarray  # [d] (x − mean) / std (before γ, β)

    @property
    def rms_out_mean(self) -> float:
        return float(self.rms_out.mean())

    @property
    def layer_out_mean(self) -> float:
        return float(self.layer_out.mean())

    @property
    def mean_share(self) -> float:
        """|mean| / rms: how much of the vector's size its mean is (0 for a centred vector)."""
        return abs(self.mean) / self.rms


def compare_norms(x: np.ndarray, eps: float) -> NormComparison:
    """RMSNorm and LayerNorm (both without their learned scale) on the same vector [d]."""
    x = np.asarray(x, np.float64)
    if x.ndim != 1 or len(x) == 0:
        raise ValueError(f"x must be a non-empty vector, got shape {x.shape}")
    mean = float(x.mean())
    rms = float(np.sqrt((x**2).mean() + eps))
    std = float(np.sqrt(x.var() + eps))
    return NormComparison(mean, rms, std, x / rms, (x - mean) / std)


# --- SwiGLU's gate vs ReLU ----------------------------------------------------------------------


@dataclass(frozen=True)
class ZeroShares:
    exact: float  # share of values that are exactly 0
    near: float  # share with |value| < NEAR_ZERO
    negative: float  # share below 0
    minimum: float


def zero_shares(values: np.ndarray, near: float = NEAR_ZERO) -> ZeroShares:
    """How a vector of activations sits around zero. ValueError for an empty one."""
    v = np.asarray(values, np.float64).reshape(-1)  # any shape → (count,)
    if len(v) == 0:
        raise ValueError("no values to count")
    return ZeroShares(
        float((v == 0).mean()), float((np.abs(v) < near).mean()), float((v < 0).mean()),
        float(v.min()),
    )  # fmt: skip


def histogram(values: np.ndarray, bins: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """(counts [bins], edges [bins + 1]) of the values."""
    counts, edges = np.histogram(np.asarray(values, np.float64).reshape(-1), bins=bins)
    return counts, edges
