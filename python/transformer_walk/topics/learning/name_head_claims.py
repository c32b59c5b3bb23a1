"""What the numbers of task a allow the page to say, each with the predicate that checks it.

Heads are named "L1·H2" (layer 1, head 2, counted from 1), tokens "3 · his"; weights and losses are
given as the page prints them, so a predicate recomputes the same strings from the raw numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from transformer_walk.topics.claims import Claim, claim, percent, token_label
from transformer_walk.topics.learning.name_head import LOOKS_AT_NAME
from transformer_walk.topics.learning.pronouns import (
    PronounTask,
    Sentence,
    name_in_place,
    names_seen,
)

#: Switching heads off "brings the loss back" when it reaches at least this share of the loss
#: of guessing between the two possessives (ln 2): the model then knows no better than a coin.
BACK_SHARE = 0.5


def head_label(layer: int, head: int) -> str:
    """ "L1·H2": layer 1, head 2 (counted from 1), the same in both languages."""
    return f"L{layer + 1}·H{head + 1}"


def loss(value: float) -> str:
    return f"{value:.3f}"


def _found(
    weights: Sequence[float], control: Sequence[float], control_max: float, chance: float
) -> bool:
    return (
        weights[-1] >= LOOKS_AT_NAME * chance
        and control[-1] < LOOKS_AT_NAME * chance
        and control_max < LOOKS_AT_NAME * chance
    )


def _name_head_fields(
    head: str,
    steps: Sequence[int],
    weights: Sequence[float],
    control: Sequence[float],
    control_max: float,
    chance: float,
) -> dict[str, object]:
    return {
        "head": head,
        "steps": steps[-1],
        "start": percent(weights[0]),
        "end": percent(weights[-1]),
        "chance": percent(chance),
        "control": percent(control[-1]),
        "control_max": percent(control_max),
    }


def _name_head_holds(
    said: Claim,
    head: str,
    steps: Sequence[int],
    weights: Sequence[float],
    control: Sequence[float],
    control_max: float,
    chance: float,
) -> bool:
    return (
        said.message == "watch_it_learn.claim.name_head"
        and len(steps) >= 2
        and _found(weights, control, control_max, chance)
        and dict(said.fields)
        == _name_head_fields(head, steps, weights, control, control_max, chance)
    )


@claim(_name_head_holds)
def name_head_claim(
    head: str,
    steps: Sequence[int],
    weights: Sequence[float],
    control: Sequence[float],
    control_max: float,
    chance: float,
) -> Claim | None:
    """The watched head's weight on the name went from its start to at least LOOKS_AT_NAME ×
    chance, while the same head trained on the control task stayed below that, and so did every
    head of the control model (``control_max``: the largest final weight among them); None
    otherwise or without checkpoints."""
    if len(steps) < 2 or not _found(weights, control, control_max, chance):
        return None
    return Claim(
        "watch_it_learn.claim.name_head",
        _name_head_fields(head, steps, weights, control, control_max, chance),
    )


def _ablation_fields(
    heads: Sequence[str], others_count: int, base: float, group: float, others: float, guess: float
) -> dict[str, object]:
    return {
        "count": len(heads),
        "others_count": others_count,
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
    said: Claim,
    heads: Sequence[str],
    others_count: int,
    base: float,
    group: float,
    others: float,
    guess: float,
) -> bool:
    return bool(heads) and (
        said.message == _ablation_message(base, group, others, guess)
        and dict(said.fields) == _ablation_fields(heads, others_count, base, group, others, guess)
    )


@claim(_ablation_holds)
def ablation_claim(
    heads: Sequence[str],
    others_count: int,
    base: float,
    group: float,
    others: float,
    guess: float,
) -> Claim | None:
    """Switching off the heads that look at the name brings the loss on possessives back to at
    least BACK_SHARE of guessing while ``others_count`` other heads off do not ("back"), or it
    does not ("kept"); None without such heads or when the other heads matter as much.
    ``others_count`` is given apart: there may be fewer other heads than name heads."""
    message = _ablation_message(base, group, others, guess) if heads else None
    if message is None:
        return None
    return Claim(message, _ablation_fields(heads, others_count, base, group, others, guess))


#: "Right on only …": the share of sentences answered right stays below this.
FEW_RIGHT = 0.75


def _above_guess(group: float, right: float, guess: float) -> bool:
    return group > guess and right < FEW_RIGHT


def _above_guess_fields(group: float, right: float, guess: float) -> dict[str, object]:
    return {"group": loss(group), "guess": loss(guess), "right": percent(right)}


def _above_guess_holds(said: Claim, group: float, right: float, guess: float) -> bool:
    return (
        said.message == "watch_it_learn.claim.above_guess"
        and _above_guess(group, right, guess)
        and dict(said.fields) == _above_guess_fields(group, right, guess)
    )


@claim(_above_guess_holds)
def above_guess_claim(group: float, right: float, guess: float) -> Claim | None:
    """With the name heads off the loss is above guessing (ln 2) and the share of held-out
    sentences whose right possessive still gets the larger probability, ``right``, is below
    FEW_RIGHT: the model answers with confidence and is often wrong; None otherwise."""
    if not _above_guess(group, right, guess):
        return None
    return Claim("watch_it_learn.claim.above_guess", _above_guess_fields(group, right, guess))


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
        "weight": percent(weight),
        "chance": percent(chance),
    }


def _sentence_level(chance: float) -> float:
    """``on_name_level`` of the ``1 / chance`` keys a query sees. (LOOKS_AT_NAME × chance cannot be
    reached with two keys: "tom loves", uniform 1/2, would need all the weight, so 99.9% went
    unsaid.)"""
    return LOOKS_AT_NAME * chance / (1.0 - chance + LOOKS_AT_NAME * chance)


def _sentence_holds(
    said: Claim, head: str, query: str, name: str, weight: float, chance: float
) -> bool:
    return (
        said.message == "watch_it_learn.claim.your_sentence"
        and weight >= _sentence_level(chance)
        and dict(said.fields) == _sentence_fields(head, query, name, weight, chance)
    )


@claim(_sentence_holds)
def sentence_claim(head: str, query: str, name: str, weight: float, chance: float) -> Claim | None:
    """In the learner's own sentence, the watched head gives the name at least LOOKS_AT_NAME
    times the mean weight of the other keys the query sees (``on_name_level``, with
    ``chance`` = 1 / the keys seen); None otherwise."""
    if weight < _sentence_level(chance):
        return None
    return Claim(
        "watch_it_learn.claim.your_sentence", _sentence_fields(head, query, name, weight, chance)
    )


def _sentence_not_holds(
    said: Claim, head: str, query: str, name: str, weight: float, chance: float
) -> bool:
    return (
        said.message == "watch_it_learn.claim.your_sentence_not"
        and weight < _sentence_level(chance)
        and dict(said.fields)
        == _sentence_fields(head, query, name, weight, chance) | {"times": f"{LOOKS_AT_NAME:g}"}
    )


@claim(_sentence_not_holds)
def sentence_not_claim(
    head: str, query: str, name: str, weight: float, chance: float
) -> Claim | None:
    """``sentence_claim``'s other side: in the learner's own sentence the watched head gives the
    name less than LOOKS_AT_NAME times the mean weight of the other keys the query sees (so the
    head that found the name in the task's sentences does not single it out here); None when
    ``sentence_claim`` speaks."""
    if weight >= _sentence_level(chance):
        return None
    fields = _sentence_fields(head, query, name, weight, chance)
    return Claim("watch_it_learn.claim.your_sentence_not", fields | {"times": f"{LOOKS_AT_NAME:g}"})


def on_name_level(visible: int) -> float:
    """The weight on the name at which it gets LOOKS_AT_NAME times the mean weight of the other
    ``visible`` − 1 keys the query sees: w ≥ LOOKS_AT_NAME · (1 − w) / (visible − 1). With many
    keys this is about LOOKS_AT_NAME × uniform, the study's level; unlike that level it stays
    reachable with two keys ("tom loves": uniform 1/2, twice that is all the weight)."""
    return LOOKS_AT_NAME / (visible - 1 + LOOKS_AT_NAME)


def _ranked_heads(weights: np.ndarray, visible: int) -> list[tuple[str, float]]:
    """(head label, weight) of the heads at ``on_name_level`` or above, the largest weight first
    (equal weights in layer-then-head order)."""
    level = on_name_level(visible)
    found = [(w, layer, head) for (layer, head), w in np.ndenumerate(weights) if w >= level]
    # ``percent`` never shows two different weights near 1 alike ("99.6%", "99.7%"), so the
    # order by weight is the order the learner reads
    found.sort(key=lambda item: -item[0])
    return [(head_label(layer, head), float(w)) for w, layer, head in found]


def _heads_on_name_fields(
    weights: np.ndarray, query: str, name: str, visible: int
) -> tuple[str, dict[str, object]]:
    ranked = _ranked_heads(weights, visible)
    common: dict[str, object] = {
        "query": query,
        "name": name,
        "total": int(weights.size),
        "times": f"{LOOKS_AT_NAME:g}",
        "visible": visible,
        "chance": percent(1.0 / visible),
    }
    if ranked:
        heads = tuple(f"{label} ({percent(w)})" for label, w in ranked)
        return "trained_toy.claim.heads_on_name", common | {"count": len(ranked), "heads": heads}
    layer, head = np.unravel_index(np.argmax(weights), weights.shape)
    top = {"head": head_label(int(layer), int(head)), "weight": percent(float(weights.max()))}
    return "trained_toy.claim.no_head_on_name", common | top


def _readable(weights: np.ndarray, visible: int) -> bool:
    return (
        weights.ndim == 2 and weights.size > 0 and bool(np.isfinite(weights).all()) and visible >= 2
    )


def _heads_on_name_holds(
    said: Claim, weights: np.ndarray, query: str, name: str, visible: int
) -> bool:
    weights = np.asarray(weights, dtype=float)
    if not _readable(weights, visible):
        return False
    message, fields = _heads_on_name_fields(weights, query, name, visible)
    return said.message == message and dict(said.fields) == fields


@claim(_heads_on_name_holds)
def heads_on_name_claim(weights: np.ndarray, query: str, name: str, visible: int) -> Claim | None:
    """Which heads of the trained toy look at the name in the learner's own sentence.
    ``weights`` [layers, h] is each head's weight from the query (the word before the
    possessive) on the name; ``visible`` how many keys the query sees (its position + 1, causal),
    so the control, the weight spread evenly over them, is 1/visible. The heads whose weight on
    the name reaches ``on_name_level`` (LOOKS_AT_NAME times the other keys' mean), strongest
    first, with their weights ("heads_on_name"); or, when none does, the head with the most on
    the name ("no_head_on_name"). None without heads, with a weight that is not a number, or
    with a single visible key (every head's whole weight is on it)."""
    weights = np.asarray(weights, dtype=float)
    if not _readable(weights, visible):
        return None
    return Claim(*_heads_on_name_fields(weights, query, name, visible))


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


#: The message for each gender the head alone looks at, written out for the message id check.
ONLY = {"female": "watch_it_learn.claim.only_female", "male": "watch_it_learn.claim.only_male"}


def _one_gender(male: float, female: float, chance: float) -> str | None:
    """The gender whose names alone the head looks at, or None."""
    level = LOOKS_AT_NAME * chance
    if female >= level > male:
        return "female"
    if male >= level > female:
        return "male"
    return None


def _gender_fields(
    head: str, male: float, female: float, chance: float, other_loss: float
) -> dict[str, object]:
    return {
        "head": head,
        "male": percent(male),
        "female": percent(female),
        "chance": percent(chance),
        "loss": loss(other_loss),
    }


def _gender_holds(
    said: Claim,
    head: str,
    male: float,
    female: float,
    chance: float,
    losses: Sequence[float],
    guess: float,
) -> bool:
    gender = _one_gender(male, female, chance)
    if gender is None or len(losses) != 2:
        return False
    other_loss = float(losses[0] if gender == "female" else losses[1])
    return (
        said.message == ONLY[gender]
        and other_loss < BACK_SHARE * guess
        and dict(said.fields) == _gender_fields(head, male, female, chance, other_loss)
    )


@claim(_gender_holds)
def gender_claim(
    head: str, male: float, female: float, chance: float, losses: Sequence[float], guess: float
) -> Claim | None:
    """The watched head's final weight on male names (``male``) and on female ones: one at least
    LOOKS_AT_NAME × chance, the other below, while the model's loss after names of the neglected
    gender (``losses``: after male names, after female ones) stays below BACK_SHARE of guessing —
    so the model answers those without this head finding their name; None otherwise."""
    gender = _one_gender(male, female, chance)
    if gender is None or len(losses) != 2:
        return None
    other_loss = float(losses[0] if gender == "female" else losses[1])
    if other_loss >= BACK_SHARE * guess:
        return None
    return Claim(
        ONLY[gender],
        _gender_fields(head, male, female, chance, other_loss),
    )


def _far_fields(head: str, weight: float, chance: float, count: int, far: int) -> dict[str, object]:
    return {
        "head": head,
        "weight": percent(weight),
        "chance": percent(chance),
        "count": count,
        "far": far,
    }


def _far(weight: float, chance: float, count: int, far: int) -> bool:
    return far >= 2 and count > 0 and weight >= LOOKS_AT_NAME * chance


def _far_holds(said: Claim, head: str, weight: float, chance: float, count: int, far: int) -> bool:
    return (
        said.message == "watch_it_learn.claim.far"
        and _far(weight, chance, count, far)
        and dict(said.fields) == _far_fields(head, weight, chance, count, far)
    )


@claim(_far_holds)
def far_claim(head: str, weight: float, chance: float, count: int, far: int) -> Claim | None:
    """On the ``count`` held-out sentences whose name is ``far`` (at least 2) or more tokens
    before the query, the watched head's final weight on it is at least LOOKS_AT_NAME × their
    chance: a head that looks at the previous token cannot explain it; None otherwise or
    without such sentences."""
    if not _far(weight, chance, count, far):
        return None
    return Claim("watch_it_learn.claim.far", _far_fields(head, weight, chance, count, far))


#: A row is "nearly flat" when every weight is within this share of 1/n of 1/n.
FLAT = 0.1


def _flat(step: int, row: np.ndarray) -> bool:
    row = np.asarray(row, dtype=float)
    if step != 0 or row.size == 0:
        return False
    even = 1.0 / row.size
    return bool(np.all(np.abs(row - even) <= FLAT * even))


def _flat_fields(row: np.ndarray, std: float) -> dict[str, object]:
    row = np.asarray(row, dtype=float)
    return {"low": percent(float(row.min())), "high": percent(float(row.max())), "std": f"{std:g}"}


def _flat_holds(said: Claim, step: int, row: np.ndarray, std: float) -> bool:
    return (
        said.message == "watch_it_learn.claim.flat_start"
        and _flat(step, row)
        and dict(said.fields) == _flat_fields(row, std)
    )


@claim(_flat_holds)
def flat_start_claim(step: int, row: np.ndarray, std: float) -> Claim | None:
    """At step 0 the query's row (over the tokens it may see) is nearly flat: every weight within
    FLAT × 1/n of 1/n; ``std`` is the standard deviation the learner's weights start with. None
    at any other step or when the row is not flat."""
    if not _flat(step, row):
        return None
    return Claim("watch_it_learn.claim.flat_start", _flat_fields(row, std))


#: The wrong-possessive messages. With one name, the model may prefer the possessive that agrees
#: with it while the sentence has the other: the sentence breaks the task's rule and the model
#: answers as trained ("rule"). Otherwise the model is wrong: in a sentence shaped like the task's,
#: or one whose one name stands where no sentence of the task puts it ("place"); or the sentence
#: holds more than one name ("names": then no rule says which possessive is right, and the name
#: cannot be where the task puts it either: no opening holds a name).
WRONG = {
    "rule": "watch_it_learn.claim.possessive_breaks_rule",
    "shaped": "watch_it_learn.claim.wrong_possessive",
    "names": "watch_it_learn.claim.wrong_possessive_names",
    "place": "watch_it_learn.claim.wrong_possessive_place",
}


def agreeing(task: PronounTask, name: str) -> str:
    """The possessive that agrees with ``name`` in the task: his after a male name, her after a
    female one."""
    return task.words.his if name in task.words.male else task.words.her


def _token(sentence: Sentence, position: int) -> str:
    return token_label(position + 1, sentence.tokens[position])


def _wrong_fields(
    task: PronounTask, sentence: Sentence, p_his: float, p_her: float
) -> tuple[str, dict[str, object]] | None:
    words = task.words
    written = sentence.tokens[sentence.possessive_position]
    if p_his == p_her or written not in (words.his, words.her):
        return None
    preferred = words.his if p_his > p_her else words.her
    if preferred == written:
        return None
    probs = {words.his: p_his, words.her: p_her}
    fields: dict[str, object] = {
        "query": _token(sentence, sentence.query_position),
        "preferred": preferred,
        "p_preferred": percent(probs[preferred], 1),
        "written": written,
        "p_written": percent(probs[written], 1),
    }
    names = names_seen(task, sentence)
    if len(names) > 1:
        labels = tuple(_token(sentence, i) for i in names)
        return WRONG["names"], fields | {"count": len(names), "names": labels}
    if preferred == agreeing(task, sentence.tokens[sentence.name_position]):
        return WRONG["rule"], fields | {"name": _token(sentence, sentence.name_position)}
    if not name_in_place(task, sentence):
        return WRONG["place"], fields | {"name": _token(sentence, sentence.name_position)}
    return WRONG["shaped"], fields


def _wrong_holds(
    said: Claim, task: PronounTask, sentence: Sentence, p_his: float, p_her: float
) -> bool:
    words, tokens = task.words, sentence.tokens
    fields = dict(said.fields)
    written = tokens[sentence.possessive_position]
    seen = [
        i
        for i, word in enumerate(tokens[: sentence.query_position + 1])
        if word in words.male or word in words.female
    ]
    if said.message == WRONG["names"]:
        shape = len(seen) >= 2 and fields.get("names") == tuple(
            token_label(i + 1, tokens[i]) for i in seen
        )
    else:  # one name, and whether the possessive the model prefers agrees with it
        at = sentence.name_position
        agrees = fields.get("preferred") == (words.his if tokens[at] in words.male else words.her)
        if said.message == WRONG["rule"]:
            shape = (
                seen == [at] and agrees and fields.get("name") == token_label(at + 1, tokens[at])
            )
        else:  # in place: before it nothing or an opening, after it a verb at or before the query
            placed = (
                tokens[:at] in words.openings
                and at < sentence.query_position
                and tokens[at + 1] in words.verbs
            )
            shape = seen == [at] and not agrees and (placed == (said.message == WRONG["shaped"]))
    bigger = p_his if fields.get("preferred") == words.his else p_her
    smaller = p_her if fields.get("preferred") == words.his else p_his
    return (
        said.message in WRONG.values()
        and shape
        and bigger > smaller
        and fields.get("written") == written != fields.get("preferred")
        and _wrong_fields(task, sentence, p_his, p_her) == (said.message, fields)
    )


@claim(_wrong_holds)
def wrong_possessive_claim(
    task: PronounTask, sentence: Sentence, p_his: float, p_her: float
) -> Claim | None:
    """The model, at the sentence's query, gives the possessive the sentence does not have more
    probability than the one it has (``p_his``, ``p_her``): which it prefers and with what
    probability, which the sentence has. With one name, when the preferred possessive agrees
    with it ("rule"), that the sentence breaks the task's rule and the model answers as trained;
    else the model is wrong, and when the query sees more than one name ("names") or the name
    is not where the task's sentences put it (``name_in_place``, "place"), that the task never
    trained on such a sentence. None when the model prefers the sentence's own possessive or
    gives both the same."""
    found = _wrong_fields(task, sentence, p_his, p_her)
    return None if found is None else Claim(*found)
