"""Cached computations shared by the pages: the toy model and its trace for the sidebar's sentence.

Models are resources (``st.cache_resource``: built once, shared); traces are data
(``st.cache_data``: keyed by text, config and backend, copied out to each caller).
"""

from __future__ import annotations

import streamlit as st

from transformer_walk.model import EmptyInputError, ToyConfig, ToyTransformer, Trace


@st.cache_resource(show_spinner=False, max_entries=32)
def toy_model(config: ToyConfig, backend: str) -> ToyTransformer:
    return ToyTransformer(config, backend)


@st.cache_data(show_spinner=False, max_entries=64)
def toy_trace(text: str, config: ToyConfig, backend: str) -> Trace:
    """The toy model's trace of ``text``; raises EmptyInputError for text without tokens."""
    return toy_model(config, backend).run(text)


def toy_trace_or_none(text: str, config: ToyConfig, backend: str) -> Trace | None:
    """The trace, or None after telling the learner (friendly message) that the text is empty."""
    from transformer_walk.i18n import t

    try:
        return toy_trace(text, config, backend)
    except EmptyInputError:
        st.info(t("common.empty_text"), icon=":material/edit_note:")
        return None
