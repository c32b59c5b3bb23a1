"""Task a, "his" finds "tom": generated sentences where the possessive can only be predicted from
the name at the start.

A sentence is an opening of 0–3 words (so the name's position varies), a name, a verb, then
either directly the possessive and an object ("tom loves his dog", a quarter of them) or first an
object phrase with 0–2 distractor phrases, a joining word and a second verb, e.g. "tom sees the
cat near the house and finds his dog", in Chinese "小明 看见 房子 旁边的 猫 ， 又 找到 他的 狗".
The possessive agrees with the name's gender and with nothing else, so a model that predicts it
must look back at the name. In a causal language model the possessive is predicted at the
position before it (the verb just before it), so that is the query whose attention the pages
watch; the loss is taken only there.

The *control* task has the same sentences with the possessive drawn at random: there the name
carries no information about it, and a head has no reason to look at the name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

import numpy as np

IGNORE = -100
PAD = "<pad>"
LANGUAGES = ("en", "zh")


@dataclass(frozen=True)
class Words:
    """One language's vocabulary for the task, by role."""

    male: tuple[str, ...]
    female: tuple[str, ...]
    verbs: tuple[str, ...]
    nouns: tuple[str, ...]  # the objects and the distractors
    preps: tuple[str, ...]  # "near", "behind": each opens a distractor phrase
    article: str | None  # "the" before a noun, or None
    join: tuple[str, ...]  # between the two clauses
    openings: tuple[tuple[str, ...], ...]  # what may come before the name: its position varies
    his: str
    her: str


WORDS = {
    "en": Words(
        male=("tom", "jack", "sam", "ben", "leo", "max"),
        female=("mary", "anna", "lily", "emma", "lucy", "kate"),
        verbs=("loves", "sees", "likes", "finds", "keeps", "washes", "draws", "paints"),
        nouns=("dog", "cat", "book", "car", "house", "ball", "tree", "cup", "bird", "chair"),
        preps=("near", "behind", "under", "beside"),
        article="the",
        join=("and",),
        openings=((), ("today",), ("at", "home"), ("in", "the", "park")),
        his="his",
        her="her",
    ),
    "zh": Words(
        male=("小明", "汤姆", "大伟", "小军", "老王", "阿杰"),
        female=("小红", "玛丽", "小丽", "安娜", "小芳", "阿梅"),
        verbs=("喜欢", "看见", "爱", "找到", "带着", "洗", "画", "拿着"),
        nouns=("狗", "猫", "书", "车", "房子", "球", "树", "杯子", "鸟", "椅子"),
        preps=("旁边的", "后面的", "下面的", "对面的"),
        article=None,
        join=("，", "又"),
        openings=((), ("今天",), ("在", "家里"), ("在", "公园", "里")),
        his="他的",
        her="她的",
    ),
}

#: The share of short sentences, "tom loves his dog": name, verb, possessive, object.
SHORT_SHARE = 0.25
#: Distractor phrases in the first clause: 0, 1 or 2, so the name's distance from the query varies.
MAX_DISTRACTORS = 2


@dataclass(frozen=True)
class Sentence:
    tokens: tuple[str, ...]
    name_position: int  # 0-based
    query_position: int  # the token before the possessive: where the possessive is predicted

    @property
    def possessive_position(self) -> int:
        return self.query_position + 1


