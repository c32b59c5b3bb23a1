"""Cached computations shared by the pages: the toy model and its traces, the real model
(all-MiniLM-L6-v2) and its outputs. Nothing here renders: ``model_widgets`` wraps these with the
pages' messages (empty text, missing model, spinners).

Models are resources (``st.cache_resource``: built or read once, shared by every session); traces
and outputs are data (``st.cache_data``: keyed by text, config and backend, copied out to each
caller), as the Streamlit docs advise. The one exception to "nothing renders": the GRU
encoder–decoders of the Seq2seq page train for seconds, so their cache shows its own progress bar
(an element made inside a cached function is replayed on a hit; it is emptied when done). They are
also kept on disk (``disk_cache_dir``), so only the first server on a machine trains them; so is
the page's small Transformer, trained and timed beside them (``reversal_run``).
"""

from __future__ import annotations

import logging
import os
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np
import streamlit as st
from tokenizers import Tokenizer

from transformer_walk.app.heavy_work import heavy_work
from transformer_walk.app.views.minilm_vectors import nearest_rows
from transformer_walk.app.views.next_token import token_losses
from transformer_walk.bench.lookup_race import LookupRace, race
from transformer_walk.core import get_backend
from transformer_walk.core.status import available_backends
from transformer_walk.models.minilm import EncoderOutput, MiniLM, TruncationWarning, load_minilm
from transformer_walk.models.minilm.wordpiece import load_tokenizer
from transformer_walk.models.smollm2 import DecoderOutput, LogitLens, SmolLM2, load_smollm2
from transformer_walk.models.toy import ToyConfig, ToyTransformer, Trace, tokenize
from transformer_walk.topics import decoder_attribution, decoder_cache, decoder_induction, gru_store
from transformer_walk.topics.decoder_attribution import AblationCheck, Attribution
from transformer_walk.topics.decoder_cache import CacheWalk
from transformer_walk.topics.decoder_induction import CopyingHeads, CopyLosses
from transformer_walk.topics.gru_seq2seq import Comparison, GruConfig, train_both
from transformer_walk.topics.learning import induction, name_head, reversal_store, step_times
from transformer_walk.topics.learning.reversal import ReversalConfig, train_reversal
from transformer_walk.topics.learning.reversal_store import ReversalRun
from transformer_walk.topics.senses import Calibration, calibrate

log = logging.getLogger(__name__)
Model = TypeVar("Model")

# --- the toy model --------------------------------------------------------------------------------


@st.cache_resource(show_spinner=False, max_entries=32)
def toy_model(config: ToyConfig, backend: str) -> ToyTransformer:
    return ToyTransformer(config, backend)


#: Texts with more tokens than this are traced into a small cache of their own: a trace holds
#: several n×n matrices per layer, so 64 long ones could hold GBs on a server shared by many
#: sessions (docs/performance.md has the sizes).
LONG_TEXT_TOKENS = 256
LONG_TRACES_KEPT = 4


# Two functions, not one wrapped twice: Streamlit keys a cache by the function it decorates.
@st.cache_data(show_spinner=False, max_entries=64)
def _short_trace(text: str, config: ToyConfig, backend: str) -> Trace:
    return toy_model(config, backend).run(text)


@st.cache_data(show_spinner=False, max_entries=LONG_TRACES_KEPT)
def _long_trace(text: str, config: ToyConfig, backend: str) -> Trace:
    return toy_model(config, backend).run(text)


def toy_trace(text: str, config: ToyConfig, backend: str) -> Trace:
    """The toy model's trace of ``text`` (cached); raises EmptyInputError for text without
    tokens. At most ``LONG_TRACES_KEPT`` traces of long texts are kept."""
    cached = _long_trace if len(tokenize(text)) > LONG_TEXT_TOKENS else _short_trace
    return cached(text, config, backend)


# --- timing races --------------------------------------------------------------------------------

