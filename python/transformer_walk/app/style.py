"""The few CSS rules the app adds to Streamlit's own, each for a defect seen in the browser."""

from __future__ import annotations

# KaTeX lets a display formula scroll sideways (overflow-x: auto), which clips it vertically too:
# the numerator of "30 / 264" lost its top 6 px. Padding inside the scroll box gives it room.
CSS = """<style>
.katex-display { padding: 0.45em 0; }
</style>"""
