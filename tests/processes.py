"""The environment of a process a test starts: built from scratch, as a newcomer's shell.

A child process that inherits ``os.environ`` inherits what pytest and pytest-django
set (``DJANGO_SETTINGS_MODULE`` above all), and so passes where the same command,
typed into a fresh shell, fails: the README's ``make run`` once exited at once for
that reason while its test passed. Every test that starts a process takes its
environment from here: ``HOME`` and ``PATH`` (what any login shell has), and only
what the test names on top.
"""

from __future__ import annotations

import os

# What a shell has before anybody exports anything.
INHERITED = ("HOME", "PATH")


def clean_environment(**extra: str) -> dict[str, str]:
    """``HOME`` and ``PATH`` of this process, and ``extra``; nothing else.

    Pass ``DATABASE_URL`` (``database_url()``) explicitly where the child should use the
    database the suite runs on.
    """
    env = {name: os.environ[name] for name in INHERITED if name in os.environ}
    env.setdefault("PATH", os.defpath)
    env.update(extra)
    return env


def database_url() -> dict[str, str]:
    """``{"DATABASE_URL": …}`` when the suite runs on PostgreSQL, else nothing."""
    url = os.environ.get("DATABASE_URL", "")
    return {"DATABASE_URL": url} if url else {}
