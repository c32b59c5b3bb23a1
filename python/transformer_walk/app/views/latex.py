"""LaTeX for the worked example: the formulas of “From word vectors to Transformer”, and the same
with the trace's numbers.

Kept out of the page so the page only places them; the notation follows the article
(q, k_j, s_j, α_j, v_j, z, d_k, W^Q).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from transformer_walk.topics.worked_example import AttentionTrace

# The general formulas, eq. (11)–(13) of the article and the matrix form they add up to.
MATCH = r"s_j = f(\boldsymbol{q}, \boldsymbol{k}_j)"
QUERY = r"\boldsymbol{q}_{\text{his}} = \boldsymbol{x}_{\text{his}}\,W^Q"
SCORE = (
    r"s_{\text{his},j} = \frac{\boldsymbol{q}_{\text{his}}\,\boldsymbol{k}_j^{\mathrm T}}"
    r"{\sqrt{d_k}}"
)
SOFTMAX = r"\alpha_j = \frac{\exp(s_j)}{\sum_{\ell=1}^{n} \exp(s_\ell)}"
SOFTMAX_STABLE = (
    r"\alpha_j = \frac{\exp(s_j - m)}{\sum_{\ell=1}^{n} \exp(s_\ell - m)},"
    r"\qquad m = \max_\ell s_\ell"
)
WEIGHTED_SUM = r"\boldsymbol{z} = \sum_{j=1}^{n} \alpha_j\,\boldsymbol{v}_j"
MATRIX_FORM = (
    r"\operatorname{Attention}(Q,K,V) = "
    r"\operatorname{softmax}\!\left(\frac{QK^{\mathrm T}}{\sqrt{d_k}}\right)V"
)
FUSED_CALL = (
    r"\boldsymbol{z}_{\text{his}} = \operatorname{softmax}\!\left(\boldsymbol{s}_{\text{his}}"
    r"\, I_n^{\mathrm T} \cdot 1\right) V = \boldsymbol{\alpha}_{\text{his}}\, V"
)
MULTI_HEAD = (
    r"\operatorname{MultiHead}(X) = \operatorname{Concat}(\text{head}_1,\ldots,"
    r"\text{head}_h)\,W^O,\quad \text{head}_i = \operatorname{Attention}"
    r"(XW_i^Q, XW_i^K, XW_i^V)"
)


_TEX_SPECIAL = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "^": r"\^{}", "#": r"\#",
    "$": r"\$", "%": r"\%", "&": r"\&", "~": r"\~{}",
}  # fmt: skip


def tex_words(words: str) -> str:
    r"""``words`` (a translated message) as upright text in a formula: ``\text{…}`` with the
    characters KaTeX would read as commands escaped, so a word of any language is safe there."""
    return r"\text{" + "".join(_TEX_SPECIAL.get(ch, ch) for ch in words) + "}"


def power_of_ten(text: str) -> str:
    """A number as Python prints it, in LaTeX: "2.79e-09" → 2.79 \\times 10^{-9}; a number
    without an exponent ("0.5", "0") stays as it is."""
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    return rf"{mantissa} \times 10^{{{int(exponent)}}}"


def scientific(x: float, digits: int) -> str:
    """x in LaTeX with ``digits`` decimals and a power of ten: 1.230 \\times 10^{-4}; 0 is 0."""
    return "0" if x == 0 else power_of_ten(f"{x:.{digits}e}")


def number(x: float, digits: int = 3) -> str:
    """A LaTeX number: fixed decimals, or a power of ten when fixed would print as zero."""
    if x == 0 or not math.isfinite(x) or abs(x) >= 10 ** (-digits) / 2:
        text = f"{x:.{digits}f}"
        return "0." + "0" * digits if text.lstrip("-").strip("0.") == "" else text
    return scientific(x, 1)


def vector(values: Iterable[float], digits: int = 3) -> str:
    return r"[" + r",\;".join(number(v, digits) for v in values) + r"]"


def _name(token: str) -> str:
    return r"\text{" + token.replace("\\", "").replace("{", "").replace("}", "") + "}"


def scores(trace: AttentionTrace) -> str:
    """s_his = [2.5, 0.5, 1.0, 0.8]"""
    return rf"\boldsymbol{{s}}_{{{_name(trace.query_token)}}} = {vector(trace.scores, 2)}"


def softmax_of_top(trace: AttentionTrace) -> str:
    """The top weight worked out: α_Tom = exp(2.5 − 2.5) / Σ = 1.000 / 1.541 = 0.649."""
    j = trace.top_index
    return (
        rf"\alpha_{{{_name(trace.tokens[j])}}} = \frac{{\exp({number(trace.scores[j], 2)} - "
        rf"{number(trace.max_score, 2)})}}{{{number(trace.exp_sum)}}} = "
        rf"\frac{{{number(trace.shifted_exp[j])}}}{{{number(trace.exp_sum)}}} = "
        rf"{number(trace.weights[j])}"
    )


def weights(trace: AttentionTrace) -> str:
    """α_his = softmax(s_his) ≈ [0.649, 0.088, 0.145, 0.119]"""
    name = _name(trace.query_token)
    return (
        rf"\boldsymbol{{\alpha}}_{{{name}}} = \operatorname{{softmax}}(\boldsymbol{{s}}_{{{name}}})"
        rf" \approx {vector(trace.weights)}"
    )


def weighted_sum(trace: AttentionTrace) -> str:
    """z_his = 0.649·[1, 0] + 0.088·[0, 1] + … ≈ [0.853, 0.292]"""
    terms = r" + ".join(
        rf"{number(a)}\,{vector(v, 2)}" for a, v in zip(trace.weights, trace.values, strict=True)
    )
    return (
        rf"\boldsymbol{{z}}_{{{_name(trace.query_token)}}} = {terms} "
        rf"\approx {vector(trace.weighted_sum)}"
    )
