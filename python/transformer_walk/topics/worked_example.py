"""The "Tom loves his dog" worked example: one query, four keys, computed by hand.

The query is "his" (token 3). Its scores against the keys Tom / loves / his / dog are illustrative
numbers, not measured from a trained model:

    s_his = [2.5, 0.5, 1.0, 0.8]
    α_his = softmax(s_his) ≈ [0.649, 0.088, 0.145, 0.119]
    z_his = α_his V ≈ [0.853, 0.292]      with V = [[1, 0], [0, 1], [1, 1], [0.5, 0.5]]

``worked_example(backend)`` records every intermediate in an ``AttentionTrace`` that the page
renders. The weights come from ``backend.softmax`` and ``z`` from one fused ``backend.attention``
call, so the selected backend does the real work; the step-by-step numbers beside them
(exp(s − max), their sum, α_j v_j) are the same computation spelled out, and the page shows that
both routes agree.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from transformer_walk.core import Backend, get_backend

DEFAULT_TOKENS: tuple[str, ...] = ("Tom", "loves", "his", "dog")
QUERY_INDEX = 2  # "his": the token whose new representation we compute
DEFAULT_SCORES: tuple[float, ...] = (2.5, 0.5, 1.0, 0.8)
# A 2-D value vector per token, small enough to follow by eye.
DEFAULT_VALUES: tuple[tuple[float, ...], ...] = ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (0.5, 0.5))


class InputError(ValueError):
    """An edited number the example cannot use; ``code`` and ``cells`` let the UI explain it.

    ``code``: ``not_a_number`` (text, or an empty cell), ``not_finite`` (NaN or ±inf) or
    ``wrong_shape`` (row or column counts that do not fit the tokens). ``cells``: the offending
    entries as ``("s", row, None)`` for a score and ``("v", row, column)`` for an entry of V.
    """

    def __init__(
        self, code: str, cells: Sequence[tuple[str, int, int | None]] = (), detail: str = ""
    ) -> None:
        self.code = code
        self.cells = tuple(cells)
        self.detail = detail
        super().__init__(f"{code}: {detail or self.cells}")


@dataclass(frozen=True)
class AttentionTrace:
    """Every number of one query's attention, in the order the page explains it."""

    backend: str  # name of the backend that computed `weights` and `z`
    tokens: tuple[str, ...]  # x_1 … x_n
    query_index: int  # position of the query token ("his")
    scores: np.ndarray  # [n]      s_j = q·k_jᵀ/√d_k (given, illustrative)
    max_score: float  #            max_j s_j, subtracted for numerical stability
    shifted_exp: np.ndarray  # [n]  exp(s_j − max s)
    exp_sum: float  #              Σ_j exp(s_j − max s)
    weights: np.ndarray  # [n]     α_j = softmax(s)_j, from backend.softmax
    values: np.ndarray  # [n, d_v] the rows v_j of V
    contributions: np.ndarray  # [n, d_v]  α_j v_j
    weighted_sum: np.ndarray  # [d_v]  Σ_j α_j v_j, added up row by row
    z: np.ndarray  # [d_v]         softmax(s) V from one fused backend.attention call

    @property
    def query_token(self) -> str:
        return self.tokens[self.query_index]

    @property
    def n(self) -> int:
        return len(self.tokens)

    @property
    def top_index(self) -> int:
        """The key that receives the largest weight (the first one on a tie)."""
        return int(np.argmax(self.weights))

    @property
    def shifted_scores(self) -> np.ndarray:
        """s_j − max s: what actually goes into exp(); the largest is exactly 0."""
        return self.scores - self.max_score

    @property
    def runner_up_index(self) -> int | None:
        """The key with the second-largest weight (None with a single token)."""
        if self.n < 2:
            return None
        order = np.argsort(-self.weights, kind="stable")
        return int(order[1])

    @property
    def lead_ratio(self) -> float | None:
        """α_top / α_runner-up = exp(s_top − s_runner-up): softmax turns a gap into a ratio."""
        second = self.runner_up_index
        if second is None or self.weights[second] == 0:
            return None
        return float(self.weights[self.top_index] / self.weights[second])

    @property
    def top_indices(self) -> tuple[int, ...]:
        """Every key tied for the largest weight (usually just ``top_index``)."""
        best = self.weights[self.top_index]
        return tuple(int(i) for i in np.flatnonzero(np.isclose(self.weights, best, rtol=1e-12)))

    @property
    def lead_kind(self) -> str:
        """How the winner won: ``tie``, ``close`` (under 1.5× the runner-up) or ``clear``."""
        if len(self.top_indices) > 1:
            return "tie"
        ratio = self.lead_ratio
        return "close" if ratio is not None and ratio < 1.5 else "clear"

    def weight_guess_error(self, token_index: int, guess: float) -> float:
        """guess − α_token: positive when the guess was too high."""
        return float(guess - self.weights[token_index])

    def weight_guess_verdict(self, token_index: int, guess: float, tolerance: float = 0.05) -> str:
        """``close`` within ``tolerance`` of the true weight, else ``high`` or ``low``."""
        error = self.weight_guess_error(token_index, guess)
        return "close" if abs(error) <= tolerance else "high" if error > 0 else "low"

    @property
    def fused_difference(self) -> float:
        """Largest |z − Σ α_j v_j|: how closely the fused call matches the hand-made sum."""
        return float(np.max(np.abs(self.z - self.weighted_sum))) if self.z.size else 0.0


