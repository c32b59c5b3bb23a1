"""The chart layer's sizing and colour rules (``app/charts/grid.py``) and the specs they produce:
a matrix fits its column, no label is dropped, numbers are printed only where they fit, repeated
tokens stay apart, and the colour scale follows the sign of the data."""

from __future__ import annotations

import json

import numpy as np
import pytest

from transformer_walk.app import charts
from transformer_walk.app.charts import grid
from transformer_walk.app.views.labels import token_axis

TOKENS = ["tom", "loves", "his", "dog"]


@pytest.mark.parametrize("width", [grid.THIRD, grid.HALF, grid.FULL])
@pytest.mark.parametrize("cols", [1, 4, 8, 16, 32, 64])
def test_the_matrix_fits_its_column(width: int, cols: int) -> None:
    labels = [f"{i} · an-unusually-long-token-{i}" for i in range(8)]  # wider than LABEL_LIMIT
    layout = grid.grid_for(8, cols, width=width, row_labels=labels, col_labels=labels[:cols])
    room = grid.LABEL_LIMIT + grid.AXIS_OVERHEAD
    if cols * grid.MIN_CELL + room <= width:  # it can fit: it does
        assert layout.plot_width(cols) + room <= width
    assert grid.MIN_CELL <= layout.cell <= grid.MAX_CELL


def test_small_cells_shrink_and_turn_the_labels_but_keep_them() -> None:
    wide = grid.grid_for(4, 4, width=grid.FULL, col_labels=["1", "2", "3", "4"])
    assert (wide.cell, wide.x_angle, wide.axis_font) == (grid.MAX_CELL, 0, grid.AXIS_FONT)
    narrow = grid.grid_for(40, 40, width=grid.THIRD, col_labels=token_axis(["word"] * 40))
    assert narrow.x_angle == -90 and grid.MIN_AXIS_FONT <= narrow.axis_font < grid.AXIS_FONT


def test_numbers_are_printed_only_where_they_fit() -> None:
    small = grid.grid_for(4, 4, width=grid.FULL, values=["-0.53"] * 16)
    assert small.value_font > 0
    crowded = grid.grid_for(8, 64, width=grid.FULL, values=["-0.53"] * 512)
    assert crowded.value_font == 0
    assert grid.grid_for(4, 4, width=grid.FULL, values=[]).value_font == 0


def test_text_width_counts_a_cjk_character_as_a_full_em() -> None:
    assert grid.text_width("猫", 10) == pytest.approx(10.0)
    assert grid.text_width("ab", 10) == pytest.approx(2 * 10 * grid.DIGIT_EM)


@pytest.mark.parametrize(
    ("title", "plot_height", "upright"),
    [
        ("词", None, True),  # short Chinese reads sideways rotated
        ("查询 token i", None, True),
        ("注意力权重的平均值", None, False),  # nine ems: rotated, or it eats the plot
        ("query position i", None, False),
        ("query position i", 200, False),  # fits beside the plot rotated
        ("encoder position j", 44, True),  # a one-row matrix: rotated it would be cut off
    ],
)
def test_a_y_title_is_upright_when_short_chinese_or_taller_than_its_plot(
    title: str, plot_height: int | None, upright: bool
) -> None:
    assert grid.upright_title(title, plot_height) is upright
    assert (grid.upright_axis(title, plot_height) == grid.UPRIGHT_Y_TITLE) is upright


def test_an_upright_row_title_gets_its_room_in_the_matrix() -> None:
    """A one-row matrix's long title is set upright, one word a line, beside the labels, where
    the cells can give it room (the full width); in a third of the page the cells would lose
    more than UPRIGHT_MIN_SHARE of their size, and it stays rotated."""
    kwargs = dict(row_labels=["1 · tom"], col_labels=["1"] * 6, row_title="decoder position")
    assert grid.grid_for(1, 6, width=grid.FULL, **kwargs).upright_y_title
    assert not grid.grid_for(1, 6, width=grid.THIRD, **kwargs).upright_y_title
    spec = charts.heatmap(
        np.ones((1, 6)), ["1 · tom"], ["1"] * 6, row_title="decoder position", col_title="k",
        value_title="a", width=grid.FULL,
    )  # fmt: skip
    y = spec["layer"][0]["encoding"]["y"]
    assert y["axis"]["titleAngle"] == 0 and y["title"] == ["decoder", "position"]


