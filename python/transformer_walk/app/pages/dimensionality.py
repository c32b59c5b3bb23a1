"""Dimensionality — the curse of dimensionality computed: (1 − ε)^d, the concentration of distances
between random points as d grows, the sentence's one-hot vs embedding distances, and what it all
means for the width of embeddings."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import links
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import dimensionality as charts_dimensionality
from transformer_walk.app.heavy_work import heavy_work
from transformer_walk.app.i18n import t
from transformer_walk.app.model_widgets import toy_backend, toy_trace_or_none
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views.latex import power_of_ten, tex_words
from transformer_walk.app.widgets import page_start, solved_and_hurts
from transformer_walk.models.toy import ToyConfig, Trace
from transformer_walk.topics.dimensionality import (
    DEFAULT_DIMENSIONS,
    DEFAULT_POINTS,
    DEFAULT_SEED,
    MAX_POINTS,
    ContrastRow,
    contrast_at,
    distance_histogram,
    half_shell_dimension,
    inner_cube_share,
    pairwise_distances,
    set_contrast,
    shell_share,
)
from transformer_walk.topics.one_hot import first_occurrences

EPS_KEY = "dim_eps"
POINTS_KEY = "dim_points"
SEED_KEY = "dim_seed"
DEFAULT_EPS = 0.05
CURVE_DIMENSIONS = np.unique(np.round(np.logspace(0, np.log10(50_000), 160)).astype(int))
# d values worth a row of the table: (d, note id or None).
TABLE_DIMENSIONS: tuple[tuple[int, str | None], ...] = (
    (1, None),
    (2, None),
    (3, None),
    (ToyConfig().d_model, "dimensionality.volume.note.toy"),
    (100, None),
    (384, "dimensionality.volume.note.minilm"),
    (512, "dimensionality.volume.note.base"),
    (50_000, "dimensionality.volume.note.vocab"),
)
HISTOGRAM_DIMENSIONS = (2, 100, DEFAULT_DIMENSIONS[-1])


def _share_text(value: float) -> str:
    """0.9025, 0.0123, 2.79e-09, 0: readable at every scale the shares take."""
    if value == 0:
        return "0"
    return f"{value:.4f}" if value >= 1e-3 else f"{value:.3g}"


def _inner_text(eps: float, d: int) -> str:
    """(1 − ε)^d as ``_share_text`` writes it, and where float64 underflows to 0 (0.95^50,000)
    the same number from its logarithm, 10^(d·log10(1 − ε)): tiny, not 0."""
    value = float(inner_cube_share(eps, d))
    if value > 0 or eps >= 1:
        return _share_text(value)
    exponent = d * math.log10(1.0 - eps)
    whole = math.floor(exponent)
    return f"{10 ** (exponent - whole):.3g}e{whole}"


def _volume() -> None:
    st.header(t("dimensionality.volume.title"), divider="gray")
    st.markdown(t("dimensionality.volume.body"))
    st.latex(
        r"\frac{\operatorname{vol}\big([\tfrac{\varepsilon}{2}, 1-\tfrac{\varepsilon}{2}]^d\big)}"
        r"{\operatorname{vol}\big([0,1]^d\big)} = (1-\varepsilon)^d,\qquad "
        + tex_words(t("dimensionality.tex.boundary"))
        + r" 1-(1-\varepsilon)^d \xrightarrow[d\to\infty]{} 1"
    )
    links.linked(EPS_KEY, DEFAULT_EPS, links.Span(0.01, 0.5, 0.01))
    eps = st.slider(
        t("dimensionality.volume.eps"),
        min_value=0.01,
        max_value=0.5,
        value=DEFAULT_EPS,
        step=0.01,
        key=EPS_KEY,
        help=t("dimensionality.volume.eps_help"),
    )
    inside_label, shell_label = t("dimensionality.volume.inside"), t("dimensionality.volume.shell")
    left, right = st.columns([3, 2], gap="large")
    with left:
        inside = inner_cube_share(eps, CURVE_DIMENSIONS)
        frame = pd.concat(
            [
                pd.DataFrame({"d": CURVE_DIMENSIONS, "part": inside_label, "share": inside}),
                pd.DataFrame({"d": CURVE_DIMENSIONS, "part": shell_label, "share": 1 - inside}),
            ]
        )
        frame["order"] = (frame["part"] == shell_label).astype(int)
        # MiniLM's and the original Transformer's d_model, labelled at two heights (pixels from
        # the top) so the close pair stays readable.
        marks = pd.DataFrame({"d": [384, 512], "label": ["384", "512"], "y": [10, 26]})
        st.vega_lite_chart(
            chart_spec(
                charts_dimensionality.volume_shares,
                frame,
                d_title=t("dimensionality.volume.chart_d"),
                share_title=t("dimensionality.volume.chart_share"),
                part_title=t("dimensionality.volume.chart_part"),
                part_order=[inside_label, shell_label],
                marks=marks,
            ),
            width="stretch",
        )
    with right:
        d_half = half_shell_dimension(eps)
        st.markdown(t("dimensionality.volume.half", d_half=f"{d_half:.1f}"))
        st.latex(
            rf"d_{{1/2}} = \frac{{\ln(1/2)}}{{\ln(1-\varepsilon)}} = "
            rf"\frac{{\ln 0.5}}{{\ln {1 - eps:.2f}}} \approx {d_half:.1f}"
        )
        inner = power_of_ten(_share_text(float(inner_cube_share(eps, 384))))
        st.latex(rf"(1-{eps:.2f})^{{384}} \approx {inner}")
    # full width: in the right-hand column its note column was cut off
    st.dataframe(
        pd.DataFrame(
            {
                t("dimensionality.volume.col_d"): [f"{d:,}" for d, _ in TABLE_DIMENSIONS],
                t("dimensionality.volume.col_inside"): [
                    _inner_text(eps, d) for d, _ in TABLE_DIMENSIONS
                ],
                t("dimensionality.volume.col_shell"): [
                    _share_text(float(shell_share(eps, d))) for d, _ in TABLE_DIMENSIONS
                ],
                t("dimensionality.volume.col_note"): [
                    t(note) if note else "" for _, note in TABLE_DIMENSIONS
                ],
            }
        ),
        hide_index=True,
        width="stretch",
        height="content",  # every row: the text below quotes them
        column_config={
            t("dimensionality.volume.col_shell"): st.column_config.TextColumn(width="medium"),
            t("dimensionality.volume.col_note"): st.column_config.TextColumn(width="large"),
        },
    )


@st.cache_data(show_spinner=False, max_entries=256)
def _contrast_row(d: int, n_points: int, seed: int) -> ContrastRow:
    return contrast_at(d, n_points, seed)


@st.cache_data(show_spinner=False, max_entries=64)
def _histogram(d: int, n_points: int, seed: int) -> pd.DataFrame:
    centres, density = distance_histogram(n_points, d, seed)
    return pd.DataFrame({"x": centres, "density": density, "d": f"{d:,}"})


def _concentration() -> None:
    st.header(t("dimensionality.contrast.title"), divider="gray")
    st.markdown(t("dimensionality.contrast.body"))
    st.latex(
        r"\mathrm{RC} = \frac{D_{\max} - D_{\min}}{D_{\min}},\qquad "
        r"D_{\max} = \max_{j\neq i}\lVert\boldsymbol{p}_i-\boldsymbol{p}_j\rVert,\;"
        r"D_{\min} = \min_{j\neq i}\lVert\boldsymbol{p}_i-\boldsymbol{p}_j\rVert"
    )
    c1, c2 = st.columns(2)
    n_points = c1.slider(
        t("dimensionality.contrast.points"),
        min_value=50,
        max_value=MAX_POINTS,
        value=DEFAULT_POINTS,
        step=50,
        key=POINTS_KEY,
        help=t("dimensionality.contrast.points_help"),
    )
    seed = int(
        c2.number_input(
            t("dimensionality.contrast.seed"),
            min_value=0,
            max_value=1_000_000,
            value=DEFAULT_SEED,
            step=1,
            key=SEED_KEY,
            help=t("dimensionality.contrast.seed_help"),
        )
    )
    total = len(DEFAULT_DIMENSIONS)
    progress = st.progress(
        0.0,
        text=t("dimensionality.contrast.progress", d=DEFAULT_DIMENSIONS[0], done=0, total=total),
    )
    rows = []
    for done, d in enumerate(DEFAULT_DIMENSIONS, start=1):
        with heavy_work():
            rows.append(_contrast_row(d, n_points, seed))
        progress.progress(
            done / total,
            text=t("dimensionality.contrast.progress", d=f"{d:,}", done=done, total=total),
        )
    progress.progress(1.0, text=t("dimensionality.contrast.done", total=total))

    low, high = rows[0], rows[-1]
    m1, m2 = st.columns(2)
    m1.metric(
        t("dimensionality.contrast.metric", d=f"{low.d:,}"), f"{1 + low.contrast_median:,.1f}×"
    )
    m2.metric(
        t("dimensionality.contrast.metric", d=f"{high.d:,}"), f"{1 + high.contrast_median:,.3f}×"
    )
    left, right = st.columns(2, gap="large")
    with left:
        st.vega_lite_chart(
            chart_spec(
                charts_dimensionality.contrast_curve,
                pd.DataFrame(
                    {
                        "d": [r.d for r in rows],
                        "median": [r.contrast_median for r in rows],
                        "low": [r.contrast_min for r in rows],
                        "high": [r.contrast_max for r in rows],
                    }
                ),
                d_title=t("dimensionality.contrast.chart_d"),
                contrast_title=t("dimensionality.contrast.chart_rc"),
            ),
            width="stretch",
        )
        st.caption(t("dimensionality.contrast.chart_band"))
    with right:
        st.markdown("**" + t("dimensionality.hist.title") + "**")
        st.vega_lite_chart(
            chart_spec(
                charts_dimensionality.distance_densities,
                pd.concat([_histogram(d, n_points, seed) for d in HISTOGRAM_DIMENSIONS]),
                x_title=t("dimensionality.hist.chart_x"),
                y_title=t("dimensionality.hist.chart_y"),
                d_title=t("dimensionality.hist.chart_d"),
            ),
            width="stretch",
        )
        st.caption(t("dimensionality.hist.body"))
    st.dataframe(
        pd.DataFrame(
            {
                t("dimensionality.contrast.col_d"): [r.d for r in rows],
                t("dimensionality.contrast.col_median"): [r.contrast_median for r in rows],
                t("dimensionality.contrast.col_min"): [r.contrast_min for r in rows],
                t("dimensionality.contrast.col_max"): [r.contrast_max for r in rows],
                t("dimensionality.contrast.col_distance"): [r.distance_mean for r in rows],
                t("dimensionality.contrast.col_spread"): [r.spread for r in rows],
            }
        ),
        hide_index=True,
        width="stretch",
        height="content",  # every row: the metrics above quote the largest d
        column_config={
            t(key): st.column_config.NumberColumn(format="%.3f")
            for key in (
                "dimensionality.contrast.col_median",
                "dimensionality.contrast.col_min",
                "dimensionality.contrast.col_max",
                "dimensionality.contrast.col_distance",
                "dimensionality.contrast.col_spread",
            )
        },
    )
    st.caption(t("dimensionality.contrast.computed", points=n_points, seed=seed))


def _sentence(trace: Trace, backend_label: str) -> None:
    st.header(t("dimensionality.sentence.title"), divider="gray")
    st.markdown(t("dimensionality.sentence.body"))
    distinct = first_occurrences(trace.tokens)
    if len(distinct) < 3:
        st.info(t("dimensionality.sentence.few"))
        return
    rows = []
    for label, vectors in (
        ("dimensionality.sentence.one_hot", trace.one_hot[distinct]),  # (m, |V|), from the backend
        (
            "dimensionality.sentence.embedding",
            trace.embeddings[distinct],
        ),  # (m, d_model), looked up
    ):
        distances = pairwise_distances(vectors)
        pairs = distances[np.triu_indices(len(distinct), k=1)]
        rows.append(
            {
                t("dimensionality.sentence.col_space"): t(label),
                t("dimensionality.sentence.col_dims"): f"{vectors.shape[1]:,}",
                t("dimensionality.sentence.col_min"): f"{pairs.min():.4f}",
                t("dimensionality.sentence.col_max"): f"{pairs.max():.4f}",
                t("dimensionality.sentence.col_contrast"): f"{set_contrast(vectors):.4f}",
            }
        )
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.latex(
        r"\lVert\boldsymbol{x}_a-\boldsymbol{x}_b\rVert = \sqrt{1^2 + (-1)^2} = \sqrt{2}"
        r"\approx 1.4142\quad(a \neq b)"
    )
    st.caption(t("dimensionality.sentence.note", backend=backend_label, m=len(distinct)))


def render() -> None:
    name = page_start("dimensionality.title")  # the volume and the concentration need no backend
    st.markdown(t("dimensionality.intro"))
    _volume()
    _concentration()
    if name is not None:
        text, config = current_sentence(), ToyConfig()
        run_on = toy_backend(name, config, [text])
        trace = toy_trace_or_none(text, config, run_on)
        if trace is not None:
            _sentence(trace, t(f"backend.{run_on}"))
    st.header(t("dimensionality.meaning.title"), divider="gray")
    st.markdown(t("dimensionality.meaning.body"))
    st.info(t("dimensionality.methods"), icon=":material/lightbulb:")
    solved_and_hurts(t("dimensionality.solved"), t("dimensionality.hurts"))


render()
