#!/usr/bin/env python3
"""Pillow's side of StickerKit's fit tests: encodes fixtures and describes outputs.

Usage:
  pillow_fixtures.py encode FORMAT QUALITY WIDTH HEIGHT IN.rgb OUT
      Writes IN.rgb (RGB8, top row first) as FORMAT (JPEG or WEBP, lossy) at QUALITY.
  pillow_fixtures.py describe OUT.json FILE...
      Writes, for each FILE, {"width", "height", "frames", "minAlpha"} (minAlpha over every
      frame, after conversion to RGBA) to OUT.json as a list in FILE order.

Nothing here shares code with the encoders or decoders under test.
"""
import json
import sys

from PIL import Image, ImageSequence


def encode(image_format, quality, width, height, source, target):
    with open(source, "rb") as f:
        image = Image.frombytes("RGB", (int(width), int(height)), f.read())
    image.save(target, image_format, quality=int(quality))


def describe(target, paths):
    facts = []
    for path in paths:
        image = Image.open(path)
        frames, min_alpha = 0, 255
        for frame in ImageSequence.Iterator(image):
            frames += 1
            min_alpha = min(min_alpha, frame.convert("RGBA").getchannel("A").getextrema()[0])
        facts.append({"width": image.size[0], "height": image.size[1], "frames": frames, "minAlpha": min_alpha})
    with open(target, "w") as f:
        json.dump(facts, f)


def main():
    if sys.argv[1] == "encode":
        encode(*sys.argv[2:8])
    elif sys.argv[1] == "describe":
        describe(sys.argv[2], sys.argv[3:])
    else:
        sys.exit("unknown command " + sys.argv[1])


if __name__ == "__main__":
    main()
