"""A real seq2seq: a tiny GRU encoder–decoder, trained here to reverse strings of letters, once with
one fixed context vector and once with additive (Bahdanau) attention.

The task. A source is T letters from a small alphabet ("abcdefgh"); the target is the same letters
in reverse order, then the end mark. Reversal is the hardest reordering for a fixed context: the
first letter to write is the last one read, the last to write is the first one read, the one the
recurrence has had longest to forget.

The model (both variants). Letters are looked up in embedding tables. A GRU (Cho et al., 2014)

    z = σ(W_z x + U_z h + b_z),   r = σ(W_r x + U_r h + b_r)
    ñ = tanh(W_n x + U_n (r ⊙ h) + b_n),   h' = (1 − z) ⊙ h + z ⊙ ñ

reads the source into states h_1 … h_T. A second GRU, the decoder, starts from s_0 = h_T and at
step t reads the previous letter y_{t−1} (a start mark at t = 1) together with a context c_t:

    s_t = GRU([emb(y_{t−1}); c_t], s_{t−1}),   P(y_t) = softmax(W_o [s_t; c_t] + b_o)

- **fixed**: c_t = c = h_T at every step (Cho et al., 2014; Sutskever et al., 2014);
- **attention** (Bahdanau et al., 2015): e_{t,i} = vᵀ tanh(W_s s_{t−1} + W_h h_i + b_a),
  α_{t,·} = softmax(e_{t,·}), c_t = Σ_i α_{t,i} h_i.

Everything else — sizes, data, optimiser, steps, seed — is the same for the two, so a difference in
accuracy is the context's doing.

Training: teacher forcing (the decoder reads the true previous letter), mean cross-entropy over
the target letters and the end mark, gradients by hand-written backpropagation through time
(``loss_and_grads``; tests/test_gru_seq2seq.py checks them against finite differences), Adam with
the gradient's global norm clipped. Each batch holds sequences of one length, drawn from
1 … ``train_max_len``, so no padding or masks are needed. A fixed number of steps, float64, one
seeded generator: the same config gives the same model, bit for bit, on a given machine.

Evaluation: greedy decoding (the decoder reads its own previous guess) of new random sequences of
each length 1 … ``eval_max_len``, longer than any seen in training too. Token accuracy: the share
of target positions whose letter is right (a missing letter, stopped early, is wrong). Sequence
accuracy: every letter right and the end mark at the right place. At short lengths there are few
distinct sequences (8² = 64 of length 2), so the test ones were met in training; from length 5 on
(32,768) most were not.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

Params = dict[str, np.ndarray]

ALPHABET = "abcdefgh"
VARIANTS: tuple[str, ...] = ("fixed", "attention")
#: Characters a typed sequence may use between its letters.
SEPARATORS = frozenset(" ,-·")


@dataclass(frozen=True)
class GruConfig:
    """Sizes and training settings shared by both variants."""

    hidden: int = 16  # H, the state size of encoder and decoder (and so of c and c_t)
    embed: int = 16  # size of a letter's embedding
    attn: int = 16  # width of the additive scorer (attention only)
    alphabet: str = ALPHABET
    train_max_len: int = 8  # training lengths are 1 … train_max_len
    eval_max_len: int = 14  # evaluated lengths are 1 … eval_max_len
    steps: int = 1000  # Adam steps per variant
    batch: int = 64
    learning_rate: float = 0.01
    clip: float = 5.0  # the gradient's global norm is clipped to this
    eval_per_length: int = 200  # held-out sequences per evaluated length
    seed: int = 0

    def __post_init__(self) -> None:
        if min(self.hidden, self.embed, self.attn, self.batch, self.eval_per_length) < 1:
            raise ValueError("hidden, embed, attn, batch and eval_per_length must be ≥ 1")
        if self.steps < 0:
            raise ValueError(f"steps must be ≥ 0, got {self.steps}")
        if len(self.alphabet) < 2 or len(set(self.alphabet)) != len(self.alphabet):
            raise ValueError(f"the alphabet needs ≥ 2 distinct symbols, got {self.alphabet!r}")
        if any(ch in SEPARATORS or ch.isspace() or ch.isupper() for ch in self.alphabet):
            raise ValueError("alphabet symbols must be lower-case and not separators")
        if not 1 <= self.train_max_len <= self.eval_max_len:
            raise ValueError("need 1 ≤ train_max_len ≤ eval_max_len")
        if not self.learning_rate > 0 or not self.clip > 0:
            raise ValueError("learning_rate and clip must be > 0")

    @property
    def vocab(self) -> int:
        """Output classes: the letters, then the end mark (index ``len(alphabet)``), which is also
        the decoder's start mark on the input side."""
        return len(self.alphabet) + 1

    @property
    def boundary(self) -> int:
        return len(self.alphabet)


