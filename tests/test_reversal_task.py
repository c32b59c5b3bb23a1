"""The reversal task of the Seq2seq page's Transformer (``topics/learning/reversal.py``): its
batches are the GRUs' strings as one sequence each, with the loss on the answer only; a tiny learner
trained on it learns; it is evaluated as the GRUs are; its file on disk round-trips and a damaged
one is not used; and the step timings have the shape the page reads."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import numpy as np
import pytest

from transformer_walk.models.learner import LearnerConfig
from transformer_walk.models.learner.reading import read, token_losses
from transformer_walk.topics import gru_seq2seq
from transformer_walk.topics.gru_seq2seq import GruConfig
from transformer_walk.topics.learning import reversal, reversal_store, step_times
from transformer_walk.topics.learning.reversal import (
    IGNORE,
    ReversalConfig,
    ReversalTask,
    TrainedReversal,
    answer,
    example,
    longest_readable,
    train_reversal,
)
from transformer_walk.topics.learning.reversal_store import ReversalRun

TINY_GRU = GruConfig(train_max_len=3, eval_max_len=4, steps=200, batch=16, eval_per_length=12)
TINY = ReversalConfig(
    gru=TINY_GRU,
    learner=LearnerConfig(d_model=16, h=2, d_ff=32, layers=1, max_positions=10),
    lr=1e-2,
)


@pytest.fixture(scope="module")
def trained() -> TrainedReversal:
    return train_reversal(TINY)


def test_a_batch_is_source_mark_reversal_mark_with_the_loss_on_the_answer() -> None:
    task = ReversalTask(GruConfig(), steps=20)
    mark = GruConfig().boundary
    assert task.vocab_size == len("abcdefgh") + 1 == mark + 1
    for step in range(20):
        src = task.sources(step, seed=0)
        inputs, targets = task.batch(step, seed=0)
        B, T = src.shape
        assert B == 64 and 1 <= T <= 8
        assert inputs.shape == targets.shape == (B, 2 * T + 1)
        assert inputs.dtype == targets.dtype == np.int64
        np.testing.assert_array_equal(inputs[:, :T], src)  # the source, then the mark
        assert (inputs[:, T] == mark).all()
        np.testing.assert_array_equal(inputs[:, T + 1 :], src[:, ::-1])  # the answer, read
        assert (targets[:, :T] == IGNORE).all()  # no loss on the source
        np.testing.assert_array_equal(targets[:, T : 2 * T], src[:, ::-1])  # the reversal
        assert (targets[:, 2 * T] == mark).all()  # and the end mark


def test_the_example_of_one_string() -> None:
    inputs, targets = example(np.array([[0, 1, 2]]), mark=8)
    assert inputs.tolist() == [[0, 1, 2, 8, 2, 1, 0]]
    assert targets.tolist() == [[IGNORE, IGNORE, IGNORE, 2, 1, 0, 8]]


def test_batches_are_deterministic_and_the_grus_own(monkeypatch: pytest.MonkeyPatch) -> None:
    config = dataclasses.replace(TINY_GRU, steps=6)
    task = ReversalTask(config, steps=6)
    again = ReversalTask(config, steps=6)
    for step in range(6):
        for a, b in zip(task.batch(step, 3), again.batch(step, 3), strict=True):
            np.testing.assert_array_equal(a, b)
    assert any(
        task.sources(s, 0).shape != task.sources(s, 1).shape
        or (task.sources(s, 0) != task.sources(s, 1)).any()
        for s in range(6)
    )  # another seed, other strings
    seen: list[np.ndarray] = []
    real = gru_seq2seq.loss_and_grads

    def spy(p: gru_seq2seq.Params, src: np.ndarray, boundary: int) -> object:
        seen.append(src.copy())
        return real(p, src, boundary)

    monkeypatch.setattr(gru_seq2seq, "loss_and_grads", spy)
    gru_seq2seq.train(dataclasses.replace(config, seed=3), "fixed")
    assert len(seen) == 6
    for step, src in enumerate(seen):
        np.testing.assert_array_equal(task.sources(step, 3), src)
    with pytest.raises(IndexError):
        task.sources(6, 0)


def test_a_config_whose_positions_cannot_hold_the_longest_string_is_refused() -> None:
    with pytest.raises(ValueError, match="max_positions"):
        ReversalConfig(learner=LearnerConfig(max_positions=29))  # 14 letters need 30
    assert longest_readable(ReversalConfig()) == 14


def test_training_a_tiny_config_lowers_the_loss(trained: TrainedReversal) -> None:
    losses = trained.losses
    assert len(losses) == TINY_GRU.steps and trained.seconds > 0
    assert np.mean(losses[-20:]) < 0.7 * np.mean(losses[:20])
    assert trained.step_seconds == trained.seconds / TINY_GRU.steps


def test_evaluation_is_the_grus_greedy_scoring(trained: TrainedReversal) -> None:
    """Rebuilt by hand: the same held-out strings as gru_seq2seq.evaluate, T + 1 symbols written
    one at a time (each pass reads all written so far; as the GRUs', decoding goes on past an
    early end mark), scored letter by letter and as a whole with the end mark last."""
    rng = np.random.default_rng([TINY_GRU.seed, 2])
    mark = TINY_GRU.boundary
    assert [s.length for s in trained.scores] == [1, 2, 3, 4]
    for score in trained.scores:
        T = score.length
        src = rng.integers(0, 8, size=(TINY_GRU.eval_per_length, T))
        letters = whole = 0
        for row in src:
            seq = [*row.tolist(), mark]
            for _ in range(T + 1):
                logits = read(trained.params, TINY.learner, np.array(seq)).logits
                seq.append(int(np.argmax(logits[0, -1])))
            written = seq[T + 1 :]
            letters += sum(int(x == y) for x, y in zip(written[:T], row[::-1], strict=True))
            whole += int(written[:T] == row[::-1].tolist() and written[T] == mark)
        assert score.token_accuracy == pytest.approx(letters / src.size)
        assert score.sequence_accuracy == pytest.approx(whole / len(src))
    # the training lengths are learned: far above a random letter's 1 / 8
    assert min(trained.accuracy(T) for T in (1, 2, 3)) > 0.9


def test_reading_the_trained_model_gives_its_losses(trained: TrainedReversal) -> None:
    inputs, targets = example(np.array([[0, 1, 2], [3, 3, 4]]), TINY_GRU.boundary)
    reading = read(trained.params, TINY.learner, inputs)
    losses = token_losses(reading.logits, targets)
    assert np.isnan(losses[:, :3]).all() and np.isfinite(losses[:, 3:]).all()
    assert len(reading.attention) == TINY.learner.layers


def test_an_answer_stops_at_the_end_mark_and_a_long_string_is_not_read(
    trained: TrainedReversal,
) -> None:
    a = answer(trained, (0, 1))
    assert a is not None and a.expected == (1, 0)
    assert a.passes == len(a.output) + int(a.stopped)  # one pass per symbol written
    assert a.correct == (a.stopped and a.letters_right == 2 and len(a.output) == 2)
    assert answer(trained, tuple([0] * (longest_readable(TINY) + 1))) is None
    longest = answer(trained, tuple([1] * longest_readable(TINY)))
    assert longest is not None  # fits the position table, however many symbols it writes
    with pytest.raises(ValueError):
        answer(trained, ())


def test_step_times_have_a_time_for_every_model_and_length() -> None:
    times = step_times.measure(TINY, lengths=(1, 3), repeats=1)
    assert times.lengths == (1, 3)
    assert set(times.seconds) == set(step_times.MODELS)
    assert all(len(s) == 2 and min(s) > 0 for s in times.seconds.values())
    assert times.at("transformer", 3) == times.seconds["transformer"][1]
    assert step_times.sequential_updates("fixed", 8) == 17
    assert step_times.sequential_updates("transformer", 8) == 0


def _run(trained: TrainedReversal) -> ReversalRun:
    return ReversalRun(trained, step_times.StepTimes((1, 2), {m: (1e-3, 2e-3) for m in
                                                             step_times.MODELS}))  # fmt: skip


def test_the_store_reads_back_what_was_trained(trained: TrainedReversal, tmp_path: Path) -> None:
    path = reversal_store.save(_run(trained), tmp_path)
    assert path.name == reversal_store.key(TINY) and list(tmp_path.iterdir()) == [path]
    stored = reversal_store.load(TINY, tmp_path)
    assert stored is not None and stored.from_disk and stored.model.from_disk
    assert (stored.model.losses, stored.model.scores, stored.model.seconds) == (
        trained.losses, trained.scores, trained.seconds,
    )  # fmt: skip
    assert stored.times == _run(trained).times
    for name, value in trained.params.items():
        np.testing.assert_array_equal(stored.model.params[name], value, err_msg=name)
    # the read-back model answers as the trained one does
    assert answer(stored.model, (2, 0, 1)) == answer(trained, (2, 0, 1))


def test_the_store_key_follows_config_and_code() -> None:
    keys = {
        reversal_store.key(c)
        for c in (TINY, ReversalConfig(), dataclasses.replace(TINY, lr=2e-2),
                  dataclasses.replace(TINY, gru=dataclasses.replace(TINY_GRU, seed=1)))
    }  # fmt: skip
    assert len(keys) == 4
    assert Path(reversal.__file__) in reversal_store._code()


def test_the_store_refuses_a_file_that_does_not_fit(
    trained: TrainedReversal, tmp_path: Path
) -> None:
    assert reversal_store.load(TINY, tmp_path) is None  # nothing there
    path = reversal_store.save(_run(trained), tmp_path)
    other = dataclasses.replace(TINY, lr=2e-2)
    os.replace(path, tmp_path / reversal_store.key(other))  # another config's name
    assert reversal_store.load(other, tmp_path) is None
    (tmp_path / reversal_store.key(TINY)).write_bytes(b"PK\x03\x04 not a zip")
    assert reversal_store.load(TINY, tmp_path) is None
    path = reversal_store.save(_run(trained), tmp_path)
    path.write_bytes(path.read_bytes()[:300])  # cut short
    assert reversal_store.load(TINY, tmp_path) is None
    arrays = dict(np.load(reversal_store.save(_run(trained), tmp_path)))
    arrays["times/fixed"] = arrays["times/fixed"][:1]  # timings that do not fit their lengths
    with open(path, "wb") as file:
        np.savez(file, **arrays)
    assert reversal_store.load(TINY, tmp_path) is None
