"""Static files as they travel: our scripts and style sheets minified, then hashed and
compressed.

The scripts and style sheets are written to be read (every rule they follow is said in
a comment), and a phone at the card table fetches them on a slow connection: a sheet's
first load must stay within 60 KB compressed (``tests/test_page_weight.py``). So
``collectstatic`` strips their comments and whitespace with rjsmin and rcssmin (the
minifiers django-compressor uses; they only remove what does not count, never rename),
then WhiteNoise's manifest storage hashes the names and writes gzip and brotli copies
(brotli needs the Brotli package: requirements.txt; WhiteNoise sends the .br file to
every browser that asks for br, phones included).
The source files in ``static/`` stay as written.

Comments that start with ``/*!`` (a licence) are kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import rcssmin
import rjsmin
from whitenoise.storage import CompressedManifestStaticFilesStorage


def minifiable(name: str) -> bool:
    """Our own scripts and style sheets (a vendored ``.min.`` file is minified already)."""
    return name.endswith((".js", ".css")) and ".min." not in name


def minified(name: str, content: bytes) -> bytes:
    """The file ``name`` as served: minified when it is one of ours, else as it is."""
    if not minifiable(name):
        return content
    text = content.decode("utf-8")
    if name.endswith(".js"):
        return rjsmin.jsmin(text, keep_bang_comments=True).encode("utf-8")
    return rcssmin.cssmin(text, keep_bang_comments=True).encode("utf-8")


class MinifiedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's hashed, compressed storage, with our scripts and style sheets
    minified before they are hashed (so the hash is the served file's)."""

    def post_process(
        self, paths: dict[str, tuple[Any, str]], dry_run: bool = False, **options: Any
    ) -> Iterator[tuple[str, str, bool]]:
        if not dry_run:
            for name, (storage, path) in list(paths.items()):
                if not minifiable(name):
                    continue
                with storage.open(path) as source:
                    content = minified(name, source.read())
                # collectstatic copied the source here; the hashing below reads the
                # file from this storage instead of the source.
                with open(self.path(name), "wb") as target:
                    target.write(content)
                paths[name] = (self, name)
        yield from super().post_process(paths, dry_run=dry_run, **options)
