"""The sidebar every page shares: the sentence, the language and the backend, kept in
``st.session_state`` and linked in the address (``links``)."""

from __future__ import annotations

import os
from collections.abc import Callable

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


#: Prefix of the plain session keys that hold the sidebar's choices (``kept.lang``, …).
KEPT = "kept."


def _kept(key: str, first: Callable[[], object]) -> None:
    """Before the sidebar widget ``key`` is drawn: remember its value under a plain key, or put
    the remembered one back when the run arrived without it. Streamlit drops a widget's own key
    when a run comes without its value (a rerun interrupted by the next, a client that sends only
    what changed), and the widget would start over at its first option: the page would turn
    English and pure Python. ``first`` gives the value of a session's very first run."""
    state = st.session_state
    if key in state:
        state[KEPT + key] = state[key]
    else:
        state[key] = state[KEPT + key] if KEPT + key in state else first()


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
    new_session = KEPT + LANGUAGE_KEY not in st.session_state
    statuses = backend_statuses()
    available = [name for name, status in statuses.items() if status.available]
    # In the address (?lang=zh&sentence=…&backend=numpy), and taken from it by a new session.
    linked(LANGUAGE_KEY, DEFAULT_LANGUAGE, list(LANGUAGES))
    linked(SENTENCE_KEY, DEFAULT_SENTENCE, Text(MAX_SENTENCE_CHARS))
    if available:
        linked(BACKEND_KEY, default_backend(available), available)
    _kept(LANGUAGE_KEY, lambda: DEFAULT_LANGUAGE)
    if new_session and moved_here(
        st.context.headers.get(PINNED_HEADER), os.environ.get(REPLICA_ENV)
    ):
        # The replica this student was on stopped and the balancer sent them here: a new session.
        st.info(t("sidebar.moved"), icon=":material/sync:")
    _kept(BACKEND_KEY, lambda: default_backend(available))
    if st.session_state.get(BACKEND_KEY) not in available:
        st.session_state[BACKEND_KEY] = default_backend(available)
    _kept(SENTENCE_KEY, lambda: DEFAULT_SENTENCE)
    if st.session_state[LANGUAGE_KEY] != DEFAULT_LANGUAGE:
        st.html(style.input_hints(t("input.enter"), t("input.ctrl_enter")))
    with st.sidebar:
        st.text_area(
            t("sidebar.sentence"),
            key=SENTENCE_KEY,
            max_chars=MAX_SENTENCE_CHARS,
            height=80,
            help=t("sidebar.sentence_help"),
        )
        # Bilingual label: findable whichever language is showing.
        st.radio(
            "Language · 语言",
            options=list(LANGUAGES),
            format_func=LANGUAGES.__getitem__,
            key=LANGUAGE_KEY,
            horizontal=True,
            on_change=resend_translated_radios,
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
