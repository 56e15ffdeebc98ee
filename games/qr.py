"""QR codes for the sheet's links, as inline SVG (no image files, no outside service)."""

from __future__ import annotations

from functools import lru_cache

import qrcode
import qrcode.image.svg


@lru_cache(maxsize=256)
def qr_svg(text: str) -> str:
    image = qrcode.make(
        text,
        image_factory=qrcode.image.svg.SvgPathImage,
        box_size=10,
        border=2,
        error_correction=qrcode.constants.ERROR_CORRECT_M,
    )
    svg = image.to_string(encoding="unicode")
    # Size it with CSS, not millimetres; the path stays black on white in dark mode too.
    return svg.replace('width="', 'data-width="').replace('height="', 'data-height="', 1)
