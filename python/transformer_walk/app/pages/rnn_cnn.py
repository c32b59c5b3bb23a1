"""RNN and CNN: the two ways of reading a sentence that attention replaced
(“From word vectors to Transformer” §7–9, §31).

A tanh RNN and a 1-D CNN run over the toy embeddings of the sidebar's sentence (looked up by the toy
model on the sidebar's backend). The math lives in ``topics.rnn`` and ``topics.cnn``; this page
renders.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import charts, links
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import rnn as charts_rnn
from transformer_walk.app.i18n import say, t
from transformer_walk.app.model_widgets import toy_backend, toy_trace_or_none
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views.labels import token_labels
from transformer_walk.app.views.latex import tex_words
from transformer_walk.app.widgets import keep_valid_choice, page_start, solved_and_hurts
from transformer_walk.models.toy import ToyConfig, Trace
from transformer_walk.topics import cnn, rnn
from transformer_walk.topics.claims import token_label

RHO_KEY = "rnn_rho"
STEPS_KEY = "rnn_steps"
K_KEY = "rnn_k"
I_KEY = "rnn_i"
J_KEY = "rnn_j"
D_KEY = "rnn_d"

CHAIN_NODES = 10  # states drawn in the chain before "…"
HEATMAP_ROWS = (
    16  # hidden states / windows shown, as the other pages window theirs (40 made 8,700 px)
)
MAX_STEPS = 400  # the extended chain
GRID_LIMIT = 30  # the coverage grid is drawn for spans and depths up to this


def _vector(values: np.ndarray, digits: int = 2) -> str:
    return r"\begin{bmatrix}" + " & ".join(f"{v:.{digits}f}" for v in values) + r"\end{bmatrix}"


def _step_latex(step: int, pre: np.ndarray, h: np.ndarray) -> str:
    """h_t = tanh(pre-activation) = h_t, on two lines so that eight numbers fit."""
    return (
        rf"\begin{{aligned}}\boldsymbol{{h}}_{step} &= \tanh\big({_vector(pre)}\big) \\"
        rf" &= {_vector(h)}\end{{aligned}}"
    )


# --- RNN ------------------------------------------------------------------------------------------


def _rnn_section(trace: Trace) -> tuple[rnn.RNNWeights, np.ndarray]:
    st.header(t("rnn_cnn.rnn.title"), divider="gray")
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.markdown(t("rnn_cnn.rnn.body"))
        st.latex(
            r"\boldsymbol{h}_t = \tanh\!\left(\boldsymbol{x}_t W_x + \boldsymbol{h}_{t-1} W_h"
            r" + \boldsymbol{b}\right), \qquad \boldsymbol{h}_0 = \boldsymbol{0}"
        )
    with right:
        links.linked(RHO_KEY, 0.9, links.Span(0.1, 6.0, 0.1))
        rho = st.slider(
            t("rnn_cnn.rho"),
            min_value=0.1,
            max_value=6.0,
            value=0.9,
            step=0.1,
            key=RHO_KEY,
            help=t("rnn_cnn.rho_help"),
        )
    d = trace.config.d_model
    weights = rnn.init_weights(d, d, seed=trace.config.seed, spectral_radius=rho)
    states = rnn.run_rnn(trace.embeddings, weights)  # (n, d_h)
    st.caption(t("rnn_cnn.rnn.shapes", n=trace.n, d=d, rho=f"{weights.spectral_radius:.2f}"))

    # The first two steps with their numbers, so the recurrence is seen working.
    first = trace.embeddings[0] @ weights.W_x + weights.b
    st.markdown(t("rnn_cnn.rnn.step", t=1, token=trace.tokens[0]))
    st.latex(_step_latex(1, first, states[0]))
    if trace.n > 1:
        second = trace.embeddings[1] @ weights.W_x + states[0] @ weights.W_h + weights.b
        st.markdown(t("rnn_cnn.rnn.step", t=2, token=trace.tokens[1]))
        st.latex(_step_latex(2, second, states[1]))

    sens = rnn.sensitivity_to_first(states, weights)
    shown = min(trace.n, CHAIN_NODES)
    st.markdown(t("rnn_cnn.chain.title"))
    st.vega_lite_chart(
        chart_spec(
            charts_rnn.rnn_chain,
            trace.tokens[:shown],
            sens.log10_norms[:shown],
            color_title=t("rnn_cnn.chart.log_sens"),
            more="…" if trace.n > shown else None,
        ),
        width="content",
    )
    st.caption(t("rnn_cnn.chain.caption"))

    rows = min(trace.n, HEATMAP_ROWS)
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap,
            states[:rows],
            [f"h{token_label(t_ + 1, tok)}" for t_, tok in enumerate(trace.tokens[:rows])],
            [str(u + 1) for u in range(d)],
            row_title=t("rnn_cnn.heat.rows"),
            col_title=t("rnn_cnn.heat.cols"),
            value_title="h",
            domain=(-1.0, 1.0),
        ),
        width="content",
    )
    if trace.n > rows:
        st.caption(t("rnn_cnn.first_rows", shown=rows, n=trace.n))

    st.subheader(t("rnn_cnn.seq.title"))
    m1, m2 = st.columns(2)
    m1.metric(t("rnn_cnn.seq.rnn_steps"), f"{trace.n}")
    m2.metric(t("rnn_cnn.seq.attention_steps"), "1")
    st.markdown(t("rnn_cnn.seq.body", n=trace.n))
    return weights, states


def _gradient_section(trace: Trace, weights: rnn.RNNWeights) -> None:
    st.header(t("rnn_cnn.grad.title"), divider="gray")
    st.markdown(t("rnn_cnn.grad.body"))
    st.latex(
        r"\frac{\partial \boldsymbol{h}_t}{\partial \boldsymbol{x}_1}"
        r"= \underbrace{\operatorname{diag}(1-\boldsymbol{h}_t^2)\,W_h^{\mathsf T}}_{J_t}"
        r"\cdots \underbrace{\operatorname{diag}(1-\boldsymbol{h}_2^2)\,W_h^{\mathsf T}}_{J_2}"
        r"\;\operatorname{diag}(1-\boldsymbol{h}_1^2)\,W_x^{\mathsf T}"
    )
    st.caption(t("rnn_cnn.grad.norm_note"))
    steps = st.slider(
        t("rnn_cnn.steps"),
        min_value=1,
        max_value=MAX_STEPS,
        value=40,
        key=STEPS_KEY,
        help=t("rnn_cnn.steps_help"),
    )
    x, tokens = rnn.repeat_to_length(trace.embeddings, trace.tokens, steps)  # (T, d_model)
    states = rnn.run_rnn(x, weights)
    sens = rnn.sensitivity_to_first(states, weights)
    reference = rnn.sensitivity_to_first(states, weights, squash=False)
    series = [t("rnn_cnn.part.sentence"), t("rnn_cnn.part.repeat"), t("rnn_cnn.part.reference")]
    steps_t = np.arange(1, len(x) + 1)
    frame = pd.concat(
        [
            pd.DataFrame(
                {
                    "t": steps_t,
                    "norm": sens.norms,
                    "token": tokens,
                    "series": [series[0] if s < trace.n else series[1] for s in range(len(x))],
                }
            ),
            pd.DataFrame(
                {"t": steps_t, "norm": reference.norms, "token": tokens, "series": series[2]}
            ),
        ],
        ignore_index=True,
    )
    plottable = frame[np.isfinite(frame["norm"]) & (frame["norm"] > 0)]
    st.vega_lite_chart(
        chart_spec(
            charts_rnn.sensitivity,
            plottable,
            x_title="t",
            y_title=t("rnn_cnn.chart.sens"),
            series_title=t("rnn_cnn.chart.part"),
            series=series,
        ),
        width="stretch",
    )
    if len(plottable) < len(frame):
        st.caption(t("rnn_cnn.grad.off_scale", count=len(frame) - len(plottable)))

    n = trace.n
    m1, m2, m3, m4 = st.columns(4)
    m1.metric(t("rnn_cnn.metric.at_n", n=n), _sci(sens.log10_norms[n - 1]))
    m2.metric(t("rnn_cnn.metric.at_steps", T=len(x)), _sci(sens.log10_norms[-1]))
    factor = sens.mean_factor
    m3.metric(t("rnn_cnn.metric.factor"), "—" if factor is None else f"{factor:.3f}")
    ref_factor = reference.mean_factor
    m4.metric(
        t("rnn_cnn.metric.ref_factor"),
        "—" if ref_factor is None else f"{ref_factor:.3f}",
        help=t("rnn_cnn.metric.ref_factor_help", rho=f"{weights.spectral_radius:.2f}"),
    )
    verdict = rnn.sensitivity_verdict(sens)
    if verdict == "one_step" or factor is None:
        st.info(t("rnn_cnn.verdict.one_step"))
    elif verdict == "vanish":
        half = np.log(0.5) / np.log(factor) if 0 < factor < 1 else 0.0
        st.warning(t("rnn_cnn.verdict.vanish", factor=f"{factor:.3f}", half=f"{half:.1f}"))
    elif verdict == "explode":
        double = np.log(2.0) / np.log(factor) if factor > 1 else 0.0
        st.warning(t("rnn_cnn.verdict.explode", factor=f"{factor:.3f}", double=f"{double:.1f}"))
    else:
        st.info(t("rnn_cnn.verdict.steady", factor=f"{factor:.3f}"))
    st.markdown(t("rnn_cnn.grad.squash"))
    st.markdown(t("rnn_cnn.grad.after"))


SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _sci(log10_value: float) -> str:
    """10^x as text, also outside float64's range (the chain keeps logarithms)."""
    if not np.isfinite(log10_value):
        return "0"
    exponent = int(np.floor(log10_value))
    mantissa = 10 ** (log10_value - exponent)
    if -3 <= exponent <= 3:  # 1.52, 0.0123, 4,560: plain numbers read better
        return f"{10**log10_value:,.{max(0, 2 - exponent)}f}"
    return f"{mantissa:.2f} × 10{str(exponent).translate(SUPERSCRIPTS)}"