def test_a_chinese_row_title_stays_rotated_where_upright_would_crowd_the_rows() -> None:
    """In a third of the page, "查询 token i" beside the labels would shrink 16 rows' cells below
    UPRIGHT_MIN_SHARE of their size (their labels overprinted): it stays rotated there, and
    stands upright, in one piece, in the full width."""
    labels = token_axis(["word"] * 16)
    narrow = grid.grid_for(16, 16, width=grid.THIRD, row_labels=labels, row_title="查询 token i")
    assert not narrow.upright_y_title
    assert narrow == grid.grid_for(16, 16, width=grid.THIRD, row_labels=labels)
    wide = grid.grid_for(6, 6, width=grid.FULL, row_labels=labels[:6], row_title="查询 token i")
    assert wide.upright_y_title and grid.title_lines("查询 token i") == ["查询 token i"]


def test_non_negative_data_gets_a_sequential_scale_from_zero() -> None:
    relu = np.array([[0.0, 0.0, 2.5], [0.0, 1.0, 0.0]])  # ReLU output: zeros are the lightest
    colours = grid.colours_for(relu)
    assert (colours.scheme, colours.domain, colours.diverging) == ("blues", (0.0, 2.5), False)


def test_signed_data_gets_a_diverging_scale_symmetric_about_zero() -> None:
    colours = grid.colours_for(np.array([[-0.5, 2.0]]))
    assert (colours.scheme, colours.domain, colours.diverging) == ("redblue", (-2.0, 2.0), True)
    assert colours.white_text_test() == "abs(datum.value) > 1.2"


def test_a_given_domain_decides_the_scale() -> None:
    assert grid.colours_for(np.eye(2), (-1.0, 1.0)).diverging
    assert not grid.colours_for(np.eye(2), (0.0, 1.0)).diverging
    assert grid.colours_for(np.zeros((2, 2))).domain == (0.0, 1.0)  # all zeros: still a range


def _layers(spec: dict) -> list[dict]:
    return spec["layer"]


@pytest.mark.parametrize("row_title", ["q", "查询 i"])
@pytest.mark.parametrize("shape", [(4, 4), (8, 64), (1, 3), (0, 0)])
def test_heatmap_specs_are_valid_vega_lite(shape: tuple[int, int], row_title: str) -> None:
    """The heatmap writes its spec by hand (for speed); Altair checks it against the schema."""
    import altair as alt

    rows, cols = shape
    matrix = np.arange(rows * cols, dtype=float).reshape(rows, cols) - 3
    spec = charts.heatmap(
        matrix, [str(i) for i in range(rows)], [str(j) for j in range(cols)],
        row_title=row_title, col_title="k", value_title="a",
    )  # fmt: skip
    alt.LayerChart.from_dict(spec, validate=True)
    json.dumps(spec, allow_nan=False)  # what the browser parses: no NaN


def test_non_finite_cells_become_nulls() -> None:
    spec = charts.heatmap(
        np.array([[np.nan, 1.0]]), ["a"], ["x", "y"], row_title="", col_title="", value_title=""
    )
    assert [c["value"] for c in spec["data"]["values"]] == [None, 1.0]


def test_heatmap_keeps_repeated_tokens_apart_and_shows_every_label() -> None:
    tokens = ["the", "cat", "saw", "the", "dog"]
    chart = charts.heatmap(
        np.eye(5), token_axis(tokens), token_axis(tokens),
        row_title="q", col_title="k", value_title="a", domain=(0.0, 1.0),
    )  # fmt: skip
    rect = _layers(chart)[0]["encoding"]
    assert len(set(rect["x"]["sort"])) == 5 and rect["x"]["axis"]["labelOverlap"] is False
    assert rect["y"]["sort"][3] == "3:4 · the"  # keyed by position, shown as "4 · the"
    assert rect["color"]["scale"] == {"domain": [0.0, 1.0], "scheme": "blues"}
    assert rect["color"]["legend"]["orient"] == "bottom"  # under the plot: it takes no width


def test_heatmap_prints_numbers_in_a_small_matrix_and_not_in_a_large_one() -> None:
    small = charts.heatmap(
        np.ones((4, 4)), TOKENS, TOKENS, row_title="q", col_title="k", value_title="a"
    )
    assert len(_layers(small)) == 2
    large = charts.heatmap(
        np.ones((8, 64)), [str(i) for i in range(8)], [str(j) for j in range(64)],
        row_title="q", col_title="k", value_title="a", width=grid.HALF,
    )  # fmt: skip
    assert len(_layers(large)) == 1


