"""The checkpoint's modules: one class each, named and nested as the checkpoint's keys are.

    embeddings.{word,position,token_type}_embeddings.weight, embeddings.LayerNorm  BertEmbeddings
    encoder.layer.{i}                                                              BertLayer
        .attention.self.{query,key,value,qkv}                                      BertSelfAttention
        .attention.output.{dense,LayerNorm}                                        BertSelfOutput
        .intermediate.dense                                                        BertIntermediate
        .output.{dense,LayerNorm}                                                  BertOutput

Each class has ``load(tensors, prefix, cfg)``, which picks its tensors out of the checkpoint's
(``load_tensors``: the file's, and each layer's qkv, W^Q, W^K and W^V stacked by the loader), and
``forward(be, …)``, which computes on the backend ``be`` ("python", "numpy" or "rust"); the
formula of each forward stands above it. Linear weights keep PyTorch's [out, in] layout, so the
articles' x W^Q + b^Q is ``be.linear(x, query.weight, query.bias)`` with query.weight = (W^Q)ᵀ.

Every forward takes an optional ``record`` (a ``Record``), into which it puts its intermediates
under the names of ``LayerTrace`` / ``EmbeddingTrace``: the trace is written by the code that
computes the output, not by a second copy of the math. Without a record (or one that does not
want them) self-attention asks the backend for its output only, not for the attention weights.
Two sums are formed inside the next kernel's pass, as ONNX Runtime's fused BiasGelu and
SkipLayerNorm do: b_1 by GELU (``gelu(…, bias=)``) and each residual addition by LayerNorm
(``layer_norm(…, residual=)``). Both round the sum to the input's dtype, so a record gets the
numbers the kernel used as one NumPy addition of the same two arrays. (a W_1 is rounded before
b_1 is added: in float32 that can differ in the last bit from a product that starts from b_1, as
the pure-Python ``linear`` does and gemm does when it splits k.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from transformer_walk.core import Backend
from transformer_walk.models.heads import merge_heads, split_heads
from transformer_walk.models.minilm.config import MiniLMConfig
from transformer_walk.models.record import Record

Tensors = dict[str, np.ndarray]


def _switched_off(per_head: np.ndarray, heads: Sequence[int]) -> np.ndarray:
    """``per_head`` [..., h, a, b] with the given heads set to 0 (a copy: a backend's array may be
    read-only); the array itself when ``heads`` is empty."""
    if not heads:
        return per_head
    out = per_head.copy()
    out[..., list(heads), :, :] = 0.0
    return out


@dataclass(frozen=True)
class Linear:
    """``{prefix}.weight`` [out, in], ``{prefix}.bias`` [out], and ``{prefix}.weight_t`` [in, out]
    when the loader made one (``transposes``)."""

    weight: np.ndarray  # [out, in] = Wᵀ, float32 or float16 (load_minilm's weights)
    bias: np.ndarray  # [out]
    # [in, out] = W by rows, the same numbers: rust_core's matrix products read it (the few-row
    # kernel of a short sentence reads weight); None for float16 weights and W^Q, W^K, W^V alone
    weight_t: np.ndarray | None = None

    @classmethod
    def load(cls, tensors: Tensors, prefix: str) -> Linear:
        weight_t = tensors.get(f"{prefix}.weight_t")
        return cls(tensors[f"{prefix}.weight"], tensors[f"{prefix}.bias"], weight_t)

    # y = x W + b
    def forward(self, be: Backend, x: np.ndarray) -> np.ndarray:
        return self._product(be, x, self.bias)

    # x W, without b: for a caller whose next kernel adds b in its own pass over the output
    def product(self, be: Backend, x: np.ndarray) -> np.ndarray:
        return self._product(be, x, None)

    def _product(self, be: Backend, x: np.ndarray, bias: np.ndarray | None) -> np.ndarray:
        if self.weight.dtype == np.float16:
            return be.half_linear(x, self.weight, bias)  # (..., in) → (..., out)
        return be.linear(x, self.weight, bias, weight_t=self.weight_t)  # (..., in) → (..., out)


@dataclass(frozen=True)
class LayerNorm:
    """``{prefix}.weight`` γ [d_model], ``{prefix}.bias`` β [d_model]; ε from the config."""

    weight: np.ndarray  # [d_model] γ
    bias: np.ndarray  # [d_model] β
    eps: float

    @classmethod
    def load(cls, tensors: Tensors, prefix: str, eps: float) -> LayerNorm:
        return cls(tensors[f"{prefix}.weight"], tensors[f"{prefix}.bias"], eps)

    # LN(x) = γ ⊙ (x − mean(x)) / √(var(x) + ε) + β, over the d_model entries of each row;
    # LN(x + residual) when a residual is given (the addition done in LayerNorm's pass)
    def forward(self, be: Backend, x: np.ndarray, residual: np.ndarray | None = None) -> np.ndarray:
        return be.layer_norm(x, self.weight, self.bias, self.eps, residual=residual)


@dataclass(frozen=True)
class BertEmbeddings:
    """``embeddings.*``: three lookup tables, summed, then LayerNorm. The tables are kept as the
    arrays the checkpoint stores (``embeddings.word_embeddings.weight`` …)."""

    word_embeddings: np.ndarray  # [vocab_size, d_model] E_word
    position_embeddings: np.ndarray  # [max_positions, d_model] E_pos, learned (not sinusoids)
    token_type_embeddings: np.ndarray  # [type_vocab_size, d_model] E_type
    LayerNorm: LayerNorm  # noqa: N815 - the checkpoint's own name (embeddings.LayerNorm)

    @classmethod
    def load(cls, tensors: Tensors, prefix: str, cfg: MiniLMConfig) -> BertEmbeddings:
        return cls(
            word_embeddings=tensors[f"{prefix}.word_embeddings.weight"],
            position_embeddings=tensors[f"{prefix}.position_embeddings.weight"],
            token_type_embeddings=tensors[f"{prefix}.token_type_embeddings.weight"],
            LayerNorm=LayerNorm.load(tensors, f"{prefix}.LayerNorm", cfg.eps),
        )

    # x⁰ = LN(E_word[ids] + E_pos[0 … n−1] + E_type[0])
    def forward(self, be: Backend, ids: np.ndarray, record: Record | None = None) -> np.ndarray:
        """ids [..., n] → x⁰ [..., n, d_model]. One segment: every token has token type 0."""
        n = ids.shape[-1]
        word = be.embedding_lookup(self.word_embeddings, ids)  # (..., n, d_model)
        position = be.embedding_lookup(self.position_embeddings, np.arange(n))  # (n, d_model)
        token_type = be.embedding_lookup(self.token_type_embeddings, np.zeros(n, np.int64))
        total = word + token_type + position  # Hugging Face's order of the sums (same rounding)
        out = self.LayerNorm.forward(be, total)
        if record is not None:
            record.put(word=word, position=position, token_type=token_type, sum=total, out=out)
        return out


@dataclass(frozen=True)
class BertSelfAttention:
    """``attention.self.{query,key,value}``: W^Q, W^K, W^V (and their biases) for all h heads,
    read from the loader's stack ``attention.self.qkv`` and its rows."""

    query: Linear  # (W^Q)ᵀ [d_model, d_model], b^Q: rows of ``qkv``
    key: Linear  # (W^K)ᵀ, b^K
    value: Linear  # (W^V)ᵀ, b^V
    h: int  # heads, from the config: the checkpoint's shapes do not say how W^Q is split
    qkv: Linear  # [W^Q W^K W^V]ᵀ [3·d_model, d_model]: Q, K and V by one product

    @classmethod
    def load(cls, tensors: Tensors, prefix: str, cfg: MiniLMConfig) -> BertSelfAttention:
        # The loader stacked W^Q, W^K, W^V into qkv; query, key and value are views of its rows.
        query, key, value, qkv = (
            Linear.load(tensors, f"{prefix}.{name}") for name in ("query", "key", "value", "qkv")
        )
        return cls(query=query, key=key, value=value, h=cfg.h, qkv=qkv)

    @property
    def d_k(self) -> int:
        return self.query.weight.shape[0] // self.h  # d_model / h

    @property
    def scale(self) -> float:
        return 1.0 / math.sqrt(self.d_k)

    # Q = x W^Q + b^Q,  K = x W^K + b^K,  V = x W^V + b^V;  q_i, k_i, v_i = head i's d_k columns
    # head_i = softmax(q_i k_iᵀ / √d_k + mask) v_i      (head_i = 0 for i in ``heads_off``)
    # returns Concat(head_1, …, head_h)
    def forward(
        self,
        be: Backend,
        x: np.ndarray,
        mask: np.ndarray | None = None,
        record: Record | None = None,
        heads_off: Sequence[int] = (),
    ) -> np.ndarray:
        """x [..., n, d_model] → [..., n, d_model]; ``mask`` (True = may attend) broadcasts to
        [..., h, n, n].

        ``heads_off`` (0-based heads, checked by the caller) are switched off: their output
        head_i is 0 before the concatenation and W^O, as with Hugging Face's ``head_mask``, which
        multiplies those heads' weights by 0 — so a record's ``weights`` are 0 there too, as
        Hugging Face reports them, and head_out = weights · v still holds. The attention is the
        backend's kernel; the zeroing is done here, on its output, the same for every backend.
        Without ``heads_off`` nothing is copied or changed."""
        d_model = self.query.weight.shape[0]
        QKV = self.qkv.forward(be, x)  # (..., n, 3·d_model): [Q, K, V] side by side
        # Column blocks, views: Q = x W^Q + b^Q and so on.
        Q, K, V = (QKV[..., i * d_model : (i + 1) * d_model] for i in range(3))
        q, k, v = (split_heads(m, self.h) for m in (Q, K, V))  # (..., h, n, d_k) each, views
        if record is None or not record.wants("weights"):
            # Nobody reads the weights (``embed``): the kernel keeps them to itself.
            head_out = be.attention(q, k, v, mask=mask, scale=self.scale)  # (..., h, n, d_k)
            head_out = _switched_off(head_out, heads_off)
        else:
            # One pass over q kᵀ, the softmax and · v, which also hands back the softmax.
            head_out, weights = be.attention_with_weights(q, k, v, mask=mask, scale=self.scale)
            head_out = _switched_off(head_out, heads_off)
            record.put(weights=_switched_off(weights, heads_off))  # (..., h, n, n)
        concat = merge_heads(head_out)  # (..., h, n, d_k) → (..., n, d_model)
        if record is not None:
            record.put(Q=Q, K=K, V=V, q_heads=q, k_heads=k, v_heads=v)
            record.put(head_out=head_out, concat=concat)
        return concat

    # scores_i = q_i k_iᵀ / √d_k
    def scores(self, q_heads: np.ndarray, k_heads: np.ndarray) -> np.ndarray:
        """The pre-softmax scores [..., h, n, n] that a trace shows. The attention kernel
        computes them but returns only their softmax, and the softmax cannot be undone (each
        row's normaliser is lost), so they are one more product of the recorded q and k heads
        — for a trace only; the softmax itself is not computed again."""
        scale = q_heads.dtype.type(self.scale)
        return np.matmul(q_heads, k_heads.swapaxes(-1, -2)) * scale  # (..., h, n, n)