class PronounTask:
    """Seeded batches of the task (or of its control) in one language, for ``train``."""

    def __init__(self, language: str = "en", *, control: bool = False, batch_size: int = 32):
        if language not in LANGUAGES:
            raise ValueError(f"language must be one of {LANGUAGES}, got {language!r}")
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size!r}")
        self.language = language
        self.control = control
        self.batch_size = batch_size
        self.words = WORDS[language]

    @cached_property
    def vocabulary(self) -> tuple[str, ...]:
        w = self.words
        article = () if w.article is None else (w.article,)
        openings = tuple(dict.fromkeys(word for o in w.openings for word in o if word != w.article))
        return (
            PAD,
            *openings,
            *w.male,
            *w.female,
            *w.verbs,
            *w.nouns,
            *w.preps,
            *article,
            *w.join,
            w.his,
            w.her,
        )

    @cached_property
    def ids(self) -> dict[str, int]:
        return {word: i for i, word in enumerate(self.vocabulary)}

    @property
    def vocab_size(self) -> int:
        return len(self.vocabulary)

    @property
    def max_length(self) -> int:
        """The longest sentence, in tokens (the model's positions must cover it)."""
        per_noun = 1 if self.words.article is None else 2
        first = max(map(len, self.words.openings)) + 2 + per_noun + MAX_DISTRACTORS * (1 + per_noun)
        return first + len(self.words.join) + 3

    def sentence(self, rng: np.random.Generator) -> Sentence:
        w = self.words

        def noun() -> list[str]:
            word = str(rng.choice(w.nouns))
            return [word] if w.article is None else [w.article, word]

        male = bool(rng.integers(2))
        name = str(rng.choice(w.male if male else w.female))
        tokens = list(w.openings[int(rng.integers(len(w.openings)))])
        name_position = len(tokens)
        tokens += [name, str(rng.choice(w.verbs))]
        if rng.random() >= SHORT_SHARE:  # a first clause, then the possessive's own verb
            places = [
                (str(rng.choice(w.preps)), noun())
                for _ in range(int(rng.integers(MAX_DISTRACTORS + 1)))
            ]
            if w.article is not None:  # "the cat near the house behind the tree"
                tokens += noun() + [word for prep, place in places for word in (prep, *place)]
            else:  # "树 下面的 房子 旁边的 猫": each place phrase comes before what it places
                tokens += [w for prep, place in reversed(places) for w in (*place, prep)] + noun()
            tokens += [*w.join, str(rng.choice(w.verbs))]
        query = len(tokens) - 1
        his = male if not self.control else bool(rng.integers(2))
        tokens += [w.his if his else w.her, *noun()[-1:]]
        return Sentence(tuple(tokens), name_position=name_position, query_position=query)

    def sentences(self, step: int, seed: int) -> list[Sentence]:
        rng = np.random.default_rng([seed, step, int(self.control), LANGUAGES.index(self.language)])
        return [self.sentence(rng) for _ in range(self.batch_size)]

    def encode(self, sentences: list[Sentence]) -> tuple[np.ndarray, np.ndarray]:
        """(inputs [B, n], targets [B, n]) padded to the longest; the only target is the
        possessive, at its query position."""
        n = max(len(s.tokens) for s in sentences)
        inputs = np.zeros((len(sentences), n), dtype=np.int64)  # 0 is <pad>
        targets = np.full((len(sentences), n), IGNORE, dtype=np.int64)
        for row, s in enumerate(sentences):
            inputs[row, : len(s.tokens)] = [self.ids[t] for t in s.tokens]
            targets[row, s.query_position] = self.ids[s.tokens[s.possessive_position]]
        return inputs, targets

    def batch(self, step: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
        return self.encode(self.sentences(step, seed))


@dataclass(frozen=True)
class Parsed:
    """A learner's text cut into the task's words: the words it knows, those it does not, and
    the sentence (name → possessive) when the known words hold one."""

    tokens: tuple[str, ...]
    unknown: tuple[str, ...]
    sentence: Sentence | None
    dropped: int = 0  # known words past ``limit``, left out


def parse(task: PronounTask, text: str, limit: int | None = None) -> Parsed:
    """Cut ``text`` into the task's words (English: lower-cased words, punctuation dropped;
    Chinese: the longest known word at each place, spaces and punctuation other than the task's
    "，" dropped), keeping the first ``limit`` of them (a model reads at most its
    ``max_positions``)."""
    known = task.ids
    tokens: list[str] = []
    unknown: list[str] = []
    if task.language == "en":
        for word in re.findall(r"\w+", text.lower()):
            (tokens if word in known else unknown).append(word)
    else:
        longest = max(map(len, known))
        for chunk in re.findall(r"[A-Za-z0-9]+|[^\sA-Za-z0-9]+", text):
            # punctuation dropped, except the task's own "，" between clauses
            rest = "".join(ch for ch in chunk if ch.isalnum() or ch in known)
            stray = ""
            while rest:
                sizes = range(min(longest, len(rest)), 0, -1)
                word = next((rest[:k] for k in sizes if rest[:k] in known), "")
                if not word:
                    stray, rest = stray + rest[0], rest[1:]
                    continue
                tokens.append(word)
                unknown += [stray] if stray else []
                stray, rest = "", rest[len(word) :]
            unknown += [stray] if stray else []
    dropped = 0 if limit is None else max(0, len(tokens) - limit)
    tokens = tokens[: len(tokens) - dropped]
    return Parsed(
        tuple(tokens), tuple(dict.fromkeys(unknown)), _find_sentence(task, tokens), dropped
    )


def _find_sentence(task: PronounTask, tokens: list[str]) -> Sentence | None:
    """The first possessive with a name before it: the nearest such name, the query before it."""
    names = set(task.words.male) | set(task.words.female)
    for position, word in enumerate(tokens):
        if word in (task.words.his, task.words.her) and position > 0:
            before = [i for i in range(position) if tokens[i] in names]
            if before:
                return Sentence(tuple(tokens), before[-1], position - 1)
    return None


def names_seen(task: PronounTask, sentence: Sentence) -> tuple[int, ...]:
    """The positions of the task's names the query sees (its own and those before it). Every
    sentence the task makes has exactly one."""
    names = set(task.words.male) | set(task.words.female)
    return tuple(i for i in range(sentence.query_position + 1) if sentence.tokens[i] in names)


def name_in_place(task: PronounTask, sentence: Sentence) -> bool:
    """Whether the name stands where the task's sentences put it: after one of its openings
    (none, "today", "at home", …) and just before a verb, which is the query or comes before
    it."""
    tokens, at = sentence.tokens, sentence.name_position
    return (
        tokens[:at] in task.words.openings
        and at + 1 <= sentence.query_position
        and tokens[at + 1] in task.words.verbs
    )


def language_of(text: str) -> str | None:
    """The task language ``text`` is written in: "zh" when it holds a Chinese character, "en"
    when the English task finds a name and a possessive in it, else None."""
    if any("\u4e00" <= ch <= "\u9fff" for ch in text):
        return "zh"
    if parse(PronounTask("en"), text).sentence is not None:
        return "en"
    return None
