"""The app's words, in English and Simplified Chinese, and how a message is looked up.

``t("attention_by_hand.title")`` returns the message in the language picked in the sidebar
(``st.session_state["lang"]``); ``t("speed.progress", done=1, total=8, …)`` also fills its fields.
Messages are written for each language, not translated word for word. A message that is given
fields is formatted with ``str.format``, so its literal braces must be doubled; messages without
fields are returned as they are (free to contain LaTeX such as ``\\boldsymbol{z}``).

A count's noun follows the count: ``{n:token|tokens}`` is "token" when n reads 1 and "tokens"
otherwise (Chinese needs no such field: 1 个 and 2 个 take the same noun).

This module holds the words every page shares (navigation, sidebar, backends, common notes); each
page's own words live in ``transformer_walk.app.texts``, one module per page, merged in here.
"""

from __future__ import annotations

import re
import string
from typing import Any

from transformer_walk.topics.claims import Claim

LANGUAGES: dict[str, str] = {"en": "English", "zh": "简体中文"}
DEFAULT_LANGUAGE = "en"
LANGUAGE_KEY = "lang"  # session-state key of the sidebar's language picker (and ?lang= in the URL)

#: The Chinese pages' one word for each term, as the source articles write it: "token" stays
#: "token" (not 词元 or 标记), an embedding is a 词向量 (not 嵌入). A Chinese message may not use a
#: rejected word (tests/test_i18n.py); a label that is just a kept term reads the same in both.
GLOSSARY_ZH: dict[str, str] = {"token": "token", "embedding": "词向量"}
REJECTED_ZH: dict[str, str] = {"词元": "token", "标记": "token", "嵌入": "词向量"}

