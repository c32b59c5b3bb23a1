"""The real models against the runtimes a user would otherwise pick: all-MiniLM-L6-v2 embeddings
against ONNX Runtime (``onnx_lane``), SmolLM2-135M against llama.cpp (``llama_lane``).

Each row times our model on rust_core (every core) and the anchor on the same work in the same
process. A row is ``rounds`` rounds; in each, the two sides take turns for ``calls`` calls apiece,
every call after ``BLAS_SETTLE_S`` of quiet, and a side's sample for the round is its best call
(the side that starts changes from round to round). The row's time is the median of those bests.
Best of a few calls after a pause is what a user's one call costs once the machine is quiet;
ONNX Runtime's single calls on a short sentence fall in two modes, about 4 and 8 ms on one AVX2
machine, and a plain median of single calls landed on either. The ratio is the anchor's time over
ours (for generation: our tokens a second over the anchor's), with the least and greatest of the
rounds' ratios beside it. Before timing, each row checks that both sides compute the same thing
(``Check``). An anchor that is not installed makes its rows say so, with the command that installs
it, and times nothing.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from transformer_walk.bench import bandwidth, llama_lane, machine, onnx_lane
from transformer_walk.bench.timing import BLAS_SETTLE_S, SYSTEM_CLOCK, Clock, time_call

#: Words that are one WordPiece each, so 126 of them with [CLS] and [SEP] are 128 tokens.
WORDS = (
    "the dog cat river bank money tom loves his her house walks runs sees old new day night "
    "water city road green small big good bad red blue tree book park car food time"
).split()
PROMPT = "Tom loves his"
SHORT = "Tom loves his dog"  # the short sentence of the embedding rows
PREFILL_TOKENS = 357  # the prompt length
DECODE_TOKENS = 32  # generated per call; the call's median time a token is its time
DECODE_ROW = "SmolLM2 greedy decoding, tokens/s"


@dataclass(frozen=True)
class Pair:
    """One row's two sides, ready to call: each returns its seconds (of one call, or per token
    for generation) and an output that ``check`` compares."""

    ours: Callable[[], tuple[float, Any]]
    anchor: Callable[[], tuple[float, Any]]
    check: Callable[[Any, Any], str]  # a note on how the outputs agree (raises if they do not)


@dataclass(frozen=True)
class AnchorGoal:
    name: str
    anchor_name: str
    # the required ratio, anchor / ours (rates: ours / anchor); None for a row that shows a
    # trade (speed beside fidelity) rather than a goal
    target: float | None
    rate: bool  # True: the ratio compares tokens a second
    missing: Callable[[], str | None]  # why the anchor cannot run, or None
    make: Callable[[int], Pair]  # for this many threads


def _timed(call: Callable[[], Any], clock: Clock = SYSTEM_CLOCK) -> Callable[[], tuple[float, Any]]:
    return lambda: time_call(call, clock)


def texts(count: int, words: int, seed: int = 0) -> list[str]:
    """``count`` texts of ``words`` single-piece words (seeded)."""
    rng = np.random.default_rng(seed)
    return [" ".join(rng.choice(WORDS, words)) for _ in range(count)]


def _embed_pair(batch: list[str]) -> Callable[[int], Pair]:
    def make(threads: int) -> Pair:
        from transformer_walk.models.minilm import load_minilm

        ours = load_minilm(backend="rust")
        theirs = onnx_lane.session(threads)

        def check(a: np.ndarray, b: np.ndarray) -> str:
            diff = float(np.abs(a - b).max())
            if not diff < 1e-5:
                raise AssertionError(f"ONNX Runtime's embeddings differ from ours by {diff:.1e}")
            return f"embeddings within {diff:.1e}"

        return Pair(_timed(lambda: ours.embed(batch)), _timed(lambda: theirs.embed(batch)), check)

    return make


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The cosine of each row of ``a`` with the same row of ``b`` (embeddings [texts, d])."""
    return np.asarray((a * b).sum(-1) / (np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1)))


#: The float16 model must keep each embedding this close to float32's (issue 42; the same bound
#: as tests/test_minilm_half.py).
HALF_MIN_COSINE = 0.9999


def _half_pair(batch: list[str]) -> Callable[[int], Pair]:
    """Our float16 weights against ONNX Runtime's int8 quantisation of the same graph: each
    side's time, and each side's cosine to the float32 model's embeddings."""

    def make(threads: int) -> Pair:
        from transformer_walk.models.minilm import load_minilm

        ours = load_minilm(backend="rust", weights="float16")
        theirs = onnx_lane.session(threads, int8=True)
        reference = load_minilm(backend="rust").embed(batch)  # float32

        def check(a: np.ndarray, b: np.ndarray) -> str:
            ours_cos, theirs_cos = cosines(a, reference).min(), cosines(b, reference).min()
            if not ours_cos >= HALF_MIN_COSINE:
                raise AssertionError(
                    f"the float16 embeddings' cosine to float32's is {ours_cos:.6f}, below "
                    f"{HALF_MIN_COSINE}"
                )
            return (
                f"least cosine to float32's embeddings: ours {ours_cos:.7f}, ONNX Runtime int8 "
                f"{theirs_cos:.7f}"
            )

        return Pair(_timed(lambda: ours.embed(batch)), _timed(lambda: theirs.embed(batch)), check)

    return make


