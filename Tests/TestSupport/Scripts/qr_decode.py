"""Decodes the QR codes drawn in half blocks in a terminal's text (standard input) with zbarimg; prints each.

A test of the module layout, not of fonts: each character cell becomes two square pixels stacked (upper and
lower half), drawn (the character's ink) as white and not drawn as black, as on a terminal with light text on a
dark background. Lines without half blocks are skipped; each run of lines with them is one picture.
Needs Debian's python3-pil and zbar-tools (Scripts/install-deps.sh), run with /usr/bin/python3.
"""
import subprocess
import sys
import tempfile

from PIL import Image

UPPER, LOWER = {"\u2580", "\u2588"}, {"\u2584", "\u2588"}
BLOCKS = UPPER | LOWER
SCALE = 6


def pictures(lines):
    run = []
    for line in lines:
        if any(character in BLOCKS for character in line):
            run.append(line)
        elif run:
            yield run
            run = []
    if run:
        yield run


def draw(rows):
    width = max(len(row) for row in rows)
    image = Image.new("L", (width, 2 * len(rows)), 0)
    for y, row in enumerate(rows):
        for x, character in enumerate(row):
            if character in UPPER:
                image.putpixel((x, 2 * y), 255)
            if character in LOWER:
                image.putpixel((x, 2 * y + 1), 255)
    # A dark border, as the terminal's background around the drawing.
    framed = Image.new("L", (width + 8, 2 * len(rows) + 8), 0)
    framed.paste(image, (4, 4))
    return framed.resize((framed.width * SCALE, framed.height * SCALE), Image.NEAREST)


def main():
    lines = sys.stdin.read().replace("\r", "").split("\n")
    for rows in pictures(lines):
        with tempfile.NamedTemporaryFile(suffix=".png") as png:
            draw(rows).save(png.name)
            result = subprocess.run(["zbarimg", "--quiet", "--raw", "-Sbinary", png.name], capture_output=True)
            sys.stdout.write(result.stdout.decode("utf-8", "replace"))


main()
