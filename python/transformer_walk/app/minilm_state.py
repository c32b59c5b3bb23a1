"""Cached access to the real model (all-MiniLM-L6-v2) for the pages.

The weights are a resource: read once (``st.cache_resource``) and shared by every backend through
``MiniLM.with_backend``. Outputs are data (``st.cache_data``), keyed by the text(s) and backend.
Without the model package, or with a damaged copy of it, the pages get None after a friendly
message that says how to (re)install it, and the rest of the app keeps working.
"""

from __future__ import annotations

import warnings

import numpy as np
import streamlit as st

from transformer_walk.app.i18n import t
from transformer_walk.models.minilm import (
    LOAD_ERRORS,
    PYTHON_MAX_TOKENS,
    REINSTALL_HINT,
    EncoderOutput,
    MiniLM,
    MiniLMUnavailable,
    TruncationWarning,
    load_minilm,
)
from transformer_walk.models.minilm.wordpiece import INSTALL_HINT

#: The pure-Python backend needs seconds per token for MiniLM's ~10⁷ multiply-adds per token
#: (minilm.py refuses it above PYTHON_MAX_TOKENS): the pages compute with NumPy instead.
SLOW_BACKENDS = {"python": "numpy"}


@st.cache_resource(show_spinner=False)
def _loaded_model() -> MiniLM:
    """The weights and tokenizer, read once per process (raises one of LOAD_ERRORS)."""
    try:
        return load_minilm(backend="rust")
    except ImportError as error:
        if "rust_core" not in str(error):
            raise
        return load_minilm(backend="numpy")  # the extension is not built: NumPy still works


@st.cache_resource(show_spinner=False, max_entries=4)
def _model_on(backend: str) -> MiniLM:
    return _loaded_model().with_backend(backend)  # same arrays, another backend


def model_backend(selected: str) -> str:
    """The backend the real model runs on when ``selected`` is picked in the sidebar."""
    return SLOW_BACKENDS.get(selected, selected)


def minilm_model(backend: str) -> MiniLM | None:
    """MiniLM on ``backend`` (loaded once, then shared), or None after explaining — in the
    page's language — how to get the model."""
    try:
        return _model_on(backend)
    except LOAD_ERRORS as error:
        # Installed but a file is missing, unreadable or damaged: a plain `pip install` would
        # answer "Requirement already satisfied" and change nothing.
        installed = not isinstance(error, MiniLMUnavailable)
        show_missing(str(error), REINSTALL_HINT if installed else INSTALL_HINT)
        return None


def show_missing(reason: str, command: str = INSTALL_HINT) -> None:
    st.info(t("minilm.missing", reason=reason), icon=":material/download:")
    st.code(command, language="bash")
    st.markdown(t("minilm.missing_make"))


@st.cache_data(show_spinner=False, max_entries=16)
def minilm_run(text: str, backend: str) -> EncoderOutput:
    """``MiniLM.run(text)`` on ``backend`` (hidden states, attentions, embeddings; no layer trace).
    The model's TruncationWarning is dropped here: pages read ``truncated`` and show their own."""
    model = _model_on(backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TruncationWarning)
        return model.run(text)


@st.cache_data(show_spinner=False, max_entries=32)
def minilm_embed(texts: tuple[str, ...], backend: str) -> np.ndarray:
    """``MiniLM.embed(texts)`` on ``backend``: [len(texts), 384] sentence embeddings."""
    return _model_on(backend).embed(list(texts))


@st.cache_data(show_spinner=False, max_entries=64)
def minilm_neighbours(token_id: int, backend: str, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k rows of MiniLM's input table (embeddings.word_embeddings.weight [30522, 384]) most
    similar by cosine to row ``token_id``, itself excluded: (ids [k], cosines [k]). The row is
    read with ``backend``'s embedding_lookup; the cosines against the whole table are NumPy."""
    from transformer_walk.app.views.minilm import nearest_rows
    from transformer_walk.core import get_backend

    table = _loaded_model().embeddings.word_embeddings  # (V, d_model)
    row = get_backend(backend).embedding_lookup(table, np.array([token_id]))[0]  # (d_model,)
    ids, sims = nearest_rows(table, np.asarray(row), k + 1)
    keep = ids != token_id
    return ids[keep][:k], sims[keep][:k]


def use_model(selected: str) -> str | None:
    """The backend MiniLM will run on for the sidebar's ``selected`` one, after saying so (and
    why it is not pure Python, when it is not); None after a message when the model is missing."""
    backend = model_backend(selected)
    if minilm_model(backend) is None:
        return None
    st.caption(t("minilm.computed_with", backend=t(f"backend.{backend}")))
    if backend != selected:
        st.info(
            t("minilm.python_fallback", limit=PYTHON_MAX_TOKENS), icon=":material/hourglass_top:"
        )
    return backend


def run_with_spinner(text: str, backend: str) -> EncoderOutput:
    """``minilm_run`` under a spinner, with the visible warning when the text was truncated."""
    with st.spinner(t("minilm.computing")):
        out = minilm_run(text, backend)
    if out.truncated:
        st.warning(
            t("minilm.truncated", n=out.n_original, kept=out.n), icon=":material/content_cut:"
        )
    return out


def run_or_none(text: str, selected: str) -> EncoderOutput | None:
    """The text through MiniLM on the backend for ``selected`` (see ``use_model``), or None after
    a message when the model is missing."""
    backend = use_model(selected)
    return None if backend is None else run_with_spinner(text, backend)
