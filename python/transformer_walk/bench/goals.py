"""The performance goals, measured: the real models against ONNX Runtime and llama.cpp
(``anchors``, when installed), and rust_core against the NumPy code its kernels' goals were set
against.

    python -m transformer_walk.bench.goals            # both tables (a few minutes)
    python -m transformer_walk.bench.goals --anchors  # only the first
    python -m transformer_walk.bench.goals --json out.json
    python -m transformer_walk.bench.goals --record bench/results  # <date>-<cpu>.json, "goals"

Each row times the goal's own NumPy formula and rust_core on the same float32 inputs, in the same
process, as medians of several rounds (each round: one call of each, alternating, so drift on a
shared machine hits both). It prints the ratio of medians against the goal, the thread scaling of
rust_core (1 → all threads), the achieved GFLOP/s next to this machine's measured matrix-product
peak, and the peak memory growth of attention at n = m = 32768 (run in a fresh process, where the
n×m matrix alone would need 4 GiB).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import statistics
import subprocess
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from transformer_walk.bench import anchors, bandwidth, machine, train_step
from transformer_walk.bench.timing import (
    BLAS_SETTLE_S,
    SYSTEM_CLOCK,
    Clock,
    available_cores,
    measure,
    threads,
    time_call,
)
from transformer_walk.core import Backend, get_backend

ROUNDS = 7


def np_softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def np_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    return np_softmax(q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])) @ v


@dataclass(frozen=True)
class Goal:
    name: str
    target: float  # required ratio of medians, NumPy / Rust
    make: Callable[[np.random.Generator], tuple[Any, ...]]
    numpy: Callable[..., Any]
    rust: Callable[..., Any]
    flops: float  # floating-point operations of one call (0 for a copy)


def _rust() -> Backend:
    """rust_core, through the backends (ImportError when it is not built)."""
    return get_backend("rust")


def _attention_goal(shape: tuple[int, int, int, int], target: float) -> Goal:
    rust_core = _rust()
    b, h, n, d = shape
    return Goal(
        name=f"attention {list(shape)}",
        target=target,
        make=lambda rng: tuple(rng.standard_normal(shape, dtype=np.float32) for _ in "qkv"),
        numpy=np_attention,
        rust=rust_core.attention,
        flops=4.0 * b * h * n * n * d,  # q kᵀ and weights · v, 2 flops per multiply-add
    )


def _minilm_goal() -> Goal:
    from transformer_walk.models.minilm import load_minilm

    numpy_model = load_minilm(backend="numpy")
    rust_model = numpy_model.with_backend("rust")

    def ids(rng: np.random.Generator) -> tuple[np.ndarray]:
        out = rng.integers(1000, 30_000, size=(8, 128), dtype=np.int64)  # [B, n]
        out[:, 0], out[:, -1] = 101, 102
        return (out,)

    n, d, d_ff = 128, 384, 1536
    per_layer = 2 * n * (4 * d * d + 2 * d * d_ff) + 4 * n * n * d
    return Goal(
        name="MiniLM forward, batch 8 × 128 (vs the numpy backend)",
        target=2.5,
        make=ids,
        numpy=lambda x: numpy_model.forward(x).hidden_states[-1],
        rust=lambda x: rust_model.forward(x).hidden_states[-1],
        flops=8.0 * 6 * per_layer,
    )


def _train_step_goal() -> Goal:
    """The learner's training at the issue's size, through ``train`` on each backend: a call is
    a run of ``train_step.RUN_STEPS`` steps (a training loop runs them back to back)."""
    sizes = {"batch": 32, "n": 32}
    steps = train_step.RUN_STEPS
    return Goal(
        name=f"learner training, {steps} steps a call, batch 32 × 32 (numpy backend)",
        target=5.0,
        make=lambda rng: (train_step.make_inputs(rng, sizes, np.dtype(np.float32)),),
        numpy=functools.partial(train_step.run_losses, "numpy"),
        rust=functools.partial(train_step.run_losses, "rust"),
        flops=steps * train_step.step_flops(sizes),
    )


def goals() -> list[Goal]:
    rust_core = _rust()
    table = np.random.default_rng(1).standard_normal((30_522, 384), dtype=np.float32)
    out = [
        Goal(
            "softmax [8192, 1024], last axis",
            3.0,
            lambda rng: (rng.standard_normal((8192, 1024), dtype=np.float32),),
            np_softmax,
            rust_core.softmax,
            5.0 * 8192 * 1024,
        ),
        _attention_goal((1, 8, 1024, 64), 3.3),
        _attention_goal((1, 4, 4096, 64), 3.3),
        _attention_goal((8, 12, 128, 32), 3.0),
        Goal(
            "embedding lookup of [32, 512] ids, [30522, 384] table",
            2.5,
            lambda rng: (table, rng.integers(0, 30_522, size=(32, 512))),
            lambda t, ids: t[ids],
            rust_core.embedding_lookup,
            0.0,
        ),
    ]
    out.append(_train_step_goal())
    try:
        out.append(_minilm_goal())
    except ImportError as exc:  # the model package is optional
        print(f"(MiniLM row left out: {exc})", file=sys.stderr)
    return out


WARMUP_S = 0.3  # a pool's threads start on one core; the OS spreads them after some work


def _median_pair(
    goal: Goal, args: tuple[Any, ...], rounds: int, clock: Clock = SYSTEM_CLOCK
) -> tuple[float, float]:
    """Medians of NumPy and Rust over ``rounds`` alternating rounds, after a warm-up of each.

    One call of each per round, so drift on a shared machine hits both alike; every call starts
    after the same pause, ``BLAS_SETTLE_S``: OpenBLAS's threads spin for about 0.1 s after a NumPy
    product and would take a core from a Rust call that follows at once."""
    calls = (functools.partial(goal.numpy, *args), functools.partial(goal.rust, *args))
    for call in calls:
        measure(call, repeats=1, min_warmup_s=WARMUP_S, clock=clock)
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        for call, samples in zip(calls, times, strict=True):
            clock.sleep(BLAS_SETTLE_S)
            samples.append(time_call(call, clock)[0])
    return statistics.median(times[0]), statistics.median(times[1])


def _median(
    fn: Callable[..., Any], args: tuple[Any, ...], rounds: int, pause: float = 0.0
) -> float:
    """Median time of ``fn(*args)`` after a warm-up, each call ``pause`` seconds after the last."""
    call = functools.partial(fn, *args)
    return measure(call, repeats=rounds, min_warmup_s=WARMUP_S, settle_s=pause).median_s


@dataclass
class Row:
    name: str
    numpy_s: float
    rust_s: float
    rust_1_thread_s: float
    ratio: float
    target: float
    met: bool
    gflops: float | None


def matmul_peak_gflops(rounds: int = 5) -> dict[str, float]:
    """This machine's float32 matrix-product speed: NumPy (OpenBLAS) and rust_core.linear."""
    rust_core = _rust()
    rng = np.random.default_rng(2)
    a = rng.standard_normal((2048, 2048), dtype=np.float32)
    b = rng.standard_normal((2048, 2048), dtype=np.float32)
    flops = 2.0 * 2048**3
    return {
        "numpy_matmul": flops / _median(np.matmul, (a, b), rounds) / 1e9,
        "rust_linear": flops / _median(rust_core.linear, (a, b), rounds) / 1e9,
    }


