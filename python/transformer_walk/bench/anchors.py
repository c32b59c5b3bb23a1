"""The real models against the runtimes a user would otherwise pick: all-MiniLM-L6-v2 embeddings
against ONNX Runtime (``onnx_lane``), SmolLM2-135M against llama.cpp (``llama_lane``).

Each row times our model on rust_core (every core) and the anchor on the same work in the same
process, alternating one call of each per round, with ``BLAS_SETTLE_S`` of quiet before every
timed call; the ratio is the anchor's median time over ours (for generation: our tokens a second
over the anchor's). Before timing, each row checks that both sides compute the same thing
(``Check``). An anchor that is not installed makes its rows say so, with the command that installs
it, and times nothing.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from transformer_walk.bench import llama_lane, onnx_lane
from transformer_walk.bench.timing import BLAS_SETTLE_S, SYSTEM_CLOCK, Clock, time_call

#: Words that are one WordPiece each, so 126 of them with [CLS] and [SEP] are 128 tokens.
WORDS = (
    "the dog cat river bank money tom loves his her house walks runs sees old new day night "
    "water city road green small big good bad red blue tree book park car food time"
).split()
PROMPT = "Tom loves his"
PREFILL_TOKENS = 357  # the prompt length
DECODE_TOKENS = 32  # generated per round; the round's median time a token is its sample


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
    target: float  # the required ratio, anchor / ours (rates: ours / anchor)
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
    return [
        AnchorGoal("MiniLM embed, 8 texts × 128 tokens", "ONNX Runtime", 1.0, False,
                   onnx_lane.available, _embed_pair(texts(8, 126))),
        AnchorGoal("MiniLM embed, one short sentence", "ONNX Runtime", 1.25, False,
                   onnx_lane.available, _embed_pair(["Tom loves his dog"])),
        AnchorGoal(f"SmolLM2 prefill, {PREFILL_TOKENS} tokens", "llama.cpp", 2.0, False,
                   llama_lane.available, _prefill_pair),
        AnchorGoal("SmolLM2 greedy decoding, tokens/s", "llama.cpp", 1.0, True,
                   llama_lane.available, _decode_pair),
    ]  # fmt: skip


@dataclass
class AnchorRow:
    name: str
    anchor_name: str
    target: float
    rate: bool
    ours_s: float
    anchor_s: float | None
    ratio: float | None
    met: bool | None
    note: str  # how the outputs agree, or why the anchor did not run


def run_row(goal: AnchorGoal, threads: int, rounds: int, clock: Clock = SYSTEM_CLOCK) -> AnchorRow:
    """One row: a warm-up call of each side (their outputs checked against each other), then
    ``rounds`` rounds of one timed call each, alternating, after a pause each."""
    missing = goal.missing()
    if missing is not None:
        nan = float("nan")
        return AnchorRow(goal.name, goal.anchor_name, goal.target, goal.rate, nan, None, None,
                         None, missing)  # fmt: skip
    pair = goal.make(threads)
    note = pair.check(pair.ours()[1], pair.anchor()[1])
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        for side, samples in zip((pair.ours, pair.anchor), times, strict=True):
            clock.sleep(BLAS_SETTLE_S)
            samples.append(side()[0])
    ours_s, anchor_s = statistics.median(times[0]), statistics.median(times[1])
    ratio = anchor_s / ours_s  # for generation, our tokens a second over theirs alike
    return AnchorRow(goal.name, goal.anchor_name, goal.target, goal.rate, ours_s, anchor_s,
                     ratio, ratio >= goal.target, note)  # fmt: skip
