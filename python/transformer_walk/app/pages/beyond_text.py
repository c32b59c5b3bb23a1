"""Beyond text: an image cut into patches becomes a sequence of tokens (the ViT idea); one head of
self-attention runs over them on the sidebar's backend. Math in ``topics.patches``; this page
renders."""

from __future__ import annotations

import numpy as np
import streamlit as st

from transformer_walk.app import charts, links, style
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.i18n import current_language, t, translated_radio
from transformer_walk.app.views.labels import shape_label
from transformer_walk.app.views.latex import tex_words
from transformer_walk.app.widgets import page_start, solved_and_hurts
from transformer_walk.topics import patches as vit

SOURCE_KEY = "vit_source"
PATCH_KEY = "vit_patch"
QUERY_KEY = "vit_query"
UPLOAD_KEY = "vit_upload"
QUERY_FOR_KEY = "vit_query_for"  # the patch grid the query pick was made for
DISPLAY_SCALE = 3  # the 96-pixel images are shown 3× larger, pixel for pixel
UPLOAD_ERRORS = {
    "too_big": "beyond_text.upload.too_big",
    "too_large_image": "beyond_text.upload.too_large_image",
    "not_image": "beyond_text.upload.not_image",
    "no_pil": "beyond_text.upload.no_pil",
}


@st.cache_data(show_spinner=False)
def _scene() -> np.ndarray:
    return vit.make_scene()


@st.cache_data(show_spinner=False, max_entries=32)
def _attention(image: np.ndarray, p: int, backend: str) -> tuple[vit.Patches, vit.PatchAttention]:
    patches = vit.patchify(image, p)
    return patches, vit.attend_patches(patches, backend)


def _big(image: np.ndarray, scale: int = DISPLAY_SCALE) -> np.ndarray:
    """Pixel-exact enlargement (the browser would blur a small image): each pixel → scale²."""
    return np.repeat(np.repeat(image, scale, axis=0), scale, axis=1)  # (H, W, 3) → (sH, sW, 3)


def _image() -> np.ndarray:
    """The generated scene, or the user's upload once it passes every check."""
    labels = {"scene": t("beyond_text.source.scene"), "upload": t("beyond_text.source.upload")}
    source = st.radio(
        t("beyond_text.source"),
        options=list(labels),
        format_func=labels.__getitem__,
        horizontal=True,
        key=translated_radio(SOURCE_KEY),
    )
    scene = _scene()
    if source == "upload":
        if not vit.pillow_available():
            st.info(t("beyond_text.upload.no_pil"), icon=":material/image_not_supported:")
        else:
            if current_language() != "en":
                st.html(style.uploader_words(t("beyond_text.upload.button")))
            upload = st.file_uploader(
                t("beyond_text.upload.label"), type=["png", "jpg", "jpeg"], key=UPLOAD_KEY
            )
            if upload is not None:
                try:
                    image = vit.decode_upload(upload.getvalue())
                except vit.UploadError as error:
                    st.warning(t(UPLOAD_ERRORS[error.reason]), icon=":material/warning:")
                else:
                    st.image(
                        _big(image), caption=t("beyond_text.upload.caption", size=vit.SCENE_SIZE)
                    )
                    return image
    st.image(_big(scene), caption=t("beyond_text.scene_caption", size=vit.SCENE_SIZE))
    return scene


def _sequence(patches: vit.Patches, image: np.ndarray) -> None:
    p, (rows, cols) = patches.size, patches.grid
    width = p * p * 3
    m1, m2, m3, m4 = st.columns(4)
    m1.metric("p", str(p))
    m2.metric(t("beyond_text.metric.grid"), shape_label((rows, cols), times=True))
    m3.metric(t("beyond_text.metric.n"), str(patches.n))
    m4.metric(t("beyond_text.metric.width"), f"{width:,}")
    h, w = image.shape[:2]
    st.latex(
        rf"n = \frac{{H}}{{p}}\cdot\frac{{W}}{{p}} = \frac{{{h}}}{{{p}}}\cdot\frac{{{w}}}{{{p}}}"
        rf" = {rows}\cdot{cols} = {patches.n},\qquad "
        rf"{tex_words(t('beyond_text.tex.patch'))}_i \in \mathbb{{R}}^{{{p}\times{p}\times 3}} \to "
        rf"\mathbb{{R}}^{{{width}}}"
    )
    st.subheader(t("beyond_text.sequence.title"))
    st.markdown(t("beyond_text.sequence.body", p=p, width=width))
    scale = max(1, min(DISPLAY_SCALE, 96 // p))
    st.image(_big(vit.strip(patches), scale))


def _embeddings(patches: vit.Patches, att: vit.PatchAttention) -> None:
    d = att.x.shape[1]
    st.header(t("beyond_text.embed.title"), divider="gray")
    st.markdown(t("beyond_text.embed.body", d=d))
    width = att.projection.shape[0]
    st.latex(
        rf"x_i = \operatorname{{flatten}}({tex_words(t('beyond_text.tex.patch'))}_i)"
        rf"\,E + PE_i,\quad "
        rf"E \in \mathbb{{R}}^{{{width}\times{d}}},\quad "
        rf"X \in \mathbb{{R}}^{{{patches.n}\times{d}}}"
    )
    labels = [str(i + 1) for i in range(patches.n)]
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap,
            att.x,
            labels,
            [str(j + 1) for j in range(d)],
            row_title=t("beyond_text.axis.patch"),
            col_title=t("beyond_text.axis.dim"),
            value_title=t("beyond_text.value"),
        ),
        width="content",
    )


