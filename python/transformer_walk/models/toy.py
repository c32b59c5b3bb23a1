"""The toy Transformer: written once, run on any backend, recording every intermediate.

A small, seeded encoder whose every number fits on a screen (d_model = 8, h = 2, d_ff = 32 by
default): word-level tokens → ids → one-hot → embedding lookup → + sinusoidal positions → L blocks
of multi-head self-attention, residual, LayerNorm, feed-forward, residual, LayerNorm (the original
Post-LN order, or Pre-LN). ``ToyTransformer.run(text)`` returns a ``Trace`` that the pages render;
pages never redo this math.

Notation follows the source articles ("从词向量到 Transformer：RNN、CNN、Self-Attention 与 QKV
的系统理解" and "From Words to Attention: The Road to the Transformer"): a row vector x_i is
projected as q_i = x_i W^Q, so W^Q is [d_model, d_model] here (h heads of d_k = d_model / h
columns each), and the heads' outputs are concatenated and mixed by W^O. Softmax and attention
go through the chosen backend ("python", "numpy" or "rust"); the projections are plain NumPy
products, identical for every backend.
"""

from __future__ import annotations

import math
import re
import zlib
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal

import numpy as np

from transformer_walk.core import get_backend
from transformer_walk.core.budget import attention_multiply_adds
from transformer_walk.models.heads import merge_heads, split_heads

# A little fixed vocabulary so that |V| is more than the sentence; the user's own tokens are added
# after it (see ``Vocabulary.for_tokens``), each with its own seeded embedding row.
BASE_WORDS: tuple[str, ...] = tuple(
    """the a an and or but of to in on at for with from by is are was were be been has have had
    it its he she they we you i his her their our my your this that these those not no yes
    tom loves love his dog dogs cat cats computer car bank river money cash book books
    sat deposited runs ran walks walked eats ate sees saw likes liked gives gave home park
    big small good bad happy old new red blue one two three day night time man woman
    child""".split()
)

DEFAULT_SENTENCE = "Tom loves his dog"

# Where each block's LayerNorms sit: after each residual add (the original order) or before each
# sublayer.
Norm = Literal["post", "pre"]

# CJK ideographs and kana have no spaces between words: each character is one token here.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN_RE = re.compile(rf"[{_CJK}]|(?:(?![{_CJK}])\w)+(?:'\w+)?|[^\w\s]")


def tokenize(text: str) -> list[str]:
    """Word-level tokens: lower-cased words, each CJK character, each other symbol (emoji too)."""
    return _TOKEN_RE.findall(text.lower())


class EmptyInputError(ValueError):
    """The text has no tokens, so there is nothing to attend over."""


@dataclass(frozen=True)
class Vocabulary:
    tokens: tuple[str, ...]

    @classmethod
    def for_tokens(cls, sentence_tokens: list[str]) -> Vocabulary:
        """BASE_WORDS, then any new token of the sentence in order of first appearance."""
        seen = dict.fromkeys(BASE_WORDS)
        seen.update(dict.fromkeys(sentence_tokens))
        return cls(tuple(seen))

    @cached_property
    def index(self) -> dict[str, int]:
        return {t: i for i, t in enumerate(self.tokens)}

    def __len__(self) -> int:
        return len(self.tokens)

    def ids(self, tokens: list[str]) -> np.ndarray:
        return np.array([self.index[t] for t in tokens], dtype=np.int64)


@dataclass(frozen=True)
class ToyConfig:
    d_model: int = 8
    h: int = 2
    d_ff: int = 32
    n_layers: int = 1
    seed: int = 0
    positions: bool = True
    scale: bool = True  # divide the scores by √d_k
    causal: bool = False
    norm: Norm = "post"

    @property
    def d_k(self) -> int:
        return self.d_model // self.h

    def multiply_adds(self, n: int) -> int:
        """What one ``ToyTransformer.run`` over n tokens asks of its backend (``core.budget``):
        the one-hot rows (n of |V| ≤ n + len(BASE_WORDS) entries), then one
        ``attention_with_weights`` over h heads of d_k in every block. The projections and the
        FFN are NumPy products on every backend."""
        block = attention_multiply_adds(self.h, n, n, self.d_k, self.d_k)
        return n * (n + len(BASE_WORDS)) + self.n_layers * block

    def validate(self) -> None:
        if self.d_model < 1 or self.h < 1 or self.d_ff < 1 or self.n_layers < 1:
            raise ValueError("d_model, h, d_ff and the number of layers must all be at least 1")
        if self.d_model % self.h:
            raise ValueError(
                f"h = {self.h} does not divide d_model = {self.d_model}: each head needs "
                f"d_k = d_model / h columns, a whole number"
            )
        if self.norm not in ("post", "pre"):
            raise ValueError(f"norm must be 'post' or 'pre', got {self.norm!r}")


