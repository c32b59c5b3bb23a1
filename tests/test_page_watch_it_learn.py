"""The Watch-it-learn page through AppTest: trained once per test process (the page's
``st.cache_resource`` lives here), its sections and claims in both languages, the learner's own
sentence — read when the task's words hold a name and a possessive, a generated one otherwise,
with the reason — and the checkpoint slider."""

from __future__ import annotations

import json
import re
from functools import partial

import numpy as np
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.caches import name_head_study, training_backend
from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.topics.claims import percent
from transformer_walk.topics.learning.name_head import GUESS_LOSS, NameHeadSettings, NameHeadStudy
from transformer_walk.topics.learning.name_head_claims import head_label

import apptest_support

open_page = partial(apptest_support.open_page, "watch_it_learn.py", assert_no_exception=True)
DATA, STEP = "learn_data", "learn_step"


def studied(language: str) -> NameHeadStudy:
    return name_head_study(NameHeadSettings(language=language), training_backend())


def texts(at: AppTest) -> str:
    shown = [*at.markdown, *at.caption, *at.info]
    return "\n".join(m.value for m in shown)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_shows_every_section_in_both_languages(language: str) -> None:
    at = open_page(language)
    assert at.title[0].value == translate("watch_it_learn.title", language)
    headers = [h.value for h in at.header]
    for key in (
        "watch_it_learn.task.title",
        "watch_it_learn.loss.title",
        "watch_it_learn.watch.title",
        "watch_it_learn.inside.title",
        "watch_it_learn.off.title",
    ):
        assert translate(key, language) in headers
    # the loss, the query's row, the weight over training, the head grid, two embedding maps,
    # two score matrices (the watched head is in the first layer), the switch-offs
    assert len(at.get("vega_lite_chart")) == 9
    # the head grid prints percents in its cells, and its colour legend reads in percent too
    grid = [
        spec["layer"][0]["encoding"]["color"]
        for spec in (json.loads(c.proto.spec) for c in at.get("vega_lite_chart"))
        if "layer" in spec and "legend" in spec["layer"][0]["encoding"].get("color", {})
    ]
    weight = translate("watch_it_learn.weight.axis", language)
    assert [c["legend"].get("format") for c in grid if c.get("title") == weight] == ["%"]
    s = studied("en")  # "Tom loves his dog" is read by the model trained on English
    assert at.session_state[DATA] == "en"
    # ... and its cells write each weight as the sentences do (">99.9%", "99.8%", never "100%")
    (cells,) = [
        pa.ipc.open_stream(c.proto.data.data).read_all().to_pylist()
        for c in at.get("vega_lite_chart")
        if json.loads(c.proto.spec).get("layer", [{}])[0].get("encoding", {}).get("color", {})
        .get("title") == weight
    ]  # fmt: skip
    assert [c["text"] for c in cells] == [percent(float(w)) for w in s.name_weight[-1].ravel()]
    layer, head = s.watched_head
    body = texts(at).replace("\\>", ">").replace("\\<", "<")  # markdown's escapes undone
    assert head_label(layer, head) in body
    assert percent(s.name_weight[-1, layer, head]) in body  # the claim's end weight
    assert f"{s.group_off:.3f}" in body  # the switch-off claim
    male, female = s.gender_weight[:, layer, head]
    assert percent(male) in body and percent(female) in body  # the weights by gender
    assert percent(s.control_name_weight[-1].max()) in body  # no control head above it
    assert translate("watch_it_learn.timing.now", language, seconds=f"{s.seconds:.1f}") in body or (
        translate("watch_it_learn.timing.disk", language, seconds=f"{s.seconds:.1f}") in body
    )


def test_the_english_model_looks_at_both_genders_and_at_far_names() -> None:
    at = open_page("en")
    s = studied("en")
    layer, head = s.watched_head
    body = texts(at)
    assert "split by the name's gender" in body  # both numbers, no claim
    assert "looks almost only at" not in body
    assert f"Even on the {s.far_count} held-out sentences whose name is 3 or more" in body
    assert "up to a dozen tokens back" in body
    assert "even above a coin toss" not in body  # en's group-off loss stays below ln 2
    assert "Switching off any one head alone leaves the loss" in body


def test_the_chinese_model_looks_almost_only_at_female_names() -> None:
    at = open_page("zh", sentence="小红在家里喜欢她的猫。")
    s = studied("zh")
    layer, head = s.watched_head
    male, female = s.gender_weight[:, layer, head]
    body = texts(at).replace("\\>", ">").replace("\\<", "<")  # markdown's escapes undone
    said = translate(
        "watch_it_learn.claim.only_female", "zh", head=head_label(layer, head),
        male=percent(male), female=percent(female), chance=percent(s.chance),
        loss=f"{s.gender_loss[0]:.3f}",
    )  # fmt: skip
    assert said in body
    assert s.group_off > GUESS_LOSS and "甚至高于掷硬币" in body  # the coin-toss claim
    for term in ("因果遮罩", "参数", "均匀水平", "。训练用时"):
        assert term in body
    for old in ("因果掩码", "随机水平", "对照组", "全部开启", "*他的*"):
        assert old not in body


