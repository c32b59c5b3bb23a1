"""The pages of the road, grouped as the learner walks it: Representation → Before attention →
Attention → Transformer → Learning → Real model → Generation → Speed → Check yourself.

Page files are addressed by absolute path inside the installed package, so the app runs the same
from a checkout or from a wheel.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit.navigation.page import StreamlitPage

from transformer_walk.app.i18n import t

PAGES_DIR = Path(__file__).resolve().parent / "pages"

# (group message id, [(file, url path, title message id, icon)]); the first page is the default.
ROAD: list[tuple[str, list[tuple[str, str, str, str]]]] = [
    (
        "nav.representation",
        [
            ("tokens.py", "tokens", "tokens.title", ":material/text_fields:"),
            ("ngrams.py", "n-grams", "ngrams.title", ":material/format_list_numbered:"),
            ("one_hot.py", "one-hot", "one_hot.title", ":material/grid_on:"),
            ("embeddings.py", "embeddings", "embeddings.title", ":material/scatter_plot:"),
            (
                "dimensionality.py",
                "dimensionality",
                "dimensionality.title",
                ":material/open_in_full:",
            ),
        ],
    ),
    (
        "nav.before_attention",
        [
            ("rnn_cnn.py", "rnn-and-cnn", "rnn_cnn.title", ":material/linear_scale:"),
            ("seq2seq.py", "seq2seq", "seq2seq.title", ":material/compress:"),
        ],
    ),
    (
        "nav.attention",
        [
            (
                "attention_by_hand.py",
                "attention-by-hand",
                "attention_by_hand.title",
                ":material/calculate:",
            ),
            ("qkv.py", "q-k-v", "qkv.title", ":material/key:"),
            ("scaling.py", "scaling", "scaling.title", ":material/tune:"),
            ("self_attention.py", "self-attention", "self_attention.title", ":material/apps:"),
            ("multi_head.py", "multi-head", "multi_head.title", ":material/view_column:"),
        ],
    ),
    (
        "nav.transformer",
        [
            ("positions.py", "positions", "positions.title", ":material/format_list_numbered_rtl:"),
            ("block.py", "block", "block.title", ":material/view_agenda:"),
            ("pipeline.py", "pipeline", "pipeline.title", ":material/account_tree:"),
            ("cost.py", "cost", "cost.title", ":material/monitoring:"),
            ("beyond_text.py", "beyond-text", "beyond_text.title", ":material/image:"),
        ],
    ),
    (
        "nav.learning",
        [
            ("watch_it_learn.py", "watch-it-learn", "watch_it_learn.title", ":material/school:"),
            (
                "head_that_copies.py",
                "a-head-that-copies",
                "head_that_copies.title",
                ":material/content_copy:",
            ),
        ],
    ),
    (
        "nav.real_model",
        [
            ("minilm_attention.py", "minilm-attention", "minilm_attention.title", ":material/hub:"),
            ("contextual.py", "contextual-meaning", "contextual.title", ":material/blur_on:"),
        ],
    ),
    (
        "nav.generation",
        [
            (
                "next_token.py",
                "next-token",
                "next_token.title",
                ":material/keyboard_double_arrow_right:",
            ),
            ("then_and_now.py", "2017-vs-today", "then_and_now.title", ":material/compare_arrows:"),
            (
                "inside_decoder.py",
                "inside-the-decoder",
                "inside_decoder.title",
                ":material/layers:",
            ),
            (
                "decoder_copying.py",
                "copying-in-smollm2",
                "decoder_copying.title",
                ":material/content_copy:",
            ),
            ("decoder_cache.py", "kv-cache", "decoder_cache.title", ":material/database:"),
        ],
    ),
    ("nav.speed", [("speed.py", "speed", "speed.nav", ":material/speed:")]),
    (
        "nav.check",
        [("check_yourself.py", "check-yourself", "check_yourself.title", ":material/quiz:")],
    ),
]


def nav_title(title: str) -> str:
    """A page's name in the sidebar: its title up to the colon ("N-grams: counting what comes
    next" → "N-grams", "Q、K、V：每个 token 的三种视角" → "Q、K、V"), whole if it has none. The
    sidebar cut the longer titles off mid-word; the page's own heading keeps the whole title."""
    for colon in (":", "："):
        head, found, _ = title.partition(colon)
        if found and head.strip():
            return head.strip()
    return title


def page_path(filename: str) -> Path:
    return PAGES_DIR / filename


def build_navigation() -> StreamlitPage:
    """``st.navigation`` over the road's pages, with translated group and page titles.

    Streamlit serves its default page at "/" only, so "/tokens" typed or bookmarked would find
    no page. Every road page is therefore an ordinary page with its own path, and the default is
    a hidden page that sends "/" on to the first one (whose path then shows in the address bar).
    """
    groups = {
        t(group): [
            st.Page(page_path(file), title=nav_title(t(title)), icon=icon, url_path=url)
            for file, url, title, icon in pages
        ]
        for group, pages in ROAD
    }
    first_group = next(iter(groups.values()))
    first = first_group[0]

    def start() -> None:
        st.switch_page(first)

    first_group.insert(
        0, st.Page(start, title=first.title, url_path="start", default=True, visibility="hidden")
    )
    # expanded: every page of the road in the sidebar, not the first 10 behind "View more".
    return st.navigation(groups, expanded=True)
