//! GGML's quantized blocks, Q8_0 and Q4_1: the checks of `dequantize` / `quantized_linear` and
//! the dequantization itself.
//!
//! A block holds 32 consecutive values of a row (along the last axis), little-endian as GGUF
//! files store them:
//!
//! - Q8_0, 34 bytes: an f16 scale d, then 32 int8 q; value_j = d · q_j.
//! - Q4_1, 20 bytes: an f16 scale d, an f16 minimum m, then 16 bytes qs of two 4-bit values each;
//!   value_j = d · (qs[j] & 0xF) + m for j < 16 and d · (qs[j − 16] >> 4) + m for j ≥ 16.
//!
//! d · q is exact in float32 (an 11-bit significand times an integer of at most 8 bits), so the
//! values equal those of `gguf.quants.dequantize` bit for bit, however d · q + m is evaluated
//! (a fused multiply-add rounds once, like the separate add).

use rayon::prelude::*;

use crate::error::{fmt_shape, CoreError, Result};
use crate::runtime::threads::{in_pool, PARALLEL_MIN_WORK};

pub mod qlinear;
pub mod round16;

/// Values per block, in every format here.
pub const BLOCK: usize = 32;

/// One block format: its size and how to turn its bytes into 32 float32 values.
pub trait BlockFormat: Copy + Send + Sync + 'static {
    /// Bytes per block.
    const BYTES: usize;
    /// The 32 values of `block` (`BYTES` long) into `out`. `FUSED` evaluates d · q + m with a
    /// fused multiply-add (for code compiled with FMA), which gives the same, exact, values.
    fn dequantize<const FUSED: bool>(block: &[u8], out: &mut [f32; BLOCK]);
}

/// Q8_0: f16 d, 32 × int8.
#[derive(Clone, Copy, Debug)]
pub struct Q8_0;

/// Q4_1: f16 d, f16 m, 16 bytes of nibbles.
#[derive(Clone, Copy, Debug)]
pub struct Q4_1;

impl BlockFormat for Q8_0 {
    const BYTES: usize = 34;

    #[inline(always)]
    fn dequantize<const FUSED: bool>(block: &[u8], out: &mut [f32; BLOCK]) {
        let d = f16_to_f32(u16::from_le_bytes([block[0], block[1]]));
        let qs: &[u8; BLOCK] = block[2..34].try_into().expect("a Q8_0 block has 34 bytes");
        for j in 0..BLOCK {
            out[j] = d * f32::from(qs[j] as i8);
        }
    }
}

impl BlockFormat for Q4_1 {
    const BYTES: usize = 20;

    #[inline(always)]
    fn dequantize<const FUSED: bool>(block: &[u8], out: &mut [f32; BLOCK]) {
        let d = f16_to_f32(u16::from_le_bytes([block[0], block[1]]));
        let m = f16_to_f32(u16::from_le_bytes([block[2], block[3]]));
        let qs: &[u8; 16] = block[4..20].try_into().expect("a Q4_1 block has 20 bytes");
        let value = |q: u8| {
            let q = f32::from(q);
            if FUSED {
                d.mul_add(q, m)
            } else {
                d * q + m
            }
        };
        for j in 0..16 {
            out[j] = value(qs[j] & 0x0F);
            out[j + 16] = value(qs[j] >> 4);
        }
    }
}

/// The formats a caller may name, as `kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Q4_1,
    Q8_0,
}

/// The names `Kind::parse` accepts, as E31 lists them.
pub const KIND_NAMES: &str = "'q4_1', 'q8_0'";

impl Kind {
    /// The format called `name` ("q4_1" or "q8_0", as `gguf` spells them in lower case).
    pub fn parse(name: &str) -> Option<Kind> {
        match name {
            "q4_1" => Some(Kind::Q4_1),
            "q8_0" => Some(Kind::Q8_0),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Q4_1 => "q4_1",
            Kind::Q8_0 => "q8_0",
        }
    }

    /// Bytes per block of 32 values.
    pub fn block_bytes(self) -> usize {
        match self {
            Kind::Q4_1 => Q4_1::BYTES,
            Kind::Q8_0 => Q8_0::BYTES,
        }
    }
}

/// E31, for a `kind` that is not one of `KIND_NAMES`; `repr` is Python's `repr(kind)`.
pub fn kind_error(repr: &str) -> CoreError {
    CoreError::Value(format!("kind must be one of {KIND_NAMES}, got {repr}"))
}

