"""Multi-head attention: h heads of width d_k = d_model / h, side by side, joined, mixed by W^O.

Renders the toy trace for the d_model and h picked here (``caches.toy_trace``) and what
``views.attention`` derives from it (shapes, checks, parameter counts). Holds no math.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import charts, links
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import grid
from transformer_walk.app.i18n import say, t
from transformer_walk.app.model_widgets import toy_backend, toy_trace_or_none
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.trained_toy import (
    PERCENT_CELL,
    TrainedReading,
    percent_cells,
    possessive_lines,
    render_switch,
    sentence_task,
)
from transformer_walk.app.views import attention as views
from transformer_walk.app.views import multi_head as mh_views
from transformer_walk.app.views.labels import markdown_table, tex_shape, token_axis, token_labels
from transformer_walk.app.widgets import (
    forget_picks_of_another_sentence,
    page_start,
    pick,
    solved_and_hurts,
    token_window,
)
from transformer_walk.models.toy import ToyConfig, Trace
from transformer_walk.topics.attention_picks import default_query
from transformer_walk.topics.learning.name_head import NameHeadSettings
from transformer_walk.topics.learning.name_head_claims import head_label, heads_on_name_claim

D_MODEL_KEY = "mh_d_model"
H_KEY = "mh_h"
WINDOW_KEY = "mh_window"
QUERY_KEY = "mh_query"
PICKS_FOR_KEY = "mh_picks_for"  # the tokens the token picks were made for
TRAINED_KEY = "mh_model"  # random weights or the toy trained on the possessive task
MAX_SHOWN = 12  # tokens per side of each small heatmap
MAX_ROW_KEYS = 48  # keys of the one-query strip drawn whole (at full width, ~14-px cells)
GRID_COLUMNS = 3  # heads per row of the side-by-side grid: each keeps its legend in view
WRAP_COLUMNS = 32  # columns per piece of a wide [n, d_model] matrix (23-px cells at full width)
LEGIBLE_CELL = 12  # px: the smallest cell whose row and column labels still read (9-px font)
DIAGRAM_HEADS = 4  # head outputs drawn in the concat diagram (the rest are summarised)


def _intro() -> None:
    st.markdown(t("multi_head.intro"))
    st.latex(
        r"\operatorname{head}_i = \operatorname{Attention}(XW_i^Q,\ XW_i^K,\ XW_i^V),"
        r"\quad i = 1, \ldots, h"
    )
    st.latex(
        r"\operatorname{MultiHead}(X) = \operatorname{Concat}(\operatorname{head}_1, \ldots, "
        r"\operatorname{head}_h)\,W^O,\qquad d_k = d_v = \frac{d_{\text{model}}}{h}"
    )


def _sizes() -> tuple[int, int, int]:
    """The sliders; returns (d_model, h asked for, h used). An h that does not divide d_model
    gets a friendly message and the nearest valid h is shown instead."""
    links.linked(D_MODEL_KEY, ToyConfig.d_model, range(views.D_MODEL_MIN, views.D_MODEL_MAX + 1))
    links.linked(H_KEY, ToyConfig.h, range(1, views.H_MAX + 1))
    st.session_state.setdefault(D_MODEL_KEY, ToyConfig.d_model)
    st.session_state.setdefault(H_KEY, ToyConfig.h)
    left, right = st.columns(2)
    with left:
        d_model = st.slider(
            "d_model",
            min_value=views.D_MODEL_MIN,
            max_value=views.D_MODEL_MAX,
            key=D_MODEL_KEY,
            help=t("multi_head.d_model_help"),
        )
    with right:
        h = st.slider(
            "h", min_value=1, max_value=views.H_MAX, key=H_KEY, help=t("multi_head.h_help")
        )
    valid = views.valid_head_counts(d_model)
    used = h if h in valid else views.closest_valid_head_count(d_model, h)
    if used != h:
        st.warning(
            t(
                "multi_head.invalid",
                h=h,
                d_model=d_model,
                ratio=f"{d_model / h:.2f}",
                valid=", ".join(str(v) for v in valid),
                used=used,
            ),
            icon=":material/block:",
        )
    return d_model, h, used


def _window(n: int) -> tuple[int, int]:
    return token_window(
        n, MAX_SHOWN, WINDOW_KEY, help_id="multi_head.window_help", note="multi_head.window_note"
    )


def _overview(trace: Trace) -> None:
    cfg = trace.config
    m1, m2, m3, m4 = st.columns(4)
    m1.metric("d_model", str(cfg.d_model))
    m2.metric("h", str(cfg.h))
    m3.metric("d_k = d_model / h", str(cfg.d_k))
    m4.metric(t("multi_head.n"), str(trace.n))
    st.latex(
        rf"d_k = \frac{{d_{{\text{{model}}}}}}{{h}} = \frac{{{cfg.d_model}}}{{{cfg.h}}} = {cfg.d_k}"
    )


def _heads_side_by_side(trace: Trace, rows: tuple[int, int]) -> None:
    st.header(t("multi_head.heads.title"), divider="gray")
    st.markdown(t("multi_head.heads.body"))
    start, stop = rows
    tokens = token_axis(trace.tokens, start, stop)
    weights = views.layer_weights(trace)  # (h, n, n)
    # A window of a long sentence holds a small share of each row: the colours spread over the
    # largest weight shown instead of over [0, 1], one scale for every head so they compare.
    if (start, stop) == (0, trace.n):
        domain = (0.0, 1.0)
    else:
        domain = (0.0, float(weights[:, start:stop, start:stop].max()) or 1.0)
    per_row = min(GRID_COLUMNS, trace.config.h)  # 2 heads: two halves, not two thirds
    for first in range(0, trace.config.h, per_row):
        cols = st.columns(per_row)
        for col, head in zip(
            cols, range(first, min(first + per_row, trace.config.h)), strict=False
        ):  # the last row may be short
            with col:
                st.markdown(t("multi_head.head_label", number=head + 1))
                st.vega_lite_chart(
                    chart_spec(
                        charts.heatmap,
                        weights[head, start:stop, start:stop],
                        tokens,
                        tokens,
                        row_title=t("multi_head.axis.query"),
                        col_title=t("multi_head.axis.key"),
                        value_title="αᵢⱼ",
                        domain=domain,
                        width=charts.FULL // per_row,
                    ),
                    width="content",
                )


def _one_token_many_heads(trace: Trace, keys: tuple[int, int]) -> None:
    st.header(t("multi_head.his.title"), divider="gray")
    st.markdown(t("multi_head.his.body"))
    i = pick(
        t("multi_head.his.pick"),
        QUERY_KEY,
        token_labels(trace.tokens),
        default_query(trace.tokens),
        linked=True,
    )
    if mh_views.shows_running_example(trace.tokens, i):
        st.markdown(t("multi_head.his.example"))
    rows = views.query_rows_by_head(trace, i)  # (h, n)
    head_names = [t("multi_head.head_label", number=k + 1) for k in range(trace.config.h)]
    # the whole row while it fits the page, so each head's largest weight is in the picture
    start, stop = (0, trace.n) if trace.n <= MAX_ROW_KEYS else keys
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap,
            rows[:, start:stop],
            head_names,
            token_axis(trace.tokens, start, stop),
            row_title=t("multi_head.axis.head"),
            col_title=t("multi_head.axis.key"),
            value_title=t("multi_head.his.weight", token=token_labels(trace.tokens, [i])[i]),
            # 0 to the largest weight shown, not to 1: over 40 keys the weights stay under 0.25
            # and a 0–1 scale left the row nearly white
        ),
        width="content",
    )
    st.dataframe(
        pd.DataFrame(
            {
                t("multi_head.his.col.top"): [
                    say(mh_views.head_top(r, trace.tokens), markdown=False) for r in rows
                ],
                t("multi_head.his.col.weight"): [float(r.max()) for r in rows],
            },
            index=pd.Index(head_names, name=t("multi_head.axis.head")),
        ),
        column_config={
            t("multi_head.his.col.weight"): st.column_config.NumberColumn(format="%.3f")
        },
    )
    if (split := say(mh_views.heads_split(rows, trace.tokens, i))) is not None:
        st.markdown(split)
    st.info(t("multi_head.his.random"), icon=":material/casino:")


def _trained_section() -> None:
    st.header(t("multi_head.trained.title"), divider="gray")
    config = NameHeadSettings().config  # the sizes the trained toy is trained at
    words = sentence_task().vocab_size - 1  # the padding token is no word
    st.markdown(
        t(
            "multi_head.trained.body",
            layers=config.layers,
            h=config.h,
            d_model=config.d_model,
            d_k=config.d_k,
            words=words,
        )
    )
    render_switch(TRAINED_KEY, _trained_heads)


def _head_grid(labels: Sequence[str], per_row: int, texts: Sequence[str] | None) -> grid.Grid:
    """The layout of one head's matrix with ``per_row`` heads side by side, printing ``texts``
    (percents, in cells up to ``PERCENT_CELL``) or, with None, no numbers."""
    return grid.grid_for(
        len(labels), len(labels), width=charts.FULL // per_row, row_labels=labels,
        col_labels=labels, values=texts or (), row_title=t("multi_head.axis.query"),
        max_cell=PERCENT_CELL if texts is not None else grid.MAX_CELL,
    )  # fmt: skip


def _texts_print(labels: Sequence[str], per_row: int, texts: Sequence[Sequence[str]]) -> bool:
    """Whether every head's cell texts print with ``per_row`` heads side by side."""
    return all(_head_grid(labels, per_row, v).value_font for v in texts)