def _smollm2() -> Any:
    """SmolLM2 on rust_core (its threads are set around the whole row, in ``goals.run``)."""
    from transformer_walk.models.smollm2 import load_smollm2

    return load_smollm2(backend="rust")


def _prefill_pair(threads: int) -> Pair:
    ours = _smollm2()
    theirs = llama_lane.model(threads)
    ids = np.array(prompt_ids(ours, PREFILL_TOKENS))

    def our_prefill() -> np.ndarray:
        return ours.forward(ids, ours.new_cache(), last_only=True).logits[-1]

    def check(a: np.ndarray, b: np.ndarray) -> str:
        diff = f"logits within {float(np.abs(a - b).max()):.2f}"
        if int(np.argmax(a)) == int(np.argmax(b)):
            return f"the same next token; {diff}"
        # llama.cpp rounds activations to 8 bits before its products and we to 16, so a near
        # tie may go either way; a next token outside the other's top 5 would be a bug.
        if int(np.argmax(a)) not in np.argsort(b)[-5:]:
            raise AssertionError("llama.cpp's next token after the prompt is not near ours")
        return f"next tokens differ in a near tie; {diff}"

    return Pair(_timed(our_prefill), _timed(lambda: theirs.prefill(ids)), check)


def prompt_ids(model: Any, n: int) -> list[int]:
    """The first ``n`` tokens of a page of plain English (bench/data/prompt_en.txt, written for
    this): a real text, so the next token is not a coin toss between near ties."""
    text = (Path(__file__).parent / "data" / "prompt_en.txt").read_text(encoding="utf-8")
    ids: list[int] = model.tokenize(text)
    if len(ids) < n:
        raise ValueError(f"the prompt text has {len(ids)} tokens, fewer than {n}")
    return ids[:n]


def _per_token(step: Callable[[int], int], first: int, n: int, clock: Clock) -> tuple[float, Any]:
    """Median seconds of ``n − 1`` greedy steps from ``first``, and the tokens."""
    tokens, times = [first], []
    for _ in range(n - 1):
        start = clock.now()
        tokens.append(step(tokens[-1]))
        times.append(clock.now() - start)
    return statistics.median(times), tokens


def _decode_pair(threads: int, clock: Clock = SYSTEM_CLOCK) -> Pair:
    ours = _smollm2()
    theirs = llama_lane.model(threads)
    prompt = ours.tokenize(PROMPT)
    if theirs.tokenize(PROMPT) != prompt:
        raise AssertionError(f"llama.cpp tokenizes {PROMPT!r} otherwise than we do")

    def our_run() -> tuple[float, Any]:
        cache = ours.new_cache()
        first = int(np.argmax(ours.forward(np.array(prompt), cache, last_only=True).logits[-1]))

        def step(token: int) -> int:
            logits = ours.forward(np.array([token]), cache, last_only=True).logits[-1]
            return int(np.argmax(logits))

        return _per_token(step, first, DECODE_TOKENS, clock)

    def their_run() -> tuple[float, Any]:
        first = int(np.argmax(theirs.prefill(prompt)))
        return _per_token(lambda t: int(np.argmax(theirs.step(t))), first, DECODE_TOKENS, clock)

    def check(a: Sequence[int], b: Sequence[int]) -> str:
        same = next((i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y), len(a))
        if same == 0:
            raise AssertionError("llama.cpp's first generated token differs from ours")
        # llama.cpp rounds activations to 8 bits before its products and we to 16: a near tie
        # between two candidates can go the other way, and the texts then part.
        return f"the same first {same} of {len(a)} greedy tokens"

    return Pair(our_run, their_run, check)


def goals() -> list[AnchorGoal]:
    """The rows, with issue 42's goals; the float16 rows set our half-precision weights beside
    ONNX Runtime's int8 ones, speed and fidelity side by side, with no goal."""
    return [
        AnchorGoal("MiniLM embed, 8 texts × 128 tokens", "ONNX Runtime", 1.10, False,
                   onnx_lane.available, _embed_pair(texts(8, 126))),
        AnchorGoal("MiniLM embed, one short sentence", "ONNX Runtime", 1.25, False,
                   onnx_lane.available, _embed_pair([SHORT])),
        AnchorGoal("MiniLM float16, 8 texts × 128 tokens", "ORT int8", None, False,
                   onnx_lane.available, _half_pair(texts(8, 126))),
        AnchorGoal("MiniLM float16, one short sentence", "ORT int8", None, False,
                   onnx_lane.available, _half_pair([SHORT])),
        AnchorGoal(f"SmolLM2 prefill, {PREFILL_TOKENS} tokens", "llama.cpp", 2.0, False,
                   llama_lane.available, _prefill_pair),
        AnchorGoal(DECODE_ROW, "llama.cpp", 1.25, True,
                   llama_lane.available, _decode_pair),
    ]  # fmt: skip


