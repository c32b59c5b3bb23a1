"""Small rendering pieces every walkthrough page shares, so the road looks the same at each stop."""

from __future__ import annotations

import streamlit as st

from transformer_walk.i18n import t


def solved_and_hurts(solved: str, hurts: str) -> None:
    """The stop's summary line, in the spirit of seed 004's table: what this stage solved, and what
    still hurts (which the next stop answers). Arguments are already-translated texts."""
    solved_label, hurts_label = t("common.solved"), t("common.hurts")
    left, right = st.columns(2)
    with left:
        st.success(f"**{solved_label}** {solved}", icon=":material/check_circle:")
    with right:
        st.warning(f"**{hurts_label}** {hurts}", icon=":material/report:")
