"""The Beyond text page through AppTest: both languages, each backend, the patch-size and query
sliders, numbers checked against the patches module run here; the upload stays optional."""

from __future__ import annotations

from functools import partial

import pytest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.topics import patches as vit

import apptest_support
from apptest_support import no_exception

open_page = partial(apptest_support.open_page, "beyond_text.py")


def metric(at, label: str) -> str:  # noqa: ANN001 - AppTest
    return next(m.value for m in at.metric if m.label == label)


@pytest.mark.parametrize("language", LANGUAGES)
def test_patches_attention_and_overlay(language: str) -> None:
    at = open_page(language)
    no_exception(at)
    assert at.title[0].value == translate("beyond_text.title", language)
    assert metric(at, translate("beyond_text.metric.n", language)) == "36"
    assert metric(at, translate("beyond_text.metric.grid", language)) == "6\u00a0×\u00a06"
    assert metric(at, translate("beyond_text.metric.width", language)) == "768"
    assert any(r"= 6\cdot6 = 36" in x.value for x in at.latex)
    at.select_slider(key="vit_patch").set_value(32)
    at.run()
    assert at.slider(key="vit_query").value == 5  # a new grid starts at its middle patch
    at.slider(key="vit_query").set_value(2)
    at.run()
    no_exception(at)
    assert metric(at, translate("beyond_text.metric.n", language)) == "9"
    att = vit.attend_patches(vit.patchify(vit.make_scene(), 32), "numpy")
    row = att.weights[1]
    top = int(row.argmax())
    caption = translate(
        "beyond_text.overlay.caption", language, query=2, top=top + 1, weight=f"{row[top]:.3f}"
    )
    assert caption in [c.value for c in at.caption]
    assert any(c.value == translate("beyond_text.row_sum", language, query=2, total="1.000000")
               for c in at.caption)  # fmt: skip
    assert any(m.value == translate("beyond_text.clip.body", language) for m in at.markdown)


@pytest.mark.parametrize("backend", ["python", "numpy", "rust"])
def test_smallest_patches_on_each_backend(backend: str) -> None:
    at = open_page("en", backend=backend)
    at.select_slider(key="vit_patch").set_value(8)
    at.run()
    no_exception(at)
    assert metric(at, "n (patch tokens)") == "144"
    # The query slider was reset into range and points at the middle patch.
    assert at.slider(key="vit_query").value == 6 * 12 + 6 + 1


@pytest.mark.parametrize("sentence", ["", "我爱我的狗 🐶"])
def test_upload_choice_and_any_sentence(sentence: str) -> None:
    at = open_page("zh", sentence=sentence)
    at.radio(key="vit_source").set_value("upload")
    at.run()
    no_exception(at)
    if not vit.pillow_available():
        assert any(i.value == translate("beyond_text.upload.no_pil", "zh") for i in at.info)
    assert metric(at, translate("beyond_text.metric.n", "zh")) == "36"  # the scene stands in
    if vit.pillow_available():  # the uploader's built-in English replaced by the page's words
        styles = [h.proto.body for h in at.get("html") if "stFileUploaderDropzone" in h.proto.body]
        assert styles and f'content: "{translate("beyond_text.upload.button", "zh")}"' in styles[0]


def test_coming_back_to_the_page_starts_again_at_the_middle_patch() -> None:
    at = open_page()
    no_exception(at)
    middle = at.slider(key="vit_query").value
    assert middle > 1
    # Leaving a page makes Streamlit forget its widgets' values while the grid marker stays:
    # a session that has the marker and no slider value.
    back = open_page(state={"vit_query_for": at.session_state["vit_query_for"]})
    no_exception(back)
    assert back.slider(key="vit_query").value == middle
