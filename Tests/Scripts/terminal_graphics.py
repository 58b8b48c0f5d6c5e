#!/usr/bin/env python3
"""Decodes what `stickers preview --graphics kitty|iterm2|sixel` wrote, with code that shares
nothing with StickerKit, and compares it with a reference: the frames Pillow decodes from an
image file, or the picture of a kitty still.

    terminal_graphics.py PROTOCOL ESCAPES REFERENCE [--backdrop R,G,B]

PROTOCOL is kitty, kitty-placed, iterm2 or sixel; ESCAPES the bytes the preview wrote; REFERENCE an image
file (PNG, APNG, GIF) or, with kitty-still:PATH, the kitty escapes of a still to decode first.
Prints JSON: the frames decoded (size, duration in ms), the loop count asked for, and for each
reference frame (at its start time) the largest channel difference over the pixels the
reference shows, its PSNR, and the pixels whose visibility differs (a sixel pixel left
unpainted where the reference is visible, or painted where it is transparent).

- kitty: the APC escapes (`ESC _G ... ESC \\`), chunks joined, base64 and PNG read by Pillow;
  `a=f` frames composed onto frame `c` at `x,y` (replacing with X=1), gaps from `z` and the
  root frame's from `a=a,r=1`; loops from `v`.
- kitty-placed: pictures stored (`a=t`) under their own numbers, then shown in turn (`a=p`)
  by a player that keeps time itself: the pictures in the order they were placed, each placed
  number stored before and each shown one removed (`a=d,d=i`) after the next is placed; the
  pictures still stored at the end (not deleted with `d=I`) are counted.
- iterm2: the OSC 1337 `File=` payload, base64, read by Pillow (each GIF frame as shown).
- sixel: the DCS parsed here from DEC's definition (raster attributes, `#n;2;r;g;b`
  colours in percent, six-row bands, `!n` repeats, `$` and `-`); pixels never painted stay
  transparent.
"""
import base64
import io
import json
import re
import sys

import numpy as np
from PIL import Image


def pillow_frames(data):
    """Every frame of an image as Pillow composites it, straight RGBA, with its duration."""
    image = Image.open(io.BytesIO(data))
    frames = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        frames.append((np.asarray(image.convert("RGBA")).astype(np.int64), image.info.get("duration", 0)))
    return frames


def premultiplied(rgba):
    out = rgba.copy()
    out[..., :3] = (rgba[..., :3] * rgba[..., 3:4] + 127) // 255
    return out


def kitty(data):
    """The frames of kitty's escapes: [(premultiplied RGBA, gap ms)], and the loop key."""
    commands = []
    for match in re.finditer(rb"\x1b_G([^;\x1b]*)(?:;([^\x1b]*))?\x1b\\", data):
        keys = dict(item.split(b"=", 1) for item in match.group(1).split(b",") if b"=" in item)
        commands.append(({k.decode(): v.decode() for k, v in keys.items()}, match.group(2) or b""))
    frames, gaps, loops = [], [], None
    pending, payload = None, b""
    for keys, chunk in commands:
        if pending is None:
            pending, payload = keys, b""
        payload += chunk
        if keys.get("m", "0") == "1":
            continue
        keys, pending = pending, None
        action = keys.get("a", "t")
        if action in ("T", "t"):
            picture = premultiplied(np.asarray(Image.open(io.BytesIO(base64.b64decode(payload))).convert("RGBA")).astype(np.int64))
            frames, gaps = [picture], [0]
        elif action == "f":
            part = premultiplied(np.asarray(Image.open(io.BytesIO(base64.b64decode(payload))).convert("RGBA")).astype(np.int64))
            base = frames[int(keys.get("c", len(frames))) - 1].copy()
            x, y = int(keys.get("x", 0)), int(keys.get("y", 0))
            h, w = part.shape[:2]
            if keys.get("X") == "1":
                base[y:y + h, x:x + w] = part
            else:
                region = base[y:y + h, x:x + w]
                base[y:y + h, x:x + w] = part + (region * (255 - part[..., 3:4]) + 127) // 255
            frames.append(base)
            gaps.append(int(keys.get("z", 0)))
        elif action == "a":
            if keys.get("r") == "1" and "z" in keys:
                gaps[0] = int(keys["z"])
            if "v" in keys:
                loops = int(keys["v"])
    return list(zip(frames, gaps)), loops


def kitty_commands(data):
    """Each whole command: its keys and its payload, chunks joined."""
    commands, pending, payload = [], None, b""
    for match in re.finditer(rb"\x1b_G([^;\x1b]*)(?:;([^\x1b]*))?\x1b\\", data):
        keys = {k.decode(): v.decode() for k, v in (item.split(b"=", 1) for item in match.group(1).split(b",") if b"=" in item)}
        if pending is None:
            pending, payload = keys, b""
        payload += match.group(2) or b""
        if keys.get("m", "0") == "1":
            continue
        commands.append((pending, payload))
        pending = None
    return commands


def kitty_placed(data):
    """The pictures shown in turn, premultiplied, in the order they were placed."""
    stored, shown, problems = {}, [], []
    current, pending_removal = None, None
    for keys, payload in kitty_commands(data):
        action, image = keys.get("a", "t"), keys.get("i")
        if action == "t":
            if image in stored:
                problems.append(f"image {image} stored twice")
            stored[image] = premultiplied(np.asarray(Image.open(io.BytesIO(base64.b64decode(payload))).convert("RGBA")).astype(np.int64))
        elif action == "p":
            if image not in stored:
                problems.append(f"image {image} placed before it was stored")
                continue
            shown.append(stored[image])
            previous, current = current, image
            if previous is not None and previous != image:
                pending_removal = previous
            else:
                pending_removal = None
        elif action == "d" and keys.get("d") == "i":
            if image != pending_removal:
                problems.append(f"placement of {image} removed out of turn")
            pending_removal = None
        elif action == "d" and keys.get("d") == "I":
            stored.pop(image, None)
    return [(picture, 0) for picture in shown], {"stillStored": len(stored), "problems": problems}


