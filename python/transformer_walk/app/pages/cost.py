"""Cost (“From word vectors to Transformer” §30–32): path lengths and parallelism of RNN / CNN /
attention for the learner's n, where n²·d overtakes n·d², and attention's time and memory
measured against n.

Everything shown comes from ``transformer_walk.topics.cost``: counts are computed for the chosen
sizes, times are measured here and now by ``transformer_walk.bench``. Holds no math.
"""

from __future__ import annotations

import contextlib

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import links
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import cost as charts_cost
from transformer_walk.app.heavy_work import heavy_work
from transformer_walk.app.i18n import say, t
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views.labels import human_bytes
from transformer_walk.app.views.latex import tex_words
from transformer_walk.app.widgets import page_start, solved_and_hurts
from transformer_walk.bench import AttentionLane, Timing, one_thread, time_attention
from transformer_walk.core import Backend
from transformer_walk.core.status import backend_status
from transformer_walk.models.toy import tokenize
from transformer_walk.topics import cost as costs

N_KEY = "cost_n"
N_FOR_KEY = "cost_n_for"  # the sidebar sentence's token count that N_KEY was last set from
K_KEY = "cost_k"
D_KEY = "cost_d"
MAX_N_KEY = "cost_max_n"
ONE_THREAD_KEY = "cost_one_thread"
RESULTS_KEY = "cost_results"  # {(sizes, one thread): [Timing]} measured this session
MEASURE_KEY = "cost_measure"
D_CHOICES = [64, 128, 256, 512, 1024]
MAX_N_CHOICES = [256, 512, 1024, 2048, 4096]
HEAD_WIDTH = 64  # d_k of the timed attention: one head of the base model (512 / 8)
BUDGET_S = 3.0  # the whole timing run, all lanes and sizes
FIT_FROM_N = 256  # the slope is fitted where the n² term dominates the fixed costs


def _paths(default_n: int) -> tuple[int, int]:
    st.subheader(t("cost.paths.title"))
    st.markdown(t("cost.paths.intro"))
    left, middle, right = st.columns(3)
    # a new sentence starts from its n; so does a return to the page (its widget was forgotten)
    if st.session_state.get(N_FOR_KEY) != default_n or N_KEY not in st.session_state:
        st.session_state[N_FOR_KEY] = default_n
        st.session_state[N_KEY] = max(default_n, 1)
    links.linked(N_KEY, max(default_n, 1), range(1, 1_000_001))
    links.linked(K_KEY, 3, range(2, 10))
    links.linked(D_KEY, 512, D_CHOICES)
    with left:
        n = int(st.number_input(t("cost.n"), 1, 1_000_000, key=N_KEY, help=t("cost.n_help")))
    with middle:
        k = int(st.slider(t("cost.k"), 2, 9, 3, key=K_KEY))
    with right:
        d = int(st.select_slider(t("cost.d"), D_CHOICES, value=512, key=D_KEY))
    names = {"rnn": t("cost.rnn"), "cnn": t("cost.cnn"), "attention": t("cost.attention")}
    rows = costs.layer_costs(n, d, k)
    st.dataframe(
        pd.DataFrame(
            {
                t("cost.col.model"): [names[r.name] for r in rows],
                t("cost.col.path"): [r.max_path for r in rows],
                t("cost.col.sequential"): [r.sequential_steps for r in rows],
                t("cost.col.ops"): [f"{r.operations:,}" for r in rows],
            }
        ),
        hide_index=True,
    )
    st.latex(
        r"\text{RNN: } n-1 = " + str(rows[0].max_path)
        + r"\qquad \text{CNN: } \left\lceil\tfrac{n-1}{k-1}\right\rceil = " + str(rows[1].max_path)
        + r"\qquad " + tex_words(t("cost.tex.attention")) + " " + str(rows[2].max_path)
    )  # fmt: skip
    st.latex(
        tex_words(t("cost.tex.ops")) + r" n d^2 = " + f"{rows[0].operations:,}".replace(",", r"{,}")
        + r",\quad k n d^2 = " + f"{rows[1].operations:,}".replace(",", r"{,}")
        + r",\quad n^2 d = " + f"{rows[2].operations:,}".replace(",", r"{,}")
    )  # fmt: skip
    projections = costs.projection_ops(n, d)
    st.caption(
        t(
            "cost.paths.projections",
            mixing=f"{rows[2].operations:,}",
            projections=f"{projections:,}",
            times=f"{projections / max(rows[2].operations, 1):,.3g}×",
        )
    )
    st.caption(t("cost.paths.caveat"))
    return n, d