def check_inputs(
    scores: Sequence[Any], values: Sequence[Sequence[Any]], n: int
) -> tuple[np.ndarray, np.ndarray]:
    """Scores [n] and V [n, d_v] as finite float64 arrays; else InputError naming every bad cell."""
    score_list = list(scores)
    rows = [list(row) for row in values]
    if len(score_list) != n:
        raise InputError("wrong_shape", detail=f"expected {n} scores, got {len(score_list)}")
    if len(rows) != n or len({len(row) for row in rows}) != 1 or not rows[0]:
        raise InputError("wrong_shape", detail=f"expected {n} rows of V of one non-zero length")
    cells: list[tuple[tuple[str, int, int | None], Any]] = [
        (("s", row, None), value) for row, value in enumerate(score_list)
    ]
    cells += [
        (("v", row, col), value)
        for row, entries in enumerate(rows)
        for col, value in enumerate(entries)
    ]
    _reject_bad_cells(cells)
    return np.asarray(score_list, dtype=np.float64), np.asarray(rows, dtype=np.float64)


def _reject_bad_cells(cells: list[tuple[tuple[str, int, int | None], Any]]) -> None:
    bad = [(where, value) for where, value in cells if not _is_finite_number(value)]
    if bad:
        # Text or an emptied cell reads as "not a number"; NaN or inf typed in as "not finite".
        code = "not_finite" if all(_is_number(value) for _, value in bad) else "not_a_number"
        raise InputError(code, [where for where, _ in bad])


def _is_number(value: Any) -> bool:
    """True for anything float() accepts, NaN and inf included (so they can be told apart)."""
    if value is None or isinstance(value, bool):
        return False
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


def _is_finite_number(value: Any) -> bool:
    return _is_number(value) and math.isfinite(float(value))


def worked_example(
    backend: str | Backend = "numpy",
    scores: Sequence[Any] = DEFAULT_SCORES,
    values: Sequence[Sequence[Any]] = DEFAULT_VALUES,
    tokens: Sequence[str] = DEFAULT_TOKENS,
    query_index: int = QUERY_INDEX,
) -> AttentionTrace:
    """Compute one query's attention step by step through ``backend`` and record every number.

    ``backend`` is a name from ``BACKENDS`` or a backend module. Raises ``InputError`` when the
    scores or V are not finite numbers of the right shape.
    """
    module = get_backend(backend) if isinstance(backend, str) else backend
    name = backend if isinstance(backend, str) else _module_name(module)
    tokens = tuple(tokens)
    n = len(tokens)
    if not 0 <= query_index < n:
        raise ValueError(f"query_index {query_index} is outside the {n} tokens")
    s, v = check_inputs(scores, values, n)  # [n], [n, d_v]

    # The softmax spelled out: subtracting the maximum changes nothing mathematically (it cancels
    # in the ratio) but keeps exp() from overflowing, which is what every real kernel does.
    max_score = float(np.max(s))
    shifted_exp = np.exp(s - max_score)  # [n]
    exp_sum = float(np.sum(shifted_exp))

    weights = np.asarray(module.softmax(s), dtype=np.float64)  # [n]
    contributions = weights[:, None] * v  # [n, d_v]   α_j v_j
    weighted_sum = contributions.sum(axis=0)  # [d_v]

    # One fused call: with q = s as a [1, n] matrix, K = I_n and scale = 1, q Kᵀ · scale = s, so
    # attention(q, K, V) = softmax(s) V — the backend's own kernel, not our loop above.
    q = s[None, :]  # [1, n]
    k = np.eye(n)  # [n, n]
    z = np.asarray(module.attention(q, k, v, scale=1.0), dtype=np.float64)[0]  # [d_v]

    return AttentionTrace(
        backend=name,
        tokens=tokens,
        query_index=query_index,
        scores=s,
        max_score=max_score,
        shifted_exp=shifted_exp,
        exp_sum=exp_sum,
        weights=weights,
        values=v,
        contributions=contributions,
        weighted_sum=weighted_sum,
        z=z,
    )


def _module_name(module: Backend) -> str:
    """Backend name of a module (``rust_core`` → ``rust``), for the trace's label."""
    name = str(getattr(module, "__name__", ""))  # a module's name; a Backend need not have one
    if name.startswith("rust_core"):
        return "rust"
    return name.rsplit(".", 1)[-1].removesuffix("_backend")