def lookup_copy_floor_s(rounds: int = ROUNDS) -> float:
    """NumPy's time to copy an array the size of the lookup's result ([32, 512, 384] float32,
    25 MB) from one contiguous buffer to another: about the least any lookup can take here."""
    src = np.random.default_rng(3).standard_normal((32, 512, 384), dtype=np.float32)
    return _median(np.copy, (src,), rounds, pause=BLAS_SETTLE_S)


def attention_memory_growth_mb(n: int = 32768, d: int = 64) -> dict[str, float]:
    """Peak RSS growth of one rust_core.attention call at n = m = ``n``, in a fresh process."""
    code = f"""
import resource, time, numpy as np, rust_core
q = np.random.default_rng(0).standard_normal((1, 1, {n}, {d}), dtype=np.float32)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
z = rust_core.attention(q, q, q)
seconds = time.perf_counter() - start
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) / 1024, z.nbytes / 2**20, seconds, bool(np.isfinite(z).all()))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    growth, result_mb, seconds, finite = out.stdout.split()
    return {
        "n": n,
        "peak_growth_mb": float(growth),
        "output_mb": float(result_mb),
        "seconds": float(seconds),
        "finite": finite == "True",
        "n_by_m_matrix_mb": n * n * 4 / 2**20,
    }


def run(
    rounds: int = ROUNDS,
    *,
    anchor_rounds: int = anchors.ROUNDS,
    anchor_calls: int = anchors.CALLS,
    anchors_only: bool = False,
) -> dict[str, Any]:
    rust_core = _rust()
    cores = available_cores()
    with threads(rust_core, cores):
        timed = [anchors.run_row(g, cores, anchor_rounds, anchor_calls) for g in anchors.goals()]
        memory = anchors.decoding_memory(timed)
    anchor_rows = [asdict(r) for r in timed]
    head = {
        "machine": machine.describe(),
        "builds": anchors.builds(),
        "cores": cores,
        "rounds": rounds,
        "anchor_rounds": anchor_rounds,
        "anchor_calls": anchor_calls,
        "decoding_memory": memory,
    }
    if anchors_only:
        return {**head, "anchors": anchor_rows}
    rows = []
    for goal in goals():
        args = goal.make(np.random.default_rng(0))
        with threads(rust_core, 1):
            one = _median(goal.rust, args, rounds, pause=BLAS_SETTLE_S)  # as in the pairs
        with threads(rust_core, cores):
            t_np, t_rs = _median_pair(goal, args, rounds)
        ratio = t_np / t_rs
        gflops = goal.flops / t_rs / 1e9 if goal.flops else None
        met = ratio >= goal.target
        rows.append(Row(goal.name, t_np, t_rs, one, ratio, goal.target, met, gflops))
    return {
        **head,
        "anchors": anchor_rows,
        "rows": [asdict(r) for r in rows],
        "matmul_peak_gflops": matmul_peak_gflops(),
        "lookup_copy_floor_s": lookup_copy_floor_s(rounds),
        "attention_32768": attention_memory_growth_mb(),
    }


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:8.2f} ms"


def _goal(target: float | None, met: bool | None) -> str:
    """The goal and whether it was met, or dashes for a row without a goal."""
    if target is None:
        return f"{'—':>6}  — "
    return f"{target:5.2f}×  {'yes' if met else 'NO '}"


def format_machine(report: dict[str, Any]) -> list[str]:
    """The machine and both sides' builds: a ratio means little without them."""
    lines = []
    if "machine" in report:
        m = report["machine"]
        kind = f"family {m['family']} model {m['model']}, " if m.get("family") is not None else ""
        lines.append(
            f"machine: {m['cpu']} ({kind}{m['cores']} cores), features: "
            f"{' '.join(m['features']) or 'none of ' + ' '.join(machine.FEATURES)}"
        )
    lines += [f"{name}: {build}" for name, build in report.get("builds", {}).items()]
    return lines + ([""] if lines else [])