def _crossover(n: int, d: int) -> None:
    st.subheader(t("cost.cross.title"))
    st.markdown(t("cost.cross.intro"))
    st.latex(r"n^2 d \;>\; n d^2 \iff n > d = " + str(costs.crossover_n(d)))
    ns, attn, dense = costs.crossover_curve(d, max(8 * d, 2 * n))
    frame = pd.concat(
        [
            pd.DataFrame({"x": ns, "y": attn, "series": "n²·d"}),
            pd.DataFrame({"x": ns, "y": dense, "series": "n·d²"}),
        ]
    )
    st.vega_lite_chart(
        chart_spec(charts_cost.loglog_lines,
            frame, x_title=t("cost.axis.n"), y_title=t("cost.axis.ops"),
            series_title=t("cost.axis.term"), series_order=["n²·d", "n·d²"], points=False,
            marker_x=costs.crossover_n(d), marker_label=f"n = d = {d}",
        ),
        width="stretch",
    )  # fmt: skip
    ratio = float(costs.attention_ops(n, d) / costs.dense_ops(n, d))
    st.markdown(t("cost.cross.yours", n=n, d=d, ratio=f"{ratio:.3g}"))
    st.caption(t("cost.cross.caveat"))


def _lanes() -> tuple[dict[str, AttentionLane], Backend | None]:
    """The timed lanes: the NumPy formula always, rust_core.attention when it imports."""
    lanes: dict[str, AttentionLane] = {"numpy": costs.numpy_attention}
    rust = backend_status("rust").module
    if rust is not None:
        lanes["rust"] = lambda q, k, v: rust.attention(q, k, v)
    return lanes, rust


@heavy_work()
def _measure(sizes: tuple[int, ...], on_one_thread: bool) -> list[Timing]:
    lanes, rust = _lanes()
    bar = st.progress(0.0, text=t("cost.time.progress"))
    cells = len(lanes) * len(sizes)
    results: list[Timing] = []
    guard = one_thread(rust) if on_one_thread else contextlib.nullcontext(True)
    with guard:
        for done, timing in enumerate(
            time_attention(lanes, sizes, HEAD_WIDTH, budget_s=BUDGET_S), start=1
        ):
            if timing is not None:
                results.append(timing)
            bar.progress(done / cells, text=t("cost.time.progress"))
    bar.empty()
    return results


