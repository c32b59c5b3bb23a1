"""Cached computations shared by the pages: the toy model and its trace for the sidebar's sentence.

Models are resources (``st.cache_resource``: built once, shared); traces are data
(``st.cache_data``: keyed by text, config and backend, copied out to each caller).
"""

from __future__ import annotations

import streamlit as st

from transformer_walk.models.toy import EmptyInputError, ToyConfig, ToyTransformer, Trace, tokenize


@st.cache_resource(show_spinner=False, max_entries=32)
def toy_model(config: ToyConfig, backend: str) -> ToyTransformer:
    return ToyTransformer(config, backend)


#: Texts with more tokens than this are traced into a small cache of their own. A trace holds
#: several n×n matrices per layer: about 100–200 MB at the sidebar's 2,000 characters (measured
#: in the soak), so 64 of them could hold GBs on a server shared by many sessions.
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


def toy_trace_or_none(text: str, config: ToyConfig, backend: str) -> Trace | None:
    """The trace, or None after telling the learner (friendly message) that the text is empty."""
    from transformer_walk.app.i18n import t

    try:
        return toy_trace(text, config, backend)
    except EmptyInputError:
        st.info(t("common.empty_text"), icon=":material/edit_note:")
        return None
