"""What the numbers of task a allow the page to say, each with the predicate that checks it.

Heads are named "L1·H2" (layer 1, head 2, counted from 1), tokens "3 · his"; weights and losses are
given as the page prints them, so a predicate recomputes the same strings from the raw numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from transformer_walk.topics.claims import Claim, claim
from transformer_walk.topics.learning.name_head import LOOKS_AT_NAME

#: Switching heads off "brings the loss back" when it reaches at least this share of the loss
#: of guessing between the two possessives (ln 2): the model then knows no better than a coin.
BACK_SHARE = 0.5


def head_label(layer: int, head: int) -> str:
    """ "L1·H2": layer 1, head 2 (counted from 1), the same in both languages."""
    return f"L{layer + 1}·H{head + 1}"


def share(value: float) -> str:
    return f"{value:.0%}"


def loss(value: float) -> str:
    return f"{value:.3f}"


def _found(weights: Sequence[float], control: Sequence[float], chance: float) -> bool:
    return weights[-1] >= LOOKS_AT_NAME * chance and control[-1] < LOOKS_AT_NAME * chance


def _name_head_holds(
    said: Claim,
    head: str,
    steps: Sequence[int],
    weights: Sequence[float],
    control: Sequence[float],
    chance: float,
) -> bool:
    return (
        said.message == "watch_it_learn.claim.name_head"
        and _found(weights, control, chance)
        and dict(said.fields)
        == {
            "head": head,
            "steps": steps[-1],
            "start": share(weights[0]),
            "end": share(weights[-1]),
            "chance": share(chance),
            "control": share(control[-1]),
        }
    )


@claim(_name_head_holds)
def name_head_claim(
    head: str,
    steps: Sequence[int],
    weights: Sequence[float],
    control: Sequence[float],
    chance: float,
) -> Claim | None:
    """The watched head's weight on the name went from its start to at least LOOKS_AT_NAME ×
    chance, while the same head trained on the control task stayed below that; None otherwise
    or without checkpoints."""
    if len(steps) < 2 or not _found(weights, control, chance):
        return None
    return Claim(
        "watch_it_learn.claim.name_head",
        {
            "head": head,
            "steps": steps[-1],
            "start": share(weights[0]),
            "end": share(weights[-1]),
            "chance": share(chance),
            "control": share(control[-1]),
        },
    )


def _ablation_fields(
    heads: Sequence[str], base: float, group: float, others: float, guess: float
) -> dict[str, object]:
    return {
        "count": len(heads),
        "heads": tuple(heads),  # a list: the page joins it as its language writes lists
        "base": loss(base),
        "group": loss(group),
        "others": loss(others),
        "guess": loss(guess),
    }


def _ablation_message(base: float, group: float, others: float, guess: float) -> str | None:
    if group >= BACK_SHARE * guess and others < BACK_SHARE * guess:
        return "watch_it_learn.claim.ablation_back"
    if group < BACK_SHARE * guess:
        return "watch_it_learn.claim.ablation_kept"
    return None


def _ablation_holds(
    said: Claim, heads: Sequence[str], base: float, group: float, others: float, guess: float
) -> bool:
    return bool(heads) and (
        said.message == _ablation_message(base, group, others, guess)
        and dict(said.fields) == _ablation_fields(heads, base, group, others, guess)
    )


@claim(_ablation_holds)
def ablation_claim(
    heads: Sequence[str], base: float, group: float, others: float, guess: float
) -> Claim | None:
    """Switching off the heads that look at the name brings the loss on possessives back to at
    least BACK_SHARE of guessing while as many other heads off do not ("back"), or it does not
    ("kept"); None without such heads or when the other heads matter as much."""
    message = _ablation_message(base, group, others, guess) if heads else None
    if message is None:
        return None
    return Claim(message, _ablation_fields(heads, base, group, others, guess))


def _single_fields(single_off: np.ndarray) -> dict[str, object]:
    layer, head = np.unravel_index(np.argmax(single_off), single_off.shape)
    return {"head": head_label(int(layer), int(head)), "loss": loss(float(single_off.max()))}


def _single_message(single_off: np.ndarray, guess: float) -> str:
    if float(np.max(single_off)) < BACK_SHARE * guess:
        return "watch_it_learn.claim.no_single_head"
    return "watch_it_learn.claim.single_head"


def _single_holds(said: Claim, single_off: np.ndarray, guess: float) -> bool:
    single_off = np.asarray(single_off, dtype=float)
    return (
        single_off.size > 0
        and said.message == _single_message(single_off, guess)
        and dict(said.fields) == _single_fields(single_off)
    )


@claim(_single_holds)
def single_head_claim(single_off: np.ndarray, guess: float) -> Claim | None:
    """Whether one head alone carries the name: the worst loss with a single head off, and
    whether it reaches BACK_SHARE of guessing; None without heads."""
    single_off = np.asarray(single_off, dtype=float)
    if single_off.size == 0:
        return None
    return Claim(_single_message(single_off, guess), _single_fields(single_off))


def _sentence_fields(
    head: str, query: str, name: str, weight: float, chance: float
) -> dict[str, object]:
    return {
        "head": head,
        "query": query,
        "name": name,
        "weight": share(weight),
        "chance": share(chance),
    }


def _sentence_holds(
    said: Claim, head: str, query: str, name: str, weight: float, chance: float
) -> bool:
    return (
        said.message == "watch_it_learn.claim.your_sentence"
        and weight >= LOOKS_AT_NAME * chance
        and dict(said.fields) == _sentence_fields(head, query, name, weight, chance)
    )


@claim(_sentence_holds)
def sentence_claim(head: str, query: str, name: str, weight: float, chance: float) -> Claim | None:
    """In the learner's own sentence, the watched head puts at least LOOKS_AT_NAME × chance of
    the query's attention on the name; None otherwise."""
    if weight < LOOKS_AT_NAME * chance:
        return None
    return Claim(
        "watch_it_learn.claim.your_sentence", _sentence_fields(head, query, name, weight, chance)
    )


