"""Every claim function (``topics.claims``) over the sentence corpus and over generated text: each
claim it makes holds by its predicate, checked from the raw numbers; and each predicate rejects the
claim with any one of its fields changed, so no predicate passes everything.

A new claim function needs an entry in ``INPUTS``: how to get its arguments from a sentence.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import pkgutil
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import claim_inputs_by_hand
import claim_inputs_timings
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import transformer_walk.app.views
import transformer_walk.topics
from transformer_walk.models.toy import EmptyInputError, ToyConfig, ToyTransformer, Trace
from transformer_walk.topics.claims import CLAIMS, Claim

for package in (transformer_walk.topics, transformer_walk.app.views):  # every claim registered
    for module in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        importlib.import_module(module.name)

CORPUS = [
    sentence
    for group in json.loads(
        (Path(__file__).parent / "data" / "sentences.json").read_text(encoding="utf-8")
    )["sentences"].values()
    for sentence in group
]


@cache
def toy(text: str) -> Trace | None:
    try:
        return ToyTransformer(ToyConfig(), "numpy").run(text)
    except EmptyInputError:
        return None


def attention_rows(text: str) -> Iterator[tuple[Any, ...]]:
    """(one query's weights [n], tokens) for every head and query of the toy model's layer."""
    trace = toy(text)
    if trace is None:
        return
    for head in trace.blocks[0].weights:  # (n, n) each
        for row in head:
            yield (row, trace.tokens)


def attention_matrices(text: str) -> Iterator[tuple[Any, ...]]:
    """(one head's weights [n, n], tokens) for every head of the toy model's layer."""
    trace = toy(text)
    if trace is None:
        return
    for head in trace.blocks[0].weights:
        yield (head, trace.tokens)


#: For each registered claim function: its argument tuples for one sentence.
INPUTS: dict[str, Callable[[str], Iterator[tuple[Any, ...]]]] = {
    "transformer_walk.app.views.attention.top_weight": attention_rows,
    "transformer_walk.app.views.attention.lopsided_pair": attention_matrices,
}
INPUTS |= claim_inputs_timings.INPUTS | claim_inputs_by_hand.INPUTS


def test_every_claim_function_is_run_here() -> None:
    assert CLAIMS, "no claim function registered"
    assert set(CLAIMS) == set(INPUTS), set(CLAIMS) ^ set(INPUTS)


def _holds(name: str, said: Claim, args: tuple[Any, ...]) -> bool:
    try:
        return bool(CLAIMS[name][1](said, *args))
    except (ValueError, KeyError, IndexError, TypeError):  # a field that cannot even be read
        return False


def _check(name: str, text: str) -> int:
    """Run the claim function on every argument tuple of ``text``; return how many claims."""
    function, _ = CLAIMS[name]
    made = 0
    for args in INPUTS[name](text):
        said = function(*args)
        if said is None:
            continue
        made += 1
        assert _holds(name, said, args), (text, said)
        for key in said.fields:  # the control: any one field changed, the claim must fail
            changed = dataclasses.replace(said, fields={**said.fields, key: "⊥"})
            assert not _holds(name, changed, args), (text, key, said)
    return made


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_every_claim_over_the_corpus_holds(name: str) -> None:
    made = sum(_check(name, text) for text in CORPUS)
    assert made > 0, f"{name} said nothing over the whole corpus"


@pytest.mark.parametrize("name", sorted(INPUTS))
@settings(max_examples=40, deadline=None)
@given(text=st.text(max_size=60))
def test_every_claim_over_generated_text_holds(name: str, text: str) -> None:
    _check(name, text)
