"""Task a measured: train the learner on the possessive task and on its control, and watch, at
every checkpoint, how much each head's attention from the possessive's query goes to the name.

The two controls the claims stand beside: the same head in the model trained on the control task
(where the name says nothing about the possessive), and the head of the trained model whose final
weight on the name ended closest to chance. At the end the weight is also split by the name's
gender and kept for the sentences whose name is FAR or more tokens before the query (where a head
that looks at the previous token cannot reach it). Switching heads off (``head_mask``) checks
what the weights suggest: the loss on possessives with the heads that look at the name off,
against as many other heads off, and how often the model is still right then.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from transformer_walk.models.learner import decoder as decoder_module
from transformer_walk.models.learner.decoder import Params
from transformer_walk.models.learner.params import LearnerConfig, checked_params
from transformer_walk.models.learner.reading import read, token_losses
from transformer_walk.models.learner.trainer import TrainResult, train
from transformer_walk.topics.learning import pronouns as pronouns_module
from transformer_walk.topics.learning import store
from transformer_walk.topics.learning.pronouns import PronounTask, Sentence

#: 150 steps at lr 3e-3 take the loss on possessives from ln 44 to about 0.003 (measured on seeds
#: 0–3 in both languages); checkpoints every 5 steps show the change step by step.
STEPS = 150
LR = 3e-3
CHECKPOINT_EVERY = 5
#: Held-out sentences the weights and losses are averaged over (a seed no batch uses).
EVAL_SENTENCES = 256
EVAL_SEED = 10**6
#: A head "looks at the name" when its mean weight on it is at least this many times chance.
LOOKS_AT_NAME = 2.0
#: Guessing "his" or "her" at even odds: the loss a model that ignores the name can reach.
GUESS_LOSS = math.log(2)
#: A name this many tokens or more before the query is out of reach of a previous-token head.
FAR = 3


@dataclass(frozen=True)
class NameHeadSettings:
    language: str = "en"
    steps: int = STEPS
    lr: float = LR
    seed: int = 0
    checkpoint_every: int = CHECKPOINT_EVERY
    config: LearnerConfig = field(default_factory=LearnerConfig)

    def validate(self) -> None:
        self.config.validate()
        if not 1 <= self.steps <= 2000:
            raise ValueError(f"steps must be between 1 and 2000, got {self.steps!r}")
        if not 1 <= self.checkpoint_every <= self.steps:
            raise ValueError(
                f"checkpoint_every must be between 1 and steps = {self.steps}, "
                f"got {self.checkpoint_every!r}"
            )
        if not 0 < self.lr < 1:
            raise ValueError(f"lr must be between 0 and 1, got {self.lr!r}")
        if PronounTask(self.language).max_length > self.config.max_positions:
            raise ValueError("max_positions is shorter than the task's longest sentence")


@dataclass(frozen=True)
class NameHeadStudy:
    settings: NameHeadSettings
    steps: tuple[int, ...]  # the checkpoints' steps, 0 first
    losses: tuple[float, ...]  # training loss per step, the task
    control_losses: tuple[float, ...]  # the same for the control task
    name_weight: np.ndarray  # [checkpoints, layers, h]: mean weight from the query on the name
    control_name_weight: np.ndarray  # the same in the control model
    chance: float  # the mean weight a head spreading evenly over the visible tokens gives
    eval_loss: np.ndarray  # [checkpoints]: held-out loss on possessives
    control_eval_loss: np.ndarray  # the control model's, on the control's sentences
    single_off: np.ndarray  # [layers, h]: the trained model's loss with that one head off
    base_loss: float  # … with every head on
    group_off: float  # … with every head that looks at the name off
    others_off: float  # … with as many of the other heads off (the least name-looking ones)
    group_off_right: float  # share of held-out sentences answered right with the group off
    gender_weight: np.ndarray  # [2, layers, h]: final weight on the name, male names, female ones
    gender_loss: np.ndarray  # [2]: the trained model's held-out loss after male, female names
    far_weight: np.ndarray  # [layers, h]: final weight on names ≥ FAR tokens before the query
    far_chance: float  # chance on those sentences
    far_count: int  # how many held-out sentences those are
    params: Params  # the trained model's at the end
    checkpoints: dict[int, Params]  # the trained model's at each checkpoint step
    seconds: float  # the task's training, measured (the control's is not counted)
    from_disk: bool = False  # read back from a file rather than trained by this process

    @property
    def watched_head(self) -> tuple[int, int]:
        """(layer, head) with the largest weight on the name at the end."""
        layer, head = np.unravel_index(np.argmax(self.name_weight[-1]), self.name_weight.shape[1:])
        return int(layer), int(head)

    @property
    def idle_head(self) -> tuple[int, int]:
        """(layer, head) whose weight on the name ended closest to chance."""
        gap = np.abs(self.name_weight[-1] - self.chance)
        layer, head = np.unravel_index(np.argmin(gap), gap.shape)
        return int(layer), int(head)

    @property
    def name_heads(self) -> np.ndarray:
        """[layers, h] bool: the heads that ended looking at the name (≥ LOOKS_AT_NAME × chance)."""
        return name_heads(self.name_weight[-1], self.chance)


def name_heads(weights: np.ndarray, chance: float) -> np.ndarray:
    return np.asarray(weights) >= LOOKS_AT_NAME * chance


def other_heads(weights: np.ndarray, chance: float) -> np.ndarray:
    """[layers, h] bool: as many heads as ``name_heads`` picks, among the rest, least weight first
    (all the rest when there are fewer)."""
    chosen = name_heads(weights, chance)
    order = [i for i in np.argsort(np.asarray(weights), axis=None) if not chosen.flat[i]]
    mask = np.zeros(chosen.shape, dtype=bool)
    mask.flat[order[: int(chosen.sum())]] = True
    return mask


@dataclass(frozen=True)
class Held:
    """Held-out sentences, encoded, with where each one's name and query are."""

    sentences: list[Sentence]
    inputs: np.ndarray  # [B, n]
    targets: np.ndarray  # [B, n]: the possessive at the query, -100 elsewhere
    names: np.ndarray  # [B]
    queries: np.ndarray  # [B]
    female: np.ndarray  # [B] bool: the name is female

    def subset(self, keep: np.ndarray) -> Held:
        """The sentences where ``keep`` [B] is True."""
        keep = np.asarray(keep, dtype=bool)
        return Held(
            [s for s, k in zip(self.sentences, keep, strict=True) if k],
            self.inputs[keep],
            self.targets[keep],
            self.names[keep],
            self.queries[keep],
            self.female[keep],
        )

    @property
    def chance(self) -> float:
        return float(np.mean(1.0 / (self.queries + 1)))


