"""collectstatic writes our scripts and style sheets minified, then hashed and compressed
(scorekeeper/staticfiles.py), as ``make run`` serves them."""

from __future__ import annotations

import gzip
import json

from django.core.management import call_command

from scorekeeper.staticfiles import minifiable, minified


def _collect(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "scorekeeper.staticfiles.MinifiedStaticFilesStorage"},
    }
    call_command("collectstatic", "--noinput", verbosity=0)
    return json.loads((tmp_path / "staticfiles.json").read_text())["paths"]


def test_scripts_and_style_sheets_are_served_minified_under_their_hashed_names(settings, tmp_path):
    paths = _collect(settings, tmp_path)
    source = (settings.BASE_DIR / "static" / "js" / "offline.js").read_bytes()
    served = (tmp_path / paths["js/offline.js"]).read_bytes()
    assert served == minified("js/offline.js", source)
    # The comments that say why are in the source only; the code is all there.
    assert b"// Never lose a tap" in source
    assert b"Never lose a tap" not in served
    assert b"serviceWorker" in served
    assert len(served) < len(source) * 0.8
    # Compressed copies are of the minified file.
    assert gzip.decompress((tmp_path / (paths["js/offline.js"] + ".gz")).read_bytes()) == served
    # A style sheet's references to other static files still get their hashed names.
    css = (tmp_path / paths["css/scorekeeper.css"]).read_text()
    assert "/*" not in css


def test_a_vendored_minified_script_and_other_files_are_left_as_they_are(settings, tmp_path):
    paths = _collect(settings, tmp_path)
    htmx = settings.BASE_DIR / "static" / "vendor" / "htmx" / "htmx.min.js"
    assert (tmp_path / paths["vendor/htmx/htmx.min.js"]).read_bytes() == htmx.read_bytes()
    assert not minifiable("vendor/htmx/htmx.min.js")
    assert not minifiable("icons/scorekeeper.svg")
    assert minified("icons/scorekeeper.svg", b"<svg/>") == b"<svg/>"
