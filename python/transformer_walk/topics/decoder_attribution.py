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
attribution; switching the largest parts off (``logit_change``) shows what they do with
everything downstream left to react, beside switching off as many other heads of the same
layers (``control_heads``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from transformer_walk.models.smollm2 import DecoderOutput, SmolLM2
from transformer_walk.topics.claims import Claim, claim

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
        """At most ``count`` heads with the largest positive terms (pushing the logit up),
        largest first; fewer when fewer heads push it up."""
        order = np.argsort(-self.heads, axis=None, kind="stable")[:count]
        h = self.heads.shape[1]
        return [(int(i) // h, int(i) % h) for i in order if self.heads.flat[int(i)] > 0]


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


def logit_change(
    model: SmolLM2, text: str, position: int, token: int, heads: Sequence[Head]
) -> float:
    """How much ``token``'s logit after ``position`` changes (switched off minus intact) when
    ``heads`` are switched off, the whole forward run again with every later layer reacting:
    negative when the logit falls."""
    plain = model.run(text).logits[position, token]
    off = model.run(text, ablate=heads).logits[position, token]
    return float(off - plain)


def control_heads(
    heads: Sequence[Head], h: int, draws: int, rng: np.random.Generator,
    avoid: Collection[Head] = (),
) -> list[list[Head]]:  # fmt: skip
    """``draws`` sets of controls for ``heads``: each head replaced by another head of its own
    layer drawn at random, never one of ``heads`` or of ``avoid`` (a layer with no head left
    to draw: ValueError)."""
    chosen = set(heads) | set(avoid)
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


@dataclass(frozen=True)
class AblationCheck:
    """The ``heads`` switched off together, and ``controls``: as many other heads of the same
    layers, one set per draw; each with the change of the token's logit it caused."""

    heads: list[Head]
    change: float
    controls: list[list[Head]]
    control_changes: list[float]


def check_heads(
    model: SmolLM2, text: str, position: int, token: int, heads: Sequence[Head], draws: int,
    seed: int = 0,
) -> AblationCheck:  # fmt: skip
    """``heads`` switched off beside ``draws`` control sets (``control_heads``, seeded)."""
    plain = model.run(text).logits[position, token]

    def change(off: Sequence[Head]) -> float:
        return float(model.run(text, ablate=off).logits[position, token] - plain)

    controls = control_heads(heads, model.config.h, draws, np.random.default_rng(seed))
    return AblationCheck(list(heads), change(heads), controls, [change(c) for c in controls])


# --- the claims --------------------------------------------------------------------------------

#: The ablation claim's message by verdict — where the change stands against the controls
#: (below all, above all, among them) and whether the logit falls — written out so that the
#: id check finds them.
VERDICTS = {
    ("below", True): "inside_decoder.claim.ablation.falls_most",
    ("below", False): "inside_decoder.claim.ablation.rises_least",
    ("above", True): "inside_decoder.claim.ablation.falls_least",
    ("above", False): "inside_decoder.claim.ablation.rises_most",
    ("among", True): "inside_decoder.claim.ablation.among",
    ("among", False): "inside_decoder.claim.ablation.among",
}


def signed(value: float) -> str:
    """A change as the page prints it: "+0.56", "−1.88" (a minus sign, as the charts write)."""
    return f"{value:+.2f}".replace("-", "−")


def _ablation_fields(
    heads: Sequence[str], choice: str, change: float, controls: Sequence[float]
) -> tuple[str, dict[str, object]]:
    low, high = min(controls), max(controls)
    place = "below" if change < low else "above" if change > high else "among"
    fields: dict[str, object] = {
        "heads": tuple(heads), "choice": choice, "change": signed(change),
        "draws": len(controls), "low": signed(low), "high": signed(high),
    }  # fmt: skip
    return VERDICTS[(place, change < 0)], fields


def _ablation_holds(
    said: Claim, heads: Sequence[str], choice: str, change: float, controls: Sequence[float]
) -> bool:
    if not heads or not controls:
        return False
    low, high = min(controls), max(controls)
    fits = {
        "inside_decoder.claim.ablation.falls_most": change < low and change < 0,
        "inside_decoder.claim.ablation.rises_least": 0 <= change < low,
        "inside_decoder.claim.ablation.falls_least": high < change < 0,
        "inside_decoder.claim.ablation.rises_most": change > high and change >= 0,
        "inside_decoder.claim.ablation.among": low <= change <= high,
    }
    return fits.get(said.message, False) and said == Claim(
        *_ablation_fields(heads, choice, change, controls)
    )


@claim(_ablation_holds)
def ablation_claim(
    heads: Sequence[str], choice: str, change: float, controls: Sequence[float]
) -> Claim | None:
    """``heads`` (labels) switched off together change the logit of ``choice`` by ``change``;
    ``controls``: the changes from as many other heads of the same layers, one per draw. Says
    whether the logit falls or rises, and whether by more or less than every control or
    within their range."""
    if not heads or not controls:
        return None
    return Claim(*_ablation_fields(heads, choice, change, controls))


def _sum_fields(found: Attribution) -> dict[str, object]:
    return {
        "embedding": signed(found.embedding),
        "heads": signed(float(found.heads.sum())),
        "mlps": signed(float(found.mlps.sum())),
        "total": f"{found.total:.2f}",
        "logit": f"{found.logit:.2f}",
    }


def _sum_holds(said: Claim, found: Attribution) -> bool:
    sizes = abs(found.embedding) + np.abs(found.heads).sum() + np.abs(found.mlps).sum()
    return abs(found.total - found.logit) <= 1e-4 * max(sizes, 1.0) and said == Claim(
        "inside_decoder.claim.sum", _sum_fields(found)
    )


@claim(_sum_holds)
def sum_claim(found: Attribution) -> Claim | None:
    """The terms add up: embedding + heads + MLPs = the logit (within float32 rounding of the
    forward); None if they did not (it would be a bug to show)."""
    sizes = abs(found.embedding) + np.abs(found.heads).sum() + np.abs(found.mlps).sum()
    if abs(found.total - found.logit) > 1e-4 * max(sizes, 1.0):
        return None
    return Claim("inside_decoder.claim.sum", _sum_fields(found))
