"""Arguments for the claim functions that read timings (Cost's fitted slope, Speed's threads,
prompt-versus-generation and training steps against NumPy), made from a sentence of the corpus:
the sentence seeds synthetic, fixed medians — a power law with noise, rates and thread counts
drawn from it — so that over the corpus every kind of claim is made, and none depends on a
clock."""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from transformer_walk.bench import OK, BenchResult, Case, Cell


def _rng(text: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(text.encode("utf-8", "surrogatepass")))


def cost_timings(text: str) -> Iterator[tuple[Any, ...]]:
    """(ns, seconds, min_n) of one lane: t = c · n^p times log-normal noise, 1 to 6 sizes from 64,
    fitted from 256; p and the noise from the sentence, and the extremes every time."""
    rng = _rng(text)
    for p, noise in [(2.0, 0.01), (1.2, 0.01), (2.9, 0.01), (2.0, 0.8),
                     (rng.uniform(0.3, 3.6), rng.choice([0.0, 0.02, 0.1, 0.5]))]:  # fmt: skip
        for sizes in range(1, 7):
            ns = [64 * 2**k for k in range(sizes)]
            seconds = [1e-9 * n**p * float(np.exp(rng.normal(0, noise))) for n in ns]
            yield (ns, seconds, 256)


def _bench(op: str, axis: str, medians: dict[tuple[int, str], float], cores: int) -> BenchResult:
    """A race of ``op`` whose cells at (size, lane) have the given medians."""
    cells = []
    for (size, lane), median in medians.items():
        case = Case.of(op, **_fixed(op), **{axis: size})
        cells.append(Cell(op, case.label, case.sizes, case.x, case.work, lane, OK, median))
    lanes = list(dict.fromkeys(lane for _, lane in medians))
    return BenchResult(cells, {"cores": cores, "lanes": lanes})


def _fixed(op: str) -> dict[str, int]:
    """The sizes of ``op`` other than its axis."""
    return {"softmax": {"cols": 64}, "smollm2_prefill": {}, "smollm2_decode": {},
            "train_step": {"n": 32}}[op]  # fmt: skip


def thread_races(text: str) -> Iterator[tuple[Any, ...]]:
    """(race, op): Rust on one thread and on all, at 1 to 4 sizes, all threads from 0.5× to 3× as
    fast; one core now and then."""
    rng = _rng(text)
    for sizes in range(0, 5):
        rows = [2**k for k in range(4, 4 + sizes)]
        cores = int(rng.choice([1, 2, 2, 4]))
        medians: dict[tuple[int, str], float] = {}
        for r in rows:
            one = float(rng.uniform(1e-5, 1e-3))
            medians[(r, "numpy")] = one
            medians[(r, "rust-1")] = one
            medians[(r, "rust-all")] = one / float(rng.choice([0.5, 0.9, 1.05, 1.1, 1.5, 3.0]))
        yield (_bench("softmax", "rows", medians, cores), "softmax")


def prompt_races(text: str) -> Iterator[tuple[Any, ...]]:
    """(prefill race, decode race, lane): a lane reading prompts and generating at rates drawn
    from the sentence, from much slower to much faster a token; a lane with no decode."""
    rng = _rng(text)
    for lane in ("numpy", "rust-1", "rust-all"):
        prompts = {(n, lane): n * float(rng.uniform(1e-3, 2e-2)) for n in (4, 16, 64)}
        steps = {(past, lane): float(rng.uniform(1e-3, 5e-2)) for past in (1, 64, 256)}
        prefill = _bench("smollm2_prefill", "n", prompts, 2)
        yield (prefill, _bench("smollm2_decode", "past", steps, 2), lane)
        yield (prefill, _bench("smollm2_decode", "past", {(1, "python"): 1.0}, 2), lane)


def step_races(text: str) -> Iterator[tuple[Any, ...]]:
    """(race, op, lane): training steps at batches 1, 8 and 32, each lane from 100× slower to 10×
    faster than NumPy (so at and around the page's threshold too); pure Python at batch 1 only,
    NumPy now and then missing a size; the reference lane itself and an op that is not a step."""
    rng = _rng(text)
    medians: dict[tuple[int, str], float] = {}
    for batch in (1, 8, 32):
        numpy = batch * float(rng.uniform(1e-3, 5e-3))
        if batch == 1 or rng.random() < 0.8:
            medians[(batch, "numpy")] = numpy
        for lane in ("rust-1", "rust-all"):
            medians[(batch, lane)] = numpy / float(rng.choice([0.5, 1.0, 1.1, 1.09, 2.5, 10.0]))
    medians[(1, "python")] = medians[(1, "numpy")] * float(rng.uniform(30, 100))
    race = _bench("train_step", "batch", medians, 2)
    for lane in ("python", "numpy", "rust-1", "rust-all"):
        yield (race, "train_step", lane)
    yield (_bench("softmax", "rows", {(16, "numpy"): 1e-4, (16, "rust-1"): 1e-5}, 2), "softmax",
           "rust-1")  # fmt: skip


INPUTS: dict[str, Callable[[str], Iterator[tuple[Any, ...]]]] = {
    "transformer_walk.topics.cost.growth": cost_timings,
    "transformer_walk.app.views.speed_tables.threads": thread_races,
    "transformer_walk.app.views.speed_tables.prompt_versus_generation": prompt_races,
    "transformer_walk.app.views.speed_steps.steps_versus_numpy": step_races,
}
