"""The brand images: drawn by brand_art.py, the sizes HA and HACS expect, served by HA."""

from __future__ import annotations

from io import BytesIO

from PIL import Image, ImageChops, ImageStat
import pytest
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from .brand_art import BRAND_DIR, brand_images


@pytest.mark.parametrize(("name", "expected"), list(brand_images().items()))
def test_brand_image_is_what_brand_art_draws(name: str, expected: Image.Image) -> None:
    """Each committed PNG is the generator's drawing (regenerate with python -m tests.integration.brand_art)."""
    with Image.open(BRAND_DIR / name) as committed:
        assert committed.format == "PNG"
        assert committed.mode == "RGBA"
        assert committed.size == expected.size
        difference = ImageStat.Stat(ImageChops.difference(committed, expected)).mean
    assert max(difference) < 1.0, name


def test_brand_image_rules() -> None:
    """Icons are square 256/512 px; logos are landscape, 128-256 px high (@2x: 256-512), trimmed."""
    sizes = {path.name: Image.open(path).size for path in BRAND_DIR.glob("*.png")}
    assert set(sizes) == set(brand_images())
    assert sizes["icon.png"] == (256, 256)
    assert sizes["icon@2x.png"] == (512, 512)
    for name in ("logo.png", "dark_logo.png"):
        width, height = sizes[name]
        assert 128 <= height <= 256 and width >= height
    for name in ("logo@2x.png", "dark_logo@2x.png"):
        width, height = sizes[name]
        assert 256 <= height <= 512 and width >= height
    with Image.open(BRAND_DIR / "logo.png") as logo:
        # Trimmed: the drawing touches the edges; transparent where nothing is drawn.
        assert logo.getchannel("A").getbbox() == (0, 0, *logo.size)
        assert logo.getpixel((logo.width - 2, 1))[3] > 200  # the one's bar reaches the top right
        assert logo.getpixel((0, 0))[3] == 0  # the ring's corner


async def test_home_assistant_serves_the_icon(
    hass: HomeAssistant, hass_client: ClientSessionGenerator
) -> None:
    """HA's brands view serves the integration's own icon (no CDN needed)."""
    assert await async_setup_component(hass, "brands", {})
    client = await hass_client()
    response = await client.get("/api/brands/integration/o1/icon.png")
    assert response.status == 200
    with Image.open(BytesIO(await response.read())) as served:
        assert served.size == (256, 256)
    response = await client.get("/api/brands/integration/o1/dark_logo@2x.png")
    assert response.status == 200
