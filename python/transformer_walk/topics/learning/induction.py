"""Task b, a head that copies: random tokens where a random segment comes back later, and the
induction head that learns to continue it.

A sequence is a start token (BOS, id 0) and 31 random tokens in which a segment of 4–12 tokens,
at a random place, is repeated after a random gap ("… a b c d … a b c d …"). The loss is taken only
inside the second copy, where each next token can be read off the first copy: at a token of the
second copy, look up where the same token stood before and copy the token that followed it. A
two-layer attention-only model does this with two heads in series: a *previous-token* head in layer
0 (each position takes in the token before it) and an *induction* head in layer 1 whose query, the
current token, matches the keys that carry "the token before me was this one" — it attends to the
position just after the earlier occurrence and copies its token.

Because the segment's place, length and the gap before its copy all vary, no fixed positional
offset finds the answer. Variants tried that did not give an induction head within the budget: a
fixed segment length (layer 0 learned the absolute offset), the two copies always adjacent (the loss
fell in a jump too, but with no head attending to the token to copy: a positional route), and the
loss on every position (no head formed in 1500 steps).

What is measured (``study``): the second-copy loss drops in a jump; at the same checkpoints a
layer-1 head's *prefix-matching* score (its mean weight from a token of the second copy to the
position after that token in the first copy) rises from chance to most of its weight, and a layer-0
head's *previous-token* score rises too. On control sequences whose second copy is replaced by fresh
tokens the same positions get little weight: the head matches content, not an offset.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from transformer_walk.models.learner import LearnerConfig, train
from transformer_walk.models.learner import decoder as decoder_module
from transformer_walk.models.learner.decoder import Params
from transformer_walk.models.learner.params import checked_params
from transformer_walk.models.learner.reading import read, token_losses
from transformer_walk.topics.learning import store

IGNORE = -100
BOS = 0

#: Token ids: 0 is BOS, 1–63 the random tokens. 63 tokens make a chance coincidence (a token that
#: repeats outside the segment) rare enough that "the token after the earlier occurrence" is usually
#: one position.
VOCAB_SIZE = 64
#: Tokens per sequence, BOS included: the learner's max_positions.
LENGTH = 32
#: The segment's length varies per sequence, so the distance between the copies does too.
MIN_SEGMENT, MAX_SEGMENT = 4, 12

#: The model: the learner's defaults but attention-only (``ffn=False``: the heads are all there is)
#: and with 2 heads of d_k = 32, so layer 0 has one previous-token head and one to compare it with.
#: With h = 4 the previous-token work was spread over two or three layer-0 heads; with h = 2 and 4
#: alike every layer-1 head became an induction head (they share the copying).
CONFIG = LearnerConfig(d_model=64, h=2, layers=2, max_positions=LENGTH, ffn=False)
#: 32 sequences a step, the size the trainer is timed at: about 6.5 ms a step here on two cores.
BATCH_SIZE = 32
#: Adam's step, the trainer's default: the jump comes after 250–500 steps (seeds 0–2); with h = 4,
#: 1e-3 took about as long and 3e-3 no longer.
LR = 3e-3
#: 800 steps: the jump and a few hundred steps of settling after it, under 10 s of training.
STEPS = 800
#: The seed of the initialisation and of the batches: seeds 0, 1 and 2 all formed the heads.
SEED = 0
#: A checkpoint every 25 steps resolves the jump (it takes about 100 steps) in a few checkpoints.
CHECKPOINT_EVERY = 25
#: Held-out sequences for the losses and scores at each checkpoint (one batch through ``read``).
HELD_OUT = 128
#: The smoothing of the training loss before its steepest drop is looked for: one window of steps
#: before a step against one after it.
JUMP_WINDOW = 25

#: Bounds on the work one ``study`` may be asked for (a page must not start an hour of training).
MAX_STEPS = 3000
MAX_CHECKPOINTS = 200
MAX_HELD_OUT = 512


@dataclass(frozen=True)
class Example:
    """One sequence: ``tokens`` [n], the segment at ``first`` and again at ``second``."""

    tokens: np.ndarray
    first: int
    second: int
    length: int

    def targets(self) -> np.ndarray:
        """The next token at each position of the second copy but its last (what follows it is
        random); IGNORE elsewhere."""
        targets = np.full(len(self.tokens), IGNORE, dtype=np.int64)
        inside = np.arange(self.second, self.second + self.length - 1)
        targets[inside] = self.tokens[inside + 1]
        return targets


class RepeatTask:
    """Seeded batches of sequences with a repeated segment, for ``train``.

    ``repeat=False`` is the control: the same layout, but the second copy is drawn fresh, so there
    is nothing to copy (its targets are then unpredictable).
    """

    def __init__(
        self,
        *,
        batch_size: int = BATCH_SIZE,
        vocab_size: int = VOCAB_SIZE,
        length: int = LENGTH,
        min_segment: int = MIN_SEGMENT,
        max_segment: int = MAX_SEGMENT,
        repeat: bool = True,
    ):
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size!r}")
        if vocab_size < 3:
            raise ValueError(
                f"vocab_size must be at least 3 (BOS and two tokens), got {vocab_size}"
            )
        if not 2 <= min_segment <= max_segment:
            raise ValueError(
                f"segments need 2 <= min_segment <= max_segment, got {min_segment}, {max_segment}"
            )
        if 1 + 2 * max_segment > length:
            raise ValueError(
                f"length = {length} cannot hold BOS and two copies of {max_segment} tokens"
            )
        self.batch_size = batch_size
        self._vocab_size = vocab_size
        self.length = length
        self.min_segment = min_segment
        self.max_segment = max_segment
        self.repeat = repeat

    @property
    def vocab_size(self) -> int:
        return self._vocab_size

    def example(self, rng: np.random.Generator) -> Example:
        n = self.length
        size = int(rng.integers(self.min_segment, self.max_segment + 1))
        room = n - 1 - 2 * size  # the positions left for the tokens before, between and after
        gap = int(rng.integers(0, room + 1))
        first = 1 + int(rng.integers(0, room - gap + 1))
        second = first + size + gap
        tokens = rng.integers(1, self._vocab_size, n).astype(np.int64)
        tokens[0] = BOS
        if self.repeat:
            tokens[second : second + size] = tokens[first : first + size]
        return Example(tokens=tokens, first=first, second=second, length=size)

    def examples(self, count: int, rng: np.random.Generator) -> list[Example]:
        return [self.example(rng) for _ in range(count)]

    def batch(self, step: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
        # Stream 0 is training; held-out and control sequences use other streams of the same seed.
        return encode(self.examples(self.batch_size, np.random.default_rng([seed, 0, step])))


def encode(examples: list[Example]) -> tuple[np.ndarray, np.ndarray]:
    """(inputs [B, n], targets [B, n]): every sequence has the task's length, so no padding."""
    inputs = np.stack([e.tokens for e in examples])
    targets = np.stack([e.targets() for e in examples])
    return inputs, targets


