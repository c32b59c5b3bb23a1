"""The two small corpora the project ships (``data/corpus_en.txt``, ``data/corpus_zh.txt``, CC0),
read as package data, and which of them a learner's sentence is counted on.

``scripts/make_corpus.py`` writes both from hand-written grammars about one little world (see
``data/README.md``). Files are read through ``importlib.resources``, so they load the same from a
checkout, an editable install or a wheel.

The n-gram and word2vec pages work on *words*: the toy model's tokenizer (lower-cased words, each
CJK character, each symbol), keeping only tokens with a letter or digit in them — punctuation
would only add a "." before every sentence end. Chinese is therefore segmented by characters, as
the toy model, and BERT-style tokenizers such as MiniLM's, segment it: no segmenter to ship or to
disagree with the other pages, and every sentence the learner types is cut the same way here as
on the Tokens page.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Literal

from transformer_walk.models.toy import tokenize
from transformer_walk.topics.claims import Claim, claim

Language = Literal["en", "zh"]
CORPORA: tuple[Language, ...] = ("en", "zh")
FILES: dict[Language, tuple[str, str]] = {
    "en": ("corpus_en.txt", "corpus_en_lexicon.tsv"),
    "zh": ("corpus_zh.txt", "corpus_zh_lexicon.tsv"),
}
CORPUS_FILE, LEXICON_FILE = FILES["en"]


def _read(name: str) -> str:
    return (resources.files("transformer_walk.topics") / "data" / name).read_text(encoding="utf-8")


def is_word(token: str) -> bool:
    return any(ch.isalnum() for ch in token)


def is_cjk(token: str) -> bool:
    """A token that is one CJK character (the tokenizer makes each its own token)."""
    return len(token) == 1 and (
        "\u3040" <= token <= "\u30ff"
        or "\u3400" <= token <= "\u4dbf"
        or "\u4e00" <= token <= "\u9fff"
        or "\uf900" <= token <= "\ufaff"
    )


def words(text: str) -> list[str]:
    """The words of ``text`` as the corpus pages count them: tokens without punctuation."""
    return [token for token in tokenize(text) if is_word(token)]


def language_of(sentence_words: Sequence[str]) -> Language:
    """The corpus a sentence is counted on: Chinese when more than half of its words are CJK
    characters, else English (no words at all: English, the default sentence's corpus)."""
    cjk = sum(is_cjk(w) for w in sentence_words)
    return "zh" if 2 * cjk > len(sentence_words) else "en"


def _choice_holds(said: Claim, sentence_words: Sequence[str]) -> bool:
    language = language_of(sentence_words)
    cjk = [w for w in sentence_words if is_cjk(w)]
    n = len(sentence_words)
    if not cjk:
        expected = "ngrams.corpus.pick.en"
    elif len(cjk) == n:
        expected = "ngrams.corpus.pick.zh"
    else:
        expected = f"ngrams.corpus.pick.mixed_{language}"
    fields = dict(said.fields)
    if expected in ("ngrams.corpus.pick.en", "ngrams.corpus.pick.zh"):
        return said.message == expected and fields == {"n": n}
    return said.message == expected and fields == {"cjk": len(cjk), "n": n}


@claim(_choice_holds)
def corpus_choice(sentence_words: Sequence[str]) -> Claim | None:
    """Which corpus the page counts the sentence on and why: all CJK characters, none, or a mix
    (with how many of its words are CJK against the more-than-half rule); nothing for no words."""
    n = len(sentence_words)
    if n == 0:
        return None
    cjk = sum(is_cjk(w) for w in sentence_words)
    if cjk == 0:
        return Claim("ngrams.corpus.pick.en", {"n": n})
    if cjk == n:
        return Claim("ngrams.corpus.pick.zh", {"n": n})
    message = (
        "ngrams.corpus.pick.mixed_zh"
        if language_of(sentence_words) == "zh"
        else "ngrams.corpus.pick.mixed_en"
    )
    return Claim(message, {"cjk": cjk, "n": n})


# Read once per corpus. The caches are keyed by the language alone (the public functions pass it
# positionally), so "sentences()" and "sentences('en')" share one entry.
@lru_cache(maxsize=len(CORPORA))
def _raw_sentences(language: Language) -> tuple[str, ...]:
    text = _read(FILES[language][0])
    return tuple(line for line in text.splitlines() if line.strip())


@lru_cache(maxsize=len(CORPORA))
def _sentences(language: Language) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(words(line)) for line in _raw_sentences(language))


@lru_cache(maxsize=len(CORPORA))
def _lexicon(language: Language) -> dict[str, str]:
    text = _read(FILES[language][1])
    pairs = (line.split("\t") for line in text.splitlines() if line.strip())
    return {word: category for word, category in pairs}


def raw_sentences(language: Language = "en") -> tuple[str, ...]:
    """The corpus, one sentence per line, as written."""
    return _raw_sentences(language)


def sentences(language: Language = "en") -> tuple[tuple[str, ...], ...]:
    """Every corpus sentence as a tuple of lower-cased words (Chinese: of characters)."""
    return _sentences(language)


def lexicon(language: Language = "en") -> dict[str, str]:
    """Content word (Chinese: character) → category (person, animal, food, water, place, money,
    time, adjective, verb, bank; two_senses for 行). Words not listed are function words ("the",
    "his", "at", 的, 在 …)."""
    return _lexicon(language)


FUNCTION_CATEGORY = "function"


def category(word: str, language: Language = "en") -> str:
    return lexicon(language).get(word, FUNCTION_CATEGORY)