@dataclass(frozen=True)
class BertSelfOutput:
    """``attention.output.{dense,LayerNorm}``: W^O, then the first residual and LayerNorm."""

    dense: Linear  # (W^O)ᵀ [d_model, d_model], b^O
    LayerNorm: LayerNorm  # noqa: N815 - the checkpoint's own name

    @classmethod
    def load(cls, tensors: Tensors, prefix: str, cfg: MiniLMConfig) -> BertSelfOutput:
        return cls(
            dense=Linear.load(tensors, f"{prefix}.dense"),
            LayerNorm=LayerNorm.load(tensors, f"{prefix}.LayerNorm", cfg.eps),
        )

    # a = LN(x + Concat(head_1, …, head_h) W^O + b^O)
    def forward(
        self, be: Backend, concat: np.ndarray, x: np.ndarray, record: Record | None = None
    ) -> np.ndarray:
        attn_out = self.dense.forward(be, concat)  # (..., n, d_model)
        norm1 = self.LayerNorm.forward(be, attn_out, residual=x)  # LN(attn_out + x)
        if record is not None:
            record.put(attn_out=attn_out, resid1=attn_out + x, norm1=norm1)  # the sum LN took
        return norm1


@dataclass(frozen=True)
class BertAttention:
    """``attention.*``: multi-head self-attention and its output sub-layer."""

    self_attention: BertSelfAttention  # attention.self (``self`` cannot name a Python field)
    self_output: BertSelfOutput  # attention.output

    @classmethod
    def load(cls, tensors: Tensors, prefix: str, cfg: MiniLMConfig) -> BertAttention:
        return cls(
            self_attention=BertSelfAttention.load(tensors, f"{prefix}.self", cfg),
            self_output=BertSelfOutput.load(tensors, f"{prefix}.output", cfg),
        )

    # a = LN(x + MultiHead(x, x, x))
    def forward(
        self,
        be: Backend,
        x: np.ndarray,
        mask: np.ndarray | None = None,
        record: Record | None = None,
        heads_off: Sequence[int] = (),
    ) -> np.ndarray:
        concat = self.self_attention.forward(be, x, mask, record, heads_off)
        return self.self_output.forward(be, concat, x, record)