#: A race is timed once for its inputs and then shared by every session for this long: a class
#: opening the One-hot page together would otherwise time the same race sixty times, each
#: filling a core.
RACE_KEPT_S = 600


@st.cache_data(show_spinner=False, max_entries=64, ttl=RACE_KEPT_S)
def lookup_race(ids: tuple[int, ...], vocab_size: int, backend: str) -> LookupRace:
    """One-hot × E against the lookup for ``ids`` at ``vocab_size`` on ``backend``, timed."""
    return race(backend, get_backend(backend), list(ids), vocab_size)


# --- the trained seq2seq models (Seq2seq page) ---------------------------------------------------

#: Where trained models are kept between servers; default ``$XDG_CACHE_HOME/transformer-walk``
#: (``~/.cache/transformer-walk``).
DISK_CACHE_ENV = "TRANSFORMER_WALK_CACHE"


def disk_cache_dir() -> Path:
    if configured := os.environ.get(DISK_CACHE_ENV):
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "transformer-walk"


@st.cache_resource(show_spinner=False, max_entries=8)
def gru_comparison(
    config: GruConfig, _progress: str = "", _names: tuple[str, str] = ("", "")
) -> Comparison:
    """The fixed-context and the attention GRU encoder–decoder trained with ``config``: read from
    the disk cache, or else trained (a few seconds each) and written there. ``_progress`` is the
    bar's text, a message with fields ``model``, ``step``, ``steps`` and ``loss``; ``_names`` fill
    ``model`` for the two (neither is part of the key: the same models serve every language)."""
    directory = disk_cache_dir()
    if (stored := gru_store.load(config, directory)) is not None:
        return stored
    bar = st.progress(
        0.0, text=_progress.format(model=_names[0], step=0, steps=config.steps, loss="—")
    )
    names = dict(zip(("fixed", "attention"), _names, strict=True))

    def report(variant: str, step: int, steps: int, loss: float) -> None:
        done = step + (steps if variant == "attention" else 0)
        text = _progress.format(model=names[variant], step=step, steps=steps, loss=f"{loss:.3f}")
        bar.progress(done / max(1, 2 * steps), text=text)

    comparison = train_both(config, on_progress=report)
    bar.empty()
    try:
        gru_store.save(comparison, directory)
    except OSError as error:  # a read-only home: the models still serve this server
        log.warning("could not keep the trained seq2seq models in %s: %s", directory, error)
    return comparison


# --- the learner, trained on this server -------------------------------------------------------

#: Progress bar updates while a learner trains: one every this many steps.
PROGRESS_EVERY = 5


def training_backend() -> str:
    """Rust when the extension is built, else NumPy: pure Python would take minutes a step."""
    return "rust" if "rust" in available_backends() else "numpy"


@st.cache_resource(show_spinner=False, max_entries=8)
def name_head_study(
    settings: name_head.NameHeadSettings, backend: str, _progress: str = ""
) -> name_head.NameHeadStudy:
    """Task a trained and measured with ``settings`` on ``backend``: read from the disk cache,
    or else trained in one of the server's heavy-work slots (seconds) and written there.
    ``_progress`` is the bar's text, a message with fields ``step`` and ``steps``."""
    directory = disk_cache_dir()
    if (stored := name_head.load(settings, directory, backend)) is not None:
        return stored
    with heavy_work():
        bar = st.progress(0.0, text=_progress.format(step=0, steps=2 * settings.steps))

        def report(done: int, total: int) -> None:
            if done % PROGRESS_EVERY == 0 or done == total:
                bar.progress(done / total, text=_progress.format(step=done, steps=total))

        study = name_head.study(settings, backend=backend, on_step=report)
        bar.empty()
    try:
        name_head.save(study, directory, backend)
    except OSError as error:  # a read-only home: the study still serves this server
        log.warning("could not keep the possessive study in %s: %s", directory, error)
    return study


