"""SmolLM2's byte-level BPE split of a text, as the Tokens page lists it beside WordPiece."""

from __future__ import annotations

from dataclasses import dataclass

from transformer_walk.app.views.byte_text import piece_labels
from transformer_walk.models.smollm2.tokenizer import SmolTokenizer


@dataclass(frozen=True)
class BpeSplit:
    ids: list[int]
    pieces: list[str]  # each token's text: a space as "␣", part of a character as "⟨E4 BD→你⟩"

    @property
    def n(self) -> int:
        return len(self.ids)

    @property
    def spaced(self) -> int:
        """Tokens that begin with a space: the start of a new word, inside the token."""
        return sum(p.startswith("␣") for p in self.pieces)


def bpe_split(tokenizer: SmolTokenizer, text: str) -> BpeSplit:
    """The text as SmolLM2 reads it (no BOS): ids and readable pieces."""
    ids = [int(i) for i in tokenizer.encode_full(text).ids]
    return BpeSplit(ids, piece_labels([tokenizer.token_bytes(i) for i in ids]))


#: The summary by how the BPE count compares with WordPiece's (without [CLS] and [SEP]).
SUMMARIES = {
    "fewer": "tokens.bpe.summary.fewer",
    "same": "tokens.bpe.summary.same",
    "more": "tokens.bpe.summary.more",
}


def bpe_summary(
    split: BpeSplit, wordpiece: int | None, words: int
) -> tuple[str, dict[str, object]]:
    """The sentence under the split: how many tokens against the words and, when WordPiece is
    there, against its pieces (``wordpiece`` without [CLS]/[SEP]; None when it is missing)."""
    fields: dict[str, object] = {"n": split.n, "words": words, "spaced": split.spaced}
    if wordpiece is None:
        return "tokens.bpe.summary.alone", fields
    fields["wordpiece"] = wordpiece
    verdict = "fewer" if split.n < wordpiece else "more" if split.n > wordpiece else "same"
    return SUMMARIES[verdict], fields