def _attention_views(image: np.ndarray, patches: vit.Patches, att: vit.PatchAttention) -> None:
    n = patches.n
    st.header(t("beyond_text.attention.title"), divider="gray")
    st.markdown(t("beyond_text.attention.body", n=n))
    st.latex(
        rf"A = \operatorname{{softmax}}\!\Big(\frac{{(XW^Q)(XW^K)^{{\mathsf T}}}}"
        rf"{{\sqrt{{{att.x.shape[1]}}}}}\Big) \in \mathbb{{R}}^{{{n}\times{n}}}"
    )
    labels = [str(i + 1) for i in range(n)]
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap,
            att.weights,
            labels,
            labels,
            row_title=t("beyond_text.axis.query"),
            col_title=t("beyond_text.axis.key"),
            value_title="αᵢⱼ",
        ),
        width="content",
    )
    # A new grid starts in the middle; so does a return to the page (Streamlit forgets a widget's
    # value when its page is left, while the marker stays).
    if st.session_state.get(QUERY_FOR_KEY) != patches.grid or QUERY_KEY not in st.session_state:
        st.session_state[QUERY_FOR_KEY] = patches.grid
        rows, cols = patches.grid
        st.session_state[QUERY_KEY] = (rows // 2) * cols + cols // 2 + 1  # the middle patch
    query = (
        st.slider(t("beyond_text.query"), 1, n, key=QUERY_KEY, help=t("beyond_text.query_help")) - 1
    )
    row = att.weights[query]
    top = int(row.argmax())
    left, right = st.columns(2)
    with left:
        st.image(_big(vit.overlay(image, row, patches, query)))
        st.caption(
            t("beyond_text.overlay.caption", query=query + 1, top=top + 1, weight=f"{row[top]:.3f}")
        )
    with right:
        rows, cols = patches.grid
        title = t("beyond_text.grid.title")
        st.markdown(f"**{title}**")
        st.vega_lite_chart(
            chart_spec(
                charts.heatmap,
                vit.weights_on_grid(row, patches.grid),
                [str(r + 1) for r in range(rows)],
                [str(c + 1) for c in range(cols)],
                row_title=t("beyond_text.axis.row"),
                col_title=t("beyond_text.axis.col"),
                value_title=f"a({query + 1}, j)",
                fmt=".2f",
                width=charts.HALF,
            ),
            width="content",
        )
        st.caption(t("beyond_text.row_sum", query=query + 1, total=f"{row.sum():.6f}"))
    st.info(t("beyond_text.untrained"), icon=":material/casino:")


def render() -> None:
    backend = page_start("beyond_text.title")
    if backend is None:
        return
    st.markdown(t("beyond_text.intro"))
    image = _image()
    links.linked(PATCH_KEY, 16, list(vit.PATCH_SIZES))
    st.session_state.setdefault(PATCH_KEY, 16)
    p = st.select_slider(
        t("beyond_text.patch"),
        options=list(vit.PATCH_SIZES),
        key=PATCH_KEY,
        help=t("beyond_text.patch_help"),
    )
    with st.spinner():
        patches, att = _attention(image, p, backend)
    _sequence(patches, image)
    _embeddings(patches, att)
    _attention_views(image, patches, att)
    st.header(t("beyond_text.clip.title"), divider="gray")
    st.markdown(t("beyond_text.clip.body"))
    solved_and_hurts(t("beyond_text.solved"), t("beyond_text.hurts"))


render()
