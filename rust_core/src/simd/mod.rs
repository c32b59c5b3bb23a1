//! Run-time SIMD dispatch: one idiom for every vectorised kernel (`exp`, `gelu`, `silu` here,
//! `linalg::norm`, `linalg::skinny`, `linalg::transpose`, the quantized products).
//!
//! The wheel is built for baseline x86-64 (no `target-cpu=native`), so that it runs on any x86-64
//! CPU. A kernel compiles its loop once per `Level` with `#[target_feature]`, maps each level to
//! its implementation in a `fn variant(cpu: Supported) -> F`, and calls through
//! `simd::pick(&CHOSEN, variant)`: the CPU's level is detected once for the whole library, and each
//! kernel's choice is made once, on its first call. Tests run `variant` for every level in
//! `Supported::all()` against the kernel's scalar reference.
//!
//! `RUST_CORE_SIMD` (`baseline`, `avx2` or `avx512`), read once, caps the level, so that a test
//! process can run every kernel of this library as it runs on a CPU without the faster sets (the
//! `gemm` crate's products keep their own choice). An unknown value is ignored.

use std::sync::OnceLock;

pub mod exp;
pub mod gelu;
pub mod silu;

/// The instruction sets a kernel may be compiled for, from slowest to fastest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Baseline x86-64 (SSE2), or any other architecture.
    Baseline,
    /// AVX2 with FMA (and F16C, which every CPU with both has).
    Avx2Fma,
    /// AVX-512F, on a CPU that also has AVX2 and FMA (every one that has AVX-512 does).
    Avx512,
}

/// Every level, slowest first.
const LEVELS: [Level; 3] = [Level::Baseline, Level::Avx2Fma, Level::Avx512];

impl Level {
    /// The level's name, as `RUST_CORE_SIMD` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Level::Baseline => "baseline",
            Level::Avx2Fma => "avx2",
            Level::Avx512 => "avx512",
        }
    }
}

/// A `Level` this CPU supports. Only `best` (and, for tests, `all`) make one, so a `variant`
/// holding one may run that level's instructions: that is the safety argument of every
/// `unsafe` call into a `#[target_feature]` function of a `variant`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Supported(Level);

impl Supported {
    /// The fastest level of this CPU, detected on first use (std caches the CPUID answers too).
    pub fn best() -> Supported {
        static BEST: OnceLock<Level> = OnceLock::new();
        Supported(*BEST.get_or_init(detect))
    }

    pub fn level(self) -> Level {
        self.0
    }

    /// Every level this CPU supports, slowest first (each implies the ones below it), whatever
    /// `RUST_CORE_SIMD` says: the tests of each kernel's variants run them all.
    #[cfg(test)]
    pub(crate) fn all() -> Vec<Supported> {
        let best = cpu_level();
        LEVELS
            .into_iter()
            .filter(|&level| level <= best)
            .map(Supported)
            .collect()
    }
}

/// The variable that caps the level (see the module's note).
pub const ENV_VAR: &str = "RUST_CORE_SIMD";

fn detect() -> Level {
    let cap = std::env::var(ENV_VAR).ok().and_then(|v| parse(&v));
    cpu_level().min(cap.unwrap_or(Level::Avx512))
}

/// The level a `RUST_CORE_SIMD` value names, or None for an unknown one.
fn parse(value: &str) -> Option<Level> {
    let value = value.trim().to_ascii_lowercase();
    LEVELS.into_iter().find(|level| level.name() == value)
}

/// The fastest level this CPU runs.
fn cpu_level() -> Level {
    #[cfg(target_arch = "x86_64")]
    {
        let avx2_fma = is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("fma")
            && is_x86_feature_detected!("f16c");
        if avx2_fma && is_x86_feature_detected!("avx512f") {
            return Level::Avx512;
        }
        if avx2_fma {
            return Level::Avx2Fma;
        }
    }
    Level::Baseline
}

/// The implementation `variant` gives for this CPU, chosen on the first call and kept in `chosen`
/// (one `static` per kernel).
#[inline]
pub fn pick<F: Copy + Send + Sync>(chosen: &'static OnceLock<F>, variant: fn(Supported) -> F) -> F {
    *chosen.get_or_init(|| variant(Supported::best()))
}

/// a · b + c, fused into one instruction (one rounding) when `FMA` is true, as in the bodies
/// compiled for `Level::Avx2Fma` and `Level::Avx512`; a multiply then an add otherwise (without
/// the instruction a fused one is a slow libm call). Polynomial kernels use it at each Horner step.
#[inline(always)]
pub fn mul_add<const FMA: bool>(a: f32, b: f32, c: f32) -> f32 {
    if FMA {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_ordered_and_detected_once() {
        let all = Supported::all();
        assert_eq!(all.first(), Some(&Supported(Level::Baseline)));
        assert_eq!(all.last().map(|s| s.level()), Some(cpu_level()));
        assert!(all.contains(&Supported::best()));
        assert!(all.windows(2).all(|w| w[0].0 < w[1].0));
        static CHOSEN: OnceLock<Level> = OnceLock::new();
        assert_eq!(pick(&CHOSEN, Supported::level), Supported::best().level());
    }

    #[test]
    fn the_variable_names_each_level_and_caps_the_cpus() {
        for level in LEVELS {
            assert_eq!(parse(level.name()), Some(level));
        }
        assert_eq!(parse(" AVX2 "), Some(Level::Avx2Fma));
        assert_eq!(parse("sse4"), None);
        assert!(Supported::best().level() <= cpu_level());
    }
}
