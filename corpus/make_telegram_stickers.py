#!/usr/bin/env python3
"""Writes two Telegram-style animated stickers into a folder, for `make demo`:
spinner.tgs, a gzipped Lottie document (512 px, 60 fps, 3 s: a rounded square turning as it
crosses), and bubble.webm, VP9 with an alpha channel made by ffmpeg (512 px, 30 fps, 3 s: a
test pattern inside a pulsing disc).

    python3 corpus/make_telegram_stickers.py OUT_DIR
"""
import gzip
import json
import os
import subprocess
import sys


def linear(start, end, t0, t1):
    """A Lottie keyframe pair moving linearly from `start` at t0 to `end` at t1."""
    return {"a": 1, "k": [{"t": t0, "s": start, "e": end, "i": {"x": [1], "y": [1]}, "o": {"x": [0], "y": [0]}}, {"t": t1}]}


def spinner():
    layer = {
        "ddd": 0, "ind": 1, "ty": 4, "nm": "square", "sr": 1, "ip": 0, "op": 180, "st": 0, "bm": 0, "ao": 0,
        "ks": {"o": {"a": 0, "k": 100}, "r": linear([0], [360], 0, 180), "a": {"a": 0, "k": [0, 0, 0]},
               "s": {"a": 0, "k": [100, 100, 100]}, "p": linear([150, 256, 0], [362, 256, 0], 0, 180)},
        "shapes": [{"ty": "rc", "nm": "r", "d": 1, "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [200, 200]}, "r": {"a": 0, "k": 40}},
                   {"ty": "fl", "nm": "f", "c": {"a": 0, "k": [1, 0.45, 0.1, 1]}, "o": {"a": 0, "k": 100}, "r": 1}],
    }
    return {"tgs": 1, "v": "5.5.2", "fr": 60, "ip": 0, "op": 180, "w": 512, "h": 512, "nm": "spinner", "ddd": 0,
            "assets": [], "layers": [layer]}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "spinner.tgs"), "wb") as f:
        f.write(gzip.compress(json.dumps(spinner(), separators=(",", ":")).encode()))
    disc = "a='if(lt(hypot(X-256,Y-256),180+40*sin(N/5)),255,0)'"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=512x512:rate=30:duration=3",
                    "-vf", f"format=yuva420p,geq=lum='lum(X,Y)':cb='cb(X,Y)':cr='cr(X,Y)':{disc}",
                    "-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-b:v", "600k", os.path.join(out, "bubble.webm")], check=True)


if __name__ == "__main__":
    main()