def _match_pairs(examples: list[Example]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, queries, keys): each token of a second copy but its last, and the position just after
    the same token in the first copy — where an induction head looks."""
    rows, queries, keys = [], [], []
    for row, e in enumerate(examples):
        offsets = np.arange(e.length - 1)
        rows.append(np.full(len(offsets), row))
        queries.append(e.second + offsets)
        keys.append(e.first + offsets + 1)
    return np.concatenate(rows), np.concatenate(queries), np.concatenate(keys)


def prefix_matching(attention: np.ndarray, examples: list[Example]) -> np.ndarray:
    """Each head's mean weight [h] from a token of the second copy to the position after that token
    in the first copy, over ``examples``; ``attention`` is one layer's [B, h, n, n]."""
    rows, queries, keys = _match_pairs(examples)
    return attention[rows, :, queries, keys].mean(axis=0)  # [pairs, h] → [h]


def prefix_matching_chance(examples: list[Example]) -> float:
    """The prefix-matching score of uniform causal attention: 1 / (query position + 1), averaged."""
    _, queries, _ = _match_pairs(examples)
    return float(np.mean(1.0 / (queries + 1)))


def previous_token(attention: np.ndarray) -> np.ndarray:
    """Each head's mean weight [h] from a position to the one before it (positions 1 … n−1)."""
    n = attention.shape[-1]
    query = np.arange(1, n)
    return attention[:, :, query, query - 1].mean(axis=(0, 2))  # [B, h, n−1] → [h]


