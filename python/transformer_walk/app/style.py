"""The few CSS rules the app adds to Streamlit's own, each for a defect seen in the browser."""

from __future__ import annotations

# KaTeX lets a display formula scroll sideways (overflow-x: auto), which clips it vertically too:
# the numerator of "30 / 264" lost its top 6 px. Padding inside the scroll box gives it room.
# The model's text on Next token is shown literally (byte_text.text_html): its spaces and line
# breaks kept, what was generated highlighted so that an added space or newline is seen.
CSS = """<style>
.katex-display { padding: 0.45em 0; }
.tw-literal { white-space: pre-wrap; overflow-wrap: anywhere; line-height: 1.6; }
.tw-literal mark { background: #fde68a; color: inherit; padding: 0 1px; border-radius: 2px; }
.tw-note { font-style: italic; opacity: 0.7; margin: 0.2em 0 0; }
</style>"""


def uploader_words(button: str) -> str:
    """CSS that shows ``button`` on Streamlit's file uploader instead of its built-in English
    "Upload", and hides its English "2MB per file • PNG, JPG" (the widget's own label, in the
    page's language, says the same). Streamlit does not translate these; a Chinese page showed
    them in English."""
    word = button.replace("\\", "").replace('"', "")
    text = '[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] p'
    return f"""<style>
{text} {{ font-size: 0; }}
{text}::after {{ content: "{word}"; font-size: 0.875rem; }}
[data-testid="stFileUploaderDropzoneInstructions"] {{ display: none; }}
</style>"""


def input_hints(enter: str, ctrl_enter: str) -> str:
    """CSS that shows ``enter`` and ``ctrl_enter`` in place of the English "Press Enter to apply"
    and "Press Ctrl+Enter to apply" that Streamlit writes under a text box being edited (it does
    not translate them). The hint, shown while the box has unapplied text, is the first of two
    instructions, before the character count; the count alone (every box here has a
    ``max_chars``) stays as it is."""
    hint = '[data-testid="InputInstructions"] > span:first-child:not(:only-child)'
    rules = []
    for box, words in (("stTextInput", enter), ("stTextArea", ctrl_enter)):
        word = words.replace("\\", "").replace('"', "")
        rules.append(f".{box} {hint} {{ font-size: 0; }}")
        rules.append(f'.{box} {hint}::after {{ content: "{word}"; font-size: 0.75rem; }}')
    return "<style>\n" + "\n".join(rules) + "\n</style>"
