"""``make run``'s gunicorn settings: idle connections cannot block the site.

Gunicorn's sync workers serve one connection at a time, so with two of them two
sockets that connect and send nothing froze every page for the 30 s worker timeout.
This starts gunicorn with ``scorekeeper/gunicorn.conf.py`` on a free loopback port
(SQLite in a temporary DATA_DIR), leaves four sockets idle or half-sent, and asks
for the home page.
"""

from __future__ import annotations

import http.client
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.processes import clean_environment

pytest.importorskip("gunicorn")

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "scorekeeper" / "gunicorn.conf.py"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get_home(port: int, timeout: float) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", "/en/")
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


@pytest.fixture
def server(tmp_path):
    # Built from scratch (no DJANGO_SETTINGS_MODULE from pytest: gunicorn's config must
    # load without it), with a throwaway SQLite file: never the database a DATABASE_URL
    # names.
    env = clean_environment(
        DATA_DIR=str(tmp_path),
        SECRET_KEY="test-gunicorn-" + "x" * 40,
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1",
        WORKERS="2",
        THREADS="8",
    )
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    if not (ROOT / "staticfiles" / "staticfiles.json").exists():
        # The pages need the static manifest, as `make setup` builds it.
        subprocess.run([*manage, "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env)
    port = free_port()
    log = (tmp_path / "gunicorn.log").open("wb")
    command = [sys.executable, "-m", "gunicorn", "scorekeeper.wsgi", "-c", str(CONFIG)]
    process = subprocess.Popen(
        [*command, "--bind", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                if get_home(port, timeout=2) == 200:
                    break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail("gunicorn did not start:\n" + (tmp_path / "gunicorn.log").read_text())
            time.sleep(0.1)
        yield port
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def test_idle_connections_do_not_block_the_home_page(server):
    idle = []
    try:
        for i in range(4):
            sock = socket.create_connection(("127.0.0.1", server), timeout=5)
            if i % 2:
                # Half a request line, never finished.
                sock.sendall(b"GET / HTT")
            idle.append(sock)
        time.sleep(0.2)  # the workers have taken the idle sockets
        for _ in range(4):
            start = time.monotonic()
            assert get_home(server, timeout=5) == 200
            assert time.monotonic() - start < 5
    finally:
        for sock in idle:
            sock.close()