def previous_token_chance(length: int) -> float:
    """The previous-token score of uniform causal attention over ``length`` positions."""
    return float(np.mean(1.0 / (np.arange(1, length) + 1)))


def jump_step(losses: list[float] | np.ndarray, window: int = JUMP_WINDOW) -> int:
    """The step t where the mean loss of the ``window`` steps after t falls furthest below the mean
    of the ``window`` steps up to t (the steepest drop of the smoothed curve). ``losses[i]`` is step
    i + 1's."""
    losses = np.asarray(losses, dtype=np.float64)
    if window < 1 or len(losses) < 2 * window:
        raise ValueError(f"{len(losses)} losses are too few for two windows of {window}")
    sums = np.concatenate([[0.0], np.cumsum(losses)])
    t = np.arange(window, len(losses) - window + 1)
    before = (sums[t] - sums[t - window]) / window  # steps t−w+1 … t
    after = (sums[t + window] - sums[t]) / window  # steps t+1 … t+w
    return int(t[np.argmax(before - after)])


@dataclass(frozen=True)
class Ablations:
    """The held-out second-copy loss with heads switched off (``read``'s head_mask)."""

    intact: float
    untrained: float  # the step-0 parameters, nothing off
    head_off: float  # the induction head
    each_other_head_off: tuple[tuple[int, float], ...]  # (head, loss): each other head of its layer
    other_heads_off: float  # the layer's other heads together, the induction head kept
    layer_off: float  # every head of the induction head's layer
    previous_token_head_off: float  # the previous-token head of the layer below
    other_lower_heads_off: float  # that layer's other heads together (its control)


@dataclass(frozen=True)
class InductionStudy:
    """One training run of the recipe and what was measured at its checkpoints."""

    config: LearnerConfig
    steps: int
    lr: float
    seed: int
    seconds: float  # the training's wall-clock time (informative only; it varies)
    checkpoint_steps: tuple[int, ...]
    losses: tuple[float, ...]  # the training loss (on the second copy) at each step
    second_copy_loss: np.ndarray  # [checkpoints], held out
    first_copy_loss: np.ndarray  # [checkpoints]: unpredictable tokens, a reference
    prefix_matching: np.ndarray  # [checkpoints, layers, h]
    prefix_matching_control: np.ndarray  # [checkpoints, layers, h] on sequences with no repeat
    previous_token: np.ndarray  # [checkpoints, layers, h]
    prefix_matching_chance: float
    previous_token_chance: float
    induction_head: tuple[int, int]  # (layer, head)
    previous_token_head: tuple[int, int]  # (layer, head)
    jump_step: int  # steepest drop of the smoothed training loss
    score_rise_step: int  # first checkpoint where the induction head's score is half-way up
    ablations: Ablations
    params: Params  # after the last step
    checkpoint_params: dict[int, Params]  # step → params
    from_disk: bool = False  # read back from a file rather than trained by this process


def _copy_loss(
    params: Params,
    config: LearnerConfig,
    inputs: np.ndarray,
    targets: np.ndarray,
    backend: str,
    head_mask: np.ndarray | None = None,
) -> float:
    reading = read(params, config, inputs, backend=backend, head_mask=head_mask)
    return float(np.nanmean(token_losses(reading.logits, targets)))