def _heads_per_row(labels: Sequence[str], h: int, texts: Sequence[Sequence[str]] = ()) -> int:
    """As many of a layer's h heads side by side as keep the matrices' cells legible: all four
    for "tom loves his dog", two for a sentence of ten words (four of them had 9-px cells).
    With ``texts`` (each head's cell texts), the most heads a row at which every head's texts
    still print, when some choice does: four trained heads side by side had 26-px cells, too
    narrow for ">99.9%", and showed none of their numbers."""
    sample = texts[0] if texts else None
    legible = [
        p
        for p in dict.fromkeys((h, min(h, 2)))
        if _head_grid(labels, p, sample).cell >= LEGIBLE_CELL
    ]
    printed = [p for p in legible if texts and _texts_print(labels, p, texts)]
    return (printed or legible or [1])[0]


def _trained_heads(found: TrainedReading) -> None:
    """Every head of every layer of the trained toy on the learner's sentence, the possessive
    query's row in each, and which heads look at the name."""
    matrices = found.reading.matrices  # [layers, h, n, n]
    layers, h = matrices.shape[:2]
    labels = found.labels
    st.markdown(t("multi_head.trained.reads", sentence=" ".join(found.sentence.tokens)))
    each = [percent_cells(m) for m in matrices.reshape(-1, *matrices.shape[2:])]
    per_row = _heads_per_row(labels, h, each)  # [layers, h, n, n] → [layers·h, n, n] above
    if not _texts_print(labels, per_row, each):  # a long sentence: cells too small for "99.9%"
        st.caption(t("multi_head.trained.hover", n=len(labels)))
    for layer in range(layers):
        st.markdown(f"**{t('multi_head.trained.layer', layer=layer + 1)}**")
        for first in range(0, h, per_row):
            cols = st.columns(per_row)
            for col, head in zip(cols, range(first, min(first + per_row, h)), strict=False):
                with col:
                    st.markdown(head_label(layer, head))
                    st.vega_lite_chart(
                        chart_spec(
                            charts.heatmap, matrices[layer, head], labels, labels,
                            row_title=t("multi_head.axis.query"),
                            col_title=t("multi_head.axis.key"),
                            value_title="αᵢⱼ", fmt=".0%", domain=(0.0, 1.0),
                            width=charts.FULL // per_row, max_cell=PERCENT_CELL,
                            texts=percent_cells(matrices[layer, head]),
                        ),
                        width="content",
                    )  # fmt: skip
    st.markdown(t("multi_head.trained.row", possessive=found.possessive, query=found.query))
    # every head's row from the query, over the keys it may see: [layers, h, n] → [layers·h, k]
    rows = found.reading.weights[..., : found.visible].reshape(layers * h, found.visible)
    heads = [head_label(layer, head) for layer in range(layers) for head in range(h)]
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap, rows, heads, labels[: found.visible],
            row_title=t("multi_head.axis.head"), col_title=t("multi_head.axis.key"),
            value_title=t("multi_head.his.weight", token=found.query), fmt=".0%",
            domain=(0.0, 1.0), texts=percent_cells(rows), max_cell=PERCENT_CELL,
        ),
        width="content",
    )  # fmt: skip
    possessive_lines(found)
    on_name = found.reading.weights[..., found.sentence.name_position]  # [layers, h]
    said = say(heads_on_name_claim(on_name, found.query, found.name, found.visible))
    if said is not None:
        st.markdown(said)
    st.warning(t("multi_head.trained.caveat"), icon=":material/psychology_alt:")