@dataclass(frozen=True)
class BertIntermediate:
    """``intermediate.dense``: the feed-forward network's first layer, W_1 [d_ff, d_model]."""

    dense: Linear  # W_1ᵀ, b_1

    @classmethod
    def load(cls, tensors: Tensors, prefix: str, cfg: MiniLMConfig) -> BertIntermediate:
        return cls(dense=Linear.load(tensors, f"{prefix}.dense"))

    # GELU(a W_1 + b_1), GELU(z) = z Φ(z) with the exact erf (BERT's "gelu"), not max(0, ·);
    # b_1 is added by GELU's pass over a W_1
    def forward(self, be: Backend, a: np.ndarray, record: Record | None = None) -> np.ndarray:
        product = self.dense.product(be, a)  # (..., n, d_model) → (..., n, d_ff): a W_1
        ffn_hidden = be.gelu(product, bias=self.dense.bias)
        if record is not None:
            # a W_1 + b_1, the sum GELU took
            record.put(ffn_pre=product + self.dense.bias, ffn_hidden=ffn_hidden)
        return ffn_hidden


@dataclass(frozen=True)
class BertOutput:
    """``output.{dense,LayerNorm}``: the FFN's second layer W_2, the second residual, LayerNorm."""

    dense: Linear  # W_2ᵀ [d_model, d_ff], b_2
    LayerNorm: LayerNorm  # noqa: N815 - the checkpoint's own name

    @classmethod
    def load(cls, tensors: Tensors, prefix: str, cfg: MiniLMConfig) -> BertOutput:
        return cls(
            dense=Linear.load(tensors, f"{prefix}.dense"),
            LayerNorm=LayerNorm.load(tensors, f"{prefix}.LayerNorm", cfg.eps),
        )

    # x' = LN(a + GELU(a W_1 + b_1) W_2 + b_2)
    def forward(
        self, be: Backend, hidden: np.ndarray, a: np.ndarray, record: Record | None = None
    ) -> np.ndarray:
        ffn_out = self.dense.forward(be, hidden)  # (..., n, d_ff) → (..., n, d_model)
        out = self.LayerNorm.forward(be, ffn_out, residual=a)  # LN(ffn_out + a)
        if record is not None:
            record.put(ffn_out=ffn_out, resid2=ffn_out + a, out=out)  # the sum LN took
        return out


