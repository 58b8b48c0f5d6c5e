#!/usr/bin/env python3
"""Makes WebP test files with libwebp's own command-line encoders (Debian `webp`).

Usage: make_webp_corpus.py OUTDIR

Frames are drawn with Pillow and saved as PNG, then encoded by cwebp (stills) and img2webp
(animations): lossless and lossy, with and without alpha. Writes OUTDIR/NAME.webp and
OUTDIR/expect.json ({name: {"frames", "delayMs", "loops", "width", "height"}}).
"""
import json
import os
import subprocess
import sys

from PIL import Image, ImageDraw


def frame(i, side, alpha):
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0) if alpha else (240, 236, 220, 255))
    draw = ImageDraw.Draw(image)
    for y in range(0, side, 8):  # a soft gradient band, so lossy and lossless differ
        draw.rectangle([0, y, side // 3, y + 7], fill=(y * 255 // side, 90, 200, 255 if not alpha else 128 + y * 127 // side))
    x = 10 + i * 9
    draw.ellipse([x, side // 3, x + side // 3, side // 3 + side // 3], fill=(230, 60 + 20 * i, 40, 255))
    draw.ellipse([side // 2, 5 + i * 4, side // 2 + 30, 35 + i * 4], fill=(20, 140, 90, 160 if alpha else 255))
    return image


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    side = 120
    expect = {}
    pngs = {}
    for alpha in (True, False):
        names = []
        for i in range(6):
            name = os.path.join(out, "src-%s-%d.png" % ("a" if alpha else "o", i))
            frame(i, side, alpha).save(name)
            names.append(name)
        pngs[alpha] = names
    stills = {
        "still-lossless-alpha": (pngs[True][0], ["-lossless"]),
        "still-lossy-alpha": (pngs[True][0], ["-q", "80"]),
        "still-lossy-opaque": (pngs[False][0], ["-q", "75"]),
        "still-lossless-opaque": (pngs[False][0], ["-lossless"]),
    }
    for name, (source, options) in stills.items():
        subprocess.run(["cwebp", "-quiet"] + options + [source, "-o", os.path.join(out, name + ".webp")], check=True)
        expect[name] = {"frames": 1, "delayMs": [0], "loops": None, "width": side, "height": side}
    animations = {
        "anim-lossless-alpha": (pngs[True], ["-lossless"], 80, 0),
        "anim-lossy-alpha": (pngs[True], ["-lossy", "-q", "70"], 50, 3),
        "anim-mixed-opaque": (pngs[False], ["-mixed"], 120, 0),
    }
    for name, (sources, options, delay, loops) in animations.items():
        subprocess.run(["img2webp", "-loop", str(loops), "-d", str(delay)] + options + sources
                       + ["-o", os.path.join(out, name + ".webp")], check=True, capture_output=True)
        expect[name] = {"frames": len(sources), "delayMs": [delay] * len(sources), "loops": loops,
                        "width": side, "height": side}
    for names in pngs.values():
        for name in names:
            os.remove(name)
    with open(os.path.join(out, "expect.json"), "w") as f:
        json.dump(expect, f)


if __name__ == "__main__":
    main()