MESSAGES: dict[str, dict[str, str]] = {
    # --- navigation and sidebar -----------------------------------------------------------------
    "nav.representation": {"en": "Representation", "zh": "表示"},
    "nav.before_attention": {"en": "Before attention", "zh": "注意力之前"},
    "nav.attention": {"en": "Attention", "zh": "注意力"},
    "nav.transformer": {"en": "Transformer", "zh": "Transformer 结构"},
    "nav.learning": {"en": "Learning", "zh": "训练"},
    "nav.real_model": {"en": "Real model", "zh": "真实模型"},
    "nav.generation": {"en": "Generation", "zh": "生成"},
    "nav.speed": {"en": "Speed", "zh": "速度"},
    "nav.check": {"en": "Check yourself", "zh": "自我检验"},
    "sidebar.backend": {"en": "Backend", "zh": "计算后端"},
    "sidebar.sentence": {"en": "Your sentence", "zh": "你的句子"},
    "sidebar.sentence_help": {
        "en": "Every page of the road computes with this text. Try your own: a longer sentence, "
        "a repeated word, Chinese, an emoji.",
        "zh": "路线上的每一页都用这段文字计算。试试你自己的句子：更长的句子、重复的词、"
        "中文，甚至表情符号。",
    },
    "sidebar.moved": {
        "en": "The class's server this page was on has stopped, so it reopened on another one. "
        "What only that server kept for you (generated text, measurements, choices this page "
        "does not show) starts over.",
        "zh": "这个页面原来所在的课堂服务器已经停止，所以它在另一台服务器上重新打开了。"
        "只保存在那台服务器上的内容（生成的文字、测量结果、本页没有显示的选择）需要重新开始。",
    },
    "sidebar.share": {"en": "Share this page", "zh": "分享本页"},
    "sidebar.share_help": {
        "en": "This address opens this page with the same sentence, language, backend and "
        "settings. Copy it with the button at its top right, then put it on the board or in the "
        "class chat: everyone who opens it starts where you are.",
        "zh": "这个地址会用相同的句子、语言、计算后端和设置打开本页。用它右上角的按钮复制，"
        "再写到黑板上或发到班级群里：打开它的每个人都会从你现在的状态开始。",
    },
    "sidebar.share_too_long": {
        "en": "Too long for an address, so left out: {params}. Whoever opens the link sees "
        "the default there.",
        "zh": "{params} 太长，放不进地址，已经省略：打开链接的人在这一项看到的是默认值。",
    },
    "common.link_left_out": {
        "en": "This link's {params} could not be used on this page, so the default is shown "
        "instead.",
        "zh": "链接里的 {params} 在本页无法使用，因此改为显示默认值。",
    },
    "input.enter": {"en": "Press Enter to apply", "zh": "按 Enter 应用"},
    "input.ctrl_enter": {"en": "Press Ctrl+Enter to apply", "zh": "按 Ctrl（Mac：⌘）+ Enter 应用"},
    "common.solved": {"en": "What this solved:", "zh": "这一步解决了什么："},
    "common.hurts": {"en": "What still hurts:", "zh": "还有什么痛点："},
    "common.empty_text": {
        "en": "The sentence in the sidebar has no tokens yet. Type a few words there to see "
        "this page's numbers.",
        "zh": "侧边栏里的句子还没有任何 token。在那里输入几个词，就能看到这一页的数字。",
    },
    "sidebar.backend_help": {
        "en": "Every number on the pages is computed by the implementation picked here. All three "
        "follow one contract (docs/api.md) and agree up to rounding.",
        "zh": "页面上的每个数字都由这里选中的实现计算。三种实现遵循同一份接口约定（docs/api.md），"
        "结果只在舍入误差范围内有差别。",
    },
    "sidebar.rust_missing": {
        "en": "rust_core is not installed in this environment, so NumPy is the default. "
        "Build it with `make run` (or `maturin develop --release`).",
        "zh": "当前环境没有安装 rust_core，因此默认使用 NumPy。"
        "可以用 `make run`（或 `maturin develop --release`）构建它。",
    },
    "sidebar.no_backend": {
        "en": "No backend could be imported. Install the project (`pip install -e .`) and reload.",
        "zh": "没有可以导入的计算后端。请先安装本项目（`pip install -e .`），再刷新页面。",
    },
    "backend.python": {"en": "Pure Python", "zh": "纯 Python"},
    "backend.python.caption": {"en": "lists, loops and math", "zh": "列表、循环和 math 模块"},
    "backend.numpy": {"en": "NumPy", "zh": "NumPy"},
    "backend.numpy.caption": {"en": "vectorised arrays", "zh": "向量化的数组运算"},
    "backend.rust": {"en": "Rust (rust_core)", "zh": "Rust（rust_core 扩展）"},
    "backend.rust.caption": {"en": "compiled, multi-threaded", "zh": "编译执行，多线程"},
    "common.no_backend": {
        "en": "This page needs a backend and none could be imported — see the sidebar.",
        "zh": "本页需要一个计算后端，但目前没有可用的——请查看侧边栏。",
    },
    "common.window": {"en": "First token shown", "zh": "从第几个 token 开始显示"},
    "common.waiting_core": {
        "en": "Waiting for a free core: this server runs {slots} long "
        "{slots:computation|computations} (timing, training, generating, pure Python) at a time "
        "so that the rest of the class stays quick. Yours starts as soon as one ends.",
        "zh": "正在等待空闲的 CPU 核心：为了让全班其他人的页面保持流畅，这台服务器同一时间只运行 "
        "{slots} 个耗时计算（计时、训练、生成、纯 Python）。前一个结束后，你的计算就会马上开始。",
    },
    "common.computed_with": {
        "en": "Computed with the **{backend}** backend (switch it in the sidebar).",
        "zh": "本页的数字由 **{backend}** 后端计算（可在侧边栏切换）。",
    },
    "common.python_fallback": {
        "en": "Pure Python manages about {rate} multiply-adds a second on this machine, so this "
        "would take longer than the {budget} s a page may take: it was computed with **NumPy** "
        "instead, which gives the same numbers up to rounding. The Speed page races pure Python "
        "at every size.",
        "zh": "纯 Python 在这台机器上每秒大约只能做 {rate} 次乘加，算这里的内容会超过一页允许的 "
        "{budget} 秒，所以改用 **NumPy** 计算，结果在舍入误差内相同。速度页会在各种规模上让纯 "
        "Python 一起比赛。",
    },
}


def _merge_page_messages() -> None:
    """Add the messages of every module in ``transformer_walk.app.texts`` (one per page), so
    pages can keep their words beside each other without sharing one file. Ids must not collide."""
    import importlib
    import pkgutil

    from transformer_walk.app import texts

    for info in sorted(pkgutil.iter_modules(texts.__path__), key=lambda i: i.name):
        page_messages = importlib.import_module(f"{texts.__name__}.{info.name}").MESSAGES
        clash = MESSAGES.keys() & page_messages.keys()
        if clash:
            raise RuntimeError(f"texts.{info.name} redefines message ids {sorted(clash)}")
        MESSAGES.update(page_messages)


_merge_page_messages()


def current_language() -> str:
    """The language picked in the sidebar; English outside a Streamlit session."""
    try:
        import streamlit as st

        language = st.session_state.get(LANGUAGE_KEY, DEFAULT_LANGUAGE)
    except Exception:  # no Streamlit session (CLI, plain unit tests)
        return DEFAULT_LANGUAGE
    return language if language in LANGUAGES else DEFAULT_LANGUAGE


