"""Draw the o1 brand images (icon and logo) with Pillow: plain geometry, no fonts, no downloaded art.

``python -m tests.integration.brand_art`` (from the repository root, in the HA environment) writes
``custom_components/o1/brand/*.png``; ``test_brand.py`` checks that the committed files are what this
draws. Shapes are drawn 4x larger and scaled down, for smooth edges.

The mark is the two glyphs of the name: a ring ("o") and a one ("1") with a flag, in the brand colour
on a rounded square (icon), or alone on a transparent background (logo, light and dark variants).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

BRAND_DIR = Path(__file__).resolve().parents[2] / "custom_components" / "o1" / "brand"

BRAND_COLOUR = (15, 118, 110, 255)  # teal
LIGHT = (255, 255, 255, 255)
DARK_MODE_GLYPHS = (94, 234, 212, 255)  # light teal, for dark backgrounds
SUPERSAMPLE = 4

# Glyphs in a box of width GLYPHS_WIDTH and height 1, touching its edges (the logo is trimmed);
# the icon centres them on its square.
GLYPHS_WIDTH = 1.18
RING_CENTRE = (0.4, 0.6)
RING_OUTER = 0.4
RING_STROKE = 0.15
ONE_BAR = (1.02, 0.0, 1.18, 1.0)  # left, top, right, bottom
ONE_FLAG = ((1.03, 0.0), (1.03, 0.19), (0.84, 0.33), (0.84, 0.14))


def _draw_glyphs(
    draw: ImageDraw.ImageDraw,
    origin: tuple[float, float],
    unit: float,
    colour: tuple[int, int, int, int],
    hole: tuple[int, int, int, int],
) -> None:
    """Draw the ring and the one, `unit` pixels per glyph unit, from `origin` (top left)."""
    ox, oy = origin

    def at(x: float, y: float) -> tuple[float, float]:
        """Return the pixel position of a point in glyph units."""
        return ox + x * unit, oy + y * unit

    cx, cy = RING_CENTRE
    outer, inner = RING_OUTER, RING_OUTER - RING_STROKE
    draw.ellipse([*at(cx - outer, cy - outer), *at(cx + outer, cy + outer)], fill=colour)
    draw.ellipse([*at(cx - inner, cy - inner), *at(cx + inner, cy + inner)], fill=hole)
    left, top, right, bottom = ONE_BAR
    draw.rectangle([*at(left, top), *at(right, bottom)], fill=colour)
    draw.polygon([at(x, y) for x, y in ONE_FLAG], fill=colour)


def render_icon(size: int) -> Image.Image:
    """Return the square icon (`size` pixels): light glyphs on a rounded teal square."""
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([0, 0, big - 1, big - 1], radius=round(big * 0.22), fill=BRAND_COLOUR)
    unit = big * 0.5
    origin = ((big - GLYPHS_WIDTH * unit) / 2, (big - unit) / 2)
    _draw_glyphs(draw, origin, unit, LIGHT, BRAND_COLOUR)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def render_logo(height: int, colour: tuple[int, int, int, int] = BRAND_COLOUR) -> Image.Image:
    """Return the landscape logo (`height` pixels high): the glyphs alone, transparent around them."""
    big = height * SUPERSAMPLE
    width = round(GLYPHS_WIDTH * big)
    image = Image.new("RGBA", (width, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    _draw_glyphs(draw, (0, 0), big, colour, (0, 0, 0, 0))
    return image.resize((round(GLYPHS_WIDTH * height), height), Image.Resampling.LANCZOS)


def brand_images() -> dict[str, Image.Image]:
    """Return every brand image by file name (the names HA's brands view serves)."""
    return {
        "icon.png": render_icon(256),
        "icon@2x.png": render_icon(512),
        "logo.png": render_logo(128),
        "logo@2x.png": render_logo(256),
        "dark_logo.png": render_logo(128, DARK_MODE_GLYPHS),
        "dark_logo@2x.png": render_logo(256, DARK_MODE_GLYPHS),
    }


def main() -> None:
    """Write the brand images into the integration's brand folder."""
    BRAND_DIR.mkdir(parents=True, exist_ok=True)
    for name, image in brand_images().items():
        image.save(BRAND_DIR / name, optimize=True)
        print(f"{BRAND_DIR / name}: {image.width}x{image.height}")


if __name__ == "__main__":
    main()
