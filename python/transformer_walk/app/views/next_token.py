"""The Next-token page's numbers, derived from SmolLM2's logits and config (no rendering).

The sampling rule is the model's own (``models.smollm2.sampling.Sampler``): the page reshapes the
cached logits of the prompt's last position with the same code ``generate`` draws from, so the
bars and the generated tokens agree by construction (tests/test_views_next_token.py checks both).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from transformer_walk.models.smollm2 import Sampler, SmolLM2Config
from transformer_walk.models.smollm2.sampling import softmax64
from transformer_walk.topics.claims import Claim, claim, percent, position_of

#: The visible mark of a byte-level BPE token's leading space ("Ġ" in the vocabulary).
FLOAT32_BYTES = 4
LOSS_ROWS = 64
#: Tokens per side of the page's causal heat map (a causal row needs no later token: exact).
ATTENTION_TOKENS = 40


def distribution(
    logits: np.ndarray, temperature: float, top_k: int | None, top_p: float | None
) -> np.ndarray:
    """The probabilities [V] float64 the next token is drawn from: softmax(z / T), cut to the
    top_k best and the fewest reaching top_p (``Sampler.distribution``; T = 0 is one-hot at the
    arg max). ValueError / TypeError for arguments ``generate`` would refuse."""
    return Sampler.make(temperature, top_k, top_p).distribution(np.asarray(logits))


@dataclass(frozen=True)
class Candidate:
    id: int
    probability: float  # in the reshaped distribution
    model_probability: float  # softmax(z), temperature 1


def top_candidates(logits: np.ndarray, probs: np.ndarray, k: int) -> list[Candidate]:
    """The k tokens of highest logit, best first (ties by id, as ``generate``'s steps order
    them), with their reshaped and their model probabilities. The order by logit is the order
    by probability at every T > 0, so the bars keep their places as T moves."""
    z = np.asarray(logits)
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    k = min(k, z.size)
    top = np.argpartition(-z, k - 1)[:k] if k < z.size else np.arange(z.size)
    top = top[np.lexsort((top, -z[top]))]  # best first, ties by id
    model = softmax64(z)
    return [Candidate(int(i), float(probs[i]), float(model[i])) for i in top]


def entropy_bits(probs: np.ndarray) -> float:
    """−Σ p log₂ p of a distribution (0 log 0 = 0): 0 when one token is certain (never −0.0, nor
    the −1e-9 a probability rounded just above 1 gives)."""
    p = np.asarray(probs, dtype=np.float64)
    p = p[p > 0]
    return max(0.0, float(-(p * np.log2(p)).sum()))


def token_losses(logits: np.ndarray, ids: Sequence[int]) -> np.ndarray:
    """−log P(x_{t+1} | x_≤t) [n − 1] in nats: row t of ``logits`` [n, V] scores the token after
    position t, and the actual next token is ids[t + 1] (the training objective, summed). Empty
    for a one-token prompt: nothing in it was predicted."""
    z = np.asarray(logits)
    target = np.asarray(ids, dtype=np.int64)
    if z.ndim != 2 or z.shape[0] != len(target):
        raise ValueError(f"logits must be [n, V] for n = {len(target)} ids, got {z.shape}")
    losses = np.zeros(max(0, len(target) - 1))
    # In float64, LOSS_ROWS rows at a time: a 500-token prompt's [n, V] in float64 is 200 MB.
    for start in range(0, len(losses), LOSS_ROWS):
        rows = z[start : start + LOSS_ROWS].astype(np.float64)  # (≤ LOSS_ROWS, V)
        rows = rows[: len(losses) - start]  # the last position has no next token
        top = rows.max(axis=1, keepdims=True)
        log_norm = top[:, 0] + np.log(np.exp(rows - top).sum(axis=1))  # log Σ exp, stably
        picked = rows[np.arange(len(rows)), target[start + 1 : start + 1 + len(rows)]]
        losses[start : start + len(rows)] = log_norm - picked
    return losses


def perplexity(losses: np.ndarray) -> float | None:
    """exp(mean loss); None without a loss (a one-token prompt)."""
    return float(math.exp(float(np.mean(losses)))) if len(losses) else None


def _one_token_holds(said: Claim, losses: np.ndarray, labels: Sequence[str]) -> bool:
    """The named token's loss is over half the total, and the fields are its numbers."""
    loss = np.asarray(losses, dtype=np.float64)
    k = list(labels).index(str(said.fields["token"]))
    rest = np.delete(loss, k)
    return (
        len(loss) >= 2
        and loss[k] > loss.sum() / 2
        and said.fields["loss"] == f"{loss[k]:.2f}"
        and said.fields["total"] == f"{loss.sum():.2f}"
        and said.fields["before"] == position_of(said.fields["token"])
        and said.fields["rest"] == f"{math.exp(float(rest.mean())):,.1f}"
    )


