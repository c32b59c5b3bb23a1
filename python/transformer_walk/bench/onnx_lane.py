"""The ONNX Runtime lane: all-MiniLM-L6-v2 as an ONNX graph built here from the same
safetensors, run by ONNX Runtime, with our tokenizer and our pooling — what a user who wants
sentence embeddings on a CPU would otherwise run (fastembed and most embedding services do).

The graph is the standard export of a BERT encoder (MatMul + Add, LayerNormalization, the erf
GELU, the additive padding mask, Softmax), written with ``onnx.helper`` from our checkpoint's
arrays — no PyTorch — so ONNX Runtime's own optimiser fuses what it knows (at its default
level it made FusedMatMul and BiasGelu here). ``onnx`` is a pinned dependency (the graph is
tested in CI with ``onnx.reference``); ``onnxruntime`` is optional:

    pip install onnxruntime==1.32.0

A session uses one thread per core, as rust_core does. ``session(threads, int8=True)`` runs the
same graph after ONNX Runtime's dynamic quantisation (``quantize_dynamic``: the weights of every
MatMul stored as int8, one scale per output column, activations quantised on the fly), the
smaller-and-faster option its users pick, set beside our float16 weights
(``load_minilm(weights="float16")``). Per column, because with its defaults (one scale per
matrix, Gather's tables quantised too) the embeddings moved much further from float32's: a least
cosine of 0.91 on the benchmark's batch against 0.993 per column (docs/performance.md).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import onnx

    from transformer_walk.models.minilm import MiniLM

ORT_PIN = "onnxruntime==1.32.0"
INSTALL_HINT = f"pip install {ORT_PIN}"
OPSET = 17  # LayerNormalization is an ONNX operator from opset 17
MASKED = -10000.0  # added to padded keys' scores, as BERT's export does


class _Graph:
    """Nodes and initialisers of a graph being written, each with a fresh name."""

    def __init__(self) -> None:
        self.nodes: list[Any] = []
        self.initializers: list[Any] = []

    def const(self, value: Any, dtype: Any = np.float32) -> str:
        from onnx import numpy_helper

        name = f"c{len(self.initializers)}"
        self.initializers.append(numpy_helper.from_array(np.asarray(value, dtype=dtype), name))
        return name

    def op(self, op_type: str, *inputs: str, **attrs: Any) -> str:
        from onnx import helper

        name = f"{op_type}_{len(self.nodes)}"
        self.nodes.append(helper.make_node(op_type, list(inputs), [name], **attrs))
        return name


def build_graph(model: MiniLM) -> onnx.ModelProto:
    """all-MiniLM-L6-v2 (or any checkpoint ``model`` holds) as an ONNX model: inputs
    ``input_ids``, ``attention_mask`` [B, n] int64; output ``last_hidden_state`` [B, n, d_model]
    float32. Token type 0 throughout, like ``MiniLM.forward``."""
    from onnx import TensorProto, helper

    cfg = model.config
    g = _Graph()
    emb = model.embeddings
    # x⁰ = LN(E_word[ids] + E_type[0] + E_pos[0 … n−1])
    n = g.op("Gather", g.op("Shape", "input_ids"), g.const(1, np.int64), axis=0)
    positions = g.op("Range", g.const(0, np.int64), n, g.const(1, np.int64))  # (n,)
    words = g.op("Gather", g.const(emb.word_embeddings), "input_ids", axis=0)  # (B, n, d)
    total = g.op("Add", g.op("Add", words, g.const(emb.token_type_embeddings[0])),
                 g.op("Gather", g.const(emb.position_embeddings), positions, axis=0))  # fmt: skip
    x = g.op("LayerNormalization", total, g.const(emb.LayerNorm.weight),
             g.const(emb.LayerNorm.bias), axis=-1, epsilon=cfg.eps)  # fmt: skip
    # (1 − mask) · MASKED, (B, n) → (B, 1, 1, n): added to every head's scores
    keep = g.op("Cast", "attention_mask", to=TensorProto.FLOAT)
    bias = g.op("Mul", g.op("Sub", g.const(1.0), keep), g.const(MASKED))
    bias = g.op("Unsqueeze", bias, g.const([1, 2], np.int64))
    h, d = cfg.h, cfg.d_model
    d_k = d // h

    def linear(x: str, lin: Any) -> str:  # x W + b, W = weightᵀ
        return g.op("Add", g.op("MatMul", x, g.const(lin.weight.T.copy())), g.const(lin.bias))

    def split_heads(t: str) -> str:  # (B, n, d) → (B, n, h, d_k) → (B, h, n, d_k)
        return g.op("Transpose", g.op("Reshape", t, g.const([0, 0, h, d_k], np.int64)),
                    perm=[0, 2, 1, 3])  # fmt: skip

    def layer_norm(t: str, ln: Any) -> str:
        return g.op("LayerNormalization", t, g.const(ln.weight), g.const(ln.bias), axis=-1,
                    epsilon=ln.eps)  # fmt: skip

    for layer in model.encoder.layer:
        att = layer.attention.self_attention
        q, k, v = (split_heads(linear(x, lin)) for lin in (att.query, att.key, att.value))
        scores = g.op("Div", g.op("MatMul", q, g.op("Transpose", k, perm=[0, 1, 3, 2])),
                      g.const(math.sqrt(d_k)))  # fmt: skip  # (B, h, n, n)
        weights = g.op("Softmax", g.op("Add", scores, bias), axis=-1)
        concat = g.op("Reshape", g.op("Transpose", g.op("MatMul", weights, v), perm=[0, 2, 1, 3]),
                      g.const([0, 0, d], np.int64))  # fmt: skip  # (B, h, n, d_k) → (B, n, d)
        out = layer.attention.self_output
        a = layer_norm(g.op("Add", linear(concat, out.dense), x), out.LayerNorm)
        pre = linear(a, layer.intermediate.dense)
        # GELU(z) = z · ½ (1 + erf(z / √2)), BERT's exact GELU
        erf = g.op("Erf", g.op("Div", pre, g.const(math.sqrt(2.0))))
        gelu = g.op("Mul", g.op("Mul", pre, g.const(0.5)), g.op("Add", g.const(1.0), erf))
        x = layer_norm(g.op("Add", linear(gelu, layer.output.dense), a), layer.output.LayerNorm)
    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    graph = helper.make_graph(
        g.nodes,
        "all-MiniLM-L6-v2",
        [
            helper.make_tensor_value_info(name, TensorProto.INT64, ["B", "n"])
            for name in ("input_ids", "attention_mask")
        ],  # fmt: skip
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["B", "n", d])],
        g.initializers,
    )
    onnx_model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    onnx_model.ir_version = 8  # what onnxruntime 1.32 reads
    return onnx_model


@functools.cache  # the Speed page asks on every rerun; a failed import would search again
def available() -> str | None:
    """None when onnxruntime can be imported, else why not (with the command that installs it)."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError as exc:
        return f"onnxruntime is not installed ({exc}); {INSTALL_HINT}"
    return None


