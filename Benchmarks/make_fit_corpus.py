#!/usr/bin/env python3
"""Draws animated stickers of the kinds people port to iMessage, for `stickers bench --fit` and
`--fit-peer` and the fit tests: 512 px with alpha, 1-3 s at 24-60 fps, photographic (smooth light,
texture and grain, as in a clip cut out of a video) and flat art (a few colours, anti-aliased
edges), as APNG, GIF and WebP, and as Telegram's two formats (a VP9 .webm with alpha, made by
ffmpeg, and a Lottie .tgs, vector shapes at 60 fps), plus one 6 s clip that only fits below 10 fps.
Then clips as phones and editors write them, a lit ball moving in front of a panning, zooming,
out-of-focus scene with grain over all (WebM by ffmpeg's libvpx: yuv420p, or yuva420p with the
ball's cut-out as alpha), and a GIF of smooth gradients:

    clip-vp8-320x240-30fps-2.7s.webm    VP8, 1 Mbit/s
    clip-vp8a-320x240-30fps-2.7s.webm   VP8 with alpha, 1 Mbit/s
    clip-vp9-320x240-30fps-2.7s.webm    VP9, 1 Mbit/s
    clip-vp9a-320x240-30fps-2.7s.webm   VP9 with alpha, 1 Mbit/s
    clip-vp9a-512x512-30fps-3s.webm     VP9 with alpha, 1.5 Mbit/s (a Telegram video sticker)
    clip-vp8-512x512-25fps-2s.webm      VP8, 1.5 Mbit/s
    clip-160x90-24fps-12s.webm          VP9, 300 kbit/s, 288 frames
    clip-160x90-15fps-12s.gif           a 12 s clip as Pillow writes a GIF, 180 frames, opaque
    gradient-618x400-20frames.gif       gradients only, 20 frames of 60 ms, opaque, each frame
                                        Floyd-Steinberg dithered to its own 256-colour palette

    python3 Benchmarks/make_fit_corpus.py OUT_DIR [--small]

--small draws the same kinds at 256 px and a third of the frames (for the test suite); there the
clips and the gradient are half as wide and high (the gradient keeps its 20 frames), and files
keep their names. Needs numpy, Pillow and ffmpeg; deterministic (fixed seeds; the clips'
.webm files are muxed bit-exact, photo-30fps-3s.webm is not).
"""

import gzip
import json
import math
import os
import pathlib
import subprocess
import sys
import tempfile

# Before numpy loads: BLAS threads, woken for camera_backdrop's small matrix products, only fight
# each other and ffmpeg for the cores (a clip's frames took 5-10 times as long).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from PIL import Image, ImageDraw


