"""Every message exists in both languages with the same fields; every id the code uses exists."""

from __future__ import annotations

import re
import string
import unicodedata
from pathlib import Path

import transformer_walk
from transformer_walk import bench
from transformer_walk.app import i18n
from transformer_walk.app.i18n import LANGUAGES, MESSAGES, translate
from transformer_walk.app.views import minilm_vectors as minilm_vector_views
from transformer_walk.app.views import speed_choices
from transformer_walk.core import BACKENDS
from transformer_walk.topics import scaling, word2vec

PACKAGE = Path(transformer_walk.__file__).parent
TEXTS = Path(i18n.__file__).parent / "texts"
# Where ids are used: the whole package, not where they are defined (app/i18n.py, app/texts/),
# nor models/, which speaks to no reader and names checkpoint tensors that look like ids
# ("embeddings.word_embeddings.weight").
SOURCES = [
    p
    for p in PACKAGE.rglob("*.py")
    if p != Path(i18n.__file__) and TEXTS not in p.parents and PACKAGE / "models" not in p.parents
]
PREFIXES = sorted({key.split(".")[0] for key in MESSAGES})
# Any string literal shaped like a message id, wherever it sits (t(...) calls, tuples, dicts).
# Quoted either way: inside an f-string a call reads t('ngrams.tex.sentence').
LITERAL_ID = re.compile(rf"""["']((?:{"|".join(PREFIXES)})\.[a-z0-9_.\-]+)["']""")
# Same text in both languages on purpose (names, formulas, formats).
SAME_IN_BOTH = {
    "backend.numpy",
    "speed.lane.numpy",
    "speed.op.softmax",
    "speed.progress",
    "attention_by_hand.metric.exp_sum",
    "attention_by_hand.col.token",
    "multi_head.his.top_one",  # a table cell that is just the token label "3 · cat"
}