class OnnxMiniLM:
    """``MiniLM.embed`` with the encoder run by ONNX Runtime: the same tokenizer, padding,
    truncation and pooling (``MiniLM.batch_ids``, ``mean_pool``)."""

    def __init__(self, model: MiniLM, threads: int, int8: bool = False) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.model = model
        graph = build_graph(model).SerializeToString()
        self.session = ort.InferenceSession(
            quantized(graph) if int8 else graph, options, providers=["CPUExecutionProvider"]
        )

    def last_hidden_state(self, ids: np.ndarray, key_mask: np.ndarray) -> np.ndarray:
        """ids, key_mask [B, n] → [B, n, d_model]."""
        feeds = {"input_ids": ids.astype(np.int64), "attention_mask": key_mask.astype(np.int64)}
        out: np.ndarray = self.session.run(None, feeds)[0]
        return out

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        from transformer_walk.models.minilm.model import mean_pool

        rows = self.model.token_rows(texts)
        out = np.zeros((len(rows), self.model.config.d_model), dtype=np.float32)
        for batch, ids, key_mask in self.model.batches(rows):
            out[batch] = mean_pool(self.last_hidden_state(ids, key_mask), key_mask)
        return out


def quantized(graph: bytes) -> bytes:
    """The serialised graph after ONNX Runtime's dynamic quantisation of its MatMuls, int8
    weights with one scale per output column, through a temporary directory:
    ``quantize_dynamic`` reads and writes files."""
    import tempfile
    from pathlib import Path

    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / "model.onnx", Path(folder) / "model.int8.onnx"
        source.write_bytes(graph)
        quantize_dynamic(
            source,
            target,
            op_types_to_quantize=["MatMul"],
            per_channel=True,
            weight_type=QuantType.QInt8,
        )
        return target.read_bytes()


@functools.cache
def session(threads: int, int8: bool = False) -> OnnxMiniLM:
    """The lane's model for ``threads`` threads (int8: dynamically quantised), built once (the
    graph takes a second, its quantisation a few)."""
    from transformer_walk.models.minilm import load_minilm

    return OnnxMiniLM(load_minilm(backend="numpy"), threads, int8)
