"""The app's pages. Streamlit runs each file as a script (see transformer_walk.app.navigation)."""