@dataclass(frozen=True)
class BertLayer:
    """``encoder.layer.{i}``: one Post-LN encoder layer, as in the original Transformer."""

    attention: BertAttention
    intermediate: BertIntermediate
    output: BertOutput

    @classmethod
    def load(cls, tensors: Tensors, prefix: str, cfg: MiniLMConfig) -> BertLayer:
        return cls(
            attention=BertAttention.load(tensors, f"{prefix}.attention", cfg),
            intermediate=BertIntermediate.load(tensors, f"{prefix}.intermediate", cfg),
            output=BertOutput.load(tensors, f"{prefix}.output", cfg),
        )

    # a  = LN(x + MultiHead(x, x, x))
    # x' = LN(a + FFN(a))
    def forward(
        self,
        be: Backend,
        x: np.ndarray,
        mask: np.ndarray | None = None,
        record: Record | None = None,
        heads_off: Sequence[int] = (),
    ) -> np.ndarray:
        if record is not None:
            record.put(x_in=x)
        a = self.attention.forward(be, x, mask, record, heads_off)
        return self.output.forward(be, self.intermediate.forward(be, a, record), a, record)


@dataclass(frozen=True)
class BertEncoder:
    """``encoder.layer.{0 … L−1}``: the L layers, applied in turn."""

    layer: tuple[BertLayer, ...]  # named as the checkpoint (and Hugging Face) name the list

    @classmethod
    def load(cls, tensors: Tensors, prefix: str, cfg: MiniLMConfig) -> BertEncoder:
        layers = (BertLayer.load(tensors, f"{prefix}.layer.{i}", cfg) for i in range(cfg.n_layers))
        return cls(tuple(layers))

    # x^l = Layer_l(x^(l−1)),  l = 1 … L
    def forward(
        self,
        be: Backend,
        x: np.ndarray,
        mask: np.ndarray | None = None,
        records: Sequence[Record] | None = None,
        heads_off: Sequence[Sequence[int]] | None = None,
    ) -> list[np.ndarray]:
        """x⁰ [..., n, d_model] → [x¹, …, x^L], every layer's output (the last is the encoder's).
        ``records``: one per layer, or None; ``heads_off``: one sequence of 0-based heads per
        layer, switched off there (``BertSelfAttention.forward``), or None for none."""
        per_layer: Sequence[Record | None] = records or [None] * len(self.layer)
        off: Sequence[Sequence[int]] = heads_off or [()] * len(self.layer)
        outputs = []
        for layer, record, heads in zip(self.layer, per_layer, off, strict=True):
            x = layer.forward(be, x, mask, record, heads)
            outputs.append(x)
        return outputs
