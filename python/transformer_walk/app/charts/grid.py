"""How a chart fits the column it is drawn in: a matrix's cell size, label angle, fonts, which
values fit, and which colour scale its numbers call for; which axis titles stand upright; which
points of a scatter get a label. Pure arithmetic on sizes, so it is tested without a browser;
``charts.heatmap`` and the scatters draw what it decides.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

# Room a chart may take, in CSS pixels, by the column it is drawn in: the app's wide layout on a
# 1280-pixel screen with the sidebar open leaves about 900 for the page (less its padding).
FULL = 860
HALF = 410
THIRD = 265

MAX_CELL = 44
MIN_CELL = 4
AXIS_FONT = 11
MIN_AXIS_FONT = 7
# Average advance of a character at font size 1: digits and Latin letters are about 0.6 em;
# CJK characters are a full em.
DIGIT_EM = 0.6
CJK_EM = 1.0
LABEL_LIMIT = 120  # px: a longer axis label is cut with "…" (the tooltip has it whole)
# A matrix's colour bar, in px: shorter than MIN_LEGEND its end labels ("0%", "100%") run
# together; beside its title it needs LEGEND_BESIDE_TITLE, else the title goes above it.
MIN_LEGEND = 60
MAX_LEGEND = 200
LEGEND_BESIDE_TITLE = 80
# Shorter than this a bar is labelled at its two ends only: at 60–90 px Vega's middle label
# ("50%") nearly touched "100%".
LEGEND_THREE_LABELS = 100
MAX_VALUE_CELLS = 400  # a value printed in each of more cells than this is noise, not reading
AXIS_OVERHEAD = 2 * AXIS_FONT + 30  # px beside the y labels: title, ticks, paddings, margins
TITLE_FONT = AXIS_FONT + 1
LINE_HEIGHT = 1.3  # a label's height in fonts, ascenders to descenders
# A Chinese axis title this many ems wide or narrower is set upright: rotated, "词" or
# "查询 token i" reads sideways, and upright it takes little room.
UPRIGHT_CJK_EMS = 7
UPRIGHT_MIN_SHARE = 0.8  # of a heatmap's cell size that an upright title may leave
WIDE_ROWS_MAX_HEIGHT = 480  # px: a wide matrix's rows grow to full-size labels up to 32 rows
#: A y title set horizontally, left of the axis labels, centred on the plot.
UPRIGHT_Y_TITLE: dict[str, Any] = {
    "titleAngle": 0,
    "titleAlign": "right",
    "titleBaseline": "middle",
}


def is_cjk(ch: str) -> bool:
    return ord(ch) > 0x2E80


def text_width(text: str, font: float) -> float:
    """Estimated width of ``text`` in px at ``font`` px (no font metrics on the server)."""
    return sum(font * (CJK_EM if is_cjk(ch) else DIGIT_EM) for ch in text)


def short_chinese(title: str) -> bool:
    """A Chinese title narrow enough to stand upright (``UPRIGHT_CJK_EMS``)."""
    return any(map(is_cjk, title)) and text_width(title, TITLE_FONT) <= UPRIGHT_CJK_EMS * TITLE_FONT


def upright_title(title: str, plot_height: float | None = None) -> bool:
    """Whether a y-axis title should be set horizontally rather than rotated: when it is short
    Chinese (rotated CJK reads sideways), or when rotated it would be much taller than the plot
    beside it (a one-row matrix: the title would be cut off)."""
    if short_chinese(title):
        return True
    # The width estimate runs a little long, and a title a few pixels past the plot still reads.
    return plot_height is not None and text_width(title, TITLE_FONT) > 1.25 * plot_height


def title_lines(title: str) -> list[str]:
    """An upright title one word a line, so it takes the width of its longest word; a Chinese
    one whole ("查询 token i" split left the "i" alone on a line)."""
    if any(map(is_cjk, title)):
        return [title]
    return title.split() or [title]


def upright_axis(title: str, plot_height: float | None = None) -> dict[str, Any]:
    """Vega-Lite axis properties that set a y title horizontally, left of the labels, when
    ``upright_title`` says so; none otherwise."""
    return dict(UPRIGHT_Y_TITLE) if upright_title(title, plot_height) else {}


@dataclass(frozen=True)
class Grid:
    """How to draw a rows × cols matrix in ``width`` px."""

    cell: int  # px per column (and per row, unless ``row_step`` says otherwise)
    axis_font: int  # px of the column labels (and of the row labels, unless ``row_font``)
    x_angle: int  # 0 when every column label fits its room, else -45 or -90
    value_font: int  # px of the numbers printed in the cells; 0: no numbers (tooltip only)
    upright_y_title: bool = False  # the row title set horizontally (``upright_title``)
    row_step: int = 0  # px per row when rows are taller than the cells are wide (0: ``cell``)
    row_font: int = 0  # px of the row labels when they differ from the columns' (0: ``axis_font``)

    @property
    def row_height(self) -> int:
        return self.row_step or self.cell

    @property
    def row_label_font(self) -> int:
        return self.row_font or self.axis_font

    def plot_width(self, cols: int) -> int:
        return self.cell * cols


def grid_for(
    rows: int,
    cols: int,
    *,
    width: int,
    row_labels: Sequence[str] = (),
    col_labels: Sequence[str] = (),
    values: Sequence[str] = (),
    row_title: str = "",
    max_cell: int = MAX_CELL,
) -> Grid:
    """The largest square cell (up to ``max_cell`` px) with which ``cols`` columns, the row labels
    beside them and the axis title fit ``width``; labels are never dropped (a smaller font
    instead), and the numbers ``values`` (already formatted) are printed only when the widest of
    them fits inside a cell. The row title is set upright when ``upright_title`` asks for it, with
    room made for it. A smaller ``max_cell`` keeps a tall matrix (many rows, few columns) short;
    a wide one of few rows keeps its narrow columns but gets rows tall enough for full-size
    labels (``row_step``), and column labels on every n-th column only stand level in the room
    between them."""
    label_room = min(LABEL_LIMIT, max((text_width(s, AXIS_FONT) for s in row_labels), default=0))
    # Besides the labels, the y axis takes its title, ticks and paddings (about 50 px in all
    # for one-character labels, measured in Chromium).
    room = max(1, width - int(label_room) - AXIS_OVERHEAD)
    cell = int(max(MIN_CELL, min(max_cell, room // max(1, cols))))
    upright = bool(row_title) and upright_title(row_title, rows * cell)
    if upright:  # its widest line beside the labels instead of a rotated line's height
        widest = max(text_width(line, TITLE_FONT) for line in title_lines(row_title))
        narrower = int(
            max(MIN_CELL, min(max_cell, (room - int(widest) + TITLE_FONT) // max(1, cols)))
        )
        # Upright only where that costs the cells little: in a half column, a title beside the
        # labels shrank a 4 × 16 matrix's rows until their labels overprinted.
        if narrower >= UPRIGHT_MIN_SHARE * cell:
            cell = narrower
        else:
            upright = False
    # A label needs a cell at least its line height tall (rows) or wide (rotated columns): at
    # cell − 2, 14-px rows got 11-px labels 14.3 px tall, and neighbours touched.
    axis_font = int(max(MIN_AXIS_FONT, min(AXIS_FONT, cell // LINE_HEIGHT)))
    # A wide matrix of few rows (a cached key's 64 dimensions by a few positions) keeps narrow
    # columns but gets rows tall enough for full-size labels, instead of 8-px ones.
    full_row = math.ceil(AXIS_FONT * LINE_HEIGHT)
    row_step, row_font = 0, axis_font
    if cell < full_row and cols >= 2 * rows and rows * full_row <= WIDE_ROWS_MAX_HEIGHT:
        row_step, row_font = full_row, AXIS_FONT
    widest_col = max((text_width(s, axis_font) for s in col_labels), default=0)
    # Labels on every n-th column only ("1", "9", "17", …) have the n columns between them:
    # level and full-size when they fit there.
    gap = _label_gap(col_labels)
    if gap > 1 and max(text_width(s, AXIS_FONT) for s in col_labels) <= gap * cell - 2:
        axis_font, angle = AXIS_FONT, 0
    elif widest_col <= cell - 2:
        angle = 0
    elif cell * 0.7 >= axis_font + 2:  # 45°: neighbours are cell·sin45° apart
        angle = -45
    else:
        angle = -90
    value_font = int(min(12, max(9, round(cell * 0.3))))  # under 9 px a number is not read
    widest_value = max((text_width(v, value_font) for v in values), default=0)
    fits = 0 < len(values) <= MAX_VALUE_CELLS and widest_value <= cell - 4
    return Grid(
        cell=cell,
        axis_font=axis_font,
        x_angle=angle,
        value_font=value_font if fits else 0,
        upright_y_title=upright,
        row_step=row_step,
        row_font=row_font,
    )


def _label_gap(labels: Sequence[str]) -> int:
    """The fewest columns from one non-empty label to the next (1 when every column has one or
    fewer than two have one)."""
    at = [j for j, label in enumerate(labels) if label]
    if len(at) < 2 or len(at) == len(labels):
        return 1
    return min(b - a for a, b in zip(at, at[1:], strict=False))


def legend_fit(plot_width: int, title: str, ends: tuple[float, float]) -> dict[str, Any]:
    """Vega-Lite properties of a horizontal colour bar under a plot ``plot_width`` wide: the bar
    as long as the plot leaves room for (``MIN_LEGEND`` to ``MAX_LEGEND`` px), so it does not
    widen the chart; its ``title`` to the left while that leaves the bar
    ``LEGEND_BESIDE_TITLE`` px, else above it (beside "mean weight on the name", under a
    2 × 4 matrix, the bar had shrunk to 60 px). A bar shorter than ``LEGEND_THREE_LABELS`` is
    labelled at its scale's ``ends`` only."""
    beside = plot_width - int(text_width(title, AXIS_FONT)) - 24
    if beside >= LEGEND_BESIDE_TITLE:
        orient, length = "left", min(MAX_LEGEND, beside)
    else:
        orient, length = "top", max(MIN_LEGEND, min(MAX_LEGEND, plot_width))
    fit: dict[str, Any] = {"titleOrient": orient, "gradientLength": length}
    if length < LEGEND_THREE_LABELS:
        fit["values"] = [float(ends[0]), float(ends[1])]
    return fit


