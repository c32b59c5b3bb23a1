"""Heads that copy, in SmolLM2: random tokens repeated twice, and the heads that read the second
copy off the first.

In a sequence ``a b c … a b c …`` of T random tokens and the same T again, every token of the
second copy can be predicted: look back for where the current token stood before and copy the
token that followed it. A head doing that (an *induction head*) puts its weight, from position
T + j, on position j + 1. Its **prefix-matching score** is that weight averaged over the second
copy (j = 0 … T − 2, the copy's last token having nothing after it in the first copy to point at):

    score = mean_j  A[T + j, j + 1]        A: the head's [n, n] attention weights

A head that spread its weight evenly would give 1 / (T + j + 1) there (``chance_score``). Two
controls stand beside the scores: the same positions in sequences whose second half is fresh
tokens (``control_scores``: nothing to copy), and switching the strongest heads off beside as many
other heads of the same layers (``switch_off``), on held-out sequences the heads were not chosen
on. The loss on the second copy (mean −log p of its tokens, in nats) is what copying lowers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from transformer_walk.models.learner.reading import token_losses
from transformer_walk.models.smollm2 import SmolLM2, SwitchedOff
from transformer_walk.topics.claims import Claim, claim, percent
from transformer_walk.topics.decoder_attribution import Head, control_heads, signed
from transformer_walk.topics.learning.name_head_claims import head_label

#: Random tokens in each copy: 2 · 25 = 50 positions, long enough that no head can find the
#: answer by a fixed small offset, short enough that one sequence is a fast forward.
LENGTH = 25
#: Sequences the scores are averaged over.
DRAWS = 4
#: Held-out sequences the switching off is measured on (a seed of their own).
HELD_OUT = 4
#: Heads switched off together by default, and the most a page may ask for.
TOP = 3
MAX_TOP = 9
#: Sets of control heads, each as many heads of the same layers.
CONTROL_DRAWS = 5
#: The seeds of the sequences the heads are found on and of the held-out ones.
SEED, HELD_OUT_SEED = 0, 1


def random_tokens(model: SmolLM2, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` distinct ordinary token ids [count] (no special token such as <|im_end|>), so
    that every token of a copy stood exactly once before."""
    special = np.array(model.tokenizer.special_ids, np.int64)
    pool = np.setdiff1d(np.arange(model.config.vocab_size, dtype=np.int64), special)
    return rng.choice(pool, size=count, replace=False)


