"""MiniLMConfig: the numbers that size a BERT encoder, read from its ``config.json``.

Every size the forward uses comes from here (the number of layers L, the heads h, d_model, d_ff,
LayerNorm's ε, the vocabulary and the number of positions), and so does every tensor shape the
loader checks (``tensor_shapes``). The defaults are all-MiniLM-L6-v2's own ``config.json``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from transformer_walk.core.budget import attention_multiply_adds, linear_multiply_adds
from transformer_walk.models.errors import ConfigError

#: config.json's name of each MiniLMConfig field.
CONFIG_KEYS = {
    "vocab_size": "vocab_size",
    "max_positions": "max_position_embeddings",
    "type_vocab_size": "type_vocab_size",
    "n_layers": "num_hidden_layers",
    "h": "num_attention_heads",
    "d_model": "hidden_size",
    "d_ff": "intermediate_size",
    "eps": "layer_norm_eps",
}
#: Choices of config.json that the forward hard-codes: another value would need other code.
FIXED_CHOICES = {"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute"}


@dataclass(frozen=True)
class MiniLMConfig:
    """A BERT encoder's sizes, in the articles' notation."""

    vocab_size: int = 30522  # rows of the token embedding table
    max_positions: int = 512  # rows of the learned position table: the longest input
    type_vocab_size: int = 2  # segment (token type) embeddings; only segment 0 is used
    n_layers: int = 6  # L encoder layers
    h: int = 12  # attention heads
    d_model: int = 384  # width of every hidden state
    d_ff: int = 1536  # width of the feed-forward network's hidden layer
    eps: float = 1e-12  # LayerNorm's ε

    @property
    def d_k(self) -> int:
        """Width of one head: d_model / h."""
        return self.d_model // self.h

    def multiply_adds(self, n: int) -> int:
        """One forward pass over n tokens (``core.budget``): in each layer the Q, K, V and output
        projections (d_model → d_model), the FFN (d_model → d_ff → d_model) and attention over h
        heads of d_k. LayerNorm and GELU add a few per cent, left out."""
        d, f = self.d_model, self.d_ff
        dense = (
            4 * linear_multiply_adds(n, d, d)
            + linear_multiply_adds(n, d, f)
            + linear_multiply_adds(n, f, d)
        )
        return self.n_layers * (dense + attention_multiply_adds(self.h, n, n, self.d_k, self.d_k))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MiniLMConfig:
        """The config a parsed config.json describes. A key it lacks keeps all-MiniLM-L6-v2's
        value (as a missing file does); keys this code does not use are ignored. Raises
        ConfigError naming every wrong key."""
        problems = [
            f"{key} = {data[key]!r} (this code runs {value!r} only)"
            for key, value in FIXED_CHOICES.items()
            if key in data and data[key] != value
        ]
        values: dict[str, Any] = {}
        for field in fields(cls):
            key = CONFIG_KEYS[field.name]
            if key not in data:
                continue
            value = data[key]
            if field.name == "eps":
                # bool is an int in Python: reject it by name, or True would read as ε = 1.
                ok = isinstance(value, int | float) and not isinstance(value, bool)
                if not (ok and math.isfinite(value) and value > 0):
                    problems.append(f"{key} = {value!r} (expected a positive number)")
                    continue
                values[field.name] = float(value)
            else:
                if not (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
                    problems.append(f"{key} = {value!r} (expected a whole number ≥ 1)")
                    continue
                values[field.name] = value
        config = replace(cls(), **values)
        if config.d_model % config.h:
            problems.append(
                f"num_attention_heads = {config.h} does not divide hidden_size = "
                f"{config.d_model} (each head needs d_k = d_model / h columns)"
            )
        if problems:
            raise ConfigError(", ".join(problems))
        return config

    def tensor_shapes(self) -> dict[str, tuple[int, ...]]:
        """Every tensor the forward reads, by checkpoint key (without a ``bert.`` prefix), with
        the shape this config gives it. Linear weights keep PyTorch's [out, in] layout."""
        d, f = self.d_model, self.d_ff
        shapes: dict[str, tuple[int, ...]] = {
            "embeddings.word_embeddings.weight": (self.vocab_size, d),
            "embeddings.position_embeddings.weight": (self.max_positions, d),
            "embeddings.token_type_embeddings.weight": (self.type_vocab_size, d),
            "embeddings.LayerNorm.weight": (d,),
            "embeddings.LayerNorm.bias": (d,),
        }
        linears = {  # name → (out, in)
            "attention.self.query": (d, d),
            "attention.self.key": (d, d),
            "attention.self.value": (d, d),
            "attention.output.dense": (d, d),
            "intermediate.dense": (f, d),
            "output.dense": (d, f),
        }
        for i in range(self.n_layers):
            for name, (out, inp) in linears.items():
                shapes[f"encoder.layer.{i}.{name}.weight"] = (out, inp)
                shapes[f"encoder.layer.{i}.{name}.bias"] = (out,)
            for name in ("attention.output.LayerNorm", "output.LayerNorm"):
                shapes[f"encoder.layer.{i}.{name}.weight"] = (d,)
                shapes[f"encoder.layer.{i}.{name}.bias"] = (d,)
        return shapes

    def describe(self) -> str:
        """The sizes in a message: 'L = 6 layers, h = 12 heads, d_model 384, …'."""
        return (
            f"L = {self.n_layers} layers, h = {self.h} heads, d_model {self.d_model}, "
            f"d_ff {self.d_ff}, vocabulary {self.vocab_size}, {self.max_positions} positions"
        )


#: all-MiniLM-L6-v2, the model the app ships with.
CONFIG = MiniLMConfig()