@claim(_one_token_holds)
def one_token_loss(losses: np.ndarray, labels: Sequence[str]) -> Claim | None:
    """When one predicted token carries more than half of the prompt's loss, which one, with how
    many tokens before it, and the perplexity without it: a short prompt's perplexity often rests
    on a word guessed from almost nothing. ``labels``: the predicted tokens ("2 · loves"), one
    per loss. None for fewer than two losses or a loss spread over the tokens."""
    loss = np.asarray(losses, dtype=np.float64)
    if len(loss) < 2 or len(labels) != len(loss):
        return None
    k = int(np.argmax(loss))
    if not loss[k] > loss.sum() / 2:
        return None
    fields = {
        "token": labels[k],
        "loss": f"{loss[k]:.2f}",
        "total": f"{loss.sum():.2f}",
        "before": position_of(labels[k]),
        "rest": f"{math.exp(float(np.delete(loss, k).mean())):,.1f}",
    }
    return Claim("next_token.ppl.one_token", fields)


def perplexity_reading(value: float | None, vocab: int) -> tuple[str, dict[str, str]]:
    """(message id, fields) of the sentence that says what a perplexity means: as unsure, on
    average, as a uniform choice among that many tokens; "sure" below 2, "lost" when beyond a
    tenth of the vocabulary."""
    if value is None:
        return "next_token.ppl.none", {}
    fields = {"ppl": f"{value:,.1f}", "vocab": f"{vocab:,}", "share": percent(value / vocab)}
    if value < 2:
        return "next_token.ppl.sure", fields
    if value > vocab / 10:
        return "next_token.ppl.lost", fields
    return "next_token.ppl.between", fields


@dataclass(frozen=True)
class CacheSize:
    per_token: int  # bytes, with the model's h_kv
    per_token_full: int  # bytes, had every one of the h query heads its own K and V
    total: int  # per_token · tokens
    total_full: int
    tokens: int

    @property
    def saving(self) -> float:
        """The share of the full multi-head cache grouped-query attention does not keep."""
        return 1 - self.per_token / self.per_token_full


def cache_size(config: SmolLM2Config, tokens: int, nbytes: int = FLOAT32_BYTES) -> CacheSize:
    per, full = (
        config.kv_bytes_per_token(nbytes=nbytes),
        config.kv_bytes_per_token(config.h, nbytes),
    )
    return CacheSize(per, full, per * tokens, full * tokens, tokens)


def tokens_per_second(tokens: int, seconds: float) -> float | None:
    """tokens / seconds; None when nothing was timed."""
    return tokens / seconds if seconds > 0 and tokens > 0 else None


def speed_reading(prefill: float | None, decode: float | None) -> tuple[str, dict[str, str]]:
    """(message id, fields): how many times faster a prompt token was read than a new token
    was made, or why that cannot be said yet."""
    if prefill is None or decode is None:
        return "next_token.speed.pending", {}
    ratio = prefill / decode
    fields = {"ratio": f"{ratio:,.1f}", "prefill": f"{prefill:,.0f}", "decode": f"{decode:,.1f}"}
    if ratio >= 1.5:
        return "next_token.speed.faster", fields
    return ("next_token.speed.similar" if ratio >= 1 else "next_token.speed.slower"), fields


def masked_attention(weights: np.ndarray) -> np.ndarray:
    """A causal head's weights [m, m] with the cells above the diagonal (keys after the query,
    which the mask hides) set to NaN, so a chart draws them as "masked", not as 0."""
    w = np.array(weights, dtype=np.float64)
    if w.ndim != 2 or w.shape[0] != w.shape[1]:
        raise ValueError(f"weights must be a square matrix, got shape {w.shape}")
    w[np.triu_indices(len(w), k=1)] = np.nan
    return w
