"""Long token tables are drawn whole, not in a ten-row scroll box."""

from __future__ import annotations

from unittest import mock

import streamlit as st

from transformer_walk.app.widgets import TABLE_FRAME_PX, TABLE_ROW_PX, table_height

from apptest_support import open_page


def test_a_table_is_as_tall_as_its_rows_up_to_the_limit() -> None:
    assert table_height(4) == TABLE_FRAME_PX + 4 * TABLE_ROW_PX
    assert table_height(0) == table_height(1)  # an empty table still has its header and a row
    assert table_height(40) == TABLE_FRAME_PX + 40 * TABLE_ROW_PX
    assert table_height(500) == table_height(50)  # longer ones scroll


def test_the_pages_size_their_token_tables_by_the_sentence() -> None:
    """AppTest does not expose a table's height, so the calls are watched on their way in."""
    sentence = " ".join(f"w{i}" for i in range(30))
    with mock.patch.object(st, "dataframe", wraps=st.dataframe) as dataframe:
        open_page("qkv.py", sentence=sentence, assert_no_exception=True)
    heights = [c.kwargs.get("height") for c in dataframe.call_args_list if len(c.args[0]) == 30]
    assert len(heights) == 2 and all(h == table_height(30) for h in heights)  # α table, ΔQ table