def token_vector(token: str, d_model: int, seed: int) -> np.ndarray:
    """The toy embedding row of ``token``: seeded by the token's own text (crc32, stable across
    runs), so a word keeps its vector whatever sentence or vocabulary it appears in."""
    rng = np.random.default_rng([seed, zlib.crc32(token.encode("utf-8"))])
    return rng.standard_normal(d_model)


def positional_encoding(n: int, d_model: int) -> np.ndarray:
    """PE[pos, 2i] = sin(pos / 10000^(2i/d_model)), PE[pos, 2i+1] = cos(same) → [n, d_model]."""
    pos = np.arange(n)[:, None]  # (n, 1)
    two_i = np.arange(0, d_model, 2)[None, :]  # (1, ceil(d_model/2))
    angle = pos / np.power(10000.0, two_i / d_model)  # (n, ceil(d_model/2))
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle[:, : d_model // 2])
    return pe


def layer_norm(x: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    """(x − mean) / √(var + eps) over each row (γ = 1, β = 0 in the toy)."""
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


@dataclass(frozen=True)
class BlockWeights:
    W_Q: np.ndarray  # [d_model, d_model]
    W_K: np.ndarray  # [d_model, d_model]
    W_V: np.ndarray  # [d_model, d_model]
    W_O: np.ndarray  # [d_model, d_model]
    W_1: np.ndarray  # [d_model, d_ff]
    b_1: np.ndarray  # [d_ff]
    W_2: np.ndarray  # [d_ff, d_model]
    b_2: np.ndarray  # [d_model]

    @classmethod
    def init(cls, cfg: ToyConfig, layer: int) -> BlockWeights:
        """Gaussian weights with variance 1/fan_in, so activations keep a variance near 1."""
        rng = np.random.default_rng([cfg.seed, 1000 + layer])
        d, f = cfg.d_model, cfg.d_ff

        def w(rows: int, cols: int) -> np.ndarray:
            return rng.standard_normal((rows, cols)) / math.sqrt(rows)

        return cls(
            W_Q=w(d, d), W_K=w(d, d), W_V=w(d, d), W_O=w(d, d),
            W_1=w(d, f), b_1=np.zeros(f), W_2=w(f, d), b_2=np.zeros(d),
        )  # fmt: skip


@dataclass
class BlockTrace:
    """Everything one block computed, in order. Shapes use n tokens, h heads, d_k = d_model / h."""

    params: BlockWeights  # W^Q, W^K, W^V, W^O, W_1, b_1, W_2, b_2 of this block
    x_in: np.ndarray  # [n, d_model]
    attn_in: np.ndarray  # [n, d_model] what W^Q, W^K, W^V see (x_in, or LN(x_in) in Pre-LN)
    Q: np.ndarray  # [n, d_model] = attn_in W^Q
    K: np.ndarray  # [n, d_model]
    V: np.ndarray  # [n, d_model]
    q_heads: np.ndarray  # [h, n, d_k]
    k_heads: np.ndarray  # [h, n, d_k]
    v_heads: np.ndarray  # [h, n, d_k]
    scores: np.ndarray  # [h, n, n] q·k (· 1/√d_k when scaling), before the mask and softmax
    weights: np.ndarray  # [h, n, n] softmax rows
    head_out: np.ndarray  # [h, n, d_k]
    concat: np.ndarray  # [n, d_model] heads side by side
    attn_out: np.ndarray  # [n, d_model] = concat W^O
    resid1: np.ndarray  # [n, d_model] x_in + attn_out
    norm1: np.ndarray  # [n, d_model] LN(resid1) in Post-LN; the FFN's input either way
    ffn_hidden: np.ndarray  # [n, d_ff] max(0, · W_1 + b_1)
    ffn_out: np.ndarray  # [n, d_model] hidden W_2 + b_2
    resid2: np.ndarray  # [n, d_model]
    out: np.ndarray  # [n, d_model]


@dataclass
class Trace:
    config: ToyConfig
    backend: str
    text: str
    tokens: list[str]
    vocab: Vocabulary
    ids: np.ndarray  # [n]
    one_hot: np.ndarray  # [n, V]
    embedding_table: np.ndarray  # [V, d_model] E
    embeddings: np.ndarray  # [n, d_model] rows of E
    positions: np.ndarray  # [n, d_model] PE (zeros when positions are off)
    x0: np.ndarray  # [n, d_model] embeddings + positions: the first block's input
    blocks: list[BlockTrace] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.tokens)

    @property
    def output(self) -> np.ndarray:
        """[n, d_model] the contextual representations after the last block."""
        return self.blocks[-1].out if self.blocks else self.x0


class ToyTransformer:
    """A seeded toy encoder; ``run`` is deterministic for a given config, text and backend."""

    def __init__(self, config: ToyConfig | None = None, backend: str = "numpy") -> None:
        self.config = config or ToyConfig()
        self.config.validate()
        self.backend_name = backend
        self.backend = get_backend(backend)
        self.weights = [BlockWeights.init(self.config, i) for i in range(self.config.n_layers)]

    def with_config(self, **changes: Any) -> ToyTransformer:
        return ToyTransformer(replace(self.config, **changes), self.backend_name)

    def embedding_table(self, vocab: Vocabulary) -> np.ndarray:
        """E ∈ R^{V×d_model}, one seeded row per vocabulary token."""
        d, seed = self.config.d_model, self.config.seed
        return np.stack([token_vector(t, d, seed) for t in vocab.tokens])  # (V, d_model)

    def run(self, text: str) -> Trace:
        cfg, be = self.config, self.backend
        tokens = tokenize(text)
        if not tokens:
            raise EmptyInputError("the text has no tokens")
        vocab = Vocabulary.for_tokens(tokens)
        ids = vocab.ids(tokens)
        table = self.embedding_table(vocab)
        embeddings = be.embedding_lookup(table, ids)  # (n, d_model)
        pe = positional_encoding(len(tokens), cfg.d_model)
        if not cfg.positions:
            pe = np.zeros_like(pe)
        trace = Trace(
            config=cfg, backend=self.backend_name, text=text, tokens=tokens, vocab=vocab,
            ids=ids, one_hot=be.one_hot(ids, len(vocab), dtype=np.float64),
            embedding_table=table, embeddings=embeddings, positions=pe, x0=embeddings + pe,
        )  # fmt: skip
        x = trace.x0
        for w in self.weights:
            block = self.block(x, w)
            trace.blocks.append(block)
            x = block.out
        return trace

    # Q, K, V = x W^Q, x W^K, x W^V;  q_i, k_i, v_i = head i's d_k columns
    # head_i = softmax(q_i k_iᵀ / √d_k) v_i   (without the 1/√d_k when scaling is off)
    # MultiHead(x) = Concat(head_1, …, head_h) W^O
    def attend(self, x: np.ndarray, w: BlockWeights) -> dict[str, np.ndarray]:
        """Multi-head self-attention of x [n, d_model]: every intermediate by name."""
        cfg, be = self.config, self.backend
        scale = 1.0 / math.sqrt(cfg.d_k) if cfg.scale else 1.0
        Q, K, V = x @ w.W_Q, x @ w.W_K, x @ w.W_V  # (n, d_model) each
        q, k, v = (split_heads(m, cfg.h) for m in (Q, K, V))  # (h, n, d_k) each
        # One kernel pass gives the output and the softmax weights (q kᵀ and the softmax once).
        head_out, weights = be.attention_with_weights(q, k, v, causal=cfg.causal, scale=scale)
        # The pages also show the scores before the mask and the softmax, which the kernel does
        # not return (nor could they be recovered from the weights: each row's normaliser is
        # lost): one more q kᵀ of these few numbers, the softmax not redone.
        scores = q @ k.transpose(0, 2, 1) * scale  # (h, n, d_k) @ (h, d_k, n) → (h, n, n)
        concat = merge_heads(head_out)  # (h, n, d_k) → (n, d_model)
        return dict(
            Q=Q, K=K, V=V, q_heads=q, k_heads=k, v_heads=v, scores=scores, weights=weights,
            head_out=head_out, concat=concat, attn_out=concat @ w.W_O,
        )  # fmt: skip

    def block(self, x: np.ndarray, w: BlockWeights) -> BlockTrace:
        """Post-LN: out = LN(r + FFN(r)), r = LN(x + MHA(x)).
        Pre-LN:  out = r + FFN(LN(r)),    r = x + MHA(LN(x))."""
        pre = self.config.norm == "pre"
        attn_in = layer_norm(x) if pre else x
        a = self.attend(attn_in, w)
        resid1 = x + a["attn_out"]
        norm1 = layer_norm(resid1)
        # The FFN reads LN(resid1) in both orders; they differ in what the second residual adds to.
        hidden = np.maximum(0.0, norm1 @ w.W_1 + w.b_1)  # (n, d_ff)
        ffn_out = hidden @ w.W_2 + w.b_2  # (n, d_model)
        base = resid1 if pre else norm1
        resid2 = base + ffn_out
        out = resid2 if pre else layer_norm(resid2)
        return BlockTrace(
            params=w,
            x_in=x, attn_in=attn_in, resid1=resid1, norm1=norm1, ffn_hidden=hidden,
            ffn_out=ffn_out, resid2=resid2, out=out, **a,
        )  # fmt: skip