#: The male and female names "moved apart" when their separation grew at least this many times
#: and ends at least this many times the control split's.
APART = 2.0


def _apart(before: float, after: float, control_after: float) -> bool:
    return after >= APART * before and after >= APART * control_after


def _apart_fields(
    before: float, after: float, control_before: float, control_after: float
) -> dict[str, object]:
    return {
        "before": f"{before:.1f}",
        "after": f"{after:.1f}",
        "control_before": f"{control_before:.1f}",
        "control_after": f"{control_after:.1f}",
    }


def _apart_holds(
    said: Claim, before: float, after: float, control_before: float, control_after: float
) -> bool:
    return (
        said.message == "watch_it_learn.claim.names_apart"
        and _apart(before, after, control_after)
        and dict(said.fields) == _apart_fields(before, after, control_before, control_after)
    )


@claim(_apart_holds)
def names_apart_claim(
    before: float, after: float, control_before: float, control_after: float
) -> Claim | None:
    """The names' separation by gender grew at least APART times in training and ends at least
    APART times the control split's (the verbs in halves); None otherwise."""
    if not _apart(before, after, control_after):
        return None
    return Claim(
        "watch_it_learn.claim.names_apart",
        _apart_fields(before, after, control_before, control_after),
    )


def _names_first(names: np.ndarray, nouns: np.ndarray) -> bool:
    names, nouns = np.asarray(names, dtype=float), np.asarray(nouns, dtype=float)
    if names.size == 0 or nouns.size == 0 or names.shape[0] != nouns.shape[0]:
        return False
    return bool((names.min(axis=1) > nouns.max(axis=1)).all())


def _names_first_holds(said: Claim, head: str, names: np.ndarray, nouns: np.ndarray) -> bool:
    return (
        said.message == "watch_it_learn.claim.names_first"
        and _names_first(names, nouns)
        and dict(said.fields) == {"head": head, "rows": int(np.asarray(names).shape[0])}
    )


@claim(_names_first_holds)
def names_first_claim(head: str, names: np.ndarray, nouns: np.ndarray) -> Claim | None:
    """For every query word (a row), head ``head`` scores every name above every noun; None
    otherwise. ``names`` [rows, names] and ``nouns`` [rows, nouns] are its word scores."""
    if not _names_first(names, nouns):
        return None
    return Claim(
        "watch_it_learn.claim.names_first", {"head": head, "rows": int(np.asarray(names).shape[0])}
    )
