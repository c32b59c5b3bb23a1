"""The decoder's modules, one class each, named as the GGUF file names their tensors.

    token_embd.weight                        Embedding (and the tied output head)
    blk.{i}.attn_norm, blk.{i}.ffn_norm      RMSNorm
    blk.{i}.attn_{q,k,v,output}              SelfAttention (grouped-query, RoPE, key/value cache)
    blk.{i}.ffn_{gate,up,down}               FeedForward (SwiGLU)
    blk.{i}                                  DecoderLayer (Pre-Norm: norm, sub-layer, residual)
    output_norm.weight                       RMSNorm

Each class has ``load(tensors, prefix, cfg)`` and ``forward(be, …)``, which computes on the
backend ``be``; the formula stands above each forward. Every matrix is a ``Weight`` in the
file's encoding (Q4_1 / Q8_0 blocks, or float32) and its product is the backend's
``quantized_linear`` (or ``linear``), so x W is computed over the 4-bit blocks without a
float32 copy of the 135M weights. Arithmetic goes through the backend; only reshapes, the
residual additions and the cache's copies are plain NumPy.

A forward takes an optional ``record`` (a ``Record``), into which it puts its intermediates under
the names of ``trace.LayerTrace``: the trace is written by the code that computes the output.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from transformer_walk.core import Backend
from transformer_walk.models.heads import merge_heads, split_heads
from transformer_walk.models.record import Record
from transformer_walk.models.smollm2.cache import LayerCache
from transformer_walk.models.smollm2.config import SmolLM2Config
from transformer_walk.models.smollm2.gguf import GGUFTensor

Tensors = Mapping[str, GGUFTensor]


@dataclass(frozen=True)
class Weight:
    """A matrix [out, in] as the file stores it (PyTorch's layout: y = x · weightᵀ)."""

    tensor: GGUFTensor

    @classmethod
    def load(cls, tensors: Tensors, name: str) -> Weight:
        return cls(tensors[name])

    @property
    def shape(self) -> tuple[int, int]:
        out, inp = self.tensor.shape
        return out, inp

    # y = x Wᵀ over the stored blocks: (..., in) → (..., out)
    def forward(self, be: Backend, x: np.ndarray) -> np.ndarray:
        t = self.tensor
        if t.quantized:
            return be.quantized_linear(x, t.data, t.kind, t.shape)
        return be.linear(x, t.data)

    @classmethod
    def stacked(cls, parts: Sequence[Weight]) -> tuple[Weight | None, tuple[Weight, ...]]:
        """One weight whose rows are those of ``parts`` in turn, and the parts again as views of
        its rows — or (None, parts) when they cannot share one encoding (another kind or another
        ``in``). x · [W_1; W_2; …]ᵀ is [x W_1ᵀ, x W_2ᵀ, …] side by side."""
        tensors = [w.tensor for w in parts]
        first = tensors[0]
        if len({(t.kind, t.shape[1], t.data.shape[1:]) for t in tensors}) != 1:
            return None, tuple(parts)
        data = np.concatenate([t.data for t in tensors])  # (Σ out, row bytes or in)
        name = "+".join(t.name for t in tensors)
        whole = cls(GGUFTensor(name, first.kind, (len(data), first.shape[1]), data))
        views, start = [], 0
        for t in tensors:
            rows = t.shape[0]
            views.append(cls(GGUFTensor(t.name, t.kind, t.shape, data[start : start + rows])))
            start += rows
        return whole, tuple(views)

    def rows(self, be: Backend, ids: np.ndarray) -> np.ndarray:
        """Rows ``ids`` [n] (checked by the caller) as float32 [n, in]: only those rows' blocks
        are dequantized (an embedding lookup that never widens the whole 49,152-row table)."""
        t = self.tensor
        if t.quantized:
            blocks = t.data[ids]  # (n, row bytes): the selected rows' raw blocks
            return be.dequantize(blocks, t.kind, (len(ids), t.shape[1]))
        return be.embedding_lookup(t.data, ids)


@dataclass(frozen=True)
class RMSNorm:
    """``{prefix}.weight`` γ [d_model] (float32); ε from the config."""

    weight: np.ndarray  # [d_model] γ
    eps: float

    @classmethod
    def load(cls, tensors: Tensors, name: str, eps: float) -> RMSNorm:
        return cls(tensors[name].data, eps)

    # RMSNorm(x) = γ ⊙ x / √(mean(x²) + ε), over the d_model entries of each row (no mean
    # subtracted, no β: LayerNorm without its centring)
    def forward(self, be: Backend, x: np.ndarray) -> np.ndarray:
        return be.rms_norm(x, self.weight, self.eps)


@dataclass(frozen=True)
class Embedding:
    """``token_embd.weight`` E [vocab, d_model] (Q8_0 in SmolLM2's file)."""

    weight: Weight

    @classmethod
    def load(cls, tensors: Tensors, name: str) -> Embedding:
        return cls(Weight.load(tensors, name))

    # x⁰ = E[ids]: no position is added (RoPE turns q and k inside attention instead)
    def forward(self, be: Backend, ids: np.ndarray) -> np.ndarray:
        return self.weight.rows(be, ids)  # (n,) → (n, d_model)


def _causal_mask(n: int, past: int) -> np.ndarray | None:
    """Which keys each of n new queries may see after ``past`` cached positions: query i is at
    position past + i and sees keys 0 … past + i. None when that is every key (one query)."""
    if n == 1:
        return None
    return np.tri(n, past + n, k=past, dtype=bool)  # (n, past + n), True = may attend


@dataclass(frozen=True)
class SelfAttention:
    """``attn_q`` W^Q [h·d_head, d_model], ``attn_k`` W^K and ``attn_v`` W^V [h_kv·d_head,
    d_model], ``attn_output`` W^O [d_model, h·d_head]. No biases."""

    q: Weight
    k: Weight
    v: Weight
    output: Weight
    h: int
    h_kv: int
    rope_base: float
    qkv: Weight | None = None  # [W^Q; W^K; W^V], of which q, k, v are views (None: kept apart)

    @classmethod
    def load(cls, tensors: Tensors, prefix: str, cfg: SmolLM2Config) -> SelfAttention:
        parts = [Weight.load(tensors, f"{prefix}.attn_{name}.weight") for name in "qkv"]
        qkv, (q, k, v) = Weight.stacked(parts)
        return cls(
            q=q,
            k=k,
            v=v,
            output=Weight.load(tensors, f"{prefix}.attn_output.weight"),
            h=cfg.h,
            h_kv=cfg.h_kv,
            rope_base=cfg.rope_base,
            qkv=qkv,
        )

    def project(self, be: Backend, x: np.ndarray) -> tuple[np.ndarray, ...]:
        """x W^Q, x W^K, x W^V: one product over the stacked weights when there is one."""
        if self.qkv is None:
            return tuple(w.forward(be, x) for w in (self.q, self.k, self.v))
        QKV = self.qkv.forward(be, x)  # (n, (h + 2·h_kv)·d_head): [x W^Q, x W^K, x W^V]
        q_end = self.q.shape[0]
        k_end = q_end + self.k.shape[0]
        return QKV[..., :q_end], QKV[..., q_end:k_end], QKV[..., k_end:]  # column blocks (views)

    def attend(
        self,
        be: Backend,
        q: np.ndarray,
        keys: np.ndarray,
        values: np.ndarray,
        mask: np.ndarray | None,
        causal: bool,
    ) -> np.ndarray:
        """softmax(q_j k_gᵀ / √d_head + mask) v_g for every query head j, g = j // (h / h_kv). For
        one new position with nothing masked (a generated token), the h / h_kv query heads that
        share key/value head g go in as one block of h / h_kv queries against it, so its cached
        keys and values are read once instead of h / h_kv times: the same numbers, the kernel's
        few-query path either way."""
        h, n, d = q.shape
        if n == 1 and mask is None and not causal:
            grouped = q.reshape(self.h_kv, h // self.h_kv, d)  # (h, 1, d) → (h_kv, h/h_kv, d)
            return be.attention(grouped, keys, values).reshape(h, 1, d)  # → (h, 1, d_head)
        return be.attention(q, keys, values, mask=mask, causal=causal)

    # q_j = RoPE(x W^Q)_j, k_g = RoPE(x W^K)_g, v_g = (x W^V)_g      j < h query, g < h_kv kv heads
    # head_j = softmax(q_j k_gᵀ / √d_head + causal mask) v_g,  g = j // (h / h_kv)
    # out = Concat(head_1, …, head_h) W^O
    def forward(
        self,
        be: Backend,
        x: np.ndarray,
        positions: np.ndarray,
        cache: LayerCache | None = None,
        record: Record | None = None,
        heads_off: Sequence[int] = (),
    ) -> np.ndarray:
        """x [n, d_model] at ``positions`` [n] → [n, d_model]. With a ``cache``, the new keys
        and values are appended to it and the queries attend to every cached position too.
        ``heads_off``: query heads whose output is set to 0 before W^O (switched off)."""
        Q, K, V = self.project(be, x)
        q = split_heads(Q, self.h)  # (n, h·d) → (h, n, d_head)
        k = split_heads(K, self.h_kv)  # (n, h_kv·d) → (h_kv, n, d_head)
        v = split_heads(V, self.h_kv)  # (h_kv, n, d_head)
        # RoPE over adjacent pairs (2i, 2i+1), llama.cpp's "normal" mode: the converter stored
        # W^Q and W^K with their rows permuted for that order (Hugging Face's rotate_half pairs
        # i with i + d/2), so the scores are Hugging Face's.
        q_rot = be.rope(q, positions, self.rope_base)
        k_rot = be.rope(k, positions, self.rope_base)
        keys, values = (k_rot, v) if cache is None else cache.append(k_rot, v)
        past = keys.shape[-2] - x.shape[-2]
        # Empty cache: the plain causal triangle. After cached positions the triangle is shifted
        # right by ``past`` (the kernel's causal=True is top-left aligned), so a mask says it.
        causal = past == 0 and x.shape[-2] > 1
        mask = None if past == 0 else _causal_mask(x.shape[-2], past)
        if record is None:
            head_out = self.attend(be, q_rot, keys, values, mask, causal)  # (h, n, d_head)
        else:
            head_out, weights = be.attention_with_weights(
                q_rot, keys, values, mask=mask, causal=causal
            )  # (h, n, d_head), (h, n, past + n)
            record.put(q=q, k=k, v=v, q_rot=q_rot, k_rot=k_rot, weights=weights)
        if heads_off:
            head_out = head_out.copy()
            head_out[list(heads_off)] = 0.0  # (h, n, d_head): those heads' rows of W^O add 0
        concat = merge_heads(head_out)  # (h, n, d_head) → (n, h·d_head)
        out = self.output.forward(be, concat)  # (n, d_model)
        if record is not None:
            record.put(head_out=head_out, concat=concat, attn_out=out)
        return out


@dataclass(frozen=True)
class FeedForward:
    """``ffn_gate`` W_gate and ``ffn_up`` W_up [d_ff, d_model]; ``ffn_down`` W_down
    [d_model, d_ff]."""

    gate: Weight
    up: Weight
    down: Weight
    gate_up: Weight | None = None  # [W_gate; W_up], of which gate, up are views (None: apart)

    @classmethod
    def load(cls, tensors: Tensors, prefix: str, cfg: SmolLM2Config) -> FeedForward:
        parts = [Weight.load(tensors, f"{prefix}.ffn_{name}.weight") for name in ("gate", "up")]
        gate_up, (gate, up) = Weight.stacked(parts)
        return cls(
            gate=gate,
            up=up,
            down=Weight.load(tensors, f"{prefix}.ffn_down.weight"),
            gate_up=gate_up,
        )

    # FFN(x) = (SiLU(x W_gate) ⊙ x W_up) W_down,  SiLU(z) = z · σ(z)
    def forward(self, be: Backend, x: np.ndarray, record: Record | None = None) -> np.ndarray:
        if self.gate_up is None:
            gate, up = self.gate.forward(be, x), self.up.forward(be, x)  # (n, d_ff) each
        else:  # one product: (n, d_model) → (n, 2·d_ff) = [x W_gate, x W_up]
            both = self.gate_up.forward(be, x)
            d_ff = self.gate.shape[0]
            gate, up = both[..., :d_ff], both[..., d_ff:]  # column blocks (views)
        hidden = be.swiglu(gate, up)  # (n, d_ff)
        out = self.down.forward(be, hidden)  # (n, d_ff) → (n, d_model)
        if record is not None:
            record.put(gate=gate, up=up, ffn_hidden=hidden, ffn_out=out)
            # swiglu fuses SiLU with the product, so SiLU(gate) alone exists only if asked for:
            # one more pass over n · d_ff numbers, in a trace only.
            if record.keep is None or "gate_act" in record.keep:
                record.put(gate_act=be.silu(gate))
        return out


@dataclass(frozen=True)
class DecoderLayer:
    """``blk.{i}``: one Pre-Norm decoder layer (the norm comes before each sub-layer, and the
    residual stream itself is never normalised)."""

    attn_norm: RMSNorm
    attn: SelfAttention
    ffn_norm: RMSNorm
    ffn: FeedForward

    @classmethod
    def load(cls, tensors: Tensors, prefix: str, cfg: SmolLM2Config) -> DecoderLayer:
        return cls(
            attn_norm=RMSNorm.load(tensors, f"{prefix}.attn_norm.weight", cfg.eps),
            attn=SelfAttention.load(tensors, prefix, cfg),
            ffn_norm=RMSNorm.load(tensors, f"{prefix}.ffn_norm.weight", cfg.eps),
            ffn=FeedForward.load(tensors, prefix, cfg),
        )

    # a  = x + Attention(RMSNorm(x))
    # x' = a + FFN(RMSNorm(a))
    def forward(
        self,
        be: Backend,
        x: np.ndarray,
        positions: np.ndarray,
        cache: LayerCache | None = None,
        record: Record | None = None,
        heads_off: Sequence[int] = (),
        mlp_off: bool = False,
    ) -> np.ndarray:
        """``heads_off``: heads whose output is set to 0; ``mlp_off``: the FFN's output is not
        added (x' = a; a trace still records what the FFN computed)."""
        norm1 = self.attn_norm.forward(be, x)
        resid1 = x + self.attn.forward(be, norm1, positions, cache, record, heads_off)
        norm2 = self.ffn_norm.forward(be, resid1)
        ffn_out = self.ffn.forward(be, norm2, record)
        out = resid1.copy() if mlp_off else resid1 + ffn_out
        if record is not None:
            record.put(x_in=x, norm1=norm1, resid1=resid1, norm2=norm2, out=out)
        return out