def _legible_at_half(d_model: int) -> bool:
    """Whether a d_model-wide matrix drawn in half the page keeps cells of ``LEGIBLE_CELL`` px:
    at d_model 64 a half-width [n, 64] output was a strip of 4-px cells with unreadable labels."""
    labels = [str(c + 1) for c in range(d_model)]
    layout = grid.grid_for(d_model, d_model, width=charts.HALF, row_labels=labels)
    return layout.cell >= LEGIBLE_CELL


def _wide_rows(
    values: np.ndarray,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    title: str,
    col_title: str,
) -> None:
    """A few token rows over many columns ([n, d_model]) at the page's width, wrapped every
    ``WRAP_COLUMNS`` columns: in one piece a [4, 64] matrix was a strip 44 px tall with 7-px
    labels. The pieces share one colour scale, so a colour means one value in all of them."""
    st.markdown(title)
    colours = grid.colours_for(values)
    width = values.shape[1]
    for first in range(0, width, WRAP_COLUMNS):
        last = min(first + WRAP_COLUMNS, width)
        if width > WRAP_COLUMNS:
            st.caption(t("multi_head.concat.columns", first=first + 1, last=last))
        st.vega_lite_chart(
            chart_spec(
                charts.heatmap,
                values[:, first:last],
                row_labels,
                col_labels[first:last],
                row_title="",
                col_title=col_title,
                value_title=t("multi_head.value"),
                domain=colours.domain,
            ),
            width="content",
        )


