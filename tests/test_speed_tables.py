"""What the Speed page makes of a race's cells for the models: tokens a second, and the sentence
comparing reading a prompt with generating — computed from the medians beside it."""

from __future__ import annotations

import pytest

from transformer_walk.app.i18n import LANGUAGES, say, translate
from transformer_walk.app.views import speed_tables
from transformer_walk.bench import OK, UNAVAILABLE, BenchResult, Case, Cell
from transformer_walk.topics.claims import Claim


def _result(op: str, medians: dict[tuple[int, str], float | None]) -> BenchResult:
    """Cells of ``op`` at (size, lane) with the given medians (None: the lane was unavailable)."""
    axis = "n" if op == speed_tables.PREFILL else "past"
    cells = []
    for (size, lane), median in medians.items():
        case = Case.of(op, **{axis: size})
        status = OK if median is not None else UNAVAILABLE
        cells.append(Cell(op, case.label, case.sizes, case.x, case.work, lane, status, median))
    lanes = list(dict.fromkeys(lane for _, lane in medians))
    return BenchResult(cells, {"cores": 2, "lanes": lanes})


PREFILL = _result(
    speed_tables.PREFILL,
    {(16, "python"): None, (16, "numpy"): 0.5, (64, "numpy"): 0.8, (64, "rust-1"): 0.32},
)
DECODE = _result(
    speed_tables.DECODE,
    {(1, "python"): None, (1, "numpy"): 0.6, (64, "numpy"): 0.7, (256, "rust-1"): 0.05},
)


def test_tokens_table_divides_the_tokens_of_a_call_by_its_median() -> None:
    table = speed_tables.tokens_table(PREFILL, speed_tables.PREFILL)
    assert table is not None
    assert table.loc["n=16", "NumPy"] == "32.0"  # 16 tokens / 0.5 s
    assert table.loc["n=64", "NumPy"] == "80.0" and table.loc["n=64", "Rust · 1 thread"] == "200"
    assert "Pure Python" not in table.columns  # unavailable for the models: no column of "—"
    assert table.loc["n=16", "Rust · 1 thread"] == "—"  # Rust ran n=64 only
    decode = speed_tables.tokens_table(DECODE, speed_tables.DECODE)
    assert decode is not None and decode.loc["past=256", "Rust · 1 thread"] == "20.0"  # 1 / 0.05
    assert speed_tables.tokens_table(PREFILL, "softmax") is None  # not a model: no tokens


def test_speedups_leave_out_the_lanes_that_measured_nothing() -> None:
    assert speed_tables.speedups_table(PREFILL, speed_tables.PREFILL, "python") is None
    versus_numpy = speed_tables.speedups_table(PREFILL, speed_tables.PREFILL, "numpy")
    assert versus_numpy is not None and list(versus_numpy.columns) == ["Rust · 1 thread"]
    assert versus_numpy.loc["n=64", "Rust · 1 thread"] == "2.50×"  # 0.8 s / 0.32 s


def test_prefill_vs_decode_compares_the_longest_prompt_with_the_nearest_cache() -> None:
    sentences = [say(c) for c in speed_tables.prefill_vs_decode(PREFILL, DECODE)]
    assert len(sentences) == 2  # NumPy and Rust ran both; pure Python neither
    numpy, rust = sentences
    # NumPy: 64 tokens in 0.8 s = 80 tokens/s; after 64 cached, 1 token in 0.7 s = 1.43/s
    assert numpy.startswith("NumPy: reading a prompt of 64 tokens ran at 80.0 tokens/s")
    assert "after 64 cached tokens at 1.43 tokens/s — 56.0× as many" in numpy
    # Rust ran decode only after 256 cached: the nearest it has to the 64-token prompt
    assert "after 256 cached tokens at 20.0 tokens/s — 10.0× as many" in rust


def test_prefill_vs_decode_says_so_when_the_prompt_was_not_faster() -> None:
    slow = _result(speed_tables.PREFILL, {(4, "numpy"): 4.0})  # 1 token a second
    fast = _result(speed_tables.DECODE, {(1, "numpy"): 0.5})  # 2 tokens a second
    (said,) = speed_tables.prefill_vs_decode(slow, fast)
    assert "here the prompt was not clearly faster a token (0.500×, under the 1.10×" in str(
        say(said)
    )
    assert speed_tables.prefill_vs_decode(slow, _result(speed_tables.DECODE, {})) == []


def test_a_prompt_barely_faster_is_not_called_faster() -> None:
    prompt = _result(speed_tables.PREFILL, {(4, "numpy"): 4.0 / 1.05})  # 1.05 tokens a second
    step = _result(speed_tables.DECODE, {(1, "numpy"): 1.0})  # 1 token a second
    (said,) = speed_tables.prefill_vs_decode(prompt, step)
    assert said.message == "speed.tokens.versus_slower" and said.fields["ratio"] == "1.05×"


# --- threads: every sentence follows the table's medians ---------------------------------------


def _race(one: dict[int, float], many: dict[int, float], cores: int = 2) -> BenchResult:
    """A softmax race of Rust on one thread and on all, medians by rows."""
    cells = []
    for lane, medians in (("rust-1", one), ("rust-all", many)):
        for rows, median in medians.items():
            case = Case.of("softmax", rows=rows, cols=64)
            cells.append(
                Cell("softmax", case.label, case.sizes, case.x, case.work, lane, OK, median)
            )
    return BenchResult(cells, {"cores": cores, "lanes": ["rust-1", "rust-all"]})


def test_two_threads_slower_than_one_say_more_threads_did_not_help() -> None:
    race = _race({16: 1e-5, 256: 2e-4}, {16: 1.25e-5, 256: 2.1e-4})
    said = speed_tables.threads(race, "softmax")
    assert said == Claim(
        "speed.threads.no_help", {"cores": 2, "threshold": "1.10×", "span": "0.800×–0.952×"}
    )
    for language in LANGUAGES:
        text = translate(said.message, language, **said.fields)
        assert "0.800×–0.952×" in text and "1.10×" in text


def test_threads_that_helped_everywhere_or_somewhere_are_named_by_size() -> None:
    helped = speed_tables.threads(_race({16: 1e-4, 256: 2e-3}, {16: 5e-5, 256: 1e-3}), "softmax")
    assert helped is not None and helped.message == "speed.threads.helped"
    assert helped.fields["span"] == "2.00×"
    mixed = speed_tables.threads(_race({16: 1e-5, 256: 2e-3}, {16: 2e-5, 256: 1e-3}), "softmax")
    assert mixed is not None and mixed.message == "speed.threads.mixed"
    assert mixed.fields["helped"] == ["rows=256 cols=64"]
    assert mixed.fields["other"] == ["rows=16 cols=64"] and mixed.fields["other_span"] == "0.500×"


def test_one_core_or_no_pair_of_rust_lanes_claims_no_speed_up() -> None:
    one_core = speed_tables.threads(_race({16: 1e-5}, {16: 5e-6}, cores=1), "softmax")
    assert one_core == Claim("speed.threads.one_core", {"cores": 1})
    assert speed_tables.threads(_race({16: 1e-5}, {}), "softmax") is None
    assert speed_tables.threads(PREFILL, speed_tables.PREFILL) is None  # no rust-all


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_summary_no_longer_says_every_core(language: str) -> None:
    summary = translate("speed.solved", language)
    assert "every core" not in summary and "所有核心" not in summary
