"""The corpus, its generator, and the n-gram counts: checked against hand counts and brute force."""

from __future__ import annotations

import importlib.util
import math
from collections import Counter
from pathlib import Path

import pytest

from transformer_walk.topics import corpus
from transformer_walk.topics.ngrams import (
    BOS,
    EOS,
    LONG_DISTANCE,
    NgramCounts,
    ngrams,
    order_needed,
    padded,
    sparsity,
    split_heldout,
    window_rows,
)

ROOT = Path(__file__).resolve().parents[1]
TOY = [
    ["tom", "loves", "his", "dog"],
    ["anna", "loves", "her", "cat"],
    ["tom", "feeds", "his", "cat"],
]


def _load_script():
    spec = importlib.util.spec_from_file_location(
        "make_corpus", ROOT / "scripts" / "make_corpus.py"
    )
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


# --- the corpus -----------------------------------------------------------------------------------


def test_the_committed_corpus_is_what_the_script_writes() -> None:
    script = _load_script()
    files = script.render()
    for language in corpus.CORPORA:
        text, lexicon = corpus.FILES[language]
        assert corpus._read(text) == files[script.DATA / text]
        assert corpus._read(lexicon) == files[script.DATA / lexicon]
    assert len(files) == 2 * len(corpus.CORPORA)
    assert script.main(["--check"]) == 0


def test_the_chinese_corpus_is_about_the_english_ones_size_and_holds_the_demo_words() -> None:
    sizes = {lang: len(corpus._read(corpus.FILES[lang][0]).encode()) for lang in corpus.CORPORA}
    assert 0.8 < sizes["zh"] / sizes["en"] < 1.25, sizes
    sentences = corpus.sentences("zh")
    assert all(all(corpus.is_cjk(w) for w in s) for s in sentences)  # segmented by characters
    text = "\n".join(corpus.raw_sentences("zh"))
    for phrase in (
        "我爱我的狗",
        "汤姆爱他的狗",
        "他去银行存钱",
        "我们在河岸边散步",
        "河边",
        "步行",
    ):
        assert phrase in text, phrase
    assert {"我", "爱", "银", "行", "岸"} <= {w for s in sentences for w in s}


def test_the_chinese_lexicon_gives_each_character_one_kind() -> None:
    lex = corpus.lexicon("zh")
    assert lex["狗"] == "animal" and lex["河"] == lex["岸"] == "water" and lex["银"] == "money"
    assert lex["行"] == "two_senses" and corpus.category("的", "zh") == corpus.FUNCTION_CATEGORY
    assert set(lex) <= {w for s in corpus.sentences("zh") for w in s}


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Tom loves his dog", "en"),
        ("我爱我的狗", "zh"),
        ("Tom 爱 his 狗", "en"),  # half CJK: not more than half
        ("我用 Python 和 Rust 写代码", "zh"),  # 6 of 8
        ("The 银行 is closed today", "en"),
        ("", "en"),
        ("🐶", "en"),
    ],
)
def test_the_corpus_is_chinese_when_more_than_half_the_words_are(text: str, language: str) -> None:
    words = corpus.words(text)
    assert corpus.language_of(words) == language
    said = corpus.corpus_choice(words)
    if not words:
        assert said is None
    else:
        assert said is not None and said.fields["n"] == len(words)
        mixed = 0 < sum(corpus.is_cjk(w) for w in words) < len(words)
        assert said.message == (
            f"ngrams.corpus.pick.mixed_{language}" if mixed else f"ngrams.corpus.pick.{language}"
        )


def test_corpus_loads_as_package_data_with_the_promised_shape() -> None:
    sentences = corpus.sentences()
    assert 2000 <= len(sentences) <= 5000  # "a few thousand short sentences"
    assert all(1 <= len(s) <= 20 for s in sentences)
    vocab = {w for s in sentences for w in s}
    # the little world: people, animals, both kinds of bank, water
    assert {"tom", "anna", "dog", "cat", "horse", "river", "lake", "bank", "cash"} <= vocab
    assert all(w == w.lower() and corpus.is_word(w) for w in vocab)