def _timings() -> None:
    st.subheader(t("cost.time.title"))
    st.markdown(t("cost.time.intro", d=HEAD_WIDTH))
    st.latex(r"Z = \operatorname{softmax}\!\left(\frac{q k^{\mathsf T}}{\sqrt{d}}\right) v")
    left, right = st.columns(2)
    with left:
        max_n = int(
            st.select_slider(t("cost.time.max_n"), MAX_N_CHOICES, value=2048, key=MAX_N_KEY)
        )
    with right:
        one_thread = st.toggle(t("cost.time.one_thread"), value=True, key=ONE_THREAD_KEY)
    sizes = tuple(n for n in costs.DEFAULT_SIZES + (4096,) if n <= max_n)
    # Timing takes seconds and keeps a core busy: it runs when asked, and each setting's last
    # result is kept for the session, so coming back to the page costs nothing.
    store = st.session_state.setdefault(RESULTS_KEY, {})
    cache_key = (sizes, bool(one_thread))
    measured = cache_key in store
    if st.button(
        t("cost.time.again" if measured else "cost.time.measure"),
        key=MEASURE_KEY,
        type="secondary" if measured else "primary",
        icon=":material/timer:",
    ):
        store[cache_key] = _measure(sizes, bool(one_thread))
    if cache_key not in store:
        st.info(t("cost.time.not_yet", budget=f"{BUDGET_S:g}"), icon=":material/timer:")
        _memory(sizes)
        return
    results: list[Timing] = store[cache_key]
    if not results:
        st.info(t("cost.time.none"))
        return
    lanes = {"numpy": t("cost.lane.numpy"), "rust": t("cost.lane.rust")}
    points = {
        lane: (
            [r.n for r in results if r.lane == lane],
            [r.seconds for r in results if r.lane == lane],
        )
        for lane in lanes
    }
    frame = pd.DataFrame(
        {"x": [r.n for r in results], "y": [r.seconds for r in results],
         "series": [lanes[r.lane] for r in results]}
    )  # fmt: skip
    st.vega_lite_chart(
        chart_spec(charts_cost.loglog_lines,
            frame, x_title=t("cost.axis.n"), y_title=t("cost.axis.seconds"),
            series_title=t("cost.axis.lane"), series_order=list(lanes.values()),
        ),
        width="stretch",
    )  # fmt: skip
    st.latex(r"\log t \approx p \,\log n + c \quad(\texttt{np.polyfit},\ n \ge " + f"{FIT_FROM_N})")
    st.caption(t("cost.time.slope_note"))
    columns = st.columns(len(lanes))
    for column, (lane, label) in zip(columns, lanes.items(), strict=True):
        with column:
            slope = costs.fitted_slope(*points[lane], FIT_FROM_N)
            shown = "—" if slope is None else costs.two_places(slope)
            st.metric(t("cost.time.slope", lane=label), shown)
            if (reading := say(costs.growth(*points[lane], FIT_FROM_N))) is not None:
                st.markdown(reading)
    if "rust" not in {r.lane for r in results}:
        st.info(t("cost.time.no_rust"))
    table = pd.DataFrame(
        {
            t("cost.axis.lane"): [lanes[r.lane] for r in results],
            "n": [r.n for r in results],
            t("cost.col.median_ms"): [round(r.seconds * 1e3, 4) for r in results],
            t("cost.col.samples"): [r.samples for r in results],
        }
    )
    with st.expander(t("cost.time.table")):
        st.dataframe(table, hide_index=True)
    st.caption(t("cost.time.caveat", one=t("cost.time.one") if one_thread else t("cost.time.all")))
    _memory(sizes)


def _memory(sizes: tuple[int, ...]) -> None:
    st.subheader(t("cost.mem.title"))
    st.markdown(t("cost.mem.intro", q=costs.TILE_QUERIES, k=costs.TILE_KEYS))
    tile = costs.tiled_working_bytes(max(sizes))
    st.latex(
        r"\underbrace{n^2 \cdot 4\ \text{B}}_{" + tex_words(t("cost.tex.full")) + "}"
        + r"\quad" + tex_words(t("cost.tex.vs")) + r"\quad\underbrace{" + f"{costs.TILE_QUERIES}"
        + r"\times" + f"{costs.TILE_KEYS}" + r"\cdot 4\ \text{B} = " + tex_words(human_bytes(tile))
        + "}_{" + tex_words(t("cost.tex.tile")) + "}"
    )  # fmt: skip
    ns = np.array(sorted(set(sizes) | {16_384, 65_536}))
    full = [costs.score_matrix_bytes(int(n)) for n in ns]
    tiled = [costs.tiled_working_bytes(int(n)) for n in ns]
    label_full, label_tile = t("cost.mem.full"), t("cost.mem.tile")
    frame = pd.concat(
        [
            pd.DataFrame({"x": ns, "y": full, "series": label_full}),
            pd.DataFrame({"x": ns, "y": tiled, "series": label_tile}),
        ]
    )
    st.vega_lite_chart(
        chart_spec(charts_cost.loglog_lines,
            frame, x_title=t("cost.axis.n"), y_title=t("cost.axis.bytes"),
            series_title=t("cost.axis.memory"), series_order=[label_full, label_tile],
        ),
        width="stretch",
    )  # fmt: skip
    st.dataframe(
        pd.DataFrame(
            {"n": [f"{n:,}" for n in ns], label_full: [human_bytes(b) for b in full],
             label_tile: [human_bytes(b) for b in tiled]}
        ),
        hide_index=True,
    )  # fmt: skip
    st.caption(t("cost.mem.caveat"))


def render() -> None:
    if page_start("cost.title") is None:
        return
    st.markdown(t("cost.intro"))
    n_tokens = len(tokenize(current_sentence()))
    if n_tokens == 0:
        st.info(t("cost.empty"), icon=":material/edit_note:")
    n, d = _paths(n_tokens)
    _crossover(n, d)
    _timings()
    solved_and_hurts(t("cost.solved"), t("cost.hurts"))


render()
