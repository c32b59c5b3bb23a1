"""Charts as cached specs (app/chart_specs.py): the chart drawn is the one st.altair_chart /
st.vega_lite_chart would draw from the builder's output, built once per inputs, and every page
draws through it."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

PAGES = Path(__file__).resolve().parents[1] / "python" / "transformer_walk" / "app" / "pages"


def _both_ways() -> None:
    """Draws each chart twice: the builder's output straight, then through chart_spec."""
    import altair as alt
    import numpy as np
    import pandas as pd
    import streamlit as st

    from transformer_walk.app import charts
    from transformer_walk.app.chart_specs import chart_spec

    frame = pd.DataFrame({"x": [1, 2, 3], "y": [0.5, 0.25, 0.125], "s": ["a", "b", "猫"]})

    def layered(data: pd.DataFrame) -> alt.LayerChart:
        base = alt.Chart(data).encode(x=alt.X("x:Q"), y=alt.Y("y:Q"))
        return base.mark_line() + base.mark_text().encode(text=alt.Text("s:N"))

    st.altair_chart(layered(frame))
    st.vega_lite_chart(chart_spec(layered, frame))
    matrix = np.array([[0.1, 0.9], [0.6, 0.4]])
    labels = ["1 · the", "2 · cat"]
    kwargs = {"row_title": "query", "col_title": "key", "value_title": "weight"}
    st.vega_lite_chart(charts.heatmap(matrix, labels, labels, **kwargs))
    st.vega_lite_chart(chart_spec(charts.heatmap, matrix, labels, labels, **kwargs))


def test_a_cached_chart_is_the_chart_streamlit_draws_from_the_builder() -> None:
    at = AppTest.from_function(_both_ways).run()
    assert not at.exception
    charts = at.get("vega_lite_chart")
    assert len(charts) == 4
    for plain, cached in (charts[0:2], charts[2:4]):
        assert json.loads(plain.proto.spec) == json.loads(cached.proto.spec)
        assert plain.proto.data.data == cached.proto.data.data
        assert [(d.name, d.data.data) for d in plain.proto.datasets] == [
            (d.name, d.data.data) for d in cached.proto.datasets
        ]
    assert charts[0].proto.datasets  # Altair's table went as Arrow ...
    assert charts[2].proto.data.data  # ... and the heat map's rows too


def test_a_chart_is_built_once_per_inputs_and_builders_do_not_share_entries() -> None:
    from transformer_walk.app.chart_specs import chart_spec

    calls: list[str] = []

    def first(values: np.ndarray, title: str) -> dict[str, object]:
        calls.append("first")
        return {"mark": "bar", "title": title, "data": {"values": [{"v": float(values.sum())}]}}

    def second(values: np.ndarray, title: str) -> dict[str, object]:
        calls.append("second")
        return {"mark": "point", "title": title}

    values = np.arange(4.0)
    a = chart_spec(first, values, title="t")
    assert chart_spec(first, values.copy(), title="t") == a  # equal inputs: no rebuild
    assert calls == ["first"]
    chart_spec(first, values + 1, title="t")
    chart_spec(first, values, title="other")
    assert calls == ["first"] * 3
    assert chart_spec(second, values, title="t")["mark"] == "point"  # same inputs, own entry
    assert calls == ["first"] * 3 + ["second"]
    a["title"] = "changed by a caller"  # every caller gets its own copy
    assert chart_spec(first, values, title="t")["title"] == "t"


def test_pages_draw_every_chart_through_the_cache() -> None:
    """No page calls st.altair_chart, and every st.vega_lite_chart draws a chart_spec(...) (or a
    name bound to one, or a page helper returning one): a chart drawn straight would be rebuilt
    for every student on every rerun."""
    for page in sorted(PAGES.glob("*.py")):
        tree = ast.parse(page.read_text())
        helpers = {
            f.name
            for f in ast.walk(tree)
            if isinstance(f, ast.FunctionDef)
            and any(
                isinstance(r.value, ast.Call) and ast.unparse(r.value.func) == "chart_spec"
                for r in ast.walk(f)
                if isinstance(r, ast.Return)
            )
        }
        bound = {
            target.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and ast.unparse(node.value.func) == "chart_spec"
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            assert node.func.attr != "altair_chart", f"{page.name}:{node.lineno}"
            if node.func.attr == "vega_lite_chart":
                first = node.args[0]
                ok = (
                    isinstance(first, ast.Call)
                    and ast.unparse(first.func) in {"chart_spec", *helpers}
                ) or (isinstance(first, ast.Name) and first.id in bound)
                assert ok, f"{page.name}:{node.lineno} draws a chart outside chart_spec"


def _builders(tree: ast.Module) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """The builders a module hands chart_spec: by the helper function returning the spec, and
    by the name a spec is bound to."""
    helpers: dict[str, set[str]] = {}
    bound: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for r in ast.walk(node):
                if isinstance(r, ast.Return) and _is_spec(r.value):
                    helpers.setdefault(node.name, set()).add(ast.unparse(r.value.args[0]))
        elif isinstance(node, ast.Assign) and _is_spec(node.value):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bound.setdefault(target.id, set()).add(ast.unparse(node.value.args[0]))
    return helpers, bound


def _is_spec(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Call) and ast.unparse(node.func) == "chart_spec" and bool(node.args)


def test_every_heatmap_is_drawn_at_its_own_size() -> None:
    """A heat map sizes itself (square cells, a step per cell): drawn with Streamlit's default
    width="stretch" its cells are pulled across the column into wide bars. Every draw of a
    ``*heatmap`` builder — on a page or in a module the pages share — passes width="content"."""
    app = PAGES.parent
    drawn = []
    for module in sorted([*PAGES.glob("*.py"), *app.glob("*.py")]):
        tree = ast.parse(module.read_text())
        helpers, bound = _builders(tree)
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in {"vega_lite_chart", "altair_chart"}
                and node.args
            ):
                continue
            first = node.args[0]
            if _is_spec(first):
                builders = {ast.unparse(first.args[0])}
            elif isinstance(first, ast.Call):
                builders = helpers.get(ast.unparse(first.func), set())
            else:
                builders = bound.get(ast.unparse(first), set())
            if not any(b.rsplit(".", 1)[-1].endswith("heatmap") for b in builders):
                continue
            where = f"{module.relative_to(app)}:{node.lineno}"
            drawn.append(where)
            width = [k.value for k in node.keywords if k.arg == "width"]
            assert width and ast.literal_eval(width[0]) == "content", where
    # the search finds the heat maps drawn straight, through a helper, by a bound name and
    # outside pages/
    assert len(drawn) > 30, drawn
    for found in ("minilm_attention.py", "next_token.py", "trained_toy.py"):
        assert any(found in where for where in drawn), found