def _fields(text: str) -> set[str] | None:
    """The format fields of a message; None for LaTeX-bearing ones, which take no fields."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}
    except ValueError:
        return None


def _formats(text: str) -> set[tuple[str, str, str | None]] | None:
    """(field, format spec, conversion) of every field: how each value is put into the text.
    A plural choice ``{n:token|tokens}`` puts in a word, not the value, and only English has
    them: it is left out."""
    try:
        parsed = [(n, spec or "", conv) for _, n, spec, conv in string.Formatter().parse(text)]
        return {(n, spec, conv) for n, spec, conv in parsed if n and "|" not in spec}
    except ValueError:
        return None


CHINESE = re.compile(r"[\u4e00-\u9fff]")


def test_every_message_has_both_languages_with_the_same_fields() -> None:
    assert [k for k, e in MESSAGES.items() if set(e) != set(LANGUAGES)] == [], "languages missing"
    assert [k for k, e in MESSAGES.items() if not all(x.strip() for x in e.values())] == [], "empty"
    differ = [k for k, e in MESSAGES.items() if _fields(e["en"]) != _fields(e["zh"])]
    assert differ == [], "the two languages take different fields"
    # ... and format them alike, so the language changes words, never what a value can break:
    # test_app_robustness relies on it to run most hostile sentences in one language only.
    differ = [k for k, e in MESSAGES.items() if _formats(e["en"]) != _formats(e["zh"])]
    assert differ == [], "the two languages format a field differently"


def test_every_message_is_written_for_each_language() -> None:
    kept = {zh for en, zh in i18n.GLOSSARY_ZH.items() if en == zh}  # "token"
    mine = {
        k: e for k, e in MESSAGES.items() if k not in SAME_IN_BOTH and e["zh"] not in kept
    }  # a label that is only a term the glossary keeps ("token") reads the same
    assert [k for k, e in mine.items() if e["en"] == e["zh"]] == [], "the same in both languages"
    # Chinese, or only kept terms, names and fields (a "token：{tokens}" label is written for zh).
    latin = re.compile(r"(?i)\btokens?\b|WordPiece|\{[^{}]*\}")
    unwritten = [
        k
        for k, e in mine.items()
        if not CHINESE.search(e["zh"]) and re.search("[A-Za-z]", latin.sub("", e["zh"]))
    ]
    assert unwritten == [], "no Chinese in zh"


def test_every_message_formats_in_both_languages() -> None:
    """Messages with fields take them (and keep literal braces doubled); LaTeX-bearing ones, which
    take none, come back verbatim."""
    unformatted = []
    for key, entry in MESSAGES.items():
        fields = _fields(entry["en"])
        for language in LANGUAGES:
            try:
                if fields is None:
                    ok = translate(key, language) == entry[language]
                else:
                    ok = not fields or "X" in translate(key, language, **dict.fromkeys(fields, "X"))
            except (KeyError, IndexError, ValueError) as exc:
                ok, language = False, f"{language}: {type(exc).__name__}: {exc}"
            if not ok:
                unformatted.append((key, language))
    assert unformatted == []


def _dynamic_ids() -> set[str]:
    """Ids the code builds with f-strings, spelled out from the data they come from."""
    ids = {f"backend.{b}" for b in BACKENDS} | {f"backend.{b}.caption" for b in BACKENDS}
    ids |= {f"speed.lane.{lane}" for lane in (*bench.LANES, *bench.EXTERNAL_LANES)}
    ids |= {f"speed.external.{lane}.{state}" for lane in bench.EXTERNAL_LANES
            for state in ("raced", "missing")}  # fmt: skip
    ids |= {f"speed.op.{op}" for op in bench.OPS} | {f"speed.op.{op}.shape" for op in bench.OPS}
    ids |= {f"speed.chart.slope.{op}" for op in bench.OPS}
    ids |= {f"speed.axis.{spec.axis}" for spec in bench.OPS.values()}
    ids |= {f"speed.param.{p}" for c in speed_choices.CHOICES.values() for p in c.fixed_options}
    ids |= {f"speed.{status}" for status in (bench.UNAVAILABLE, bench.ERROR)}
    ids |= {f"attention_by_hand.err.{code}" for code in ("not_a_number", "not_finite")}
    ids |= {f"attention_by_hand.heads.h{i}" for i in (1, 2, 3)}
    ids |= {f"attention_by_hand.reveal.weight_{v}" for v in ("close", "high", "low")}
    ids |= {f"attention_by_hand.reveal.{kind}" for kind in ("tie", "close", "clear")}
    ids |= {
        f"attention_by_hand.reveal.{m}{tie}"
        for m in ("answer", "right", "wrong")
        for tie in ("", "_tie")
    }
    ids |= {f"seq2seq.curve.{verdict}" for verdict in ("still_learning", "both_trained")}
    ids |= {f"contextual.track.{verdict}" for verdict in ("alike", "not_alike")}
    ids |= {f"seq2seq.neck.own.{verdict}" for verdict in ("readable", "crowded")}
    ids |= {f"contextual.track.{verdict}" for verdict in ("closer", "all_closer", "not_closer")}
    ids |= {f"contextual.sim.closest.{kind}" for kind in minilm_vector_views.OVERLAP_KINDS}
    ids |= {f"scaling.sat.reading.{verdict}" for verdict in scaling.VERDICTS}
    ids |= {f"embeddings.static.lean.{side}" for side in word2vec.LEANS}
    return ids


def _used_ids() -> set[str]:
    used = _dynamic_ids()
    for path in SOURCES:
        found = LITERAL_ID.findall(path.read_text(encoding="utf-8"))
        used |= {name for name in found if not name.endswith(".py")}  # page files, not ids
    return used


def test_every_message_id_used_in_the_code_exists() -> None:
    assert sorted(_used_ids() - set(MESSAGES)) == []


def test_every_message_is_used() -> None:
    assert sorted(set(MESSAGES) - _used_ids()) == []


def test_every_page_message_id_starts_with_its_page() -> None:
    """A page's ids start with the name of its texts module, which is its page file's stem
    ("attention_by_hand.title" for pages/attention_by_hand.py): an id says where it is shown and
    where its words are. The app-wide ids (nav., sidebar., common., …) live in i18n.py."""
    import importlib
    import pkgutil

    from transformer_walk.app import texts

    astray = [
        (info.name, key)
        for info in pkgutil.iter_modules(texts.__path__)
        for key in importlib.import_module(f"{texts.__name__}.{info.name}").MESSAGES
        if not key.startswith(f"{info.name}.")
    ]
    assert astray == []
    pages = {p.stem for p in (PACKAGE / "app" / "pages").glob("*.py")} - {"__init__"}
    assert pages <= {info.name for info in pkgutil.iter_modules(texts.__path__)}


def test_outside_streamlit_the_language_is_english() -> None:
    assert i18n.t("attention_by_hand.title") == MESSAGES["attention_by_hand.title"]["en"]


def test_sentences_join_as_each_language_writes_them() -> None:
    assert i18n.join_sentences(["One.", "Two."], "en") == "One. Two."
    assert i18n.join_sentences(["一。", "二。"], "zh") == "一。二。"
    assert i18n.join_sentences(["One.", "Two."]) == "One. Two."  # outside Streamlit: English
    assert i18n.join_names(["tom"], "en") == "tom"
    assert i18n.join_names(["tom", "dog"], "en") == "tom and dog"
    assert i18n.join_names(["tom", "loves", "dog"], "en") == "tom, loves and dog"
    assert i18n.join_names(["tom", "loves", "dog"], "zh") == "tom、loves 和 dog"
    # a long list is cut, and says so
    assert i18n.join_names(["a", "b", "c"], "en", most=2) == "a, b, …"
    assert i18n.join_names(["a", "b", "c"], "zh", most=2) == "a、b、…"
    assert i18n.join_names(["a", "b"], "en", most=2) == "a and b"


def test_a_count_chooses_its_noun() -> None:
    one = translate("speed.lane.rust-all", "en", cores=1)
    assert one == "Rust · all 1 thread" and translate(
        "speed.lane.rust-all", "en", cores=2
    ).endswith("2 threads")
    assert translate("tokens.wp.split_words", "en", count=1).startswith("1 word of your text was")
    assert translate("tokens.wp.split_words", "en", count=3).startswith("3 words of your text were")
    assert translate("speed.lane.rust-all", "zh", cores=1) == "Rust · 全部 1 个线程"  # no plural


def test_no_message_hedges_a_plural_with_parentheses() -> None:
    hedged = [key for key, entry in MESSAGES.items() if re.search(r"\w\((s|es)\)", entry["en"])]
    assert hedged == []


def _punctuation(ch: str) -> bool:
    """CommonMark's "Unicode punctuation": general category P or S (so "：" and "）" count)."""
    return unicodedata.category(ch)[0] in "PS"