# --- parameters -----------------------------------------------------------------------------------


def init_params(config: GruConfig, variant: str, seed: int | None = None) -> Params:
    """Small random weights (uniform ±1/√H, as PyTorch's GRU), zero biases. The fixed variant
    has no scorer; everything else is shaped alike in both."""
    _check_variant(variant)
    rng = np.random.default_rng([config.seed if seed is None else seed, VARIANTS.index(variant)])
    H, m, A, K, V = config.hidden, config.embed, config.attn, len(config.alphabet), config.vocab

    def u(*shape: int, fan: int = H) -> np.ndarray:
        return rng.uniform(-1.0, 1.0, size=shape) / np.sqrt(fan)

    p: Params = {
        "E_src": rng.standard_normal((K, m)) * 0.5,  # source letters
        "E_tgt": rng.standard_normal((V, m)) * 0.5,  # target letters, index K = start mark
        "enc_W": u(m, 3 * H),  # input → [z | r | n]
        "enc_U": u(H, 2 * H),  # state → [z | r]
        "enc_Un": u(H, H),  # (r ⊙ state) → n
        "enc_b": np.zeros(3 * H),
        "dec_Wy": u(m, 3 * H),  # previous letter → gates
        "dec_Wc": u(H, 3 * H),  # context → gates
        "dec_U": u(H, 2 * H),
        "dec_Un": u(H, H),
        "dec_b": np.zeros(3 * H),
        "out_Ws": u(H, V),  # s_t → logits
        "out_Wc": u(H, V),  # c_t → logits
        "out_b": np.zeros(V),
    }
    if variant == "attention":
        p |= {"att_Ws": u(H, A), "att_Wh": u(H, A), "att_b": np.zeros(A), "att_v": u(A, fan=A)}
    return p


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")


# --- the pieces, forward and backward -------------------------------------------------------------


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))  # no overflow warning for large |x|


@dataclass
class _GruStep:
    h: np.ndarray  # (B, H) the state before
    z: np.ndarray
    r: np.ndarray
    rh: np.ndarray
    n: np.ndarray


def _gru(
    gx: np.ndarray, h: np.ndarray, U: np.ndarray, Un: np.ndarray
) -> tuple[np.ndarray, _GruStep]:
    """One GRU step; ``gx`` (B, 3H) is the input's share of the gates, W x + b, worked out by the
    caller (for all steps at once where it can)."""
    H = h.shape[1]
    gh = h @ U  # (B, 2H)
    z = _sigmoid(gx[:, :H] + gh[:, :H])
    r = _sigmoid(gx[:, H : 2 * H] + gh[:, H:])
    rh = r * h
    n = np.tanh(gx[:, 2 * H :] + rh @ Un)
    return h + z * (n - h), _GruStep(h, z, r, rh, n)


