"""Who pushed a token up: one logit of SmolLM2 split over the parts that wrote the residual stream,
and the largest parts checked by switching them off beside control heads.

The stream after the last layer at position p is a sum of what was written into it:

    x_L = x_0 + Σ_l (a_l + m_l),   a_l = Σ_j head_j W^O_j

the embedding x_0, each layer's attention output a_l (head j's output times its slice of W^O,
the columns j·d_head … (j + 1)·d_head − 1) and its MLP output m_l. The logit of token t is

    z_t = RMSNorm(x_L) · E_t = s · (γ ⊙ E_t) · x_L,   s = 1 / √(mean(x_L²) + ε)

with E_t token t's row of the (tied) output layer. **Holding s at its value** — an
approximation: taking a part away would change s and every later layer too — z_t splits
exactly into s (γ ⊙ E_t) · x_0, one term per head and one per MLP. That is the direct
attribution; switching the largest parts off (``logit_drop``) shows what they do with
everything downstream left to react, beside switching off as many other heads of the same
layers (``control_heads``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from transformer_walk.models.smollm2 import DecoderOutput, SmolLM2

Head = tuple[int, int]  # (layer, head), 0-based


@dataclass(frozen=True)
class Attribution:
    """Token ``token``'s logit after position ``position`` split over the stream's parts."""

    position: int
    token: int
    scale: float  # s = 1 / √(mean(x_L²) + ε) at the position, held fixed
    embedding: float  # x_0's term
    heads: np.ndarray  # [L, h] float64: each head's term
    mlps: np.ndarray  # [L] float64: each layer's MLP term
    logit: float  # the model's own logit of the token there

    @property
    def total(self) -> float:
        """The terms' sum: the logit read in float64 from the same stream (the model's own
        logit differs by its float32 rounding)."""
        return float(self.embedding + self.heads.sum() + self.mlps.sum())

    def top_heads(self, count: int) -> list[Head]:
        """The ``count`` heads with the largest terms (pushing the token up), largest first."""
        order = np.argsort(-self.heads, axis=None, kind="stable")[:count]
        return [(int(i) // self.heads.shape[1], int(i) % self.heads.shape[1]) for i in order]


def attribute(model: SmolLM2, out: DecoderOutput, position: int, token: int) -> Attribution:
    """The direct attribution of ``token``'s logit after ``position`` in ``out``, a trace of
    ``model.run(text, trace=True)``. IndexError for a position or token outside."""
    if out.layers is None:
        raise ValueError("attribute needs a trace: out = model.run(text, trace=True)")
    if not 0 <= position < out.n:
        raise IndexError(f"position {position} is outside the text's tokens 0 … {out.n - 1}")
    if not 0 <= token < model.config.vocab_size:
        raise IndexError(f"token {token} is outside the vocabulary of {model.config.vocab_size}")
    be, cfg = model.backend, model.config
    x_last = out.hidden_states[-1][position].astype(np.float64)  # [d_model]
    scale = 1.0 / np.sqrt(np.mean(x_last * x_last) + model.norm.eps)
    row = model.head.rows(be, np.array([token]))[0].astype(np.float64)  # E_t [d_model]
    direction = scale * model.norm.weight.astype(np.float64) * row  # s (γ ⊙ E_t)
    heads = np.zeros((cfg.n_layers, cfg.h))
    mlps = np.zeros(cfg.n_layers)
    d = cfg.d_head
    for i, (layer, trace) in enumerate(zip(model.layers, out.layers, strict=True)):
        w_o = layer.attn.output.rows(be, np.arange(cfg.d_model)).astype(np.float64)  # [d, h·d]
        through = w_o.T @ direction  # [h·d_head]: W^Oᵀ s (γ ⊙ E_t)
        concat = trace.concat[position].astype(np.float64)  # [h·d_head]
        heads[i] = (concat * through).reshape(cfg.h, d).sum(axis=1)  # (h·d,) → (h, d) → (h,)
        mlps[i] = float(trace.ffn_out[position].astype(np.float64) @ direction)
    embedding = float(out.hidden_states[0][position].astype(np.float64) @ direction)
    return Attribution(
        position, token, float(scale), embedding, heads, mlps,
        float(out.logits[position, token]),
    )  # fmt: skip


def logit_drop(
    model: SmolLM2, text: str, position: int, token: int, heads: Sequence[Head]
) -> float:
    """How much ``token``'s logit after ``position`` falls when ``heads`` are switched off (the
    whole forward run again, every later layer reacting)."""
    plain = model.run(text).logits[position, token]
    off = model.run(text, ablate=heads).logits[position, token]
    return float(plain - off)


def control_heads(
    heads: Sequence[Head], h: int, draws: int, rng: np.random.Generator
) -> list[list[Head]]:
    """``draws`` sets of controls for ``heads``: each head replaced by another head of its own
    layer drawn at random, never one of ``heads`` (a layer all of whose heads are in ``heads``
    keeps none: ValueError)."""
    chosen = set(heads)
    sets = []
    for _ in range(draws):
        picked: list[Head] = []
        for layer, _head in heads:
            others = [(layer, j) for j in range(h) if (layer, j) not in chosen | set(picked)]
            if not others:
                raise ValueError(f"layer {layer} has no head left to draw a control from")
            picked.append(others[int(rng.integers(len(others)))])
        sets.append(picked)
    return sets