def sequences(model: SmolLM2, length: int, draws: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(repeated, unrepeated), each [draws, 2 · length] int64: T random tokens then the same T
    again, and the same first T followed by T fresh ones (distinct from the first)."""
    rng = np.random.default_rng(seed)
    repeated, unrepeated = [], []
    for _ in range(draws):
        tokens = random_tokens(model, 2 * length, rng)  # (2T,): the first T, then fresh ones
        first = tokens[:length]
        repeated.append(np.concatenate([first, first]))
        unrepeated.append(tokens)
    return np.stack(repeated), np.stack(unrepeated)


def prefix_matching(weights: np.ndarray, length: int) -> np.ndarray:
    """[L, h]: each head's mean weight from position T + j on position j + 1, j = 0 … T − 2,
    from the attention weights [L, h, n, n] of a sequence with n ≥ 2T."""
    queries = np.arange(length, 2 * length - 1)  # (T − 1,): the second copy but its last token
    return weights[:, :, queries, queries - length + 1].mean(axis=-1)  # (L, h, T − 1) → (L, h)


def chance_score(length: int) -> float:
    """The prefix-matching score of a head spreading its weight evenly over the positions it
    sees: the mean of 1 / (T + j + 1) over j = 0 … T − 2."""
    return float(np.mean(1.0 / np.arange(length + 1, 2 * length)))


def second_copy_losses(logits: np.ndarray, ids: np.ndarray, length: int) -> np.ndarray:
    """[T − 1] float64: −log p of each token of the second copy after its first, given everything
    before it (row T + j of ``logits`` [2T, V] scores token T + j + 1)."""
    targets = np.full(len(ids), -100, np.int64)
    targets[length : 2 * length - 1] = ids[length + 1 : 2 * length]  # (T − 1,)
    losses = token_losses(logits[None], targets[None])[0]  # (2T,), NaN where not counted
    return losses[length : 2 * length - 1]


def first_copy_losses(logits: np.ndarray, ids: np.ndarray, length: int) -> np.ndarray:
    """[T − 1] float64: −log p of the first copy's tokens after its first (nothing to copy yet)."""
    targets = np.full(len(ids), -100, np.int64)
    targets[: length - 1] = ids[1:length]  # (T − 1,)
    return token_losses(logits[None], targets[None])[0][: length - 1]


def _forward(
    model: SmolLM2, ids: np.ndarray, heads: Sequence[Head] = ()
) -> tuple[np.ndarray, np.ndarray]:
    """(attention weights [L, h, n, n], logits [n, V]) of ``ids`` with ``heads`` switched off."""
    cfg = model.config
    off = SwitchedOff.check(heads, (), cfg.n_layers, cfg.h)
    found = model.forward(model.check_ids(ids), keep=("weights",), off=off)
    weights = np.stack([r["weights"] for r in found.records])  # L × (h, n, n) → (L, h, n, n)
    return weights, found.logits


@dataclass(frozen=True)
class CopyingHeads:
    """Every head's prefix-matching score on repeated random tokens, and its controls."""

    length: int  # T, the tokens of each copy
    scores: np.ndarray  # [L, h] float32: mean over the repeated sequences
    control_scores: np.ndarray  # [L, h]: the same positions when the second half is fresh
    chance: float  # the score of a head that spreads its weight evenly
    loss_first: float  # mean loss (nats) on the first copy: random tokens, nothing to copy
    loss_second: float  # mean loss on the second copy

    def copying(self) -> list[Head]:
        """Every head that passes ``copying``, highest score first."""
        found = copying(self.scores, self.control_scores, self.chance)
        return [head for head in self.strongest(self.scores.size) if found[head]]

    def strongest(self, count: int) -> list[Head]:
        """The ``count`` heads with the highest scores, highest first (ties by layer, head)."""
        order = np.argsort(-self.scores, axis=None, kind="stable")[:count]
        h = self.scores.shape[1]
        return [(int(i) // h, int(i) % h) for i in order]


def find_heads(
    model: SmolLM2, length: int = LENGTH, draws: int = DRAWS, seed: int = SEED
) -> CopyingHeads:
    """Each head's prefix-matching score over ``draws`` repeated sequences, beside the same
    score on unrepeated ones, and the two copies' losses."""
    repeated, unrepeated = sequences(model, length, draws, seed)
    scores, controls, first, second = [], [], [], []
    for ids, fresh in zip(repeated, unrepeated, strict=True):
        weights, logits = _forward(model, ids)
        scores.append(prefix_matching(weights, length))
        first.append(first_copy_losses(logits, ids, length))
        second.append(second_copy_losses(logits, ids, length))
        controls.append(prefix_matching(_forward(model, fresh)[0], length))
    return CopyingHeads(
        length, np.mean(scores, axis=0), np.mean(controls, axis=0), chance_score(length),
        float(np.mean(first)), float(np.mean(second)),
    )  # fmt: skip


@dataclass(frozen=True)
class CopyLosses:
    """The second copy's losses of some sequences, intact, with ``heads`` switched off, and with
    each set of ``controls`` (as many other heads of the same layers) switched off instead."""

    heads: list[Head]
    controls: list[list[Head]]
    intact: np.ndarray  # [m, T − 1] float64: each sequence's second-copy losses
    off: np.ndarray  # [m, T − 1] with ``heads`` switched off
    control_off: np.ndarray  # [draws, m, T − 1] with each control set switched off

    @property
    def intact_loss(self) -> float:
        return float(self.intact.mean())

    @property
    def off_loss(self) -> float:
        return float(self.off.mean())

    @property
    def control_losses(self) -> list[float]:
        """Each control set's mean loss."""
        return [float(c.mean()) for c in self.control_off]


def switch_off(
    model: SmolLM2, repeated: np.ndarray, heads: Sequence[Head], avoid: Sequence[Head] = (),
    draws: int = CONTROL_DRAWS, seed: int = SEED,
) -> CopyLosses:  # fmt: skip
    """The second-copy losses of ``repeated`` [m, 2T] (each a copy repeated) intact, with
    ``heads`` switched off, and with ``draws`` control sets (``control_heads``, seeded), none
    of which holds a head of ``avoid`` (the other copying heads: a control must not do the
    work it is the control for)."""
    length = repeated.shape[1] // 2
    rng = np.random.default_rng(seed)
    controls = control_heads(heads, model.config.h, draws, rng, avoid)

    def losses(off: Sequence[Head]) -> np.ndarray:
        return np.stack(
            [second_copy_losses(_forward(model, ids, off)[1], ids, length) for ids in repeated]
        )  # m × (T − 1,) → (m, T − 1)

    return CopyLosses(
        list(heads), controls, losses(()), losses(heads), np.stack([losses(c) for c in controls])
    )


def held_out(model: SmolLM2, length: int = LENGTH, draws: int = HELD_OUT) -> np.ndarray:
    """[draws, 2T]: repeated sequences the heads were not found on."""
    return sequences(model, length, draws, HELD_OUT_SEED)[0]


def twice(ids: Sequence[int]) -> np.ndarray:
    """A text's ids followed by the same ids again: [2n] int64."""
    once = np.asarray(ids, np.int64)
    return np.concatenate([once, once])


# --- the claims --------------------------------------------------------------------------------

#: A score counts as copying when it is this many times the chance score and the control's.
MATCH_RATIO = 5.0


def copying(scores: np.ndarray, controls: np.ndarray, chance: float) -> np.ndarray:
    """[L, h] bool: heads whose score is at least ``MATCH_RATIO`` times both chance and their
    score on unrepeated sequences, and above a quarter of their weight."""
    return (scores >= MATCH_RATIO * chance) & (scores >= MATCH_RATIO * controls) & (scores > 0.25)


def _heads_fields(
    scores: np.ndarray, controls: np.ndarray, chance: float, top: Head
) -> dict[str, object]:
    return {
        "count": int(copying(scores, controls, chance).sum()), "heads": scores.size,
        "best": head_label(*top), "score": percent(float(scores[top])),
        "control": percent(float(controls[top]), 1), "chance": percent(chance, 1),
    }  # fmt: skip


def _best(scores: np.ndarray) -> Head:
    """The head with the highest score (the first, by layer and head, among equals)."""
    i = int(np.argmax(scores))
    return i // scores.shape[1], i % scores.shape[1]


def _heads_holds(said: Claim, scores: np.ndarray, controls: np.ndarray, chance: float) -> bool:
    top = _best(scores)
    found = copying(scores, controls, chance)
    fields = _heads_fields(scores, controls, chance, top)
    return (
        bool(found[top])
        and scores[top] >= MATCH_RATIO * max(chance, float(controls[top]))
        and said == Claim("decoder_copying.claim.heads", fields)
    )


@claim(_heads_holds)
def heads_claim(scores: np.ndarray, controls: np.ndarray, chance: float) -> Claim | None:
    """How many heads copy (``copying``), and the strongest one's score [L, h] beside its control
    and chance. None when the strongest does not copy."""
    top = _best(scores)
    if not copying(scores, controls, chance)[top]:
        return None
    return Claim("decoder_copying.claim.heads", _heads_fields(scores, controls, chance, top))


def _loss_fields(first: float, second: float) -> dict[str, object]:
    return {"first": f"{first:.1f}", "second": f"{second:.1f}", "ratio": f"{first / second:.1f}"}


def _loss_holds(said: Claim, first: float, second: float) -> bool:
    return 0 < 2 * second < first and said == Claim(
        "decoder_copying.claim.loss", _loss_fields(first, second)
    )


@claim(_loss_holds)
def loss_claim(first: float, second: float) -> Claim | None:
    """The second copy's loss is less than half the first's: the model reads what it has seen.
    None otherwise."""
    if not 0 < 2 * second < first:
        return None
    return Claim("decoder_copying.claim.loss", _loss_fields(first, second))


#: The switching-off claim's message by verdict — where the loss with the heads off stands
#: against the controls' losses (above all, below all, among them) and whether it rose — written
#: out so that the id check finds them.
OFF_VERDICTS = {
    ("above", True): "decoder_copying.claim.off.rises_most",
    ("above", False): "decoder_copying.claim.off.falls_least",
    ("below", True): "decoder_copying.claim.off.rises_least",
    ("below", False): "decoder_copying.claim.off.falls_most",
    ("among", True): "decoder_copying.claim.off.among",
    ("among", False): "decoder_copying.claim.off.among",
}


def _shown(loss: float) -> float:
    """A loss as the claim prints it, to 2 places."""
    return float(f"{loss:.2f}")


def _off_fields(
    heads: Sequence[str], intact: float, off: float, controls: Sequence[float]
) -> tuple[str, dict[str, object]]:
    low, high = min(controls), max(controls)
    place = "above" if off > high else "below" if off < low else "among"
    change = _shown(off) - _shown(intact)  # as printed: the two losses to 2 places
    fields: dict[str, object] = {
        "heads": tuple(heads), "intact": f"{intact:.2f}", "off": f"{off:.2f}",
        "change": signed(change), "draws": len(controls), "low": f"{low:.2f}",
        "high": f"{high:.2f}",
    }  # fmt: skip
    if _shown(off) == _shown(intact):
        return "decoder_copying.claim.off.unchanged", fields
    return OFF_VERDICTS[(place, change > 0)], fields


def _off_holds(
    said: Claim, heads: Sequence[str], intact: float, off: float, controls: Sequence[float]
) -> bool:
    if not heads or not controls:
        return False
    low, high = min(controls), max(controls)
    shown_off, shown_intact = _shown(off), _shown(intact)
    fits = {
        "decoder_copying.claim.off.rises_most": off > high and shown_off > shown_intact,
        "decoder_copying.claim.off.falls_least": high < off and shown_off < shown_intact,
        "decoder_copying.claim.off.rises_least": off < low and shown_off > shown_intact,
        "decoder_copying.claim.off.falls_most": off < low and shown_off < shown_intact,
        "decoder_copying.claim.off.among": low <= off <= high and shown_off != shown_intact,
        "decoder_copying.claim.off.unchanged": shown_off == shown_intact,
    }
    return fits.get(said.message, False) and said == Claim(
        *_off_fields(heads, intact, off, controls)
    )


@claim(_off_holds)
def off_claim(
    heads: Sequence[str], intact: float, off: float, controls: Sequence[float]
) -> Claim | None:
    """The second copy's loss goes from ``intact`` to ``off`` with ``heads`` (labels) switched
    off; ``controls``: the losses with as many other heads of the same layers off, one per draw.
    Says whether the loss, as printed to 2 places, rises, falls or stays, and whether it ends
    above every control, among them or below every one."""
    if not heads or not controls:
        return None
    return Claim(*_off_fields(heads, intact, off, controls))


#: A head "rests" on the first token when, from the later tokens, more than this share of its
#: weight goes there on average.
SINK_SHARE = 0.5


def _sink_share(weights: np.ndarray) -> float:
    """The mean weight rows 1 … n − 1 of ``weights`` [n, n] put on position 0."""
    return float(weights[1:, 0].mean())


def _sink_holds(said: Claim, weights: np.ndarray, first: str) -> bool:
    return (
        len(weights) > 1
        and _sink_share(weights) > SINK_SHARE
        and said
        == Claim(
            "decoder_copying.claim.sink",
            {"share": percent(_sink_share(weights)), "first": first},
        )
    )


@claim(_sink_holds)
def sink_claim(weights: np.ndarray, first: str) -> Claim | None:
    """One head's weights [n, n]: when its rows after the first put more than half their weight
    on the first token (``first``, its label) on average, say so, and that this is a resting
    place, not a reading of the word. None otherwise."""
    if len(weights) < 2 or _sink_share(weights) <= SINK_SHARE:
        return None
    return Claim(
        "decoder_copying.claim.sink", {"share": percent(_sink_share(weights)), "first": first}
    )