@st.cache_resource(show_spinner=False, max_entries=2)
def induction_study(backend: str, _progress: str = "") -> induction.InductionStudy:
    """Task b's recipe trained and measured on ``backend``: read from the disk cache, or else
    trained in a heavy-work slot (seconds) and written there. ``_progress``: the bar's text, a
    message with fields ``step`` and ``steps``. RuntimeError when no induction head formed."""
    directory = disk_cache_dir()
    if (stored := induction.load(directory, backend)) is not None:
        return stored
    with heavy_work():
        bar = st.progress(0.0, text=_progress.format(step=0, steps=induction.STEPS))

        def report(done: int, total: int) -> None:
            if done % PROGRESS_EVERY == 0 or done == total:
                bar.progress(done / total, text=_progress.format(step=done, steps=total))

        study = induction.study(backend=backend, on_step=report)
        bar.empty()
    try:
        induction.save(study, directory, backend)
    except OSError as error:  # a read-only home: the study still serves this server
        log.warning("could not keep the induction study in %s: %s", directory, error)
    return study


@st.cache_resource(show_spinner=False, max_entries=8)
def reversal_run(config: ReversalConfig, _progress: str = "", _timing: str = "") -> ReversalRun:
    """The reversal Transformer trained with ``config`` and the step timings of all three models:
    read from the disk cache, or else trained and timed (about ten seconds on two cores, in one of
    the server's heavy-work slots, so that the timings are not another learner's training too)
    and written there. ``_progress`` is the bar's text while training (fields ``step``,
    ``steps``, ``loss``), ``_timing`` while timing; neither is part of the key."""
    directory = disk_cache_dir()
    if (stored := reversal_store.load(config, directory)) is not None:
        return stored
    steps = config.gru.steps
    bar = st.progress(0.0, text=_progress.format(step=0, steps=steps, loss="—"))

    def report(step: int, steps: int, loss: float) -> None:
        text = _progress.format(step=step, steps=steps, loss=f"{loss:.3f}")
        bar.progress(0.9 * step / max(1, steps), text=text)  # timing takes the last tenth

    with heavy_work():
        model = train_reversal(config, on_step=report)
        bar.progress(0.9, text=_timing)
        times = step_times.measure(config)
    bar.empty()
    run = ReversalRun(model, times)
    try:
        reversal_store.save(run, directory)
    except OSError as error:  # a read-only home: the run still serves this server
        log.warning("could not keep the reversal Transformer in %s: %s", directory, error)
    return run


def _on_rust_or_numpy(load: Callable[..., Model]) -> Model:
    """``load(backend="rust")``, or on NumPy when the extension is not built (the app still
    works, slower)."""
    try:
        return load(backend="rust")
    except ImportError as error:
        if "rust_core" not in str(error):
            raise
        return load(backend="numpy")


# --- the generating model (SmolLM2) --------------------------------------------------------------


@st.cache_resource(show_spinner=False)
def loaded_smollm2() -> SmolLM2:
    """SmolLM2-135M's weights and tokenizer, read once per process (raises one of
    ``models.smollm2.LOAD_ERRORS``)."""
    return _on_rust_or_numpy(load_smollm2)


@st.cache_resource(show_spinner=False, max_entries=4)
def smollm2_on(backend: str) -> SmolLM2:
    """SmolLM2 computing with ``backend``: the same weights (raises one of LOAD_ERRORS)."""
    return loaded_smollm2().with_backend(backend)


@st.cache_data(show_spinner=False, max_entries=32)
def smollm2_scoring(ids: tuple[int, ...], backend: str) -> tuple[np.ndarray, np.ndarray, float]:
    """The prompt ``ids`` scored in one parallel pass on ``backend``: the last position's logits
    [V], the loss −log P of each actual next token [n − 1] and the pass's seconds. The [n, V]
    logits themselves are not kept (49,152 floats a token: 98 MB for 500 tokens)."""
    model = smollm2_on(backend)
    start = time.perf_counter()
    logits = model.logits(list(ids))  # (n, V)
    seconds = time.perf_counter() - start
    return logits[-1].copy(), token_losses(logits, ids), seconds


