"""The sheet page's first load as a phone gets it: at most 60 KB, its files in Brotli.

WhiteNoise writes a Brotli copy (.br) beside each gzip one when the Brotli package is
installed (requirements.txt), and sends it to every browser that asks for br, as phones
do. The page itself comes gzipped (Django's GZipMiddleware). Counted here: the page and
every style sheet, script and icon it names, each as it travels (the .br copy where
WhiteNoise writes one, else the file as it is). Fast: the files are minified and
compressed as collectstatic does it, without running collectstatic over the whole tree;
one test runs it on two files to see that the .br copies are written.
"""

from __future__ import annotations

import gzip

import brotli
import pytest
from django.core.management import call_command
from whitenoise import compress
from whitenoise.compress import Compressor

from tests.test_page_weight import LIMIT, assets, skat_sheet, static_bytes

pytestmark = pytest.mark.django_db

BROWSER = "gzip, deflate, br, zstd"


def sent(name: str, data: bytes) -> int:
    """Bytes WhiteNoise sends for a static file to a browser that takes br."""
    compressor = Compressor(quiet=True)
    if not compressor.should_compress(name):
        return len(data)
    squeezed = Compressor.compress_brotli(data)
    # WhiteNoise keeps a .br copy only when it saves 5 % or more (and then no .gz either).
    if compressor.is_compressed_effectively("Brotli", name, len(data), squeezed):
        return len(squeezed)
    return len(data)


def first_load(client, url: str) -> dict[str, int]:
    response = client.get(url, HTTP_ACCEPT_ENCODING=BROWSER)
    assert response.status_code == 200, url
    assert response["Content-Encoding"] == "gzip"
    html = gzip.decompress(response.content).decode()
    parts = {url: len(response.content)}
    for asset in sorted(assets(html)):
        data = static_bytes(asset)
        if data is not None:
            parts[asset] = sent(asset, data)
    return parts


def test_brotli_is_installed_for_whitenoise():
    # Without the package WhiteNoise writes gzip copies only, silently.
    assert compress.brotli_installed


def test_collectstatic_writes_brotli_copies_beside_the_gzip_ones(settings, tmp_path):
    source = tmp_path / "static"
    for name in ("js/share.js", "css/app.css"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_bytes((settings.BASE_DIR / "static" / name).read_bytes())
    settings.STATICFILES_DIRS = [source]
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.STATIC_ROOT = tmp_path / "collected"
    # As settings.py has it outside the tests (which use a storage that writes nothing).
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "scorekeeper.staticfiles.MinifiedStaticFilesStorage"},
    }
    call_command("collectstatic", "--noinput", verbosity=0)
    for name in ("js/share.js", "css/app.css"):
        stem, _, suffix = name.rpartition(".")
        [served] = [
            path
            for path in (tmp_path / "collected").glob(f"{stem}.*.{suffix}")
            if path.name.count(".") == 2
        ]
        squeezed = served.with_name(served.name + ".br").read_bytes()
        zipped = served.with_name(served.name + ".gz").read_bytes()
        assert brotli.decompress(squeezed) == served.read_bytes()
        assert len(squeezed) < len(zipped)


@pytest.mark.parametrize("link", ["edit", "view"])
def test_the_36_deal_sheet_loads_in_at_most_60_kb_with_brotli(client, link):
    sheet = skat_sheet(36)
    url = f"/en/s/{sheet.edit_token}/" if link == "edit" else f"/en/v/{sheet.view_token}/"
    parts = first_load(client, url)
    assert any(name.endswith(".js") for name in parts)
    assert any(name.endswith(".css") for name in parts)
    assert sum(parts.values()) <= LIMIT, parts


def test_every_script_and_style_sheet_of_the_sheet_page_has_a_brotli_copy(client):
    sheet = skat_sheet(3)
    response = client.get(f"/en/s/{sheet.edit_token}/", HTTP_ACCEPT_ENCODING=BROWSER)
    html = gzip.decompress(response.content).decode()
    for asset in assets(html):
        data = static_bytes(asset)
        if data is None or not asset.endswith((".js", ".css")):
            continue
        assert sent(asset, data) < len(data) * 0.95, asset