def study(
    *,
    steps: int = STEPS,
    lr: float = LR,
    seed: int = SEED,
    config: LearnerConfig = CONFIG,
    batch_size: int = BATCH_SIZE,
    checkpoint_every: int = CHECKPOINT_EVERY,
    held_out: int = HELD_OUT,
    backend: str = "rust",
    on_step: Callable[[int, int], None] | None = None,
) -> InductionStudy:
    """Train the recipe, then measure every checkpoint on held-out sequences and ablate the heads
    the scores pick out. The induction head is the head with the highest final prefix-matching
    score; the previous-token head the one with the highest final previous-token score in the layers
    below it. RuntimeError if the best prefix-matching head is in layer 0 (nothing composed).
    ``on_step(done, steps)`` is called after each training step."""
    if not 2 * JUMP_WINDOW <= steps <= MAX_STEPS:
        raise ValueError(f"steps must be in [{2 * JUMP_WINDOW}, {MAX_STEPS}], got {steps!r}")
    if checkpoint_every < 1 or steps // checkpoint_every + 2 > MAX_CHECKPOINTS:
        raise ValueError(
            f"checkpoint_every = {checkpoint_every!r} gives more than {MAX_CHECKPOINTS} checkpoints"
        )
    if not 1 <= held_out <= MAX_HELD_OUT:
        raise ValueError(f"held_out must be in [1, {MAX_HELD_OUT}], got {held_out!r}")
    if config.layers < 2 or config.max_positions < LENGTH:
        raise ValueError(f"the task needs layers >= 2 and max_positions >= {LENGTH}")
    task = RepeatTask(batch_size=batch_size)
    start = time.perf_counter()
    result = train(
        task,
        config,
        steps=steps,
        lr=lr,
        seed=seed,
        backend=backend,
        checkpoint_every=checkpoint_every,
        callback=None if on_step is None else lambda step, _loss: on_step(step, steps),
    )
    seconds = time.perf_counter() - start

    examples = task.examples(held_out, np.random.default_rng([seed, 1]))
    controls = RepeatTask(repeat=False).examples(held_out, np.random.default_rng([seed, 2]))
    inputs, targets = encode(examples)
    control_inputs = encode(controls)[0]
    first_targets = np.full_like(targets, IGNORE)  # the first copy's next tokens: random
    for row, e in enumerate(examples):
        inside = np.arange(e.first, e.first + e.length - 1)
        first_targets[row, inside] = e.tokens[inside + 1]

    steps_kept = tuple(sorted(result.checkpoints))
    second, first, matching, matching_control, previous = [], [], [], [], []
    for step in steps_kept:
        params = result.checkpoints[step]
        reading = read(params, config, inputs, backend=backend)
        second.append(np.nanmean(token_losses(reading.logits, targets)))
        first.append(np.nanmean(token_losses(reading.logits, first_targets)))
        matching.append([prefix_matching(a, examples) for a in reading.attention])
        previous.append([previous_token(a) for a in reading.attention])
        control = read(params, config, control_inputs, backend=backend)
        matching_control.append([prefix_matching(a, controls) for a in control.attention])
    prefix = np.array(matching)  # [checkpoints, layers, h]
    prev = np.array(previous)

    layer, head = (int(i) for i in np.unravel_index(np.argmax(prefix[-1]), prefix[-1].shape))
    if layer == 0:
        raise RuntimeError("the best prefix-matching head is in layer 0: no induction head formed")
    lower = prev[-1, :layer]
    prev_layer, prev_head = (int(i) for i in np.unravel_index(np.argmax(lower), lower.shape))
    curve = prefix[:, layer, head]
    half = curve[0] + (curve.max() - curve[0]) / 2
    rise = steps_kept[int(np.argmax(curve >= half))]

    def off(*heads: tuple[int, int]) -> float:
        mask = np.ones((config.layers, config.h), dtype=np.float32)
        for at in heads:
            mask[at] = 0.0
        return _copy_loss(result.params, config, inputs, targets, backend, mask)

    others = [h for h in range(config.h) if h != head]
    prev_others = [h for h in range(config.h) if h != prev_head]
    ablations = Ablations(
        intact=_copy_loss(result.params, config, inputs, targets, backend),
        untrained=float(second[0]),
        head_off=off((layer, head)),
        each_other_head_off=tuple((h, off((layer, h))) for h in others),
        other_heads_off=off(*((layer, h) for h in others)),
        layer_off=off(*((layer, h) for h in range(config.h))),
        previous_token_head_off=off((prev_layer, prev_head)),
        other_lower_heads_off=off(*((prev_layer, h) for h in prev_others)),
    )
    return InductionStudy(
        config=config,
        steps=steps,
        lr=lr,
        seed=seed,
        seconds=seconds,
        checkpoint_steps=steps_kept,
        losses=tuple(result.losses),
        second_copy_loss=np.array(second),
        first_copy_loss=np.array(first),
        prefix_matching=prefix,
        prefix_matching_control=np.array(matching_control),
        previous_token=prev,
        prefix_matching_chance=prefix_matching_chance(examples),
        previous_token_chance=previous_token_chance(LENGTH),
        induction_head=(layer, head),
        previous_token_head=(prev_layer, prev_head),
        jump_step=jump_step(result.losses),
        score_rise_step=rise,
        ablations=ablations,
        params=result.params,
        checkpoint_params=dict(result.checkpoints),
    )


