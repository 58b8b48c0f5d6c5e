#!/usr/bin/env python3
"""Draws StickerKit's sample sticker pack, deterministically.

Writes corpus/sample-pack/: APNG and GIF stickers at 408x408 and 618x618 on transparent
backgrounds, each under 500 KB, plus a static PNG and a static (opaque) JPEG. Shapes are drawn 4x larger and
downsampled, so edges are soft (partial alpha) the way real stickers are.

Also writes corpus/Sample.xcstickers/, a small Xcode sticker catalog (a .sticker and a
.stickersequence) for the catalog path, unless OUTPUT_DIR is given.

Usage: python3 corpus/make_sample_pack.py [OUTPUT_DIR]   (needs Pillow)
"""
import json
import math
import os
import sys

from PIL import Image, ImageDraw

SUPERSAMPLE = 4


def canvas(size):
    return Image.new("RGBA", (size * SUPERSAMPLE, size * SUPERSAMPLE), (0, 0, 0, 0))


def finish(image, size):
    return image.resize((size, size), Image.LANCZOS)


def blob_frame(size, phase):
    """A round yellow face that squashes and bounces."""
    s = size * SUPERSAMPLE
    image = canvas(size)
    draw = ImageDraw.Draw(image)
    bounce = abs(math.sin(phase * math.pi))
    squash = 1.0 - 0.18 * (1 - bounce)
    w, h = s * 0.62 / squash, s * 0.62 * squash
    cx, cy = s / 2, s * 0.58 - bounce * s * 0.16
    # soft shadow: translucent ellipse
    shadow_w = s * 0.5 * (1.2 - 0.4 * bounce)
    draw.ellipse([cx - shadow_w / 2, s * 0.9, cx + shadow_w / 2, s * 0.96], fill=(0, 0, 0, 70))
    border = s * 0.025
    draw.ellipse([cx - w / 2 - border, cy - h / 2 - border, cx + w / 2 + border, cy + h / 2 + border], fill=(255, 255, 255, 255))
    draw.ellipse([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], fill=(255, 204, 51, 255))
    eye = s * 0.05
    for dx in (-0.12, 0.12):
        draw.ellipse([cx + dx * s - eye / 2, cy - h * 0.18 - eye, cx + dx * s + eye / 2, cy - h * 0.18 + eye], fill=(60, 40, 20, 255))
    draw.arc([cx - s * 0.16, cy - h * 0.1, cx + s * 0.16, cy + h * 0.25], 20, 160, fill=(60, 40, 20, 255), width=int(s * 0.025))
    return finish(image, size)


def star_points(cx, cy, outer, inner, rotation):
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = rotation + i * math.pi / 5 - math.pi / 2
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def star_frame(size, phase):
    """A spinning star with sparkles (GIF: 1-bit transparency, so drawn without soft edges)."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    c = size / 2
    draw.polygon(star_points(c, c, size * 0.44, size * 0.2, phase * 2 * math.pi / 5), fill=(255, 255, 255, 255))
    draw.polygon(star_points(c, c, size * 0.40, size * 0.17, phase * 2 * math.pi / 5), fill=(255, 170, 0, 255))
    for k in range(4):
        angle = phase * 2 * math.pi + k * math.pi / 2
        r = size * 0.05 * (1 + math.sin(phase * 4 * math.pi + k))
        x, y = c + size * 0.45 * math.cos(angle), c + size * 0.45 * math.sin(angle)
        draw.ellipse([x - r, y - r, x + r, y + r], fill=(90, 200, 250, 255))
    return image


def heart_frame(size, phase):
    """A heart that beats, with a translucent glow (partial alpha over transparency)."""
    s = size * SUPERSAMPLE
    image = canvas(size)
    draw = ImageDraw.Draw(image)
    beat = 1.0 + 0.12 * math.sin(phase * 2 * math.pi)
    cx, cy = s / 2, s / 2
    glow = s * 0.42 * beat
    draw.ellipse([cx - glow, cy - glow, cx + glow, cy + glow], fill=(255, 80, 120, 60))
    r = s * 0.17 * beat
    points = []
    for i in range(200):
        t = i / 200 * 2 * math.pi
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((cx + x * r / 16 * 1.6, cy - y * r / 16 * 1.6))
    draw.polygon(points, fill=(230, 30, 70, 255), outline=(255, 255, 255, 255))
    return finish(image, size)


def popper_frame(size, phase):
    """Confetti bursting from a cone; each frame only adds pieces (GIF disposal 1)."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.polygon([(size * 0.1, size * 0.9), (size * 0.3, size * 0.55), (size * 0.45, size * 0.7)], fill=(120, 80, 200, 255))
    colours = [(255, 60, 60, 255), (60, 200, 90, 255), (60, 120, 255, 255), (255, 210, 40, 255)]
    pieces = int(phase * 40)
    for k in range(pieces):
        angle = -math.pi / 4 + (k * 0.37 % 1.0 - 0.5) * 1.2
        dist = size * (0.15 + (k * 0.61 % 1.0) * 0.55)
        x, y = size * 0.38 + dist * math.cos(angle), size * 0.62 + dist * math.sin(angle)
        r = size * 0.018
        draw.rectangle([x - r, y - r, x + r, y + r], fill=colours[k % 4])
    return image


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=2)
        f.write("\n")