/// An IEEE half-precision number (its bits) as float32, exactly: every f16 is a float32.
/// Subnormal scales (|d| < 2^−14) occur in real files for rows of tiny weights.
#[inline(always)]
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from((h >> 10) & 0x1F);
    let man = u32::from(h & 0x03FF);
    let bits = match exp {
        0 if man == 0 => sign, // ±0
        0 => {
            // Subnormal: man · 2^−24, exact in float32.
            let v = man as f32 * (1.0 / 16_777_216.0);
            return if sign != 0 { -v } else { v };
        }
        31 => sign | 0x7F80_0000 | (man << 13), // ±inf, or NaN with its payload
        _ => sign | ((exp + 112) << 23) | (man << 13),
    };
    f32::from_bits(bits)
}

/// A shape as Python writes the tuple (negative entries included).
fn fmt_signed(shape: &[i64]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Check the logical `shape` of quantized data (E33, E34): `ndim` Some(2) for `quantized_linear`'s
/// (out, in), None for `dequantize`'s (..., k). Returns it as sizes.
pub fn check_shape(shape: &[i64], ndim: Option<usize>) -> Result<Vec<usize>> {
    match ndim {
        Some(2) if shape.len() != 2 => {
            return Err(CoreError::Value(format!(
                "shape must be 2-D (out, in), got {}",
                fmt_signed(shape)
            )))
        }
        _ if shape.is_empty() => {
            return Err(CoreError::Value(
                "shape must have at least 1 dimension (..., k), got ()".to_string(),
            ))
        }
        _ => {}
    }
    if shape.iter().any(|&d| d < 0) {
        return Err(CoreError::Value(format!(
            "shape must not have negative dimensions, got {}",
            fmt_signed(shape)
        )));
    }
    let sizes: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let k = sizes[sizes.len() - 1];
    if !k.is_multiple_of(BLOCK) {
        return Err(CoreError::Value(format!(
            "shape {} has a last dimension of {k}, which is not a multiple of {BLOCK} (the values \
             in a block)",
            fmt_shape(&sizes)
        )));
    }
    Ok(sizes)
}

/// E37: `data` must hold exactly the blocks of an array of `shape`. Called after E23 has checked
/// that the float32 result fits in memory, so the byte count cannot overflow.
pub fn check_bytes(kind: Kind, shape: &[usize], given: usize) -> Result<usize> {
    let values: u128 = shape.iter().map(|&d| d as u128).product();
    let expected = values / BLOCK as u128 * kind.block_bytes() as u128;
    if expected == given as u128 {
        Ok(given)
    } else {
        Err(CoreError::Value(format!(
            "data has {given} bytes, but a {} array of shape {} takes {expected}",
            kind.name(),
            fmt_shape(shape)
        )))
    }
}

/// Work of dequantizing `values` numbers, for `threads::run`: decoding and storing a value costs
/// about 8 multiply-adds, so the pool is used from about half a million values (one of SmolLM2's
/// [1536, 576] matrices, 885K values, is).
pub fn dequantize_work(values: usize) -> usize {
    values.saturating_mul(8)
}

/// Blocks per parallel task: 4096 blocks are 128K values (512 KB of float32 written).
const BLOCKS_PER_TASK: usize = 4096;

/// out [blocks · 32] = the values of `data` (whole blocks of one format), in order.
type Blocks = fn(data: &[u8], out: &mut [f32]);

fn blocks_portable<B: BlockFormat>(data: &[u8], out: &mut [f32]) {
    for (vals, block) in out.chunks_exact_mut(BLOCK).zip(data.chunks_exact(B::BYTES)) {
        let vals: &mut [f32; BLOCK] = vals.try_into().expect("chunks of BLOCK values");
        B::dequantize::<false>(block, vals);
    }
}

/// AVX2 + F16C and AVX-512 + F16C: a block's bytes widened to int32, converted, and scaled by one
/// fused multiply-add, which rounds once, like the portable d · q + m (d · q is exact): the same
/// values, bit for bit (the compiler did not vectorise the portable loop).
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;
    use std::arch::x86_64::*;

    /// [d, m] of a block header (two f16), as float32.
    #[target_feature(enable = "avx2,fma,f16c")]
    #[inline]
    unsafe fn header(block: *const u8) -> (f32, f32) {
        let v = _mm_cvtph_ps(_mm_cvtsi32_si128((block as *const i32).read_unaligned()));
        (_mm_cvtss_f32(v), _mm_cvtss_f32(_mm_movehdup_ps(v)))
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn q4_1_avx2(data: &[u8], out: &mut [f32]) {
        let mask = _mm_set1_epi8(0x0F);
        for (o, block) in out.chunks_exact_mut(BLOCK).zip(data.chunks_exact(20)) {
            let (d, m) = header(block.as_ptr());
            let (d, m) = (_mm256_set1_ps(d), _mm256_set1_ps(m));
            let raw = _mm_loadu_si128(block.as_ptr().add(4) as *const __m128i);
            let lo = _mm_and_si128(raw, mask);
            let hi = _mm_and_si128(_mm_srli_epi16(raw, 4), mask);
            for (c, bytes) in [lo, _mm_srli_si128(lo, 8), hi, _mm_srli_si128(hi, 8)]
                .into_iter()
                .enumerate()
            {
                let v = _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes)), d, m);
                _mm256_storeu_ps(o.as_mut_ptr().add(8 * c), v);
            }
        }
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn q8_0_avx2(data: &[u8], out: &mut [f32]) {
        for (o, block) in out.chunks_exact_mut(BLOCK).zip(data.chunks_exact(34)) {
            let d = _mm256_set1_ps(header(block.as_ptr()).0);
            for c in 0..4 {
                let bytes = _mm_loadl_epi64(block.as_ptr().add(2 + 8 * c) as *const __m128i);
                let v = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(bytes)), d);
                _mm256_storeu_ps(o.as_mut_ptr().add(8 * c), v);
            }
        }
    }

    #[target_feature(enable = "avx2,fma,f16c,avx512f")]
    pub unsafe fn q4_1_avx512(data: &[u8], out: &mut [f32]) {
        let mask = _mm_set1_epi8(0x0F);
        for (o, block) in out.chunks_exact_mut(BLOCK).zip(data.chunks_exact(20)) {
            let (d, m) = header(block.as_ptr());
            let (d, m) = (_mm512_set1_ps(d), _mm512_set1_ps(m));
            let raw = _mm_loadu_si128(block.as_ptr().add(4) as *const __m128i);
            let lo = _mm_and_si128(raw, mask);
            let hi = _mm_and_si128(_mm_srli_epi16(raw, 4), mask);
            for (c, bytes) in [lo, hi].into_iter().enumerate() {
                let v = _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(bytes)), d, m);
                _mm512_storeu_ps(o.as_mut_ptr().add(16 * c), v);
            }
        }
    }

    #[target_feature(enable = "avx2,fma,f16c,avx512f")]
    pub unsafe fn q8_0_avx512(data: &[u8], out: &mut [f32]) {
        for (o, block) in out.chunks_exact_mut(BLOCK).zip(data.chunks_exact(34)) {
            let d = _mm512_set1_ps(header(block.as_ptr()).0);
            for c in 0..2 {
                let bytes = _mm_loadu_si128(block.as_ptr().add(2 + 16 * c) as *const __m128i);
                let v = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(bytes)), d);
                _mm512_storeu_ps(o.as_mut_ptr().add(16 * c), v);
            }
        }
    }
}