def _gru_back(
    dh_new: np.ndarray, c: _GruStep, U: np.ndarray, Un: np.ndarray, dU: np.ndarray, dUn: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Backward through one step: accumulates dU, dUn; returns (d gx (B, 3H), d h_before)."""
    dn_pre = dh_new * c.z * (1.0 - c.n * c.n)
    dz_pre = dh_new * (c.n - c.h) * c.z * (1.0 - c.z)
    dUn += c.rh.T @ dn_pre
    drh = dn_pre @ Un.T
    dr_pre = drh * c.h * c.r * (1.0 - c.r)
    dgh = np.concatenate([dz_pre, dr_pre], axis=1)  # (B, 2H)
    dU += c.h.T @ dgh
    dh = dh_new * (1.0 - c.z) + drh * c.r + dgh @ U.T
    return np.concatenate([dgh, dn_pre], axis=1), dh


@dataclass
class _AttnStep:
    s: np.ndarray  # (B, H) the query, s_{t−1}
    u: np.ndarray  # (B, T, A) tanh(W_s s + W_h h_i + b)
    alpha: np.ndarray  # (B, T)


def _attend(
    s: np.ndarray, states: np.ndarray, keys: np.ndarray, p: Params
) -> tuple[np.ndarray, _AttnStep]:
    """c_t = Σ_i α_{t,i} h_i with α = softmax_i(vᵀ tanh(W_s s + W_h h_i + b)); ``keys`` is the
    step-independent W_h h_i + b, (B, T, A)."""
    u = np.tanh(keys + (s @ p["att_Ws"])[:, None, :])  # (B, T, A)
    e = u @ p["att_v"]  # (B, T)
    e = np.exp(e - e.max(axis=1, keepdims=True))
    alpha = e / e.sum(axis=1, keepdims=True)
    c = (alpha[:, None, :] @ states)[:, 0, :]  # (B, H)
    return c, _AttnStep(s, u, alpha)


def _attend_back(
    dc: np.ndarray, a: _AttnStep, states: np.ndarray, p: Params, g: Params,
    d_states: np.ndarray, d_keys: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """Backward through one attention read: accumulates g, d_states, d_keys; returns d s."""
    dalpha = (states @ dc[:, :, None])[:, :, 0]  # (B, T): dc · h_i
    d_states += a.alpha[:, :, None] * dc[:, None, :]
    de = a.alpha * (dalpha - (a.alpha * dalpha).sum(axis=1, keepdims=True))  # softmax backward
    g["att_v"] += np.einsum("bt,bta->a", de, a.u)
    da = de[:, :, None] * p["att_v"] * (1.0 - a.u * a.u)  # (B, T, A)
    d_keys += da
    da_sum = da.sum(axis=1)  # (B, A): W_s s is shared by every i
    g["att_Ws"] += a.s.T @ da_sum
    return da_sum @ p["att_Ws"].T


def _encode(p: Params, src: np.ndarray) -> tuple[np.ndarray, list[_GruStep]]:
    """States h_1 … h_T (B, T, H) of the source letters ``src`` (B, T)."""
    B, T = src.shape
    H = p["enc_Un"].shape[0]
    gx = p["E_src"][src] @ p["enc_W"] + p["enc_b"]  # (B, T, 3H): every step's input at once
    h = np.zeros((B, H))
    states = np.empty((B, T, H))
    steps = []
    for i in range(T):
        h, step = _gru(gx[:, i], h, p["enc_U"], p["enc_Un"])
        states[:, i] = h
        steps.append(step)
    return states, steps


def _variant_of(p: Params) -> str:
    return "attention" if "att_v" in p else "fixed"


# --- teacher-forced loss and its gradient ---------------------------------------------------------


def reverse_targets(src: np.ndarray, boundary: int) -> tuple[np.ndarray, np.ndarray]:
    """Decoder inputs [start, y_1 … y_T] and targets [y_1 … y_T, end] for sources (B, T), where
    y is the source reversed; both (B, T + 1)."""
    B = src.shape[0]
    mark = np.full((B, 1), boundary, dtype=src.dtype)
    y = src[:, ::-1]
    return np.concatenate([mark, y], axis=1), np.concatenate([y, mark], axis=1)


def loss_and_grads(p: Params, src: np.ndarray, boundary: int) -> tuple[float, Params]:
    """Mean cross-entropy of the reversal of ``src`` (B, T) under teacher forcing, and its
    gradient with respect to every parameter (same keys and shapes as ``p``)."""
    attention = _variant_of(p) == "attention"
    dec_in, targets = reverse_targets(src, boundary)
    B, T = src.shape
    steps = T + 1
    H = p["dec_Un"].shape[0]

    # forward
    states, enc_steps = _encode(p, src)  # (B, T, H)
    keys = states @ p["att_Wh"] + p["att_b"] if attention else None  # (B, T, A)
    gy = p["E_tgt"][dec_in] @ p["dec_Wy"] + p["dec_b"]  # (B, T+1, 3H)
    s = states[:, -1]  # s_0 = h_T
    S = np.empty((B, steps, H))
    C = np.empty((B, steps, H))
    dec_steps, att_steps = [], []
    for t in range(steps):
        if keys is not None:
            c, a = _attend(s, states, keys, p)
            att_steps.append(a)
        else:
            c = states[:, -1]
        s, step = _gru(gy[:, t] + c @ p["dec_Wc"], s, p["dec_U"], p["dec_Un"])
        S[:, t], C[:, t] = s, c
        dec_steps.append(step)
    logits = S @ p["out_Ws"] + C @ p["out_Wc"] + p["out_b"]  # (B, T+1, V)
    logits -= logits.max(axis=2, keepdims=True)
    log_probs = logits - np.log(np.exp(logits).sum(axis=2, keepdims=True))
    picked = np.take_along_axis(log_probs, targets[:, :, None], axis=2)
    loss = -float(picked.mean())

    # backward
    g = {k: np.zeros_like(v) for k, v in p.items()}
    dlogits = np.exp(log_probs)
    target_probs = np.take_along_axis(dlogits, targets[:, :, None], axis=2)
    np.put_along_axis(dlogits, targets[:, :, None], target_probs - 1.0, axis=2)  # softmax − one-hot
    dlogits /= B * steps  # (B, T+1, V)
    flat = dlogits.reshape(-1, dlogits.shape[2])
    g["out_Ws"] = S.reshape(-1, H).T @ flat
    g["out_Wc"] = C.reshape(-1, H).T @ flat
    g["out_b"] = flat.sum(axis=0)
    dS = dlogits @ p["out_Ws"].T  # (B, T+1, H)
    dC = dlogits @ p["out_Wc"].T
    d_states = np.zeros_like(states)
    d_keys = np.zeros_like(keys) if keys is not None else None
    dgy = np.empty_like(gy)
    ds = np.zeros((B, H))
    for t in reversed(range(steps)):
        dgx, ds = _gru_back(
            ds + dS[:, t], dec_steps[t], p["dec_U"], p["dec_Un"], g["dec_U"], g["dec_Un"]
        )
        dgy[:, t] = dgx
        dc = dC[:, t] + dgx @ p["dec_Wc"].T
        if d_keys is not None:
            ds += _attend_back(dc, att_steps[t], states, p, g, d_states, d_keys)
        else:
            d_states[:, -1] += dc
    g["dec_Wc"] = C.reshape(-1, H).T @ dgy.reshape(-1, 3 * H)
    g["dec_Wy"] = p["E_tgt"][dec_in].reshape(-1, p["dec_Wy"].shape[0]).T @ dgy.reshape(-1, 3 * H)
    g["dec_b"] = dgy.sum(axis=(0, 1))
    np.add.at(g["E_tgt"], dec_in, dgy @ p["dec_Wy"].T)
    d_states[:, -1] += ds  # s_0 = h_T
    if d_keys is not None:
        A = d_keys.shape[2]
        g["att_Wh"] = states.reshape(-1, H).T @ d_keys.reshape(-1, A)
        g["att_b"] = d_keys.sum(axis=(0, 1))
        d_states += d_keys @ p["att_Wh"].T

    dgx_enc = np.empty((B, T, 3 * H))
    dh = np.zeros((B, H))
    for i in reversed(range(T)):
        dgx_enc[:, i], dh = _gru_back(
            dh + d_states[:, i], enc_steps[i], p["enc_U"], p["enc_Un"], g["enc_U"], g["enc_Un"]
        )
    x = p["E_src"][src]  # (B, T, m)
    g["enc_W"] = x.reshape(-1, x.shape[2]).T @ dgx_enc.reshape(-1, 3 * H)
    g["enc_b"] = dgx_enc.sum(axis=(0, 1))
    np.add.at(g["E_src"], src, dgx_enc @ p["enc_W"].T)
    return loss, g


# --- greedy decoding ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decoded:
    tokens: np.ndarray  # (B, steps) greedy outputs, end mark included where it came
    contexts: np.ndarray  # (B, steps, H) the context each step read: h_T, or c_t
    weights: np.ndarray | None  # (B, steps, T) α_{t,i}, attention only


def greedy(p: Params, src: np.ndarray, boundary: int, steps: int) -> Decoded:
    """Decode ``steps`` letters of each source (B, T), every step reading the previous guess."""
    attention = _variant_of(p) == "attention"
    B, T = src.shape
    states, _ = _encode(p, src)
    keys = states @ p["att_Wh"] + p["att_b"] if attention else None
    s = states[:, -1]
    y = np.full(B, boundary)
    tokens = np.empty((B, steps), dtype=np.int64)
    contexts = np.empty((B, steps, states.shape[2]))
    weights = np.empty((B, steps, T)) if attention else None
    for t in range(steps):
        if keys is not None and weights is not None:
            c, a = _attend(s, states, keys, p)
            weights[:, t] = a.alpha
        else:
            c = states[:, -1]
        gx = p["E_tgt"][y] @ p["dec_Wy"] + p["dec_b"] + c @ p["dec_Wc"]
        s, _ = _gru(gx, s, p["dec_U"], p["dec_Un"])
        y = np.argmax(s @ p["out_Ws"] + c @ p["out_Wc"] + p["out_b"], axis=1)
        tokens[:, t], contexts[:, t] = y, c
    return Decoded(tokens, contexts, weights)


# --- training and evaluation ----------------------------------------------------------------------


@dataclass(frozen=True)
class LengthScore:
    length: int
    token_accuracy: float  # share of target letters right
    sequence_accuracy: float  # share of sequences entirely right, end mark in place


@dataclass(frozen=True)
class TrainedModel:
    config: GruConfig
    variant: str
    params: Params = field(repr=False)
    losses: tuple[float, ...]  # the batch loss at every step
    scores: tuple[LengthScore, ...]  # lengths 1 … eval_max_len
    seconds: float  # wall time of the training steps (evaluation aside)

    def score(self, length: int) -> LengthScore:
        return self.scores[length - 1]

    def accuracy(self, length: int) -> float:
        return self.score(length).token_accuracy


#: ``on_step(step, steps, loss)``, called every ``PROGRESS_EVERY`` steps and after the last.
StepCallback = Callable[[int, int, float], None]
PROGRESS_EVERY = 25


def _adam(
    p: Params, g: Params, m: Params, v: Params, step: int, lr: float,
    beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8,
) -> None:  # fmt: skip
    """One Adam update of ``p`` in place (Kingma & Ba, 2015), bias-corrected."""
    c1, c2 = 1.0 - beta1**step, 1.0 - beta2**step
    for k in p:
        m[k] = beta1 * m[k] + (1.0 - beta1) * g[k]
        v[k] = beta2 * v[k] + (1.0 - beta2) * g[k] * g[k]
        p[k] -= lr * (m[k] / c1) / (np.sqrt(v[k] / c2) + eps)


def train(config: GruConfig, variant: str, on_step: StepCallback | None = None) -> TrainedModel:
    """Train one variant for ``config.steps`` Adam steps, then evaluate it (``evaluate``)."""
    p = init_params(config, variant)
    m = {k: np.zeros_like(a) for k, a in p.items()}
    v = {k: np.zeros_like(a) for k, a in p.items()}
    # The same batches for both variants: the data stream does not depend on the variant.
    rng = np.random.default_rng([config.seed, 1])
    K = len(config.alphabet)
    losses = []
    start = time.perf_counter()
    for step in range(1, config.steps + 1):
        T = int(rng.integers(1, config.train_max_len + 1))
        src = rng.integers(0, K, size=(config.batch, T))
        loss, g = loss_and_grads(p, src, config.boundary)
        norm = float(np.sqrt(sum(float((a * a).sum()) for a in g.values())))
        if norm > config.clip:
            for a in g.values():
                a *= config.clip / norm
        _adam(p, g, m, v, step, config.learning_rate)
        losses.append(loss)
        if on_step is not None and (step % PROGRESS_EVERY == 0 or step == config.steps):
            on_step(step, config.steps, loss)
    seconds = time.perf_counter() - start
    scores = evaluate(p, config)
    return TrainedModel(config, variant, p, tuple(losses), scores, seconds)


def evaluate(p: Params, config: GruConfig) -> tuple[LengthScore, ...]:
    """Greedy token and sequence accuracy on ``eval_per_length`` new random sequences of every
    length 1 … ``eval_max_len`` (a generator of their own, apart from training's)."""
    rng = np.random.default_rng([config.seed, 2])
    K, end = len(config.alphabet), config.boundary
    scores = []
    for T in range(1, config.eval_max_len + 1):
        src = rng.integers(0, K, size=(config.eval_per_length, T))
        out = greedy(p, src, end, T + 1).tokens  # T letters, then the end mark
        right = out[:, :T] == src[:, ::-1]
        whole = right.all(axis=1) & (out[:, T] == end)
        scores.append(LengthScore(T, float(right.mean()), float(whole.mean())))
    return tuple(scores)


@dataclass(frozen=True)
class Comparison:
    """The two variants, trained alike. ``from_disk``: read back from a file that an earlier
    run wrote (``topics.gru_store``), not trained by this process."""

    fixed: TrainedModel
    attention: TrainedModel
    from_disk: bool = False

    @property
    def config(self) -> GruConfig:
        return self.fixed.config

    def model(self, variant: str) -> TrainedModel:
        _check_variant(variant)
        return self.fixed if variant == "fixed" else self.attention


#: ``on_progress(variant, step, steps, loss)``.
ProgressCallback = Callable[[str, int, int, float], None]


def train_both(config: GruConfig, on_progress: ProgressCallback | None = None) -> Comparison:
    """Train the fixed-context model, then the attention model, on the same batches."""
    trained = {}
    for variant in VARIANTS:
        callback: StepCallback | None = None
        if on_progress is not None:

            def callback(step: int, steps: int, loss: float, variant: str = variant) -> None:
                on_progress(variant, step, steps, loss)

        trained[variant] = train(config, variant, callback)
    return Comparison(trained["fixed"], trained["attention"])


# --- the learner's own sequence -------------------------------------------------------------------


class SymbolError(ValueError):
    """A typed sequence the models cannot read. ``kind`` says why: "empty", "bad" (symbols
    outside the alphabet, in ``bad``) or "long" (more than ``limit`` symbols, ``length`` given)."""

    def __init__(
        self, kind: str, message: str, *, bad: str = "", length: int = 0, limit: int = 0
    ) -> None:
        super().__init__(message)
        self.kind, self.bad, self.length, self.limit = kind, bad, length, limit


def parse_symbols(text: str, alphabet: str, max_len: int) -> tuple[int, ...]:
    """The letters of ``text`` as alphabet indices. Case is ignored and spaces, commas, dashes
    and middle dots between letters are allowed ("abc", "a b c", "A-B-C"); anything else raises
    SymbolError, as does an empty sequence or one longer than ``max_len``."""
    letters = [ch for ch in text.lower() if ch not in SEPARATORS and not ch.isspace()]
    if not letters:
        raise SymbolError("empty", "the sequence has no symbols")
    bad = "".join(dict.fromkeys(ch for ch in letters if ch not in alphabet))
    if bad:
        raise SymbolError("bad", f"not in the alphabet {alphabet!r}: {bad!r}", bad=bad)
    if len(letters) > max_len:
        raise SymbolError(
            "long",
            f"{len(letters)} symbols, more than {max_len}",
            length=len(letters),
            limit=max_len,
        )
    return tuple(alphabet.index(ch) for ch in letters)


@dataclass(frozen=True)
class Translation:
    """One model's greedy answer for one sequence. Its steps are the letters written, then the
    end mark's step when it came."""

    source: tuple[int, ...]
    output: tuple[int, ...]  # the letters written before the end mark (at most 2T + 2 steps)
    stopped: bool  # whether the end mark came
    contexts: np.ndarray  # (steps, H) the context read at each step
    weights: np.ndarray | None  # (steps, T) α_{t,i}, attention only

    @property
    def expected(self) -> tuple[int, ...]:
        return self.source[::-1]

    @property
    def correct(self) -> bool:
        return self.stopped and self.output == self.expected

    @property
    def letters_right(self) -> int:
        """Positions where the output has the expected letter (a missing letter is wrong)."""
        return sum(a == b for a, b in zip(self.output, self.expected, strict=False))


def translate(model: TrainedModel, source: Sequence[int]) -> Translation:
    """Greedy-decode one sequence, up to 2T + 2 steps, stopping at the end mark."""
    src = np.asarray(source, dtype=np.int64)[None, :]  # (1, T)
    if src.shape[1] == 0:
        raise ValueError("the source sequence is empty")
    if src.min() < 0 or src.max() >= len(model.config.alphabet):
        raise ValueError(f"symbols must be in [0, {len(model.config.alphabet)})")
    end = model.config.boundary
    decoded = greedy(model.params, src, end, 2 * src.shape[1] + 2)
    tokens = [int(x) for x in decoded.tokens[0]]
    stopped = end in tokens
    shown = tokens.index(end) + 1 if stopped else len(tokens)
    weights = decoded.weights[0, :shown] if decoded.weights is not None else None
    written = tuple(tokens[: shown - 1 if stopped else shown])
    return Translation(tuple(source), written, stopped, decoded.contexts[0, :shown], weights)


def spell(ids: Sequence[int], alphabet: str) -> str:
    return "".join(alphabet[i] for i in ids)


# --- what the numbers say: verdicts for the page --------------------------------------------------

#: Token accuracies closer than this count as even (five points).
EVEN_MARGIN = 0.05
#: A model "holds" at a length while its token accuracy is at least this.
HOLDS = 0.9
#: The short length the page compares the two at.
SHORT_LENGTH = 3


def gap_verdict(attention: float, fixed: float, margin: float = EVEN_MARGIN) -> str:
    """ "attention" or "fixed" when that one is ahead by at least ``margin``, else "even"."""
    if attention - fixed >= margin:
        return "attention"
    if fixed - attention >= margin:
        return "fixed"
    return "even"


def hold_verdict(attention: float, fixed: float, holds: float = HOLDS) -> str:
    """Which of the two still holds (accuracy ≥ ``holds``): "both_hold", "attention_holds",
    "fixed_holds" or "both_fall"."""
    a, f = attention >= holds, fixed >= holds
    if a and f:
        return "both_hold"
    if a:
        return "attention_holds"
    return "fixed_holds" if f else "both_fall"


def first_drop(model: TrainedModel, holds: float = HOLDS) -> int | None:
    """The shortest evaluated length whose token accuracy is below ``holds``; None if none is."""
    return next((s.length for s in model.scores if s.token_accuracy < holds), None)


@dataclass(frozen=True)
class CurveSummary:
    """The accuracy curves read at three lengths: a short one, the longest trained on, and the
    longest evaluated; with where each model first drops below ``HOLDS``."""

    short: int
    long: int  # = train_max_len
    far: int  # = eval_max_len
    fixed: dict[int, float]  # token accuracy at short, long and far
    attention: dict[int, float]
    short_verdict: str  # gap_verdict at ``short``
    long_verdict: str  # gap_verdict at ``long``
    far_verdict: str  # hold_verdict at ``far``
    fixed_drop: int | None
    attention_drop: int | None


#: Over this share of all strings of a length met in training, a "new" test string of that
#: length is most likely one the model has seen.
MOSTLY_SEEN = 0.5
#: The fixed context "is still learning" when its final training loss is over this and over
#: ``LEARNING_RATIO`` times attention's (both averaged over the last ``LOSS_WINDOW`` steps).
STILL_LEARNING_LOSS = 0.1
LEARNING_RATIO = 2.0
LOSS_WINDOW = 50


def seen_share(length: int, config: GruConfig) -> float:
    """The expected share of all |alphabet|^length strings of ``length`` that training drew at
    least once: each step draws ``batch`` strings of one length picked uniformly from 1 …
    ``train_max_len``, so a length gets steps·batch/train_max_len uniform draws on average,
    and a given string is missed by all of them with probability (1 − 1/N)^draws. 0 beyond the
    training lengths."""
    if not 1 <= length <= config.train_max_len:
        return 0.0
    draws = config.steps * config.batch / config.train_max_len
    strings = float(len(config.alphabet)) ** length
    return float(1.0 - math.exp(draws * math.log1p(-1.0 / strings))) if strings > 1 else 1.0


def final_loss(model: TrainedModel, window: int = LOSS_WINDOW) -> float:
    """The mean training loss of the last ``window`` steps (nan before any step)."""
    tail = model.losses[-window:]
    return float(np.mean(tail)) if tail else float("nan")


def learning_verdict(fixed_loss: float, attention_loss: float) -> str:
    """ "still_learning" when the fixed context's final loss is over ``STILL_LEARNING_LOSS``
    and over ``LEARNING_RATIO`` times attention's (its gap is then partly the training budget,
    not only what one vector holds); otherwise "both_trained"."""
    still = fixed_loss > STILL_LEARNING_LOSS and fixed_loss > LEARNING_RATIO * attention_loss
    return "still_learning" if still else "both_trained"


def summarize(comparison: Comparison, short: int = SHORT_LENGTH) -> CurveSummary:
    config = comparison.config
    long, far = config.train_max_len, config.eval_max_len
    short = min(short, long)
    at = (short, long, far)
    fixed = {n: comparison.fixed.accuracy(n) for n in at}
    attention = {n: comparison.attention.accuracy(n) for n in at}
    return CurveSummary(
        short=short,
        long=long,
        far=far,
        fixed=fixed,
        attention=attention,
        short_verdict=gap_verdict(attention[short], fixed[short]),
        long_verdict=gap_verdict(attention[long], fixed[long]),
        far_verdict=hold_verdict(attention[far], fixed[far]),
        fixed_drop=first_drop(comparison.fixed),
        attention_drop=first_drop(comparison.attention),
    )


def length_note(length: int, config: GruConfig) -> str:
    """Where a sequence of ``length`` sits: "within" the training lengths, "beyond" them but
    measured by the curve, or "unmeasured" (longer than the curve goes)."""
    if length <= config.train_max_len:
        return "within"
    return "beyond" if length <= config.eval_max_len else "unmeasured"


def own_verdict(fixed: Translation, attention: Translation) -> str:
    """Which of the two reversed the learner's sequence exactly: "both", "attention", "fixed"
    or "neither"."""
    if fixed.correct and attention.correct:
        return "both"
    if attention.correct:
        return "attention"
    return "fixed" if fixed.correct else "neither"


@dataclass(frozen=True)
class AlignmentCounts:
    """Where each written letter's row of α peaks, against the source position i = T − 1 − t of
    the letter it copies (rows of letters written past the T-th, and the end mark's, aside)."""

    rows: int
    on_letter: int  # the peak is on h_i, the state that read the letter
    after_letter: int  # on h_{i+1}, the state one letter later
    elsewhere: int


def alignment_counts(weights: np.ndarray, written: int) -> AlignmentCounts:
    """``weights`` (steps, T): α of one decoded sequence; ``written``: the letters it wrote."""
    T = weights.shape[1]
    rows = min(T, written, weights.shape[0])
    offsets = [int(np.argmax(weights[t])) - (T - 1 - t) for t in range(rows)]
    on, after = offsets.count(0), offsets.count(1)
    return AlignmentCounts(rows, on, after, rows - on - after)


def alignment_verdict(counts: AlignmentCounts) -> str:
    """ "on_letter" (every row on its letter's state), "on_or_after" (every row on it or the next
    state), "mostly" (at least half of them so) or "scattered". Needs at least one row."""
    if counts.rows < 1:
        raise ValueError("no written letter to read an alignment from")
    if counts.on_letter == counts.rows:
        return "on_letter"
    if counts.elsewhere == 0:
        return "on_or_after"
    return "mostly" if 2 * counts.elsewhere <= counts.rows else "scattered"


def context_spread(contexts: np.ndarray) -> float:
    """The largest change, in any dimension, of the context across decoder steps (steps, H)."""
    return float(np.ptp(contexts, axis=0).max()) if len(contexts) > 1 else 0.0
