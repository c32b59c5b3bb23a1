"""transformer-walk: from one-hot vectors to a full Transformer, one sentence at a time.

The public API, for scripts and users (the package's own modules import from its subpackages):

    import transformer_walk as tw

    tw.get_backend("rust")                      # a tw.Backend: rust_core (or "numpy", "python")
    tw.ToyTransformer(tw.ToyConfig()).run("Tom loves his dog")     # a Trace of every step
    tw.load_minilm().run("Tom loves his dog")   # all-MiniLM-L6-v2: an EncoderOutput
    tw.load_smollm2().generate("Tom loves his", 8)  # SmolLM2-135M-Instruct: a Generation
    tw.train(task, tw.LearnerConfig(), steps=300)  # a small decoder trained: a TrainResult

Layers, each importing only those below it: ``app`` (the Streamlit pages) → ``bench`` (the race),
``topics`` (the math of each stop that is not a model), ``models`` (toy, minilm, smollm2) →
``core`` (the three backends) → ``rust_core``.
"""

from transformer_walk.core import BACKENDS, Backend, get_backend
from transformer_walk.models.learner import LearnerConfig, TrainResult, train
from transformer_walk.models.minilm import EncoderOutput, MiniLM, load_minilm
from transformer_walk.models.smollm2 import DecoderOutput, Generation, SmolLM2, load_smollm2
from transformer_walk.models.toy import DEFAULT_SENTENCE, ToyConfig, ToyTransformer, Trace

__version__ = "0.1.0"

__all__ = [
    "BACKENDS",
    "DEFAULT_SENTENCE",
    "Backend",
    "DecoderOutput",
    "EncoderOutput",
    "Generation",
    "LearnerConfig",
    "MiniLM",
    "SmolLM2",
    "ToyConfig",
    "ToyTransformer",
    "Trace",
    "TrainResult",
    "get_backend",
    "load_minilm",
    "load_smollm2",
    "train",
]
