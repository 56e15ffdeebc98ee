"""The browser tests run the scripts and style sheets as ``make run`` serves them.

``collectstatic`` minifies our scripts and style sheets (scorekeeper/staticfiles.py);
the live server of the tests serves the files its finders find. This finder finds the
minified copy of each, so that every browser test runs the code a phone gets and a
minifier that broke a script fails them.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from django.contrib.staticfiles.finders import FileSystemFinder

from scorekeeper.staticfiles import minifiable, minified

_COPIES = Path(tempfile.mkdtemp(prefix="scorekeeper-minified-"))


class MinifiedFinder(FileSystemFinder):
    def find(self, path, find_all=False, **kwargs):
        found = super().find(path, find_all, **kwargs)
        if find_all or not found or not minifiable(path):
            return found
        copy = _COPIES / path
        source = Path(found)
        if not copy.exists() or copy.stat().st_mtime < source.stat().st_mtime:
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(minified(path, source.read_bytes()))
        return str(copy)
