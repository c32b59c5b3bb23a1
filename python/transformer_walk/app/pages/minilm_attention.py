"""MiniLM attention: what a trained 6-layer, 12-head encoder attends to in the sidebar's sentence.

Renders ``MiniLM.run(text).attentions`` [6, 12, n, n] (``caches``) and what
``views.minilm`` derives from it (rows without [CLS]/[SEP], heads ranked for a query → target
pair). Holds no math.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import charts
from transformer_walk.app.charts import minilm as charts_minilm
from transformer_walk.app.i18n import t
from transformer_walk.app.model_widgets import run_or_none
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views import minilm as views
from transformer_walk.app.views.labels import token_labels
from transformer_walk.app.widgets import (
    forget_picks_of_another_sentence,
    page_start,
    pick,
    solved_and_hurts,
    token_window,
)
from transformer_walk.models.minilm import CONFIG, EncoderOutput

HIDE_KEY = "mla_hide_specials"
WINDOW_KEY = "mla_window"
LAYER_KEY = "mla_layer"
HEAD_KEY = "mla_head"
VIEW_QUERY_KEY = "mla_view_query"
QUERY_KEY = "mla_query"
TARGET_KEYS = ("mla_target_a", "mla_target_b")
PICKS_FOR_KEY = "mla_picks_for"  # the tokens the picks were made for
MAX_GRID = 40  # tokens per side of the 6 × 12 grid (and of the enlarged head and head view)
TOP_HEADS = 5


def _forget_picks_of_another_sentence(out: EncoderOutput) -> None:
    """A new sentence starts from its own defaults: its "his", its "tom" and "dog", and the head
    where its "his" attends most to its "tom"."""
    picked = (WINDOW_KEY, VIEW_QUERY_KEY, QUERY_KEY, *TARGET_KEYS)
    fresh = forget_picks_of_another_sentence(out.tokens, picked, PICKS_FOR_KEY)
    if not fresh and LAYER_KEY in st.session_state and HEAD_KEY in st.session_state:
        return  # (widget keys are dropped when the learner visits another page)
    query = views.default_query(out.tokens)
    target = views.default_target(out.tokens, query, views.DEFAULT_TARGETS[0])
    best = views.rank_heads(out.attentions, query, target, top=1)[0]
    st.session_state[LAYER_KEY] = best.layer + 1
    st.session_state[HEAD_KEY] = best.head + 1


def _view(out: EncoderOutput, hide: bool) -> tuple[np.ndarray, list[int]]:
    """The weights shown, [L, h, m, m], and the sentence positions of their m tokens."""
    if not hide:
        return out.attentions, list(range(out.n))
    weights, keep = views.without_specials(out.attentions, out.tokens)
    share = views.special_share(out.attentions, out.tokens)  # (L, h)
    st.info(
        t("mla.hidden_note", share=f"{share.mean():.0%}", top=f"{share.max():.0%}"),
        icon=":material/visibility_off:",
    )
    return weights, keep


def _overview(out: EncoderOutput) -> None:
    st.markdown(t("mla.intro"))
    m1, m2, m3, m4 = st.columns(4)
    m1.metric(t("mla.metric.n"), str(out.n))
    m2.metric(t("mla.metric.layers"), str(CONFIG.n_layers))
    m3.metric("h", str(CONFIG.h))
    m4.metric("d_k", str(CONFIG.d_k))
    st.caption(t("mla.tokens", tokens=" · ".join(out.tokens[: 2 * MAX_GRID])))


def _grid(
    weights: np.ndarray, labels: list[str], rows: tuple[int, int], out: EncoderOutput
) -> None:
    st.header(t("mla.grid.title"), divider="gray")
    st.markdown(t("mla.grid.body"))
    sinks = views.sink_heads(out.attentions, out.tokens)  # on the model's own weights
    heads = out.attentions.shape[0] * out.attentions.shape[1]
    st.markdown(t("mla.grid.sinks", cls=sinks["[CLS]"], sep=sinks["[SEP]"], heads=heads))
    start, stop = rows
    st.altair_chart(
        charts_minilm.head_grid(
            weights[:, :, start:stop, start:stop],
            labels[start:stop],
            layer_title=t("mla.axis.layer"),
            head_title=t("mla.axis.head"),
            query_title=t("mla.axis.query"),
            key_title=t("mla.axis.key"),
            value_title=t("mla.axis.weight"),
            selected=(st.session_state[LAYER_KEY] - 1, st.session_state[HEAD_KEY] - 1),
        ),
        width="content",
    )


def _enlarged(weights: np.ndarray, labels: list[str], rows: tuple[int, int]) -> None:
    st.header(t("mla.one.title"), divider="gray")
    left, right = st.columns(2)
    layer = left.selectbox(
        t("mla.axis.layer"), options=list(range(1, CONFIG.n_layers + 1)), key=LAYER_KEY
    )
    head = right.selectbox(t("mla.axis.head"), options=list(range(1, CONFIG.h + 1)), key=HEAD_KEY)
    start, stop = rows
    matrix = weights[layer - 1, head - 1, start:stop, start:stop]  # (m, m)
    st.vega_lite_chart(
        charts.heatmap(
            matrix,
            labels[start:stop],
            labels[start:stop],
            row_title=t("mla.axis.query"),
            col_title=t("mla.axis.key"),
            value_title=t("mla.axis.weight"),
            domain=(0.0, 1.0),
        ),
        width="content",
    )
    sums = weights[layer - 1, head - 1].sum(axis=-1)
    st.caption(
        t("mla.one.rows", layer=layer, head=head, low=f"{sums.min():.4f}", high=f"{sums.max():.4f}")
    )


def _head_view(
    out: EncoderOutput, weights: np.ndarray, positions: list[int], rows: tuple[int, int]
) -> None:
    st.header(t("mla.view.title"), divider="gray")
    st.markdown(t("mla.view.body"))
    layer, head = st.session_state[LAYER_KEY], st.session_state[HEAD_KEY]
    start, stop = rows
    shown = positions[start:stop]
    options = token_labels(out.tokens, shown)
    default = views.default_query(out.tokens)
    query = pick(
        t("mla.view.query"), VIEW_QUERY_KEY, options, default if default in options else shown[0]
    )
    i = positions.index(query)
    row = weights[layer - 1, head - 1, i, start:stop]  # (m,)
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.altair_chart(
            charts_minilm.head_view(
                [out.tokens[p] for p in shown],
                row,
                shown.index(query),
                weight_title=t("mla.axis.weight"),
                query_title=t("mla.axis.query"),
                key_title=t("mla.axis.key"),
            ),
            width="content",
        )
    with right:
        best = int(np.argmax(row))
        st.metric(
            t("mla.view.top", layer=layer, head=head, token=out.tokens[query]),
            f"{out.tokens[shown[best]]} · {row[best]:.3f}",
        )
        st.dataframe(
            pd.DataFrame(
                {t("mla.axis.key"): [out.tokens[p] for p in shown], t("mla.axis.weight"): row}
            ),
            column_config={
                t("mla.axis.weight"): st.column_config.ProgressColumn(
                    format="%.3f", min_value=0.0, max_value=1.0
                )
            },
            hide_index=True,
            height=min(420, 38 + 35 * len(shown)),
        )


def _ranking(out: EncoderOutput, weights: np.ndarray, positions: list[int]) -> None:
    st.header(t("mla.rank.title"), divider="gray")
    st.markdown(t("mla.rank.body"))
    options = token_labels(out.tokens, positions)
    default_query = views.default_query(out.tokens)
    cols = st.columns(3)
    with cols[0]:
        query = pick(
            t("mla.rank.query"),
            QUERY_KEY,
            options,
            default_query if default_query in options else positions[0],
        )
    targets: list[int] = []
    for col, key, preferred, label in zip(
        cols[1:],
        TARGET_KEYS,
        views.DEFAULT_TARGETS,
        (t("mla.rank.target_a"), t("mla.rank.target_b")),
        strict=True,
    ):
        default = views.default_target(out.tokens, query, preferred, taken=targets)
        with col:
            targets.append(
                pick(label, key, options, default if default in options else positions[0])
            )
    i = positions.index(query)
    baseline = views.uniform_weight(len(positions))
    for target, column in zip(targets, st.columns(2, gap="large"), strict=True):
        j = positions.index(target)
        ranked = views.rank_heads(weights, i, j, top=TOP_HEADS)
        best = ranked[0]
        with column:
            st.subheader(t("mla.rank.pair", query=out.tokens[query], target=out.tokens[target]))
            st.metric(
                t("mla.rank.best", query=out.tokens[query], target=out.tokens[target]),
                t(
                    "mla.rank.best_value",
                    layer=best.layer + 1,
                    head=best.head + 1,
                    weight=f"{best.weight:.3f}",
                ),
            )
            st.dataframe(
                pd.DataFrame(
                    {
                        t("mla.rank.col.layer"): [r.layer + 1 for r in ranked],
                        t("mla.rank.col.head"): [r.head + 1 for r in ranked],
                        t("mla.rank.col.weight"): [r.weight for r in ranked],
                        t("mla.rank.col.top"): [out.tokens[positions[r.top_key]] for r in ranked],
                    },
                    index=pd.Index(range(1, len(ranked) + 1), name=t("mla.rank.col.rank")),
                ),
                column_config={
                    t("mla.rank.col.weight"): st.column_config.NumberColumn(format="%.3f")
                },
            )
            shown = positions if len(positions) <= MAX_GRID else positions[:MAX_GRID]
            st.vega_lite_chart(
                charts.heatmap(
                    views.head_rows(weights, i, ranked)[:, : len(shown)],
                    [r.label for r in ranked],
                    list(token_labels(out.tokens, shown).values()),
                    row_title=t("mla.axis.head"),
                    col_title=t("mla.axis.key"),
                    value_title=t("mla.axis.weight"),
                    domain=(0.0, 1.0),
                    width=charts.HALF,
                ),
                width="content",
            )
    st.caption(t("mla.rank.baseline", m=len(positions), uniform=f"{baseline:.3f}"))
    st.warning(t("mla.caveat"), icon=":material/psychology_alt:")


def render() -> None:
    name = page_start("mla.title", caption="minilm.computed_with")
    if name is None:
        return
    out = run_or_none(current_sentence(), name)
    if out is None:
        return
    if not views.has_content(out.tokens):
        st.info(t("common.empty_text"), icon=":material/edit_note:")
        return
    _forget_picks_of_another_sentence(out)
    _overview(out)
    hide = st.toggle(t("mla.hide"), key=HIDE_KEY, help=t("mla.hide_help"))
    weights, positions = _view(out, hide)
    labels = list(token_labels(out.tokens, positions).values())  # "3 · his", as the pickers
    rows = token_window(
        len(positions), MAX_GRID, WINDOW_KEY, help_id="mla.window_help", note="mla.window_note"
    )
    _grid(weights, labels, rows, out)
    _enlarged(weights, labels, rows)
    _head_view(out, weights, positions, rows)
    _ranking(out, weights, positions)
    solved_and_hurts(t("mla.solved"), t("mla.hurts"))


render()
