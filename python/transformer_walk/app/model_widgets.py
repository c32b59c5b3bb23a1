"""The models for the pages, with the messages around them: which backend a run uses (pure Python
within its budget, ``core.budget``), a sentence without tokens, the real model missing, its
spinner and its truncation warning. The cached computations themselves are in ``caches``.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st
from tokenizers import Tokenizer

from transformer_walk.app.caches import (
    loaded_model,
    loaded_smollm2,
    minilm_run,
    toy_trace,
    wordpiece_tokenizer,
)
from transformer_walk.app.heavy_work import heavy_work
from transformer_walk.app.i18n import join_names, t
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views.labels import UNKNOWN_SHOWN, unknown_labels
from transformer_walk.app.views.then_and_now import traced_prefix
from transformer_walk.app.widgets import backend_within_budget
from transformer_walk.models.minilm import (
    CONFIG,
    LOAD_ERRORS,
    REINSTALL_HINT,
    EncoderOutput,
    MiniLM,
    MiniLMUnavailable,
)
from transformer_walk.models.minilm.wordpiece import INSTALL_HINT, WordPieceUnavailable
from transformer_walk.models.smollm2 import INSTALL_HINT as SMOLLM2_INSTALL
from transformer_walk.models.smollm2 import LOAD_ERRORS as SMOLLM2_LOAD_ERRORS
from transformer_walk.models.smollm2 import REINSTALL_HINT as SMOLLM2_REINSTALL
from transformer_walk.models.smollm2 import SmolLM2, SmolLM2Unavailable
from transformer_walk.models.toy import EmptyInputError, ToyConfig, Trace, tokenize

# --- the toy model --------------------------------------------------------------------------------


def toy_backend(selected: str, config: ToyConfig, texts: Sequence[str]) -> str:
    """The backend a page runs its toy traces of ``texts`` (one trace each, at ``config``'s size)
    on: ``selected``, unless that is pure Python beyond its budget — then NumPy, said so."""
    work = sum(config.multiply_adds(len(tokenize(text))) for text in texts)
    return backend_within_budget(selected, work)


def toy_trace_or_none(text: str, config: ToyConfig, backend: str) -> Trace | None:
    """The trace, or None after telling the learner (friendly message) that the text is empty."""
    try:
        with heavy_work(heavy=backend == "python"):  # pure Python holds the interpreter
            return toy_trace(text, config, backend)
    except EmptyInputError:
        st.info(t("common.empty_text"), icon=":material/edit_note:")
        return None


# --- the real model -------------------------------------------------------------------------------

#: Tokens of the shortest text the real model reads: [CLS], one piece, [SEP]. When pure Python
#: is over budget even for it, it is over budget for every text.
SHORTEST_TEXT_TOKENS = 3
SHOWN_CHARS = 60  # of the text a message quotes (the sidebar takes 2,000)


def minilm_model() -> MiniLM | None:
    """all-MiniLM-L6-v2 (read once, then shared), or None after explaining — in the page's
    language — how to get it."""
    try:
        return loaded_model()
    except LOAD_ERRORS as error:
        # Installed but a file is missing, unreadable or damaged: a plain `pip install` would
        # answer "Requirement already satisfied" and change nothing.
        installed = not isinstance(error, MiniLMUnavailable)
        show_missing(str(error), REINSTALL_HINT if installed else INSTALL_HINT)
        return None


def smollm2_model() -> SmolLM2 | None:
    """SmolLM2-135M (read once, then shared, under a spinner the first time), or None after
    explaining — in the page's language — how to get it; the other pages keep working."""
    try:
        with st.spinner(t("model_widgets.smol.loading")):
            return loaded_smollm2()
    except SMOLLM2_LOAD_ERRORS as error:
        installed = not isinstance(error, SmolLM2Unavailable)
        st.info(t("model_widgets.smol.missing", reason=str(error)), icon=":material/download:")
        st.code(SMOLLM2_REINSTALL if installed else SMOLLM2_INSTALL, language="bash")
        st.markdown(t("model_widgets.smol.missing_make"))
        return None


def show_missing(reason: str, command: str = INSTALL_HINT) -> None:
    st.info(t("model_widgets.minilm.missing", reason=reason), icon=":material/download:")
    st.code(command, language="bash")
    st.markdown(t("model_widgets.minilm.missing_make"))


def tokenizer_or_reason() -> tuple[Tokenizer | None, str]:
    """MiniLM's WordPiece tokenizer and "", or None and why it is missing (the page explains
    how to install it, and goes on without it)."""
    try:
        return wordpiece_tokenizer(), ""
    except WordPieceUnavailable as error:
        return None, str(error)


def use_model(selected: str) -> str | None:
    """The backend MiniLM runs on when ``selected`` is picked in the sidebar (saying so when pure
    Python is over its budget); None after a message when the model is missing."""
    if minilm_model() is None:
        return None
    return backend_within_budget(selected, CONFIG.multiply_adds(SHORTEST_TEXT_TOKENS))


def run_with_spinner(text: str, backend: str) -> EncoderOutput:
    """``minilm_run`` under a spinner, with the visible warning when the text was truncated."""
    with heavy_work(heavy=backend == "python"), st.spinner(t("model_widgets.minilm.computing")):
        out = minilm_run(text, backend)
    if out.truncated:
        st.warning(
            t("model_widgets.minilm.truncated", n=out.n_original, kept=out.n),
            icon=":material/content_cut:",
        )
    unknown = unknown_labels(out.text, out.tokens, out.offsets)
    if unknown:  # as the Tokens page warns: the model sees one and the same vector for each
        text = out.text if len(out.text) <= SHOWN_CHARS else out.text[: SHOWN_CHARS - 1] + "…"
        st.info(
            t(
                "model_widgets.minilm.unknown",
                count=len(unknown),
                text=text,
                pieces=join_names(unknown, most=UNKNOWN_SHOWN),
            ),
            icon=":material/help:",
        )
    return out


def smollm2_sentence(model: SmolLM2, most: int, too_long: str) -> str | None:
    """The sidebar's sentence cut to its first ``most`` SmolLM2 tokens (saying so with the message
    ``too_long``, fields n and kept), or None after saying there is no sentence: white space
    alone would be a token to SmolLM2, but there is nothing to follow through the model."""
    text = current_sentence()
    offsets = model.tokenizer.encode_full(text).offsets
    if not text.strip() or not offsets:
        st.info(t("common.empty_text"), icon=":material/edit_note:")
        return None
    if len(offsets) > most:
        st.info(t(too_long, n=len(offsets), kept=most), icon=":material/content_cut:")
        text = traced_prefix(text, offsets, most)
    return text