def held_out(task: PronounTask, count: int = EVAL_SENTENCES) -> Held:
    sentences = PronounTask(task.language, control=task.control, batch_size=count).sentences(
        0, EVAL_SEED
    )
    inputs, targets = task.encode(sentences)
    return Held(
        sentences,
        inputs,
        targets,
        np.array([s.name_position for s in sentences]),
        np.array([s.query_position for s in sentences]),
        np.array([s.tokens[s.name_position] in task.words.female for s in sentences], dtype=bool),
    )


def name_weight(params: Params, config: LearnerConfig, held: Held, backend: str) -> np.ndarray:
    """[layers, h]: each head's weight from the query on the name, averaged over ``held``."""
    reading = read(params, config, held.inputs, backend=backend)
    rows = np.arange(len(held.sentences))
    # attention [B, h, n, n] → each sentence's (query, name) entry per head: [B, h] → [h]
    return np.stack([a[rows, :, held.queries, held.names].mean(axis=0) for a in reading.attention])


def possessive_loss(
    params: Params,
    config: LearnerConfig,
    held: Held,
    backend: str,
    head_mask: np.ndarray | None = None,
) -> float:
    reading = read(params, config, held.inputs, backend=backend, head_mask=head_mask)
    return float(np.nanmean(token_losses(reading.logits, held.targets)))


def possessive_right(
    params: Params,
    config: LearnerConfig,
    task: PronounTask,
    held: Held,
    backend: str,
    head_mask: np.ndarray | None = None,
) -> float:
    """The share of ``held`` where the right possessive gets more probability than the other."""
    reading = read(params, config, held.inputs, backend=backend, head_mask=head_mask)
    rows = np.arange(len(held.sentences))
    right = held.targets[rows, held.queries]  # [B]: the possessive's id
    his, her = task.ids[task.words.his], task.ids[task.words.her]
    wrong = np.where(right == his, her, his)
    logits = reading.logits[rows, held.queries]  # [B, V]
    return float(np.mean(logits[rows, right] > logits[rows, wrong]))


