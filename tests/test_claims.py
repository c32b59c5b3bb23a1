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

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import transformer_walk.app.views
import transformer_walk.topics
from transformer_walk.models.toy import EmptyInputError, ToyConfig, ToyTransformer, Trace
from transformer_walk.topics import corpus
from transformer_walk.topics.claims import CLAIMS, Claim
from transformer_walk.topics.word2vec import (
    Word2VecParams,
    Word2VecResult,
    cosine_matrix,
    nearest,
    sense_cosines,
    train,
)

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


def sentence_words(text: str) -> Iterator[tuple[Any, ...]]:
    """(the sentence's words as the corpus pages count them,)."""
    yield (corpus.words(text),)


@cache
def word2vec(language: corpus.Language, epochs: int) -> Word2VecResult:
    """A small word2vec on the first 400 sentences of a corpus (tenths of a second)."""
    return train(corpus.sentences(language)[:400], Word2VecParams(dim=8, epochs=epochs))


def _known_words(text: str) -> Iterator[tuple[corpus.Language, int, Word2VecResult, str]]:
    """(corpus, epochs, trained table, word) for each distinct word of the sentence that the
    sentence's corpus knows, untrained and trained; the corpus's own sense words when none is."""
    words = corpus.words(text)
    language = corpus.language_of(words)
    for epochs in (0, 2):
        result = word2vec(language, epochs)
        known = [w for w in dict.fromkeys(words) if result.index(w) is not None]
        for word in known or [result.vocab[0]]:
            yield language, epochs, result, word


def sense_leans(text: str) -> Iterator[tuple[Any, ...]]:
    """(cosines with the water words, with the money words, epochs) for each known word."""
    for language, epochs, result, word in _known_words(text):
        found = sense_cosines(result, word, language)
        if found is not None:
            yield (*found, epochs)


def epochs_of(text: str) -> Iterator[tuple[Any, ...]]:
    """(epochs,) for 0 and for a few, with the sentence's length (the claim reads only epochs)."""
    yield (0,)
    yield (1 + len(text) % 20,)


def neighbour_kinds_of(text: str) -> Iterator[tuple[Any, ...]]:
    """(word, its kind, kinds of its 6 nearest before and after training, epochs) per known word."""
    for language, epochs, result, word in _known_words(text):
        vocab = result.vocab
        before, after = (
            [corpus.category(n, language) for n, _ in nearest(table, vocab, word, 6)]
            for table in (result.initial, result.embeddings)
        )
        yield (word, corpus.category(word, language), before, after, epochs)


def word_cosines(text: str) -> Iterator[tuple[Any, ...]]:
    """(cosines [m, m], the words) of the sentence's distinct known words (at most 16, as the
    page shows), untrained and trained."""
    words = corpus.words(text)
    language = corpus.language_of(words)
    for epochs in (0, 2):
        result = word2vec(language, epochs)
        known = [w for w in dict.fromkeys(words) if result.index(w) is not None][:16]
        if len(known) < 2:
            known = list(result.vocab[:3])
        table = result.embeddings[[result.vocab.index(w) for w in known]]
        yield (cosine_matrix(table), known)


#: For each registered claim function: its argument tuples for one sentence.
INPUTS: dict[str, Callable[[str], Iterator[tuple[Any, ...]]]] = {
    "transformer_walk.app.views.attention.top_weight": attention_rows,
    "transformer_walk.app.views.attention.lopsided_pair": attention_matrices,
    "transformer_walk.topics.corpus.corpus_choice": sentence_words,
    "transformer_walk.topics.word2vec.bank_lean": sense_leans,
    "transformer_walk.topics.word2vec.char_lean": sense_leans,
    "transformer_walk.topics.word2vec.after_training": epochs_of,
    "transformer_walk.topics.word2vec.neighbour_kinds": neighbour_kinds_of,
    "transformer_walk.topics.word2vec.closest_pair": word_cosines,
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