@dataclass(frozen=True)
class Colours:
    """A colour scale for a matrix: sequential from 0 for data that is never negative (ReLU
    outputs, weights, counts), diverging and centred on 0 for signed data."""

    scheme: Literal["blues", "redblue"]  # Vega's names
    domain: tuple[float, float]
    diverging: bool

    def white_text_test(self) -> str:
        """A Vega test for cells dark enough to need white text: both far ends of a diverging
        scale (its middle is white), the upper part of a sequential one."""
        lo, hi = self.domain
        if self.diverging:
            return f"abs(datum.value) > {0.6 * max(abs(lo), abs(hi)):.6g}"
        return f"datum.value > {lo + 0.55 * (hi - lo):.6g}"


def colours_for(matrix: np.ndarray, domain: tuple[float, float] | None = None) -> Colours:
    """Sequential "blues" over [0, max] (or ``domain``) when nothing is below 0; otherwise a
    red–blue scale symmetric about 0 (or over ``domain``, which must then straddle 0), so equal
    magnitudes get equal colours and 0 is white."""
    values = np.asarray(matrix, dtype=np.float64)
    finite = values[np.isfinite(values)]
    lo = float(finite.min()) if finite.size else 0.0
    hi = float(finite.max()) if finite.size else 0.0
    if domain is not None:
        d_lo, d_hi = float(domain[0]), float(domain[1])
        if d_lo < 0 < d_hi:
            return Colours("redblue", (d_lo, d_hi), True)
        return Colours("blues", (d_lo, d_hi), False)
    if lo >= 0:
        return Colours("blues", (0.0, hi or 1.0), False)
    extent = max(abs(lo), abs(hi)) or 1.0
    return Colours("redblue", (-extent, extent), True)


