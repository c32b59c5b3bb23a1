"""The key/value cache: every layer's keys and values of the positions seen so far.

A decoder's token at position t attends to the keys and values of positions 0 … t, and those of
the earlier positions never change (each is computed from its own token and the tokens before
it). So a generating model keeps them: a new token costs one row of each product and one row of
attention instead of a whole forward over the sequence. SmolLM2 keeps h_kv = 3 key/value heads,
not 9, so its cache is a third of a multi-head model's: per token 30 layers · 2 · 3 · 64 float32
= 46 KB.

The arrays grow by doubling (amortised O(1) a token), so a short generation does not reserve
the whole context (8192 positions would be 377 MB).
"""

from __future__ import annotations

import numpy as np


class LayerCache:
    """One layer's keys and values: [h_kv, positions, d_head] each (keys after RoPE)."""

    def __init__(self, h_kv: int, d_head: int, capacity: int = 64) -> None:
        self.k = np.zeros((h_kv, capacity, d_head), np.float32)
        self.v = np.zeros((h_kv, capacity, d_head), np.float32)
        self.length = 0

    def append(self, k: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Add the n new positions' k, v [h_kv, n, d_head]; return every position's keys and
        values so far, [h_kv, length, d_head] each (views of the cache)."""
        n = k.shape[-2]
        end = self.length + n
        if end > self.k.shape[1]:
            capacity = max(end, 2 * self.k.shape[1])
            for name in ("k", "v"):
                old = getattr(self, name)
                grown = np.zeros((old.shape[0], capacity, old.shape[2]), np.float32)
                grown[:, : self.length] = old[:, : self.length]
                setattr(self, name, grown)
        self.k[:, self.length : end] = k
        self.v[:, self.length : end] = v
        self.length = end
        return self.k[:, :end], self.v[:, :end]

    def truncate(self, length: int) -> None:
        """Forget every position from ``length`` on (the reserve is kept)."""
        if not 0 <= length <= self.length:
            raise ValueError(f"length must be in 0 … {self.length}, got {length}")
        self.length = length


class KVCache:
    """The cache of a whole decoder: one LayerCache per layer, all at the same length."""

    def __init__(self, n_layers: int, h_kv: int, d_head: int) -> None:
        self.layers = [LayerCache(h_kv, d_head) for _ in range(n_layers)]

    @property
    def length(self) -> int:
        """Positions cached: the position the next token takes."""
        return self.layers[0].length

    def truncate(self, length: int) -> None:
        """Forget every position from ``length`` on, in every layer: the cache as it was when
        it held ``length`` positions (what the speed race uses to time one step again and
        again at the same place)."""
        for layer in self.layers:
            layer.truncate(length)

    @property
    def nbytes(self) -> int:
        """Bytes the cached positions take (not the reserve)."""
        return sum(2 * c.k[:, : c.length].nbytes for c in self.layers)