def test_the_default_sentence_is_read_at_the_slider_step() -> None:
    at = open_page("en")
    assert "Read by the model at step 150: **tom loves his dog**" in texts(at)
    assert "does not single the name out" not in texts(at)
    at.select_slider(key=STEP).set_value(0).run()
    apptest_support.no_exception(at)
    body = texts(at)
    assert "Read by the model at step 0: **tom loves his dog**" in body
    # at step 0 no head looks at the name, and the page says so where it said it does
    assert not re.search(r"puts [\d.>]+% of the attention", body) and "puts only" in body
    assert "does not single the name out" in body
    assert "At step 0 this row is nearly flat" in body and "standard deviation 0.02" in body
    at.select_slider(key=STEP).set_value(5).run()
    assert "nearly flat" not in texts(at)  # the flat start is said at step 0 only


def test_a_chinese_sentence_is_read_by_the_model_trained_on_chinese() -> None:
    at = open_page("zh", sentence="小红在家里喜欢她的猫。")
    assert at.session_state[DATA] == "zh"
    assert "小红 在 家里 喜欢 她的 猫" in texts(at)
    s = studied("zh")
    assert s.settings.language == "zh" and s.name_weight.shape == (31, 2, 4)


@pytest.mark.parametrize(
    ("sentence", "note"),
    [
        ("the cat saw the cat", "Your sentence has no name followed by"),
        ("tom", "Your sentence has no name followed by"),
        ("3.14 + 2,000!", "Your sentence has no name followed by"),
        ("Pneumonoultramicroscopicsilicovolcanoconiosis", "Your sentence has no name followed"),
        ("tom loves his dog and " * 90 + "x", "so it reads your first 32 words; 418 more"),
        ("tom loves his dog and " * 90 + "x", "$n \\le 32$ positions, one per token"),
    ],
    ids=["repeated", "one word", "digits", "long word", "2000 characters", "n ≤ 32"],
)
def test_any_sentence_gets_a_reading_and_a_reason(sentence: str, note: str) -> None:
    at = open_page("en", sentence=sentence[:2000])
    body = texts(at)
    assert note in body
    assert "Read by the model at step 150:" in body


def test_a_chinese_sentence_under_english_data_says_where_to_switch() -> None:
    at = open_page("en", sentence="小红喜欢她的猫", state={DATA: "en"})
    assert "Your sentence reads as Chinese sentences" in texts(at)


def test_the_seed_and_data_are_kept_and_change_the_model() -> None:
    at = open_page("en")
    at.radio(key=DATA).set_value("zh").run()
    apptest_support.no_exception(at)
    assert at.session_state[DATA] == "zh"
    body = texts(at)
    assert "Read by the model at step 150:" in body
    assert any(word in body for word in ("他的", "她的"))
    assert np.isfinite(studied("zh").base_loss)


@pytest.mark.parametrize(
    ("language", "sentence", "unlike"),
    [
        ("en", "Tom sees Anna and loves her dog", "It was never trained on such a sentence"),
        ("zh", "小明和安娜她的狗", "它从没在这样的句子上训练过"),
        ("en", "Tom loves her dog", "Your sentence breaks the task's rule here"),
        ("zh", "小明爱她的狗", "你的句子在这里不符合任务的规则"),
    ],
)
def test_a_wrong_possessive_is_said_with_why(language: str, sentence: str, unlike: str) -> None:
    """The model prefers the possessive the sentence does not have; the page says so, with both
    probabilities, and why: the task never had a sentence with two names, or the sentence's
    possessive does not agree with its one name (the task's rule, which the model follows)."""
    at = open_page(language, sentence=sentence)
    want = apptest_support.wrong_possessive_text(language, sentence)
    warnings = [w.value for w in at.warning]
    assert want in warnings and unlike in want
    right = [w.value for w in open_page(language).warning]  # the running example: no claim
    assert not [w for w in right if w.startswith(want[:12])]


@pytest.mark.parametrize(
    ("language", "sentence", "chinese_note"),
    [
        ("en", "tom loves his dog and " * 20, False),
        ("zh", "tom loves his dog and " * 20, False),
        ("en", "小红喜欢她的猫，又" * 10, True),
        ("zh", "小红喜欢她的猫，又" * 10, True),
    ],
)
def test_the_note_on_a_cut_sentence_speaks_of_chinese_tokens_only_on_chinese_data(
    language: str, sentence: str, chinese_note: bool
) -> None:
    at = open_page(language, sentence=sentence)
    body = texts(at)
    assert "$n \\le 32$" in body  # the sentence was cut
    assert ("旁边的" in body) is chinese_note