def test_a_legend_reads_in_percent_when_the_cells_do() -> None:
    def legend(fmt: str) -> dict:
        spec = charts.heatmap(
            np.full((2, 2), 0.25), TOKENS[:2], TOKENS[:2], row_title="q", col_title="k",
            value_title="a", fmt=fmt, domain=(0.0, 1.0),
        )  # fmt: skip
        return _layers(spec)[0]["encoding"]["color"]["legend"]

    assert legend(".0%")["format"] == "%" and legend(".1%")["format"] == "%"
    assert "format" not in legend(".2f")  # 0–1 numbers in the cells: 0–1 in the legend


def test_a_small_matrix_puts_a_long_legend_title_above_its_colour_bar() -> None:
    """Guards against a colour bar squeezed beside its title: under Watch it learn's 2 × 4 head
    grid, "mean weight on the name" left the bar 60 px, "0%" against "100%"."""
    spec = charts.heatmap(
        np.full((2, 4), 0.5), ["1", "2"], ["1", "2", "3", "4"], row_title="layer",
        col_title="head", value_title="mean weight on the name", fmt=".0%", domain=(0.0, 1.0),
        width=320,
    )  # fmt: skip
    legend = _layers(spec)[0]["encoding"]["color"]["legend"]
    plot = 4 * spec["width"]["step"]
    assert legend["titleOrient"] == "top" and legend["gradientLength"] == plot
    wide = grid.legend_fit(grid.FULL, "αᵢⱼ", (0, 1))  # room to spare: the title stays beside
    assert wide == {"titleOrient": "left", "gradientLength": grid.MAX_LEGEND}
    short = grid.legend_fit(20, "w", (0, 1))
    assert short["gradientLength"] == grid.MIN_LEGEND  # its labels still apart,
    assert short["values"] == [0.0, 1.0]  # and only its ends labelled: "50%" touched "100%"


def test_attention_bars_keep_a_repeated_word_as_two_bars() -> None:
    tokens = ["the", "cat", "saw", "the"]
    chart = charts.attention_weights(
        tokens, [0.1, 0.2, 0.3, 0.4], 3, token_title="key", weight_title="a"
    )
    x = chart.to_dict()["layer"][0]["encoding"]["x"]
    assert x["sort"] == ["0:the", "1:cat", "2:saw", "3:the"]


def test_attention_bars_write_weights_as_the_page_does() -> None:
    """Guards against bars labelled "1.000" beside sentences that say "100%": given the page's
    texts, the labels and the tooltip show them, and the axis reads in percent."""
    chart = charts.attention_weights(
        ["tom", "loves"], [0.998, 0.002], 0, token_title="key", weight_title="w",
        fmt=".0%", texts=["99.8%", "0.2%"],
    ).to_dict()  # fmt: skip
    bars, labels = chart["layer"]
    assert [row["text"] for row in chart["datasets"][chart["data"]["name"]]] == ["99.8%", "0.2%"]
    assert labels["encoding"]["text"]["field"] == "text"
    assert bars["encoding"]["tooltip"][1]["field"] == "text"
    assert bars["encoding"]["y"]["axis"]["format"] == "%"
    plain = charts.attention_weights(["a", "b"], [0.25, 0.75], 1, token_title="k", weight_title="w")
    spec = plain.to_dict()
    assert [row["text"] for row in spec["datasets"][spec["data"]["name"]]] == ["0.250", "0.750"]
    assert "format" not in spec["layer"][0]["encoding"]["y"]["axis"]


def test_attention_bars_label_every_key_until_the_labels_would_collide() -> None:
    def overlap(n: int) -> object:
        tokens = [f"w{k}" for k in range(n)]
        chart = charts.attention_weights(
            tokens, [1.0 / n] * n, 0, token_title="key", weight_title="a"
        )
        return chart.to_dict()["layer"][0]["encoding"]["x"]["axis"]["labelOverlap"]

    assert overlap(charts.MAX_LABELLED_KEYS) is False  # every key named
    assert overlap(437) == "greedy"  # a 2000-character text: labels printed over each other


