"""What the numbers of task b allow the page to say, each with the predicate that checks it.

Heads are named "L2·H1" (layer 2, head 1, counted from 1); losses and shares are given as the page
prints them, so a predicate recomputes the same strings from the raw numbers.
"""

from __future__ import annotations

import numpy as np

from transformer_walk.topics.claims import Claim, claim, percent
from transformer_walk.topics.learning.name_head_claims import head_label

#: A loss "comes back" when switching heads off lifts it to at least this share of the untrained
#: loss, and "stays" below it otherwise.
BACK_SHARE = 0.5
#: A score "rose" when it ends at least this many times its chance level, and stayed at chance
#: (a control) below twice chance.
ROSE = 4.0
AT_CHANCE = 2.0
#: The loss's jump and the score's rise "happen together" within this many steps of each other.
TOGETHER = 100


def loss(value: float) -> str:
    return f"{value:.2f}"


def _together(jump: int, rise: int, untrained: float, final: float) -> bool:
    return abs(jump - rise) <= TOGETHER and final < BACK_SHARE * untrained


def _jump_fields(
    head: str, jump: int, rise: int, untrained: float, final: float
) -> dict[str, object]:
    return {
        "head": head,
        "jump": jump,
        "rise": rise,
        "untrained": loss(untrained),
        "final": loss(final),
    }


def _jump_holds(
    said: Claim, head: str, jump: int, rise: int, untrained: float, final: float
) -> bool:
    return (
        said.message == "head_that_copies.claim.jump"
        and _together(jump, rise, untrained, final)
        and dict(said.fields) == _jump_fields(head, jump, rise, untrained, final)
    )


@claim(_jump_holds)
def jump_claim(head: str, jump: int, rise: int, untrained: float, final: float) -> Claim | None:
    """The second-copy loss fell to under BACK_SHARE of its untrained value, with its steepest
    drop (``jump``) within TOGETHER steps of the step head ``head``'s prefix-matching score was
    half-way up (``rise``); None otherwise."""
    if not _together(jump, rise, untrained, final):
        return None
    return Claim("head_that_copies.claim.jump", _jump_fields(head, jump, rise, untrained, final))


def _matches(score: float, control: float, chance: float) -> bool:
    return score >= ROSE * chance and control < AT_CHANCE * chance


def _prefix_heads(
    scores: np.ndarray, controls: np.ndarray, chance: float
) -> list[tuple[str, float, float]]:
    """(label, score, control) of every head that matches prefixes by ``_matches``, the highest
    score first (equal scores in layer-then-head order)."""
    found = [
        (head_label(layer, head), float(scores[layer, head]), float(controls[layer, head]))
        for layer, head in np.ndindex(scores.shape)
        if _matches(float(scores[layer, head]), float(controls[layer, head]), chance)
    ]
    found.sort(key=lambda item: -item[1])  # stable: ties keep layer-then-head order
    return found


def _prefix_said(
    scores: np.ndarray, controls: np.ndarray, chance: float
) -> tuple[str, dict[str, object]] | None:
    """(message id, fields): one head that matches, by its numbers; several, each with its score
    and the highest control among them; None when no head matches."""
    found = _prefix_heads(scores, controls, chance)
    if not found:
        return None
    if len(found) == 1:
        head, score, control = found[0]
        fields: dict[str, object] = {
            "head": head,
            "score": percent(score),
            "control": percent(control),
        }
        return "head_that_copies.claim.prefix", fields | {"chance": percent(chance)}
    return "head_that_copies.claim.prefix_heads", {
        "count": len(found),
        "heads": tuple(f"{head} ({percent(score)})" for head, score, _ in found),
        "control": percent(max(control for _, _, control in found)),
        "chance": percent(chance),
        "times": f"{ROSE:g}",
    }


def _readable(scores: np.ndarray, controls: np.ndarray) -> bool:
    return (
        scores.ndim == 2
        and scores.shape == controls.shape
        and bool(np.isfinite(scores).all() and np.isfinite(controls).all())
    )


def _prefix_holds(said: Claim, scores: np.ndarray, controls: np.ndarray, chance: float) -> bool:
    scores, controls = np.asarray(scores, dtype=float), np.asarray(controls, dtype=float)
    if not _readable(scores, controls):
        return False
    fields = dict(said.fields)
    at = {head_label(layer, head): (layer, head) for layer, head in np.ndindex(scores.shape)}
    if said.message == "head_that_copies.claim.prefix":
        named = {str(fields["head"]): str(fields["score"])}
    else:  # "L2·H1 (79%)": the head and the score shown for it
        items = [str(item).rsplit(" (", 1) for item in fields["heads"]]  # type: ignore[attr-defined]
        named = {head: score.removesuffix(")") for head, score in items}
    every_named_matches = all(
        head in at
        and _matches(float(scores[at[head]]), float(controls[at[head]]), chance)
        and score == percent(float(scores[at[head]]))
        for head, score in named.items()
    )
    none_left_out = set(named) == {head for head, _, _ in _prefix_heads(scores, controls, chance)}
    return (
        every_named_matches
        and none_left_out
        and (said.message, fields) == _prefix_said(scores, controls, chance)
    )