def _concat(trace: Trace, w_o: np.ndarray, rows: tuple[int, int]) -> None:  # w_o: [d, d]
    st.header(t("multi_head.concat.title"), divider="gray")
    st.markdown(t("multi_head.concat.body"))
    cfg, block = trace.config, trace.blocks[0]
    shapes = views.HeadShapes(trace.n, cfg.d_model, cfg.h)
    st.latex(
        rf"{cfg.h} \times {tex_shape(shapes.head)} \xrightarrow{{\operatorname{{Concat}}}} "
        rf"{tex_shape(shapes.concat)} \xrightarrow{{\,\cdot\, W^O {tex_shape(shapes.w_o)}\,}} "
        rf"{tex_shape(shapes.out)}"
    )
    start, stop = rows
    tokens = token_axis(trace.tokens, start, stop)

    def matrix(
        values: np.ndarray,
        row_labels: Sequence[str],
        col_labels: Sequence[str],
        title: str,
        col_title: str,
        width: int = charts.FULL,
    ) -> None:
        st.markdown(title)
        st.vega_lite_chart(
            chart_spec(
                charts.heatmap,
                values,
                row_labels,
                col_labels,
                row_title="",
                col_title=col_title,
                value_title=t("multi_head.value"),
                width=width,
            ),
            width="content",
        )

    feature = [str(c + 1) for c in range(cfg.d_k)]
    shown = list(range(min(cfg.h, DIAGRAM_HEADS)))
    cols = st.columns(len(shown) + (1 if cfg.h > len(shown) else 0))
    for col, head in zip(cols, shown, strict=False):  # one more column for the rest
        with col:
            matrix(
                block.head_out[head, start:stop],
                tokens,
                feature,
                rf"$\operatorname{{head}}_{{{head + 1}}}\ {tex_shape(shapes.head)}$",
                "d_k",
                charts.FULL // len(cols),
            )
    if cfg.h > len(shown):
        cols[-1].caption(t("multi_head.concat.more", more=cfg.h - len(shown)))

    concat_cols = [f"h{c // cfg.d_k + 1}·{c % cfg.d_k + 1}" for c in range(cfg.d_model)]
    _wide_rows(
        block.concat[start:stop],
        tokens,
        concat_cols,
        rf"$\operatorname{{Concat}}\ {tex_shape(shapes.concat)}$",
        t("multi_head.concat.cols"),
    )
    model_cols = [str(c + 1) for c in range(cfg.d_model)]
    w_o_title = rf"$W^O\ {tex_shape(shapes.w_o)}$"
    out_title = rf"$\operatorname{{Concat}}(\ldots)\,W^O\ {tex_shape(shapes.out)}$"
    if _legible_at_half(cfg.d_model):
        left, right = st.columns(2)
        with left:
            matrix(w_o, model_cols, model_cols, w_o_title, "d_model", charts.HALF)
        with right:
            out = block.attn_out[start:stop]
            matrix(out, tokens, model_cols, out_title, "d_model", charts.HALF)
    else:  # a wide model: each at full width, the output under the concat it came from
        _wide_rows(block.attn_out[start:stop], tokens, model_cols, out_title, "d_model")
        matrix(w_o, model_cols, model_cols, w_o_title, "d_model")
    check = mh_views.concat_check(
        views.concat_difference(trace), views.output_difference(trace, w_o)
    )
    if check is not None and (said := say(check)) is not None:
        box = st.success if check.message == "multi_head.concat.check" else st.warning
        box(said, icon=":material/rule:")
    st.caption(t("multi_head.concat.not_sentences"))