# --- CNN ------------------------------------------------------------------------------------------


def _cnn_section(trace: Trace) -> tuple[int, int, int]:
    st.header(t("rnn_cnn.cnn.title"), divider="gray")
    st.markdown(t("rnn_cnn.cnn.body"))
    st.latex(
        r"\boldsymbol{c}_i = \tanh\!\left([\boldsymbol{x}_i; \boldsymbol{x}_{i+1}; \dots;"
        r" \boldsymbol{x}_{i+k-1}]\, W + \boldsymbol{b}\right)"
    )
    n = trace.n
    links.linked(K_KEY, 3, range(2, 8))
    k = st.slider(
        t("rnn_cnn.k"), min_value=2, max_value=7, value=3, key=K_KEY, help=t("rnn_cnn.k_help")
    )
    d = trace.config.d_model
    weights = cnn.init_conv(d, d, k, seed=trace.config.seed)
    features = cnn.conv1d(trace.embeddings, weights)  # (n − k + 1, d)
    spans = cnn.windows(n, k)
    if not spans:
        st.info(t("rnn_cnn.cnn.too_short", n=n, k=k))
    else:
        window_labels = [" ".join(trace.tokens[p] for p in w) for w in spans]
        st.markdown(t("rnn_cnn.cnn.windows", count=len(spans), k=k, d_in=k * d, d=d))
        rows = min(len(spans), HEATMAP_ROWS)
        st.vega_lite_chart(
            chart_spec(
                charts.heatmap,
                features[:rows],
                [f"c{i + 1} · {label}" for i, label in enumerate(window_labels[:rows])],
                [str(u + 1) for u in range(d)],
                row_title=t("rnn_cnn.cnn.rows"),
                col_title=t("rnn_cnn.heat.cols"),
                value_title="c",
                domain=(-1.0, 1.0),
            ),
            width="content",
        )
        if len(spans) > rows:
            st.caption(t("rnn_cnn.first_rows", shown=rows, n=len(spans)))

    st.subheader(t("rnn_cnn.field.title"))
    st.markdown(t("rnn_cnn.field.body"))
    st.latex(tex_words(t("rnn_cnn.tex.field")) + r"(L) = 1 + L\,(k-1)")
    positions = list(range(n))
    labels = token_labels(trace.tokens)
    # Untouched, i and j follow the first and last tokens: after a one-token sentence forced both
    # to token 1, the next sentence must not keep "the same token" selected.
    keep_valid_choice(I_KEY, positions, 0)
    keep_valid_choice(J_KEY, positions, n - 1)
    c1, c2 = st.columns(2)
    i = c1.selectbox(t("rnn_cnn.field.i"), positions, format_func=labels.__getitem__, key=I_KEY)
    j = c2.selectbox(t("rnn_cnn.field.j"), positions, format_func=labels.__getitem__, key=J_KEY)
    distance = abs(i - j)
    layers = cnn.layers_to_link(i, j, k) or 0
    field = cnn.receptive_field(k, layers)
    st.latex(
        rf"L = \left\lceil \frac{{|i-j|}}{{k-1}} \right\rceil"
        rf"= \left\lceil \frac{{{distance}}}{{{k - 1}}} \right\rceil = {layers},"
        rf"\qquad 1 + {layers}\cdot({k}-1) = {field} \ge |i-j|+1 = {distance + 1}"
    )
    m1, m2, m3 = st.columns(3)
    m1.metric(t("rnn_cnn.field.distance"), f"{distance}")
    m2.metric(t("rnn_cnn.field.layers"), f"{layers}")
    m3.metric(t("rnn_cnn.field.rnn_steps"), f"{distance}")
    if distance == 0:  # with one token there are no two positions to pick
        st.info(t("rnn_cnn.field.same" if n > 1 else "rnn_cnn.field.one_token"))
    left, right = st.columns(2, gap="large")
    with left:
        st.vega_lite_chart(
            chart_spec(
                charts_rnn.receptive_field,
                k,
                layers,
                distance + 1,
                x_title=t("rnn_cnn.field.x"),
                y_title=t("rnn_cnn.field.y"),
                needed_title=t("rnn_cnn.field.needed", span=distance + 1),
            ),
            width="stretch",
        )
    with right:
        lo, hi = min(i, j), max(i, j)
        if hi - lo < GRID_LIMIT and layers < GRID_LIMIT:
            # Only the stretch from i to j (plus a neighbour on each side) matters here.
            first, last = max(0, lo - 1), min(n, hi + 2)
            covered = [
                range(r.start - first, r.stop - first) for r in cnn.coverage(lo, k, layers, last)
            ]
            st.vega_lite_chart(
                chart_spec(
                    charts_rnn.coverage_grid,
                    trace.tokens[first:last],
                    covered,
                    i - first,
                    j - first,
                    layer_title=t("rnn_cnn.field.x"),
                    token_title=t("rnn_cnn.field.tokens"),
                    status_titles={
                        "pair": t("rnn_cnn.grid.pair"),
                        "seen": t("rnn_cnn.grid.seen"),
                        "unseen": t("rnn_cnn.grid.unseen"),
                    },
                ),
                width="content",
            )
            st.caption(t("rnn_cnn.grid.caption", start=labels[lo]))
        else:
            st.caption(t("rnn_cnn.grid.too_big"))
    return k, i, j


