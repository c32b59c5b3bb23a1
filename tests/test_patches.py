"""Patches as tokens: cutting, embedding, attention over patches, overlay, upload checks."""

from __future__ import annotations

import io

import numpy as np
import pytest

from transformer_walk.models.toy import positional_encoding
from transformer_walk.topics import patches as vit


def test_scene_is_deterministic_and_coloured() -> None:
    a, b = vit.make_scene(), vit.make_scene()
    assert a.shape == (96, 96, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert len(np.unique(a.reshape(-1, 3), axis=0)) > 5  # a scene, not a flat colour


@pytest.mark.parametrize("p", vit.PATCH_SIZES)
def test_patchify_reads_row_by_row(p: int) -> None:
    img = vit.make_scene()
    pt = vit.patchify(img, p)
    rows, cols = 96 // p, 96 // p
    assert pt.grid == (rows, cols) and pt.n == rows * cols
    k = rows * cols - 1  # the last patch: bottom right
    assert np.array_equal(pt.pixels[k], img[(rows - 1) * p : rows * p, (cols - 1) * p : cols * p])
    assert np.array_equal(pt.pixels[1], img[0:p, p : 2 * p])  # second patch: right of the first
    assert pt.flat.shape == (pt.n, p * p * 3) and pt.flat.max() <= 1.0


def test_patchify_crops_and_rejects_too_big_patches() -> None:
    img = np.zeros((50, 70, 3), dtype=np.uint8)
    assert vit.patchify(img, 16).grid == (3, 4)
    with pytest.raises(ValueError):
        vit.patchify(img, 64)


@pytest.mark.parametrize("backend", ["python", "numpy", "rust"])
def test_attention_over_patches(backend: str) -> None:
    pt = vit.patchify(vit.make_scene(), 24)
    att = vit.attend_patches(pt, backend)
    np.testing.assert_allclose(att.positions, positional_encoding(16, vit.D_MODEL))
    np.testing.assert_allclose(att.x, att.embeddings + att.positions)
    np.testing.assert_allclose(att.embeddings, (pt.flat - 0.5) @ att.projection * 4.0)
    assert att.weights.shape == (16, 16)
    np.testing.assert_allclose(att.weights.sum(1), 1.0, atol=1e-9)
    reference = vit.attend_patches(pt, "numpy")
    np.testing.assert_allclose(att.weights, reference.weights, atol=1e-9)


def test_overlay_and_strip() -> None:
    img = vit.make_scene()
    pt = vit.patchify(img, 32)
    row = np.zeros(9)
    row[4] = 1.0
    out = vit.overlay(img, row, pt, query=0)
    assert out.shape == (96, 96, 3) and out.dtype == np.uint8
    assert out[48, 48, 0] > out[48, 48, 1]  # the attended centre patch is red
    assert tuple(out[0, 0]) == (255, 230, 0)  # the query's frame
    assert vit.weights_on_grid(np.arange(9), (3, 3))[1, 2] == 5
    s = vit.strip(pt, gap=2)
    assert s.shape == (32, 9 * 34 - 2, 3)
    assert np.array_equal(s[:, 34:66], pt.pixels[1])


def png_bytes(width: int, height: int) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (10, 200, 30)).save(buffer, format="PNG")
    return buffer.getvalue()


def test_upload_checks() -> None:
    with pytest.raises(vit.UploadError) as error:
        vit.decode_upload(b"x" * (vit.MAX_UPLOAD_BYTES + 1))
    assert error.value.reason == "too_big"
    if not vit.pillow_available():
        pytest.skip("Pillow not installed")
    with pytest.raises(vit.UploadError) as error:
        vit.decode_upload(b"not an image at all")
    assert error.value.reason == "not_image"
    with pytest.raises(vit.UploadError) as error:
        vit.decode_upload(png_bytes(1100, 20))
    assert error.value.reason == "too_large_image"
    img = vit.decode_upload(png_bytes(200, 120))
    assert img.shape == (96, 96, 3) and tuple(img[50, 50]) == (10, 200, 30)