class _MessageFormatter(string.Formatter):
    """``str.format``, plus the count field ``{n:one|other}``: "one" when n reads 1, else
    "other"."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            one, other = format_spec.split("|", 1)
            return one if str(value) == "1" else other  # the count as shown: 1, "1"
        return super().format_field(value, format_spec)


_FORMATTER = _MessageFormatter()


def translate(key: str, language: str, /, **fields: object) -> str:
    """Message ``key`` in ``language``, with ``fields`` filled in. Unknown keys raise KeyError."""
    text = MESSAGES[key][language]
    return _FORMATTER.format(text, **fields) if fields else text


def t(key: str, /, **fields: object) -> str:
    """Message ``key`` in the current language, with ``fields`` filled in."""
    return translate(key, current_language(), **fields)


#: Keys of the radios whose option labels are translated (see ``translated_radio``).
_TRANSLATED_RADIOS: set[str] = set()


def translated_radio(key: str) -> str:
    """``key``, remembered as a radio whose option labels change with the language.

    Streamlit's radio keeps the learner's choice in the browser by its label text, so after a
    language switch none of the new labels matches and the radio shows nothing picked (selectboxes
    do not have this problem). ``resend_translated_radios`` fixes that for every key passed here.
    """
    _TRANSLATED_RADIOS.add(key)
    return key


def resend_translated_radios() -> None:
    """The language picker's ``on_change``: set every translated radio's value to itself, which
    makes Streamlit send it to the browser again, under its label in the new language."""
    import streamlit as st

    for key in sorted(_TRANSLATED_RADIOS):
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def join_sentences(sentences: list[str], language: str | None = None) -> str:
    """Sentences run together as the language writes them: a space between English ones, none
    after a Chinese full stop."""
    return ("" if (language or current_language()) == "zh" else " ").join(sentences)


def markdown_literal(value: str) -> str:
    """``value`` (a prompt, a token, a learner's word) shown as typed inside a line of Markdown:
    "*", "$", "&amp;" or ":cat:" stay themselves, not formatting, an entity or an emoji, and its
    line breaks are kept. Inside a line only the escaped characters can format; a line of its
    own can also start a heading or a list ("# b", "- b", "1. b"), so those marks are escaped
    where a line starts. Streamlit finds emoji shortcodes in the text after escapes are read,
    so a zero-width space after each ":" is what keeps ":cat:" from matching."""
    out = "".join("\\" + ch if ch in "\\`*_[]$<>~|&" else ch for ch in value)
    out = _LINE_MARK.sub(r"\1\\\2", out)
    return out.replace(":", ":\u200b").replace("\n", "  \n")


#: A mark that makes a line a heading ("## b"), a list item ("- b", "12. b") or a heading's
#: underline ("==="): only when a space or the line's end follows it, so "-0.31" stays as it is.
_LINE_MARK = re.compile(r"(?m)^([ \t]*|[ \t]*\d{1,9})(#{1,6}|[+-]|=+|-+|(?<=\d)[.)])(?=[ \t]|$)")


def say(said: Claim | None, *, markdown: bool = True, language: str | None = None) -> str | None:
    """A claim function's ``Claim`` in ``language`` (default: the page's), or None when it made
    none. A list field is joined as the language writes lists; with ``markdown`` (the default:
    markdown, captions and boxes render it) text fields are escaped, so a token such as "*" or
    "$", or a share such as ">99.9%", is shown, not read as formatting."""
    if said is None:
        return None
    language = language or current_language()

    def text(value: object) -> object:
        if isinstance(value, (list, tuple)):
            return join_names([str(text(v)) for v in value], language)
        if markdown and isinstance(value, str):
            return markdown_literal(value)
        return value

    fields = {key: text(value) for key, value in said.fields.items()}
    return translate(said.message, language, **fields)


def join_names(names: list[str], language: str | None = None, *, most: int | None = None) -> str:
    """A list of names as the language writes it: "tom, loves and dog" / "tom、loves 和 dog";
    past ``most`` names, the first ``most`` and "…" ("1 · 你, 2 · 好, …")."""
    zh = (language or current_language()) == "zh"
    comma = "、" if zh else ", "
    if most is not None and len(names) > most:
        return comma.join([*names[:most], "…"])
    if len(names) < 2:
        return "".join(names)
    return comma.join(names[:-1]) + (" 和 " if zh else " and ") + names[-1]
