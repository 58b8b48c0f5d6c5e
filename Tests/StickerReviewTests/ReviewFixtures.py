"""Draws the packs the review tests read, with Pillow (which shares nothing with the code
under test), into the folder named on the command line:

good/  a-circle.png  408 px APNG: a red disc for 300 ms, then a blue disc for 300 ms, on
                     transparent, looping forever
       b-still.png   408 px PNG: a green disc on transparent
bad/   a-circle.png  as above
       tiny.png      120 px PNG: a red disc on transparent (Apple's smallest is 300 px)
       odd <b>&"name'.png  408 px PNG: a grey disc (a name full of markup characters)
"""
import os
import sys
from PIL import Image, ImageDraw


def disc(side, colour):
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    ImageDraw.Draw(image).ellipse((side // 8, side // 8, side - side // 8, side - side // 8), fill=colour)
    return image


def circle_animation(path):
    red, blue = disc(408, (220, 30, 30, 255)), disc(408, (30, 60, 220, 255))
    red.save(path, save_all=True, append_images=[blue], duration=[300, 300], loop=0, disposal=1, blend=0)
    check = Image.open(path)
    assert check.n_frames == 2, check.n_frames


root = sys.argv[1]
for pack in ("good", "bad"):
    os.makedirs(os.path.join(root, pack), exist_ok=True)
    circle_animation(os.path.join(root, pack, "a-circle.png"))
disc(408, (40, 170, 60, 255)).save(os.path.join(root, "good", "b-still.png"))
disc(120, (220, 30, 30, 255)).save(os.path.join(root, "bad", "tiny.png"))
disc(408, (128, 128, 128, 255)).save(os.path.join(root, "bad", "odd <b>&\"name'.png"))
