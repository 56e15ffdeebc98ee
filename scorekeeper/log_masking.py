"""Tokens out of logs: ``mask_tokens`` and ``MaskTokensFilter``.

The tokens in ``/s/…``, ``/v/…``, ``/standings/…``, ``/join/…``, a club evening's
``/e/ /t/ /p/ /r/…``, the e-mail confirmation's ``/accounts/email/…`` and password-reset
paths are masked wherever a path is logged: Django's request and server loggers (the
``LOGGING`` setting) and gunicorn's access and error logs
(``scorekeeper.gunicorn_logging``).

Only the standard library is imported here, never Django or the project's settings:
gunicorn's master process loads this module from its config file before Django is set
up, in a shell where nothing (not even ``DJANGO_SETTINGS_MODULE``) is exported. A test
imports it in such a process (``tests/test_first_command.py``).
"""

from __future__ import annotations

import logging
import re

# A path separator, also percent-encoded (a ``next=`` parameter in a query string).
_SEP = r"(?:/|%2[Ff])"
_TOKEN_IN_PATH = re.compile(
    rf"(?P<head>{_SEP}(?:s|v|standings|join|e|t|p|r|email){_SEP}"
    rf"|{_SEP}password{_SEP}reset{_SEP}[A-Za-z0-9_-]+{_SEP}(?!set-password\b))"
    # Signed tokens (the e-mail confirmation's) hold ":" too. Never ".": a path masked
    # once ("/s/...Xy7/") must read the same when a second filter masks it again.
    r"(?P<token>[A-Za-z0-9_:-]+)"
)
# Tokens are 32 or more characters; keeping the last three tells two apart in a log
# without giving anything away. A shorter one (never a real token) is masked whole.
KEEP = 3
MASK = "..."


def _mask_token(match: re.Match) -> str:
    token = match["token"]
    kept = token[-KEEP:] if len(token) >= 4 * KEEP else ""
    return f"{match['head']}{MASK}{kept}"


def mask_tokens(path: str) -> str:
    """The path (or a request line, a URL, a log message) with every token masked:
    ``/s/AbC…Xy7/deals/2/`` → ``/s/...Xy7/deals/2/``."""
    return _TOKEN_IN_PATH.sub(_mask_token, path)


def _masked(value):
    return mask_tokens(value) if isinstance(value, str) else value


class MaskTokensFilter(logging.Filter):
    """Masks tokens in a log record's message and its string arguments.

    On the ``django.request``, ``django.security.csrf`` and ``django.server`` loggers
    (a filter on a logger sees only what is logged on that very logger) and on the
    console handler, which everything else reaches.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = mask_tokens(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_masked(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _masked(arg) for key, arg in record.args.items()}
        return True