def study(
    settings: NameHeadSettings,
    *,
    backend: str = "rust",
    on_step: Callable[[int, int], None] | None = None,
) -> NameHeadStudy:
    """Train on the task and on its control (``settings.steps`` each) and measure both at every
    checkpoint. ``on_step(done, total)`` is called after each training step of the two runs."""
    settings.validate()
    config = settings.config
    total = 2 * settings.steps
    runs: dict[bool, tuple[PronounTask, TrainResult]] = {}
    seconds = 0.0
    for index, is_control in enumerate((False, True)):
        task = PronounTask(settings.language, control=is_control)

        def progress(step: int, _loss: float, offset: int = index * settings.steps) -> None:
            if on_step is not None:
                on_step(offset + step, total)

        started = time.perf_counter()
        runs[is_control] = (
            task,
            train(
                task,
                config,
                steps=settings.steps,
                seed=settings.seed,
                backend=backend,
                lr=settings.lr,
                checkpoint_every=settings.checkpoint_every,
                callback=progress,
            ),
        )
        if not is_control:
            seconds = time.perf_counter() - started
    (task, trained), (control_task, control) = runs[False], runs[True]
    held, control_held = held_out(task), held_out(control_task)
    steps = tuple(sorted(trained.checkpoints))
    weights = np.stack([name_weight(trained.checkpoints[s], config, held, backend) for s in steps])
    control_weights = np.stack(
        [name_weight(control.checkpoints[s], config, control_held, backend) for s in steps]
    )
    final = weights[-1]
    chance = held.chance

    def off(mask: np.ndarray) -> float:
        return possessive_loss(trained.params, config, held, backend, (~mask).astype(np.float32))

    by_gender = [held.subset(held.female == female) for female in (False, True)]
    far = held.subset(held.queries - held.names >= FAR)

    single = np.zeros(final.shape)
    for layer, head in np.ndindex(final.shape):
        one = np.zeros(final.shape, dtype=bool)
        one[layer, head] = True
        single[layer, head] = off(one)
    return NameHeadStudy(
        settings=settings,
        steps=steps,
        losses=tuple(trained.losses),
        control_losses=tuple(control.losses),
        name_weight=weights,
        control_name_weight=control_weights,
        chance=chance,
        eval_loss=np.array(
            [possessive_loss(trained.checkpoints[s], config, held, backend) for s in steps]
        ),
        control_eval_loss=np.array(
            [possessive_loss(control.checkpoints[s], config, control_held, backend) for s in steps]
        ),
        single_off=single,
        base_loss=off(np.zeros(final.shape, dtype=bool)),
        group_off=off(name_heads(final, chance)),
        others_off=off(other_heads(final, chance)),
        group_off_right=possessive_right(
            trained.params,
            config,
            task,
            held,
            backend,
            (~name_heads(final, chance)).astype(np.float32),
        ),
        gender_weight=np.stack(
            [name_weight(trained.params, config, h, backend) for h in by_gender]
        ),
        gender_loss=np.array(
            [possessive_loss(trained.params, config, h, backend) for h in by_gender]
        ),
        far_weight=name_weight(trained.params, config, far, backend),
        far_chance=far.chance,
        far_count=len(far.sentences),
        params=trained.params,
        checkpoints=trained.checkpoints,
        seconds=seconds,
    )


# --- kept on disk ---------------------------------------------------------------------------

_CURVES = ("losses", "control_losses")
_ARRAYS = (
    "name_weight", "control_name_weight", "eval_loss", "control_eval_loss", "single_off",
    "gender_weight", "gender_loss", "far_weight",
)  # fmt: skip
_SCALARS = (
    "chance", "base_loss", "group_off", "others_off", "group_off_right", "far_chance", "far_count",
    "seconds",
)  # fmt: skip


def stored_name(settings: NameHeadSettings, backend: str) -> str:
    """The file of ``settings``' study on ``backend``: the code it depends on is the learner's
    package, the task and this module."""
    code = [*sorted(Path(decoder_module.__file__).parent.glob("*.py")), pronouns_module.__file__]
    return store.file_name("name-head", f"{settings!r} {backend}", [*map(str, code), __file__])


