"""The key/value cache, step by step: SmolLM2 reads a prompt in one pass (the prefill), then makes
one token at a time (decoding), each new token's keys and values appended to the cache.

At step 0 the prompt's n positions go through every layer together; each layer's keys (after
RoPE) and values of the n positions are written into the cache. At step s ≥ 1 only the token
chosen at step s − 1 goes through: one row of every product, one query per head, attending to the
n + s cached keys. Earlier keys and values never change — position t's depend only on tokens 0 … t
— so nothing is recomputed; generation stays sequential all the same, each token waiting for the
one before it.

``walk`` records what a page shows: the tokens each step wrote, the newest query's attention
weights over the cache (every layer and head), the cache's final keys and values, the work of each
step beside recomputing every position without a cache, and a control: the last step's logits
against a full forward over the same tokens with no cache at all.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from transformer_walk.models.smollm2 import SmolLM2, SmolLM2Config
from transformer_walk.topics.claims import Claim, claim

#: New tokens the walk makes after the prefill (steps 1 … NEW_TOKENS decode one each).
NEW_TOKENS = 6
#: The most new tokens a walk may be asked for (each step keeps [L, h, length] weights).
MAX_NEW_TOKENS = 32
#: float32: what this cache stores per number.
FLOAT32_BYTES = 4


@dataclass(frozen=True)
class CacheStep:
    """One step: the prefill (index 0) or one decoded token."""

    index: int
    start: int  # the first position this step wrote
    ids: np.ndarray  # [m] int64: the tokens it put through the model (m = n at the prefill, else 1)
    weights: np.ndarray  # [L, h, length] float32: the newest query's weights over the cache
    chosen: int  # the token it chose (greedily) for the next position
    multiply_adds: int  # its forward's work
    recompute_multiply_adds: int  # the work of one forward over every position, no cache
    cache_bytes: int  # what the cache holds after it (the cached positions, not the reserve)

    @property
    def length(self) -> int:
        """Positions cached after this step."""
        return self.start + len(self.ids)


@dataclass(frozen=True)
class CacheWalk:
    """A prefill and its decoding steps, and the cache they filled."""

    prompt: np.ndarray  # [n] int64
    steps: list[CacheStep]
    keys: np.ndarray  # [L, h_kv, length, d_head] float32: every cached key (after RoPE)
    values: np.ndarray  # [L, h_kv, length, d_head] float32
    last_logits: np.ndarray  # [V] float32: the last step's, through the cache
    recomputed_logits: np.ndarray  # [V]: the same position's from one forward without a cache

    @property
    def ids(self) -> np.ndarray:
        """[length] int64: every token the cache holds, in order."""
        return np.concatenate([s.ids for s in self.steps])


def walk(model: SmolLM2, prompt: list[int], new_tokens: int = NEW_TOKENS) -> CacheWalk:
    """Greedy decoding of ``new_tokens`` tokens after ``prompt`` (ids), recorded step by step.
    ValueError for an empty prompt, a count outside 1 … MAX_NEW_TOKENS, or a sequence past the
    context."""
    if not 1 <= new_tokens <= MAX_NEW_TOKENS:
        raise ValueError(f"new_tokens must be in 1 … {MAX_NEW_TOKENS}, got {new_tokens}")
    ids = model.check_ids(prompt, "the prompt")
    model.check_ids(np.zeros(len(ids) + new_tokens, np.int64), "the prompt and new tokens")
    cfg = model.config
    cache = model.new_cache()
    steps: list[CacheStep] = []
    step_ids = ids
    logits = np.empty(0, np.float32)  # (V,) after each step; the loop runs at least twice
    for index in range(new_tokens + 1):
        start = cache.length
        found = model.forward(step_ids, cache, keep=("weights",), last_only=True)
        # the newest query's row of each layer: L × (h, length) → (L, h, length)
        weights = np.stack([r["weights"][:, -1] for r in found.records])
        logits = found.logits[-1]  # (V,)
        chosen = int(np.argmax(logits))
        length = cache.length
        steps.append(
            CacheStep(
                index, start, step_ids, weights, chosen,
                cfg.multiply_adds(len(step_ids), start, scored=1),
                cfg.multiply_adds(length, 0, scored=1), cache.nbytes,
            )
        )  # fmt: skip
        step_ids = np.array([chosen], np.int64)  # (1,): the next step's one token
    every = np.concatenate([s.ids for s in steps])  # (length,)
    recomputed = model.forward(every, last_only=True).logits[-1]
    layers = cache.layers
    keys = np.stack([c.k[:, : c.length] for c in layers])  # L × (h_kv, t, d) → (L, h_kv, t, d)
    values = np.stack([c.v[:, : c.length] for c in layers])  # (L, h_kv, t, d_head)
    return CacheWalk(ids, steps, keys, values, logits, recomputed)


@dataclass(frozen=True)
class CacheBytes:
    """A token's bytes in the cache, from the file's tensor sizes: per layer, the rows of W^K
    and W^V (one number of K and of V per row, per token) — and had every query head its own
    key and value head, the rows of W^Q twice."""

    per_token: int  # Σ_layers (rows of W^K + rows of W^V) · 4 bytes
    per_token_full: int  # Σ_layers 2 · rows of W^Q · 4 bytes

    @property
    def ratio(self) -> float:
        return self.per_token_full / self.per_token


def cache_bytes(model: SmolLM2) -> CacheBytes:
    """The float32 cache's bytes per token, counted from the loaded tensors' shapes."""
    per = sum(layer.attn.k.shape[0] + layer.attn.v.shape[0] for layer in model.layers)
    full = sum(2 * layer.attn.q.shape[0] for layer in model.layers)
    return CacheBytes(FLOAT32_BYTES * per, FLOAT32_BYTES * full)


# --- the claims --------------------------------------------------------------------------------

#: The cached and the recomputed logits agree when no logit differs by more than this share of
#: the largest: float32 sums in another order (a product over many rows against one row's, the
#: attention kernel that keeps its weights against the one that does not) put them about 2e-4 of
#: it apart; a wrong cache (a key at the wrong position) differs by whole units.
SAME_LOGITS = 1e-3


def gap(cached: np.ndarray, recomputed: np.ndarray) -> float:
    """The largest difference between two logit vectors [V]."""
    return float(np.abs(cached.astype(np.float64) - recomputed).max())


def _same_fields(cached: np.ndarray, recomputed: np.ndarray) -> dict[str, object]:
    return {
        "gap": f"{gap(cached, recomputed):.4f}",
        "top": f"{float(np.abs(recomputed).max()):.1f}",
    }


def _same(cached: np.ndarray, recomputed: np.ndarray) -> bool:
    scale = max(1.0, float(np.abs(recomputed).max()))
    return gap(cached, recomputed) <= SAME_LOGITS * scale and int(np.argmax(cached)) == int(
        np.argmax(recomputed)
    )


def _same_holds(said: Claim, cached: np.ndarray, recomputed: np.ndarray) -> bool:
    return _same(cached, recomputed) and said == Claim(
        "decoder_cache.claim.same", _same_fields(cached, recomputed)
    )


@claim(_same_holds)
def same_claim(cached: np.ndarray, recomputed: np.ndarray) -> Claim | None:
    """The logits [V] through the cache match a forward over every position without one (within
    float32 rounding, the same top token); None when they do not (a bug to show, not to say)."""
    if not _same(cached, recomputed):
        return None
    return Claim("decoder_cache.claim.same", _same_fields(cached, recomputed))


def millions(count: int) -> str:
    """A multiply-add count as the page writes it: "135.2" (millions)."""
    return f"{count / 1e6:,.1f}"


def times(ratio: float) -> str:
    """A ratio to one place below 10 ("1.8"), whole above ("16")."""
    return f"{ratio:,.1f}" if ratio < 10 else f"{ratio:,.0f}"


def _work(config: SmolLM2Config, start: int, length: int) -> tuple[int, int]:
    """The estimated multiply-adds of a step writing positions start … length − 1 after
    ``start`` cached ones, and of one forward over all ``length`` positions with no cache (both
    scoring one position, as generation does)."""
    step = config.multiply_adds(length - start, start, scored=1)
    return step, config.multiply_adds(length, 0, scored=1)


def _work_fields(config: SmolLM2Config, start: int, length: int) -> dict[str, object]:
    step, recompute = _work(config, start, length)
    return {
        "step": millions(step), "recompute": millions(recompute), "length": length,
        "ratio": times(recompute / step),
    }  # fmt: skip


def _work_holds(said: Claim, config: SmolLM2Config, start: int, length: int) -> bool:
    step, recompute = _work(config, start, length)
    return (
        0 < start < length
        and 0 < step < recompute
        and said == Claim("decoder_cache.claim.work", _work_fields(config, start, length))
    )


@claim(_work_holds)
def work_claim(config: SmolLM2Config, start: int, length: int) -> Claim | None:
    """A decoding step's estimated multiply-adds (``SmolLM2Config.multiply_adds``: the products
    and attention) beside one forward over all ``length`` positions; None for the prefill
    (``start`` = 0: it is that forward)."""
    step, recompute = _work(config, start, length)
    if not 0 < start < length or not 0 < step < recompute:
        return None
    return Claim("decoder_cache.claim.work", _work_fields(config, start, length))


def _bytes_fields(found: CacheBytes, cached: int, length: int) -> dict[str, object]:
    return {
        "per_token": f"{found.per_token:,}", "length": length, "cached": f"{cached:,}",
        "full": f"{found.per_token_full:,}", "ratio": f"{found.ratio:g}",
    }  # fmt: skip


def _bytes_message(length: int) -> str:
    """The bytes claim's message: one position said in the singular."""
    return "decoder_cache.claim.bytes_one" if length == 1 else "decoder_cache.claim.bytes"


def _bytes_holds(said: Claim, found: CacheBytes, cached: int, length: int) -> bool:
    return (
        length > 0
        and cached == found.per_token * length
        and found.per_token_full > found.per_token
        and said == Claim(_bytes_message(length), _bytes_fields(found, cached, length))
    )


@claim(_bytes_holds)
def bytes_claim(found: CacheBytes, cached: int, length: int) -> Claim | None:
    """The bytes a token adds, counted from the file's tensors, agree with what the cache holds
    (``cached`` bytes for ``length`` positions), and are fewer than a cache with a key and value
    head per query head; None when either fails."""
    if length < 1 or cached != found.per_token * length or found.ratio <= 1:
        return None
    return Claim(_bytes_message(length), _bytes_fields(found, cached, length))