@claim(_prefix_holds)
def prefix_claim(scores: np.ndarray, controls: np.ndarray, chance: float) -> Claim | None:
    """The heads that match prefixes: ``scores`` [layers, h] is each head's final prefix-matching
    weight where a repeat is, ``controls`` [layers, h] the same on sequences without one. A head
    matches when it ends with at least ROSE × chance and its control stays under AT_CHANCE ×
    chance. One head: its numbers ("prefix"); several: every one of them with its score, the
    highest first, and the highest control among them ("prefix_heads"); None when no head
    matches or a number is not finite."""
    scores, controls = np.asarray(scores, dtype=float), np.asarray(controls, dtype=float)
    if not _readable(scores, controls):
        return None
    found = _prefix_said(scores, controls, chance)
    return None if found is None else Claim(*found)


def _previous_holds(said: Claim, head: str, score: float, chance: float) -> bool:
    return (
        said.message == "head_that_copies.claim.previous"
        and score >= ROSE * chance
        and dict(said.fields) == {"head": head, "score": percent(score), "chance": percent(chance)}
    )


@claim(_previous_holds)
def previous_claim(head: str, score: float, chance: float) -> Claim | None:
    """Head ``head`` puts at least ROSE × chance of each position's attention on the position
    before it; None otherwise."""
    if score < ROSE * chance:
        return None
    fields = {"head": head, "score": percent(score), "chance": percent(chance)}
    return Claim("head_that_copies.claim.previous", fields)


def _back(value: float, untrained: float) -> bool:
    return value >= BACK_SHARE * untrained


def _lower_fields(
    head: str, other: str, off: float, other_off: float, intact: float, untrained: float
) -> dict[str, object]:
    return {
        "head": head,
        "other": other,
        "off": loss(off),
        "other_off": loss(other_off),
        "intact": loss(intact),
        "untrained": loss(untrained),
    }


def _lower_holds(
    said: Claim,
    head: str,
    other: str,
    off: float,
    other_off: float,
    intact: float,
    untrained: float,
) -> bool:
    return (
        said.message == "head_that_copies.claim.previous_off"
        and _back(off, untrained)
        and not _back(other_off, untrained)
        and dict(said.fields) == _lower_fields(head, other, off, other_off, intact, untrained)
    )


@claim(_lower_holds)
def previous_off_claim(
    head: str, other: str, off: float, other_off: float, intact: float, untrained: float
) -> Claim | None:
    """Switching off the previous-token head brings the second-copy loss back (to at least
    BACK_SHARE of untrained) and switching off the other head of its layer does not; None
    otherwise."""
    if not _back(off, untrained) or _back(other_off, untrained):
        return None
    fields = _lower_fields(head, other, off, other_off, intact, untrained)
    return Claim("head_that_copies.claim.previous_off", fields)


def _upper_message(head_off: float, other_off: float, layer_off: float, untrained: float) -> str:
    """ "shared": neither head alone off brings the loss back, both off do; "alone": the
    induction head off does, the other head off does not; "" otherwise."""
    head_back, other_back = _back(head_off, untrained), _back(other_off, untrained)
    if _back(layer_off, untrained) and not head_back and not other_back:
        return "head_that_copies.claim.shared"
    if head_back and not other_back:
        return "head_that_copies.claim.alone"
    return ""


def _upper_fields(
    head: str, other: str, head_off: float, other_off: float, layer_off: float, intact: float
) -> dict[str, object]:
    return {
        "head": head,
        "other": other,
        "head_off": loss(head_off),
        "other_off": loss(other_off),
        "layer_off": loss(layer_off),
        "intact": loss(intact),
    }


def _upper_holds(
    said: Claim,
    head: str,
    other: str,
    head_off: float,
    other_off: float,
    layer_off: float,
    intact: float,
    untrained: float,
) -> bool:
    message = _upper_message(head_off, other_off, layer_off, untrained)
    return (
        bool(message)
        and said.message == message
        and dict(said.fields) == _upper_fields(head, other, head_off, other_off, layer_off, intact)
    )


@claim(_upper_holds)
def induction_off_claim(
    head: str,
    other: str,
    head_off: float,
    other_off: float,
    layer_off: float,
    intact: float,
    untrained: float,
) -> Claim | None:
    """What switching off the induction layer's heads shows: the copying is "shared" (each head
    alone off leaves the loss low, both off bring it back) or done by the induction head "alone"
    (it off brings the loss back, the other head off does not); None when neither holds."""
    message = _upper_message(head_off, other_off, layer_off, untrained)
    if not message:
        return None
    return Claim(message, _upper_fields(head, other, head_off, other_off, layer_off, intact))


def _first_holds(said: Claim, untrained: float, final: float) -> bool:
    return (
        said.message == "head_that_copies.claim.first_copy"
        and final > untrained
        and dict(said.fields) == {"untrained": loss(untrained), "final": loss(final)}
    )


@claim(_first_holds)
def first_copy_claim(untrained: float, final: float) -> Claim | None:
    """The loss on the first copy (nothing to copy there) ended above its untrained value; None
    otherwise."""
    if final <= untrained:
        return None
    return Claim(
        "head_that_copies.claim.first_copy", {"untrained": loss(untrained), "final": loss(final)}
    )