def save(study_: NameHeadStudy, directory: Path, backend: str) -> Path:
    arrays: dict[str, np.ndarray] = {"settings": np.array(repr(study_.settings))}
    arrays["steps"] = np.array(study_.steps)
    arrays |= {name: np.asarray(getattr(study_, name)) for name in _CURVES + _ARRAYS}
    arrays |= {name: np.array(getattr(study_, name)) for name in _SCALARS}
    arrays |= {f"param/{name}": value for name, value in study_.params.items()}
    for step, params in study_.checkpoints.items():
        arrays |= {f"checkpoint/{step}/{name}": value for name, value in params.items()}
    return store.write(directory / stored_name(study_.settings, backend), arrays)


def load(settings: NameHeadSettings, directory: Path, backend: str) -> NameHeadStudy | None:
    """The study stored for ``settings`` and ``backend``, or None (missing, damaged, other)."""
    data = store.read(directory / stored_name(settings, backend))
    if data is None or str(data.get("settings")) != repr(settings):
        return None
    try:
        steps = tuple(int(s) for s in data["steps"])
        checkpoints = {step: _params(data, f"checkpoint/{step}/", settings) for step in steps}
        return NameHeadStudy(
            settings=settings,
            steps=steps,
            losses=tuple(float(x) for x in data["losses"]),
            control_losses=tuple(float(x) for x in data["control_losses"]),
            name_weight=data["name_weight"],
            control_name_weight=data["control_name_weight"],
            chance=float(data["chance"]),
            eval_loss=data["eval_loss"],
            control_eval_loss=data["control_eval_loss"],
            single_off=data["single_off"],
            base_loss=float(data["base_loss"]),
            group_off=float(data["group_off"]),
            others_off=float(data["others_off"]),
            group_off_right=float(data["group_off_right"]),
            gender_weight=data["gender_weight"],
            gender_loss=data["gender_loss"],
            far_weight=data["far_weight"],
            far_chance=float(data["far_chance"]),
            far_count=int(data["far_count"]),
            params=_params(data, "param/", settings),
            checkpoints=checkpoints,
            seconds=float(data["seconds"]),
            from_disk=True,
        )
    except (KeyError, ValueError, TypeError):
        return None


def _params(data: dict[str, np.ndarray], prefix: str, settings: NameHeadSettings) -> Params:
    found = {name[len(prefix) :]: value for name, value in data.items() if name.startswith(prefix)}
    vocab_size = PronounTask(settings.language).vocab_size
    return checked_params(found, settings.config, vocab_size)


# --- one sentence read -----------------------------------------------------------------------


@dataclass(frozen=True)
class SentenceReading:
    """What the model at one checkpoint does with one sentence at its query."""

    weights: np.ndarray  # [layers, h, n]: each head's attention from the query over the tokens
    matrices: np.ndarray  # [layers, h, n, n]: every head's whole attention matrix
    his: float  # the probability of the "his" word at the query
    her: float


def top_as_rest(weights: np.ndarray) -> np.ndarray:
    """Attention rows ``weights`` [..., n] (each sums to 1) in float64, the largest weight of each
    row replaced by 1 minus the row's others. A trained head can be so sure that, in float32, its
    largest weight rounds to exactly 1 while the others are still above 0 (1 − 3e-9 is 1.0f): a
    page would print "100%" beside "<0.1%". 1 minus the others is the same value to float32
    rounding, and below 1 whenever another key has weight."""
    rows = weights.astype(np.float64)
    top = rows.argmax(axis=-1)[..., None]  # [..., 1]
    rest = rows.sum(axis=-1, keepdims=True) - np.take_along_axis(rows, top, axis=-1)
    np.put_along_axis(rows, top, 1.0 - rest, axis=-1)
    return rows


def read_sentence(
    params: Params, config: LearnerConfig, task: PronounTask, sentence: Sentence, backend: str
) -> SentenceReading:
    inputs = np.array([[task.ids[word] for word in sentence.tokens]])  # [1, n]
    reading = read(params, config, inputs, backend=backend)
    logits = reading.logits[0, sentence.query_position].astype(np.float64)  # [V]
    probs = np.exp(logits - logits.max())
    probs /= probs.sum()
    matrices = np.stack([a[0] for a in reading.attention])  # layers × [1, h, n, n] → [L, h, n, n]
    matrices = top_as_rest(matrices)
    return SentenceReading(
        weights=matrices[:, :, sentence.query_position, :],
        matrices=matrices,
        his=float(probs[task.ids[task.words.his]]),
        her=float(probs[task.ids[task.words.her]]),
    )