def test_lexicon_categories_cover_the_grammar_words() -> None:
    lex = corpus.lexicon()
    assert lex["dog"] == "animal" and lex["river"] == "water" and lex["tom"] == "person"
    assert lex["bank"] == "bank" and corpus.category("the") == corpus.FUNCTION_CATEGORY
    vocab = {w for s in corpus.sentences() for w in s}
    assert set(lex) <= vocab  # every categorised word occurs


def test_possessive_agrees_with_the_name_in_the_corpus() -> None:
    script = _load_script()
    men = {m.lower() for m in script.MEN}
    women = {w.lower() for w in script.WOMEN}
    for s in corpus.sentences():
        if s[0] in men:
            assert "her" not in s, s
        if s[0] in women:
            assert "his" not in s, s


def test_words_drop_punctuation_and_emoji_but_keep_cjk() -> None:
    assert corpus.words("Tom loves his dog.") == ["tom", "loves", "his", "dog"]
    assert corpus.words("🐶 ❤️ !") == []
    assert corpus.words("我爱狗") == ["我", "爱", "狗"]


# --- counting -------------------------------------------------------------------------------------


def test_padding_and_ngrams() -> None:
    assert padded(["a", "b"], 3) == [BOS, BOS, "a", "b", EOS]
    assert ngrams(["a", "b", "c"], 2) == [("a", "b"), ("b", "c")]
    assert ngrams(["a"], 2) == []


def test_counts_match_a_brute_force_count() -> None:
    model = NgramCounts(TOY, max_n=3)
    assert model.counts[2][("loves", "his")] == 1
    assert model.counts[2][("tom", "loves")] == 1
    assert model.counts[2][(BOS, "tom")] == 2
    assert model.counts[3][("tom", "loves", "his")] == 1
    assert model.contexts[2][("loves",)] == 2
    # every padded bigram, brute force
    brute = Counter((a, b) for s in TOY for a, b in zip([BOS, *s], [*s, EOS], strict=True))
    assert dict(model.counts[2]) == dict(brute)
    assert model.vocabulary[:3] == ("cat", "his", "loves")  # count 2 each, alphabetical
    assert model.n_tokens == 12


def test_conditional_probability_and_smoothing() -> None:
    model = NgramCounts(TOY, max_n=3)
    assert model.probability(["loves"], "his") == (1, 2, 0.5)
    assert model.probability(["tom", "loves"], "his") == (1, 1, 1.0)
    assert model.probability(["dog"], "cat") == (0, 1, 0.0)
    assert model.probability(["unknown"], "cat") == (0, 0, 0.0)  # never-seen context: 0, not NaN
    outcomes = len(model.vocabulary) + 1  # words + </s>
    _, _, p = model.probability(["loves"], "his", add_k=1.0)
    assert p == pytest.approx(2 / (2 + outcomes))
    # smoothed probabilities over all outcomes sum to 1
    total = sum(model.probability(["loves"], w, add_k=1.0)[2] for w in [*model.vocabulary, EOS])
    assert total == pytest.approx(1.0)


def test_sentence_score_is_the_chain_rule_product() -> None:
    model = NgramCounts(TOY, max_n=3)
    score = model.score(["tom", "loves", "his", "dog"], 2)
    # P(tom|<s>) P(loves|tom) P(his|loves) P(dog|his) P(</s>|dog)
    expected = (2 / 3) * (1 / 2) * (1 / 2) * (1 / 2) * 1.0
    assert [s.word for s in score.steps] == ["tom", "loves", "his", "dog", EOS]
    assert score.probability == pytest.approx(expected)
    assert score.log_probability == pytest.approx(math.log(expected))
    assert score.zero_steps == []


def test_an_unseen_bigram_zeroes_the_sentence_and_smoothing_repairs_it() -> None:
    model = NgramCounts(TOY, max_n=3)
    score = model.score(["tom", "loves", "her", "dog"], 2)  # "her dog" never occurs
    assert score.zero_steps == [3]
    assert score.probability == 0.0 and score.log_probability == -math.inf
    smoothed = model.score(["tom", "loves", "her", "dog"], 2, add_k=1.0)
    assert smoothed.zero_steps == [] and smoothed.probability > 0


