"""Decodes the QR codes drawn in half blocks in a terminal's text (standard input) with zbarimg; prints each.

A test of the module layout, not of fonts: each character cell becomes two square pixels stacked (upper and
lower half), drawn (the character's ink) as white and not drawn as black, as on a terminal with light text on a
dark background. A picture starts at a line with a full block: its first run of full blocks is the code's top
(the quiet zone, drawn), which gives the code's columns; the lines below are cut to those columns (the text printed
beside the code is left out) until one holds no half block there.
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
    index = 0
    while index < len(lines):
        start = lines[index].find("\u2588")
        if start < 0:
            index += 1
            continue
        end = start
        while end < len(lines[index]) and lines[index][end] == "\u2588":
            end += 1
        rows = []
        while index < len(lines) and any(character in BLOCKS for character in lines[index][start:end]):
            rows.append(lines[index][start:end])
            index += 1
        yield rows


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
