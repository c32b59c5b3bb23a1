"""The Dimensionality page through AppTest: (1 − ε)^d with its slider, the distance-concentration
experiment with its controls, and the sentence's one-hot vs embedding distances — every number
compared with a computation written here independently (loops and np.linalg.norm)."""

from __future__ import annotations

import math
from functools import partial

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.core.status import backend_status
from transformer_walk.models.toy import token_vector, tokenize

import apptest_support
from apptest_support import no_exception, pick_backend

LONG = " ".join(f"word{i}" for i in range(200))


open_page = partial(apptest_support.open_page, "dimensionality.py")


def table_with(at: AppTest, column: str) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if column in d.value.columns)


def metric(at: AppTest, d: int, language: str = "en") -> str:
    label = translate("dimensionality.contrast.metric", language, d=f"{d:,}")
    return next(m.value for m in at.metric if m.label == label)


def median_contrast(n_points: int, d: int, seed: int) -> float:
    """Median over points of (farthest − nearest) / nearest, one point at a time."""
    points = np.random.default_rng([seed, d]).random((n_points, d))
    contrasts = []
    for i in range(n_points):
        dist = np.linalg.norm(np.delete(points, i, axis=0) - points[i], axis=1)
        contrasts.append((dist.max() - dist.min()) / dist.min())
    return float(np.median(contrasts))


@pytest.mark.parametrize("language", LANGUAGES)
def test_page_renders_with_computed_numbers(language: str) -> None:
    at = open_page(language)
    no_exception(at)
    assert at.title[0].value == translate("dimensionality.title", language)
    # ε = 0.05: the half-volume dimension and (0.95)^384.
    d_half = math.log(0.5) / math.log(0.95)
    assert any(
        m.value == translate("dimensionality.volume.half", language, d_half=f"{d_half:.1f}")
        for m in at.markdown
    )
    mantissa, exponent = f"{0.95**384:.2e}".split("e")  # 2.79e-09
    power = rf"(1-0.05)^{{384}} \approx {float(mantissa):g} \times 10^{{{int(exponent)}}}"
    assert any(power in x.value for x in at.latex), [x.value for x in at.latex]
    volume = table_with(at, translate("dimensionality.volume.col_inside", language))
    row = volume[volume[translate("dimensionality.volume.col_d", language)] == "2"].iloc[0]
    assert row[translate("dimensionality.volume.col_inside", language)] == f"{0.95**2:.4f}"
    assert row[translate("dimensionality.volume.col_shell", language)] == f"{1 - 0.95**2:.4f}"
    # The concentration experiment: farthest ÷ nearest for the median point, d = 1 and d = 5000.
    assert metric(at, 5000, language) == f"{1 + median_contrast(200, 5000, 0):,.3f}×"
    assert metric(at, 1, language) == f"{1 + median_contrast(200, 1, 0):,.1f}×"
    assert len(at.get("vega_lite_chart")) == 3  # volume, contrast, distance densities
    done = translate("dimensionality.contrast.done", language, total=13)
    assert any(done in str(p.proto) for p in at.get("progress"))


def test_eps_slider_moves_the_numbers() -> None:
    at = open_page()
    at.slider(key="dim_eps").set_value(0.1).run()
    no_exception(at)
    d_half = math.log(0.5) / math.log(0.9)
    assert any(
        m.value == translate("dimensionality.volume.half", "en", d_half=f"{d_half:.1f}")
        for m in at.markdown
    )
    volume = table_with(at, translate("dimensionality.volume.col_inside", "en"))
    row = volume[volume[translate("dimensionality.volume.col_d", "en")] == "384"].iloc[0]
    assert row[translate("dimensionality.volume.col_inside", "en")] == f"{0.9**384:.3g}"
    assert row[translate("dimensionality.volume.col_shell", "en")] == "1.0000"