def iterm2(data):
    match = re.search(rb"\x1b\]1337;File=([^:]*):([^\x07]*)\x07", data)
    fields = dict(item.split(b"=", 1) for item in match.group(1).split(b";") if b"=" in item)
    file = base64.b64decode(match.group(2))
    assert int(fields[b"size"]) == len(file), "size= is the file's"
    frames = [(premultiplied(f), d) for f, d in pillow_frames(file)]
    loops = Image.open(io.BytesIO(file)).info.get("loop")
    return frames, loops


def sixel(data):
    """One picture: premultiplied RGBA, alpha 0 where nothing was painted."""
    start = data.index(b"\x1bP")
    body = data[data.index(b"q", start) + 1:data.index(b"\x1b\\", start)]
    raster = re.match(rb'"(\d+);(\d+);(\d+);(\d+)', body)
    width, height = int(raster.group(3)), int(raster.group(4))
    body = body[raster.end():]
    picture = np.zeros((height, width, 4), dtype=np.int64)
    colours = {}
    colour, x, band, i = 0, 0, 0, 0
    while i < len(body):
        c = body[i:i + 1]
        if c == b"#":
            m = re.match(rb"#(\d+)(?:;2;(\d+);(\d+);(\d+))?", body[i:])
            n = int(m.group(1))
            if m.group(2) is not None:
                colours[n] = [round(int(m.group(k)) * 255 / 100) for k in (2, 3, 4)]
            colour = n
            i += m.end()
            continue
        if c == b"$":
            x = 0
        elif c == b"-":
            x, band = 0, band + 1
        elif c == b"!":
            m = re.match(rb"!(\d+)(.)", body[i:], re.S)
            count, value = int(m.group(1)), m.group(2)[0] - 63
            for _ in range(count):
                paint(picture, colours[colour], x, band, value)
                x += 1
            i += m.end()
            continue
        elif 63 <= body[i] <= 126:
            paint(picture, colours[colour], x, band, body[i] - 63)
            x += 1
        i += 1
    return [(picture, 0)], None


def paint(picture, rgb, x, band, bits):
    for row in range(6):
        y = band * 6 + row
        if bits >> row & 1 and y < picture.shape[0] and x < picture.shape[1]:
            picture[y, x] = [rgb[0], rgb[1], rgb[2], 255]


def over(frame, backdrop):
    """Premultiplied RGBA over an opaque backdrop, alpha kept (for which pixels show)."""
    out = frame.copy()
    rest = 255 - frame[..., 3:4]
    out[..., :3] = frame[..., :3] + (np.array(backdrop) * rest + 127) // 255
    return out


def main():
    protocol, escapes, reference = sys.argv[1], sys.argv[2], sys.argv[3]
    backdrop = (0, 0, 0)
    if "--backdrop" in sys.argv:
        backdrop = tuple(int(v) for v in sys.argv[sys.argv.index("--backdrop") + 1].split(","))
    data = open(escapes, "rb").read()
    decoded, loops = {"kitty": kitty, "kitty-placed": kitty_placed, "iterm2": iterm2, "sixel": sixel}[protocol](data)
    if reference.startswith("kitty-still:"):
        references = [(kitty(open(reference[len("kitty-still:"):], "rb").read())[0][0][0], 0)]
    else:
        references = [(premultiplied(f), d) for f, d in pillow_frames(open(reference, "rb").read())]

    starts, t = [], 0
    for _, duration in decoded:
        starts.append(t)
        t += duration
    reference_count = len(references)
    if protocol == "kitty-placed":
        # Placed in turn: the n-th picture shown is reference frame n, loop after loop.
        references = [references[i % len(references)] for i in range(len(decoded))]
    comparisons, t = [], 0
    for number, (ref, duration) in enumerate(references):
        # The decoded frame shown at this reference frame's start time.
        if protocol == "kitty-placed":
            index = number
        else:
            index = max(i for i, s in enumerate(starts) if s <= t) if protocol != "sixel" else 0
        got = decoded[index][0]
        entry = {"decodedIndex": index, "sameSize": got.shape == ref.shape}
        if got.shape == ref.shape:
            shown = ref[..., 3] > 0
            entry["visibilityMismatches"] = int(np.count_nonzero(shown != (got[..., 3] > 0)))
            a, b = over(got, backdrop), over(ref, backdrop)
            diff = np.abs(a[..., :3] - b[..., :3])[shown]
            entry["maxDiff"] = int(diff.max()) if diff.size else 0
            mse = float((diff.astype(np.float64) ** 2).mean()) if diff.size else 0.0
            entry["psnr"] = 99.0 if mse == 0 else float(10 * np.log10(255 * 255 / mse))
        comparisons.append(entry)
        t += duration
        if protocol == "sixel":
            break
    print(json.dumps({
        "frames": len(decoded), "size": [int(decoded[0][0].shape[1]), int(decoded[0][0].shape[0])],
        "durations": [int(d) for _, d in decoded], "loops": loops, "comparisons": comparisons,
        "referenceFrames": reference_count, "referenceDurations": [int(d) for _, d in references[:reference_count]],
    }))


if __name__ == "__main__":
    main()
