"""The sizes the Speed page offers: small defaults, and caps so no click runs for minutes.

Each op has fixed sizes (one choice each) and a ladder along its axis (several choices), so the
chart reads as "time vs that one size". The largest choices still finish within seconds in NumPy
and Rust; pure Python is held back by its time budget per cell, and the whole click by its
deadline (``bench``).
"""

from __future__ import annotations

from dataclasses import dataclass

from transformer_walk.bench import OPS, Case, ladder


@dataclass(frozen=True)
class SizeChoices:
    fixed_options: dict[str, tuple[int, ...]]  # a select box per fixed size
    fixed_default: dict[str, int]
    axis_options: tuple[int, ...]  # a multiselect along the op's axis
    axis_default: tuple[int, ...]

    def cases(self, op: str, axis_values: list[int], **fixed: int) -> list[Case]:
        """The op's cases, refusing values outside the offered (capped) choices."""
        for name, value in fixed.items():
            if value not in self.fixed_options[name]:
                raise ValueError(f"{name}={value} is not one of {self.fixed_options[name]}")
        too_big = [v for v in axis_values if v not in self.axis_options]
        if too_big:
            raise ValueError(f"{OPS[op].axis}={too_big} not in {self.axis_options}")
        return ladder(op, sorted(set(axis_values)), **fixed)


CHOICES: dict[str, SizeChoices] = {
    "softmax": SizeChoices(
        fixed_options={"cols": (64, 256, 1024)},
        fixed_default={"cols": 256},
        axis_options=(16, 64, 256, 1024, 4096),
        axis_default=(16, 256, 1024),
    ),
    "attention": SizeChoices(
        fixed_options={"batch": (1, 2, 4), "heads": (1, 2, 4, 8), "d": (16, 32, 64)},
        fixed_default={"batch": 1, "heads": 4, "d": 32},
        axis_options=(16, 32, 64, 128, 256, 512),
        axis_default=(16, 64, 256),
    ),
    "embedding": SizeChoices(
        fixed_options={"vocab": (1_000, 10_000, 30_522), "d": (64, 128, 384)},
        fixed_default={"vocab": 10_000, "d": 64},
        axis_options=(100, 1_000, 10_000, 100_000),
        axis_default=(100, 1_000, 10_000),
    ),
    "minilm": SizeChoices(
        fixed_options={"batch": (1, 4, 8)},
        fixed_default={"batch": 1},
        axis_options=(8, 16, 32, 64, 128, 256),
        axis_default=(16, 64, 128),
    ),
    "smollm2_prefill": SizeChoices(
        fixed_options={},
        fixed_default={},
        axis_options=(4, 16, 64, 128, 256),
        axis_default=(4, 16, 64),
    ),
    "smollm2_decode": SizeChoices(
        fixed_options={},
        fixed_default={},
        axis_options=(1, 16, 64, 256, 1024),
        axis_default=(1, 64, 256),
    ),
    # n stops at the learner's 32 positions; pure Python fits its default budget at batch 1
    "train_step": SizeChoices(
        fixed_options={"n": (8, 16, 32)},
        fixed_default={"n": 32},
        axis_options=(1, 2, 4, 8, 16, 32),
        axis_default=(1, 8, 32),
    ),
}

#: One click's deadline: cells that would start or end later are skipped (``bench.run_benchmark``).
CLICK_DEADLINE_S = 60.0
REPEATS_RANGE = (3, 15)
DEFAULT_REPEATS = 5
BUDGET_RANGE_S = (0.5, 5.0)
DEFAULT_BUDGET_S = 2.0