def padded_domain(values: Sequence[float], pad: float = 0.06) -> tuple[float, float]:
    """The extent of ``values`` widened by ``pad`` of its span on each side (a point at the very
    edge would have its label cut); (-1, 1) when there is nothing to span."""
    if len(values) == 0:
        return (-1.0, 1.0)
    lo, hi = float(min(values)), float(max(values))
    span = hi - lo or 1.0
    return (lo - pad * span, hi + pad * span)


def free_labels(
    xs: Sequence[float],
    ys: Sequence[float],
    texts: Sequence[str],
    *,
    width: float,
    height: float,
    font: float = AXIS_FONT,
    first: Sequence[int] = (),
    dx: float = 5,
    dot: float = 4,
) -> list[bool]:
    """Which points of a scatter to label so that no label overlaps another label or another
    point's dot. Each label is a box a line (``LINE_HEIGHT`` fonts) tall, starting ``dx`` px
    right of its point, on a plot ``width`` × ``height`` px over the ``padded_domain`` of the
    coordinates; each dot a square ``dot`` px from its centre. The points in ``first`` are
    labelled whatever they overlap (the learner's own words); the others in their order, each
    only where its box is free. A point left unlabelled keeps its tooltip."""
    n = len(texts)
    (x0, x1), (y0, y1) = padded_domain(xs), padded_domain(ys)
    centres = [
        ((xs[i] - x0) / (x1 - x0) * width, (1 - (ys[i] - y0) / (y1 - y0)) * height)
        for i in range(n)
    ]
    dots = [(cx - dot, cy - dot, cx + dot, cy + dot) for cx, cy in centres]
    pinned = set(first)
    boxes: list[tuple[float, float, float, float]] = []
    keep = [False] * n
    for i in [*pinned, *(i for i in range(n) if i not in pinned)]:
        px, py = centres[i][0] + dx, centres[i][1]
        box = (px, py - LINE_HEIGHT * font, px + text_width(texts[i], font), py)
        free = not any(_touch(box, b) for b in boxes) and not any(
            _touch(box, d, gap=0) for j, d in enumerate(dots) if j != i
        )
        if free or i in pinned:
            keep[i] = True
            boxes.append(box)
    return keep


def _touch(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float], gap: float = 1
) -> bool:
    """Whether two (left, top, right, bottom) boxes overlap or come within ``gap`` px."""
    return not (a[2] + gap < b[0] or b[2] + gap < a[0] or a[3] + gap < b[1] or b[3] + gap < a[1])
