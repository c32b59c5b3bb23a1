"""An image as a sequence of tokens, the Vision Transformer's idea: cut it into p × p patches,
flatten each, project it linearly to d_model, add positions, and let self-attention run over the
patches exactly as it runs over words.

Everything here is NumPy plus the chosen backend's ``attention_weights``; the scene is generated
(no file, no download), and an uploaded image is decoded only when Pillow is available, with its
size checked before and after decoding.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

import numpy as np

from transformer_walk.core import get_backend
from transformer_walk.models.toy import positional_encoding

SCENE_SIZE = 96  # pixels per side of the generated scene
PATCH_SIZES = (8, 12, 16, 24, 32, 48)  # each divides 96: from 144 patches down to 4
D_MODEL = 16  # width of a patch embedding (small: pure Python attends over up to 144 patches)
MAX_UPLOAD_BYTES = 2 * 1024 * 1024
MAX_UPLOAD_SIDE = 1024  # pixels, before downscaling to SCENE_SIZE


def make_scene(size: int = SCENE_SIZE) -> np.ndarray:
    """A deterministic little landscape [size, size, 3] uint8: sky, sun, house, roof, grass."""
    y, x = np.mgrid[0:size, 0:size] / size  # (size, size) each, in [0, 1)
    img = np.zeros((size, size, 3))
    img[...] = np.stack([0.45 + 0.3 * y, 0.65 + 0.2 * y, np.full_like(y, 0.95)], axis=-1)  # sky
    sun = (x - 0.78) ** 2 + (y - 0.2) ** 2 < 0.11**2
    img[sun] = (1.0, 0.85, 0.2)
    grass = y > 0.72
    img[grass] = np.stack([0.2 + 0 * y, 0.6 - 0.2 * (y - 0.72), 0.2 + 0 * y], axis=-1)[grass]
    wall = (x > 0.18) & (x < 0.52) & (y > 0.45) & (y <= 0.74)
    img[wall] = (0.85, 0.35, 0.25)
    roof = (y > 0.25) & (y <= 0.45) & (np.abs(x - 0.35) < (y - 0.25) * 1.0)
    img[roof] = (0.45, 0.2, 0.15)
    door = (x > 0.31) & (x < 0.39) & (y > 0.6) & (y <= 0.74)
    img[door] = (0.3, 0.18, 0.1)
    return (img * 255).round().astype(np.uint8)


@dataclass(frozen=True)
class Patches:
    size: int  # p: each patch is p × p pixels
    grid: tuple[int, int]  # (rows, cols) of patches
    pixels: np.ndarray  # [n, p, p, 3] uint8, in reading order (row by row)

    @property
    def n(self) -> int:
        return self.pixels.shape[0]

    @property
    def flat(self) -> np.ndarray:
        """[n, p·p·3] each patch flattened to one vector, scaled to [0, 1]: the "token"."""
        return self.pixels.reshape(self.n, -1).astype(np.float64) / 255.0


def patchify(image: np.ndarray, p: int) -> Patches:
    """Cut ``image`` [H, W, 3] into p × p patches, row by row (the edges that do not fill a whole
    patch are cropped)."""
    if p < 1:
        raise ValueError("the patch size must be at least 1 pixel")
    rows, cols = image.shape[0] // p, image.shape[1] // p
    if rows == 0 or cols == 0:
        raise ValueError(f"a {p}-pixel patch does not fit in a {image.shape[:2]} image")
    img = image[: rows * p, : cols * p]
    blocks = img.reshape(rows, p, cols, p, 3)  # (H, W, 3) → (rows, p, cols, p, 3)
    pixels = blocks.transpose(0, 2, 1, 3, 4).reshape(rows * cols, p, p, 3)  # → (n, p, p, 3)
    return Patches(p, (rows, cols), pixels)


def strip(patches: Patches, gap: int = 2, per_row: int = 24) -> np.ndarray:
    """The patches as a sequence for display: left to right with white gaps, wrapping after
    ``per_row`` patches → uint8 image."""
    p, n = patches.size, patches.n
    cols = min(n, per_row)
    lines = math.ceil(n / cols)
    out = np.full((lines * (p + gap) - gap, cols * (p + gap) - gap, 3), 255, dtype=np.uint8)
    for k in range(n):
        r, c = divmod(k, cols)
        out[r * (p + gap) : r * (p + gap) + p, c * (p + gap) : c * (p + gap) + p] = patches.pixels[
            k
        ]
    return out


@dataclass(frozen=True)
class PatchAttention:
    projection: np.ndarray  # [p·p·3, d_model] E, the linear patch embedding
    embeddings: np.ndarray  # [n, d_model] patches · E
    positions: np.ndarray  # [n, d_model] sinusoidal PE of the reading order
    x: np.ndarray  # [n, d_model] embeddings + positions
    weights: np.ndarray  # [n, n] one head's softmax(q kᵀ / √d_model)


def attend_patches(
    patches: Patches, backend: str, d_model: int = D_MODEL, seed: int = 0
) -> PatchAttention:
    """Seeded linear embedding + positions, then one head of self-attention over the patches,
    its weights computed by ``backend``'s ``attention_weights``."""
    rng = np.random.default_rng([seed, patches.size])
    flat = patches.flat  # (n, p·p·3)
    width = flat.shape[1]
    projection = rng.standard_normal((width, d_model)) / math.sqrt(width)
    # Centre the pixels so a bright patch is not just "a bigger vector" in every direction.
    embeddings = (flat - 0.5) @ projection * 4.0  # (n, d_model), scaled to about unit variance
    pe = positional_encoding(patches.n, d_model)
    x = embeddings + pe
    w_q = rng.standard_normal((d_model, d_model)) / math.sqrt(d_model)
    w_k = rng.standard_normal((d_model, d_model)) / math.sqrt(d_model)
    q, k = (x @ w_q)[None], (x @ w_k)[None]  # (1, n, d_model): one head
    weights = np.asarray(get_backend(backend).attention_weights(q, k))[0]  # (n, n)
    return PatchAttention(projection, embeddings, pe, x, weights)


