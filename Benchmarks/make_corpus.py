#!/usr/bin/env python3
"""The benchmark corpus: sticker-like animations (APNG, GIF) and stills (PNG), deterministic.

Usage: python3 Benchmarks/make_corpus.py OUT_DIR [--no-stress]

Writes OUT_DIR/*.png|*.gif at the three sticker sizes (300, 408, 618 px) and, unless
--no-stress, OUT_DIR/stress/ (1024 px, 100 frames, for scaling across cores), then prints one
line a file: name, size, frames, bytes.

The pictures are drawn with numpy as cartoon stickers are: flat and gradient-filled shapes with
anti-aliased edges, soft shadows and glows on a transparent canvas, so they compress like real
stickers, not like noise. Pillow encodes them: it crops each frame to what changed, so the files
hold sub-rectangle frames; the dispose and blend operations, palettes (global or one per frame)
and interlacing vary from file to file, and one file changes its whole canvas every frame.
Needs numpy and Pillow.
"""
import math
import sys
from pathlib import Path

import numpy as np
from PIL import Image

# APNG dispose ops (Pillow's names) and GIF disposal methods.
NONE, BACKGROUND, PREVIOUS = 0, 1, 2
GIF_KEEP, GIF_CLEAR = 1, 2


class Picture:
    """A premultiplied float RGBA canvas that shapes are painted onto, edges anti-aliased."""

    def __init__(self, side):
        self.side = side
        self.rgba = np.zeros((side, side, 4), np.float32)
        y, x = np.mgrid[0:side, 0:side].astype(np.float32) + 0.5
        self.x, self.y = x, y

    def paint(self, distance, color, opacity=1.0, softness=1.0):
        """Paints where the signed distance is negative, with a `softness`-px edge."""
        coverage = np.clip(0.5 - distance / softness, 0.0, 1.0) * opacity
        rgb = np.broadcast_to(np.asarray(color, np.float32), self.rgba[..., :3].shape) if not callable(color) else color(self.x, self.y)
        k = coverage[..., None]
        self.rgba[..., :3] = rgb * k + self.rgba[..., :3] * (1 - k)
        self.rgba[..., 3] = coverage + self.rgba[..., 3] * (1 - coverage)

    def image(self):
        """Straight-alpha 8-bit RGBA."""
        alpha = self.rgba[..., 3:4]
        rgb = np.where(alpha > 0, self.rgba[..., :3], 0)
        out = np.concatenate([rgb, alpha], axis=2)
        return Image.fromarray((np.clip(out, 0, 1) * 255 + 0.5).astype(np.uint8), "RGBA")


def ellipse(p, cx, cy, rx, ry):
    return (np.hypot((p.x - cx) / rx, (p.y - cy) / ry) - 1) * min(rx, ry)


def radial(cx, cy, r, inner, outer):
    inner, outer = np.asarray(inner, np.float32), np.asarray(outer, np.float32)

    def color(x, y):
        t = np.clip(np.hypot(x - cx, y - cy) / r, 0, 1)[..., None]
        return inner * (1 - t) + outer * t
    return color


def face(p, cx, cy, r, blink):
    eye = max(0.08, 1 - blink) * r * 0.14
    for side in (-1, 1):
        p.paint(ellipse(p, cx + side * r * 0.35, cy - r * 0.15, r * 0.11, eye), (0.1, 0.1, 0.15))
    mouth = np.abs(ellipse(p, cx, cy + r * 0.15, r * 0.3, r * 0.2)) - r * 0.04
    p.paint(np.where(p.y > cy + r * 0.15, mouth, 1e3), (0.3, 0.05, 0.1))


def bounce(side, t, backdrop=False):
    """A blob bouncing with squash and stretch over its soft shadow."""
    p = Picture(side)
    if backdrop:
        # A faint colour wash drifting over the whole canvas: every pixel changes each frame.
        phase = 2 * math.pi * t
        p.paint(np.full((side, side), -1.0, np.float32),
                lambda x, y: np.stack([0.5 + 0.5 * np.sin(x / side * 6 + phase), 0.6 + 0.0 * x,
                                       0.5 + 0.5 * np.cos(y / side * 6 - phase)], axis=-1), opacity=0.35)
    h = abs(math.sin(math.pi * t))
    squash = 1 + 0.25 * max(0.0, 1 - h * 4)
    r = side * 0.24
    cx, cy = side / 2, side * 0.72 - h * side * 0.4
    p.paint(ellipse(p, cx, side * 0.9, r * (1.1 - 0.4 * h), r * 0.18), (0, 0, 0), opacity=0.35, softness=side * 0.03)
    p.paint(ellipse(p, cx, cy, r * squash, r / squash), radial(cx - r * 0.3, cy - r * 0.4, r * 1.6, (0.6, 0.95, 0.7), (0.1, 0.55, 0.3)))
    p.paint(np.abs(ellipse(p, cx, cy, r * squash, r / squash)) - side * 0.006, (0.05, 0.25, 0.12))
    face(p, cx, cy, r, blink=1.0 if 0.45 < t < 0.55 else 0.0)
    return p.image()


def wave(side, t):
    """A ribbon waving across the sticker, a sun behind it, sparkles coming and going."""
    p = Picture(side)
    p.paint(ellipse(p, side * 0.7, side * 0.3, side * 0.18, side * 0.18), radial(side * 0.7, side * 0.3, side * 0.2, (1, 0.95, 0.5), (1, 0.6, 0.1)))
    phase = 2 * math.pi * t
    center = side * 0.55 + side * 0.12 * np.sin(p.x / side * 2 * math.pi + phase)
    p.paint(np.abs(p.y - center) - side * 0.09, lambda x, y: np.stack(
        [0.9 + 0.1 * np.sin(x / 30), 0.3 + 0.2 * np.cos(x / 40 + phase), 0.5 + 0.0 * x], axis=-1))
    for k in range(5):
        a = 2 * math.pi * (k / 5 + t)
        sx, sy = side * (0.5 + 0.35 * math.cos(a)), side * (0.5 + 0.35 * math.sin(a * 2))
        p.paint(ellipse(p, sx, sy, side * 0.02, side * 0.02), (1, 1, 1), opacity=0.5 + 0.5 * math.sin(a))
    return p.image()


