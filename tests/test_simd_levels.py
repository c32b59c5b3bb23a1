"""Every instruction set this CPU runs, not only its best: rust_core's kernel tests, and the model
tests that compare two paths (two backends, prefill against cached steps, the page against
``generate``), again in a process whose kernels are capped at a lower level by ``RUST_CORE_SIMD``,
with NumPy's loops and OpenBLAS's kernels held to the same level by their own variables.

The project's machines change kind between sessions (AVX-512 one day, AVX2 the next), and a
tolerance written on one level can fail on another: this runs, on an AVX-512 machine, the paths an
AVX2 machine and a baseline x86-64 take (the Next-token page's distribution against generate's
differed by 1.5e-6 at AVX2 only, through OpenBLAS's kernels). The ``gemm`` crate keeps its own
choice of kernel; the cargo tests run every level of this library's own kernels
(``simd::Supported::all``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import HAVE_RUST

pytestmark = pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")

TESTS = Path(__file__).parent
LEVELS = ("baseline", "avx2", "avx512")  # slowest first, as rust_core names them
#: What else a level sets: OpenBLAS's kernels for a CPU of that level (its DYNAMIC_ARCH names)
#: and NumPy's dispatched loops above it switched off (the feature groups of NumPy 2.4, which
#: requirements/dev.txt pins; older NumPys name them otherwise).
COMPANIONS = {
    "baseline": {
        "OPENBLAS_CORETYPE": "Nehalem",
        "NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR",
    },
    "avx2": {
        "OPENBLAS_CORETYPE": "Haswell",
        "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR",
    },
}

#: Kernels against the NumPy and pure-Python twins, odd layouts and sizes, edge values.
KERNEL_TESTS = [
    "test_backends.py",
    "test_dense.py",
    "test_half_linear.py",
    "test_quantized.py",
    "test_decoder_kernels.py",
    "test_attention_strided.py",
    "test_attention_with_weights.py",
    "test_strided_rows.py",
    "test_robustness_kernels.py",
    "test_word2vec.py",
    "test_train_kernels.py",
    "test_train_rust_smoke.py",
    "test_attention_backward_rust.py",
]
#: The models' tests that compare two ways to the same numbers: backends, a reference computed
#: elsewhere (Hugging Face, llama.cpp, gguf's dequantization), prefill against cached steps, the
#: page against ``generate``.
MODEL_TESTS = [
    "test_smollm2.py::test_rust_and_numpy_agree",
    "test_smollm2.py::test_logits_agree_with_llama_cpp",
    "test_smollm2.py::test_products_over_the_blocks_match_gguf_dequantization",
    "test_smollm2_generate.py::test_the_prompts_last_logits_are_the_first_steps_bit_for_bit",
    "test_smollm2_generate.py::test_a_long_prompt_cached_equals_recomputed",
    "test_smollm2_generate.py::test_chunks_over_the_cache_equal_one_pass",
    "test_smollm2_generate.py::test_greedy_with_the_cache_is_the_arg_max_of_a_full_recomputation",
    "test_next_token_views.py::test_the_page_reshaping_is_what_generate_samples_from",
    "test_learner.py::test_gradient_matches_finite_differences",
    "test_learner.py::test_backends_agree_step_by_step",
    "test_minilm.py::test_parity_with_hugging_face",
    "test_minilm.py::test_rust_matches_numpy",
    "test_minilm.py::test_python_backend_agrees_with_numpy_on_a_short_text",
    "test_minilm.py::test_heads_off_on_rust_match_numpy",
    "test_minilm_half.py::test_rust_matches_numpy_on_the_half_model",
    "test_minilm_half.py::test_the_embeddings_stay_within_the_fidelity_goal",
]


def _level_of(env: dict[str, str]) -> str:
    """rust_core.simd_level() in a fresh process with ``env``."""
    code = "import rust_core; print(rust_core.simd_level())"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def _best() -> str:
    env = {k: v for k, v in os.environ.items() if k != "RUST_CORE_SIMD"}
    return _level_of(env)


def test_the_variable_caps_the_level_and_ignores_what_it_does_not_know() -> None:
    best = _best()
    assert best in LEVELS
    for level in LEVELS:
        expected = min(level, best, key=LEVELS.index)
        assert _level_of({**os.environ, "RUST_CORE_SIMD": level}) == expected
    assert _level_of({**os.environ, "RUST_CORE_SIMD": "sse9"}) == best


@pytest.mark.levels
@pytest.mark.parametrize("level", LEVELS[:-1])
def test_kernel_and_model_tests_pass_at_a_lower_level(level: str) -> None:
    best = _best()
    if LEVELS.index(level) >= LEVELS.index(best):
        pytest.skip(f"this CPU's best level is {best}: the main run is the {level} run")
    # Without PYTEST_ADDOPTS: a "-n" there would undo the child's "-p no:xdist".
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    env.update(RUST_CORE_SIMD=level, **COMPANIONS[level])
    assert _level_of(env) == level
    # Not the pure-Python backend's own cases: Python's floats do not depend on the level.
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p", "no:xdist",
         "--without-python-lanes", *KERNEL_TESTS, *MODEL_TESTS],
        cwd=TESTS, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    tail = result.stdout[-4000:] + result.stderr[-2000:]
    assert result.returncode == 0, f"at {level}:\n{tail}"
    assert " passed" in result.stdout.splitlines()[-1], tail