def write_catalog(root):
    """A small Xcode sticker catalog: a still sticker and a sticker sequence, grid-size regular."""
    info = {"author": "xcode", "version": 1}
    pack = os.path.join(root, "Sticker Pack.stickerpack")
    os.makedirs(pack, exist_ok=True)
    write_json(os.path.join(root, "Contents.json"), {"info": info})
    write_json(os.path.join(pack, "Contents.json"), {
        "info": info,
        "properties": {"grid-size": "regular"},
        "stickers": [{"filename": "Heart.stickersequence"}, {"filename": "Star.sticker"}],
    })
    star = os.path.join(pack, "Star.sticker")
    os.makedirs(star, exist_ok=True)
    star_frame(408, 0.1).save(os.path.join(star, "star.png"), optimize=True)
    write_json(os.path.join(star, "Contents.json"), {
        "info": info, "properties": {"filename": "star.png", "accessibility-label": "Orange star"}})
    heart = os.path.join(pack, "Heart.stickersequence")
    os.makedirs(heart, exist_ok=True)
    names = []
    for i in range(6):
        name = f"heart-{i + 1:02d}.png"
        heart_frame(408, i / 6).quantize(64, method=Image.Quantize.FASTOCTREE).save(os.path.join(heart, name), optimize=True)
        names.append({"filename": name})
    write_json(os.path.join(heart, "Contents.json"), {
        "info": info,
        "properties": {"accessibility-label": "Beating heart", "duration": 8, "duration-type": "fps", "repetitions": 0},
        "frames": names,
    })


# The iMessage app icon set Apple's asset catalog reference lists for Messages extensions:
# (points, idiom, scales). App Store Connect refuses an app whose set misses one.
ICON_SLOTS = [((29, 29), "iphone", (2, 3)), ((60, 45), "iphone", (2, 3)), ((29, 29), "ipad", (2,)),
              ((67, 50), "ipad", (2,)), ((74, 55), "ipad", (2,)), ((27, 20), "universal", (2, 3)),
              ((32, 24), "universal", (2, 3)), ((1024, 768), "ios-marketing", (1,)), ((1024, 1024), "ios-marketing", (1,))]


def write_icon_set(root):
    """Every icon of the set: the star centred on a sky-blue ground (opaque, as the App Store
    wants its marketing icon)."""
    folder = os.path.join(root, "iMessage App Icon.stickersiconset")
    os.makedirs(folder, exist_ok=True)
    star = star_frame(408, 0.1)
    images = []
    for (w, h), idiom, scales in ICON_SLOTS:
        for scale in scales:
            pw, ph = w * scale, h * scale
            icon = Image.new("RGBA", (pw, ph), (150, 200, 240, 255))
            side = int(min(pw, ph) * 0.8)
            icon.alpha_composite(star.resize((side, side), Image.LANCZOS), ((pw - side) // 2, (ph - side) // 2))
            name = f"icon-{w}x{h}@{scale}x-{idiom}.png"
            icon.convert("RGB").save(os.path.join(folder, name), optimize=True)
            entry = {"size": f"{w}x{h}", "idiom": idiom, "filename": name, "scale": f"{scale}x"}
            # Xcode's own set: the Messages sizes and the Messages App Store icon are for iOS.
            if idiom == "universal" or (w, h) == (1024, 768):
                entry["platform"] = "ios"
            images.append(entry)
    write_json(os.path.join(folder, "Contents.json"), {"images": images, "info": {"author": "xcode", "version": 1}})


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    if len(sys.argv) <= 1:
        write_catalog(os.path.join(here, "Sample.xcstickers"))
        write_icon_set(os.path.join(here, "Sample.xcstickers"))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "sample-pack")
    os.makedirs(out, exist_ok=True)

    frames = [blob_frame(408, i / 12) for i in range(12)]
    frames[0].save(os.path.join(out, "01-bouncing-blob.png"), save_all=True, append_images=frames[1:],
                   duration=80, loop=0, disposal=1, blend=0, optimize=True)

    frames = [star_frame(408, i / 16) for i in range(16)]
    frames[0].save(os.path.join(out, "02-spinning-star.gif"), save_all=True, append_images=frames[1:],
                   duration=60, loop=0, disposal=2, optimize=False)

    frames = [heart_frame(618, i / 10) for i in range(10)]
    frames[0].save(os.path.join(out, "03-beating-heart.png"), save_all=True, append_images=frames[1:],
                   duration=[300, 100, 100, 100, 100, 300, 100, 100, 100, 100], loop=0, disposal=1, blend=0)

    frames = [popper_frame(618, i / 8) for i in range(1, 9)]
    frames[0].save(os.path.join(out, "04-party-popper.gif"), save_all=True, append_images=frames[1:],
                   duration=[100] * 7 + [1500], loop=2, disposal=1)

    blob_frame(408, 0.5).save(os.path.join(out, "05-still-blob.png"))

    # JPEG stickers are opaque: the blob on a sky-blue card.
    card = Image.new("RGBA", (408, 408), (150, 200, 240, 255))
    card.alpha_composite(blob_frame(408, 0.25))
    card.convert("RGB").save(os.path.join(out, "06-blob-card.jpg"), quality=90)
    for name in sorted(os.listdir(out)):
        size = os.path.getsize(os.path.join(out, name))
        assert size < 500_000, f"{name} is {size} bytes, over Apple's 500 KB limit"
        print(f"{name}: {size} bytes")


if __name__ == "__main__":
    main()
