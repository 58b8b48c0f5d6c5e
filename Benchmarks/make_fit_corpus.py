#!/usr/bin/env python3
"""Draws animated stickers of the kinds people port to iMessage, for `stickers bench --fit` and
the fit tests: 512 px with alpha, 1-3 s at 24-60 fps, photographic (smooth light, texture and
grain, as in a clip cut out of a video) and flat art (a few colours, anti-aliased edges), as
APNG, GIF and WebP, and as Telegram's two formats (a VP9 .webm with alpha, made by ffmpeg, and a
Lottie .tgs, vector shapes at 60 fps), plus one 6 s clip that only fits below 10 fps.

    python3 Benchmarks/make_fit_corpus.py OUT_DIR [--small]

--small draws the same kinds at 256 px and a third of the frames (for the test suite). Needs
numpy and Pillow; deterministic (fixed seeds).
"""

import gzip
import json
import math
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageDraw


def soft_disc_alpha(side, radius, feather):
    y, x = np.mgrid[0:side, 0:side].astype(np.float32) + 0.5
    distance = np.hypot(x - side / 2, y - side / 2)
    return np.clip((radius - distance) / feather + 0.5, 0, 1)


def photographic(side, frames, seed, wobble=1.0):
    """A lit, textured ball with film grain, turning and breathing, cut out with a soft edge."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:side, 0:side].astype(np.float32) / side
    texture = rng.normal(0, 1, (side // 8 + 2, side // 8 + 2)).astype(np.float32)
    texture = np.array(Image.fromarray(texture).resize((side, side), Image.BICUBIC))
    images = []
    for k in range(frames):
        t = k / frames * 2 * math.pi
        light_x, light_y = 0.5 + 0.25 * math.cos(t), 0.45 + 0.2 * math.sin(t)
        shade = np.exp(-((x - light_x) ** 2 + (y - light_y) ** 2) * 4)
        swirl = np.sin((x * 9 + math.cos(t) * wobble) * 2) * np.cos((y * 7 - math.sin(t) * wobble) * 2)
        r = 120 + 110 * shade + 18 * swirl + 10 * texture
        g = 70 + 90 * shade + 25 * np.roll(texture, k, axis=1)
        b = 40 + 60 * shade - 15 * swirl
        grain = rng.normal(0, 3.0, (side, side, 3)).astype(np.float32)
        rgb = np.stack([r, g, b], axis=-1) + grain
        radius = side * (0.40 + 0.03 * math.sin(t * 2))
        alpha = soft_disc_alpha(side, radius, 2.5) * 255
        pixels = np.concatenate([np.clip(rgb, 0, 255), alpha[..., None]], axis=-1).astype(np.uint8)
        images.append(Image.fromarray(pixels, "RGBA"))
    return images


def flat_art(side, frames, seed):
    """A cartoon face that bounces and blinks, with confetti: a few flat colours, smooth edges."""
    rng = np.random.default_rng(seed)
    confetti = [(rng.uniform(0, 1), rng.uniform(0, 1), tuple(int(c) for c in rng.integers(40, 255, 3))) for _ in range(14)]
    images = []
    for k in range(frames):
        t = k / frames
        scale = 4  # drawn large and reduced: anti-aliased edges
        big = Image.new("RGBA", (side * scale, side * scale), (0, 0, 0, 0))
        draw = ImageDraw.Draw(big)
        s = side * scale
        bounce = abs(math.sin(t * math.pi * 2)) * 0.12 * s
        cx, cy, r = s / 2, s * 0.55 - bounce, s * 0.3
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(255, 204, 51, 255), outline=(120, 70, 0, 255), width=s // 60)
        eye = r * (0.02 if 0.45 < t < 0.52 else 0.12)
        for side_x in (-1, 1):
            ex = cx + side_x * r * 0.35
            draw.ellipse([ex - r * 0.08, cy - r * 0.2 - eye, ex + r * 0.08, cy - r * 0.2 + eye], fill=(60, 30, 10, 255))
        draw.arc([cx - r * 0.5, cy - r * 0.3, cx + r * 0.5, cy + r * 0.5], 20, 160, fill=(60, 30, 10, 255), width=s // 50)
        for fx, fy, colour in confetti:
            px, py = (fx + t * 0.3) % 1 * s, (fy + t) % 1 * s
            draw.rectangle([px, py, px + s * 0.025, py + s * 0.04], fill=colour + (255,))
        images.append(big.resize((side, side), Image.LANCZOS))
    return images


def save_apng(images, path, fps):
    images[0].save(path, save_all=True, append_images=images[1:], duration=round(1000 / fps), loop=0, format="PNG")


def save_gif(images, path, fps):
    # GIF delays are centiseconds: 60 fps is stored as 2 cs (50 fps), as every GIF writer does.
    images[0].save(path, save_all=True, append_images=images[1:], duration=round(1000 / fps), loop=0, disposal=2,
                   optimize=False, format="GIF")


def save_webp(images, path, fps):
    images[0].save(path, save_all=True, append_images=images[1:], duration=round(1000 / fps), loop=0, quality=90,
                   method=4, format="WEBP")


def save_webm(images, path, fps):
    """VP9 with an alpha stream, as Telegram's video stickers are (ffmpeg's libvpx-vp9)."""
    with tempfile.TemporaryDirectory() as folder:
        for index, image in enumerate(images):
            image.save(f"{folder}/{index:04d}.png")
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-framerate", str(fps), "-i", f"{folder}/%04d.png",
                        "-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-b:v", "700k", str(path)], check=True)


def lottie_party(side, frames, fps):
    """A Lottie document (Telegram's .tgs form): a face that bounces and squashes, and confetti
    squares that fall and turn; flat colours, every edge drawn by the renderer."""
    def still(value):
        return {"a": 0, "k": value}

    def moving(keys):
        # Linear keyframes [(frame, value), ...]; rlottie reads "s"/"e" pairs with easing handles.
        k = [{"t": t, "s": v, "e": keys[i + 1][1], "i": {"x": [1], "y": [1]}, "o": {"x": [0], "y": [0]}}
             for i, (t, v) in enumerate(keys[:-1])]
        return {"a": 1, "k": k + [{"t": keys[-1][0]}]}

    def layer(index, shapes, position, rotation=still(0), scale=still([100, 100, 100])):
        return {"ddd": 0, "ind": index, "ty": 4, "sr": 1, "ip": 0, "op": frames, "st": 0, "bm": 0,
                "ks": {"o": still(100), "r": rotation, "a": still([0, 0, 0]), "s": scale, "p": position},
                "shapes": shapes}

    def ellipse(w, h, colour, x=0, y=0):
        return [{"ty": "el", "d": 1, "p": still([x, y]), "s": still([w, h])}, {"ty": "fl", "c": still(colour + [1]), "o": still(100), "r": 1}]

    s = side / 512
    quarter = frames // 4
    bounce = [(t, [256 * s, (300 - 60 * abs(math.sin(t / frames * 2 * math.pi))) * s, 0]) for t in range(0, frames + 1, quarter // 2)]
    squash = [(t, [100 + 8 * math.cos(t / frames * 4 * math.pi), 100 - 8 * math.cos(t / frames * 4 * math.pi), 100])
              for t in range(0, frames + 1, quarter // 2)]
    face = (ellipse(40 * s, 40 * s, [0.24, 0.12, 0.04], -55 * s, -40 * s) + ellipse(40 * s, 40 * s, [0.24, 0.12, 0.04], 55 * s, -40 * s)
            + ellipse(150 * s, 60 * s, [0.85, 0.25, 0.2], 0, 70 * s) + ellipse(330 * s, 330 * s, [1, 0.8, 0.2]))
    layers = [layer(1, face, moving(bounce), scale=moving(squash))]
    rng = np.random.default_rng(7)
    for index in range(12):
        x, y0 = rng.uniform(40, 472) * s, rng.uniform(-100, 400) * s
        colour = [float(c) for c in rng.uniform(0.2, 1, 3)]
        square = [{"ty": "rc", "d": 1, "p": still([0, 0]), "s": still([18 * s, 28 * s]), "r": still(3 * s)},
                  {"ty": "fl", "c": still(colour + [1]), "o": still(100), "r": 1}]
        layers.insert(0, layer(index + 2, square, moving([(0, [x, y0, 0]), (frames, [x + 40 * s, y0 + 300 * s, 0])]),
                               rotation=moving([(0, [0]), (frames, [rng.uniform(180, 720)])])))
    return {"tgs": 1, "v": "5.5.2", "fr": fps, "ip": 0, "op": frames, "w": side, "h": side, "nm": "party", "ddd": 0,
            "assets": [], "layers": layers}


def save_tgs(document, path):
    path.write_bytes(gzip.compress(json.dumps(document, separators=(",", ":")).encode(), mtime=0))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = pathlib.Path(sys.argv[1])
    small = "--small" in sys.argv[2:]
    side = 256 if small else 512
    frames = (lambda n: max(4, n // 3)) if small else (lambda n: n)
    out.mkdir(parents=True, exist_ok=True)
    save_apng(photographic(side, frames(72), 1), out / "photo-24fps-3s.png", 24)
    save_webp(photographic(side, frames(60), 2, wobble=2.0), out / "photo-30fps-2s.webp", 30)
    save_apng(flat_art(side, frames(60), 3), out / "flat-60fps-1s.png", 60)
    save_gif(flat_art(side, frames(72), 4), out / "flat-24fps-3s.gif", 24)
    save_apng(photographic(side * 5 // 8, frames(144), 5, wobble=3.0), out / "photo-24fps-6s.png", 24)
    save_webm(photographic(side, frames(90), 6, wobble=1.5), out / "photo-30fps-3s.webm", 30)
    save_tgs(lottie_party(side, frames(180), 60), out / "party-60fps-3s.tgs")
    for path in sorted(out.iterdir()):
        print(path, path.stat().st_size)


if __name__ == "__main__":
    main()