def builds() -> dict[str, str]:
    """How each side was built, as far as it tells: rust_core's version and the SIMD level it
    chose on this machine, ONNX Runtime's version and build, the CPU features llama.cpp was
    compiled with. A lane that is not installed, or not run (``llama_lane.available``), says so."""
    from transformer_walk.core.status import backend_status

    rust_core = backend_status("rust").module
    out = {
        "rust_core": "not built"
        if rust_core is None
        else f"{getattr(rust_core, '__version__', '?')}, SIMD chosen at run time: "
        f"{machine.simd_level()}"
    }
    if onnx_lane.available() is None:
        import onnxruntime

        out["ONNX Runtime"] = f"{onnxruntime.__version__}, {onnxruntime.get_build_info()}"
    else:
        out["ONNX Runtime"] = "not installed"
    try:
        import llama_cpp
    except ImportError:
        out["llama.cpp"] = "not installed"
    else:
        features = llama_cpp.llama_print_system_info().decode(errors="replace").strip()
        refused = llama_lane.available()
        out["llama.cpp"] = f"llama-cpp-python {llama_cpp.__version__}, {features}" + (
            "" if refused is None else f" (not run: {refused})"
        )
    return out


#: Rounds of a row, and calls of each side a round (the best of them is the round's sample).
ROUNDS = 5
CALLS = 5


@dataclass
class AnchorRow:
    name: str
    anchor_name: str
    target: float | None
    rate: bool
    ours_s: float
    anchor_s: float | None
    ratio: float | None
    met: bool | None
    note: str  # how the outputs agree, or why the anchor did not run
    ours_rounds_s: list[float] = field(default_factory=list)  # each round's best call
    anchor_rounds_s: list[float] = field(default_factory=list)

    def ratio_range(self) -> tuple[float, float] | None:
        """The least and greatest ratio of one round's bests, or None when nothing ran."""
        if not self.ours_rounds_s or not self.anchor_rounds_s:
            return None
        pairs = zip(self.ours_rounds_s, self.anchor_rounds_s, strict=True)
        ratios = [anchor / ours for ours, anchor in pairs]
        return min(ratios), max(ratios)


def run_row(
    goal: AnchorGoal,
    threads: int,
    rounds: int = ROUNDS,
    calls: int = CALLS,
    clock: Clock = SYSTEM_CLOCK,
) -> AnchorRow:
    """One row: a warm-up call of each side (their outputs checked against each other), then
    ``rounds`` rounds of ``calls`` timed calls of each side, taking turns, each after a pause;
    each round keeps each side's best call, and the row is the median of the rounds."""
    if rounds < 1 or calls < 1:
        raise ValueError(f"a row needs at least one round and one call, not {rounds} and {calls}")
    missing = goal.missing()
    if missing is not None:
        nan = float("nan")
        return AnchorRow(goal.name, goal.anchor_name, goal.target, goal.rate, nan, None, None,
                         None, missing)  # fmt: skip
    pair = goal.make(threads)
    note = pair.check(pair.ours()[1], pair.anchor()[1])
    sides = (pair.ours, pair.anchor)
    bests: tuple[list[float], list[float]] = ([], [])
    for round_index in range(rounds):
        order = (0, 1) if round_index % 2 == 0 else (1, 0)  # neither side always goes first
        best = [math.inf, math.inf]
        for _ in range(calls):
            for side in order:
                clock.sleep(BLAS_SETTLE_S)
                best[side] = min(best[side], sides[side]()[0])
        for side in (0, 1):
            bests[side].append(best[side])
    ours_s, anchor_s = statistics.median(bests[0]), statistics.median(bests[1])
    ratio = anchor_s / ours_s  # for generation, our tokens a second over theirs alike
    met = None if goal.target is None else ratio >= goal.target
    return AnchorRow(goal.name, goal.anchor_name, goal.target, goal.rate, ours_s, anchor_s,
                     ratio, met, note, bests[0], bests[1])  # fmt: skip


def decoding_memory(
    rows: Sequence[AnchorRow], stream_gbs: Callable[[], float] = bandwidth.streaming_read_gbs
) -> dict[str, Any] | None:
    """The decoding row's speeds as shares of the memory bound (``bandwidth``): the bytes our
    decoder reads a token, at the key/value cache's mean length over the timed tokens, against
    this machine's measured streaming bandwidth. llama.cpp reads the same weights (its cache, in
    float16, is half ours, under 1 % of the bytes here). None when the row did not run."""
    row = next((r for r in rows if r.name == DECODE_ROW), None)
    if row is None or row.anchor_s is None:
        return None
    model = _smollm2()
    # after a prompt of p tokens, generated token i (0-based) attends to p + i + 1 positions
    positions = len(model.tokenize(PROMPT)) + DECODE_TOKENS / 2
    read = bandwidth.decode_bytes(model, positions)
    gbs = stream_gbs()
    return {
        "bytes": read,
        "positions": positions,
        "stream_gbs": gbs,
        "ours_share": bandwidth.share(1 / row.ours_s, read["total"], gbs),
        "anchor_share": bandwidth.share(1 / row.anchor_s, read["total"], gbs),
    }
