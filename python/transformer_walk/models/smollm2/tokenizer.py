"""SmolLM2's tokenizer: byte-level BPE, rebuilt from the GGUF file with the ``tokenizers`` library.

The file carries the vocabulary (``tokenizer.ggml.tokens``, 49,152 strings), the merges
(``tokenizer.ggml.merges``, "a b" pairs, highest priority first) and each token's type
(``tokenizer.ggml.token_type``: 1 normal, 3 control, 4 user-defined). llama.cpp tokenizes with it
in three steps, and so does this:

1. special tokens — the control and user-defined ones, such as ``<|im_start|>``, ``<|im_end|>``,
   ``<|endoftext|>`` — are cut out of the text first and become their own ids;
2. the rest is pre-tokenized as llama.cpp's ``smollm`` pre-type says: every digit on its own
   (regex ``\\p{N}``), then GPT-2's byte-level split (contractions, letters, numbers, other
   symbols, whitespace) with each byte mapped to a printable character (space → "Ġ");
3. each piece is merged by BPE, by the merges' ranks.

No BOS token is added (the file's ``tokenizer.ggml.add_bos_token`` is false, and llama.cpp's
``tokenize(…, add_bos=False, special=True)`` is the contract). Decoding is the exact inverse:
each normal token's characters back to their bytes, each special token as its text, and the
bytes of the whole sequence decoded as UTF-8 (a token may hold half of a character: 🐶 is three
tokens).

SmolLM2's vocabulary lacks a token for 21 of the 256 bytes (``missing_bytes``): 0xC0, 0xC1 and
0xF5–0xFF, which UTF-8 never uses; 0xF1 and 0xF2, which begin only characters of the unassigned
planes 4–12; and the control characters 0x04, 0x06, 0x13, 0x14, 0x16, 0x1D. llama.cpp drops such
a byte without a word (its BPE looks the byte up, finds nothing and emits nothing), and so does
the ``tokenizers`` BPE without an unknown token: the ids are the same, and a text holding one
of them does not come back whole from ``decode``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from tokenizers import AddedToken, Encoding, Regex, Tokenizer, models, pre_tokenizers

from transformer_walk.models.checks import check_text, is_int

#: The file's token types this code handles (llama.cpp's enum llama_token_type).
NORMAL, CONTROL, USER_DEFINED = 1, 3, 4
#: The pre-tokenizer llama.cpp applies for each ``tokenizer.ggml.pre``; only SmolLM2's here.
PRE_TYPES = ("smollm",)
#: Texts of the control tokens that end a turn or a document: llama.cpp stops generating there.
END_TEXTS = ("<|endoftext|>", "<|im_end|>")


class TokenizerError(ValueError):
    """The file's tokenizer is not one this code rebuilds (the loader adds the file and a hint)."""


class VocabularyError(ValueError, IndexError):
    """A token id outside the vocabulary: a ValueError (a bad argument) and an IndexError (as
    ``embedding_lookup`` reports an id outside its table), so either ``except`` catches it."""


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's map from each of the 256 bytes to a printable character: the printable Latin-1
    characters stand for themselves, the other 68 bytes (controls, space, …) take the characters
    from U+0100 on, in order — so space (0x20) is "Ġ" (U+0120) and newline "Ċ"."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1)]
    printable += range(ord("®"), ord("ÿ") + 1)
    table = {b: chr(b) for b in printable}
    extra = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + extra)
            extra += 1
    return table


def build_tokenizer(
    tokens: Sequence[str], merges: Sequence[str], special: Sequence[int]
) -> Tokenizer:
    """The ``tokenizers.Tokenizer`` of steps 1–3: BPE over ``tokens`` (id = index) and
    ``merges``, the smollm pre-tokenizer, ``special`` (ids) matched in the text first."""
    vocab = {token: i for i, token in enumerate(tokens)}
    pairs = []
    for rank, merge in enumerate(merges):
        left, sep, right = merge.partition(" ")
        if not sep or not left or not right:
            raise TokenizerError(f"merge {rank} is {merge!r}, not two tokens separated by a space")
        pairs.append((left, right))
    bpe = models.BPE(vocab=vocab, merges=pairs, fuse_unk=False, byte_fallback=False)
    tokenizer = Tokenizer(bpe)
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [
            # "\p{N}" first, as llama.cpp's smollm regexes: each digit its own piece ("12345"
            # → 1 2 3 4 5), before GPT-2's regex could keep a run of digits together.
            pre_tokenizers.Split(Regex(r"\p{N}"), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
        ]
    )
    # Not normalized: matched in the raw text, as llama.cpp's special-token partition does.
    tokenizer.add_special_tokens(
        [AddedToken(tokens[i], special=True, normalized=False) for i in special]
    )
    return tokenizer