def test_scatter_labels_never_collide_except_the_learners_own() -> None:
    xs, ys = [0.0, 0.001, 1.0, 0.5], [0.0, 0.001, 1.0, 0.5]
    texts = ["cat", "dog", "sea", "bank"]
    assert grid.free_labels(xs, ys, texts, width=300, height=300) == [True, False, True, True]
    # "dog" is the learner's word: labelled first, and "cat" under it gives way
    keep = grid.free_labels(xs, ys, texts, width=300, height=300, first=[1])
    assert keep == [False, True, True, True]
    both = grid.free_labels(xs, ys, texts, width=300, height=300, first=[0, 1])
    assert both[:2] == [True, True]  # the learner's words are labelled even on top of each other
    # a label is not drawn over another word's dot: "bank"'s dot, ~5 px right of "dog"'s, lies
    # in the box of dog's label (which starts 5 px right of dog's own dot); bank's label is free
    on_dot = grid.free_labels([0.0, 0.5, 1.0, 0.52], [0.0, 0.5, 1.0, 0.505], texts, width=300,
                              height=300)  # fmt: skip
    assert on_dot == [True, False, True, True]
    # ... unless dog is the learner's word: then its label stays and bank's gives way
    pinned = grid.free_labels([0.0, 0.5, 1.0, 0.52], [0.0, 0.5, 1.0, 0.505], texts, width=300,
                              height=300, first=[1])  # fmt: skip
    assert pinned == [True, True, True, False]
    assert grid.padded_domain([]) == (-1.0, 1.0)
    assert grid.padded_domain([2.0, 2.0]) == pytest.approx((1.94, 2.06))


def test_the_word_map_labels_every_word_of_the_sentence_and_spreads_the_rest() -> None:
    import pandas as pd

    from transformer_walk.app.charts import embeddings as charts_embeddings

    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(120)]
    frame = pd.DataFrame(
        {"x": rng.normal(size=120), "y": rng.normal(size=120), "word": words, "category": "c"}
    )
    chart = charts_embeddings.word_map(
        frame, title="", category_title="", category_order=["c"], highlight=["w3", "w4"]
    )
    assert isinstance(chart.data, pd.DataFrame)  # the layers share the frame, kept at the top
    rows = chart.data.set_index("word")
    assert rows.loc[["w3", "w4"], "labelled"].all()
    assert 10 < rows["labelled"].sum() < 120  # a crowd of 120: some labelled, not all


def test_row_labels_fit_their_rows() -> None:
    """Guards against row labels taller than their rows: a 4 × 16 matrix in a half column got
    14-px rows and 11-px labels (14.3 px a line), and "1 · dog" touched "2 · his"."""
    for cols in range(1, 120):
        g = grid.grid_for(4, cols, width=grid.HALF, row_labels=["1 · dog", "2 · his"])
        fits = g.row_label_font * grid.LINE_HEIGHT <= g.row_height
        assert fits or g.row_label_font == grid.MIN_AXIS_FONT


def test_a_wide_matrix_of_few_rows_gets_rows_tall_enough_for_full_size_labels() -> None:
    """The KV cache page draws a cached key's 64 dimensions by a few positions: square cells
    gave 11-px rows with 8-px labels. Its rows grow instead, and its labels on every 8th column
    ("1", "9", …) stand level at full size in the room the unlabelled columns leave them."""
    dims = [str(j + 1) if j % 8 == 0 else "" for j in range(64)]
    rows = ["1 · Tom", "2 · ␣loves", "3 · ␣his", "4 · ␣dog"]
    g = grid.grid_for(
        4, 64, width=grid.FULL, row_labels=rows, col_labels=dims, row_title="position"
    )
    assert g.cell < g.row_height and g.row_label_font == grid.AXIS_FONT
    assert g.row_label_font * grid.LINE_HEIGHT <= g.row_height
    assert (g.x_angle, g.axis_font) == (0, grid.AXIS_FONT)
    spec = charts.heatmap(
        np.zeros((4, 64)), rows, dims, row_title="position", col_title="dimension",
        value_title="number",
    )  # fmt: skip
    assert spec["height"] == {"step": g.row_height} and spec["width"] == {"step": g.cell}
    y_axis = spec["layer"][0]["encoding"]["y"]["axis"]
    assert y_axis["labelFontSize"] == grid.AXIS_FONT
    # Every column labelled, or many rows: square cells as before.
    every = grid.grid_for(4, 64, width=grid.FULL, col_labels=[str(j) for j in range(64)])
    assert every.x_angle != 0 and every.axis_font < grid.AXIS_FONT
    tall = grid.grid_for(40, 100, width=grid.FULL, col_labels=[""] * 100)
    assert tall.row_height == tall.cell