def weights_on_grid(row: np.ndarray, grid: tuple[int, int]) -> np.ndarray:
    """One query's weights [n] back on the patch grid → [rows, cols]."""
    return np.asarray(row).reshape(grid)


def overlay(
    image: np.ndarray, row: np.ndarray, patches: Patches, query: int, alpha: float = 0.6
) -> np.ndarray:
    """The image with one query patch's attention blended over it in red (weights scaled so the
    largest is full strength) and the query patch framed in yellow → uint8 [H', W', 3]."""
    p, (rows, cols) = patches.size, patches.grid
    img = image[: rows * p, : cols * p].astype(np.float64)
    heat = weights_on_grid(row, patches.grid)
    heat = heat / heat.max() if heat.max() > 0 else heat
    per_pixel = np.kron(heat, np.ones((p, p)))[..., None]  # (rows, cols) → (H', W', 1)
    red = np.array([255.0, 0.0, 0.0])
    dimmed = img * (1 - alpha) + img.mean(-1, keepdims=True) * alpha * 0.5  # grey the base
    out = dimmed * (1 - per_pixel) + (alpha * red + (1 - alpha) * img) * per_pixel
    r, c = divmod(query, cols)
    frame = (255, 230, 0)
    y0, x0 = r * p, c * p
    out[y0 : y0 + p, [x0, x0 + p - 1]] = frame
    out[[y0, y0 + p - 1], x0 : x0 + p] = frame
    return out.clip(0, 255).round().astype(np.uint8)


# --- uploads ----------------------------------------------------------------------------------


class UploadError(ValueError):
    """An upload that cannot be used; ``reason`` is one of: too_big, no_pil, not_image,
    too_large_image."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def pillow_available() -> bool:
    try:
        import PIL  # noqa: F401
    except ImportError:
        return False
    return True


def decode_upload(data: bytes, size: int = SCENE_SIZE) -> np.ndarray:
    """The upload as a [size, size, 3] uint8 image: checked for byte size, verified by Pillow,
    checked for pixel size, converted to RGB and downscaled (centre-cropped to a square)."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise UploadError("too_big")
    if not pillow_available():
        raise UploadError("no_pil")
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as probe:
            probe.verify()  # structure only; the image must be reopened to be read
        with Image.open(io.BytesIO(data)) as image:
            if max(image.size) > MAX_UPLOAD_SIDE:
                raise UploadError("too_large_image")
            rgb = image.convert("RGB")
    except UploadError:
        raise
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        raise UploadError("not_image") from None
    side = min(rgb.size)
    left, top = (rgb.width - side) // 2, (rgb.height - side) // 2
    square = rgb.crop((left, top, left + side, top + side)).resize((size, size))
    return np.asarray(square, dtype=np.uint8)
