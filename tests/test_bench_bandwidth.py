"""The decoding row's memory bound: the bytes a generated token reads, counted from the model and
checked against the GGUF file itself; the streaming bandwidth, timed on a fake clock; and the
share, as the report prints it."""

from __future__ import annotations

import pytest

from transformer_walk.bench import anchors, bandwidth

from conftest import HAVE_RUST, FakeClock
from smollm2_support import MODEL_SKIP


class CallClock(FakeClock):
    """Each timed call lasts the next of ``durations``: the clock is read at its start and end."""

    def __init__(self, durations: list[float]) -> None:
        super().__init__()
        self.durations = iter(durations)
        self.ends = False

    def now(self) -> float:
        if self.ends:
            self.t += next(self.durations)
        self.ends = not self.ends
        return self.t


def test_the_bandwidth_is_the_matrix_bytes_over_the_best_call() -> None:
    clock = CallClock([0.004, 0.002, 0.003])
    gbs = bandwidth.streaming_read_gbs(rounds=3, nbytes=8 << 20, clock=clock)
    assert gbs == pytest.approx((8 << 20) / 0.002 / 1e9)


@pytest.mark.parametrize(("rounds", "nbytes"), [(0, 8 << 20), (1, 100)])
def test_the_bandwidth_refuses_no_rounds_or_no_row(rounds: int, nbytes: int) -> None:
    with pytest.raises(ValueError, match="rounds must be at least 1 and nbytes at least 16384"):
        bandwidth.streaming_read_gbs(rounds=rounds, nbytes=nbytes, clock=FakeClock())


def test_the_share_is_bytes_a_second_over_the_machines() -> None:
    # 100 tokens/s of 100 MB is 10 GB/s: 40 % of 25 GB/s
    assert bandwidth.share(100.0, 100e6, 25.0) == pytest.approx(0.4)


@pytest.mark.skipif(MODEL_SKIP is not None, reason=str(MODEL_SKIP))
def test_a_token_reads_every_tensor_of_the_file_once_and_the_cache() -> None:
    from transformer_walk.models.smollm2 import default_model_path, load_smollm2
    from transformer_walk.models.smollm2.gguf import open_gguf

    model = load_smollm2(backend="numpy")
    read = bandwidth.decode_bytes(model, positions=10)
    tensors = open_gguf(default_model_path()).tensors.values()
    on_file = sum(t.data.nbytes for t in tensors)  # the tied table counted once, as the head
    row = 576 // 32 * 34  # one Q8_0 row of d_model = 576 values
    cache = 30 * 2 * 3 * 64 * 4 * 10  # layers · (k, v) · h_kv · d_head · float32 · positions
    assert read["layers"] + read["output_layer"] + read["norms"] == on_file
    assert read["embedding_row"] == row and read["cache"] == cache
    assert read["total"] == on_file + row + cache


def _decode_row(ours_s: float, anchor_s: float | None) -> anchors.AnchorRow:
    return anchors.AnchorRow(anchors.DECODE_ROW, "llama.cpp", 1.25, True, ours_s, anchor_s,
                             None, None, "")  # fmt: skip


def test_no_share_without_the_decoding_row() -> None:
    def unused() -> float:
        raise AssertionError("nothing to measure")

    assert anchors.decoding_memory([], stream_gbs=unused) is None
    assert anchors.decoding_memory([_decode_row(0.01, None)], stream_gbs=unused) is None


@pytest.mark.skipif(MODEL_SKIP is not None, reason=str(MODEL_SKIP))
@pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built (the bench's model runs on it)")
def test_the_share_of_each_side_is_printed_beside_the_bytes() -> None:
    from transformer_walk.bench import goals

    memory = anchors.decoding_memory([_decode_row(0.005, 0.008)], stream_gbs=lambda: 25.0)
    assert memory is not None
    total = memory["bytes"]["total"]
    assert memory["ours_share"] == pytest.approx(200 * total / 25e9)
    assert memory["anchor_share"] == pytest.approx(125 * total / 25e9)
    text = "\n".join(goals.format_decoding_memory(memory))
    assert f"decoding reads {total / 1e6:.1f} MB a token" in text
    assert "streams 25.0 GB/s" in text and f"ours {memory['ours_share']:.0%}" in text
    assert f"llama.cpp {memory['anchor_share']:.0%}" in text
