"""Trained GRU encoder–decoders kept in a file, so that a later process reuses them instead of
training again (training both takes several seconds; reading them back, milliseconds).

A file is named by ``key(config)``: a hash of the config, of this package's training code and of
NumPy's version — the three things the trained weights depend on (training is seeded and
deterministic on a given machine). A file that is missing, unreadable, written by other code or
for another config is not used: ``load`` returns None and the caller trains. Files hold plain
arrays (``np.load(allow_pickle=False)``), never pickles.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import zipfile
from dataclasses import asdict
from pathlib import Path

import numpy as np

from transformer_walk.topics import gru_seq2seq
from transformer_walk.topics.gru_seq2seq import (
    VARIANTS,
    Comparison,
    GruConfig,
    LengthScore,
    TrainedModel,
)

#: Bumped when the file layout below changes.
FORMAT = 1


def key(config: GruConfig) -> str:
    """The file name (without directory) of ``config``'s trained pair."""
    digest = hashlib.sha256()
    digest.update(f"format {FORMAT}\n{asdict(config)!r}\nnumpy {np.__version__}\n".encode())
    digest.update(Path(gru_seq2seq.__file__).read_bytes())  # the training code itself
    return f"gru-seq2seq-{digest.hexdigest()[:24]}.npz"


def save(comparison: Comparison, directory: Path) -> Path:
    """Write ``comparison`` to ``directory / key(config)`` (atomically: a reader never sees half a
    file) and return the path. OSError if the directory cannot be written."""
    arrays: dict[str, np.ndarray] = {"config": np.array(repr(asdict(comparison.config)))}
    for variant in VARIANTS:
        model = comparison.model(variant)
        arrays |= {f"{variant}/param/{name}": value for name, value in model.params.items()}
        arrays[f"{variant}/losses"] = np.array(model.losses)
        # (lengths, 3): length, token accuracy, sequence accuracy
        arrays[f"{variant}/scores"] = np.array(
            [(s.length, s.token_accuracy, s.sequence_accuracy) for s in model.scores]
        )
        arrays[f"{variant}/seconds"] = np.array(model.seconds)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / key(comparison.config)
    handle, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            np.savez(file, **arrays)  # type: ignore[arg-type]
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def load(config: GruConfig, directory: Path) -> Comparison | None:
    """The pair trained with ``config``, read from ``directory``, or None when there is no
    usable file (missing, damaged, or for another config)."""
    path = directory / key(config)
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["config"]) != repr(asdict(config)):
                return None
            models = {variant: _model(data, config, variant) for variant in VARIANTS}
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return None
    return Comparison(models["fixed"], models["attention"], from_disk=True)


def _model(data: np.lib.npyio.NpzFile, config: GruConfig, variant: str) -> TrainedModel:
    prefix = f"{variant}/param/"
    params = {name[len(prefix) :]: data[name] for name in data.files if name.startswith(prefix)}
    expected = gru_seq2seq.init_params(config, variant)
    if params.keys() != expected.keys() or any(
        params[k].shape != v.shape for k, v in expected.items()
    ):
        raise ValueError(f"{variant}: the stored parameters do not fit the config")
    scores = tuple(
        LengthScore(int(length), float(token), float(sequence))
        for length, token, sequence in data[f"{variant}/scores"]
    )
    if [s.length for s in scores] != list(range(1, config.eval_max_len + 1)):
        raise ValueError(f"{variant}: the stored scores do not cover 1 … {config.eval_max_len}")
    losses = tuple(float(x) for x in data[f"{variant}/losses"])
    if len(losses) != config.steps:
        raise ValueError(f"{variant}: {len(losses)} stored losses for {config.steps} steps")
    return TrainedModel(config, variant, params, losses, scores, float(data[f"{variant}/seconds"]))
