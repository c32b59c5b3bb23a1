"""Inputs of the Inside-the-decoder page's claims (tests/test_claims.py): the logit lens of
SmolLM2 on each text, at its last position and its first, and made-up places with ties and
returns to the top."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

from smollm2_support import MODEL_SKIP, RUST_SKIP, shared_model

MADE_UP = (
    [5, 1, 3, 1, 1],
    [1, 1, 1],
    [9, 9, 1],
    [2, 1, 2],
    [1],
    [1, 1, 2],
    [1, 4, 1],
    [3, 1, 2, 1],
)


@functools.cache
def _lenses(text: str) -> tuple[tuple[list[int], int, int], ...]:
    """(places of the model's choice at layers 0 … L, layer 0's top, the token there) at the
    text's first and last positions (none without the model or a token), on rust_core when it
    is built (a tenth of NumPy's time), the text cut to 48 tokens."""
    if MODEL_SKIP is not None:
        return ()
    model = shared_model("numpy" if RUST_SKIP is not None else "rust")
    ids = model.tokenize(text)[:48]
    if not ids:
        return ()
    text = model.decode(ids)
    found = []
    for position in sorted({0, len(model.tokenize(text)) - 1}):
        lens = model.lens(text, k=1, positions=[position])
        places = [int(r) + 1 for r in lens.chosen_rank[:, 0]]
        found.append((places, int(lens.top_ids[0, 0, 0]), int(lens.ids[position])))
    return tuple(found)


def choices(text: str) -> Iterator[tuple[Any, ...]]:
    for places, _, _ in _lenses(text):
        yield (places, "1 · q", "“c”", 49152)
    for places in MADE_UP:
        yield (places, "1 · q", "“c”", 10)


def own_tokens(text: str) -> Iterator[tuple[Any, ...]]:
    for _, top0, own in _lenses(text):
        yield (top0, own, "1 · q")
    yield (3, 4, "2 · q")


@functools.cache
def _attributions(text: str) -> tuple[Any, ...]:
    """The attribution of the model's choice after the last of the text's first 16 tokens."""
    if MODEL_SKIP is not None:
        return ()
    from transformer_walk.topics import decoder_attribution as da

    model = shared_model("numpy" if RUST_SKIP is not None else "rust")
    ids = model.tokenize(text)[:16]
    if not ids:
        return ()
    out = model.run(model.decode(ids), trace=True)
    position = out.n - 1
    return (da.attribute(model, out, position, int(out.logits[position].argmax())),)


def sums(text: str) -> Iterator[tuple[Any, ...]]:
    for found in _attributions(text):
        yield (found,)


def ablations(text: str) -> Iterator[tuple[Any, ...]]:
    """Made-up changes against made-up controls: below, above, among and on their edges."""
    for change in (-2.0, -0.5, 0.0, 0.1, 1.5, -1.0, 1.0):
        yield (["L1·H1", "L2·H3"], "“c”", change, [-1.0, 0.2, 1.0])
    for change in (-0.1, 0.1, -3.0, 3.0):
        yield (["L1·H1"], "“c”", change, [-1.0, -0.5])
        yield (["L1·H1"], "“c”", change, [0.5, 1.0])
    yield (["L1·H1"], "“c”", 0.3, [0.3])
    yield ([], "“c”", 0.3, [0.3])


INPUTS: dict[str, Callable[[str], Iterator[tuple[Any, ...]]]] = {
    "transformer_walk.topics.decoder_lens.choice_claim": choices,
    "transformer_walk.topics.decoder_lens.own_token_claim": own_tokens,
    "transformer_walk.topics.decoder_attribution.sum_claim": sums,
    "transformer_walk.topics.decoder_attribution.ablation_claim": ablations,
}
