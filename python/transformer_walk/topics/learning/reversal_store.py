"""The reversal Transformer and its step timings kept in a file through ``learning.store``: a
later process reads them back (milliseconds) instead of training again (seconds).

A file is named by ``key(config)``: a hash of the config, of the training code (the task, the
timing probe and the learner's own modules) and of NumPy's version. A file that is missing,
unreadable, written by other code or for another config is not used: ``load`` returns None and
the caller trains.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np

from transformer_walk.models import learner
from transformer_walk.models.learner.params import param_shapes
from transformer_walk.topics.gru_seq2seq import LengthScore
from transformer_walk.topics.learning import reversal, step_times, store
from transformer_walk.topics.learning.reversal import ReversalConfig, TrainedReversal
from transformer_walk.topics.learning.step_times import MODELS, StepTimes


@dataclass(frozen=True)
class ReversalRun:
    """The trained Transformer and the step timings of all three models, measured with it."""

    model: TrainedReversal
    times: StepTimes
    from_disk: bool = False


def _code() -> list[Path]:
    """The files the stored numbers depend on."""
    learner_dir = Path(learner.__file__).parent
    return [Path(reversal.__file__), Path(step_times.__file__), *sorted(learner_dir.glob("*.py"))]


def key(config: ReversalConfig) -> str:
    """The file name (without directory) of ``config``'s run."""
    return store.file_name("reversal-transformer", repr(asdict(config)), map(str, _code()))


def save(run: ReversalRun, directory: Path) -> Path:
    """Write ``run`` to ``directory / key(config)`` atomically (a reader never sees half a file)
    and return the path. OSError if the directory cannot be written."""
    model = run.model
    arrays: dict[str, np.ndarray] = {
        "config": np.array(repr(asdict(model.config))),
        "losses": np.array(model.losses),
        # (lengths, 3): length, token accuracy, sequence accuracy
        "scores": np.array(
            [(s.length, s.token_accuracy, s.sequence_accuracy) for s in model.scores]
        ),
        "seconds": np.array(model.seconds),
        "times/lengths": np.array(run.times.lengths),
    }
    arrays |= {f"param/{name}": value for name, value in model.params.items()}
    arrays |= {f"times/{m}": np.array(run.times.seconds[m]) for m in MODELS}
    return store.write(directory / key(model.config), arrays)


def load(config: ReversalConfig, directory: Path) -> ReversalRun | None:
    """The run of ``config`` read from ``directory``, or None when there is no usable file
    (missing, damaged, or for another config)."""
    data = store.read(directory / key(config))
    if data is None:
        return None
    try:
        if str(data["config"]) != repr(asdict(config)):
            return None
        model = _model(data, config)
        times = _times(data)
    except (KeyError, ValueError):
        return None
    return ReversalRun(replace(model, from_disk=True), times, from_disk=True)


def _model(data: Mapping[str, np.ndarray], config: ReversalConfig) -> TrainedReversal:
    params = {name[6:]: value for name, value in data.items() if name.startswith("param/")}
    shapes = param_shapes(config.learner, config.gru.vocab)
    if params.keys() != shapes.keys() or any(params[k].shape != s for k, s in shapes.items()):
        raise ValueError("the stored parameters do not fit the config")
    scores = tuple(
        LengthScore(int(length), float(token), float(sequence))
        for length, token, sequence in data["scores"]
    )
    if [s.length for s in scores] != list(range(1, config.gru.eval_max_len + 1)):
        raise ValueError("the stored scores do not cover every evaluated length")
    losses = tuple(float(x) for x in data["losses"])
    if len(losses) != config.gru.steps:
        raise ValueError(f"{len(losses)} stored losses for {config.gru.steps} steps")
    return TrainedReversal(config, params, losses, scores, float(data["seconds"]))


def _times(data: Mapping[str, np.ndarray]) -> StepTimes:
    lengths = tuple(int(x) for x in data["times/lengths"])
    seconds = {m: tuple(float(x) for x in data[f"times/{m}"]) for m in MODELS}
    if not lengths or any(len(s) != len(lengths) for s in seconds.values()):
        raise ValueError("the stored timings do not fit their lengths")
    return StepTimes(lengths, seconds)