def test_trigram_context_uses_two_start_markers() -> None:
    model = NgramCounts(TOY, max_n=3)
    steps = model.score(["tom", "feeds"], 3).steps
    assert steps[0].context == (BOS, BOS) and steps[1].context == (BOS, "tom")
    assert steps[1].probability == pytest.approx(0.5)


def test_continuations_are_sorted_and_normalised() -> None:
    model = NgramCounts(TOY, max_n=2)
    found = model.continuations(["his"])
    assert [w for w, _, _ in found] == ["cat", "dog"]
    assert sum(p for _, _, p in found) == pytest.approx(1.0)
    assert model.continuations(["nothing"]) == []


def test_bad_orders_raise() -> None:
    model = NgramCounts(TOY, max_n=2)
    with pytest.raises(ValueError):
        model.score(["tom"], 3)
    with pytest.raises(ValueError):
        NgramCounts(TOY, max_n=0)


# --- sparsity and the window ----------------------------------------------------------------------


def test_sparsity_grows_with_n_on_the_corpus() -> None:
    sentences = corpus.sentences()
    train, held = split_heldout(sentences)
    assert len(held) == len(sentences) // 10 and len(train) + len(held) == len(sentences)
    full = NgramCounts(sentences)
    rows = sparsity(NgramCounts(train), held, ["tom", "loves", "his", "dog"], full)
    shares = [r.heldout_unseen_share for r in rows]
    assert shares[0] < shares[2] < shares[4]
    assert all(a <= b for a, b in zip(shares, shares[1:], strict=False))
    seen = [r.share_of_possible_seen for r in rows]
    assert all(a > b for a, b in zip(seen, seen[1:], strict=False))
    assert rows[0].possible == len(NgramCounts(train).vocabulary)
    assert math.isnan(rows[4].sentence_unseen_share)  # a 4-word sentence has no 5-gram


def test_unseen_share_counts_by_hand() -> None:
    model = NgramCounts(TOY, max_n=2)
    assert model.unseen_share([["tom", "loves", "her", "dog"]], 2) == (1, 3)


def test_the_window_sees_the_name_only_when_it_is_close() -> None:
    model = NgramCounts(corpus.sentences())
    near = corpus.words(LONG_DISTANCE[0])
    rows = window_rows(model, near, near.index("his"))
    assert [r.sees_name for r in rows] == [False, True, True, True]
    trigram = rows[1]
    assert trigram.context == ("tom", "loves")
    assert trigram.p_his == 1.0 and trigram.p_her == 0.0  # the corpus always says "Tom … his"
    far = corpus.words(LONG_DISTANCE[1])
    far_rows = window_rows(model, far, far.index("his"))
    assert not any(r.sees_name for r in far_rows)
    # without the name the model can only guess: both pronouns keep real probability
    assert 0.2 < far_rows[1].p_his < 0.8 and 0.2 < far_rows[1].p_her < 0.8
    assert order_needed(far.index("his")) == 8


def test_the_chinese_window_sees_the_name_only_when_it_is_close() -> None:
    from transformer_walk.topics.ngrams import WINDOW_DEMOS, name_end

    demo = WINDOW_DEMOS["zh"]
    model = NgramCounts(corpus.sentences("zh"))
    near = corpus.words(demo.sentences[0])  # 汤 姆 爱 他 的 狗
    assert name_end(near, demo.name) == 1
    rows = window_rows(model, near, near.index("他"), 1, (demo.pronoun, demo.other))
    assert [r.sees_name for r in rows] == [False, True, True, True]
    assert rows[1].p_his == 1.0 and rows[1].p_her == 0.0  # "姆 爱" is always a man's
    far = corpus.words(demo.sentences[2])
    target = far.index("他")
    assert order_needed(target, name_end(far, demo.name)) > model.max_n
    far_rows = window_rows(model, far, target, 1, (demo.pronoun, demo.other))
    assert not any(r.sees_name for r in far_rows)
    assert 0 < far_rows[0].p_his < 1 and 0 < far_rows[0].p_her < 1  # "作 →": either pronoun
