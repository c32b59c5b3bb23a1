"""Arguments for the claim functions of the A-head-that-copies page, from the recipe's study
trained once per test process (seconds): the study's own numbers, and the same numbers
rearranged so that each claim also meets inputs it must refuse (the roles of two heads swapped,
the untrained and trained losses swapped)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import numpy as np

from transformer_walk.topics.learning import induction
from transformer_walk.topics.learning.name_head_claims import head_label


@cache
def trained() -> induction.InductionStudy:
    return induction.study()


def jumps(text: str) -> Iterator[tuple[Any, ...]]:
    s = trained()
    untrained, final = float(s.second_copy_loss[0]), float(s.second_copy_loss[-1])
    head = head_label(*s.induction_head)
    yield (head, s.jump_step, s.score_rise_step, untrained, final)
    yield (head, s.jump_step, s.score_rise_step + 400, untrained, final)  # far apart
    yield (head, s.jump_step, s.score_rise_step, final, untrained)  # the loss rose


def prefixes(text: str) -> Iterator[tuple[Any, ...]]:
    """The final scores of every head: as trained (both layer-2 heads match), with scores and
    controls swapped (none does), with all but the top head back at chance (one does), with one
    head's control raised (it drops out), and with every head matching (layer 1 too)."""
    s = trained()
    scores, controls = s.prefix_matching[-1], s.prefix_matching_control[-1]
    chance = s.prefix_matching_chance
    yield (scores, controls, chance)
    yield (controls, scores, chance)
    top = np.unravel_index(np.argmax(scores), scores.shape)
    alone = np.full_like(scores, chance)
    alone[top] = scores[top]
    yield (alone, controls, chance)
    raised = controls.copy()
    raised[top] = 3 * chance
    yield (scores, raised, chance)
    yield (np.maximum(scores, 5 * chance), controls, chance)


def previous(text: str) -> Iterator[tuple[Any, ...]]:
    s = trained()
    for layer in range(s.config.layers):
        for head in range(s.config.h):
            score = float(s.previous_token[-1, layer, head])
            yield (head_label(layer, head), score, s.previous_token_chance)


def lower_offs(text: str) -> Iterator[tuple[Any, ...]]:
    s, a = trained(), trained().ablations
    layer, head = s.previous_token_head
    other = head_label(layer, 1 - head)
    yield (head_label(layer, head), other, a.previous_token_head_off, a.other_lower_heads_off,
           a.intact, a.untrained)  # fmt: skip
    yield (other, head_label(layer, head), a.other_lower_heads_off, a.previous_token_head_off,
           a.intact, a.untrained)  # fmt: skip


def upper_offs(text: str) -> Iterator[tuple[Any, ...]]:
    s, a = trained(), trained().ablations
    layer, head = s.induction_head
    other_head, other_off = a.each_other_head_off[0]
    names = (head_label(layer, head), head_label(layer, other_head))
    yield (*names, a.head_off, other_off, a.layer_off, a.intact, a.untrained)
    yield (*names, a.layer_off, other_off, a.layer_off, a.intact, a.untrained)  # one carries it
    yield (*names, a.head_off, other_off, a.intact, a.intact, a.untrained)  # nothing comes back


def first_copies(text: str) -> Iterator[tuple[Any, ...]]:
    s = trained()
    first, last = float(s.first_copy_loss[0]), float(s.first_copy_loss[-1])
    yield (first, last)
    yield (last, first)


_MODULE = "transformer_walk.topics.learning.induction_claims."
INPUTS: dict[str, Callable[[str], Iterator[tuple[Any, ...]]]] = {
    _MODULE + "jump_claim": jumps,
    _MODULE + "prefix_claim": prefixes,
    _MODULE + "previous_claim": previous,
    _MODULE + "previous_off_claim": lower_offs,
    _MODULE + "induction_off_claim": upper_offs,
    _MODULE + "first_copy_claim": first_copies,
}