def _flanking(text: str, at: int) -> tuple[bool, bool]:
    """(left-flanking, right-flanking) of the "**" at ``at``, by CommonMark's rules; the ends of
    the text count as whitespace."""
    before = text[at - 1] if at > 0 else " "
    after = text[at + 2] if at + 2 < len(text) else " "
    left = not after.isspace() and (
        not _punctuation(after) or before.isspace() or _punctuation(before)
    )
    right = not before.isspace() and (
        not _punctuation(before) or after.isspace() or _punctuation(after)
    )
    return left, right


def broken_bold(text: str) -> list[str]:
    """Each "**" of ``text`` (outside $…$ and `…`) that cannot open or close where it stands, so
    it would show as literal asterisks: e.g. "**残差。**每个", where a closer follows "。" and
    precedes a letter."""
    # Formulas and code are not Markdown; a {field} is filled with a word or a number.
    plain = re.sub(r"\$[^$]*\$|`[^`]*`|\{[^{}]*\}", lambda m: "x" * len(m.group()), text)
    runs = [m.start() for m in re.finditer(r"(?<!\*)\*\*(?!\*)", plain)]
    bad = []
    for k, at in enumerate(runs):
        left, right = _flanking(plain, at)
        if not (left if k % 2 == 0 else right):
            bad.append(plain[max(0, at - 12) : at + 14])
    return bad


