"""Arguments for Attention by hand's claim functions (``app.views.by_hand``), made from a sentence
of the corpus: the toy model's scores for each query (its first head), with the tokens named by
position and text, beside edited copies of them — a score raised to tie the winner, one pushed
to a near tie, one to a wide lead — and guesses of every key and of several weights."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import numpy as np

from transformer_walk.app.views.labels import token_labels
from transformer_walk.models.toy import EmptyInputError, ToyConfig, ToyTransformer
from transformer_walk.topics.worked_example import DEFAULT_SCORES, DEFAULT_TOKENS

ARTICLE = (list(DEFAULT_SCORES), list(DEFAULT_TOKENS))


@cache
def _rows(text: str) -> list[tuple[list[float], list[str]]]:
    """(scores of one query, names): the article's, and the toy's first head for the sentence's
    first and last query (every query of a long sentence would cost n² checks for nothing new)."""
    try:
        trace = ToyTransformer(ToyConfig(), "numpy").run(text)
    except EmptyInputError:
        return [ARTICLE]
    names = list(token_labels(trace.tokens).values())
    rows = trace.blocks[0].scores[0]  # (n, n)
    return [ARTICLE] + [(rows[i].tolist(), names) for i in sorted({0, len(rows) - 1})]


def _keys(scores: list[float]) -> list[int]:
    """The keys a guess names: the first, the last, and the two that score highest."""
    order = np.argsort(scores)[::-1].tolist()
    return sorted({0, len(scores) - 1, *order[:2]})


def _edits(scores: list[float]) -> list[list[float]]:
    """The scores, and copies with the runner-up tying the winner, tying it as shown (0.00001
    behind), 0.4 behind it and 3 behind it."""
    out = [scores]
    if len(scores) > 1:
        top, second = np.argsort(scores)[::-1][:2].tolist()
        for gap in (0.0, 1e-5, 0.4, 3.0):
            edited = list(scores)
            edited[second] = scores[top] - gap
            out.append(edited)
    return out


def winners(text: str) -> Iterator[tuple[Any, ...]]:
    for scores, names in _rows(text):
        for edited in _edits(scores):
            yield (edited, names, names[0])


def leads(text: str) -> Iterator[tuple[Any, ...]]:
    for scores, names in _rows(text):
        for edited in _edits(scores):
            yield (edited, names)


def origins(text: str) -> Iterator[tuple[Any, ...]]:
    for scores, names in _rows(text):
        for edited in _edits(scores):
            yield (edited, scores, names)


def guessed_on(text: str) -> Iterator[tuple[Any, ...]]:
    for scores, _ in _rows(text):
        for edited in _edits(scores):
            yield (scores, edited)


def guesses(text: str) -> Iterator[tuple[Any, ...]]:
    for scores, names in _rows(text):
        for edited in _edits(scores):
            for guess in [None, *_keys(edited)]:
                yield (guess, edited, names)


def weight_guesses(text: str) -> Iterator[tuple[Any, ...]]:
    for scores, names in _rows(text):
        for edited in _edits(scores):
            for token in _keys(edited):
                for guess in (0.0, 0.25, 0.5, 0.9, 1.0):
                    yield (guess, token, edited, names)


INPUTS: dict[str, Callable[[str], Iterator[tuple[Any, ...]]]] = {
    f"transformer_walk.app.views.by_hand.{name}": inputs
    for name, inputs in {
        "winner": winners,
        "lead": leads,
        "origin": origins,
        "guessed_on_other_scores": guessed_on,
        "guess_verdict": guesses,
        "weight_verdict": weight_guesses,
    }.items()
}
