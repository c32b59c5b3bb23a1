"""Every backend has exactly the functions of ``core.backend.Backend``, with its parameters.

mypy checks each backend module against the Protocol where ``get_backend`` returns it (types,
kinds, defaults, keyword-only names), and ``mypy.stubtest`` checks rust_core's stub against the
binary. What mypy leaves out is checked here, at run time: the names of parameters that may be
passed by position (a protocol member's are not compared, so a renamed ``bias`` would pass the
lint and fail a caller's ``bias=...``), and each module's ``__all__`` against the Protocol's
members.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import pytest

from transformer_walk.core import get_backend
from transformer_walk.core.backend import KERNELS, Backend, missing_kernels

from conftest import BACKEND_NAMES

#: What rust_core exports beyond the kernels: the binary's own description.
RUST_EXTRAS = {"__version__", "simd_level"}


def parameters(
    function: Callable[..., object], *, method: bool = False
) -> list[tuple[str, str, bool]]:
    """(name, kind, has a default) of each parameter (``self`` left out of a method)."""
    params = list(inspect.signature(function).parameters.values())
    return [
        (p.name, p.kind.name, p.default is not inspect.Parameter.empty)
        for p in params[1 if method else 0 :]
    ]


def test_the_protocol_lists_the_kernels_of_docs_api() -> None:
    assert len(KERNELS) == len(set(KERNELS)) == 28
    assert {"linear", "attention", "quantized_linear", "set_num_threads", "on_this_thread"} <= set(
        KERNELS
    )
    assert {"attention_backward", "cross_entropy", "adamw_step"} <= set(KERNELS)


@pytest.mark.parametrize("name", BACKEND_NAMES)
def test_every_kernel_has_the_protocols_parameters(name: str) -> None:
    backend = get_backend(name)
    assert missing_kernels(backend) == []
    wrong = {
        kernel: (parameters(getattr(backend, kernel)), expected)
        for kernel in KERNELS
        if parameters(getattr(backend, kernel))
        != (expected := parameters(getattr(Backend, kernel), method=True))
    }
    assert not wrong, wrong


@pytest.mark.parametrize("name", BACKEND_NAMES)
def test_all_lists_the_protocols_members(name: str) -> None:
    exported = vars(get_backend(name))["__all__"]
    extras = RUST_EXTRAS if name == "rust" else set()
    assert sorted(exported) == sorted({*KERNELS, *extras})


def test_a_module_without_the_kernels_is_reported_missing() -> None:
    import types

    partial = types.SimpleNamespace(softmax=lambda x, axis=-1: x)
    assert missing_kernels(partial) == [k for k in KERNELS if k != "softmax"]