# --- kept on disk ---------------------------------------------------------------------------

_ARRAYS = (
    "second_copy_loss", "first_copy_loss", "prefix_matching", "prefix_matching_control",
    "previous_token",
)  # fmt: skip
_SCALARS = ("seconds", "prefix_matching_chance", "previous_token_chance")


def _settings(backend: str) -> str:
    """What a study of the recipe depends on besides the code: its constants and the backend."""
    return repr((CONFIG, STEPS, LR, SEED, BATCH_SIZE, CHECKPOINT_EVERY, HELD_OUT, backend))


def stored_name(backend: str) -> str:
    code = [*sorted(Path(decoder_module.__file__).parent.glob("*.py")), Path(__file__)]
    return store.file_name("induction", _settings(backend), [str(path) for path in code])


def save(s: InductionStudy, directory: Path, backend: str) -> Path:
    """Keep the recipe's study ``s`` (trained with the module's constants) on disk."""
    arrays: dict[str, np.ndarray] = {"settings": np.array(_settings(backend))}
    arrays["checkpoint_steps"] = np.array(s.checkpoint_steps)
    arrays["losses"] = np.array(s.losses)
    arrays |= {name: np.asarray(getattr(s, name)) for name in _ARRAYS}
    arrays |= {name: np.array(getattr(s, name)) for name in _SCALARS}
    arrays["heads"] = np.array([*s.induction_head, *s.previous_token_head])
    arrays["steps_found"] = np.array([s.jump_step, s.score_rise_step])
    a = s.ablations
    arrays["ablations"] = np.array(
        [a.intact, a.untrained, a.head_off, a.other_heads_off, a.layer_off,
         a.previous_token_head_off, a.other_lower_heads_off]
    )  # fmt: skip
    arrays["each_other_head_off"] = np.array(a.each_other_head_off, dtype=np.float64)
    arrays |= {f"param/{name}": value for name, value in s.params.items()}
    for step, params in s.checkpoint_params.items():
        arrays |= {f"checkpoint/{step}/{name}": value for name, value in params.items()}
    return store.write(directory / stored_name(backend), arrays)


def load(directory: Path, backend: str) -> InductionStudy | None:
    """The recipe's study kept for ``backend``, or None (missing, damaged, other settings)."""
    data = store.read(directory / stored_name(backend))
    if data is None or str(data.get("settings")) != _settings(backend):
        return None
    try:
        steps = tuple(int(x) for x in data["checkpoint_steps"])
        layer, head, prev_layer, prev_head = (int(x) for x in data["heads"])
        jump, rise = (int(x) for x in data["steps_found"])
        intact, untrained, head_off, others, layer_off, prev_off, lower_off = (
            float(x) for x in data["ablations"]
        )
        return InductionStudy(
            config=CONFIG,
            steps=STEPS,
            lr=LR,
            seed=SEED,
            seconds=float(data["seconds"]),
            checkpoint_steps=steps,
            losses=tuple(float(x) for x in data["losses"]),
            second_copy_loss=data["second_copy_loss"],
            first_copy_loss=data["first_copy_loss"],
            prefix_matching=data["prefix_matching"],
            prefix_matching_control=data["prefix_matching_control"],
            previous_token=data["previous_token"],
            prefix_matching_chance=float(data["prefix_matching_chance"]),
            previous_token_chance=float(data["previous_token_chance"]),
            induction_head=(layer, head),
            previous_token_head=(prev_layer, prev_head),
            jump_step=jump,
            score_rise_step=rise,
            ablations=Ablations(
                intact=intact,
                untrained=untrained,
                head_off=head_off,
                each_other_head_off=tuple(
                    (int(h), float(v)) for h, v in data["each_other_head_off"]
                ),
                other_heads_off=others,
                layer_off=layer_off,
                previous_token_head_off=prev_off,
                other_lower_heads_off=lower_off,
            ),
            params=_params(data, "param/"),
            checkpoint_params={step: _params(data, f"checkpoint/{step}/") for step in steps},
            from_disk=True,
        )
    except (KeyError, ValueError, TypeError):
        return None


def _params(data: dict[str, np.ndarray], prefix: str) -> Params:
    found = {name[len(prefix) :]: value for name, value in data.items() if name.startswith(prefix)}
    return checked_params(found, CONFIG, VOCAB_SIZE)
