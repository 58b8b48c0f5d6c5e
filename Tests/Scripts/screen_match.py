#!/usr/bin/env python3
"""Finds a sticker's frame in a screenshot of a terminal window.

    screen_match.py SCREENSHOT STICKER R,G,B [--below-bar]

Each frame of STICKER (as Pillow composites it) is drawn over the terminal's background colour
R,G,B; the screenshot's pixels that differ from that background are aligned with the frame's
(top-left corner of each), and the frame that matches best is reported as JSON: its index, the
offset, the mean and 99th-percentile channel difference over the frame's area, and the share
of the frame's visible pixels that match within 24 levels. The outer two pixels of the shot
(a window's border) are ignored. {"found": false} when the window
shows nothing but its background. With --below-bar, the rows down to the first that is all
background (a window's tool bar, as Konsole's) are ignored too.
"""
import json
import sys

import numpy as np
from PIL import Image


def main():
    shot = np.asarray(Image.open(sys.argv[1]).convert("RGB")).astype(np.int64)
    background = np.array([int(v) for v in sys.argv[3].split(",")])
    sticker = Image.open(sys.argv[2])
    shown = np.abs(shot - background).max(axis=2) > 24
    # The window's own border (xterm draws one pixel of it) is not the picture.
    shown[:2, :] = shown[-2:, :] = False
    shown[:, :2] = shown[:, -2:] = False
    if "--below-bar" in sys.argv[4:]:
        clear = np.flatnonzero(~shown.any(axis=1)[2:]) + 2
        shown[: clear[0] if clear.size else shown.shape[0], :] = False
    if not shown.any():
        print(json.dumps({"found": False}))
        return
    top, left = np.argwhere(shown).min(axis=0)
    best = None
    for index in range(getattr(sticker, "n_frames", 1)):
        sticker.seek(index)
        rgba = np.asarray(sticker.convert("RGBA")).astype(np.int64)
        alpha = rgba[..., 3:4]
        composed = (rgba[..., :3] * alpha + background * (255 - alpha) + 127) // 255
        visible = np.abs(composed - background).max(axis=2) > 24
        if not visible.any():
            continue
        ftop, fleft = np.argwhere(visible).min(axis=0)
        y, x = top - ftop, left - fleft
        h, w = composed.shape[:2]
        if y < 0 or x < 0 or y + h > shot.shape[0] or x + w > shot.shape[1]:
            continue
        diff = np.abs(shot[y:y + h, x:x + w] - composed).max(axis=2)
        entry = {
            "found": True, "frame": index, "offset": [int(x), int(y)], "mean": float(diff.mean()),
            "p99": float(np.percentile(diff, 99)), "matched": float((diff[visible] <= 24).mean()),
        }
        if best is None or entry["mean"] < best["mean"]:
            best = entry
    print(json.dumps(best or {"found": False}))


if __name__ == "__main__":
    main()
