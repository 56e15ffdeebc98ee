"""The sheet's QR codes: exactly the library's matrix, drawn as runs of modules."""

from __future__ import annotations

import re

import qrcode

from games.qr import qr_svg

URL = "https://scores.example.org/v/" + "x" * 43 + "/"


def drawn(svg: str) -> list[list[bool]]:
    size = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))
    grid = [[False] * size for _ in range(size)]
    for x, y, length in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\d+z", svg):
        for column in range(int(x), int(x) + int(length)):
            grid[int(y)][column] = True
    return grid


def test_the_svg_draws_the_qr_matrix_module_for_module():
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=2)
    code.add_data(URL)
    code.make(fit=True)
    assert drawn(qr_svg(URL)) == code.get_matrix()


def test_a_sheet_link_code_is_small():
    # Two codes travel with every sheet page (issue 9: first load at most 60 KB).
    assert len(qr_svg(URL)) < 6_000
