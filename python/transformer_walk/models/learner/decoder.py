"""The learner's forward pass, keeping what its backward pass needs, and the backward pass.

Per block (Pre-LN, causal): a = LN₁(x); Q, K, V = a·W^Qᵀ + b^Q, …; heads = attention(Q, K, V,
causal); x ← x + Concat(heads)·W^Oᵀ + b^O; then, with the FFN, x ← x + GELU(LN₂(x)·W₁ᵀ + b₁)·W₂ᵀ
+ b₂. At the end: logits = LN_f(x)·W_Uᵀ. Every product, norm, activation and attention goes
through the backend; the glue (adding, reshaping, summing positions over the batch) is NumPy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from transformer_walk.core import Backend
from transformer_walk.models.heads import merge_heads, split_heads
from transformer_walk.models.learner.params import LearnerConfig

Params = dict[str, np.ndarray]


@dataclass
class BlockTape:
    """One block's inputs and intermediates, as the backward pass reads them."""

    x: np.ndarray  # the block's input [B, n, d]
    a: np.ndarray  # LN₁(x)
    q: np.ndarray  # [B, h, n, d_k]
    k: np.ndarray
    v: np.ndarray
    heads: np.ndarray  # Concat(heads) [B, n, d]
    mid: np.ndarray  # x + attention sub-layer [B, n, d]
    w_qkv: np.ndarray  # (W^Q; W^K; W^V) [3d, d], as the forward stacked them
    f: np.ndarray | None = None  # LN₂(mid)
    u: np.ndarray | None = None  # f·W₁ᵀ + b₁ [B, n, d_ff]
    g: np.ndarray | None = None  # GELU(u)


@dataclass
class Tape:
    inputs: np.ndarray  # [B, n] int64
    blocks: list[BlockTape] = field(default_factory=list)
    last: np.ndarray | None = None  # the last block's output [B, n, d]
    final: np.ndarray | None = None  # LN_f(last)
    attention: list[np.ndarray] = field(default_factory=list)  # per block [B, h, n, n], if asked
    masked: bool = False  # a head_mask scaled some head: backward does not apply


def check_inputs(inputs: np.ndarray, config: LearnerConfig, vocab_size: int) -> None:
    if inputs.ndim != 2 or inputs.shape[1] < 1:
        raise ValueError(f"inputs must be [B, n] with n >= 1, got shape {inputs.shape}")
    if inputs.shape[1] > config.max_positions:
        raise ValueError(
            f"inputs have {inputs.shape[1]} positions, more than the model's "
            f"max_positions = {config.max_positions}"
        )


def forward(
    backend: Backend,
    params: Params,
    config: LearnerConfig,
    inputs: np.ndarray,
    *,
    keep_attention: bool = False,
    head_mask: np.ndarray | None = None,
) -> tuple[np.ndarray, Tape]:
    """inputs [B, n] ids → (logits [B·n, V], tape). ``keep_attention`` also records each block's
    attention weights (one more pass over the scores). ``head_mask`` [layers, h]: each head's
    output is multiplied by its entry before W^O (0 switches the head off; None keeps all)."""
    vocab_size = params["token_embedding"].shape[0]
    check_inputs(inputs, config, vocab_size)
    if head_mask is not None and np.shape(head_mask) != (config.layers, config.h):
        raise ValueError(
            f"head_mask must have shape ({config.layers}, {config.h}) [layers, h], "
            f"got {np.shape(head_mask)}"
        )
    n = inputs.shape[1]
    tape = Tape(inputs=inputs, masked=head_mask is not None)
    x = backend.embedding_lookup(params["token_embedding"], inputs)  # [B, n, d]
    x = x + params["position_embedding"][:n]
    for layer in range(config.layers):
        p = f"layers.{layer}."
        a = backend.layer_norm(x, params[p + "ln_1.gamma"], params[p + "ln_1.beta"])
        # One product for Q, K and V: W^Q, W^K, W^V stacked [3d, d] (fewer, larger calls).
        w_qkv, b_qkv = _stacked_qkv(params, p)
        qkv = backend.linear(a, w_qkv, b_qkv)  # [B, n, 3d]
        d = config.d_model
        q, k, v = (split_heads(qkv[..., i * d : (i + 1) * d], config.h) for i in range(3))
        # each a view [B, n, d] → [B, h, n, d_k]
        if keep_attention:
            tape.attention.append(backend.attention_weights(q, k, causal=True))
        per_head = backend.attention(q, k, v, causal=True)  # [B, h, n, d_k]
        if head_mask is not None:
            scale = np.asarray(head_mask[layer], dtype=per_head.dtype)
            per_head = per_head * scale[:, None, None]  # [h] → [h, 1, 1], over B, n, d_k
        heads = merge_heads(per_head)  # [B, h, n, d_k] → [B, n, d]
        mid = backend.linear(heads, params[p + "attn.w_o"], params[p + "attn.b_o"])
        mid += x  # the residual, added in place of a fresh buffer
        block = BlockTape(x=x, a=a, q=q, k=k, v=v, heads=heads, mid=mid, w_qkv=w_qkv)
        x = mid
        if config.ffn:
            block.f = backend.layer_norm(mid, params[p + "ln_2.gamma"], params[p + "ln_2.beta"])
            block.u = backend.linear(block.f, params[p + "ffn.w_1"], params[p + "ffn.b_1"])
            block.g = backend.gelu(block.u)
            x = backend.linear(block.g, params[p + "ffn.w_2"], params[p + "ffn.b_2"])
            x += mid
        tape.blocks.append(block)
    tape.last = x
    tape.final = backend.layer_norm(x, params["ln_f.gamma"], params["ln_f.beta"])
    logits = backend.linear(tape.final, params["unembed.weight"])  # [B, n, V]
    return logits.reshape(-1, vocab_size), tape  # → [B·n, V]


