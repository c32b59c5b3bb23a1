"""Guards the test harness itself (conftest.py, apptest_support.py): its shortcuts must not hide
what they shortcut."""

from __future__ import annotations

import altair as alt
import pandas as pd
import pytest

from apptest_support import open_page, page_hash


def test_an_invalid_chart_is_still_refused_every_time() -> None:
    """The schema verdicts conftest keeps must keep refusals too, not only passes."""
    data = pd.DataFrame({"a": [1]})
    for _ in range(2):  # the second time from the kept verdict
        with pytest.raises(alt.utils.schemapi.SchemaValidationError, match="size"):
            alt.Chart(data).mark_point(size="big").encode(x="a:Q").to_dict()
        alt.Chart(data).mark_point(size=3).encode(x="a:Q").to_dict()


def test_open_page_opens_the_page_asked_for() -> None:
    at = open_page("qkv.py")
    assert at._finished_page_script_hash == page_hash("qkv.py") != page_hash("tokens.py")
    assert not at.exception


def test_numpy_runs_on_one_blas_thread_in_the_tests() -> None:
    """conftest's one-BLAS-thread setting must come before NumPy's first import, or it is
    silently ignored (and OpenBLAS's spinning threads slow every test on a busy machine)."""
    import os

    from threadpoolctl import threadpool_info

    wanted = int(os.environ["OPENBLAS_NUM_THREADS"])  # 1 unless set before the tests
    blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
    assert blas and all(pool["num_threads"] == wanted for pool in blas), blas
