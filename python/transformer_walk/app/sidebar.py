"""The sidebar every page shares: the sentence, the language and the backend, kept in
``st.session_state`` and linked in the address (``links``)."""

from __future__ import annotations

import os
from typing import Final

import streamlit as st

from transformer_walk.app import style
from transformer_walk.app.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGE_KEY,
    LANGUAGES,
    resend_translated_radios,
    t,
    translated_radio,
)
from transformer_walk.app.links import Text, linked
from transformer_walk.core import Backend
from transformer_walk.core.status import backend_status, backend_statuses, default_backend
from transformer_walk.models.toy import DEFAULT_SENTENCE

BACKEND_KEY = "backend"
SENTENCE_KEY = "sentence"
MAX_SENTENCE_CHARS = 2000  # the toy pages draw n×n matrices; more text only makes them unreadable


#: How long Streamlit keeps a sidebar widget's value: the whole session. Besides keeping it
#: while a widget is not drawn, Streamlit then sends the value back to the browser whenever a
#: rerun arrives without it. A browser leaves the values out when the learner clicks to another
#: page while the last page's run is still arriving; without the value sent back, it re-creates
#: the widgets at their first options and sends those with the next click, and the page comes up
#: in English, on pure Python, with an empty sentence.
KEEP_FOR: Final = "session"


#: The replica a student was pinned to, which the balancer (deploy/haproxy.cfg) tells every
#: replica; and this replica's own name, from its environment (scripts/serve.py sets it).
PINNED_HEADER = "X-TW-Pinned"
REPLICA_ENV = "TW_REPLICA"


def moved_here(pinned: str | None, own: str | None) -> bool:
    """Whether a new session arrived from another replica of the class: the balancer had pinned
    the student to ``pinned``, and this replica is ``own``."""
    return bool(pinned) and bool(own) and pinned != own


def render_sidebar() -> None:
    """Language and backend pickers. Call before building the navigation (titles are translated)."""
    state = st.session_state
    new_session = LANGUAGE_KEY not in state
    statuses = backend_statuses()
    available = [name for name, status in statuses.items() if status.available]
    # In the address (?lang=zh&sentence=…&backend=numpy), and taken from it by a new session.
    linked(LANGUAGE_KEY, DEFAULT_LANGUAGE, list(LANGUAGES))
    linked(SENTENCE_KEY, DEFAULT_SENTENCE, Text(MAX_SENTENCE_CHARS))
    if available:
        linked(BACKEND_KEY, default_backend(available), available)
    if new_session and moved_here(
        st.context.headers.get(PINNED_HEADER), os.environ.get(REPLICA_ENV)
    ):
        # The replica this student was on stopped and the balancer sent them here: a new session.
        st.info(t("sidebar.moved"), icon=":material/sync:")
    state.setdefault(LANGUAGE_KEY, DEFAULT_LANGUAGE)
    state.setdefault(SENTENCE_KEY, DEFAULT_SENTENCE)
    if available and state.get(BACKEND_KEY) not in available:
        state[BACKEND_KEY] = default_backend(available)
    if state[LANGUAGE_KEY] != DEFAULT_LANGUAGE:
        st.html(style.input_hints(t("input.enter"), t("input.ctrl_enter")))
    with st.sidebar:
        st.text_area(
            t("sidebar.sentence"),
            key=SENTENCE_KEY,
            max_chars=MAX_SENTENCE_CHARS,
            height=80,
            help=t("sidebar.sentence_help"),
            persist_state=KEEP_FOR,
        )
        # Bilingual label: findable whichever language is showing.
        st.radio(
            "Language · 语言",
            options=list(LANGUAGES),
            format_func=LANGUAGES.__getitem__,
            key=LANGUAGE_KEY,
            horizontal=True,
            on_change=resend_translated_radios,
            persist_state=KEEP_FOR,
        )
        if not available:
            st.error(t("sidebar.no_backend"))
            return
        # Labels are looked up now, not inside format_func: it may be called outside this run.
        labels = {name: t(f"backend.{name}") for name in available}
        st.radio(
            t("sidebar.backend"),
            options=available,
            format_func=labels.__getitem__,
            captions=[t(f"backend.{name}.caption") for name in available],
            key=translated_radio(BACKEND_KEY),
            help=t("sidebar.backend_help"),
            persist_state=KEEP_FOR,
        )
        if not statuses["rust"].available:
            st.caption(t("sidebar.rust_missing"))


def selected_backend() -> tuple[str, Backend] | None:
    """(name, module) of the backend picked in the sidebar, or None if none imports."""
    name = st.session_state.get(BACKEND_KEY)
    if name is None:
        return None
    status = backend_status(name)
    return (name, status.module) if status.module is not None else None


def current_sentence() -> str:
    """The sentence in the sidebar (the running example unless the learner changed it), at most
    ``MAX_SENTENCE_CHARS`` long: the text area cuts what the browser sends, but a value put in the
    session state directly would otherwise reach every page whole."""
    return str(st.session_state.get(SENTENCE_KEY, DEFAULT_SENTENCE))[:MAX_SENTENCE_CHARS]
