"""transformer-walk: the Streamlit entry. It only routes (pages: transformer_walk.app.pages).

streamlit run app.py
"""

import streamlit as st

from transformer_walk.app import links, style
from transformer_walk.app.navigation import build_navigation
from transformer_walk.app.sidebar import render_sidebar

st.set_page_config(page_title="Transformer walk", page_icon=":material/route:", layout="wide")
st.html(style.CSS)  # style only: Streamlit applies it without drawing an element
with links.in_step():  # the address: read by a new session, kept in step after every run
    render_sidebar()
    build_navigation().run()
