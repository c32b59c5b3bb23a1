"""When pure Python is too slow: the one rule every page (and experiment) that computes with the
learner's backend follows.

Pure Python is the slow, readable lane; on a long sentence or a wide model a single page would
make the learner wait for minutes. So a computation estimates its work in multiply-adds (a
small function of its sizes, written next to the caller with the helpers below), this module
turns that into seconds of pure Python on this machine, and ``backend_for`` answers which
backend runs it: the learner's pick, or NumPy when pure Python would pass ``PYTHON_BUDGET_S``.
The other backends are never switched: they are fast enough for everything the pages do.
"""

from __future__ import annotations

#: Multiply-adds a second of the ``python`` backend, and what one query–key score costs on top
#: of its dot product (the Python loop around it, the exp and the division of the softmax), in
#: multiply-adds: least-squares fits of time = (multiply-adds + scores · per-score cost) / rate
#: over the python backend's ``attention`` (docs/performance.md), taken a little below the middle
#: so that an estimate that errs makes a page fall back early rather than hang.
PYTHON_MULTIPLY_ADDS_PER_S = 1.5e7
SCORE_MULTIPLY_ADDS = 20

#: How long a page may compute with pure Python before it uses NumPy instead.
PYTHON_BUDGET_S = 1.0


def attention_multiply_adds(heads: int, n: int, m: int, d_k: int, d_v: int = 0) -> int:
    """Work of one ``attention_weights`` call (``d_v = 0``) or ``attention`` call (``d_v`` the
    value width) over ``heads`` independent [n, d_k] queries and [m, d_k] keys: n·m scores of
    d_k multiply-adds and their softmax, then the weighted sum of d_v-wide values."""
    return heads * n * m * (d_k + SCORE_MULTIPLY_ADDS + d_v)


def linear_multiply_adds(rows: int, d_in: int, d_out: int) -> int:
    """Work of one ``linear`` call: every one of ``rows`` inputs through a [d_out, d_in] matrix."""
    return rows * d_in * d_out


def python_seconds(multiply_adds: int) -> float:
    """About how long pure Python takes for ``multiply_adds`` on this machine."""
    return multiply_adds / PYTHON_MULTIPLY_ADDS_PER_S


def backend_for(selected: str, multiply_adds: int, budget_s: float = PYTHON_BUDGET_S) -> str:
    """The backend that runs a computation of ``multiply_adds`` when the learner picked
    ``selected``: ``selected`` itself, unless it is pure Python and that would take longer than
    ``budget_s`` — then NumPy, which computes the same numbers up to rounding."""
    if selected == "python" and python_seconds(multiply_adds) > budget_s:
        return "numpy"
    return selected


__all__ = [
    "PYTHON_BUDGET_S",
    "PYTHON_MULTIPLY_ADDS_PER_S",
    "SCORE_MULTIPLY_ADDS",
    "attention_multiply_adds",
    "backend_for",
    "linear_multiply_adds",
    "python_seconds",
]
