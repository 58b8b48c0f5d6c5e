#!/usr/bin/env python3
"""Pillow's side of StickerKit's fit tests: encodes fixtures and describes outputs.

Usage:
  pillow_fixtures.py encode FORMAT QUALITY WIDTH HEIGHT IN.rgb OUT
      Writes IN.rgb (RGB8, top row first) as FORMAT (JPEG or WEBP, lossy) at QUALITY.
  pillow_fixtures.py gradient-gif WIDTH HEIGHT FRAMES OUT.gif
      Writes FRAMES frames of smooth drifting gradients, 60 ms each, looping, as Pillow saves
      RGB frames to GIF: each quantised to an adaptive palette with Floyd-Steinberg dithering.
  pillow_fixtures.py describe OUT.json FILE...
      Writes, for each FILE, {"width", "height", "frames", "minAlpha", "hasAlpha"} (minAlpha over
      every frame, after conversion to RGBA; hasAlpha when the file stores any alpha: a mode with
      an alpha band, or a transparency entry such as a PNG's tRNS) to OUT.json as a list in FILE
      order.

Nothing here shares code with the encoders or decoders under test.
"""
import json
import sys

from PIL import Image, ImageSequence


def encode(image_format, quality, width, height, source, target):
    with open(source, "rb") as f:
        image = Image.frombytes("RGB", (int(width), int(height)), f.read())
    image.save(target, image_format, quality=int(quality))


def gradient_gif(width, height, count, target):
    import math
    import numpy as np
    width, height, count = int(width), int(height), int(count)
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    frames = []
    for k in range(count):
        angle = k / count * math.pi / 2
        t = (x * math.cos(angle) + y * math.sin(angle)) / (width + height)
        r = np.hypot(x - width * (0.3 + 0.02 * k), y - height * 0.5) / width
        red = 40 + 180 * t + 60 * np.exp(-r * 4)
        green = 90 + 100 * (1 - t) * np.exp(-r * 2)
        blue = 200 - 150 * t
        rgb = np.clip(np.stack([red, green, blue], -1), 0, 255).astype(np.uint8)
        frames.append(Image.fromarray(rgb, "RGB"))
    frames[0].save(target, save_all=True, append_images=frames[1:], duration=60, loop=0)


def describe(target, paths):
    facts = []
    for path in paths:
        image = Image.open(path)
        frames, min_alpha = 0, 255
        for frame in ImageSequence.Iterator(image):
            frames += 1
            min_alpha = min(min_alpha, frame.convert("RGBA").getchannel("A").getextrema()[0])
        has_alpha = "A" in image.getbands() or "transparency" in image.info
        facts.append({"width": image.size[0], "height": image.size[1], "frames": frames, "minAlpha": min_alpha,
                      "hasAlpha": has_alpha})
    with open(target, "w") as f:
        json.dump(facts, f)


def main():
    if sys.argv[1] == "encode":
        encode(*sys.argv[2:8])
    elif sys.argv[1] == "gradient-gif":
        gradient_gif(*sys.argv[2:6])
    elif sys.argv[1] == "describe":
        describe(sys.argv[2], sys.argv[3:])
    else:
        sys.exit("unknown command " + sys.argv[1])


if __name__ == "__main__":
    main()