def _base_configuration(trace: Trace) -> None:
    st.header(t("multi_head.base.title"), divider="gray")
    st.markdown(t("multi_head.base.body"))
    d_model, n = trace.config.d_model, trace.n
    base = views.ProjectionParameters(views.BASE_D_MODEL, views.BASE_H)
    st.table(
        pd.DataFrame(
            {
                "d_model": [views.BASE_D_MODEL, 1024, d_model],
                "h": [views.BASE_H, 16, trace.config.h],
                "d_k": [base.d_k, 1024 // 16, trace.config.d_k],
                "4 · d_model²": [
                    f"{views.attention_parameters(v):,}"
                    for v in (views.BASE_D_MODEL, 1024, d_model)
                ],
            },
            index=pd.Index(
                [
                    t("multi_head.base.row.base"),
                    t("multi_head.base.row.big"),
                    t("multi_head.base.row.toy"),
                ],
                name=t("multi_head.base.row"),
            ),
        )
    )
    st.latex(
        rf"X \in \mathbb{{R}}^{{n \times d_{{\text{{model}}}}}}:\quad "
        rf"n = {n},\ d_{{\text{{model}}}} = {views.BASE_D_MODEL} \Rightarrow "
        rf"X \in \mathbb{{R}}^{{{n} \times {views.BASE_D_MODEL}}}"
    )
    st.info(t("multi_head.base.not_length", n=n), icon=":material/straighten:")

    st.subheader(t("multi_head.params.title"))
    st.markdown(t("multi_head.params.body"))
    mine = views.ProjectionParameters(d_model, trace.config.h)
    st.latex(
        rf"3 \cdot h \cdot (d_{{\text{{model}}}} \times d_k) + d_{{\text{{model}}}}^2 = "
        rf"3 \cdot {mine.h} \cdot {mine.per_head_matrix:,} + {mine.output:,} = "
        rf"{mine.total:,} = 4 \cdot {d_model}^2".replace(",", "{,}")  # KaTeX: 1{,}024
    )
    base_total = views.attention_parameters(views.BASE_D_MODEL)
    st.latex(rf"4 \cdot {views.BASE_D_MODEL}^2 = {base_total:,}".replace(",", "{,}"))
    rows = [
        [h, p.d_k, f"3 × {h} × {p.per_head_matrix:,}", f"{p.output:,}", f"{p.total:,}"]
        for h in views.valid_head_counts(d_model)
        for p in [views.ProjectionParameters(d_model, h)]
    ]
    header = ["$h$", "$d_k$", "$W_i^Q, W_i^K, W_i^V$", "$W^O$", t("multi_head.params.total")]
    st.markdown(markdown_table(header, rows))
    st.caption(t("multi_head.params.same", d_model=d_model))


def render() -> None:
    name = page_start("multi_head.title")
    if name is None:
        return
    _intro()
    d_model, _asked, h = _sizes()

    text = current_sentence()
    config = ToyConfig(d_model=d_model, h=h)
    run_on = toy_backend(name, config, [text])
    with st.spinner(t("multi_head.computing")):
        trace = toy_trace_or_none(text, config, run_on)
    if trace is None:
        return
    forget_picks_of_another_sentence(trace.tokens, (QUERY_KEY, WINDOW_KEY), PICKS_FOR_KEY)
    _overview(trace)
    rows = _window(trace.n)
    _heads_side_by_side(trace, rows)
    _one_token_many_heads(trace, rows)
    _trained_section()
    _concat(trace, trace.blocks[0].params.W_O, rows)
    _base_configuration(trace)
    solved_and_hurts(t("multi_head.solved"), t("multi_head.hurts"))


render()
