"""The Cost page through AppTest: both languages, n / k / d controls checked against the counts
computed here, the timing run (on its button) producing slopes for both lanes, never asserted
as speeds."""

from __future__ import annotations

import math

import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.bench import Timing
from transformer_walk.models.toy import tokenize
from transformer_walk.topics import cost

from apptest_support import no_exception, open_page


def open_cost(language: str = "en", sentence: str | None = None, max_n: int = 512) -> AppTest:
    """The page with a small largest n, so the timing run stays short."""
    state = {"cost_max_n": max_n}
    return open_page("cost.py", language, sentence, state=state, assert_no_exception=True)


def path_table(at: AppTest):
    return at.dataframe[0].value


def slope_metrics(at: AppTest, language: str = "en") -> list:
    prefix = translate("cost.time.slope", language, lane="")[:6]
    return [m for m in at.metric if m.label.startswith(prefix)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_opens_with_counts_and_slopes_in_both_languages(language: str) -> None:
    at = open_cost(language)
    assert at.title[0].value == translate("cost.title", language)
    table = path_table(at)
    # n = 4 tokens of "Tom loves his dog", k = 3, d = 512
    assert list(table.iloc[:, 1]) == [3, 2, 1]
    assert list(table.iloc[:, 2]) == [4, 1, 1]
    assert list(table.iloc[:, 3]) == [f"{4 * 512**2:,}", f"{3 * 4 * 512**2:,}", f"{16 * 512:,}"]
    # ... and the attention row's mixing term is said to leave out 4·n·d² of projections
    projections = translate(
        "cost.paths.projections", language, mixing=f"{16 * 512:,}", projections=f"{16 * 512**2:,}",
        times="512×",
    )  # fmt: skip
    assert any(c.value == projections for c in at.caption)
    # Nothing is timed until asked: opening the page costs no benchmark.
    assert not slope_metrics(at, language)
    assert any(i.value.startswith(translate("cost.time.not_yet", language, budget="3")[:12])
               for i in at.info)  # fmt: skip
    at.button(key="cost_measure").click().run()
    no_exception(at)
    slopes = slope_metrics(at, language)
    assert len(slopes) == 2
    for m in slopes:
        assert math.isfinite(float(m.value))  # computed from this run's medians, value unasserted


def test_controls_change_the_counts() -> None:
    at = open_cost(sentence="one two three")
    assert at.number_input(key="cost_n").value == 3
    at.number_input(key="cost_n").set_value(1000).run()
    at.slider(key="cost_k").set_value(5).run()
    at.select_slider(key="cost_d").set_value(64).run()
    no_exception(at)
    rnn, cnn, attn = cost.layer_costs(1000, 64, 5)
    table = path_table(at)
    assert list(table.iloc[:, 1]) == [999, math.ceil(999 / 4), 1]
    assert list(table.iloc[:, 3]) == [f"{r.operations:,}" for r in (rnn, cnn, attn)]
    ratio = next(m.value for m in at.markdown if "n / d" in m.value)
    assert f"{1000 / 64:.3g}" in ratio


def test_timing_table_and_memory_table() -> None:
    at = open_cost(max_n=256)
    assert len(at.dataframe) == 2  # the paths and the memory: no timings yet
    at.button(key="cost_measure").click().run()
    timings = at.dataframe[1].value
    assert set(timings["n"]) == {64, 128, 256}
    assert (timings.iloc[:, 2] > 0).all()
    memory = at.dataframe[2].value
    assert list(memory["n"]) == ["64", "128", "256", "16,384", "65,536"]
    full = memory[translate("cost.mem.full", "en")]
    assert full.iloc[-1] == "16.0 GiB"  # 65 536² · 4 bytes
    assert memory[translate("cost.mem.tile", "en")].iloc[-1] == "128.0 KiB"  # 128 × 256 × 4
    first = list(timings.iloc[:, 2])
    at.run()  # a rerun keeps the last result instead of timing again
    assert list(at.dataframe[1].value.iloc[:, 2]) == first
    at.button(key="cost_measure").click().run()
    no_exception(at)


def test_a_new_sidebar_sentence_resets_n_to_its_token_count() -> None:
    at = open_cost(sentence="one two three")
    assert at.number_input(key="cost_n").value == 3
    at.session_state["sentence"] = "one two three four five"
    at.run()
    assert at.number_input(key="cost_n").value == 5


@pytest.mark.parametrize("sentence", ["", "我爱我的狗", "Tom 🐶", " ".join(["w"] * 200)])
def test_edge_sentences(sentence: str) -> None:
    at = open_cost(sentence=sentence, max_n=256)
    n = len(tokenize(sentence))
    assert at.number_input(key="cost_n").value == max(n, 1)
    assert list(path_table(at).iloc[:, 1]) == [
        max(n - 1, 0),
        cost.cnn_layers_to_connect(max(n, 1), 3),
        1 if n > 1 else 0,
    ]
    if n == 0:
        assert any(i.value == translate("cost.empty", "en") for i in at.info)


def test_coming_back_to_the_page_starts_again_from_the_sentences_n() -> None:
    # the n marker kept, the number input's value forgotten: as when the learner comes back
    at = open_page("cost.py", state={"cost_n_for": 4})
    no_exception(at)
    assert at.number_input(key="cost_n").value == 4


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_slope_sentence_follows_fixed_timings(language: str) -> None:
    # max_n 1024, one thread: the page's cache key; n ≥ 256 gives 3 points per lane
    sizes = (64, 128, 256, 512, 1024)
    wobble = [0.0, 0.0, 0.01, -0.02, 0.01]
    run = [Timing(lane, n, 1e-9 * n**p * math.exp(w), 5)
           for lane, p in (("numpy", 1.39), ("rust", 2.0))
           for n, w in zip(sizes, wobble, strict=True)]  # fmt: skip
    state = {"cost_max_n": 1024, "cost_results": {(sizes, True): run}}
    at = open_page("cost.py", language, state=state, assert_no_exception=True)
    markdown = [m.value for m in at.markdown]
    said = [cost.growth([r.n for r in run if r.lane == lane],
                        [r.seconds for r in run if r.lane == lane], 256)
            for lane in ("numpy", "rust")]  # fmt: skip
    assert [c.message for c in said if c] == ["cost.fit.below", "cost.fit.quadratic"]
    for claim in said:
        assert claim is not None and translate(claim.message, language, **claim.fields) in markdown
    p_near_2 = translate("cost.fit.quadratic", language, slope="", points="", low="", high="")
    assert sum(m.startswith(p_near_2[:8]) for m in markdown) == 1  # the Rust lane's only