def backward(
    backend: Backend, params: Params, config: LearnerConfig, tape: Tape, grad_logits: np.ndarray
) -> Params:
    """∂loss/∂parameter for every parameter, from ∂loss/∂logits [B·n, V] and the forward's tape."""
    assert tape.last is not None and tape.final is not None
    if tape.masked:
        raise ValueError("backward needs a forward without head_mask (ablation is for reading)")
    batch, n = tape.inputs.shape
    vocab_size = params["token_embedding"].shape[0]
    grads: Params = {}
    grad_logits = grad_logits.reshape(batch, n, vocab_size)  # [B·n, V] → [B, n, V]
    grad_final = _linear_back(
        backend, params, grads, tape.final, "unembed.weight", None, grad_logits
    )
    gx = _norm_back(backend, params, grads, tape.last, "ln_f", grad_final)
    for layer in reversed(range(config.layers)):
        gx = _block_backward(
            backend, params, config, tape.blocks[layer], f"layers.{layer}.", gx, grads
        )
    grads["token_embedding"] = backend.embedding_backward(tape.inputs, gx, vocab_size)
    grad_positions = np.zeros_like(params["position_embedding"])
    grad_positions[:n] = gx.sum(axis=0)  # every sequence of the batch adds to the same rows
    grads["position_embedding"] = grad_positions
    return grads


def _linear_back(
    backend: Backend,
    params: Params,
    grads: Params,
    x: np.ndarray,
    weight: str,
    bias: str | None,
    grad_y: np.ndarray,
) -> np.ndarray:
    """For y = linear(x, W, b): store the gradients of W and b, return x's."""
    grad_x, grads[weight], grad_bias = backend.linear_backward(
        x, params[weight], grad_y, bias=bias is not None
    )
    if bias is not None:
        assert grad_bias is not None
        grads[bias] = grad_bias
    return grad_x


def _norm_back(
    backend: Backend, params: Params, grads: Params, x: np.ndarray, norm: str, grad_y: np.ndarray
) -> np.ndarray:
    """For y = layer_norm(x, gamma, beta): store gamma's and beta's gradients, return x's."""
    grad_x, grads[norm + ".gamma"], grads[norm + ".beta"] = backend.layer_norm_backward(
        x, params[norm + ".gamma"], grad_y
    )
    return grad_x


def _block_backward(
    backend: Backend,
    params: Params,
    config: LearnerConfig,
    block: BlockTape,
    p: str,
    gx: np.ndarray,
    grads: Params,
) -> np.ndarray:
    """One block's backward (parameter names start with ``p``): ∂loss/∂(block output) →
    ∂loss/∂(block input), filling ``grads``."""
    if config.ffn:
        assert block.f is not None and block.u is not None and block.g is not None
        grad_g = _linear_back(backend, params, grads, block.g, p + "ffn.w_2", p + "ffn.b_2", gx)
        grad_u = backend.gelu_backward(block.u, grad_g)
        grad_f = _linear_back(backend, params, grads, block.f, p + "ffn.w_1", p + "ffn.b_1", grad_u)
        grad_mid = _norm_back(backend, params, grads, block.mid, p + "ln_2", grad_f)
        grad_mid += gx  # the residual's share
        gx = grad_mid
    grad_heads = _linear_back(
        backend, params, grads, block.heads, p + "attn.w_o", p + "attn.b_o", gx
    )
    grad_q, grad_k, grad_v = backend.attention_backward(
        block.q, block.k, block.v, split_heads(grad_heads, config.h), causal=True
    )  # [B, n, d] → [B, h, n, d_k] and back
    batch, n, d = block.x.shape
    grad_qkv = np.empty((batch, n, 3, config.h, config.d_k), dtype=gx.dtype)  # [B, n, 3, h, d_k]
    for i, g in enumerate((grad_q, grad_k, grad_v)):
        grad_qkv[:, :, i] = g.swapaxes(1, 2)  # [B, h, n, d_k] → [B, n, h, d_k]
    grad_qkv = grad_qkv.reshape(batch, n, 3 * d)  # → [B, n, 3d]: the stacked product's output's
    grad_a, grad_w, grad_b = backend.linear_backward(block.a, block.w_qkv, grad_qkv)
    assert grad_b is not None
    for i, w in enumerate("qkv"):
        grads[f"{p}attn.w_{w}"] = grad_w[i * d : (i + 1) * d]
        grads[f"{p}attn.b_{w}"] = grad_b[i * d : (i + 1) * d]
    grad_x = _norm_back(backend, params, grads, block.x, p + "ln_1", grad_a)
    grad_x += gx  # the residual's share
    return grad_x


def _stacked_qkv(params: Params, p: str) -> tuple[np.ndarray, np.ndarray]:
    """(W^Q; W^K; W^V) [3d, d] and (b^Q; b^K; b^V) [3d] of the block whose names start with p."""
    weight = np.concatenate([params[f"{p}attn.w_{w}"] for w in "qkv"])
    bias = np.concatenate([params[f"{p}attn.b_{w}"] for w in "qkv"])
    return weight, bias
