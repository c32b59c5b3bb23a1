"""Speed: the same op in pure Python, NumPy and Rust (1 thread and all threads), measured here;
MiniLM also on ONNX Runtime when it is installed.

Runs ``bench.run_benchmark`` on a click and renders what it measured; holds no timing logic.
"""

from __future__ import annotations

import streamlit as st

from transformer_walk.app import charts, links
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.heavy_work import heavy_work
from transformer_walk.app.i18n import say, t, translated_radio
from transformer_walk.app.views import speed_steps, speed_tables
from transformer_walk.app.views.speed_choices import (
    BUDGET_RANGE_S,
    CHOICES,
    CLICK_DEADLINE_S,
    DEFAULT_BUDGET_S,
    DEFAULT_REPEATS,
    REPEATS_RANGE,
)
from transformer_walk.app.widgets import page_start, solved_and_hurts
from transformer_walk.bench import (
    BUDGET,
    DEADLINE,
    LANES,
    OPS,
    BenchResult,
    Case,
    Progress,
    available_cores,
    run_benchmark,
)

RESULTS_KEY = "speed_results"  # op → BenchResult; plain state, so it survives reruns and pages
OP_KEY = "speed_op"


def _controls(op: str) -> tuple[list[Case], int, float]:
    """The size, repeat and budget pickers of one op → (cases, repeats, budget)."""
    choices = CHOICES[op]
    axis = OPS[op].axis
    fixed = {}
    cols = st.columns([2] + [1] * len(choices.fixed_options))  # the ladder needs room
    with cols[0]:
        axis_values = st.multiselect(
            t("speed.sizes", axis=t(f"speed.axis.{axis}")),
            options=list(choices.axis_options),
            default=list(choices.axis_default),
            key=f"speed_{op}_{axis}",
            help=t("speed.axis_help"),
        )
    for col, (name, options) in zip(cols[1:], choices.fixed_options.items(), strict=True):
        with col:
            fixed[name] = st.selectbox(
                t(f"speed.param.{name}"),
                options=list(options),
                index=list(options).index(choices.fixed_default[name]),
                key=f"speed_{op}_{name}",
            )
    left, right = st.columns(2)
    with left:
        repeats = st.slider(
            t("speed.repeats"), *REPEATS_RANGE, value=DEFAULT_REPEATS, key="speed_repeats"
        )
    python_raced = "python" not in OPS[op].unavailable
    with right:
        budget = st.slider(
            t("speed.budget"),
            *BUDGET_RANGE_S,
            value=DEFAULT_BUDGET_S,
            step=0.5,
            key="speed_budget",
            help=t("speed.budget_help" if python_raced else "speed.budget_unused"),
            disabled=not python_raced,  # disabled, not hidden: the value is kept for other ops
        )
    return choices.cases(op, axis_values, **fixed), repeats, budget


def lanes_of(op: str) -> list[str]:
    """Our backends' lanes, and another program's where it races this op and is installed
    (ONNX Runtime on MiniLM)."""
    installed = [lane for lane, (missing, _) in OPS[op].external.items() if missing() is None]
    return [*LANES, *installed]


@heavy_work()
def _run(op: str, cases: list[Case], repeats: int, budget: float) -> None:
    bar = st.progress(0.0, text=t("speed.progress.start"))
    cores = available_cores()

    def on_progress(p: Progress) -> None:
        if p.lane:
            text = t(
                "speed.progress",
                done=p.done + 1,
                total=p.total,
                size=p.label,
                lane=speed_tables.lane_name(p.lane, cores),
            )
        else:
            text = t("speed.progress.done")
        bar.progress(p.done / p.total if p.total else 1.0, text=text)

    result = run_benchmark(
        cases,
        lanes=lanes_of(op),
        repeats=repeats,
        python_budget_s=budget,
        deadline_s=CLICK_DEADLINE_S,
        progress=on_progress,
    )
    bar.empty()
    st.session_state.setdefault(RESULTS_KEY, {})[op] = result


