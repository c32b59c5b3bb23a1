"""What the Positions page says about its shuffle, as claims (``topics.claims``): whether the
outputs without positions are the same rows reordered (within rounding error), and what happened
to a token that kept its place.

Tokens are tracked by their original position, not by their word: in "the cat saw the cat" a
"cat" that lands where the other "cat" stood has moved, and its output is compared with the output
it had at its own old place (``ShuffleResult``: row k against original row perm[k]). The page
numbers places from 0, as ``pos`` in the formula, so labels read "0 · the".
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from transformer_walk.app.views.labels import difference_label
from transformer_walk.topics.claims import Claim, claim, position_of, token_label
from transformer_walk.topics.positions import ShuffleResult


def place_label(tokens: Sequence[str], place: int) -> str:
    """ "3 · the": the token at ``place``, numbered from 0 as on this page."""
    return token_label(place, tokens[place])


def place_of(label: object, tokens: Sequence[str]) -> int:
    """The place a ``place_label`` names, checked against the tokens (ValueError otherwise)."""
    place = position_of(label) + 1  # position_of counts labels from 1; this page from 0
    if not 0 <= place < len(tokens) or label != place_label(tokens, place):
        raise ValueError(f"{label!r} names no token of {list(tokens)!r}")
    return place


def _shows(value: float) -> str:
    return f"{value:.3f}"


# --- without positions: the same rows, reordered? ---------------------------------------------


def _verdict_message(off: ShuffleResult, on: ShuffleResult) -> str:
    if not off.within_rounding:
        return "positions.shuffle.not_equivariant"
    return (
        "positions.shuffle.both_rounding" if on.within_rounding else "positions.shuffle.equivariant"
    )


def _verdict_holds(said: Claim, off: ShuffleResult, on: ShuffleResult) -> bool:
    return (
        said.message == _verdict_message(off, on)
        and said.fields["off"] == difference_label(off.max_difference)
        and said.fields["on"]
        == (
            difference_label(on.max_difference) if on.within_rounding else _shows(on.max_difference)
        )
    )


@claim(_verdict_holds)
def shuffle_verdict(off: ShuffleResult, on: ShuffleResult) -> Claim:
    """What the two largest differences say: without positions (``off``) within rounding error
    and with them (``on``) beyond it — the layer is equivariant and positions break it; both
    within rounding (this shuffle changed nothing); or ``off`` beyond rounding, said as it is."""
    on_text = (
        difference_label(on.max_difference) if on.within_rounding else _shows(on.max_difference)
    )
    return Claim(
        _verdict_message(off, on), {"off": difference_label(off.max_difference), "on": on_text}
    )


# --- with positions: a token that kept its place ----------------------------------------------


def _note_holds(
    said: Claim, perm: np.ndarray, tokens: Sequence[str], differences: np.ndarray
) -> bool:
    order = [int(p) for p in perm]
    stayed = [k for k, p in enumerate(order) if p == k]
    if said.message == "positions.shuffle.note_none":
        copies = [k for k, p in enumerate(order) if tokens[p] == tokens[k]]
        return not stayed and not copies and not said.fields
    k = place_of(said.fields["token"], tokens)  # a copy holds the same word as tokens[k]
    diff = float(differences[k])
    if said.fields["diff"] != _shows(diff):
        return False
    if said.message in ("positions.shuffle.stayed", "positions.shuffle.stayed_same"):
        moved = _shows(diff) != _shows(0.0)
        return (
            bool(stayed)
            and k == stayed[0]
            and said.message
            == ("positions.shuffle.stayed" if moved else "positions.shuffle.stayed_same")
            and set(said.fields) == {"token", "diff"}
        )
    if said.message == "positions.shuffle.copy_moved":
        source = place_of(said.fields["source"], tokens)
        copies = [j for j, p in enumerate(order) if tokens[p] == tokens[j]]
        return not stayed and bool(copies) and k == copies[0] and source == order[k] != k
    return False


@claim(_note_holds)
def kept_place_note(perm: np.ndarray, tokens: Sequence[str], differences: np.ndarray) -> Claim:
    """A note on the first token the shuffle left at its own place (perm[k] == k): how far its
    output moved (``differences`` [n], the largest |change| of each shuffled row), "moved" only
    when that shows at three decimals. Without one: the first place that holds the same word as
    before but another copy of it (it moved, and is compared with its own old output), or that no
    token kept its place."""
    order = [int(p) for p in perm]
    stayed = [k for k, p in enumerate(order) if p == k]
    if stayed:
        k = stayed[0]
        diff = _shows(float(differences[k]))
        message = (
            "positions.shuffle.stayed" if diff != _shows(0.0) else "positions.shuffle.stayed_same"
        )
        return Claim(message, {"token": place_label(tokens, k), "diff": diff})
    copies = [k for k, p in enumerate(order) if tokens[p] == tokens[k]]
    if copies:
        k = copies[0]
        return Claim(
            "positions.shuffle.copy_moved",
            {
                "token": place_label([tokens[p] for p in order], k),
                "source": place_label(tokens, order[k]),
                "diff": _shows(float(differences[k])),
            },
        )
    return Claim("positions.shuffle.note_none")
