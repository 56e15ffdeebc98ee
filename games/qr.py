"""QR codes for the sheet's links, as inline SVG (no image files, no outside service).

One path of horizontal runs, one unit per module: about half the bytes of the
library's own SVG (a sheet page carries two codes, and its first load must stay
small on a phone at the card table). The quiet zone is part of the matrix; the
white background comes from the style sheet, which also sizes the code.
"""

from __future__ import annotations

from functools import lru_cache

import qrcode


@lru_cache(maxsize=256)
def qr_svg(text: str) -> str:
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=2)
    code.add_data(text)
    code.make(fit=True)
    matrix = code.get_matrix()
    size = len(matrix)
    runs = []
    for y, row in enumerate(matrix):
        x = 0
        while x < size:
            if not row[x]:
                x += 1
                continue
            start = x
            while x < size and row[x]:
                x += 1
            runs.append(f"M{start} {y}h{x - start}v1h{start - x}z")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'shape-rendering="crispEdges" aria-hidden="true"><path d="{"".join(runs)}"/></svg>'
    )
