#!/usr/bin/env python3
"""Renders a Lottie document with ThorVG, an independent Lottie engine, and writes every frame.

Usage: thorvg_frames.py FILE OUTDIR [WIDTH HEIGHT]

FILE is Lottie JSON or a gzipped document (.tgs). Writes OUTDIR/frame-NNNN.rgba (straight
RGBA8, top row first) and OUTDIR/meta.json ({"width", "height", "frames", "frameRate",
"engine": "thorvg", "version"}). Frame i is the picture at document frame ip + i, for the
frames ThorVG counts (op - ip, whole frames). A size other than the document's scales the picture
uniformly and centres it, as rlottie does. Used by StickerKit's differential tests as an oracle
for its Lottie decoder, which draws with rlottie: ThorVG (PyPI thorvg-python) is a separate
renderer, and nothing here shares code with the decoder under test.
"""
import gzip
import json
import os
import sys

import numpy as np
import thorvg_python as tvg


def straight(words):
    """ABGR8888 words (premultiplied, red in the low byte) as straight RGBA8 bytes."""
    rgba = np.stack([(words >> shift) & 0xFF for shift in (0, 8, 16, 24)], axis=-1)
    alpha = rgba[..., 3:]
    colour = (rgba[..., :3] * 255 + alpha // 2) // np.maximum(alpha, 1)
    rgba[..., :3] = np.where(alpha > 0, np.minimum(colour, 255), 0)
    return rgba.astype(np.uint8)


def main():
    path, out = sys.argv[1], sys.argv[2]
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    document = json.loads(data)
    doc_width, doc_height = document["w"], document["h"]
    width, height = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (doc_width, doc_height)

    engine = tvg.Engine(threads=0)
    canvas = tvg.SwCanvas(engine)
    if canvas.set_target(width, height, cs=tvg.Colorspace.ABGR8888) != tvg.Result.SUCCESS:
        sys.exit("thorvg: cannot draw at %dx%d" % (width, height))
    animation = tvg.LottieAnimation(engine)
    picture = animation.get_picture()
    if picture.load_data(data, "lottie", None, True) != tvg.Result.SUCCESS:
        sys.exit("thorvg: cannot load " + path)
    scale = min(width / doc_width, height / doc_height)
    picture.set_size(doc_width * scale, doc_height * scale)
    picture.translate((width - doc_width * scale) / 2, (height - doc_height * scale) / 2)
    canvas.add(picture)
    # ThorVG's own count of the frames (op - ip as it reads the document), whole frames only.
    count = int(animation.get_total_frame()[1] + 1e-6)

    os.makedirs(out, exist_ok=True)
    words = np.ctypeslib.as_array(canvas.buffer_arr).reshape(height, width)
    for i in range(count):
        animation.set_frame(i)  # ThorVG counts frames from the in point.
        canvas.update()
        canvas.draw(True)
        canvas.sync()
        with open(os.path.join(out, "frame-%04d.rgba" % i), "wb") as f:
            f.write(straight(words.astype(np.uint32)).tobytes())
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump({"width": width, "height": height, "frames": count, "frameRate": document["fr"],
                   "engine": "thorvg", "version": engine.version()[4]}, f)


if __name__ == "__main__":
    main()
