"""MiniLM's tokens as the Real-model pages read them: which are content, which stand for words, and
where the pages' pickers start (the query, the target, the token a query attends to most).

The model's own numbers come from ``transformer_walk.models.minilm``; nothing here runs the
encoder. The heads (ranking, position controls, other sentences, a head switched off) are in
``topics.minilm_heads``; hidden-state vectors (cosines, PCA, a word in two sentences, shared
words) in ``app.views.minilm_vectors``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from transformer_walk.topics.attention_picks import pronoun_position

SPECIAL_TOKENS = ("[CLS]", "[SEP]")
# The running example's defaults (“From word vectors to Transformer” §26): "his" asks, "tom" and
# "dog" are the two answers.
DEFAULT_QUERY = "his"
DEFAULT_TARGETS = ("tom", "dog")


# --- tokens -------------------------------------------------------------------------------------


def content_positions(tokens: list[str]) -> list[int]:
    """Positions of every token except [CLS] and [SEP]."""
    return [i for i, token in enumerate(tokens) if token not in SPECIAL_TOKENS]


def has_content(tokens: list[str]) -> bool:
    """False for a text that tokenized to nothing but [CLS] and [SEP] (empty or blank)."""
    return bool(content_positions(tokens))


def default_query(tokens: list[str]) -> int:
    """ "his" if the text has it; otherwise the last content token that stands for a word
    (``word_like``: not an [UNK], which every unknown character shares, nor punctuation), it has
    the most context before it; the last content token if none does; [CLS] (0) for a text
    without content."""
    if DEFAULT_QUERY in tokens:
        return tokens.index(DEFAULT_QUERY)
    content = content_positions(tokens)
    words = [p for p in content if word_like(tokens[p])]
    return words[-1] if words else content[-1] if content else 0


def default_target(tokens: list[str], query: int, preferred: str, taken: Sequence[int] = ()) -> int:
    """``preferred`` if the text has it (and it is not the query); otherwise the first content
    token other than the query and the positions already ``taken`` (so that two pickers without
    their preferred words start on two different tokens); the query itself when there is none."""
    if preferred in tokens and tokens.index(preferred) != query:
        return tokens.index(preferred)
    others = [i for i in content_positions(tokens) if i != query]
    fresh = [i for i in others if i not in taken]
    return fresh[0] if fresh else others[0] if others else query


def default_toward(
    tokens: list[str], attentions: np.ndarray, query: int, preferred: str = DEFAULT_TARGETS[0]
) -> tuple[int, bool]:
    """Where "toward" starts: ``preferred`` if the text has it (and it is not the query), else the
    token the query attends to most (``most_attended``: the first content token, "when" or "the",
    means nothing). The flag is True in that second case, so the page can say why.
    attentions [L, h, n, n]."""
    if preferred in tokens and tokens.index(preferred) != query:
        return tokens.index(preferred), False
    return next(iter(most_attended(attentions, tokens, query, 1)), query), True


def word_like(token: str) -> bool:
    """A token that stands for a word or a piece of one: it has a letter or a digit, and it is
    not one of the tokenizer's markers ([CLS], [SEP], [UNK])."""
    return not (token.startswith("[") and token.endswith("]")) and any(c.isalnum() for c in token)


def pronoun_query(tokens: list[str]) -> int:
    """The attention page's first query: "his" if the text has it, else its last pronoun
    (``attention_picks.pronoun_position``: "Tom says Mary loves her cat" asks from "her", not
    from "cat"), else ``default_query``."""
    pronoun = pronoun_position(tokens)
    return default_query(tokens) if pronoun is None else pronoun


def most_attended(attentions: np.ndarray, tokens: list[str], query: int, k: int) -> list[int]:
    """The ``k`` word-like tokens (``word_like``, not the query) that ``query`` gives the most
    weight, averaged over every layer and head; largest first, ties in sentence order.
    attentions [L, h, n, n]."""
    mean = attentions[:, :, query, :].mean(axis=(0, 1))  # (n,): the query's row, all heads
    candidates = [p for p, token in enumerate(tokens) if p != query and word_like(token)]
    return sorted(candidates, key=lambda p: (-float(mean[p]), p))[: max(0, k)]
