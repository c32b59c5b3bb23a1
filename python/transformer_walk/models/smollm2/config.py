"""SmolLM2Config: the numbers that size a Llama-architecture decoder, read from a GGUF file's
metadata.

Every size the forward uses comes from here — the number of layers L, the query heads h and the
key/value heads h_kv (grouped-query attention), d_model, d_head, d_ff, the vocabulary, the
context length, RMSNorm's ε and RoPE's base — and so does every tensor shape the loader checks
(``tensor_shapes``). Nothing is assumed from the model's name: ``from_metadata`` reads the keys
``llama.*`` of the file and rejects a file this code cannot run, naming every key at fault.
``SMOLLM2_135M`` holds SmolLM2-135M-Instruct's values, for the tests and the docs to compare with.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from transformer_walk.core.budget import attention_multiply_adds, linear_multiply_adds
from transformer_walk.models.errors import ConfigError

#: The architecture this forward implements: GGUF's ``general.architecture``.
ARCHITECTURE = "llama"

#: GGUF's name (after ``llama.``) of each integer field.
INT_KEYS = {
    "n_layers": "block_count",
    "d_model": "embedding_length",
    "d_ff": "feed_forward_length",
    "h": "attention.head_count",
    "h_kv": "attention.head_count_kv",
    "context_length": "context_length",
}
#: … and of each real field.
REAL_KEYS = {
    "eps": "attention.layer_norm_rms_epsilon",
    "rope_base": "rope.freq_base",
}


@dataclass(frozen=True)
class SmolLM2Config:
    """A Llama decoder's sizes, in the articles' notation (d_head = d_model / h)."""

    n_layers: int  # L decoder layers
    d_model: int  # width of the residual stream
    d_ff: int  # width of the SwiGLU feed-forward network's hidden layer
    h: int  # query heads
    h_kv: int  # key/value heads: each serves h / h_kv query heads
    context_length: int  # the longest sequence (prompt and new tokens) it was trained on
    vocab_size: int  # rows of the token embedding (and of the tied output head)
    eps: float  # RMSNorm's ε
    rope_base: float  # RoPE's base: pair i turns by pos · base^(−2i/d_head)
    tied_output: bool = True  # the output head is the token embedding (no output.weight)

    @property
    def d_head(self) -> int:
        """Width of one head: d_model / h (for keys and values too)."""
        return self.d_model // self.h

    @property
    def group(self) -> int:
        """Query heads per key/value head: h / h_kv (query head j reads kv head j // group)."""
        return self.h // self.h_kv

    @property
    def d_kv(self) -> int:
        """Width of K and V: h_kv · d_head (SmolLM2-135M: 3 · 64 = 192, a third of d_model)."""
        return self.h_kv * self.d_head

    def kv_bytes_per_token(self, kv_heads: int | None = None, nbytes: int = 4) -> int:
        """What the key/value cache keeps for one token: a key and a value of d_head numbers of
        ``nbytes`` per kv head per layer, 2 · L · h_kv · d_head · nbytes (46,080 bytes for
        SmolLM2-135M in float32); ``kv_heads`` = h gives the cache without grouped-query
        attention."""
        heads = self.h_kv if kv_heads is None else kv_heads
        if heads < 1:
            raise ValueError(f"kv_heads must be at least 1, got {heads}")
        return 2 * self.n_layers * heads * self.d_head * nbytes

    def multiply_adds(self, n: int, past: int = 0, scored: int | None = None) -> int:
        """One forward of n new tokens after ``past`` cached ones (``core.budget``): per layer
        the Q, K, V and output projections, attention of h heads over past + n keys and the
        three SwiGLU matrices; then the head over ``scored`` positions (default: all n, and the
        last once more on its own when n > 1, as ``SmolLM2.forward`` scores it; 1 when only the
        last is scored, as generation does). RMSNorm, RoPE and SiLU add a few per cent, left
        out."""
        if scored is None:
            scored = n + 1 if n > 1 else n
        d, f, kv = self.d_model, self.d_ff, self.d_kv
        dense = (
            2 * linear_multiply_adds(n, d, d)
            + 2 * linear_multiply_adds(n, d, kv)
            + 3 * linear_multiply_adds(n, d, f)
        )
        attention = attention_multiply_adds(self.h, n, past + n, self.d_head, self.d_head)
        head = linear_multiply_adds(scored, d, self.vocab_size)
        return self.n_layers * (dense + attention) + head

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, Any], vocab_size: int) -> SmolLM2Config:
        """The config a GGUF file's metadata describes; ``vocab_size`` is the length of its
        ``tokenizer.ggml.tokens`` (``llama.vocab_size``, when present, must agree). Raises
        ConfigError naming every missing or wrong key."""
        arch = metadata.get("general.architecture")
        if arch != ARCHITECTURE:
            raise ConfigError(
                f"general.architecture = {arch!r} (this code runs {ARCHITECTURE!r} only)"
            )
        problems: list[str] = []
        values: dict[str, Any] = {}
        for name, key in INT_KEYS.items():
            value = metadata.get(f"{arch}.{key}")
            if not (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
                problems.append(f"{arch}.{key} = {value!r} (expected a whole number ≥ 1)")
            else:
                values[name] = value
        for name, key in REAL_KEYS.items():
            real: Any = metadata.get(f"{arch}.{key}")
            ok = isinstance(real, int | float) and not isinstance(real, bool)
            if not (ok and math.isfinite(real) and real > 0):
                problems.append(f"{arch}.{key} = {real!r} (expected a positive number)")
            else:
                values[name] = float(real)
        declared = metadata.get(f"{arch}.vocab_size", vocab_size)
        if declared != vocab_size:
            problems.append(
                f"{arch}.vocab_size = {declared!r} but tokenizer.ggml.tokens has {vocab_size}"
            )
        scaling = metadata.get(f"{arch}.rope.scaling.type", "none")
        if scaling != "none":
            problems.append(f"{arch}.rope.scaling.type = {scaling!r} (this code runs 'none' only)")
        if problems:
            raise ConfigError(", ".join(problems))
        config = cls(vocab_size=vocab_size, **values)
        if config.d_model % config.h:
            problems.append(
                f"{arch}.attention.head_count = {config.h} does not divide "
                f"{arch}.embedding_length = {config.d_model} (each head needs d_model / h columns)"
            )
        elif config.d_head % 2:
            problems.append(f"d_head = {config.d_head} is odd (RoPE turns pairs of columns)")
        if config.h % config.h_kv:
            problems.append(
                f"{arch}.attention.head_count_kv = {config.h_kv} does not divide "
                f"{arch}.attention.head_count = {config.h} (grouped-query attention shares each "
                "key/value head among h / h_kv query heads)"
            )
        rotary = metadata.get(f"{arch}.rope.dimension_count", config.d_head)
        if not problems and rotary != config.d_head:
            problems.append(
                f"{arch}.rope.dimension_count = {rotary!r} but d_head = {config.d_head} (this "
                "code turns every column of a head)"
            )
        if problems:
            raise ConfigError(", ".join(problems))
        return config

    def tensor_shapes(self) -> dict[str, tuple[int, ...]]:
        """Every tensor the forward reads, by GGUF name, with its logical shape in PyTorch's
        order: [out, in] for a matrix (GGUF lists the dimensions the other way round)."""
        d, f, kv, q = self.d_model, self.d_ff, self.d_kv, self.h * self.d_head
        shapes: dict[str, tuple[int, ...]] = {
            "token_embd.weight": (self.vocab_size, d),
            "output_norm.weight": (d,),
        }
        if not self.tied_output:
            shapes["output.weight"] = (self.vocab_size, d)
        per_layer = {
            "attn_norm.weight": (d,),
            "attn_q.weight": (q, d),
            "attn_k.weight": (kv, d),
            "attn_v.weight": (kv, d),
            "attn_output.weight": (d, q),
            "ffn_norm.weight": (d,),
            "ffn_gate.weight": (f, d),
            "ffn_up.weight": (f, d),
            "ffn_down.weight": (d, f),
        }
        for i in range(self.n_layers):
            for name, shape in per_layer.items():
                shapes[f"blk.{i}.{name}"] = shape
        return shapes

    def describe(self) -> str:
        """The sizes in a message: 'L = 30 layers, h = 9 query / 3 key-value heads, …'."""
        return (
            f"L = {self.n_layers} layers, h = {self.h} query / {self.h_kv} key-value heads of "
            f"{self.d_head}, d_model {self.d_model}, d_ff {self.d_ff}, vocabulary "
            f"{self.vocab_size}, context {self.context_length}"
        )


#: SmolLM2-135M-Instruct as its GGUF file describes it (the tests check the file says so).
SMOLLM2_135M = SmolLM2Config(
    n_layers=30,
    d_model=576,
    d_ff=1536,
    h=9,
    h_kv=3,
    context_length=8192,
    vocab_size=49152,
    eps=1e-5,
    rope_base=100000.0,
)
