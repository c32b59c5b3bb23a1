"""Inputs of the KV-cache page's claims (tests/test_claims.py): SmolLM2's walk through a few
texts (the logits through the cache and without it, each step's work and the cache's bytes), and
made-up numbers on both sides of each claim's edge."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from transformer_walk.models.smollm2 import SMOLLM2_135M
from transformer_walk.topics import decoder_cache as cache

from smollm2_support import MODEL_SKIP, RUST_SKIP, shared_model

#: The texts walked (7 forwards each, so not every text of the corpus).
REAL_TEXTS = ("Tom loves his dog", "the cat saw the cat", "汤姆爱他的狗", "x")


@functools.cache
def _walks() -> tuple[tuple[cache.CacheWalk, cache.CacheBytes], ...]:
    if MODEL_SKIP is not None:
        return ()
    model = shared_model("numpy" if RUST_SKIP is not None else "rust")
    per = cache.cache_bytes(model)
    return tuple((cache.walk(model, model.tokenize(text)), per) for text in REAL_TEXTS)


def sames(text: str) -> Iterator[tuple[Any, ...]]:
    for walked, _ in _walks():
        yield (walked.last_logits, walked.recomputed_logits)
    logits = np.linspace(-5.0, 20.0, 50, dtype=np.float32)
    yield (logits, logits)
    yield (logits, logits + np.float32(0.019))  # within 1e-3 of the largest, 20
    yield (logits, logits + np.float32(0.5))
    swapped = logits.copy()
    swapped[-1], swapped[-2] = swapped[-2], swapped[-1]
    yield (logits, swapped)  # another top token


def works(text: str) -> Iterator[tuple[Any, ...]]:
    for walked, _ in _walks():
        for step in walked.steps:
            yield (SMOLLM2_135M, step.start, step.length)
    yield from ((SMOLLM2_135M, 0, 5), (SMOLLM2_135M, 1, 2), (SMOLLM2_135M, 4, 4))


def bytes_(text: str) -> Iterator[tuple[Any, ...]]:
    for walked, per in _walks():
        for step in walked.steps:
            yield (per, step.cache_bytes, step.length)
    per = cache.CacheBytes(46_080, 138_240)
    yield from ((per, 46_080, 1), (per, 92_160, 2), (per, 46_081, 1), (per, 0, 0))
    yield (cache.CacheBytes(8, 8), 8, 1)


INPUTS: dict[str, Callable[[str], Iterator[tuple[Any, ...]]]] = {
    "transformer_walk.topics.decoder_cache.same_claim": sames,
    "transformer_walk.topics.decoder_cache.work_claim": works,
    "transformer_walk.topics.decoder_cache.bytes_claim": bytes_,
}
