"""The app through Streamlit's AppTest: both pages, both languages, the interactions that matter.

Opening a page, and the AppTest quirks met here (page paths, editing the data editor through
``at.session_state``): see ``apptest_support``.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk import bench
from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.app.navigation import page_path
from transformer_walk.core import status as backend_status_module
from transformer_walk.core.status import backend_status

from apptest_support import APP, TIMEOUT, edit_scores, no_exception, open_page, reveal
from smollm2_support import MODEL_SKIP

TIME_TEXT = re.compile(r"^\d+(\.\d+)? (ns|µs|ms|s)( ⚠)?$")


def open_app(language: str = "en", page: str = "attention_by_hand.py") -> AppTest:
    return open_page(page, language)


def open_speed(language: str = "en") -> AppTest:
    return open_app(language, page="speed.py")


def table_with(at: AppTest, column: str) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if column in d.value.columns)


def shown_weights(at: AppTest) -> list[float]:
    return [float(w) for w in table_with(at, "exp(sⱼ − m)")["αⱼ"]]


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def softmax(scores: list[float]) -> np.ndarray:
    e = np.exp(np.array(scores) - max(scores))
    return e / e.sum()


# --- Attention by hand ----------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_attention_page_renders(language: str) -> None:
    at = open_app(language)
    no_exception(at)
    assert at.title[0].value == translate("attention_by_hand.title", language)
    assert at.header[0].value == translate("attention_by_hand.step1.title", language)
    assert any(r"[2.50,\;0.50,\;1.00,\;0.80]" in x.value for x in at.latex)
    assert len(at.data_editor) == 1
    # Before the reveal the answer is hidden: no weights, no z.
    assert not at.metric
    assert any(i.value == translate("attention_by_hand.locked", language) for i in at.info)
    assert at.radio(key="abh_guess_token").options == ["Tom", "loves", "his", "dog"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_reveal_shows_weights_and_z_his(language: str) -> None:
    at = reveal(open_app(language), language, guess=0)
    no_exception(at)
    np.testing.assert_allclose(shown_weights(at), [0.649, 0.088, 0.145, 0.119], atol=5e-4)
    assert metric(at, "z_his[1]") == "0.853"
    assert metric(at, "z_his[2]") == "0.292"
    assert any(
        x.value == translate("attention_by_hand.reveal.right", language, token="Tom")
        for x in at.success
    )
    assert any(r"\approx [0.853,\;0.292]" in x.value for x in at.latex)
    assert len(at.get("vega_lite_chart")) == 1  # the weights bar chart


def test_editing_a_score_changes_the_weights_shown() -> None:
    at = reveal(open_app(), guess=0)
    at = edit_scores(at, {1: {"s": 3.0}})  # loves: 0.5 → 3.0
    no_exception(at)
    expected = softmax([2.5, 3.0, 1.0, 0.8])
    np.testing.assert_allclose(shown_weights(at), expected, atol=5e-4)
    z = expected @ np.array([[1, 0], [0, 1], [1, 1], [0.5, 0.5]])
    assert metric(at, "z_his[1]") == f"{z[0]:.3f}"
    assert metric(at, "z_his[2]") == f"{z[1]:.3f}"
    answer = translate(
        "attention_by_hand.reveal.answer",
        "en",
        token="loves",
        weight=f"{expected[1]:.3f}",
        query="his",
    )
    assert any(m.value == answer for m in at.markdown)
    # the guess (Tom) was made on the article's scores: it is judged on them, and still right
    assert any(
        s.value == translate("attention_by_hand.reveal.right", "en", token="Tom")
        for s in at.success
    )
    again = translate("attention_by_hand.reveal.again", "en")
    next(b for b in at.button if b.label == again).click().run()
    at = reveal(at, guess=0)  # asked again, on the edited scores: now wrong
    assert any(
        w.value == translate("attention_by_hand.reveal.wrong", "en", guess="Tom", token="loves")
        for w in at.warning
    )


def test_a_tie_is_explained_and_any_tied_guess_is_right() -> None:
    at = edit_scores(
        open_app(), {0: {"s": 1.0}, 1: {"s": 1.0}, 3: {"s": 1.0}}
    )  # all four score 1.0
    at = reveal(at, guess=2)
    no_exception(at)
    np.testing.assert_allclose(shown_weights(at), [0.25] * 4)
    assert any(
        s.value == translate("attention_by_hand.reveal.right_tie", "en", token="his")
        for s in at.success
    )
    winners = "Tom, loves, his and dog"
    answer = translate(
        "attention_by_hand.reveal.answer_tie", "en", token=winners, weight="0.250", query="his"
    )
    markdown = [m.value for m in at.markdown]
    assert answer in markdown
    assert translate("attention_by_hand.reveal.tie", "en", top=winners, s_top="1") in markdown
    assert not any("takes the largest share" in m for m in markdown)  # no single winner
    at = reveal(edit_scores(open_app(), {1: {"s": 2.5}}), guess=2)  # loves up to Tom's 2.5: a tie
    wrong = translate(
        "attention_by_hand.reveal.wrong_tie", "en", guess="his", token="Tom and loves"
    )
    assert wrong in [w.value for w in at.warning]


def test_editing_v_changes_z_only() -> None:
    at = reveal(open_app(), guess=0)
    at = edit_scores(at, {0: {"v1": 2.0}})  # Tom's value: [1, 0] → [2, 0]
    no_exception(at)
    np.testing.assert_allclose(shown_weights(at), [0.649, 0.088, 0.145, 0.119], atol=5e-4)
    weights = softmax([2.5, 0.5, 1.0, 0.8])
    z = weights @ np.array([[2, 0], [0, 1], [1, 1], [0.5, 0.5]])
    assert metric(at, "z_his[1]") == f"{z[0]:.3f}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_bad_input_gives_a_friendly_message_and_the_page_keeps_working(language: str) -> None:
    at = reveal(open_app(language), language)
    at = edit_scores(at, {1: {"s": None}, 3: {"v2": float("nan")}})
    no_exception(at)
    cells = ", ".join(
        [
            translate("attention_by_hand.err.cell_s", language, token="loves"),
            translate("attention_by_hand.err.cell_v", language, token="dog", col=2),
        ]
    )
    message = translate("attention_by_hand.err.not_finite", language, cells=cells)
    assert any(w.value.startswith(message) for w in at.warning), [w.value for w in at.warning]
    # The steps fall back to the article's numbers rather than breaking.
    assert metric(at, "z_his[1]") == "0.853"


def test_reset_brings_back_the_articles_numbers() -> None:
    at = reveal(open_app())
    at = edit_scores(at, {1: {"s": 3.0}})
    assert metric(at, "z_his[1]") != "0.853"
    next(
        b for b in at.button if b.label == translate("attention_by_hand.editor.reset", "en")
    ).click().run()
    no_exception(at)
    assert metric(at, "z_his[1]") == "0.853"


def test_weight_guess_feedback_and_hide_again() -> None:
    at = open_app()
    at.slider(key="abh_guess_weight").set_value(0.25)
    at = reveal(at, guess=2)
    no_exception(at)
    assert any(
        w.value == translate("attention_by_hand.reveal.wrong", "en", guess="his", token="Tom")
        for w in at.warning
    )
    low = translate(
        "attention_by_hand.reveal.weight_low", "en", token="Tom", guess="0.25", weight="0.649"
    )
    assert any(m.value == low for m in at.markdown)
    next(
        b for b in at.button if b.label == translate("attention_by_hand.reveal.again", "en")
    ).click().run()
    no_exception(at)
    assert not at.metric  # hidden again, the form is back
    assert at.radio(key="abh_guess_token").options == ["Tom", "loves", "his", "dog"]


def test_every_available_backend_computes_the_page(app_backend: str) -> None:
    at = open_app()
    at.radio(key="backend").set_value(app_backend).run()
    at = reveal(at)
    no_exception(at)
    label = translate(f"backend.{app_backend}", "en")
    assert any(label in c.value for c in at.caption)
    assert metric(at, "z_his[1]") == "0.853"
    assert any(f"**{label}**" in s.value for s in at.success)  # the fused call names the backend


def test_without_rust_numpy_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    real = backend_status_module.get_backend

    def no_rust(name: str):  # noqa: ANN202 - returns a module
        if name == "rust":
            raise ModuleNotFoundError("No module named 'rust_core._rust_core'")
        return real(name)

    monkeypatch.setattr(backend_status_module, "get_backend", no_rust)
    at = open_app()
    no_exception(at)
    assert at.radio(key="backend").value == "numpy"
    assert "rust" not in at.radio(key="backend").options
    assert any(c.value == translate("sidebar.rust_missing", "en") for c in at.sidebar.caption)


def test_language_from_the_url() -> None:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params["lang"] = "zh"
    at.run()  # the default page: the start of the road
    no_exception(at)
    assert at.title[0].value == translate("tokens.title", "zh")


def test_switching_language_keeps_the_backend() -> None:
    at = open_app()
    at.radio(key="backend").set_value("numpy").run()
    at.radio(key="lang").set_value("zh").run()
    no_exception(at)
    assert at.title[0].value == translate("attention_by_hand.title", "zh")
    assert at.radio(key="backend").value == "numpy"


# --- Speed ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_speed_page_renders(language: str) -> None:
    at = open_speed(language)
    no_exception(at)
    assert at.title[0].value == translate("speed.title", language)
    assert any(i.value == translate("speed.no_results", language) for i in at.info)


def _run_tiny_softmax(at: AppTest, language: str = "en") -> AppTest:
    at.radio(key="speed_op").set_value("softmax").run()
    at.multiselect(key="speed_softmax_rows").set_value([16, 64])
    at.selectbox(key="speed_softmax_cols").set_value(64)
    at.slider(key="speed_repeats").set_value(3)
    next(b for b in at.button if b.label == translate("speed.run", language)).click()
    return at.run()


@pytest.mark.parametrize("language", LANGUAGES)
def test_speed_run_at_tiny_sizes_fills_the_tables(language: str) -> None:
    at = _run_tiny_softmax(open_speed(language), language)
    no_exception(at)
    medians = table_with(at, translate("speed.lane.numpy", language))
    assert list(medians.index) == ["rows=16 cols=64", "rows=64 cols=64"]
    for lane in ("python", "numpy", "rust-1", "rust-all"):
        column = translate(f"speed.lane.{lane}", language, cores=_cores())
        for text in medians[column]:
            if backend_status("rust" if lane.startswith("rust") else lane).available:
                assert TIME_TEXT.match(text), text
            else:
                assert text == translate("speed.cell.unavailable", language)
    speedups = [d.value for d in at.dataframe if "×" in d.value.to_string()]
    assert len(speedups) == 2  # × vs NumPy and × vs pure Python
    assert all(list(table.index) == list(medians.index) for table in speedups)
    assert len(at.get("vega_lite_chart")) == 1
    assert len(at.get("download_button")) == 1
    assert at.metric  # the highlights row


def test_speed_results_survive_reruns_and_page_changes() -> None:
    at = _run_tiny_softmax(open_speed())
    at.radio(key="speed_op").set_value("attention").run()
    assert any(i.value == translate("speed.no_results", "en") for i in at.info)
    at.radio(key="speed_op").set_value("softmax").run()
    no_exception(at)
    assert "rows=16 cols=64" in table_with(at, "NumPy").index
    at.switch_page(str(page_path("attention_by_hand.py"))).run()
    at.switch_page(str(page_path("speed.py"))).run()
    no_exception(at)
    at.radio(key="speed_op").set_value("softmax").run()
    assert "rows=16 cols=64" in table_with(at, "NumPy").index


@pytest.mark.skipif(not backend_status("python").available, reason="no pure-Python backend")
def test_speed_marks_pure_python_skipped_with_an_estimate() -> None:
    at = open_speed()
    at.radio(key="speed_op").set_value("attention").run()
    at.multiselect(key="speed_attention_n").set_value([16, 512])
    # Sizes where n = 512 is estimated at ~10 s of pure Python, far over the 0.5 s budget on any
    # machine (a smaller case passed the budget on a fast run and was not skipped).
    at.selectbox(key="speed_attention_heads").set_value(8)
    at.selectbox(key="speed_attention_d").set_value(64)
    at.slider(key="speed_repeats").set_value(3)
    at.slider(key="speed_budget").set_value(0.5)
    next(b for b in at.button if b.label == translate("speed.run", "en")).click().run()
    no_exception(at)
    python = table_with(at, "Pure Python")["Pure Python"]
    assert TIME_TEXT.match(python.iloc[0])
    assert re.match(r"^skipped \(estimated \d+(\.\d+)? (µs|ms|s)\)$", python.iloc[1]), python.iloc[
        1
    ]


@pytest.mark.skipif(MODEL_SKIP is not None, reason=str(MODEL_SKIP))
@pytest.mark.parametrize("language", LANGUAGES)
def test_speed_races_the_decoder_as_tokens_a_second(language: str) -> None:
    """Both SmolLM2 races at their smallest sizes: a tokens-a-second table each, and once both
    have run, the sentence comparing reading a prompt with generating (from those medians)."""
    at = open_speed(language)
    at.slider(key="speed_repeats").set_value(3)
    for op, axis, size in (("smollm2_prefill", "n", 4), ("smollm2_decode", "past", 1)):
        at.radio(key="speed_op").set_value(op).run()
        at.multiselect(key=f"speed_{op}_{axis}").set_value([size])
        next(b for b in at.button if b.label == translate("speed.run", language)).click().run()
        no_exception(at)
        title = translate("speed.tokens.title", language)
        assert any(s.value == title for s in at.subheader)
        numpy = translate("speed.lane.numpy", language)
        tables = [d.value for d in at.dataframe if numpy in d.value.columns]
        assert len(tables) == 2  # the medians and the tokens a second (no race vs Python)
        assert all(re.match(r"^[\d,.]+$", text) for text in tables[1][numpy]), tables[1]
    assert at.slider(key="speed_budget").disabled  # pure Python does not race the models
    seconds = f"{bench.OPS['smollm2_decode'].python_token_s:.1f}"
    why = translate("speed.not_raced", language, seconds=seconds)
    assert any(m.value == why for m in at.markdown), "no translated reason for pure Python"
    waiting = translate("speed.tokens.race_both", language)
    assert not any(i.value == waiting for i in at.info)
    numpy = translate("speed.lane.numpy", language)
    assert any(m.value.startswith(f"- {numpy}") for m in at.markdown), "no comparison sentence"


def _cores() -> int:
    from transformer_walk.bench import available_cores

    return available_cores()


@pytest.mark.parametrize("language", LANGUAGES)
def test_your_sentence_runs_the_same_steps_on_the_toy_models_numbers(language: str) -> None:
    from transformer_walk.app.caches import toy_trace
    from transformer_walk.models.toy import ToyConfig

    sentence = "The animal didn't cross the street because it was too tired"
    at = open_page("attention_by_hand.py", language, sentence=sentence)
    no_exception(at)
    assert not at.selectbox  # shown after the reveal only (on the default it gives it away)
    at = reveal(at, language)
    trace = toy_trace(sentence, ToyConfig(), "numpy")
    i = at.selectbox(key="abh_mine_query").value
    assert trace.tokens[i] == "it"  # its pronoun: the pages' default query
    scores = trace.blocks[0].scores[0, i]  # head 1, already ÷ √d_k
    alpha = np.exp(scores - scores.max())
    alpha /= alpha.sum()
    table = next(d.value for d in at.dataframe if "αⱼ" in d.value.columns and len(d.value) > 4)
    np.testing.assert_allclose(table["αⱼ"], alpha, atol=1e-12)
    z = alpha @ trace.blocks[0].v_heads[0]  # (d_k,)
    label = f"z ({translate('attention_by_hand.mine.z', language)})"
    shown = metric(at, label).strip("[]").split(",")
    np.testing.assert_allclose([float(v) for v in shown], z, atol=5e-4)
    top = int(np.argmax(alpha))
    query = f"{i + 1} · it"
    assert (
        metric(at, translate("attention_by_hand.mine.top", language, query=query))
        == f"{alpha[top]:.3f}"
    )
    named = translate(
        "self_attention.row.top_one",
        language,
        weight=f"{alpha[top]:.3f}",
        tokens=f"{top + 1} · {trace.tokens[top]}",
    )
    assert any(m.value == named for m in at.markdown)


def test_your_sentence_names_every_key_tied_for_the_largest_weight() -> None:
    """Guards against naming only the first of two keys that tie at the three decimals shown:
    in "0 0 … 0" (34 zeros) the toy's head 1 gives query 5 its largest weight, 0.056, at both
    30 and 31 (checked here from the trace)."""
    from transformer_walk.app.caches import toy_trace
    from transformer_walk.app.i18n import join_names
    from transformer_walk.models.toy import ToyConfig

    sentence = " ".join(["0"] * 34)
    scores = toy_trace(sentence, ToyConfig(), "numpy").blocks[0].scores[0, 4]
    alpha = np.round(np.exp(scores - scores.max()) / np.exp(scores - scores.max()).sum(), 3)
    tied = np.flatnonzero(alpha == alpha.max()).tolist()
    assert len(tied) == 2
    at = reveal(open_page("attention_by_hand.py", sentence=sentence))
    at.selectbox(key="abh_mine_query").set_value(4).run()
    no_exception(at)
    names = [f"{p + 1} · 0" for p in tied]
    message = translate(
        "self_attention.row.top_tie",
        "en",
        count=2,
        weight=f"{alpha.max():.3f}",
        tokens=join_names(names, "en"),
    )
    assert any(m.value == message for m in at.markdown)


def test_the_sidebar_names_each_page_by_its_title_up_to_the_colon() -> None:
    from transformer_walk.app.navigation import ROAD, nav_title

    assert nav_title("N-grams: counting what comes next") == "N-grams"
    assert nav_title("Q、K、V：每个 token 的三种视角") == "Q、K、V"
    assert nav_title("Attention by hand") == "Attention by hand"
    assert nav_title(": odd") == ": odd"  # nothing before the colon: the whole title
    for language in LANGUAGES:  # every sidebar name is short (the sidebar cut longer ones)
        titles = [title for _, pages in ROAD for *_, title, _ in pages]
        names = [nav_title(translate(title, language)) for title in titles]
        assert max(map(len, names)) <= 27, names
