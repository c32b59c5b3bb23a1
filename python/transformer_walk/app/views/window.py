"""Which tokens a chart of a long sentence shows: one window of them, the same on every page."""

from __future__ import annotations


def window(n: int, start: int, size: int) -> tuple[int, int]:
    """[start, stop) of at most ``size`` of n positions, moved back inside [0, n) when ``start``
    is out of range or the window would run past n."""
    size = max(1, min(size, n))
    start = max(0, min(start, n - size))
    return (start, start + size)


def window_around(n: int, centre: int, size: int) -> tuple[int, int]:
    """``window`` of ``size`` positions with ``centre`` as near its middle as the ends allow."""
    return window(n, centre - size // 2, size)
