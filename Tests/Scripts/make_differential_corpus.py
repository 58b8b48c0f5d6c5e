#!/usr/bin/env python3
"""Makes animations with independent encoders (Pillow, gifsicle, ImageMagick, apngasm) for
StickerKit's differential tests, from fixed seeds, across dispose / blend / transparency /
interlace combinations.

Usage: make_differential_corpus.py OUTDIR
Prints one line per file written. Encoders that are not installed are skipped with a note
on stderr (the Makefile installs all of them).
"""
import os
import random
import shutil
import subprocess
import sys

from PIL import Image, ImageDraw

W, H = 48, 40


def frames(seed, count, alpha_mode):
    """Shapes that move; alpha_mode: 'opaque' background, 'binary' (0/255) or 'partial'."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        background = (30, 60, 90, 255) if alpha_mode == "opaque" else (0, 0, 0, 0)
        image = Image.new("RGBA", (W, H), background)
        draw = ImageDraw.Draw(image)
        for _ in range(3):
            x, y = rng.randrange(-8, W), rng.randrange(-8, H)
            w, h = rng.randrange(4, 24), rng.randrange(4, 20)
            alpha = 255 if alpha_mode != "partial" else rng.choice([40, 128, 200, 255])
            colour = (rng.randrange(256), rng.randrange(256), rng.randrange(256), alpha)
            if rng.random() < 0.5:
                draw.rectangle([x, y, x + w, y + h], fill=colour)
            else:
                draw.ellipse([x, y, x + w, y + h], fill=colour)
        # A square that walks across, so consecutive frames differ in a small region.
        draw.rectangle([i * 4 % W, 5, i * 4 % W + 6, 11], fill=(250, 250, 20, 255))
        out.append(image)
    return out


def pillow_apng(out, written):
    for dispose in (0, 1, 2):
        for blend in (0, 1):
            for alpha_mode in ("opaque", "binary", "partial"):
                seed = dispose * 100 + blend * 10 + len(alpha_mode)
                images = frames(seed, 6, alpha_mode)
                for default_image in (False, True):
                    name = f"pillow-apng-d{dispose}-b{blend}-{alpha_mode}{'-default' if default_image else ''}.png"
                    path = os.path.join(out, name)
                    images[0].save(path, save_all=True, append_images=images[1:], duration=[50, 70, 0, 100, 20, 40],
                                   loop=0, disposal=dispose, blend=blend, default_image=default_image)
                    written.append(name)


def pillow_gif(out, written):
    for disposal in (0, 1, 2, 3):
        for alpha_mode in ("opaque", "binary"):
            for interlace in (False, True):
                images = frames(disposal * 7 + len(alpha_mode) + interlace, 6, alpha_mode)
                name = f"pillow-gif-d{disposal}-{alpha_mode}{'-interlaced' if interlace else ''}.gif"
                images[0].save(os.path.join(out, name), save_all=True, append_images=images[1:], duration=60,
                               loop=0, disposal=disposal, interlace=interlace, optimize=False)
                written.append(name)


def still_gifs(out, seed, alpha_mode, tmp):
    paths = []
    for i, image in enumerate(frames(seed, 6, alpha_mode)):
        path = os.path.join(tmp, f"f{seed}-{alpha_mode}-{i}.gif")
        if alpha_mode == "binary":
            image.save(path, transparency=0, optimize=False) if image.mode == "P" else image.convert("RGBA").save(path)
        else:
            image.convert("RGB").save(path)
        paths.append(path)
    return paths


def gifsicle(out, written, tmp):
    if not shutil.which("gifsicle"):
        print("gifsicle not installed: skipped", file=sys.stderr)
        return
    for disposal in ("none", "asis", "background", "previous"):
        for alpha_mode in ("opaque", "binary"):
            for optimize in ("-O1", "-O3"):
                for interlace in ([], ["--interlace"]):
                    sources = still_gifs(out, len(disposal) + len(alpha_mode), alpha_mode, tmp)
                    name = f"gifsicle-{disposal}-{alpha_mode}{optimize}{'-interlaced' if interlace else ''}.gif"
                    subprocess.run(["gifsicle", "--no-warnings", "--loopcount=3", "--delay=5", f"--disposal={disposal}",
                                    optimize, *interlace, *sources, "-o", os.path.join(out, name)], check=True)
                    written.append(name)


def imagemagick(out, written, tmp):
    convert = "/usr/bin/convert" if os.path.exists("/usr/bin/convert") else None
    if not convert:
        print("ImageMagick not installed: skipped", file=sys.stderr)
        return
    for dispose in ("None", "Background", "Previous"):
        for alpha_mode in ("opaque", "binary"):
            for layers in ("OptimizeFrame", "OptimizeTransparency"):
                pngs = []
                for i, image in enumerate(frames(len(dispose) * 3 + len(alpha_mode), 5, alpha_mode)):
                    path = os.path.join(tmp, f"im-{dispose}-{alpha_mode}-{i}.png")
                    image.save(path)
                    pngs.append(path)
                name = f"imagemagick-{dispose.lower()}-{alpha_mode}-{layers.lower()}.gif"
                subprocess.run([convert, "-delay", "7", "-dispose", dispose, *pngs, "-layers", layers, "-loop", "0",
                                os.path.join(out, name)], check=True)
                written.append(name)


def apngasm(out, written, tmp):
    if not shutil.which("apngasm"):
        print("apngasm not installed: skipped", file=sys.stderr)
        return
    for alpha_mode in ("opaque", "binary", "partial"):
        for options in ([], ["-z0"], ["-kp"], ["-kc"]):
            pngs = []
            for i, image in enumerate(frames(11 + len(alpha_mode) + len(options), 6, alpha_mode)):
                path = os.path.join(tmp, f"asm-{alpha_mode}-{len(options)}-{i:03d}.png")
                image.save(path)
                pngs.append(path)
            suffix = options[0].strip("-") if options else "default"
            name = f"apngasm-{alpha_mode}-{suffix}.png"
            subprocess.run(["apngasm", os.path.join(out, name), *pngs, "1", "20", *options],
                           check=True, stdout=subprocess.DEVNULL)
            written.append(name)


def main():
    out = sys.argv[1]
    tmp = os.path.join(out, "_sources")
    os.makedirs(tmp, exist_ok=True)
    written = []
    pillow_apng(out, written)
    pillow_gif(out, written)
    gifsicle(out, written, tmp)
    imagemagick(out, written, tmp)
    apngasm(out, written, tmp)
    shutil.rmtree(tmp)
    for name in written:
        print(name)


if __name__ == "__main__":
    main()
