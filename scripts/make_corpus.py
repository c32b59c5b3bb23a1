"""Write the project's small English corpus from a hand-written grammar about a little world.

    python scripts/make_corpus.py            # rewrites topics/data/corpus_en.txt
    python scripts/make_corpus.py --check    # exit 1 if the committed files differ from a fresh run

Why a generated corpus: the app cannot download text, and the pages need one whose statistics
teach something. Words of one kind share their contexts here (a dog and a cat both sleep by the
river and are loved by their owners; a river and a lake both get swum in and sat beside), so
word2vec has clusters to find; the templates combine enough slots that longer n-grams are mostly
unseen, so sparsity shows. "bank" is used in two senses (the river bank, the bank that keeps
cash), for the static-vs-contextual point. A male owner is followed by "his" and a female one by
"her", so "Tom … his" is a dependency the n-gram window can or cannot see.

The output is deterministic (a seeded ``random.Random``): same script, same bytes. Alongside the
text it writes ``corpus_en_lexicon.tsv``, the category of every content word, which the
Embeddings page uses to colour its maps. Both files are dedicated to the public domain (CC0).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "python" / "transformer_walk" / "topics" / "data"
CORPUS = DATA / "corpus_en.txt"
LEXICON = DATA / "corpus_en_lexicon.tsv"
SEED = 20260915
N_SENTENCES = 3000

# --- the little world --------------------------------------------------------------------------
MEN = ["Tom", "Ben", "Sam", "Leo", "Max"]
WOMEN = ["Anna", "Lily", "Mia", "Emma", "Zoe"]
ANIMALS = ["dog", "cat", "horse", "rabbit", "cow", "goat"]
ANIMAL_ADJECTIVES = ["black", "white", "brown", "small", "big", "old", "young", "lazy"]
FOODS = ["bread", "apples", "cheese", "soup", "cake", "rice", "carrots", "eggs"]
WATERS = ["river", "lake", "sea", "pond", "stream"]
TOWN_PLACES = ["market", "school", "park", "shop", "library", "station"]
MONEY = ["cash", "money", "coins", "savings"]
TIMES = ["morning", "evening", "day", "week", "night"]
DAYS = ["monday", "friday", "sunday"]
PERSON_VERBS = ["reads", "sings", "works", "cooks", "waits", "studies"]
ANIMAL_VERBS = ["sleeps", "rests", "plays", "runs", "hides"]
NEAR = ["by", "near", "beside"]
LOVE = ["loves", "likes", "misses"]
# The verbs written into the templates below.
TEMPLATE_VERBS = [
    "feeds", "walks", "gives", "lives", "drinks", "play", "swims", "sit", "fishes", "sat",
    "deposited", "took", "keeps", "counts", "eats", "buys", "goes", "meets",
]  # fmt: skip


def _person(rng: random.Random, other_than: str = "") -> tuple[str, str]:
    """A name (not ``other_than``) and the possessive that agrees with it."""
    men, women = [m for m in MEN if m != other_than], [w for w in WOMEN if w != other_than]
    if rng.random() < 0.5:
        return rng.choice(men), "his"
    return rng.choice(women), "her"


def _maybe_adjective(rng: random.Random, noun: str) -> str:
    return f"{rng.choice(ANIMAL_ADJECTIVES)} {noun}" if rng.random() < 0.4 else noun


def _sentence(rng: random.Random) -> str:
    p, pos = _person(rng)
    q, _ = _person(rng, other_than=p)
    a, a2 = rng.sample(ANIMALS, 2)
    w = rng.choice(WATERS)
    pl = rng.choice(TOWN_PLACES)
    f = rng.choice(FOODS)
    m = rng.choice(MONEY)
    templates = [
        # (weight, sentence): owners and their animals, the sentence the app starts from
        (6, f"{p} {rng.choice(LOVE)} {pos} {_maybe_adjective(rng, a)}."),
        (3, f"{p} feeds {pos} {a} every {rng.choice(TIMES)}."),
        (3, f"{p} walks {pos} {a} along the {w}."),
        (2, f"{p} gives {pos} {a} some {f}."),
        # the long-distance pair: the possessive sits far from the name that decides it
        (3, f"{p} who lives near the {rng.choice([w, pl])} {rng.choice(LOVE)} {pos} {a}."),
        (
            1,
            f"{p} who {rng.choice(PERSON_VERBS)} at the {pl} every {rng.choice(DAYS)} "
            f"{rng.choice(LOVE)} {pos} {a}.",
        ),
        # animals in the world
        (
            3,
            f"The {_maybe_adjective(rng, a)} {rng.choice(ANIMAL_VERBS)} {rng.choice(NEAR)} "
            f"the {w}.",
        ),
        (2, f"The {a} drinks water from the {w}."),
        (2, f"The {a} and the {a2} play in the {rng.choice(['park', 'field', 'garden'])}."),
        (2, f"The {_maybe_adjective(rng, a)} {rng.choice(ANIMAL_VERBS)} in the garden."),
        # water
        (2, f"{p} swims in the {w} every {rng.choice(TIMES)}."),
        (2, f"{p} and {q} sit {rng.choice(NEAR)} the {w}."),
        (1, f"{p} fishes in the {w} with {pos} {rng.choice(['father', 'mother', 'friend'])}."),
        (1, f"The {w} is cold in the {rng.choice(TIMES)}."),
        # the bank of a river
        (2, f"{p} sat on the bank of the {w}."),
        (2, f"{p} walks along the {rng.choice(['river', 'stream'])} bank with {pos} {a}."),
        # the bank that keeps money
        (2, f"{p} deposited {pos} {m} at the bank."),
        (2, f"{p} took some {m} from the bank."),
        (1, f"The bank keeps {pos} {m} safe."),
        (1, f"{p} counts {pos} {m} at the bank on {rng.choice(DAYS)}."),
        # food, town and days
        (3, f"{p} eats {f} for {rng.choice(['breakfast', 'lunch', 'dinner'])}."),
        (2, f"{p} buys {f} at the {rng.choice(['market', 'shop'])} with {pos} {m}."),
        (2, f"{p} cooks {f} and {rng.choice([x for x in FOODS if x != f])} for {q}."),
        (2, f"{p} {rng.choice(PERSON_VERBS)} at the {pl} every {rng.choice(TIMES)}."),
        (2, f"{p} goes to the {pl} on {rng.choice(DAYS)}."),
        (1, f"{p} meets {q} at the {pl}."),
    ]
    weights = [weight for weight, _ in templates]
    return rng.choices([s for _, s in templates], weights=weights)[0]


def sentences(n: int = N_SENTENCES, seed: int = SEED) -> list[str]:
    rng = random.Random(seed)
    return [_sentence(rng) for _ in range(n)]


def lexicon() -> dict[str, str]:
    """Lower-cased content word → its category (the colour on the Embeddings page's maps)."""
    groups = {
        "person": [*MEN, *WOMEN, "father", "mother", "friend"],
        "animal": ANIMALS,
        "food": FOODS,
        "water": [*WATERS, "water"],
        "place": [*TOWN_PLACES, "field", "garden"],
        "money": MONEY,
        "time": [*TIMES, *DAYS, "breakfast", "lunch", "dinner"],
        "adjective": [*ANIMAL_ADJECTIVES, "cold", "safe"],
        # Every verb the templates write, not only the chosen ones: a verb left out would be
        # coloured as a function word.
        "verb": [*PERSON_VERBS, *ANIMAL_VERBS, *LOVE, *TEMPLATE_VERBS],
        "bank": ["bank"],
    }
    return {word.lower(): group for group, words in groups.items() for word in words}


def render() -> tuple[str, str]:
    corpus = "\n".join(sentences()) + "\n"
    lex = "".join(f"{word}\t{group}\n" for word, group in sorted(lexicon().items()))
    return corpus, lex


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    corpus, lex = render()
    if args.check:
        same = CORPUS.read_text(encoding="utf-8") == corpus
        same = same and LEXICON.read_text(encoding="utf-8") == lex
        print("up to date" if same else "differs: run scripts/make_corpus.py")
        return 0 if same else 1
    DATA.mkdir(parents=True, exist_ok=True)
    CORPUS.write_text(corpus, encoding="utf-8")
    LEXICON.write_text(lex, encoding="utf-8")
    print(f"wrote {len(corpus.splitlines())} sentences to {CORPUS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