def format_anchors(report: dict[str, Any]) -> list[str]:
    """The rows against ONNX Runtime and llama.cpp: our time and theirs (ms, or ms a token for
    generation, with tokens a second), the ratio against the goal with the rounds' least and
    greatest, and how the outputs agree."""
    if not report.get("anchors"):
        return []
    lines = [
        f"The real models against the runtimes a user would pick: best of "
        f"{report.get('anchor_calls', anchors.CALLS)} calls after a pause, the sides taking "
        f"turns, median of {report.get('anchor_rounds', anchors.ROUNDS)} rounds, "
        f"{report['cores']} threads each",
        "",
        f"{'work':40} {'anchor':13} {'ours':>12} {'anchor':>12} {'ratio':>7} {'rounds':>11} "
        f"{'goal':>6}  met",
    ]
    for r in report["anchors"]:
        if r["anchor_s"] is None:
            lines.append(f"{r['name']:40} {r['anchor_name']:13} {r['note']}")
            continue
        if r["rate"]:
            ours, theirs = f"{1 / r['ours_s']:7.1f} tok/s", f"{1 / r['anchor_s']:7.1f} tok/s"
        else:
            ours, theirs = _ms(r["ours_s"]), _ms(r["anchor_s"])
        row = anchors.AnchorRow(**r)
        spread = row.ratio_range()
        spread_text = f"{spread[0]:.2f}–{spread[1]:.2f}" if spread else "—"
        lines.append(
            f"{r['name']:40} {r['anchor_name']:13} {ours:>12} {theirs:>12} {r['ratio']:6.2f}× "
            f"{spread_text:>11} {_goal(r['target'], r['met'])}  "
            f"({r['note']})"
        )
    return lines + format_decoding_memory(report.get("decoding_memory"))