class SmolTokenizer:
    """encode / decode for SmolLM2, from the lists of a GGUF file (``from_metadata``)."""

    def __init__(
        self,
        tokens: Sequence[str],
        merges: Sequence[str],
        types: Sequence[int],
        chat_template: str | None = None,
    ) -> None:
        if len(types) != len(tokens):
            raise TokenizerError(
                f"tokenizer.ggml.token_type has {len(types)} entries for {len(tokens)} tokens"
            )
        unknown = sorted({t for t in types} - {NORMAL, CONTROL, USER_DEFINED})
        if unknown:
            raise TokenizerError(
                f"tokenizer.ggml.token_type holds types {unknown}, which this code does not "
                "handle (it handles 1 normal, 3 control, 4 user-defined)"
            )
        self.tokens = list(tokens)
        self.types = list(types)
        self.chat_template = chat_template  # Jinja, as the file's tokenizer.chat_template
        self.special_ids = [i for i, t in enumerate(types) if t != NORMAL]
        self.tokenizer = build_tokenizer(self.tokens, merges, self.special_ids)
        self._byte_of = {c: b for b, c in bytes_to_unicode().items()}
        for i in range(len(tokens)):
            if types[i] == NORMAL and any(c not in self._byte_of for c in tokens[i]):
                raise TokenizerError(
                    f"token {i} {tokens[i]!r} has a character outside GPT-2's byte alphabet: "
                    "it is not a byte-level BPE vocabulary"
                )

    @classmethod
    def from_metadata(cls, metadata: dict[str, object]) -> SmolTokenizer:
        """Rebuild the tokenizer of a GGUF file's metadata; TokenizerError when it is not a
        byte-level BPE of the smollm pre-type, or its lists are missing or malformed."""
        model = metadata.get("tokenizer.ggml.model")
        if model != "gpt2":
            raise TokenizerError(
                f"tokenizer.ggml.model = {model!r} (this code rebuilds 'gpt2', byte-level BPE)"
            )
        pre = metadata.get("tokenizer.ggml.pre")
        if pre not in PRE_TYPES:
            raise TokenizerError(
                f"tokenizer.ggml.pre = {pre!r} (this code splits text as {', '.join(PRE_TYPES)})"
            )
        lists = {}
        for key, kind in (("tokens", str), ("merges", str), ("token_type", int)):
            value = metadata.get(f"tokenizer.ggml.{key}")
            if not isinstance(value, list) or not all(isinstance(v, kind) for v in value):
                raise TokenizerError(
                    f"tokenizer.ggml.{key} is missing or not a list of {kind.__name__}"
                )
            lists[key] = value
        template = metadata.get("tokenizer.chat_template")
        if template is not None and not isinstance(template, str):
            raise TokenizerError("tokenizer.chat_template is not text")
        return cls(lists["tokens"], lists["merges"], lists["token_type"], template)

    def chat(self, user: str) -> str:
        """``user``'s message as the model was tuned to read it: the file's own chat template
        (rendered sandboxed, as Hugging Face does), ending where the assistant's answer begins.
        TokenizerError when the file has no template."""
        if self.chat_template is None:
            raise TokenizerError("this GGUF file has no tokenizer.chat_template")
        from jinja2.exceptions import TemplateError
        from jinja2.sandbox import ImmutableSandboxedEnvironment

        environment = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
        try:
            return environment.from_string(self.chat_template).render(
                messages=[{"role": "user", "content": user}], add_generation_prompt=True
            )
        except TemplateError as error:
            raise TokenizerError(f"the file's chat template fails: {error}") from error

    @property
    def vocab_size(self) -> int:
        return len(self.tokens)

    @cached_property
    def missing_bytes(self) -> frozenset[int]:
        """The bytes no token stands for: ``encode`` drops them, as llama.cpp does."""
        alphabet = {c for i, t in enumerate(self.tokens) if self.types[i] == NORMAL for c in t}
        return frozenset(b for b, c in bytes_to_unicode().items() if c not in alphabet)

    @cached_property
    def end_ids(self) -> frozenset[int]:
        """The control tokens that end a turn or a text (``END_TEXTS``): where generation stops."""
        return frozenset(
            i for i in self.special_ids if self.types[i] == CONTROL and self.tokens[i] in END_TEXTS
        )

    # -- text → ids ------------------------------------------------------------------------------

    def encode_full(self, text: str) -> Encoding:
        """The ``tokenizers`` Encoding of ``text`` (ids, byte-level tokens, character offsets).
        TypeError for a non-str; ValueError for a lone surrogate, which is not a character."""
        check_text(text)
        return self.tokenizer.encode(text, add_special_tokens=False)

    def encode(self, text: str) -> list[int]:
        """llama.cpp's ``tokenize(text, add_bos=False, special=True)``."""
        return list(self.encode_full(text).ids)

    # -- ids → text ------------------------------------------------------------------------------

    def check_ids(self, ids: Sequence[int]) -> None:
        """TypeError for an id that is not an integer; VocabularyError naming the first id
        outside [0, vocab_size)."""
        for position, i in enumerate(ids):
            if not is_int(i):
                raise TypeError(
                    f"token ids must be integers, got {i!r} ({type(i).__name__}) at position "
                    f"{position}"
                )
            if not 0 <= i < len(self.tokens):
                raise VocabularyError(
                    f"token id {i} (at position {position}) is outside the vocabulary of "
                    f"{len(self.tokens)} tokens (ids 0 … {len(self.tokens) - 1})"
                )

    def token_bytes(self, i: int) -> bytes:
        """The bytes token ``i`` stands for: a special token's text, a normal one's bytes."""
        self.check_ids([i])
        token = self.tokens[i]
        if self.types[i] != NORMAL:
            return token.encode("utf-8")
        return bytes(self._byte_of[c] for c in token)

    def piece(self, i: int) -> str:
        """Token ``i`` as readable text: " loves" for "Ġloves"; a token holding part of a
        character shows U+FFFD (�) for it."""
        return self.token_bytes(i).decode("utf-8", errors="replace")

    def decode(self, ids: Sequence[int]) -> str:
        """The text of ``ids``: every token's bytes, joined, then decoded as UTF-8 (invalid
        sequences, such as a character cut short at the end, become U+FFFD)."""
        self.check_ids(ids)
        return b"".join(self.token_bytes(i) for i in ids).decode("utf-8", errors="replace")
