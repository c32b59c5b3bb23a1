"""Every page with sentences chosen to break it (tests/data/sentences.json), in both languages: no
exception, and nothing a learner should never read — U+FFFD, a literal "None" or "nan", "-0.00",
"1.35e+03", Markdown or LaTeX that failed to render.

Each (page, language) is one session given a few of the corpus's sentences in a row, as a learner
would type them: one with a repeated word, one in Chinese or mixed scripts, one from the other
kinds, chosen by rotation so that the pages together meet every sentence. The rotation is fixed:
a failure reproduces by its node id.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from transformer_walk.app import navigation
from transformer_walk.app.i18n import LANGUAGES
from transformer_walk.app.sidebar import MAX_SENTENCE_CHARS, SENTENCE_KEY

from apptest_support import open_page

#: A sweep over many inputs: `make test` and CI run it, `make test-fast` leaves it out.
pytestmark = pytest.mark.sweep

CORPUS: dict[str, list[str]] = json.loads(
    (Path(__file__).parent / "data" / "sentences.json").read_text(encoding="utf-8")
)["sentences"]
PAGES = [file for _group, pages in navigation.ROAD for file, *_ in pages]
REPEATED = CORPUS["repeated"]
CHINESE = CORPUS["chinese"] + CORPUS["mixed"]
OTHERS = [s for kind, group in CORPUS.items() if kind not in ("repeated", "chinese", "mixed")
          for s in group]  # fmt: skip

#: What no page may show, unless the learner's own sentence holds it.
NEVER = {
    "U+FFFD": re.compile("\ufffd"),
    "None": re.compile(r"\bNone\b(?! of\b)"),  # Python's None, not the English "None of …"
    "nan": re.compile(r"\b(?:nan|NaN)\b"),
    "-0.00": re.compile(r"(?<![\w.])-0\.0+(?![\d])"),
    "1.35e+03": re.compile(r"\d[eE]\+\d"),  # a large number in scientific notation
}


def sentences_for(page_index: int, language: str) -> list[str]:
    """Three sentences for this page and language, by rotation over each kind."""
    k = 2 * page_index + (1 if language == "zh" else 0)
    return [REPEATED[k % len(REPEATED)], CHINESE[k % len(CHINESE)], OTHERS[k % len(OTHERS)]]


def test_the_rotation_meets_every_sentence() -> None:
    met = {s for i in range(len(PAGES)) for lang in LANGUAGES for s in sentences_for(i, lang)}
    missed = [s for group in CORPUS.values() for s in group if s not in met]
    assert len([s for group in CORPUS.values() for s in group]) >= 60
    assert not missed or len(PAGES) * 2 < len(OTHERS), missed  # every one, given enough pages


def _rendered(at: AppTest) -> list[str]:
    """The texts the page writes as Markdown."""
    kinds = ("markdown", "caption", "info", "warning", "success", "error", "title", "header",
             "subheader")  # fmt: skip
    return [str(e.value) for kind in kinds for e in at.main.get(kind)]


def _shown(at: AppTest) -> list[str]:
    """Every text of the main area a learner reads, table cells included."""
    out: list[str] = []
    for kind in ("markdown", "caption", "latex", "info", "warning", "success", "error", "text",
                 "title", "header", "subheader"):  # fmt: skip
        out += [str(e.value) for e in at.main.get(kind)]
    for metric in at.main.get("metric"):
        out += [str(metric.label), str(metric.value)]
    for frame in at.main.get("dataframe"):
        table = frame.value
        out += [str(c) for c in table.columns]
        for column in table.columns:
            if table[column].dtype == object:
                out += [str(v) for v in table[column] if isinstance(v, str)]
    return out


MARKDOWN = (
    MarkdownIt("commonmark")
    .enable(["table", "strikethrough"])
    .use(dollarmath_plugin, double_inline=True)
)
#: Pieces of markup that survive rendering only when they failed to render: bold or italic
#: markers that CommonMark's flanking rules left alone (next to CJK punctuation, say), a "$"
#: that opened no formula, a LaTeX command outside a formula.
LITERAL = re.compile(r"\*\*|__|\$|\\(?:frac|alpha|sqrt|mathbb|operatorname|text|cdot|times)\b")
REMOVED = re.compile(r'<(span|div) class="math[^"]*">.*?</\1>|<code>.*?</code>', re.DOTALL)


def _literal_markup(text: str) -> str | None:
    """What of ``text``'s Markdown shows literally once rendered as Streamlit renders it (GFM with
    formulas), or None."""
    rendered = REMOVED.sub(" ", MARKDOWN.render(text))
    plain = html.unescape(re.sub(r"<[^>]+>", " ", rendered))
    found = LITERAL.search(plain)
    return None if found is None else found.group()


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _chart_texts(at: AppTest) -> list[str]:
    """The strings of every chart: titles, axis labels, cell texts (inline data and the data
    sets Streamlit sends apart, as Arrow)."""
    out: list[str] = []
    for chart in at.main.get("vega_lite_chart"):
        out += list(_strings(json.loads(chart.proto.spec)))
        for dataset in chart.proto.datasets:
            frame = convert_arrow_bytes_to_pandas_df(dataset.data.data)
            for column in frame.columns:
                if frame[column].dtype == object:
                    out += [v for v in frame[column] if isinstance(v, str)]
    return out


def _faults(at: AppTest, sentence: str) -> list[str]:
    faults = [f"exception: {e.value}" for e in at.exception]
    for text in _rendered(at):
        literal = _literal_markup(text)
        if literal is not None and literal not in sentence:
            faults.append(f"literal {literal!r} in {text[:160]!r}")
    for text in _shown(at) + _chart_texts(at):
        for name, pattern in NEVER.items():
            if pattern.search(text) and not pattern.search(sentence):
                faults.append(f"{name} in {text[:160]!r}")
    return faults


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_the_corpus_on_every_page(page: str, language: str) -> None:
    at = open_page(page, language)
    found: list[str] = []
    for sentence in sentences_for(PAGES.index(page), language):
        at.sidebar.text_area(key=SENTENCE_KEY).set_value(sentence[:MAX_SENTENCE_CHARS])
        at.run()
        found += [f"{sentence[:40]!r}: {fault}" for fault in _faults(at, sentence)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("text", "literal"),
    [
        ("这是**“粗体”**文字", "**"),  # CommonMark leaves ** next to CJK punctuation alone
        ("costs $5", "$"),
        (r"\frac{1}{2} of it", r"\frac"),
        ("a **b** and $x^2$ and `**code**`", None),
    ],
)
def test_literal_markup_is_found_as_streamlit_would_show_it(text: str, literal: str | None) -> None:
    assert _literal_markup(text) == literal