/// The block decoders this CPU can run for `kind`, slowest (the portable reference) first.
pub fn block_variants(kind: Kind, cpu: crate::simd::Supported) -> Vec<Blocks> {
    #[cfg(target_arch = "x86_64")]
    use crate::simd::Level;
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))] // the faster ones are x86's
    let mut out: Vec<Blocks> = vec![match kind {
        Kind::Q4_1 => blocks_portable::<Q4_1>,
        Kind::Q8_0 => blocks_portable::<Q8_0>,
    }];
    #[cfg(target_arch = "x86_64")]
    if cpu.level() >= Level::Avx2Fma {
        // SAFETY (every closure): `cpu` proves the features the kernels were compiled for.
        out.push(match kind {
            Kind::Q4_1 => |d, o| unsafe { x86::q4_1_avx2(d, o) },
            Kind::Q8_0 => |d, o| unsafe { x86::q8_0_avx2(d, o) },
        });
        if cpu.level() >= Level::Avx512 {
            out.push(match kind {
                Kind::Q4_1 => |d, o| unsafe { x86::q4_1_avx512(d, o) },
                Kind::Q8_0 => |d, o| unsafe { x86::q8_0_avx512(d, o) },
            });
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = cpu;
    out
}

/// out [blocks · 32] = the values of `data`, whole blocks of `kind`, in order, on this thread.
pub fn dequantize_blocks(kind: Kind, data: &[u8], out: &mut [f32]) {
    use std::sync::OnceLock;
    static Q4_1_BLOCKS: OnceLock<Blocks> = OnceLock::new();
    static Q8_0_BLOCKS: OnceLock<Blocks> = OnceLock::new();
    fn fastest(kind: Kind, cpu: crate::simd::Supported) -> Blocks {
        *block_variants(kind, cpu)
            .last()
            .expect("a portable decoder")
    }
    let decode = match kind {
        Kind::Q4_1 => crate::simd::pick(&Q4_1_BLOCKS, |cpu| fastest(Kind::Q4_1, cpu)),
        Kind::Q8_0 => crate::simd::pick(&Q8_0_BLOCKS, |cpu| fastest(Kind::Q8_0, cpu)),
    };
    decode(data, out)
}

/// out = the float32 values of `data`, whole blocks of `kind` (checked by `check_bytes`); split
/// over the pool when called inside it.
pub fn dequantize(kind: Kind, data: &[u8], out: &mut [f32]) {
    let (o_task, d_task) = (
        BLOCKS_PER_TASK * BLOCK,
        BLOCKS_PER_TASK * kind.block_bytes(),
    );
    if dequantize_work(out.len()) < PARALLEL_MIN_WORK || !in_pool() {
        dequantize_blocks(kind, data, out);
    } else {
        out.par_chunks_mut(o_task)
            .zip(data.par_chunks(d_task))
            .for_each(|(o, d)| dequantize_blocks(kind, d, o));
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::test_support::lcg;

    /// Random blocks of `kind`: random bytes, with scales that are ordinary, negative, subnormal.
    pub(crate) fn random_blocks(kind: Kind, blocks: usize, seed: u64) -> Vec<u8> {
        let bytes = lcg(seed, blocks * kind.block_bytes());
        let mut data: Vec<u8> = bytes.iter().map(|v| ((v + 1.0) * 127.9) as u8).collect();
        let scales = [0x2E66u16, 0xAE66, 0x0123, 0x8010, 0x1C00, 0x3C00];
        for (b, block) in data.chunks_exact_mut(kind.block_bytes()).enumerate() {
            block[..2].copy_from_slice(&scales[b % scales.len()].to_le_bytes());
            if kind == Kind::Q4_1 {
                block[2..4].copy_from_slice(&scales[(b + 3) % scales.len()].to_le_bytes());
            }
        }
        data
    }

    #[test]
    fn every_half_converts_exactly() {
        // The reference: sign · 2^(e − 15) · (1 + f/1024), or 2^−14 · f/1024 for subnormals.
        for h in 0..=u16::MAX {
            let (s, e, f) = (h >> 15, (h >> 10) & 0x1F, h & 0x3FF);
            let sign = if s == 1 { -1.0f64 } else { 1.0 };
            let got = f16_to_f32(h);
            match e {
                31 if f == 0 => assert_eq!(got, sign as f32 * f32::INFINITY),
                31 => assert!(
                    got.is_nan()
                        && got.to_bits() & 0x7FFF_FFFF == 0x7F80_0000 | (u32::from(f) << 13)
                ),
                0 => assert_eq!(
                    f64::from(got),
                    sign * f64::from(f) / 1024.0 * 2f64.powi(-14),
                    "{h:#x}"
                ),
                _ => assert_eq!(
                    f64::from(got),
                    sign * (1.0 + f64::from(f) / 1024.0) * 2f64.powi(i32::from(e) - 15),
                    "{h:#x}"
                ),
            }
            assert_eq!(got.is_sign_negative(), s == 1, "{h:#x}");
        }
    }

    #[test]
    fn every_block_decoder_gives_the_portable_bits() {
        for kind in [Kind::Q4_1, Kind::Q8_0] {
            let blocks = 37;
            let data = random_blocks(kind, blocks, 5);
            let mut want = vec![0.0f32; blocks * BLOCK];
            let variants = block_variants(kind, crate::simd::Supported::best());
            variants[0](&data, &mut want);
            for decode in &variants[1..] {
                let mut got = vec![f32::NAN; blocks * BLOCK];
                decode(&data, &mut got);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&got), bits(&want), "{kind:?}");
            }
        }
    }

    #[test]
    fn blocks_decode_by_the_formulas() {
        // Q8_0: d = 0.5 (f16 0x3800), q = -128, -1, 0, 1, ..., 127 at the ends.
        let mut b8 = vec![0x00, 0x38];
        b8.extend((0..32).map(|j| (j as i8 * 4 - 64) as u8));
        b8[2] = 0x80; // -128
        let mut out = [0.0; BLOCK];
        Q8_0::dequantize::<false>(&b8, &mut out);
        assert_eq!(out[0], -64.0);
        for (j, &v) in out.iter().enumerate().skip(1) {
            assert_eq!(v, 0.5 * f32::from(j as i8 * 4 - 64));
        }
        // Q4_1: d = 2 (0x4000), m = -1 (0xBC00); byte j holds j & 0xF low and 15 − j high.
        let mut b4 = vec![0x00, 0x40, 0x00, 0xBC];
        b4.extend((0..16u8).map(|j| j | ((15 - j) << 4)));
        for fused in [false, true] {
            let mut out = [0.0; BLOCK];
            if fused {
                Q4_1::dequantize::<true>(&b4, &mut out);
            } else {
                Q4_1::dequantize::<false>(&b4, &mut out);
            }
            for j in 0..16 {
                assert_eq!(out[j], 2.0 * j as f32 - 1.0);
                assert_eq!(out[j + 16], 2.0 * (15 - j) as f32 - 1.0);
            }
        }
    }
}