def format_decoding_memory(memory: dict[str, Any] | None) -> list[str]:
    """What a generated token reads, and each side's share of the memory bound."""
    if memory is None:
        return []
    read, mb = memory["bytes"], 1e6
    gbs = memory["stream_gbs"]
    ours = memory["ours_share"] * gbs
    return [
        "",
        f"decoding reads {read['total'] / mb:.1f} MB a token (layers {read['layers'] / mb:.1f}, "
        f"output layer {read['output_layer'] / mb:.1f}, key/value cache {read['cache'] / mb:.1f} "
        f"at {memory['positions']:.0f} positions); this machine streams {gbs:.1f} GB/s (NumPy's "
        f"matrix-vector product over {bandwidth.STREAM_BYTES >> 20} MB)",
        f"share of that bound: ours {memory['ours_share']:.0%} ({ours:.1f} GB/s), llama.cpp "
        f"{memory['anchor_share']:.0%}",
    ]


def format_report(report: dict[str, Any]) -> str:
    cores = report["cores"]
    if "rows" not in report:
        return "\n".join([*format_machine(report), *format_anchors(report)])
    lines = [
        *format_machine(report),
        *format_anchors(report),
        *([""] if report.get("anchors") else []),
        "rust_core vs the goals' NumPy code, float32, medians of "
        f"{report.get('rounds', ROUNDS)} rounds, {cores} cores",
        "",
        f"{'work':56} {'NumPy':>11} {'Rust':>11} {'ratio':>7} {'goal':>6}  met  "
        f"{'1→' + str(cores) + ' threads':>12} {'GFLOP/s':>8}",
    ]
    for r in report["rows"]:
        scaling = r["rust_1_thread_s"] / r["rust_s"]
        gflops = f"{r['gflops']:8.1f}" if r["gflops"] else f"{'—':>8}"
        lines.append(
            f"{r['name']:56} {_ms(r['numpy_s'])} {_ms(r['rust_s'])} {r['ratio']:6.2f}× "
            f"{r['target']:5.1f}×  {'yes' if r['met'] else 'NO ':3}  {scaling:11.2f}× {gflops}"
        )
    peak = report["matmul_peak_gflops"]
    lines += [
        "",
        f"matrix-product peak here (2048³ float32): NumPy/OpenBLAS {peak['numpy_matmul']:.0f} "
        f"GFLOP/s, rust_core.linear {peak['rust_linear']:.0f} GFLOP/s",
    ]
    if "lookup_copy_floor_s" in report:
        lines.append(
            f"memory floor of the lookup: NumPy copies its 25 MB result in "
            f"{report['lookup_copy_floor_s'] * 1e3:.2f} ms (contiguous to contiguous)"
        )
    mem = report["attention_32768"]
    lines.append(
        f"attention at n = m = {mem['n']}, d = 64: {mem['seconds']:.2f} s, peak memory grew "
        f"{mem['peak_growth_mb']:.0f} MB (its output is {mem['output_mb']:.0f} MB; the n×m "
        f"matrix would be {mem['n_by_m_matrix_mb']:.0f} MB), finite: {mem['finite']}"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="PATH", help="also write the report as JSON")
    parser.add_argument(
        "--record", metavar="DIR", help="also write it, with the machine, to DIR/<date>-<cpu>.json"
    )
    parser.add_argument(
        "--anchors", action="store_true", help="only the rows against ONNX Runtime and llama.cpp"
    )
    parser.add_argument(
        "--anchor-rounds", type=int, default=anchors.ROUNDS, help="rounds of each anchor row"
    )
    parser.add_argument(
        "--anchor-calls", type=int, default=anchors.CALLS,
        help="calls of each side a round; the best counts",
    )  # fmt: skip
    args = parser.parse_args(argv)
    report = run(
        anchor_rounds=args.anchor_rounds,
        anchor_calls=args.anchor_calls,
        anchors_only=args.anchors,
    )
    print(format_report(report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=2)
    if args.record:
        print(f"\nwrote {machine.record(args.record, 'goals', report)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
