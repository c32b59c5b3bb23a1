"""dequantize and quantized_linear over GGML blocks (Q4_1, Q8_0): every backend against the `gguf`
package's own dequantization (bit for bit), x rounded to 16 bits per block as written out by
hand, the product against x̂ @ dequantize(...).T within a bound any order of summation meets,
and rust_core's tiles and pool (1 and 2 threads, the same bits). The error messages are in
test_errors.py."""

from __future__ import annotations

import numpy as np
import pytest
from gguf import GGMLQuantizationType
from gguf.quants import dequantize as gguf_dequantize

from transformer_walk.core import get_backend

from conftest import BACKEND_NAMES, HAVE_RUST
from quant_support import rounded_by_hand

requires_rust = pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")

KINDS = {"q4_1": (GGMLQuantizationType.Q4_1, 20), "q8_0": (GGMLQuantizationType.Q8_0, 34)}

#: f16 scales worth meeting: ordinary, negative, subnormal (the smallest, and one with a large
#: fraction), zero and minus zero, the largest finite half.
SCALES = np.array(
    [0.0123, -0.0123, 6e-8, -6e-8, 3.0e-5, 0.0, -0.0, 65504.0, 1.0, -2.5], dtype=np.float16
)


def random_blocks(kind: str, rows: int, k: int, seed: int, specials: bool = False) -> np.ndarray:
    """[rows, bytes per row] of random blocks (as GGUFReader gives a quantized tensor's data),
    their scales (and Q4_1's minimums) drawn from SCALES, or any 16 bits with ``specials``
    (inf and NaN halves included)."""
    bytes_per_block = KINDS[kind][1]
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 256, size=(rows, k // 32 * bytes_per_block), dtype=np.uint8)
    blocks = data.reshape(-1, bytes_per_block)  # (rows, bytes) → (blocks, bytes per block)
    if not specials:
        for at in (0, 2) if kind == "q4_1" else (0,):
            halves = rng.choice(SCALES, size=len(blocks))
            blocks[:, at : at + 2] = halves.view(np.uint8).reshape(-1, 2)
    return data


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("specials", [False, True])
def test_dequantize_equals_gguf_bit_for_bit(backend, kind, specials):
    rows, k = (3, 64) if backend == "python" else (50, 576)
    data = random_blocks(kind, rows, k, seed=rows + len(kind), specials=specials)
    with np.errstate(all="ignore"):  # gguf multiplies inf and NaN scales, as it should
        want = gguf_dequantize(data, KINDS[kind][0])
    assert want.shape == (rows, k) and want.dtype == np.float32
    got = get_backend(backend).dequantize(data, kind, (rows, k))
    assert got.dtype == np.float32 and got.shape == (rows, k) and got.flags.c_contiguous
    np.testing.assert_array_equal(
        got.view(np.uint32)[~np.isnan(want)], want.view(np.uint32)[~np.isnan(want)]
    )  # signed zeros too
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    if not specials:
        assert np.isfinite(got).all()


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_dequantize_reads_any_array_shape_and_layout(backend):
    """The blocks are bytes in C order whatever array holds them: flat, [rows, bytes], a
    non-contiguous view; and the logical shape may have any number of dimensions."""
    be = get_backend(backend)
    data = random_blocks("q8_0", 4, 64, seed=5)  # 4 × 2 blocks
    want = be.dequantize(data, "q8_0", (4, 64))
    np.testing.assert_array_equal(
        be.dequantize(data.reshape(-1), "q8_0", [2, 2, 64]).reshape(4, 64), want
    )
    wide = np.zeros((4, 2 * data.shape[1]), np.uint8)
    wide[:, ::2] = data
    np.testing.assert_array_equal(be.dequantize(wide[:, ::2], "q8_0", (4, 64)), want)
    np.testing.assert_array_equal(be.dequantize(data, "q8_0", (256,)), want.reshape(-1))


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_blocks_by_hand(backend):
    """One block of each format written out: Q8_0 d · q; Q4_1 d · nibble + m, low nibbles first."""
    be = get_backend(backend)
    q8 = np.concatenate(
        [
            np.array([0.5], np.float16).view(np.uint8),
            np.arange(-16, 16, dtype=np.int8).view(np.uint8),
        ]
    )
    np.testing.assert_array_equal(be.dequantize(q8, "q8_0", (32,)), 0.5 * np.arange(-16, 16))
    nibbles = (np.arange(16) | ((15 - np.arange(16)) << 4)).astype(np.uint8)
    q4 = np.concatenate([np.array([2.0, -1.0], np.float16).view(np.uint8), nibbles])
    want = np.concatenate([2.0 * np.arange(16) - 1, 2.0 * (15 - np.arange(16)) - 1])
    np.testing.assert_array_equal(be.dequantize(q4, "q4_1", (1, 32)), [want])


def identity_q8_0(k: int) -> np.ndarray:
    """The [k, k] identity as Q8_0 blocks (d = 1, q = 1 on the diagonal): x · Iᵀ = x̂ exactly
    (for a finite x: a NaN anywhere in a row makes all its outputs NaN)."""
    blocks = np.zeros((k, k // 32, 34), np.uint8)  # (rows, blocks per row, bytes)
    blocks[:, :, :2] = np.array([1.0], np.float16).view(np.uint8)
    for i in range(k):
        blocks[i, i // 32, 2 + i % 32] = 1
    return blocks.reshape(k, -1)


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_x_is_rounded_to_16_bits_per_block(backend):
    """Through the identity: ties to even, the largest value exact, a small negative value to +0,
    a block of zeros, a NaN or an infinity making its block NaN (no other), a subnormal d clamped
    to ±32767 steps, and random blocks of very different sizes, each within half its step; the
    same bits for 12 rows at once (rust_core's GEMM path) and row by row (its integer dots)."""
    be = get_backend(backend)
    x = np.zeros((6, 32), np.float32)
    x[0, :6] = [32767.0, 2.5, -3.5, 0.49, -126.5, -0.3]  # d = 1
    x[1, 7] = np.nan
    x[2, 0] = -np.inf
    x[4, 0] = np.float32(45874 * 2.0**-149)  # d rounds to 2⁻¹⁴⁹: x / d = 45874 > 32767
    x[5] = np.random.default_rng(1).standard_normal(32) * 1e-3
    x = np.concatenate([x, np.random.default_rng(2).standard_normal((6, 32)).astype(np.float32)])
    x = x.reshape(3, 4, 32)  # a block a row: a NaN spreads over every output of its row
    got = be.quantized_linear(x, identity_q8_0(32), "q8_0", (32, 32))
    want = rounded_by_hand(x)
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))  # +0, not −0
    rows = [
        be.quantized_linear(row, identity_q8_0(32), "q8_0", (32, 32)) for row in x.reshape(-1, 32)
    ]
    np.testing.assert_array_equal(
        np.stack(rows).view(np.uint32), want.reshape(-1, 32).view(np.uint32)
    )
    blocks = got.reshape(-1, 32)
    np.testing.assert_array_equal(blocks[0, :6], [32767.0, 2.0, -4.0, 0.0, -126.0, 0.0])
    assert np.isnan(blocks[1:3]).all() and not np.isnan(blocks[3:]).any()
    assert (blocks[3] == 0).all() and blocks[4, 0] == np.float32(32767 * 2.0**-149)
    for b in (5, 6, 7, 8, 9, 10, 11):
        step = np.abs(x.reshape(-1, 32)[b]).max() / 32767
        assert np.all(np.abs(blocks[b] - x.reshape(-1, 32)[b]) <= 0.5 * step * (1 + 1e-6))


def weight_reach(data: np.ndarray, kind: str) -> np.ndarray:
    """|w| as the contract's bound counts it: |d · q| + |m| for Q4_1 (the integer dots sum a
    block's d Σ q x and m Σ x apart, and those two parts may cancel), |d · q| for Q8_0."""
    unsigned = data.copy().reshape(-1, KINDS[kind][1])  # (blocks, bytes per block)
    unsigned[:, 1] &= 0x7F  # d's sign bit
    if kind == "q4_1":
        unsigned[:, 3] &= 0x7F  # m's sign bit
    return np.abs(gguf_dequantize(unsigned.reshape(data.shape), KINDS[kind][0]))


def product_bound(x: np.ndarray, w_reach: np.ndarray) -> np.ndarray:
    """d_in · ε₃₂ · Σ_i |x_i| |w_i|: the worst case of float32 rounding for any order of the sum."""
    return x.shape[-1] * np.finfo(np.float32).eps * (np.abs(x).astype(np.float64) @ w_reach.T)


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("lead", "d_in", "d_out"),
    [
        ((), 32, 1),
        ((1,), 64, 3),
        ((3,), 96, 33),
        ((4,), 32, 64),
        ((5,), 64, 70),
        ((2, 35), 96, 5),
        ((0,), 32, 4),
        ((2,), 64, 0),
    ],
)
def test_quantized_linear_is_x_times_the_dequantized_weight(backend, kind, lead, d_in, d_out):
    """x̂ · Ŵᵀ. Rows: one, a tile of 4, 4 + a remainder, more than a 64-row block; columns across
    parts of W's rows. Tolerance relative to Σ|x̂||w|: a wrong nibble, scale or row is ~1/d_in
    of it."""
    if backend == "python" and np.prod(lead) * d_in * d_out > 20_000:
        pytest.skip("pure Python: small sizes only")
    data = random_blocks(kind, d_out, d_in, seed=d_in + d_out)
    # gguf cannot reshape zero blocks; an empty weight is all there is to it then.
    w = gguf_dequantize(data, KINDS[kind][0]) if d_out else np.zeros((0, d_in), np.float32)
    x = np.random.default_rng(d_out).standard_normal((*lead, d_in)).astype(np.float32)
    got = get_backend(backend).quantized_linear(x, data, kind, (d_out, d_in))
    assert got.dtype == np.float32 and got.shape == (*lead, d_out) and got.flags.c_contiguous
    x_hat = rounded_by_hand(x) if x.size else x
    exact = x_hat.astype(np.float64) @ w.astype(np.float64).T
    bound = product_bound(x_hat, weight_reach(data, kind) if d_out else w)
    assert np.all(np.abs(got - exact) <= bound), np.max(np.abs(got - exact) - bound)
    assert np.all(np.abs(got - x_hat @ w.T) <= 2 * bound)  # NumPy's float32 product: its own error


@requires_rust
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("rows", [1, 4, 7, 130])
def test_rust_pool_gives_the_same_bits(kind, rows):
    """SmolLM2's sizes: one token (decoding), a few, or a prompt through [1536, 576]; 1 and 2
    threads. Up to 4 rows each row's dots are its own (the same bits alone or together); more
    rows go through a GEMM of dequantized tiles, which sums in its own order."""
    rust = get_backend("rust")
    data = random_blocks(kind, 1536, 576, seed=rows)
    x = np.random.default_rng(rows).standard_normal((rows, 576)).astype(np.float32)
    before = rust.get_num_threads()
    try:
        outs = []
        for threads in (1, 2):
            rust.set_num_threads(threads)
            outs.append(rust.quantized_linear(x, data, kind, (1536, 576)))
    finally:
        rust.set_num_threads(before)
    np.testing.assert_array_equal(outs[0], outs[1])
    w = gguf_dequantize(data, KINDS[kind][0])
    x_hat = rounded_by_hand(x)
    exact = x_hat.astype(np.float64) @ w.astype(np.float64).T
    reach = weight_reach(data, kind)
    assert np.all(np.abs(outs[0] - exact) <= product_bound(x_hat, reach))
    alone = rust.quantized_linear(x[-1], data, kind, (1536, 576))
    if rows <= 4:  # the few-rows path: a row's dots do not depend on the others
        np.testing.assert_array_equal(alone, outs[0][-1])
    else:
        assert np.all(np.abs(alone - exact[-1]) <= product_bound(x_hat[-1:], reach)[0])


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize("rows", [1, 5])
def test_cancelling_q4_1_parts_stay_within_the_bound(backend, rows):
    """d = 1, m = −15 + 1/128 and every nibble 15: each weight is 1/128, the difference of two
    terms near 15 that the integer dots sum apart; within the bound that counts both."""
    block = np.zeros(20, np.uint8)
    block[:4] = np.array([1.0, -15 + 1 / 128], np.float16).view(np.uint8)
    block[4:] = 0xFF
    data = np.tile(block, (3, 2))  # 3 rows of W, 2 blocks each: [3, 40]
    x = (1 + np.arange(rows * 64) % 7 / 3).astype(np.float32).reshape(rows, 64)
    got = get_backend(backend).quantized_linear(x, data, "q4_1", (3, 64))
    x_hat = rounded_by_hand(x)
    w = gguf_dequantize(data, GGMLQuantizationType.Q4_1)
    assert (w == 1 / 128).all()
    exact = x_hat.astype(np.float64) @ w.astype(np.float64).T
    assert np.all(np.abs(got - exact) <= product_bound(x_hat, weight_reach(data, "q4_1")))


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize("rows", [1, 5])
@pytest.mark.parametrize("kind", KINDS)
def test_an_infinite_or_nan_scale_gives_no_finite_result(backend, rows, kind):
    """The weights such a scale makes are inf or NaN (inf · 0 where a value is 0): every output
    they reach is not finite, on every path — inf or NaN, which may differ between paths."""
    for scale in (np.inf, -np.inf, np.nan):
        data = random_blocks(kind, 2, 64, seed=4)  # 2 rows of W
        data[0, :2] = np.array([scale], np.float16).view(np.uint8)  # row 0, block 0: d
        x = np.random.default_rng(5).standard_normal((rows, 64)).astype(np.float32)
        got = get_backend(backend).quantized_linear(x, data, kind, (2, 64))
        assert not np.isfinite(got[:, 0]).any() and np.isfinite(got[:, 1]).all(), (scale, got)


@requires_rust
def test_rust_float32_x_in_any_layout():
    rust = get_backend("rust")
    data = random_blocks("q4_1", 8, 64, seed=9)
    x = np.random.default_rng(9).standard_normal((64, 6)).astype(np.float32).T  # (6, 64), F order
    want = rust.quantized_linear(np.ascontiguousarray(x), data, "q4_1", (8, 64))
    np.testing.assert_array_equal(rust.quantized_linear(x, data, "q4_1", (8, 64)), want)
    swapped = np.ascontiguousarray(x).astype(">f4")  # also named float32: accepted
    np.testing.assert_array_equal(rust.quantized_linear(swapped, data, "q4_1", (8, 64)), want)
