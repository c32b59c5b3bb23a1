"""The Check yourself page through AppTest: predict, reveal, verdict, score, reset — in both
languages, on each backend, with the live numbers compared against the checks recomputed here."""

from __future__ import annotations

from functools import partial

import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, markdown_literal, translate
from transformer_walk.app.widgets import python_fallback_text
from transformer_walk.topics import checks

import apptest_support
from apptest_support import no_exception
from smollm2_support import model_skip_reason

SMOL_REASON = model_skip_reason()

open_page = partial(apptest_support.open_page, "check_yourself.py")
QIDS = ["n_tokens", "d_model", "fixed", "dot", "values", "heads", "truth", "sequential",
        "symmetric", "order"]  # fmt: skip


def answer_and_reveal(at: AppTest, qid: str, answer: str) -> AppTest:
    at.radio(key=f"chk_answer_{qid}").set_value(answer)
    at.run()
    at.button(key=f"chk_reveal_{qid}").click()
    return at.run()


def markdown(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def score(language: str, right: int, revealed: int) -> str:
    return translate(
        "check_yourself.score", language, right=right, revealed=revealed, total=len(QIDS)
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_reveal_scores_and_shows_the_live_numbers(language: str) -> None:
    at = open_page(language)
    no_exception(at)
    assert at.title[0].value == translate("check_yourself.title", language)
    assert score(language, 0, 0) in markdown(at)
    # Before a guess, the reveal button is disabled; nothing is revealed.
    assert at.button(key="chk_reveal_values").disabled
    at = answer_and_reveal(at, "values", "no")
    no_exception(at)
    assert score(language, 1, 1) in markdown(at)
    yes, no = (
        translate("check_yourself.opt.yes", language),
        translate("check_yourself.opt.no", language),
    )
    assert any(
        s.value == translate("check_yourself.right", language, answer=no) for s in at.success
    )
    r = checks.values_and_weights("Tom loves his dog", "rust")
    assert r.weights_difference == 0.0
    expected = translate(
        "check_yourself.values.result",
        language,
        weights="0.000",
        output=f"{r.output_difference:.3f}",
    )
    assert expected in markdown(at)
    assert at.radio(key="chk_answer_values").disabled  # the guess is locked
    # A wrong guess counts as revealed, not right.
    at = answer_and_reveal(at, "symmetric", "yes")
    assert score(language, 1, 2) in markdown(at)
    wrong = translate("check_yourself.wrong", language, guess=yes, answer=no)
    assert any(e.value == wrong for e in at.error)
    s = checks.symmetry("Tom loves his dog", "numpy")
    assert translate(
        "check_yourself.sym.result", language, i="3 · his", j="1 · tom", a_ij=f"{s.a_ij:.3f}",
        a_ji=f"{s.a_ji:.3f}", max=f"{s.max_asymmetry:.3f}",
    ) in markdown(at)  # fmt: skip
    # Start over.
    at.button(key="chk_reset").click()
    at.run()
    no_exception(at)
    assert score(language, 0, 0) in markdown(at)
    assert at.radio(key="chk_answer_values").value is None


@pytest.mark.parametrize("backend", ["python", "numpy", "rust"])
def test_every_question_on_each_backend(backend: str) -> None:
    at = open_page("en", backend=backend)
    for qid in QIDS:
        at = answer_and_reveal(at, qid, "no")
    no_exception(at)
    # "no" is right for all but n_tokens ("not necessarily") and heads ("yes").
    assert score("en", 8, 10) in markdown(at)
    if backend == "python":
        assert any(i.value == python_fallback_text() for i in at.info)
    o = checks.order_check("Tom loves his dog", "numpy")
    text = " ".join(markdown(at))
    assert f"{o.with_positions:.3f}" in text
    assert "n = 600 > 512" in " ".join(x.value for x in at.latex)
    d = next(x.value for x in at.dataframe if "X shape" in x.value.columns)
    assert list(d["X shape"]) == ["[10, 512]", "[600, 512]"]
    assert list(d["attention weights shape"]) == ["[8, 10, 10]", "[8, 600, 600]"]


@pytest.mark.parametrize(
    "sentence",
    ["", "dog", " ".join(["word"] * 200), "我爱我的狗", "I love 🐶 and 🐱 !", "a *b* costs $5 <x>"],
)
def test_edge_sentences(sentence: str) -> None:
    at = open_page("zh", sentence=sentence)
    for qid in ("n_tokens", "symmetric", "order", "sequential"):
        at = answer_and_reveal(at, qid, "no")
    no_exception(at)
    text, default = checks.check_text(sentence)
    if default:
        assert any(
            i.value == translate("check_yourself.default_note", "zh", text=markdown_literal(text))
            for i in at.info
        )
    else:  # the learner's sentence as typed: "*" or "$" escaped, not read as formatting
        shown = translate(
            "check_yourself.sentence_note", "zh", max_tokens=checks.MAX_TOKENS,
            text=markdown_literal(text),
        )  # fmt: skip
        assert any(c.value == shown for c in at.caption)
    o = checks.order_check(sentence, "numpy")
    assert o.without_positions < 1e-9
    table = next(x.value for x in at.dataframe if "文本" in x.value.columns)
    assert list(table["文本"]) == [checks.RARE_WORD_SENTENCE, text]


@pytest.mark.parametrize("language", LANGUAGES)
def test_not_necessarily_is_right_where_the_article_allows_it(language: str) -> None:
    labels = {k: translate(f"check_yourself.opt.{k}", language) for k in ("no", "depends", "yes")}
    at = answer_and_reveal(open_page(language), "truth", "depends")  # weights ≠ truth, card 7
    no_exception(at)
    right = translate(
        "check_yourself.right_also", language, guess=labels["depends"], answer=labels["no"]
    )
    assert right in [s.value for s in at.success]
    assert any(m.value == score(language, 1, 1) for m in at.markdown)
    wrong = translate("check_yourself.wrong", language, guess=labels["yes"], answer=labels["no"])
    at = answer_and_reveal(open_page(language), "truth", "yes")
    assert wrong in [e.value for e in at.error]
    # and elsewhere "not necessarily" is still wrong where the article says plainly no
    at = answer_and_reveal(open_page(language), "values", "depends")
    wrong = translate(
        "check_yourself.wrong", language, guess=labels["depends"], answer=labels["no"]
    )
    assert wrong in [e.value for e in at.error]


def test_a_card_says_where_its_claim_comes_from_only_once_answered() -> None:
    at = open_page("en")
    tags = [translate("check_yourself.misconception", "en", number=k) for k in range(1, 9)]
    captions = [c.value for c in at.caption]
    assert not any(tag in captions for tag in tags)  # nothing hints at the answer beforehand
    at = answer_and_reveal(at, "heads", "yes")
    assert translate("check_yourself.misconception", "en", number=6) in [
        c.value for c in at.caption
    ]


@pytest.mark.skipif(SMOL_REASON is not None, reason=SMOL_REASON or "")
@pytest.mark.parametrize("language", LANGUAGES)
def test_sequential_is_settled_by_real_generation(language: str) -> None:
    at = open_page(language, sentence="Tom loves his dog", backend="numpy")
    at = answer_and_reveal(at, "sequential", "no")
    no_exception(at)
    label_read = translate("check_yourself.seq.real_prefill", language, n=4)
    label_write = translate("check_yourself.seq.real_decode", language, n=4)
    read = float(next(m.value for m in at.metric if m.label == label_read).split()[0])
    write = float(next(m.value for m in at.metric if m.label == label_write).split()[0])
    assert read > 0 and write > 0
    said = [m for m in markdown(at) if "NumPy" in m]
    verdict = (
        "check_yourself.seq.real_slower" if write > read else "check_yourself.seq.real_not_slower"
    )
    head = translate(verdict, language, n=4, ratio="X", backend="NumPy").split("X")[0]
    assert any(m.startswith(head) for m in said), said
