"""The small English corpus the project ships (``data/corpus_en.txt``, CC0), read as package data.

``scripts/make_corpus.py`` writes it from a hand-written grammar about a little world (see
``data/README.md``). Files are read through ``importlib.resources``, so they load the same from a
checkout, an editable install or a wheel.

The n-gram and word2vec pages work on *words*: the toy model's tokenizer (lower-cased words, each
CJK character, each symbol), keeping only tokens with a letter or digit in them — punctuation
would only add a "." before every sentence end.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from transformer_walk.models.toy import tokenize

CORPUS_FILE = "corpus_en.txt"
LEXICON_FILE = "corpus_en_lexicon.tsv"


def _read(name: str) -> str:
    return (resources.files("transformer_walk.topics") / "data" / name).read_text(encoding="utf-8")


def is_word(token: str) -> bool:
    return any(ch.isalnum() for ch in token)


def words(text: str) -> list[str]:
    """The words of ``text`` as the corpus pages count them: tokens without punctuation."""
    return [token for token in tokenize(text) if is_word(token)]


@lru_cache(maxsize=1)
def raw_sentences() -> tuple[str, ...]:
    """The corpus, one sentence per line, as written."""
    return tuple(line for line in _read(CORPUS_FILE).splitlines() if line.strip())


@lru_cache(maxsize=1)
def sentences() -> tuple[tuple[str, ...], ...]:
    """Every corpus sentence as a tuple of lower-cased words."""
    return tuple(tuple(words(line)) for line in raw_sentences())


@lru_cache(maxsize=1)
def lexicon() -> dict[str, str]:
    """Content word → category (person, animal, food, water, place, money, time, adjective, verb,
    bank). Words not listed are function words ("the", "his", "at" …)."""
    pairs = (line.split("\t") for line in _read(LEXICON_FILE).splitlines() if line.strip())
    return {word: category for word, category in pairs}


FUNCTION_CATEGORY = "function"


def category(word: str) -> str:
    return lexicon().get(word, FUNCTION_CATEGORY)