def _show(result: BenchResult, op: str) -> None:
    meta = result.meta
    st.caption(
        t(
            "speed.meta",
            cores=meta["cores"],
            dtype=meta["dtype"],
            repeats=meta["repeats"],
            numpy=meta["numpy_version"],
            rust=meta["rust_core_version"] or t("speed.rust_not_built"),
            when=speed_tables.measured_at(result),
        )
    )
    tops = speed_tables.highlights(result, op)
    if tops:
        for col, top in zip(st.columns(len(tops)), tops, strict=True):
            col.metric(top.label, top.value, help=t("speed.highlight.at", size=top.size))

    st.subheader(t("speed.medians.title"))
    st.dataframe(speed_tables.medians_table(result, op), width="stretch")
    if speed_tables.any_skipped(result, op, BUDGET):
        st.caption(t("speed.skipped_note", scaling=OPS[op].scaling))
    if speed_tables.any_skipped(result, op, BUDGET, by_rate=True):
        st.caption(t("speed.skipped_rate_note"))
    if speed_tables.any_skipped(result, op, DEADLINE):
        st.caption(t("speed.deadline_note", limit=f"{result.meta['deadline_s']:g}"))
    for cell in speed_tables.mismatches(result, op):
        lane = speed_tables.lane_name(cell.lane, meta["cores"])
        st.warning(t("speed.mismatch", lane=lane, size=cell.label))
    for cell in speed_tables.problems(result, op):
        lane = speed_tables.lane_name(cell.lane, meta["cores"])
        with st.expander(t(f"speed.{cell.status}", lane=lane), icon=":material/warning:"):
            not_raced = OPS[op].python_token_s if cell.lane in OPS[op].unavailable else None
            if not_raced is not None:  # the op's own reason, in the page's language
                st.markdown(t("speed.not_raced", seconds=f"{not_raced:.1f}"))
            else:  # an import error or an exception: as the library wrote it
                st.code(cell.note or "?", language="text")

    tokens = speed_tables.tokens_table(result, op)
    if tokens is not None:
        st.subheader(t("speed.tokens.title"))
        st.dataframe(tokens, width="stretch")
        st.caption(t("speed.tokens.note"))
    if op in (speed_tables.PREFILL, speed_tables.DECODE):
        _prefill_vs_decode()
    steps = speed_steps.steps_table(result, op)
    if steps is not None:
        st.subheader(t("speed.steps.title"))
        st.dataframe(steps, width="stretch")
        st.caption(t("speed.steps.note"))
        said = speed_steps.steps_said(result, op)
        if said:
            st.markdown("\n".join(f"- {say(claim)}" for claim in said))

    st.subheader(t("speed.speedups.title"))
    for col, versus in zip(st.columns(2), ("numpy", "python"), strict=True):
        table = speed_tables.speedups_table(result, op, versus)
        if table is not None:
            with col:
                st.markdown(
                    t("speed.speedups.versus", versus=speed_tables.lane_name(versus, meta["cores"]))
                )
                st.dataframe(table, width="stretch")
    st.caption(t("speed.speedups.note"))
    if (threads := say(speed_tables.threads(result, op))) is not None:
        st.markdown(threads)

    frame = speed_tables.chart_frame(result, op)
    if not frame.empty:
        st.subheader(t("speed.chart.title"))
        lanes = [speed_tables.lane_name(lane, meta["cores"]) for lane in meta["lanes"]]
        st.vega_lite_chart(
            chart_spec(
                charts.timings,
                frame,
                x_title=speed_tables.x_title(op),
                y_title=t("speed.chart.y"),
                lane_title=t("speed.chart.lane"),
                lane_order=lanes,
            ),
            width="stretch",
        )
        st.caption(t(f"speed.chart.slope.{op}"))

    st.download_button(
        t("speed.download"),
        data=speed_tables.csv_bytes(result),
        file_name=f"transformer-walk-bench-{op}.csv",
        mime="text/csv",
        icon=":material/download:",
    )


def _prefill_vs_decode() -> None:
    """Reading a prompt against generating, once both SmolLM2 races have run."""
    results = st.session_state.get(RESULTS_KEY, {})
    prefill, decode = results.get(speed_tables.PREFILL), results.get(speed_tables.DECODE)
    said = speed_tables.prefill_vs_decode(prefill, decode) if prefill and decode else []
    if said:
        st.markdown("\n".join(f"- {say(claim)}" for claim in said))
        if any(claim.message == "speed.tokens.versus" for claim in said):  # a speed-up to explain
            st.caption(t("speed.tokens.why"))
    else:
        st.info(t("speed.tokens.race_both"), icon=":material/compare_arrows:")


def render() -> None:
    page_start("speed.title", caption=None, uses_backend=False)
    st.markdown(t("speed.intro"))
    with st.expander(t("speed.what.title")):
        st.markdown(t("speed.what.body"))

    op_labels = {name: t(f"speed.op.{name}") for name in OPS}
    links.linked(OP_KEY, next(iter(OPS)), list(OPS))
    op = st.radio(
        t("speed.op"),
        options=list(OPS),
        format_func=op_labels.__getitem__,
        horizontal=True,
        key=translated_radio(OP_KEY),
    )
    st.caption(t(f"speed.op.{op}.shape"))
    for lane, (missing, _) in OPS[op].external.items():
        why = missing()
        # the install command is notation, the same in both languages
        st.caption(t(f"speed.external.{lane}.{'missing' if why else 'raced'}"))
    cases, repeats, budget = _controls(op)
    if st.button(t("speed.run"), type="primary", disabled=not cases, icon=":material/play_arrow:"):
        _run(op, cases, repeats, budget)
    if not cases:
        st.info(t("speed.pick_sizes"))

    result = st.session_state.get(RESULTS_KEY, {}).get(op)
    if result is None:
        st.info(t("speed.no_results"), icon=":material/timer:")
    else:
        _show(result, op)
    solved_and_hurts(t("speed.solved"), t("speed.hurts"))


render()
