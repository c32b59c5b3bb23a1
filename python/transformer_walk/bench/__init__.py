"""Race the backends: pure Python vs NumPy vs Rust on one thread and on all threads.

    python -m transformer_walk.bench                       # quick preset, all ops
    python -m transformer_walk.bench --goals                 # the performance goals, as ratios

By job: ``cases`` (the ops and their sizes; ``train_step`` the learner's training step among
them), ``timing`` (how a call is timed, the clock, the
deadline, the thread-count lock), ``runner`` (the race), ``results`` (what it produces),
``report`` (as text), ``cli`` (the command line), ``attention_curve`` (the Cost page's
measurement) and ``goals`` (the performance goals). The names below are what the app and the
tests use.
"""

from transformer_walk.bench.attention_curve import (
    AttentionLane,
    Timing,
    random_qkv,
    time_attention,
)
from transformer_walk.bench.cases import DEFAULT_PRESET, OPS, PRESETS, Case, OpSpec, ladder
from transformer_walk.bench.report import (
    cell_text,
    format_rate,
    format_seconds,
    format_speedup,
    report,
    steps_per_second,
    tokens_per_second,
)
from transformer_walk.bench.results import (
    BUDGET,
    BUDGETED_LANE,
    DEADLINE,
    ERROR,
    EXTERNAL_LANES,
    LANE_BACKEND,
    LANES,
    OK,
    REFERENCE_LANE,
    SKIPPED,
    UNAVAILABLE,
    BenchResult,
    Cell,
    Progress,
)
from transformer_walk.bench.runner import (
    DEFAULT_PYTHON_BUDGET_S,
    DEFAULT_REPEATS,
    DEFAULT_WARMUP,
    run_benchmark,
)
from transformer_walk.bench.timing import (
    BLAS_SETTLE_S,
    MIN_SAMPLE_S,
    MIN_WARMUP_S,
    THREAD_COUNT_LOCK,
    Clock,
    Deadline,
    available_cores,
    measure,
    one_thread,
    threads,
)

__all__ = [
    "BLAS_SETTLE_S",
    "BUDGET",
    "BUDGETED_LANE",
    "DEADLINE",
    "DEFAULT_PRESET",
    "DEFAULT_PYTHON_BUDGET_S",
    "DEFAULT_REPEATS",
    "DEFAULT_WARMUP",
    "ERROR",
    "LANES",
    "EXTERNAL_LANES",
    "LANE_BACKEND",
    "MIN_SAMPLE_S",
    "MIN_WARMUP_S",
    "OK",
    "OPS",
    "PRESETS",
    "REFERENCE_LANE",
    "SKIPPED",
    "THREAD_COUNT_LOCK",
    "UNAVAILABLE",
    "AttentionLane",
    "BenchResult",
    "Case",
    "Cell",
    "Clock",
    "Deadline",
    "OpSpec",
    "Progress",
    "Timing",
    "available_cores",
    "cell_text",
    "format_rate",
    "format_seconds",
    "format_speedup",
    "ladder",
    "measure",
    "one_thread",
    "random_qkv",
    "report",
    "run_benchmark",
    "steps_per_second",
    "threads",
    "time_attention",
    "tokens_per_second",
]