def soft_disc_alpha(width, height, radius, feather, centre=None):
    """Coverage (0-1) of a disc with a soft edge, in a width x height frame (centred unless given)."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float32) + 0.5
    centre_x, centre_y = centre or (width / 2, height / 2)
    distance = np.hypot(x - centre_x, y - centre_y)
    return np.clip((radius - distance) / feather + 0.5, 0, 1)


def photographic(side, frames, seed, wobble=1.0):
    """A lit, textured ball with film grain, turning and breathing, cut out with a soft edge."""
    return lit_ball(side, side, frames, seed, wobble)


def lit_ball(width, height, frames, seed, wobble=1.0, travel=0.0, backdrop=None):
    """photographic's ball in a width x height frame (its size set by the shorter side), as RGBA
    images. travel (0: centred, as in photographic) moves it about the frame in a loop, as a
    subject moves in front of a camera; backdrop(k), if given, is frame k's scene behind it (RGB,
    float): the colours are then the ball over the scene, grain over both (a full picture), and the
    alpha is still the ball's cut-out."""
    rng = np.random.default_rng(seed)
    side = min(width, height)
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    texture = rng.normal(0, 1, (height // 8 + 2, width // 8 + 2)).astype(np.float32)
    texture = np.array(Image.fromarray(texture).resize((width, height), Image.BICUBIC))
    images = []
    for k in range(frames):
        t = k / frames * 2 * math.pi
        centre_x = width / 2 + travel * 0.12 * width * math.sin(t)
        centre_y = height / 2 + travel * 0.06 * height * math.sin(t * 2 + 1)
        # Ball coordinates: the ball's square box spans 0-1 (the whole frame in photographic).
        ball_x, ball_y = (x - (centre_x - side / 2)) / side, (y - (centre_y - side / 2)) / side
        light_x, light_y = 0.5 + 0.25 * math.cos(t), 0.45 + 0.2 * math.sin(t)
        shade = np.exp(-((ball_x - light_x) ** 2 + (ball_y - light_y) ** 2) * 4)
        swirl = np.sin((ball_x * 9 + math.cos(t) * wobble) * 2) * np.cos((ball_y * 7 - math.sin(t) * wobble) * 2)
        r = 120 + 110 * shade + 18 * swirl + 10 * texture
        g = 70 + 90 * shade + 25 * np.roll(texture, k, axis=1)
        b = 40 + 60 * shade - 15 * swirl
        grain = rng.normal(0, 3.0, (height, width, 3)).astype(np.float32)
        radius = side * (0.40 + 0.03 * math.sin(t * 2))
        coverage = soft_disc_alpha(width, height, radius, 2.5, (centre_x, centre_y))
        rgb = np.stack([r, g, b], axis=-1)
        if backdrop is not None:
            behind = backdrop(k)
            rgb = behind + (rgb - behind) * coverage[..., None]
        rgb = rgb + grain
        alpha = coverage * 255
        pixels = np.concatenate([np.clip(rgb, 0, 255), alpha[..., None]], axis=-1).astype(np.uint8)
        images.append(Image.fromarray(pixels, "RGBA"))
    return images


def camera_backdrop(width, height, frames, seed):
    """The scene behind a filmed subject, out of focus: a sky-to-ground gradient and soft blobs of
    light and shade, which the camera slowly pans across and zooms into over the clip (once, not
    in a loop). Returns backdrop(k), frame k's RGB (float32, 0-255, without grain)."""
    rng = np.random.default_rng(seed)
    sky, ground = rng.uniform(110, 220, 3).astype(np.float32), rng.uniform(30, 120, 3).astype(np.float32)
    blob_x, blob_y = rng.uniform(-0.9, 1.2, 10), rng.uniform(-0.6, 0.6, 10)
    size, colour = rng.uniform(0.06, 0.3, 10), rng.uniform(-70, 70, (10, 3)).astype(np.float32)
    x = ((np.arange(width, dtype=np.float32) + 0.5 - width / 2) / height)[None, :]  # centred, in frame heights
    y = ((np.arange(height, dtype=np.float32) + 0.5 - height / 2) / height)[:, None]

    def backdrop(k):
        progress = k / max(1, frames - 1)
        zoom = 1 + 0.12 * progress
        u, v = x / zoom + 0.2 * progress, y / zoom + 0.04 * progress  # pans right, tilts down, zooms in
        rgb = sky + (ground - sky) * np.clip(v + 0.5 + 0.15 * u, 0, 1)[..., None]
        # Gaussian blobs are separable: each channel is (rows x blobs) @ (blobs x columns).
        across = np.exp(-((u.T - blob_x) / size) ** 2).astype(np.float32)
        down = np.exp(-((v - blob_y) / size) ** 2).astype(np.float32)
        return rgb + np.stack([(down * colour[:, c]) @ across.T for c in range(3)], axis=-1)

    return backdrop


def camera_clip(width, height, frames, seed, wobble=1.5):
    """A clip as a phone films it (or a Telegram video sticker before its cut-out): the lit ball
    moving in front of a panning, zooming, out-of-focus scene, grain over the whole picture. RGBA:
    the full picture, and the ball's cut-out as alpha (for clips with an alpha stream)."""
    return lit_ball(width, height, frames, seed, wobble, travel=1.0, backdrop=camera_backdrop(width, height, frames, seed + 100))


def smooth_gradient(width, height, frames):
    """Flat smooth gradients and nothing else (a banner, a sky): a diagonal two-colour linear
    gradient under a soft radial glow, the gradient's angle and the glow's centre shifting a
    little each frame, in a loop. Opaque RGB with no grain, so a 256-colour palette must dither it."""
    start, end = np.array([28, 52, 150], np.float32), np.array([250, 140, 70], np.float32)
    glow = np.array([255, 236, 190], np.float32)
    y, x = np.mgrid[0:height, 0:width].astype(np.float32) + 0.5
    x, y = x / width, y / height
    images = []
    for k in range(frames):
        t = k / frames * 2 * math.pi
        angle = math.pi / 4 + 0.12 * math.sin(t)
        along = np.clip((x - 0.5) * math.cos(angle) + (y - 0.5) * math.sin(angle) + 0.5, 0, 1)
        rgb = start + (end - start) * along[..., None]
        glow_x, glow_y = 0.68 + 0.06 * math.cos(t), 0.3 + 0.06 * math.sin(t)
        reach = np.clip(1 - np.hypot((x - glow_x) * width / height, y - glow_y) / 0.55, 0, 1) ** 2
        rgb = rgb + (glow - rgb) * (0.75 * reach)[..., None]
        images.append(Image.fromarray(np.round(rgb).astype(np.uint8), "RGB"))
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


def save_gif(images, path, fps, keep_time=False):
    # GIF delays are centiseconds: 60 fps is stored as 2 cs (50 fps), as every GIF writer does.
    # keep_time spreads the rounding over the frames instead, as ffmpeg's GIF muxer does (15 fps:
    # 7, 7, 6 cs), so the loop lasts exactly as long as the clip.
    duration = round(1000 / fps)
    if keep_time:
        duration = [10 * (round((k + 1) * 100 / fps) - round(k * 100 / fps)) for k in range(len(images))]
    images[0].save(path, save_all=True, append_images=images[1:], duration=duration, loop=0, disposal=2,
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


def save_clip(images, path, fps, codec, bitrate, alpha):
    """A WebM as a phone, an editor or a sticker maker writes one: VP8 (libvpx) or VP9
    (libvpx-vp9) at a set bitrate, opaque (yuv420p) or with an alpha stream (yuva420p; VP8 keeps
    alt-ref frames off for it), at a quick export's speed (-cpu-used 8; libvpx-vp9 takes it as
    5, its fastest good-quality speed). ffmpeg reads the frames raw from a pipe, encodes on one
    thread (VP8's threads change its output, and wait on each other for whole seconds when the
    cores are busy) and muxes bit-exact (no random segment ID): the same file every run, on any
    machine with the same ffmpeg."""
    width, height = images[0].size
    pixel_format, mode = ("rgba", "RGBA") if alpha else ("rgb24", "RGB")
    command = ["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pixel_format", pixel_format, "-video_size",
               f"{width}x{height}", "-framerate", str(fps), "-i", "-", "-c:v", codec, "-b:v", bitrate,
               "-pix_fmt", "yuva420p" if alpha else "yuv420p", "-deadline", "good", "-cpu-used", "8", "-threads", "1"]
    if alpha and codec == "libvpx":
        command += ["-auto-alt-ref", "0"]
    frames = b"".join(image.convert(mode).tobytes() for image in images)
    subprocess.run(command + ["-fflags", "+bitexact", str(path)], input=frames, check=True)


def save_dithered_gif(images, path, delay_ms):
    """A GIF as Pillow writes RGB frames, looping forever, each frame on its own adaptive 256-colour
    palette (median cut) and Floyd-Steinberg dithered to it (Pillow's adaptive conversion alone
    does not dither: smooth gradients would band)."""
    dithered = [image.quantize(palette=image.quantize(256), dither=Image.Dither.FLOYDSTEINBERG) for image in images]
    dithered[0].save(path, save_all=True, append_images=dithered[1:], duration=delay_ms, loop=0, format="GIF")


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
    scale = 2 if small else 1  # clip sizes: halved at --small
    for name, width, height, fps, count, seed, codec, bitrate, alpha in [
        ("clip-vp8-320x240-30fps-2.7s.webm", 320, 240, 30, 81, 11, "libvpx", "1M", False),
        ("clip-vp8a-320x240-30fps-2.7s.webm", 320, 240, 30, 81, 12, "libvpx", "1M", True),
        ("clip-vp9-320x240-30fps-2.7s.webm", 320, 240, 30, 81, 13, "libvpx-vp9", "1M", False),
        ("clip-vp9a-320x240-30fps-2.7s.webm", 320, 240, 30, 81, 14, "libvpx-vp9", "1M", True),
        ("clip-vp9a-512x512-30fps-3s.webm", 512, 512, 30, 90, 15, "libvpx-vp9", "1500k", True),
        ("clip-vp8-512x512-25fps-2s.webm", 512, 512, 25, 50, 16, "libvpx", "1500k", False),
        ("clip-160x90-24fps-12s.webm", 160, 90, 24, 288, 17, "libvpx-vp9", "300k", False),
    ]:
        save_clip(camera_clip(width // scale, height // scale, frames(count), seed), out / name, fps, codec, bitrate, alpha)
    clip = camera_clip(160 // scale, 90 // scale, frames(180), 18)
    save_gif([image.convert("RGB") for image in clip], out / "clip-160x90-15fps-12s.gif", 15, keep_time=True)
    save_dithered_gif(smooth_gradient(618 // scale, 400 // scale, 20), out / "gradient-618x400-20frames.gif", 60)
    for path in sorted(out.iterdir()):
        print(path, path.stat().st_size)


if __name__ == "__main__":
    main()
