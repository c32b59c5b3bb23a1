"""Positions: the sinusoidal PE matrix and its numbers for the sentence, the shuffled-words
experiment (permutation equivariance without positions, broken with them), MiniLM's learned position
embeddings. Renders toy traces (``caches.toy_trace``) and what ``topics.positions`` derives."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import links
from transformer_walk.app.caches import toy_trace
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import grid
from transformer_walk.app.charts import positions as charts
from transformer_walk.app.i18n import markdown_literal, say, t
from transformer_walk.app.model_widgets import minilm_model, toy_backend, toy_trace_or_none
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views import positions as views
from transformer_walk.app.views.labels import difference_label, token_labels
from transformer_walk.app.views.latex import scientific, tex_words
from transformer_walk.app.widgets import page_start, pick, solved_and_hurts, token_index
from transformer_walk.models.toy import (
    EmptyInputError,
    ToyConfig,
    Trace,
    positional_encoding,
    tokenize,
)
from transformer_walk.topics import positions as pos
from transformer_walk.topics.claims import token_label

PE_D_MODEL_KEY = "pos_pe_d_model"
PE_POSITIONS_KEY = "pos_pe_positions"
TOKEN_KEY = "pos_token"
SHUFFLE_KEY = "pos_shuffle_seed"
LEARNED_KEY = "pos_learned_positions"
PE_D_MODELS = [8, 16, 32, 64, 128]
MAX_TABLE_ROWS = 12  # PE rows of the sentence printed as numbers
MAX_LISTED = 20  # tokens listed in the shuffled order
MINILM_D_MODEL = 384
#: The box each verdict on the shuffle is shown in: a check that held, a plain note, a warning.
BOXES = {
    "positions.shuffle.equivariant": st.success,
    "positions.shuffle.both_rounding": st.info,
    "positions.shuffle.not_equivariant": st.warning,
}


def _intro() -> None:
    st.markdown(t("positions.intro"))
    st.latex(rf"X = E_{{\text{{token}}}} + E_{{{tex_words(t('positions.tex.position'))}}}")


def _pe_matrix() -> None:
    st.header(t("positions.pe.title"), divider="gray")
    st.markdown(t("positions.pe.body"))
    st.latex(
        r"PE_{(pos,\,2i)} = \sin\!\left(\frac{pos}{10000^{2i/d_{\text{model}}}}\right),\qquad "
        r"PE_{(pos,\,2i+1)} = \cos\!\left(\frac{pos}{10000^{2i/d_{\text{model}}}}\right)"
    )
    links.linked(PE_D_MODEL_KEY, 64, PE_D_MODELS)
    left, right = st.columns(2)
    with left:
        d_model = st.select_slider("d_model", options=PE_D_MODELS, value=64, key=PE_D_MODEL_KEY)
    with right:
        count = st.slider(t("positions.pe.count"), 8, 100, 50, key=PE_POSITIONS_KEY)
    pe = positional_encoding(count, d_model)  # (count, d_model)
    st.vega_lite_chart(
        chart_spec(
            charts.index_heatmap,
            pe,
            row_title=t("positions.axis.pos"),
            col_title=t("positions.axis.dim"),
            value_title="PE",
        ),
        width="content",
    )
    fastest, slowest = pos.wavelength(0, d_model), pos.wavelength(d_model - 1, d_model)
    st.caption(
        t("positions.pe.waves", fast=f"{fastest:.2f}", slow=f"{slowest:,.0f}", d_model=d_model)
    )


def _sentence_numbers(trace: Trace) -> None:
    st.header(t("positions.numbers.title"), divider="gray")
    d = trace.config.d_model
    first = markdown_literal(trace.tokens[0])
    st.markdown(t("positions.numbers.body", n=trace.n, d_model=d, first=first))
    shown = min(trace.n, MAX_TABLE_ROWS)
    labels = token_labels(trace.tokens, range(shown), first=0)  # numbered by position, from 0
    index, token_config = token_index(list(labels.values()), t("positions.axis.pos"))
    columns = [f"{c} · {'sin' if c % 2 == 0 else 'cos'}" for c in range(d)]  # dimension · wave
    st.dataframe(
        pd.DataFrame(trace.positions[:shown], index=index, columns=columns),
        column_config={
            **token_config,
            **{c: st.column_config.NumberColumn(format="%.4f") for c in columns},
        },
    )
    if shown < trace.n:
        st.caption(t("positions.numbers.more", shown=shown, n=trace.n))

    default = min(2, shown - 1)  # "his"
    i = pick(t("positions.numbers.pick"), TOKEN_KEY, labels, default, linked=True)
    column = 2 if d > 2 else 0
    angle = pos.pe_angle(i, column, d)
    value = pos.pe_value(i, column, d)
    st.latex(
        rf"PE_{{({i},\,{column})}} = \sin\!\left(\frac{{{i}}}{{10000^{{{column}/{d}}}}}\right)"
        rf" = \sin({angle:.4f}) = {value:.4f}"
    )
    st.caption(t("positions.numbers.check", value=f"{trace.positions[i, column]:.4f}"))
    frame = pd.DataFrame(
        [trace.embeddings[i], trace.positions[i], trace.x0[i]],
        index=[t("positions.row.embedding"), t("positions.row.position"), t("positions.row.sum")],
        columns=[str(c) for c in range(d)],
    )
    st.dataframe(
        frame,
        column_config={str(c): st.column_config.NumberColumn(format="%.3f") for c in range(d)},
    )


def _shuffle_controls(n: int) -> np.ndarray:
    st.session_state.setdefault(SHUFFLE_KEY, 1)
    if st.button(t("positions.shuffle.again"), icon=":material/shuffle:"):
        st.session_state[SHUFFLE_KEY] += 1
    return pos.seeded_permutation(n, st.session_state[SHUFFLE_KEY])


def _listed(tokens: list[str]) -> str:
    more = " …" if len(tokens) > MAX_LISTED else ""
    return " ".join(f"`{tok}`" for tok in tokens[:MAX_LISTED]) + more


def _shuffle(text: str, backend: str) -> None:
    st.header(t("positions.shuffle.title"), divider="gray")
    st.markdown(t("positions.shuffle.body"))
    st.latex(
        r"\operatorname{Attention}(PXW^Q,\ PXW^K,\ PXW^V) = "
        r"P\,\operatorname{softmax}\!\left(\frac{QK^{\mathsf T}}{\sqrt{d_k}}\right)"
        r"P^{\mathsf T}P\,V"
        r" = P\,\operatorname{Attention}(XW^Q,\ XW^K,\ XW^V)"
    )
    tokens = tokenize(text)
    if len(tokens) < 2:
        st.info(t("positions.shuffle.too_short"), icon=":material/shuffle:")
        return
    perm = _shuffle_controls(len(tokens))
    shuffled = pos.shuffled_text(tokens, perm)
    st.markdown(
        t("positions.shuffle.orders", original=_listed(tokens), shuffled=_listed(shuffled.split()))
    )

    results: dict[bool, pos.ShuffleResult] = {}
    with st.spinner(t("positions.computing")):
        for with_positions in (False, True):
            config = ToyConfig(positions=with_positions)
            results[with_positions] = pos.compare_shuffle(
                toy_trace(text, config, backend), toy_trace(shuffled, config, backend), perm
            )
    off, on = results[False], results[True]
    left, right = st.columns(2)
    left.metric(t("positions.shuffle.without"), difference_label(off.max_difference))
    # e-notation for the rounding-error side, plain for the real difference (as in the formula)
    right.metric(t("positions.shuffle.with"), f"{on.max_difference:.3f}")
    st.latex(
        rf"\max_{{i,j}} \left|\,\mathrm{{out}}_{{{tex_words(t('positions.tex.shuffled'))}}} "
        rf"- P\cdot\mathrm{{out}}\,"
        rf"\right|:\quad PE = 0 \Rightarrow {scientific(off.max_difference, 1)},\qquad "
        rf"PE \neq 0 \Rightarrow {on.max_difference:.3f}"
    )
    verdict = views.shuffle_verdict(off, on)
    if verdict is not None and (said := say(verdict)) is not None:
        BOXES[verdict.message](said, icon=":material/rule:")
    st.markdown(t("positions.shuffle.diff_title"))
    # numbered by place from 0, as pos in the formula and the tables above; each token carries
    # the place it came from, so a repeated word's copies are told apart
    shuffled_labels = [
        t("positions.shuffle.row_label", label=token_label(k, tokens[int(p)]), source=int(p))
        for k, p in enumerate(perm)
    ]
    differences = on.row_differences()
    st.vega_lite_chart(
        chart_spec(
            charts.row_bars,
            shuffled_labels,
            differences,
            x_title=t("positions.shuffle.row_diff"),
            y_title=t("positions.shuffle.row"),
            fmt=".3f",
        ),
        width="stretch",
    )
    if (note := say(views.kept_place_note(perm, tokens, differences))) is not None:
        st.caption(note)


def _position_cosines(cos: np.ndarray) -> None:
    """[count, count] cosines between the vectors of positions i and j."""
    st.vega_lite_chart(
        chart_spec(charts.index_heatmap,
            cos, row_title=t("positions.axis.pos"), col_title=t("positions.axis.pos"),
            value_title="cos",
            width=grid.HALF,
        ),
        width="content",
    )  # fmt: skip


def _learned() -> None:
    st.header(t("positions.learned.title"), divider="gray")
    st.markdown(t("positions.learned.body"))
    count = st.slider(t("positions.learned.count"), 16, 128, 64, step=16, key=LEARNED_KEY)
    sinus = pos.sinusoidal_cosines(count, MINILM_D_MODEL)  # (count, count)
    model = minilm_model()
    left, right = st.columns(2)
    with left:
        st.markdown(t("positions.learned.sinusoidal", d_model=MINILM_D_MODEL))
        _position_cosines(sinus)
    if model is None:
        return
    learned = pos.cosine_matrix(model.embeddings.position_embeddings[:count])  # (count, count)
    with right:
        st.markdown(t("positions.learned.minilm"))
        _position_cosines(learned)
    sin_label, learned_label = (
        t("positions.learned.series_sin"),
        t("positions.learned.series_minilm"),
    )
    by_distance = {
        sin_label: pos.mean_cosine_by_distance(sinus),
        learned_label: pos.mean_cosine_by_distance(learned),
    }
    frame = pd.DataFrame(
        [
            {"k": k, "cos": float(v), "series": name}
            for name, values in by_distance.items()
            for k, v in enumerate(values)
        ]
    )
    st.vega_lite_chart(
        chart_spec(charts.lines,
            frame, x="k", y="cos", series="series", x_title=t("positions.learned.distance"),
            y_title=t("positions.learned.mean_cos"), series_order=list(by_distance),
        ),
        width="stretch",
    )  # fmt: skip
    st.caption(
        t(
            "positions.learned.neighbour",
            learned=f"{by_distance[learned_label][1]:.3f}",
            sin=f"{by_distance[sin_label][1]:.3f}",
            far=count - 1,
            learned_far=f"{by_distance[learned_label][-1]:.3f}",
        )
    )
    st.caption(t("positions.learned.numpy"))


def render() -> None:
    name = page_start("positions.title")
    if name is None:
        return
    _intro()
    _pe_matrix()
    text, config = current_sentence(), ToyConfig()
    # The sentence and its shuffle, each with and without positions: four traces.
    run_on = toy_backend(name, config, [text] * 4)
    with st.spinner(t("positions.computing")):
        trace = toy_trace_or_none(text, config, run_on)
    if trace is not None:
        _sentence_numbers(trace)
        try:
            _shuffle(text, run_on)
        except (ValueError, EmptyInputError):  # the guard in shuffled_text: say so, don't crash
            st.warning(t("positions.shuffle.failed"), icon=":material/error:")
    _learned()
    st.markdown(t("positions.other"))
    solved_and_hurts(t("positions.solved"), t("positions.hurts"))


render()
