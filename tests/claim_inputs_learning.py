"""Arguments for the claim functions of the Watch-it-learn page, from the possessive study trained
once per test process (seconds): the study's own numbers for every head, the same numbers with the
task and the control swapped (a model that learned nothing), and, for a sentence of the corpus that
the task's words can read, each head's weight from its query on its name."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import numpy as np

from transformer_walk.models.learner.params import INIT_STD
from transformer_walk.topics.learning import inside
from transformer_walk.topics.learning.name_head import (
    FAR,
    GUESS_LOSS,
    NameHeadSettings,
    NameHeadStudy,
    name_heads,
    other_heads,
    read_sentence,
    study,
)
from transformer_walk.topics.learning.name_head_claims import head_label
from transformer_walk.topics.learning.pronouns import LANGUAGES, PronounTask, parse


@cache
def trained(language: str = "en") -> NameHeadStudy:
    return study(NameHeadSettings(language=language))


def name_heads_over_steps(text: str) -> Iterator[tuple[Any, ...]]:
    """(head, steps, weights, control weights, control's largest, chance) for every head, as
    trained and swapped, and with a control head made to look at the name."""
    s = trained()
    control_max = float(s.control_name_weight[-1].max())
    task_max = float(s.name_weight[-1].max())
    for (layer, head), _ in np.ndenumerate(s.name_weight[-1]):
        task = [float(w) for w in s.name_weight[:, layer, head]]
        control = [float(w) for w in s.control_name_weight[:, layer, head]]
        yield (head_label(layer, head), s.steps, task, control, control_max, s.chance)
        yield (head_label(layer, head), s.steps, control, task, task_max, s.chance)
        # another control head looks at the name: the claim must not be made
        yield (head_label(layer, head), s.steps, task, control, task_max, s.chance)


def switch_offs(text: str) -> Iterator[tuple[Any, ...]]:
    """(name heads, base, group off, others off, guess): as measured, and with the two swapped."""
    s = trained()
    group = [head_label(*map(int, i)) for i in np.argwhere(name_heads(s.name_weight[-1], s.chance))]
    others = int(other_heads(s.name_weight[-1], s.chance).sum())
    yield (group, others, s.base_loss, s.group_off, s.others_off, GUESS_LOSS)
    yield (group, others, s.base_loss, s.others_off, s.group_off, GUESS_LOSS)
    yield (group, others, s.base_loss, s.group_off, s.group_off, GUESS_LOSS)
    yield ([], others, s.base_loss, s.group_off, s.others_off, GUESS_LOSS)
    # fewer other heads than name heads (seven of eight heads look at the name)
    yield (group * 3, 1, s.base_loss, s.group_off, s.others_off, GUESS_LOSS)


def above_guess(text: str) -> Iterator[tuple[Any, ...]]:
    """(group off, share right, guess) in both languages (zh's group off is above ln 2, en's
    below), and made up around the levels: above ln 2 but mostly right, below ln 2."""
    for language in LANGUAGES:
        s = trained(language)
        yield (s.group_off, s.group_off_right, GUESS_LOSS)
    yield (GUESS_LOSS * 1.5, 0.9, GUESS_LOSS)  # mostly right: no claim
    yield (GUESS_LOSS * 1.5, 0.5, GUESS_LOSS)
    yield (GUESS_LOSS * 0.9, 0.5, GUESS_LOSS)  # below the coin toss: no claim


def genders(text: str) -> Iterator[tuple[Any, ...]]:
    """(head, male weight, female weight, chance, losses by gender, guess) for every head in both
    languages (zh's heads look at female names only), swapped, and with a high loss."""
    for language in LANGUAGES:
        s = trained(language)
        losses = [float(x) for x in s.gender_loss]
        for (layer, head), _ in np.ndenumerate(s.name_weight[-1]):
            male, female = (float(w) for w in s.gender_weight[:, layer, head])
            label = head_label(layer, head)
            yield (label, male, female, s.chance, losses, GUESS_LOSS)
            yield (label, female, male, s.chance, losses[::-1], GUESS_LOSS)
            yield (label, male, female, s.chance, [GUESS_LOSS, GUESS_LOSS], GUESS_LOSS)


def far_names(text: str) -> Iterator[tuple[Any, ...]]:
    """(head, weight on far names, chance there, count, FAR) for every head in both languages,
    and with no such sentence."""
    for language in LANGUAGES:
        s = trained(language)
        for (layer, head), w in np.ndenumerate(s.far_weight):
            yield (head_label(layer, head), float(w), s.far_chance, s.far_count, FAR)
            yield (head_label(layer, head), float(w), s.far_chance, 0, FAR)


def start_rows(text: str) -> Iterator[tuple[Any, ...]]:
    """(step, the watched head's row from the query, INIT_STD) for a sentence of the corpus the
    task reads, at every checkpoint (only step 0's is flat)."""
    for language in LANGUAGES:
        task = PronounTask(language)
        sentence = parse(task, text).sentence
        if sentence is None:
            continue
        s = trained(language)
        layer, head = s.watched_head
        for step in s.steps[:3] + s.steps[-1:]:
            reading = read_sentence(s.checkpoints[step], s.settings.config, task, sentence, "rust")
            row = reading.weights[layer, head, : sentence.query_position + 1]
            yield (step, row, INIT_STD)
            yield (step + 1, row, INIT_STD)


def single_offs(text: str) -> Iterator[tuple[Any, ...]]:
    """(loss with each single head off, guess): as measured, and with one head made essential."""
    s = trained()
    yield (s.single_off, GUESS_LOSS)
    essential = s.single_off.copy()
    essential[s.watched_head] = s.group_off
    yield (essential, GUESS_LOSS)


def sentence_readings(text: str) -> Iterator[tuple[Any, str, str, list[Any]]]:
    """(sentence, query, name, readings) in each language whose task reads a sentence in
    ``text``: the query and the name as "position · token", the readings at the first and the
    last checkpoint."""
    for language in LANGUAGES:
        task = PronounTask(language)
        sentence = parse(task, text).sentence
        if sentence is None:
            continue
        s = trained(language)
        tokens = sentence.tokens
        query = f"{sentence.query_position + 1} · {tokens[sentence.query_position]}"
        name = f"{sentence.name_position + 1} · {tokens[sentence.name_position]}"
        readings = [
            read_sentence(s.checkpoints[step], s.settings.config, task, sentence, "rust")
            for step in (s.steps[0], s.steps[-1])
        ]
        yield sentence, query, name, readings


def sentence_rows(text: str) -> Iterator[tuple[Any, ...]]:
    """(head, query, name, weight, chance) for every head, at the first and last checkpoint, in
    each language whose task reads a sentence in ``text``."""
    for sentence, query, name, readings in sentence_readings(text):
        chance = 1.0 / (sentence.query_position + 1)
        for reading in readings:
            for (layer, head), _ in np.ndenumerate(reading.weights[..., 0]):
                weight = float(reading.weights[layer, head, sentence.name_position])
                yield (head_label(layer, head), query, name, weight, chance)


def sentence_heads(text: str) -> Iterator[tuple[Any, ...]]:
    """(every head's weight from the query on the name [layers, h], query, name, keys the query
    sees) at the first checkpoint (no head looks at the name yet) and the last, in each language
    whose task reads a sentence in ``text``; and the last with the weight spread evenly (none)."""
    for sentence, query, name, readings in sentence_readings(text):
        visible = sentence.query_position + 1
        for reading in readings:
            weights = reading.weights[..., sentence.name_position]  # [L, h, n] → [L, h]
            yield (weights, query, name, visible)
        yield (np.full_like(weights, 1.0 / visible), query, name, visible)


#: Sentences unlike any of the task's, which the trained models answer wrong: two names (the
#: second right before the possessive, or further), and one name in no place the task puts it.
UNLIKE = {
    "en": ("tom sees anna and loves her dog", "Tom and Anna her dog", "the dog loves anna her"),
    "zh": ("小明和安娜她的狗", "小明看见安娜，又爱她的狗", "狗爱小红她的猫"),
}
#: Sentences shaped like the task's whose possessive does not agree with the name: the trained
#: models prefer the one that does, and the sentence breaks the task's rule.
AGAINST_RULE = {
    "en": ("tom loves her dog", "anna sees his cat"),
    "zh": ("小明爱她的狗", "小红爱他的狗"),
}


def possessives(text: str) -> Iterator[tuple[Any, ...]]:
    """(task, sentence, p(his), p(her)) at the first and last checkpoint for ``text``, the
    UNLIKE and the AGAINST_RULE sentences, in each language whose task reads them; and with the
    two probabilities swapped (so the model is wrong where it was right) and made equal (no
    preference)."""
    for language in LANGUAGES:
        task = PronounTask(language)
        s = trained(language)
        for source in (text, *UNLIKE[language], *AGAINST_RULE[language]):
            sentence = parse(task, source, s.settings.config.max_positions).sentence
            if sentence is None:
                continue
            for step in (s.steps[0], s.steps[-1]):
                config = s.settings.config
                reading = read_sentence(s.checkpoints[step], config, task, sentence, "rust")
                yield (task, sentence, reading.his, reading.her)
                yield (task, sentence, reading.her, reading.his)
                yield (task, sentence, 0.5, 0.5)


def separations(text: str) -> Iterator[tuple[Any, ...]]:
    """(before, after, control before, control after) for the names by gender, and swapped with
    the control split, in both languages."""
    for language in LANGUAGES:
        s, task = trained(language), PronounTask(language)
        first, last = s.checkpoints[s.steps[0]], s.checkpoints[s.steps[-1]]
        gender = [inside.separation(p, task, *inside.gender_split(task)) for p in (first, last)]
        control = [inside.separation(p, task, *inside.control_split(task)) for p in (first, last)]
        yield (*gender, *control)
        yield (*control, *gender)


def score_blocks(text: str) -> Iterator[tuple[Any, ...]]:
    """(head, scores on names, scores on nouns) of every first-layer head, before and after."""
    s, task = trained(), PronounTask("en")
    w = task.words
    queries, names, nouns = list(w.verbs[:4]), list(w.male[:2] + w.female[:2]), list(w.nouns[:4])
    for step in (s.steps[0], s.steps[-1]):
        for head in range(s.settings.config.h):
            m = inside.word_scores(
                s.checkpoints[step], s.settings.config, task, head, queries, names + nouns
            )
            yield (head_label(0, head), m[:, : len(names)], m[:, len(names) :])
            yield (head_label(0, head), m[:, len(names) :], m[:, : len(names)])


INPUTS: dict[str, Callable[[str], Iterator[tuple[Any, ...]]]] = {
    "transformer_walk.topics.learning.name_head_claims.name_head_claim": name_heads_over_steps,
    "transformer_walk.topics.learning.name_head_claims.ablation_claim": switch_offs,
    "transformer_walk.topics.learning.name_head_claims.single_head_claim": single_offs,
    "transformer_walk.topics.learning.name_head_claims.sentence_claim": sentence_rows,
    "transformer_walk.topics.learning.name_head_claims.sentence_not_claim": sentence_rows,
    "transformer_walk.topics.learning.name_head_claims.heads_on_name_claim": sentence_heads,
    "transformer_walk.topics.learning.name_head_claims.names_apart_claim": separations,
    "transformer_walk.topics.learning.name_head_claims.names_first_claim": score_blocks,
    "transformer_walk.topics.learning.name_head_claims.above_guess_claim": above_guess,
    "transformer_walk.topics.learning.name_head_claims.gender_claim": genders,
    "transformer_walk.topics.learning.name_head_claims.far_claim": far_names,
    "transformer_walk.topics.learning.name_head_claims.flat_start_claim": start_rows,
    "transformer_walk.topics.learning.name_head_claims.wrong_possessive_claim": possessives,
}