def test_broken_bold_is_found() -> None:
    assert broken_bold("**残差。**每个") == ["**残差。**每个"]
    assert broken_bold("很长。**词向量（embedding）**改为") != []
    assert broken_bold("**残差**。每个子层") == []
    assert broken_bold("“**词元**”") == [] and broken_bold("a **b** c") == []
    assert broken_bold("$a**b$ and **c**") == []


def test_bold_survives_cjk_punctuation_in_every_message() -> None:
    """Guards against bold that Markdown cannot parse beside CJK punctuation: the page then shows
    the asterisks (“**残差。**每个…”). Every "**" must be able to open or close where it is."""
    bad = {
        (key, language): found
        for key, texts in MESSAGES.items()
        for language, text in texts.items()
        if (found := broken_bold(text))
    }
    assert not bad, "\n".join(f"{k} [{lang}]: {v}" for (k, lang), v in sorted(bad.items()))


INLINE_MATH = re.compile(r"(?<![$\\])\$([^$]+)\$")


def _one_group(formula: str) -> bool:
    """Whether ``formula`` is one brace group: its first "{" closes at its last character."""
    depth = 0
    for at, char in enumerate(formula):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            return at == len(formula) - 1 and at > 0
    return False


def test_every_inline_product_stays_on_one_line() -> None:
    """KaTeX may break an inline formula after a binary operator: "n ×" ended one line and "n"
    began the next. A formula wrapped in braces is one unbreakable group."""
    assert _one_group("{n \\times n}") and _one_group("{{n \\times d_k}}")
    assert not _one_group("n \\times n") and not _one_group("{d}_{k} \\times {n}")
    loose = [
        (key, language, formula)
        for key, texts in MESSAGES.items()
        for language, text in texts.items()
        for formula in INLINE_MATH.findall(text)
        if "\\times" in formula and not _one_group(formula)
    ]
    assert loose == []


def test_every_chinese_message_keeps_to_the_glossary() -> None:
    """Guards against one term under two names ("token" here, 词元 on the next page)."""
    found = {
        key: [word for word in i18n.REJECTED_ZH if word in texts["zh"]]
        for key, texts in MESSAGES.items()
    }
    bad = {key: words for key, words in found.items() if words}
    assert not bad, {k: [f"{w} → {i18n.REJECTED_ZH[w]}" for w in v] for k, v in bad.items()}


def test_say_writes_a_claim_in_the_language_asked_with_its_bounds_escaped() -> None:
    from transformer_walk.topics.claims import Claim, percent

    said = Claim(
        "trained_toy.claim.heads_on_name",
        {"query": "2 · loves", "name": "1 · tom", "total": 8, "times": "2", "visible": 2,
         "chance": "50%", "count": 2, "heads": (f"L1·H2 ({percent(0.9996)})", "L1·H1 (83%)")},
    )  # fmt: skip
    en, zh = i18n.say(said, language="en"), i18n.say(said, language="zh")
    assert en is not None and "L1·H2 (\\>99.9%) and L1·H1 (83%)" in en  # ">" is not a quote
    assert zh is not None and "L1·H2 (\\>99.9%) 和 L1·H1 (83%)" in zh  # listed as Chinese lists
    assert i18n.say(said, language="en", markdown=False) == translate(
        said.message, "en", **(dict(said.fields) | {"heads": "L1·H2 (>99.9%) and L1·H1 (83%)"})
    )