def test_points_and_seed_controls_rerun_the_experiment() -> None:
    at = open_page()
    at.slider(key="dim_points").set_value(100)
    at.number_input(key="dim_seed").set_value(7)
    at.run()
    no_exception(at)
    assert metric(at, 5000) == f"{1 + median_contrast(100, 5000, 7):,.3f}×"
    table = table_with(at, translate("dimensionality.contrast.col_median", "en"))
    d_col = translate("dimensionality.contrast.col_d", "en")
    got = table[table[d_col] == 100][translate("dimensionality.contrast.col_median", "en")].iloc[0]
    assert got == pytest.approx(median_contrast(100, 100, 7), rel=1e-9)
    medians = table[translate("dimensionality.contrast.col_median", "en")].tolist()
    assert medians[0] > 1 > medians[-1]  # from far apart to almost alike
    assert any(
        c.value == translate("dimensionality.contrast.computed", "en", points=100, seed=7)
        for c in at.caption
    )


def test_the_sentence_one_hot_vs_embedding() -> None:
    sentence = "Tom loves his dog"
    at = open_page(sentence=sentence)
    table = table_with(at, translate("dimensionality.sentence.col_contrast", "en"))
    one_hot, embedding = table.iloc[0], table.iloc[1]
    assert one_hot[translate("dimensionality.sentence.col_min", "en")] == f"{math.sqrt(2):.4f}"
    assert one_hot[translate("dimensionality.sentence.col_max", "en")] == f"{math.sqrt(2):.4f}"
    assert one_hot[translate("dimensionality.sentence.col_contrast", "en")] == "0.0000"
    vectors = [token_vector(tok, 8, 0) for tok in tokenize(sentence)]
    pairs = [np.linalg.norm(a - b) for i, a in enumerate(vectors) for b in vectors[i + 1 :]]
    assert embedding[translate("dimensionality.sentence.col_dims", "en")] == "8"
    assert embedding[translate("dimensionality.sentence.col_min", "en")] == f"{min(pairs):.4f}"
    assert embedding[translate("dimensionality.sentence.col_max", "en")] == f"{max(pairs):.4f}"
    contrast = (max(pairs) - min(pairs)) / min(pairs)
    assert embedding[translate("dimensionality.sentence.col_contrast", "en")] == f"{contrast:.4f}"


@pytest.mark.parametrize(
    "sentence",
    ["", "dog dog", "我爱我的狗", "I ❤️ my 🐶!", LONG],
    ids=["empty", "repeated", "cjk", "emoji", "200-words"],
)
def test_edge_inputs(sentence: str) -> None:
    at = open_page("zh", sentence=sentence)
    no_exception(at)
    distinct = len(set(tokenize(sentence)))
    if not sentence:
        assert any(i.value == translate("common.empty_text", "zh") for i in at.info)
    elif distinct < 3:
        assert any(i.value == translate("dimensionality.sentence.few", "zh") for i in at.info)
    else:
        note = translate(
            "dimensionality.sentence.note", "zh", backend=_default_label("zh"), m=distinct
        )
        assert any(c.value == note for c in at.caption)
    # The experiments do not depend on the sentence: always there.
    assert len(at.get("vega_lite_chart")) == 3


def test_every_backend(app_backend: str) -> None:
    at = open_page()
    note = translate(
        "dimensionality.sentence.note", "en", backend=pick_backend(at, app_backend), m=4
    )
    assert any(c.value == note for c in at.caption)


def _default_label(language: str) -> str:
    name = "rust" if backend_status("rust").available else "numpy"
    return translate(f"backend.{name}", language)


def test_a_share_too_small_for_a_float_is_not_printed_as_0() -> None:
    at = open_page()
    column = translate("dimensionality.volume.col_inside", "en")
    table = next(d.value for d in at.dataframe if column in d.value.columns)
    inside = dict(
        zip(table[translate("dimensionality.volume.col_d", "en")], table[column], strict=True)
    )
    assert 0.95**50_000 == 0.0  # float64 underflows here ...
    assert inside["50,000"] == "1.51e-1114"  # ... the page writes it from its logarithm
