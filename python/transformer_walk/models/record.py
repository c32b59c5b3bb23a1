"""Where a module's forward leaves its intermediates: one ``Record`` for both real models.

Each model's ``trace.py`` names what a layer records (``LayerTrace`` …); its modules ``put``
those values into a Record as they compute them, so the trace is written by the code that
computes the output, not by a second copy of the math.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np


class Record:
    """A forward's intermediates by name. ``keep`` names what to hold (``run`` without a trace
    keeps only each layer's attention ``weights``: all of a SmolLM2 layer's intermediates for 512
    tokens are 25 MB); None holds everything. A module asks ``wants(name)`` before computing
    something only a record needs, such as the attention weights."""

    def __init__(self, keep: Collection[str] | None = None) -> None:
        self.keep = keep
        self.values: dict[str, np.ndarray] = {}

    def wants(self, name: str) -> bool:
        return self.keep is None or name in self.keep

    def put(self, **values: np.ndarray) -> None:
        self.values.update((name, v) for name, v in values.items() if self.wants(name))