@st.cache_data(show_spinner=False, max_entries=16)
def smollm2_attention(ids: tuple[int, ...], backend: str) -> np.ndarray:
    """Every layer's and head's causal attention weights over ``ids`` [L, h, n, n] (as
    ``SmolLM2.run`` records them; the page passes at most a few dozen tokens)."""
    model = smollm2_on(backend)
    out = model.forward(model.check_ids(list(ids)), keep=("weights",), last_only=True)
    return np.stack([r["weights"] for r in out.records])  # L × (h, n, n) → (L, h, n, n)


@st.cache_data(show_spinner=False, max_entries=32)
def smollm2_lens(text: str, position: int, k: int, backend: str) -> LogitLens:
    """``SmolLM2.lens`` of ``text`` read at ``position`` alone, its top ``k`` per layer, on
    ``backend`` (one position: the forward and 31 more rows through the output layer)."""
    return smollm2_on(backend).lens(text, k=k, positions=[position])


@st.cache_data(show_spinner=False, max_entries=16)
def smollm2_attribution(
    text: str, position: int, token: int, top: int, draws: int, backend: str
) -> tuple[Attribution, AblationCheck]:
    """``token``'s logit after ``position`` split over SmolLM2's heads and MLPs, and its ``top``
    heads switched off beside ``draws`` control sets (1 + draws more forwards)."""
    model = smollm2_on(backend)
    found = decoder_attribution.attribute(model, smollm2_traced(text, backend), position, token)
    heads = found.top_heads(top)
    return found, decoder_attribution.check_heads(model, text, position, token, heads, draws)


@st.cache_data(show_spinner=False, max_entries=4)
def smollm2_copying_heads(backend: str) -> CopyingHeads:
    """Every SmolLM2 head's prefix-matching score on repeated random tokens and its controls
    (``decoder_induction.find_heads``: 2 · DRAWS forwards of 50 tokens). The same for every
    session: the sequences are drawn from a fixed seed."""
    return decoder_induction.find_heads(smollm2_on(backend))


@st.cache_data(show_spinner=False, max_entries=16)
def smollm2_copy_off(
    ids: tuple[int, ...] | None,
    heads: tuple[tuple[int, int], ...],
    avoid: tuple[tuple[int, int], ...],
    backend: str,
) -> CopyLosses:
    """The second-copy losses of ``ids`` repeated twice (None: the held-out random sequences)
    intact, with ``heads`` switched off and with the control sets, none holding a head of
    ``avoid`` (2 + CONTROL_DRAWS forwards a sequence)."""
    model = smollm2_on(backend)
    repeated = (
        decoder_induction.held_out(model) if ids is None else decoder_induction.twice(ids)[None]
    )  # (m, 2T)
    return decoder_induction.switch_off(model, repeated, list(heads), avoid)


@st.cache_data(show_spinner=False, max_entries=16)
def smollm2_cache_walk(prompt: tuple[int, ...], new_tokens: int, backend: str) -> CacheWalk:
    """``decoder_cache.walk``: the prefill of ``prompt`` and ``new_tokens`` greedy steps, with
    the cache they fill and a forward without it."""
    return decoder_cache.walk(smollm2_on(backend), list(prompt), new_tokens)


# --- the real model -------------------------------------------------------------------------------


@st.cache_resource(show_spinner=False)
def loaded_model() -> MiniLM:
    """The weights and tokenizer, read once per process (raises one of LOAD_ERRORS)."""
    return _on_rust_or_numpy(load_minilm)


@st.cache_resource(show_spinner=False, max_entries=4)
def model_on(backend: str) -> MiniLM:
    """MiniLM computing with ``backend`` (raises one of LOAD_ERRORS)."""
    return loaded_model().with_backend(backend)  # same arrays, another backend


#: Texts longer than this (characters; WordPiece makes at most about one token of each) are run
#: into a small cache of their own, as the toy's long traces are: an output holds L·h·n² weights.
#: A class's short sentences, the pages' own examples among them, all stay.
LONG_MINILM_CHARS = 160
MINILM_SHORT_KEPT, MINILM_LONG_KEPT = 48, 4


