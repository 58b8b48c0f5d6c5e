#!/usr/bin/env python3
"""Decodes an image with an independent decoder and writes every displayed frame.

Usage: reference_frames.py pillow|ffmpeg FILE OUTDIR

Writes OUTDIR/frame-NNNN.rgba (straight RGBA8, canvas size, top row first) and
OUTDIR/meta.json ({"width", "height", "frames"}). Used by StickerKit's differential tests;
nothing here shares code with the decoder under test.
"""
import json
import os
import subprocess
import sys


def with_pillow(path, out):
    from PIL import Image, ImageSequence
    image = Image.open(path)
    count = 0
    durations = []
    for frame in ImageSequence.Iterator(image):
        durations.append(frame.info.get("duration", 0))
        # Pillow reports an APNG's default image as a frame even when it is not part of the
        # animation; StickerKit (like browsers) does not show it.
        rgba = frame.convert("RGBA")
        with open(os.path.join(out, "frame-%04d.rgba" % count), "wb") as f:
            f.write(rgba.tobytes())
        count += 1
    with_pillow.durations = durations
    return image.size, count, bool(getattr(image, "default_image", False))


def with_ffmpeg(path, out):
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                            "stream=width,height,codec_name", "-of", "json", path], capture_output=True, check=True)
    stream = json.loads(probe.stdout)["streams"][0]
    width, height = stream["width"], stream["height"]
    # libvpx's own decoders: ffmpeg's native VP8/VP9 decoders drop WebM's alpha channel.
    decoder = {"vp8": ["-c:v", "libvpx"], "vp9": ["-c:v", "libvpx-vp9"]}.get(stream.get("codec_name"), [])
    raw = subprocess.run(["ffmpeg", "-v", "error"] + decoder + ["-i", path, "-fps_mode", "passthrough", "-sws_flags", "neighbor+accurate_rnd+full_chroma_int", "-f", "rawvideo",
                          "-pix_fmt", "rgba", "-"], capture_output=True, check=True).stdout
    size = width * height * 4
    count = len(raw) // size
    for i in range(count):
        with open(os.path.join(out, "frame-%04d.rgba" % i), "wb") as f:
            f.write(raw[i * size:(i + 1) * size])
    return (width, height), count, False


def main():
    tool, path, out = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    (width, height), count, default_image = (with_pillow if tool == "pillow" else with_ffmpeg)(path, out)
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump({"width": width, "height": height, "frames": count, "defaultImageIsExtraFrame": default_image,
                   "durationsMs": getattr(with_pillow, "durations", None) if tool == "pillow" else None}, f)


if __name__ == "__main__":
    main()
