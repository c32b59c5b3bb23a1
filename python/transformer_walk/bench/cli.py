"""The command line of the race.

python -m transformer_walk.bench                       # quick preset, all ops
python -m transformer_walk.bench --ops attention --sizes standard --repeats 7 --json out.json
python -m transformer_walk.bench --goals                 # the performance goals, as ratios
python -m transformer_walk.bench --record bench/results  # also keep it in <date>-<cpu>.json
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from transformer_walk.bench import goals, machine
from transformer_walk.bench.cases import DEFAULT_PRESET, OPS, PRESETS
from transformer_walk.bench.report import report
from transformer_walk.bench.results import EXTERNAL_LANES, LANES, Progress
from transformer_walk.bench.runner import (
    DEFAULT_PYTHON_BUDGET_S,
    DEFAULT_REPEATS,
    DEFAULT_SEED,
    DEFAULT_WARMUP,
    run_benchmark,
)


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m transformer_walk.bench",
        description="Time softmax, attention and embedding lookup in pure Python, NumPy and Rust.",
    )
    parser.add_argument(
        "--ops", nargs="+", choices=list(OPS), default=list(OPS), help="ops to time (default: all)"
    )
    parser.add_argument(
        "--sizes",
        choices=list(PRESETS),
        default=DEFAULT_PRESET,
        help=f"size preset (default: {DEFAULT_PRESET})",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=DEFAULT_REPEATS,
        help=f"timed samples per cell (default: {DEFAULT_REPEATS})",
    )
    parser.add_argument(
        "--warmup",
        type=int,
        default=DEFAULT_WARMUP,
        help=f"untimed calls first (default: {DEFAULT_WARMUP})",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=DEFAULT_PYTHON_BUDGET_S,
        help=f"pure Python seconds per cell; 0 = no limit (default: {DEFAULT_PYTHON_BUDGET_S:g})",
    )
    parser.add_argument(
        "--lanes",
        nargs="+",
        choices=(*LANES, *EXTERNAL_LANES),
        default=list(LANES),
        help="lanes to run (default: our backends; onnxruntime races MiniLM when installed)",
    )
    parser.add_argument(
        "--dtype",
        choices=("float32", "float64"),
        default="float32",
        help="float type of the inputs (default: float32)",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the random inputs")
    parser.add_argument(
        "--deadline",
        type=float,
        default=0.0,
        help="seconds for the whole run; cells past it are skipped; 0 = no limit (default: 0)",
    )
    parser.add_argument(
        "--json", metavar="PATH", help="also write every cell, with its samples, to PATH"
    )
    parser.add_argument(
        "--record",
        metavar="DIR",
        help="also write the results, with the machine, to DIR/<date>-<cpu>.json",
    )
    parser.add_argument(
        "--goals",
        action="store_true",
        help="instead, measure the performance goals against NumPy (transformer_walk.bench.goals)",
    )
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.warmup < 1:
        parser.error("--repeats and --warmup must be at least 1")
    if args.budget < 0 or args.deadline < 0:
        parser.error("--budget and --deadline must be 0 (no limit) or positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse_args(argv)
    if args.goals:
        forward = (["--json", args.json] if args.json else []) + (
            ["--record", args.record] if args.record else []
        )
        return goals.main(forward)
    cases = [case for op in args.ops for case in PRESETS[args.sizes][op]]

    def show(p: Progress) -> None:
        if p.lane:
            print(
                f"\r[{p.done + 1}/{p.total}] {p.op} {p.label} {p.lane}".ljust(70),
                end="",
                file=sys.stderr,
                flush=True,
            )
        else:
            print("\r".ljust(72) + "\r", end="", file=sys.stderr, flush=True)

    result = run_benchmark(
        cases,
        lanes=args.lanes,
        repeats=args.repeats,
        warmup=args.warmup,
        python_budget_s=args.budget or None,
        deadline_s=args.deadline or None,
        dtype=args.dtype,
        seed=args.seed,
        progress=show if sys.stderr.isatty() else None,
    )
    print(report(result))
    if args.json:
        result.write_json(args.json)
        print(f"\nwrote {args.json}")
    if args.record:
        print(f"\nwrote {machine.record(args.record, 'race', result.to_dict())}")
    return 0