def minilm_run(text: str, backend: str) -> EncoderOutput:
    """``MiniLM.run(text)`` on ``backend`` (hidden states, attentions, embeddings; no layer trace),
    cached. The model's TruncationWarning is dropped here: pages read ``truncated`` and show
    their own."""
    cached = _long_minilm_run if len(text) > LONG_MINILM_CHARS else _short_minilm_run
    return cached(text, backend)


def _minilm_run(text: str, backend: str) -> EncoderOutput:
    model = model_on(backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TruncationWarning)
        return model.run(text)


@st.cache_data(show_spinner=False, max_entries=MINILM_SHORT_KEPT)
def _short_minilm_run(text: str, backend: str) -> EncoderOutput:
    return _minilm_run(text, backend)


@st.cache_data(show_spinner=False, max_entries=MINILM_LONG_KEPT)
def _long_minilm_run(text: str, backend: str) -> EncoderOutput:
    return _minilm_run(text, backend)


@st.cache_data(show_spinner=False, max_entries=32)
def minilm_heads_off(
    text: str, backend: str, ablate: tuple[tuple[int, int], ...]
) -> tuple[np.ndarray, np.ndarray]:
    """``MiniLM.run(text, ablate=ablate)`` on ``backend``, the (layer, head) pairs 0-based: only
    its last hidden states [n, d_model] and sentence embedding [d_model] are kept (a page
    compares them with ``minilm_run``'s; the attentions would hold L·h·n² numbers per entry)."""
    model = model_on(backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TruncationWarning)
        out = model.run(text, ablate=ablate)
    return out.hidden_states[-1], out.sentence_embedding


@st.cache_resource(show_spinner=False)
def sense_calibration() -> dict[str, Calibration]:
    """The labelled same-sense / different-sense pairs of ``topics/data/senses.tsv`` measured
    with MiniLM, once per process (258 short sentences: about a second on rust or NumPy, whatever
    backend the page computes with — the pure-Python one would take minutes for the same
    numbers). Raises one of LOAD_ERRORS without the model."""
    model = loaded_model()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TruncationWarning)
        return calibrate(model)


@st.cache_data(show_spinner=False, max_entries=32)
def minilm_embed(texts: tuple[str, ...], backend: str) -> np.ndarray:
    """``MiniLM.embed(texts)`` on ``backend``: [len(texts), 384] sentence embeddings."""
    return model_on(backend).embed(list(texts))


@st.cache_data(show_spinner=False, max_entries=64)
def minilm_neighbours(token_id: int, backend: str, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k rows of MiniLM's input table (embeddings.word_embeddings.weight [30522, 384]) most
    similar by cosine to row ``token_id``, itself excluded: (ids [k], cosines [k]). The row is
    read with ``backend``'s embedding_lookup; the cosines against the whole table are NumPy."""
    table = loaded_model().embeddings.word_embeddings  # (V, d_model)
    row = get_backend(backend).embedding_lookup(table, np.array([token_id]))[0]  # (d_model,)
    ids, sims = nearest_rows(table, np.asarray(row), k + 1)
    keep = ids != token_id
    return ids[keep][:k], sims[keep][:k]


@st.cache_resource(show_spinner=False)
def wordpiece_tokenizer() -> Tokenizer:
    """MiniLM's WordPiece tokenizer alone, read once (raises WordPieceUnavailable without it)."""
    return load_tokenizer()


@st.cache_resource(show_spinner=False, max_entries=4)
def smollm2_traced(text: str, backend: str) -> DecoderOutput:
    """``SmolLM2.run(text, trace=True)`` on ``backend``: every intermediate of every layer. A
    resource, not data: the trace holds references to the layers' weights, which ``cache_data``
    would copy on every hit; its arrays are read only."""
    return smollm2_on(backend).run(text, trace=True)
