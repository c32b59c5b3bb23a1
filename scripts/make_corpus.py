"""Write the project's two small corpora, English and Chinese, from hand-written grammars about
one little world.

    python scripts/make_corpus.py            # rewrites topics/data/corpus_{en,zh}*.txt/.tsv
    python scripts/make_corpus.py --check    # exit 1 if the committed files differ from a fresh run

Why a generated corpus: the app cannot download text, and the pages need one whose statistics
teach something. Words of one kind share their contexts here (a dog and a cat both sleep by the
river and are loved by their owners; a river and a lake both get swum in and sat beside), so
word2vec has clusters to find; the templates combine enough slots that longer n-grams are mostly
unseen, so sparsity shows. "bank" is used in two senses (the river bank, the bank that keeps
cash), for the static-vs-contextual point. A male owner is followed by "his" and a female one by
"her", so "Tom … his" is a dependency the n-gram window can or cannot see.

The Chinese corpus (``corpus_zh.txt``) is written by its own grammar about the same world, in
Chinese word order; the pages segment it by characters (see ``topics/data/README.md``).

The output is deterministic (a seeded ``random.Random``): same script, same bytes. Alongside each
text it writes a lexicon (``corpus_en_lexicon.tsv``, ``corpus_zh_lexicon.tsv``): the category of
every content word (every content character for Chinese), which the Embeddings page uses to colour
its maps. All four files are dedicated to the public domain (CC0).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "python" / "transformer_walk" / "topics" / "data"
CORPUS = DATA / "corpus_en.txt"
LEXICON = DATA / "corpus_en_lexicon.tsv"
CORPUS_ZH = DATA / "corpus_zh.txt"
LEXICON_ZH = DATA / "corpus_zh_lexicon.tsv"
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


# --- the same little world in Chinese ------------------------------------------------------------
# Written for Chinese, not translated sentence by sentence: a relative clause comes before the name
# it describes ("住在湖边的汤姆"), a possessive is "他的"/"她的", a place is "在…边/里". The two
# senses of English "bank" are two different words here — 银行 keeps money, 河岸/河边/岸边 is the
# side of a river — and the character 行 is itself read two ways: háng in 银行, xíng in 步行
# (to go on foot). The pages segment Chinese by characters, so the lexicon gives each character
# the kind of the words it is written in; no character may belong to two kinds unless listed in
# ZH_TWO_KINDS, which says which kind it is given.
SEED_ZH = 20261204
N_SENTENCES_ZH = 3300  # its sentences are a little shorter in bytes: about the English file's size
MEN_ZH = ["汤姆", "本", "山姆", "利奥", "麦克斯"]
WOMEN_ZH = ["安娜", "莉莉", "美雅", "艾玛", "佐伊"]
ANIMALS_ZH = ["狗", "猫", "马", "兔子", "牛", "羊"]
ANIMAL_ADJECTIVES_ZH = ["黑", "白", "小", "大", "老", "懒"]
FOODS_ZH = ["面包", "苹果", "奶酪", "面条", "蛋糕", "粥", "胡萝卜", "鸡蛋"]
WATERS_ZH = ["河", "湖", "海", "池塘", "溪"]
TOWN_PLACES_ZH = ["市场", "学校", "公园", "商店", "图书馆", "车站"]
OPEN_PLACES_ZH = ["田野", "花园"]
MONEY_ZH = ["钱", "现金", "硬币", "存款"]
TIMES_ZH = ["早上", "晚上", "中午"]
DAYS_ZH = ["星期二", "星期五", "星期天"]
MEALS_ZH = ["早饭", "午饭", "晚饭"]
PERSON_VERBS_ZH = ["写字", "唱歌", "工作", "做菜", "画画", "读报"]
ANIMAL_VERBS_ZH = ["睡觉", "休息", "玩耍", "奔跑", "躲藏"]
LOVE_ZH = ["爱", "喜欢", "想念"]
FAMILY_ZH = ["爸爸", "妈妈", "朋友"]
RIVER_BANK_ZH = ["河岸", "岸边"]
# The verbs written into the templates below.
TEMPLATE_VERBS_ZH = ["喂", "带", "散步", "给", "住", "喝", "游泳", "坐", "钓鱼", "取", "数",
                     "保管", "吃", "买", "去", "见", "做", "玩", "步"]  # fmt: skip
# Characters written in words of two kinds, and the kind each is given.
ZH_TWO_KINDS = {
    "行": "two_senses",  # 银行 (bank, háng) and 步行 (on foot, xíng)
    "存": "money",  # 存钱 (deposit) and 存款 (savings): both about money
}


def _person_zh(rng: random.Random, other_than: str = "") -> tuple[str, str]:
    """A name (not ``other_than``) and the pronoun that agrees with it (他 or 她)."""
    men = [m for m in MEN_ZH if m != other_than]
    women = [w for w in WOMEN_ZH if w != other_than]
    if rng.random() < 0.5:
        return rng.choice(men), "他"
    return rng.choice(women), "她"


def _subject_zh(rng: random.Random, name: str, pronoun: str) -> tuple[str, str]:
    """Who does it, and the word for "his/her/my" that goes with them: mostly the name, sometimes
    the pronoun (他去银行存钱), 我 or 我们."""
    roll = rng.random()
    if roll < 0.1:
        return "我", "我"
    if roll < 0.15:
        return "我们", "我们"
    if roll < 0.3:
        return pronoun, pronoun
    return name, pronoun


def _maybe_adjective_zh(rng: random.Random, noun: str) -> str:
    return f"{rng.choice(ANIMAL_ADJECTIVES_ZH)}{noun}" if rng.random() < 0.4 else noun


def _sentence_zh(rng: random.Random) -> str:
    p, pron = _person_zh(rng)
    q, _ = _person_zh(rng, other_than=p)
    s, pos = _subject_zh(rng, p, pron)
    a, a2 = rng.sample(ANIMALS_ZH, 2)
    w = rng.choice(WATERS_ZH)
    pl = rng.choice(TOWN_PLACES_ZH)
    f, f2 = rng.sample(FOODS_ZH, 2)
    m = rng.choice(MONEY_ZH)
    love = rng.choice(LOVE_ZH)
    templates = [
        # owners and their animals: 我爱我的狗, 汤姆爱他的狗
        (6, f"{s}{love}{pos}的{_maybe_adjective_zh(rng, a)}。"),
        (3, f"{s}每天{rng.choice(TIMES_ZH)}喂{pos}的{a}。"),
        (3, f"{s}带着{pos}的{a}沿着{w}边散步。"),
        (2, f"{s}给{pos}的{a}一些{f}。"),
        # the name decides 他/她; a clause can stand between them
        (3, f"住在{rng.choice([w, pl])}附近的{p}{love}{pron}的{a}。"),
        (
            1,
            f"{p}每个{rng.choice(DAYS_ZH)}都在{pl}{rng.choice(PERSON_VERBS_ZH)}，"
            f"{pron}{love}{pron}的{a}。",
        ),
        # animals in the world
        (3, f"{_maybe_adjective_zh(rng, a)}在{w}边{rng.choice(ANIMAL_VERBS_ZH)}。"),
        (2, f"{a}在{w}里喝水。"),
        (2, f"{a}和{a2}在{rng.choice(['公园', *OPEN_PLACES_ZH])}里玩。"),
        (2, f"{_maybe_adjective_zh(rng, a)}在花园里{rng.choice(ANIMAL_VERBS_ZH)}。"),
        # water
        (2, f"{s}每天{rng.choice(TIMES_ZH)}在{w}里游泳。"),
        (2, f"{p}和{q}坐在{w}边。"),
        (1, f"{p}和{pron}的{rng.choice(FAMILY_ZH)}在{w}边钓鱼。"),
        (1, f"{rng.choice(TIMES_ZH)}的{w}水很冷。"),
        # the side of a river: 河岸, 岸边, 河边
        (2, f"{s}坐在{rng.choice(['河', '湖'])}岸边。"),
        (2, f"{s}在{rng.choice(['河岸边', '岸边', '河边'])}散步。"),
        (1, f"{s}沿着河边步行去{pl}。"),
        # the bank that keeps money: 银行
        (2, f"{s}去银行存{m}。"),
        (2, f"{s}从银行取了一些{m}。"),
        (1, f"银行替{pos}保管{m}。"),
        (1, f"{s}{rng.choice(DAYS_ZH)}在银行数{pos}的{m}。"),
        # food, town and days
        (3, f"{s}{rng.choice(MEALS_ZH)}吃{f}。"),
        (2, f"{s}用{pos}的{m}在{rng.choice(['市场', '商店'])}买{f}。"),
        (2, f"{p}给{q}做{f}和{f2}。"),
        (2, f"{s}每天{rng.choice(TIMES_ZH)}在{pl}{rng.choice(PERSON_VERBS_ZH)}。"),
        (2, f"{s}{rng.choice(DAYS_ZH)}去{pl}。"),
        (1, f"{p}在{pl}见到了{q}。"),
    ]
    weights = [weight for weight, _ in templates]
    return rng.choices([x for _, x in templates], weights=weights)[0]


def sentences_zh(n: int = N_SENTENCES_ZH, seed: int = SEED_ZH) -> list[str]:
    rng = random.Random(seed)
    return [_sentence_zh(rng) for _ in range(n)]


def lexicon_zh() -> dict[str, str]:
    """Character → its category: the kind of every grammar word it is written in (the pages
    segment Chinese by characters). A character in words of two kinds takes ZH_TWO_KINDS's."""
    groups = {
        "person": [*MEN_ZH, *WOMEN_ZH, *FAMILY_ZH],
        "animal": ANIMALS_ZH,
        "food": FOODS_ZH,
        "water": [*WATERS_ZH, "水", *RIVER_BANK_ZH],
        "place": [*TOWN_PLACES_ZH, *OPEN_PLACES_ZH],
        "money": [*MONEY_ZH, "银行"],
        "time": [*TIMES_ZH, *DAYS_ZH, *MEALS_ZH],
        "adjective": [*ANIMAL_ADJECTIVES_ZH, "冷"],
        "verb": [*PERSON_VERBS_ZH, *ANIMAL_VERBS_ZH, *LOVE_ZH, *TEMPLATE_VERBS_ZH, "步行"],
    }
    kinds: dict[str, set[str]] = {}
    for group, words in groups.items():
        for word in words:
            for ch in word:
                kinds.setdefault(ch, set()).add(group)
    out = {}
    for ch, found in kinds.items():
        if ch in ZH_TWO_KINDS:
            out[ch] = ZH_TWO_KINDS[ch]
        elif len(found) == 1:
            out[ch] = next(iter(found))
        else:
            raise ValueError(f"{ch} is written in words of kinds {sorted(found)}: list it")
    return out


def render() -> dict[Path, str]:
    """Every file this script writes, by its path, as text."""

    def tsv(lex: dict[str, str]) -> str:
        return "".join(f"{word}\t{group}\n" for word, group in sorted(lex.items()))

    return {
        CORPUS: "\n".join(sentences()) + "\n",
        LEXICON: tsv(lexicon()),
        CORPUS_ZH: "\n".join(sentences_zh()) + "\n",
        LEXICON_ZH: tsv(lexicon_zh()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    files = render()
    if args.check:
        same = all(
            path.exists() and path.read_text(encoding="utf-8") == text
            for path, text in files.items()
        )
        print("up to date" if same else "differs: run scripts/make_corpus.py")
        return 0 if same else 1
    DATA.mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {len(text.splitlines())} lines to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
