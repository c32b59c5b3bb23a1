"""The A-head-that-copies page through AppTest: trained once per test process (the page's
``st.cache_resource`` lives here), its sections, charts and claims in both languages, and the
checkpoint slider moving the attention matrices."""

from __future__ import annotations

from functools import partial

import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.caches import induction_study, training_backend
from transformer_walk.app.i18n import LANGUAGES, translate

import apptest_support

open_page = partial(apptest_support.open_page, "head_that_copies.py", assert_no_exception=True)
STEP = "copy_step"


def texts(at: AppTest) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_shows_every_section_in_both_languages(language: str) -> None:
    at = open_page(language, timeout=180)
    assert at.title[0].value == translate("head_that_copies.title", language)
    headers = [h.value for h in at.header]
    for key in ("task", "loss", "scores", "off"):
        assert translate(f"head_that_copies.{key}.title", language) in headers
    # the losses, prefix matching, previous token, two attention matrices, the switch-offs
    assert len(at.get("vega_lite_chart")) == 6
    s = induction_study(training_backend())
    body = texts(at)
    assert f"{s.second_copy_loss[-1]:.2f}" in body  # the jump claim's final loss
    assert str(s.jump_step) in body
    assert f"{s.ablations.previous_token_head_off:.2f}" in body


def test_the_slider_moves_the_matrices_to_another_checkpoint() -> None:
    at = open_page("en", timeout=180)
    assert "Attention at step 800 on the sequence above" in [s.value for s in at.subheader]
    at.select_slider(key=STEP).set_value(0).run()
    apptest_support.no_exception(at)
    assert "Attention at step 0 on the sequence above" in [s.value for s in at.subheader]
