"""Switching parts of SmolLM2 off: a head's output set to 0 before W^O, or a layer's MLP output
left out of the residual stream. The forward reads a ``SwitchedOff`` layer by layer; with
nothing switched off there is none, and the forward is, bit for bit, the plain one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from transformer_walk.models.checks import is_int


def _index(value: object, size: int, what: str) -> int:
    """``value`` as an index below ``size``: TypeError when not an int, IndexError outside."""
    if not is_int(value):
        raise TypeError(f"{what} must be an int, got {type(value).__name__}")
    index = int(value)
    if not 0 <= index < size:
        raise IndexError(f"{what} {index} is outside 0 … {size - 1}")
    return index


@dataclass(frozen=True)
class SwitchedOff:
    """The heads ((layer, head), 0-based) and the layers' MLPs a forward switches off."""

    heads: frozenset[tuple[int, int]]
    mlps: frozenset[int]

    @classmethod
    def check(
        cls, heads: Iterable[object], mlps: Iterable[object], layers: int, h: int
    ) -> SwitchedOff | None:
        """The checked sets; None when both are empty. TypeError for a pair that is not two
        ints, IndexError for a layer or head the model does not have."""
        if isinstance(heads, str | bytes) or isinstance(mlps, str | bytes):
            raise TypeError("ablate takes (layer, head) pairs and ablate_mlp layer numbers")
        pairs = set()
        for pair in heads:
            if isinstance(pair, str | bytes) or not isinstance(pair, Iterable):
                raise TypeError(f"ablate takes (layer, head) pairs, got {pair!r}")
            items = tuple(pair)
            if len(items) != 2:
                raise TypeError(f"ablate takes (layer, head) pairs, got {pair!r}")
            pairs.add((_index(items[0], layers, "layer"), _index(items[1], h, "head")))
        layers_off = {_index(layer, layers, "ablate_mlp layer") for layer in mlps}
        if not pairs and not layers_off:
            return None
        return cls(frozenset(pairs), frozenset(layers_off))

    def of_layer(self, layer: int) -> tuple[tuple[int, ...], bool]:
        """Layer ``layer``'s heads switched off (sorted) and whether its MLP is."""
        heads = tuple(sorted(head for at, head in self.heads if at == layer))
        return heads, layer in self.mlps
