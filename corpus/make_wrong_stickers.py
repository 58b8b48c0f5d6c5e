#!/usr/bin/env python3
"""Makes deliberately wrong stickers for `stickers fit` (tests and `make demo`), with Pillow
and libwebp's encoders (cwebp, img2webp), independently of StickerKit's own encoders.

Usage: make_wrong_stickers.py OUTDIR [--heavy] [--noise]

Always: too-small.png (200x150, not square), too-big.gif (700x700 GIF), wave.webp (an
animated WebP), still.webp (a lossy still WebP with alpha), broken.webp (cut short), dot.png
(408x408, a small red square on transparent: fits in a few hundred bytes).
--heavy: heavy.png, a 618 px, 60-frame, 30 fps APNG of noisy photographic art (a few MB, far
over 500 KB). --noise: noise.png, one frame of 618 px random noise (cannot fit in 1,000 bytes).
"""
import os
import subprocess
import sys

import numpy as np
from PIL import Image, ImageDraw


def disc_alpha(side, margin):
    y, x = np.mgrid[0:side, 0:side]
    r = (side / 2 - margin)
    d = np.sqrt((x - side / 2 + 0.5) ** 2 + (y - side / 2 + 0.5) ** 2)
    return np.clip((r - d) * 255 / 3, 0, 255).astype(np.uint8)


def heavy(path):
    side, frames = 618, 60
    rng = np.random.default_rng(7)
    y, x = np.mgrid[0:side, 0:side].astype(np.float32)
    # A "photo": smooth colour fields plus sensor noise that stays put from frame to frame.
    base = np.stack([120 + 80 * np.sin(x / 90), 110 + 70 * np.cos(y / 70), 130 + 60 * np.sin((x + y) / 120)], axis=-1)
    base += rng.normal(0, 3, (side, side, 3))
    alpha = disc_alpha(side, 6)
    images = []
    for f in range(frames):
        img = base.copy()
        cx = 150 + 300 * (f / frames)
        cy = 300 + 80 * np.sin(f / frames * 2 * np.pi)
        blob = np.exp(-(((x - cx) ** 2 + (y - cy) ** 2) / (2 * 45 ** 2)))
        img += blob[..., None] * np.array([110, -40, -60], np.float32)
        rgba = np.dstack([np.clip(img, 0, 255).astype(np.uint8), alpha])
        images.append(Image.fromarray(rgba, "RGBA"))
    images[0].save(path, save_all=True, append_images=images[1:], duration=33, loop=0, disposal=0, blend=0)


def noise(path):
    rng = np.random.default_rng(3)
    Image.fromarray(rng.integers(0, 256, (618, 618, 4), dtype=np.uint8), "RGBA").save(path)


def sticker_frame(i, size, background=(0, 0, 0, 0)):
    w, h = size
    image = Image.new("RGBA", size, background)
    draw = ImageDraw.Draw(image)
    draw.ellipse([w * 0.1 + i * 3, h * 0.15, w * 0.7 + i * 3, h * 0.85], fill=(240, 80 + i * 10, 60, 255))
    draw.rectangle([w * 0.55, h * 0.2, w * 0.9, h * 0.5], fill=(40, 120, 220, 180))
    return image


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    sticker_frame(0, (200, 150)).save(os.path.join(out, "too-small.png"))
    dot = Image.new("RGBA", (408, 408), (0, 0, 0, 0))
    ImageDraw.Draw(dot).rectangle([190, 190, 217, 217], fill=(230, 30, 30, 255))
    dot.save(os.path.join(out, "dot.png"))
    big = [sticker_frame(i, (700, 700)).convert("RGB").quantize(64) for i in range(6)]
    big[0].save(os.path.join(out, "too-big.gif"), save_all=True, append_images=big[1:], duration=100, loop=0)
    scratch = os.path.join(out, ".webp-frames")
    os.makedirs(scratch, exist_ok=True)
    names = []
    for i in range(5):
        name = os.path.join(scratch, "w%d.png" % i)
        sticker_frame(i * 2, (320, 320)).save(name)
        names.append(name)
    subprocess.run(["img2webp", "-loop", "0", "-d", "90", "-lossy", "-q", "80"] + names + ["-o", os.path.join(out, "wave.webp")],
                   check=True, capture_output=True)
    subprocess.run(["cwebp", "-quiet", "-q", "85", names[0], "-o", os.path.join(out, "still.webp")], check=True)
    with open(os.path.join(out, "wave.webp"), "rb") as f:
        data = f.read()
    with open(os.path.join(out, "broken.webp"), "wb") as f:
        f.write(data[: len(data) // 2])
    for name in names:
        os.remove(name)
    os.rmdir(scratch)
    if "--heavy" in sys.argv:
        heavy(os.path.join(out, "heavy.png"))
    if "--noise" in sys.argv:
        noise(os.path.join(out, "noise.png"))


if __name__ == "__main__":
    main()