# --- Comparison -----------------------------------------------------------------------------------


def _comparison_section(n: int, k: int, i: int, j: int, tokens: list[str]) -> None:
    st.header(t("rnn_cnn.cmp.title"), divider="gray")
    st.markdown(t("rnn_cnn.cmp.body"))
    d = st.number_input(
        t("rnn_cnn.cmp.d"), min_value=1, max_value=8192, value=512, step=1, key=D_KEY,
        help=t("rnn_cnn.cmp.d_help"),
    )  # fmt: skip
    c = cnn.compare(n, k, int(d), i, j)

    def steps(value: int | None) -> str:
        return "—" if value is None else f"{value:,}"

    table = pd.DataFrame(
        {
            t("rnn_cnn.cmp.aspect"): [
                t("rnn_cnn.cmp.mechanism"),
                t("rnn_cnn.cmp.sequential"),
                t("rnn_cnn.cmp.max_path"),
                t(
                    "rnn_cnn.cmp.path_ij",
                    i=token_label(i + 1, tokens[i]),
                    j=token_label(j + 1, tokens[j]),
                ),
                t("rnn_cnn.cmp.cost"),
                t("rnn_cnn.cmp.parallel"),
                t("rnn_cnn.cmp.position"),
                t("rnn_cnn.cmp.local"),
                t("rnn_cnn.cmp.long"),
                t("rnn_cnn.cmp.problem"),
            ],
            "RNN": [
                t("rnn_cnn.cmp.rnn.mechanism"),
                f"n = {steps(c.sequential['rnn'])}, O(n)",
                f"n − 1 = {steps(c.max_path['rnn'])}, O(n)",
                steps(c.path_ij["rnn"]),
                f"O(n·d²) = {c.cost['rnn']:,}",
                t("rnn_cnn.cmp.rnn.parallel"),
                t("rnn_cnn.cmp.rnn.position"),
                t("rnn_cnn.cmp.rnn.local"),
                t("rnn_cnn.cmp.rnn.long"),
                t("rnn_cnn.cmp.rnn.problem"),
            ],
            "CNN": [
                t("rnn_cnn.cmp.cnn.mechanism"),
                f"O(1) = {steps(c.sequential['cnn'])}",
                # the exact count, ⌈(n − 1)/(k − 1)⌉ layers, and its order (n/k is not it)
                f"⌈(n−1)/(k−1)⌉ = {steps(c.max_path['cnn'])}, O(n/k)",
                steps(c.path_ij["cnn"]),
                f"O(k·n·d²) = {c.cost['cnn']:,}",
                t("rnn_cnn.cmp.cnn.parallel"),
                t("rnn_cnn.cmp.cnn.position"),
                t("rnn_cnn.cmp.cnn.local"),
                t("rnn_cnn.cmp.cnn.long"),
                t("rnn_cnn.cmp.cnn.problem"),
            ],
            t("rnn_cnn.cmp.col.attention"): [
                t("rnn_cnn.cmp.att.mechanism"),
                f"O(1) = {steps(c.sequential['attention'])}",
                # 1 between any two positions; 0 when one token has nothing to reach
                f"min(1, n−1) = {steps(c.max_path['attention'])}, O(1)",
                steps(c.path_ij["attention"]),
                f"O(n²·d) = {c.cost['attention']:,}",
                t("rnn_cnn.cmp.att.parallel"),
                t("rnn_cnn.cmp.att.position"),
                t("rnn_cnn.cmp.att.local"),
                t("rnn_cnn.cmp.att.long"),
                t("rnn_cnn.cmp.att.problem"),
            ],
        }
    ).set_index(t("rnn_cnn.cmp.aspect"))
    st.table(table)
    st.caption(t("rnn_cnn.cmp.caption", n=n, k=k, d=int(d)))
    paths = cnn.paths_claim(c)
    if paths is not None:
        st.markdown(say(paths))
    st.markdown(say(cnn.cheaper_claim(c)))
    st.markdown(t("rnn_cnn.cmp.caveats"))


def render() -> None:
    name = page_start("rnn_cnn.title")
    if name is None:
        return
    st.markdown(t("rnn_cnn.intro"))
    text, config = current_sentence(), ToyConfig()
    run_on = toy_backend(name, config, [text])
    trace = toy_trace_or_none(text, config, run_on)
    if trace is None:
        return
    st.caption(
        t("rnn_cnn.source", backend=t(f"backend.{run_on}"), n=trace.n, d=trace.config.d_model)
    )
    weights, _states = _rnn_section(trace)
    _gradient_section(trace, weights)
    k, i, j = _cnn_section(trace)
    _comparison_section(trace.n, k, i, j, trace.tokens)
    solved_and_hurts(t("rnn_cnn.solved"), t("rnn_cnn.hurts"))


render()
