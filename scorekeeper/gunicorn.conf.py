"""Gunicorn settings for ``make run``: ``gunicorn scorekeeper.wsgi -c scorekeeper/gunicorn.conf.py``.

Threaded workers (gthread): a connection that is idle, or sends its request slowly,
waits in the worker's poller instead of holding a whole process, so a few open
sockets cannot stall the site (a sync worker serves one connection at a time).

Environment (all optional):
  WORKERS              worker processes (default 2)
  THREADS              threads per worker, each serving one request at a time (default 8)
  FORWARDED_ALLOW_IPS  proxies trusted to set X-Forwarded-* headers (default 127.0.0.1);
                       the app reads the same variable, with the same default, for
                       whose X-Forwarded-For the rate limits believe (settings.py)
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any


def _count(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip() or str(default)
    if not value.isdigit() or int(value) < 1:
        raise SystemExit(f"{name} must be a whole number from 1; got {value!r}.")
    return int(value)


worker_class = "gthread"
workers = _count("WORKERS", 2)
threads = _count("THREADS", 8)
# A worker that stops answering its heartbeat for this long is replaced.
timeout = 30
# On a restart or stop, requests in flight get this long to finish.
graceful_timeout = 20
# Seconds an idle keep-alive connection stays open (phones poll every few seconds).
keepalive = 5
# Keep the default as settings.FORWARDED_ALLOW_IPS has it.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = "-"
errorlog = "-"
# The sheet and invitation tokens in logged paths are masked (scorekeeper/security.py).
if importlib.util.find_spec("scorekeeper.gunicorn_logging") is not None:
    logger_class = "scorekeeper.gunicorn_logging.MaskingLogger"
# No control socket: it would be $HOME/.gunicorn/gunicorn.ctl, one path shared by every
# gunicorn of the account (a second server, the tests), and nothing here uses gunicornc.
control_socket_disable = True


def on_starting(server: Any) -> None:
    """A port out of range (``make run PORT=80800``) is refused in one line, before
    gunicorn's socket fails with a traceback."""
    for address in server.cfg.address:  # gunicorn's Arbiter: every --bind address
        if isinstance(address, tuple) and not 0 < address[1] < 65536:
            raise SystemExit(f"PORT must be a whole number from 1 to 65535; got {address[1]}.")
