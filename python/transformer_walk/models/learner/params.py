"""The learner's configuration and its parameters: names, shapes and the seeded initialisation.

Weights are in PyTorch's [out, in] layout (``linear``'s), so y = x·Wᵀ + b. The output layer
``unembed.weight`` is separate from ``token_embedding`` (not tied): the two tables can then be
shown apart, the one that reads tokens and the one that writes them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: The standard deviation of every weight matrix and embedding at initialisation (GPT-2's).
INIT_STD = 0.02


@dataclass(frozen=True)
class LearnerConfig:
    """A decoder-only, Pre-LN, causal Transformer with learned positions.

    ``ffn=False`` drops each block's feed-forward sub-layer (and its LayerNorm): an
    attention-only model, where what the heads do is all there is to see.
    """

    d_model: int = 64
    h: int = 4
    d_ff: int = 256
    layers: int = 2
    max_positions: int = 32
    ffn: bool = True
    weight_decay: float = 0.01

    @property
    def d_k(self) -> int:
        return self.d_model // self.h

    def validate(self) -> None:
        sizes = {
            "d_model": self.d_model,
            "h": self.h,
            "d_ff": self.d_ff,
            "layers": self.layers,
            "max_positions": self.max_positions,
        }
        for name, value in sizes.items():
            if value < 1:
                raise ValueError(f"{name} must be at least 1, got {value!r}")
        if self.d_model % self.h:
            raise ValueError(
                f"h = {self.h} does not divide d_model = {self.d_model}: each head needs "
                f"d_k = d_model / h columns, a whole number"
            )
        if not 0 <= self.weight_decay < float("inf"):
            raise ValueError(
                f"weight_decay must be a finite number >= 0, got {self.weight_decay!r}"
            )


def layer_shapes(config: LearnerConfig, layer: int) -> dict[str, tuple[int, ...]]:
    """One block's parameters, in the order the forward uses them."""
    d, f, p = config.d_model, config.d_ff, f"layers.{layer}."
    shapes: dict[str, tuple[int, ...]] = {f"{p}ln_1.gamma": (d,), f"{p}ln_1.beta": (d,)}
    for w in "qkvo":
        shapes[f"{p}attn.w_{w}"] = (d, d)
        shapes[f"{p}attn.b_{w}"] = (d,)
    if config.ffn:
        shapes |= {
            f"{p}ln_2.gamma": (d,),
            f"{p}ln_2.beta": (d,),
            f"{p}ffn.w_1": (f, d),
            f"{p}ffn.b_1": (f,),
            f"{p}ffn.w_2": (d, f),
            f"{p}ffn.b_2": (d,),
        }
    return shapes


def param_shapes(config: LearnerConfig, vocab_size: int) -> dict[str, tuple[int, ...]]:
    """Every parameter's name and shape, in the order of the forward (and of the seeded draws)."""
    d = config.d_model
    shapes: dict[str, tuple[int, ...]] = {
        "token_embedding": (vocab_size, d),
        "position_embedding": (config.max_positions, d),
    }
    for layer in range(config.layers):
        shapes |= layer_shapes(config, layer)
    shapes |= {"ln_f.gamma": (d,), "ln_f.beta": (d,), "unembed.weight": (vocab_size, d)}
    return shapes


def init_params(config: LearnerConfig, vocab_size: int, seed: int) -> dict[str, np.ndarray]:
    """Seeded float32 parameters: LayerNorm gains 1, biases and shifts 0, everything else drawn
    from N(0, INIT_STD²) in ``param_shapes``' order."""
    rng = np.random.default_rng(seed)
    params: dict[str, np.ndarray] = {}
    for name, shape in param_shapes(config, vocab_size).items():
        if name.endswith(".gamma"):
            params[name] = np.ones(shape, np.float32)
        elif name.endswith(".beta") or ".b_" in name:
            params[name] = np.zeros(shape, np.float32)
        else:
            params[name] = rng.normal(0.0, INIT_STD, shape).astype(np.float32)
    return params


def checked_params(
    init: dict[str, np.ndarray], config: LearnerConfig, vocab_size: int
) -> dict[str, np.ndarray]:
    """Fresh C-contiguous float32 copies of ``init`` after checking it has exactly the learner's
    names and shapes (the caller's arrays are never updated in place)."""
    shapes = param_shapes(config, vocab_size)
    missing = [name for name in shapes if name not in init]
    extra = [name for name in init if name not in shapes]
    if missing or extra:
        raise ValueError(f"init does not match the model: missing {missing}, unexpected {extra}")
    params = {}
    for name, shape in shapes.items():
        array = np.asarray(init[name])
        if array.dtype.kind != "f":
            raise TypeError(f"init[{name!r}] has dtype {array.dtype.name}; expected a float dtype")
        if array.shape != shape:
            raise ValueError(f"init[{name!r}] has shape {array.shape}; expected {shape}")
        params[name] = np.array(array, dtype=np.float32, order="C")
    return params
