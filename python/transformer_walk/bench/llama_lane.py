"""The llama.cpp lane: SmolLM2-135M-Instruct from the same GGUF file, run by llama.cpp through
``llama-cpp-python`` — what a user who wants a small local language model would otherwise run.

Optional, and not in CI: the package builds llama.cpp from source (about 10 minutes here). Build it
on the machine that runs it, for that CPU, but without AMX, whose kernels in llama.cpp 0.3.36 crash
on this model (a segmentation fault in ggml_backend_amx_mul_mat for batches of 3 or more tokens).
On a CPU without AMX the native build is that::

    CMAKE_ARGS="-DGGML_NATIVE=ON" pip install --no-cache-dir llama-cpp-python==0.3.36

On a CPU with AMX a native build compiles the AMX kernels whatever the AMX switches say (they
apply only when GGML_NATIVE is off), so such a build is refused here (``amx_refusal``);
docs/performance.md gives the explicit feature list to build instead.

One thread per core for prompts and for generation, a batch of 512, a context of 2048, flash
attention on (as llama.cpp's own default).
"""

from __future__ import annotations

import atexit
import functools
from collections.abc import Sequence

import numpy as np

LLAMA_PIN = "llama-cpp-python==0.3.36"
INSTALL_HINT = f"pip install {LLAMA_PIN} (docs/performance.md: 'How to reproduce')"
N_CTX = 2048
N_BATCH = 512


AMX_HINT = (
    "rebuild it without AMX, with GGML_NATIVE off and the CPU's features listed "
    "(docs/performance.md: 'How to reproduce')"
)


def amx_refusal(system_info: str) -> str | None:
    """Why a build whose ``llama_print_system_info()`` is ``system_info`` must not run here, or
    None. A build with AMX kernels ("AMX_INT8 = 1") ends the whole process with a segmentation
    fault on SmolLM2's prompt, which no Python code can catch."""
    if "AMX_INT8 = 1" in system_info:
        return (
            "this llama.cpp build uses AMX, whose kernels crash on SmolLM2 in "
            f"llama-cpp-python 0.3.36; {AMX_HINT}"
        )
    return None


@functools.cache  # the Speed page asks on every rerun; a failed import would search again
def available() -> str | None:
    """None when llama_cpp can be imported and its build is safe to run, else why not (with
    what to do)."""
    try:
        import llama_cpp
    except ImportError as exc:
        return f"llama-cpp-python is not installed ({exc}); {INSTALL_HINT}"
    return amx_refusal(llama_cpp.llama_print_system_info().decode(errors="replace"))


class LlamaSmolLM2:
    """llama.cpp on SmolLM2's GGUF file: a prompt read into an empty context, tokens generated
    one at a time by arg max (greedy), as our ``SmolLM2`` does."""

    def __init__(self, threads: int) -> None:
        from llama_cpp import Llama

        from transformer_walk.models.smollm2.load import default_model_path

        self.llm = Llama(
            model_path=str(default_model_path()),
            n_ctx=N_CTX,
            n_batch=N_BATCH,
            n_threads=threads,
            n_threads_batch=threads,
            # llama.cpp's own default ("auto") turns flash attention on for the CPU; the Python
            # wrapper's is off, which decodes slower and parts from our greedy text sooner.
            flash_attn=True,
            verbose=False,
        )

    def tokenize(self, text: str) -> list[int]:
        """llama.cpp's ids, as our tokenizer is tested to give them (no BOS, special tokens)."""
        return [int(i) for i in self.llm.tokenize(text.encode(), add_bos=False, special=True)]

    def last_logits(self) -> np.ndarray:
        """The logits [V] of the last position evaluated (a copy). ``Llama.scores`` holds them
        only with logits_all=True, which would score every position of a prompt."""
        import llama_cpp

        row = llama_cpp.llama_get_logits_ith(self.llm.ctx, -1)
        return np.ctypeslib.as_array(row, shape=(self.llm.n_vocab(),)).copy()

    def prefill(self, ids: Sequence[int] | np.ndarray) -> np.ndarray:
        """Read ``ids`` into an empty context; the last position's logits [V]."""
        self.llm.reset()
        self.llm.eval([int(i) for i in ids])
        return self.last_logits()

    def step(self, token: int) -> np.ndarray:
        """One token through the cache: its logits [V]."""
        self.llm.eval([token])
        return self.last_logits()


@functools.cache
def model(threads: int) -> LlamaSmolLM2:
    """The lane's model for ``threads`` threads, loaded once and closed at exit (left to the
    interpreter's teardown, llama-cpp-python's destructor finds its library gone and raises)."""
    lane = LlamaSmolLM2(threads)
    atexit.register(lane.llm.close)
    return lane
