"""What the Inside-the-decoder page says about a logit lens (``SmolLM2.lens``): where the model's
own choice stands layer by layer, against where a token drawn at random stands, and what the
embeddings alone read as. Plain functions over the lens's arrays; the claims are checked by their
predicates from the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

from transformer_walk.topics.claims import Claim, claim


def chance_place(vocab: int) -> float:
    """Where a token drawn at random stands on average among ``vocab`` tokens, counting the top
    as 1: (vocab + 1) / 2, whatever the scores (ties aside)."""
    return (vocab + 1) / 2


def first_top(places: Sequence[int]) -> int:
    """The first layer from which ``places`` (the choice's place at layers 0 … L, 1 = the top)
    stays 1 to the last layer; L + 1 when it is not the top at the last."""
    above = [layer for layer, place in enumerate(places) if place != 1]
    return 0 if not above else above[-1] + 1


def _choice_fields(
    places: Sequence[int], query: str, choice: str, vocab: int
) -> tuple[str, dict[str, object]]:
    layers = len(places) - 1
    first = first_top(places)
    middle = layers // 2
    fields: dict[str, object] = {
        "query": query,
        "choice": choice,
        "first": first,
        "layers": layers,
        "place0": f"{places[0]:,}",
        "middle": middle,
        "place_middle": f"{places[middle]:,}",
        "vocab": f"{vocab:,}",
        "chance": f"{chance_place(vocab):,.0f}",
    }
    if first < layers:
        return "inside_decoder.claim.choice_early", fields | {"ahead": layers - first}
    earlier = sum(1 for place in places[:-1] if place == 1)
    if earlier == 0:
        return "inside_decoder.claim.choice_last", fields
    fields |= {"earlier": earlier, "before_last": layers - 1}
    return "inside_decoder.claim.choice_back", fields


def _choice_holds(
    said: Claim, places: Sequence[int], query: str, choice: str, vocab: int
) -> bool:  # fmt: skip
    first = first_top(places)
    return (
        len(places) >= 2
        and places[-1] == 1
        and all(1 <= p <= vocab for p in places)
        and first < len(places)
        and all(p == 1 for p in places[first:])
        and (first == 0 or places[first - 1] != 1)
        and (said.message != "inside_decoder.claim.choice_last" or 1 not in places[:-1])
        and said == Claim(*_choice_fields(places, query, choice, vocab))
    )


@claim(_choice_holds)
def choice_claim(places: Sequence[int], query: str, choice: str, vocab: int) -> Claim | None:
    """The model's choice after ``query`` (its top token at the last layer) read layer by
    layer: from which layer it stays the top token (or that it is the top only at the last, or
    on top again there after earlier layers), and its place at layer 0 and half-way up beside a
    random token's average place. ``places``: its place (1 = the top) at layers
    0 … L. None when it is not the top at the last layer (then it is not the model's choice)."""
    if len(places) < 2 or places[-1] != 1:
        return None
    return Claim(*_choice_fields(places, query, choice, vocab))


def _own_holds(said: Claim, top0: int, own: int, query: str) -> bool:
    return top0 == own and said == Claim("inside_decoder.claim.own_token", {"query": query})


@claim(_own_holds)
def own_token_claim(top0: int, own: int, query: str) -> Claim | None:
    """At layer 0 (the embeddings alone) the lens's top token after ``query`` is ``own``, the
    token at that position itself; None when it is another. ``top0``: that top token's id."""
    if top0 != own:
        return None
    return Claim("inside_decoder.claim.own_token", {"query": query})
