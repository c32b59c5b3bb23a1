"""Attention by hand through AppTest: what the page says about the scores follows the numbers —
"clear win" only from the stated 2×, "illustrative" only for the article's scores, and a guess
judged on the scores it was made on — in both languages."""

from __future__ import annotations

import math

import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate

from apptest_support import edit_scores, no_exception, open_page, reveal


def open_abh(language: str = "en") -> AppTest:
    return open_page("attention_by_hand.py", language, assert_no_exception=True)


def hide(at: AppTest, language: str = "en") -> AppTest:
    next(
        b for b in at.button if b.label == translate("attention_by_hand.reveal.again", language)
    ).click()
    return at.run()


def shown(at: AppTest) -> list[str]:
    return [e.value for kind in ("markdown", "info", "success", "warning") for e in at.get(kind)]


def clear_text(language: str) -> str:
    return translate("attention_by_hand.reveal.clear", language, top="X", second="Y", s_top="1",
                     s_second="0", gap="1", ratio="9", clear="2")[:12]  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_1_65_lead_is_not_a_clear_win_and_the_scores_are_no_longer_illustrative(
    language: str,
) -> None:
    at = reveal(open_abh(language), language, guess=0)
    assert any(t.startswith(clear_text(language)) for t in shown(at))  # the article: 4.48×
    assert translate("attention_by_hand.illustrative", language) in [i.value for i in at.info]
    at = edit_scores(at, {1: {"s": 2.0}})  # loves 0.5 → 2.0: Tom leads by exp(0.5) ≈ 1.65×
    no_exception(at)
    texts = shown(at)
    assert not any(t.startswith(clear_text(language)) for t in texts)
    close = translate("attention_by_hand.reveal.close", language, top="Tom", second="loves",
                      s_top="2.5", s_second="2", gap="0.5", ratio=f"{math.exp(0.5):.2f}",
                      clear="2")  # fmt: skip
    assert close in texts and "1.65" in close
    assert translate("attention_by_hand.illustrative", language) not in texts
    assert translate("attention_by_hand.edited", language, tokens="loves") in texts


def test_reset_makes_the_scores_illustrative_again() -> None:
    at = edit_scores(open_abh(), {0: {"s": 1.0}})
    assert translate("attention_by_hand.edited", "en", tokens="Tom") in shown(at)
    next(
        b for b in at.button if b.label == translate("attention_by_hand.editor.reset", "en")
    ).click().run()
    assert translate("attention_by_hand.illustrative", "en") in shown(at)
    at = edit_scores(at, {0: {"v1": 3.0}})  # a value, not a score: still the article's scores
    assert translate("attention_by_hand.illustrative", "en") in shown(at)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_guess_is_judged_on_the_scores_it_was_made_on(language: str) -> None:
    at = reveal(open_abh(language), language, guess=0)  # Tom, on the article's scores: right
    right = translate("attention_by_hand.reveal.right", language, token="Tom")
    assert right in [s.value for s in at.success]
    at = edit_scores(at, {1: {"s": 3.0}})  # now loves wins — but the guess was made before
    no_exception(at)
    answer = translate("attention_by_hand.reveal.answer", language, token="loves",
                       weight=f"{_softmax([2.5, 3.0, 1.0, 0.8])[1]:.3f}", query="his")  # fmt: skip
    assert answer in shown(at)  # the steps show the new scores ...
    then = translate("attention_by_hand.reveal.then", language, scores=r"\[2.5, 0.5, 1, 0.8\]")
    assert then in [i.value for i in at.info]  # ... and say the guess was on the old ones
    assert right in [s.value for s in at.success]  # judged on those: still right
    wrong_now = translate("attention_by_hand.reveal.wrong", language, guess="Tom", token="loves")
    assert wrong_now not in [w.value for w in at.warning]
    at = reveal(hide(at, language), language, guess=0)  # asked again, on the new scores
    assert wrong_now in [w.value for w in at.warning]
    assert not any(i.value == then for i in at.info)


def test_a_weight_guess_is_judged_on_its_scores_too() -> None:
    at = open_abh()
    at.slider(key="abh_guess_weight").set_value(0.65)
    at = reveal(at, guess=0)
    close = translate("attention_by_hand.reveal.weight_close", "en", token="Tom", guess="0.65",
                      weight="0.649", tolerance="0.05")  # fmt: skip
    assert close in shown(at)
    at = edit_scores(at, {0: {"s": 0.0}})  # Tom's weight drops to 0.044 — after the guess
    assert close in shown(at)


def test_a_low_guess_for_a_key_that_lost_is_not_explained_as_a_winners_share() -> None:
    at = edit_scores(open_abh(), {0: {"s": 0.0}})  # Tom: 0.0, no longer the winner
    at.slider(key="abh_guess_weight").set_value(0.0)
    at = reveal(at, guess=2)
    weight = f"{_softmax([0.0, 0.5, 1.0, 0.8])[0]:.3f}"
    low = translate(
        "attention_by_hand.reveal.weight_low_other", "en", token="Tom", guess="0.00", weight=weight
    )
    assert low in shown(at)


def test_scores_too_close_to_show_are_a_tie_as_shown_not_an_exact_one() -> None:
    at = reveal(edit_scores(open_abh(), {1: {"s": 2.5001}}), guess=0)  # loves a hair above Tom
    weight = f"{_softmax([2.5, 2.5001, 1.0, 0.8])[0]:.3f}"
    said = translate("attention_by_hand.reveal.tie_shown", "en", top="Tom and loves", weight=weight,
                     scores="2.5 and 2.5001")  # fmt: skip
    assert said in shown(at)
    assert not any(t.startswith("A tie:") for t in shown(at))  # "exactly the same weight"


def _softmax(scores: list[float]) -> list[float]:
    e = [math.exp(s - max(scores)) for s in scores]
    return [x / sum(e) for x in e]
