"""Gunicorn's logger with the sheet, season and invitation tokens masked.

In ``gunicorn.conf.py``::

    logger_class = "scorekeeper.gunicorn_logging.MaskingLogger"

Every value the access log can print is masked: the request line (``%(r)s``), the
path (``%(U)s``), the query (``%(q)s``), the referer (``%(f)s``: a page under
``/s/<token>/`` sends its own address with every request for a stylesheet or a
script) and any header or environ value (``%({name}i)s``, ``%({name}e)s``). Messages
of the error log ("Error handling request /s/…") are masked too.
"""

from __future__ import annotations

from gunicorn.glogging import Logger

from scorekeeper.log_masking import MaskTokensFilter, mask_tokens


class MaskingLogger(Logger):
    def setup(self, cfg):
        super().setup(cfg)
        # setup() runs again on every reload (HUP): one filter is enough.
        if not any(isinstance(f, MaskTokensFilter) for f in self.error_log.filters):
            self.error_log.addFilter(MaskTokensFilter())

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        return {
            name: mask_tokens(value) if isinstance(value, str) else value
            for name, value in atoms.items()
        }