def test_a_tall_matrix_keeps_its_cells_to_max_cell() -> None:
    """The MiniLM ranking draws 40 keys × 5 heads upright in a half column: at the largest cell
    that fits the width it would be some 1,700 px tall, so it asks for smaller cells."""
    keys = token_axis(["fisherman"] * 40)
    heads = [f"L{k}·H{k}" for k in range(1, 6)]
    free = grid.grid_for(40, 5, width=grid.HALF, row_labels=keys, col_labels=heads)
    capped = grid.grid_for(40, 5, width=grid.HALF, row_labels=keys, col_labels=heads, max_cell=18)
    assert free.cell > 30 and capped.cell == 18
    assert capped.axis_font == grid.AXIS_FONT  # 18-px rows still take 11-px labels
    spec = charts.heatmap(
        np.zeros((40, 5)), keys, heads, row_title="key", col_title="head", value_title="w",
        width=grid.HALF, max_cell=18,
    )  # fmt: skip
    assert spec["height"] == {"step": 18} and spec["width"] == {"step": 18}


def test_band_axes_keep_their_first_and_last_labels_on_their_rows() -> None:
    # Streamlit's theme flushes axis labels inward, which on a band axis moved row 1's label onto
    # row 2: every axis here turns that off.
    spec = charts.heatmap(np.eye(3), ["a", "b", "c"], ["x", "y", "z"], row_title="r",
                          col_title="c", value_title="v")  # fmt: skip
    encoding = spec["layer"][0]["encoding"]
    assert encoding["x"]["axis"]["labelFlush"] is False
    assert encoding["y"]["axis"]["labelFlush"] is False
    assert charts.y_axis("token").to_dict()["labelFlush"] is False
    bars = charts.attention_weights(["a", "b"], [0.4, 0.6], 1, token_title="k", weight_title="w")
    assert bars.to_dict()["layer"][0]["encoding"]["x"]["axis"]["labelFlush"] is False


def test_the_coverage_grid_fits_its_half_column() -> None:
    from transformer_walk.app.charts import rnn as charts_rnn

    titles = {"pair": "p", "seen": "s", "unseen": "u"}
    for n in (4, 11, 31):
        tokens = [f"word{k}" for k in range(n)]
        chart = charts_rnn.coverage_grid(
            tokens, [range(0, 1)], 0, n - 1, layer_title="L", token_title="t",
            status_titles=titles,
        )  # fmt: skip
        spec = chart.to_dict()
        step = spec["width"]["step"]
        assert step * n + charts_rnn.GRID_AXIS_ROOM <= grid.HALF, (n, step)
        assert spec["encoding"]["color"]["legend"]["orient"] == "bottom"  # not beside the cells
        assert spec["encoding"]["x"]["axis"]["labelOverlap"] is False  # no label dropped


def test_cell_text_drops_the_sign_of_a_rounded_zero() -> None:
    from transformer_walk.app.charts import cell_text

    assert cell_text(-0.004, ".2f") == "0.00"
    assert cell_text(0.004, ".2f") == "0.00"
    assert cell_text(-0.006, ".2f") == "-0.01"
    assert cell_text(-12.0, ".0f") == "-12"
    assert cell_text(float("nan"), ".2f") == "nan"


def test_cell_texts_given_by_the_page_are_printed_and_shown_in_the_tooltip() -> None:
    # the Watch-it-learn grid: ".0%" printed a head at 0.998 as "100%" beside a sentence giving
    # it as 99.8%; the page now writes its cells with the sentences' own percent
    values = np.array([[0.998, 0.15]])
    spec = charts.heatmap(
        values, ["1"], ["1", "2"], row_title="layer", col_title="head", value_title="w",
        fmt=".0%", domain=(0.0, 1.0), texts=["99.8%", "15%"],
    )  # fmt: skip
    assert [c["text"] for c in spec["data"]["values"]] == ["99.8%", "15%"]
    tooltip = _layers(spec)[0]["encoding"]["tooltip"][-1]
    assert tooltip["field"] == "text"  # not the value in ".0%", which would read 100%
    with pytest.raises(ValueError, match="3 cell texts"):
        charts.heatmap(
            values, ["1"], ["1", "2"], row_title="l", col_title="h", value_title="w",
            texts=["a", "b", "c"],
        )  # fmt: skip
    plain = charts.heatmap(values, ["1"], ["1", "2"], row_title="l", col_title="h", value_title="w")
    assert [c["text"] for c in plain["data"]["values"]] == ["1.00", "0.15"]