def heart(side, t):
    """A heart beating inside a soft pink glow."""
    p = Picture(side)
    beat = 1 + 0.12 * max(0.0, math.sin(2 * math.pi * t)) ** 4
    p.paint(ellipse(p, side / 2, side / 2, side * 0.45 * beat, side * 0.45 * beat), (1, 0.5, 0.7), opacity=0.35, softness=side * 0.2)
    s = side * 0.3 * beat
    x, y = (p.x - side / 2) / s, -(p.y - side * 0.52) / s
    inside = (x * x + y * y - 1) ** 3 - x * x * y ** 3  # the classic heart curve
    p.paint(np.cbrt(inside) * s * 0.5, radial(side * 0.4, side * 0.4, s * 1.5, (1, 0.4, 0.5), (0.75, 0.05, 0.2)))
    return p.image()


SCENES = {"bounce": bounce, "wave": wave, "heart": heart, "bounce_full": lambda side, t: bounce(side, t, backdrop=True)}


def save_apng(path, frames, dispose, blend, delay=40):
    n = len(frames)
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=delay, loop=0,
                   disposal=[dispose[i % len(dispose)] for i in range(n)], blend=[blend[i % len(blend)] for i in range(n)])


def save_gif(path, frames, disposal, local_palettes, interlace, delay=40):
    if local_palettes:
        # One adaptive palette a frame: Pillow writes each as a local colour table.
        paletted = [f.quantize(255, method=Image.Quantize.FASTOCTREE) for f in frames]
    else:
        # One palette, made from a sample of every frame, for every frame.
        strip = Image.new("RGBA", (frames[0].width, frames[0].height * 4))
        for k in range(4):
            strip.paste(frames[k * len(frames) // 4], (0, k * frames[0].height))
        master = strip.quantize(255, method=Image.Quantize.FASTOCTREE)
        paletted = [f.convert("RGB").quantize(palette=master, dither=Image.Dither.NONE) for f in frames]
    for source, frame in zip(frames, paletted):
        # Index 255 is transparency (alpha under half).
        indexes = np.array(frame)
        indexes[np.array(source)[..., 3] < 128] = 255
        frame.frombytes(indexes.tobytes())
        palette = frame.getpalette()[:765] + [0, 0, 0]
        frame.putpalette(palette)
        frame.info["transparency"] = 255
    paletted[0].save(path, save_all=True, append_images=paletted[1:], duration=delay, loop=0, disposal=disposal,
                     transparency=255, interlace=interlace, optimize=False)


# name, scene, side, frames, writer and its options
FILES = [
    ("apng_618_bounce_full.png", "bounce_full", 618, 16, "apng", dict(dispose=[NONE], blend=[0])),
    ("apng_618_bounce_delta.png", "bounce", 618, 24, "apng", dict(dispose=[NONE], blend=[0])),
    ("apng_618_wave_mixed.png", "wave", 618, 48, "apng", dict(dispose=[NONE, BACKGROUND, PREVIOUS, NONE], blend=[0, 1])),
    ("apng_408_heart_bg.png", "heart", 408, 40, "apng", dict(dispose=[BACKGROUND], blend=[0])),
    ("apng_408_wave_delta.png", "wave", 408, 36, "apng", dict(dispose=[NONE], blend=[1])),
    ("apng_300_bounce_prev.png", "bounce", 300, 24, "apng", dict(dispose=[PREVIOUS, NONE], blend=[0])),
    ("gif_408_bounce_local.gif", "bounce", 408, 40, "gif", dict(disposal=GIF_CLEAR, local_palettes=True, interlace=False)),
    ("gif_618_wave_delta.gif", "wave", 618, 60, "gif", dict(disposal=GIF_KEEP, local_palettes=False, interlace=False)),
    ("gif_618_bounce_interlaced.gif", "bounce", 618, 30, "gif", dict(disposal=GIF_CLEAR, local_palettes=False, interlace=True)),
    ("gif_408_heart_interlaced.gif", "heart", 408, 24, "gif", dict(disposal=GIF_CLEAR, local_palettes=True, interlace=True)),
    ("gif_300_wave_mixed.gif", "wave", 300, 36, "gif", dict(disposal=GIF_CLEAR, local_palettes=True, interlace=False)),
    ("png_618_static.png", "bounce", 618, 1, "png", {}),
    ("png_408_static.png", "wave", 408, 1, "png", {}),
]
STRESS = [
    ("stress/apng_1024_bounce_delta.png", "bounce", 1024, 100, "apng", dict(dispose=[NONE, NONE, BACKGROUND, PREVIOUS], blend=[0])),
    ("stress/gif_1024_bounce_local.gif", "bounce", 1024, 100, "gif", dict(disposal=GIF_KEEP, local_palettes=True, interlace=False)),
]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    out = Path(args[0])
    files = FILES + ([] if "--no-stress" in sys.argv else STRESS)
    for name, scene, side, count, kind, options in files:
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        frames = [SCENES[scene](side, i / count) for i in range(count)]
        if kind == "apng":
            save_apng(path, frames, **options)
        elif kind == "gif":
            save_gif(path, frames, **options)
        else:
            frames[0].save(path, optimize=True)
        print(f"{name}\t{side}x{side}\t{count} frames\t{path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
