"""The README's first command, as a newcomer runs it.

A fresh copy of the project (its files as git sees them: no ``.venv``, no database, no
collected static files), and ``make run`` started through ``env -i`` with nothing but
``HOME`` and ``PATH``: no ``DJANGO_SETTINGS_MODULE``, none of what pytest set. It must
create its virtual environment, migrate, collect the static files and serve: the
home page, a page in each language, and the page of a sheet started through the API
answer 200. Then it is stopped and started again, and the sheet is still there (the
data survives restarts).

Once, ``make run`` exited at once in such a shell (gunicorn's config loaded a module
that read Django's settings before Django was set up) while every test passed,
because each test's child process inherited ``DJANGO_SETTINGS_MODULE`` from pytest.

On CI's PostgreSQL pass the server is given that ``DATABASE_URL`` (and nothing else),
so the command is tried on both databases.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.processes import clean_environment, database_url

ROOT = Path(__file__).resolve().parent.parent

# Installing requirements.txt into a new virtual environment, migrating a new
# database and collecting the static files: a minute on a slow machine is plenty.
START_TIMEOUT = 240

pytestmark = pytest.mark.skipif(
    shutil.which("make") is None or shutil.which("git") is None,
    reason="the README's commands need make (and git to copy the project)",
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _fresh_copy(target: Path) -> Path:
    """The project's files as a clone would have them (tracked, and new files that
    are not ignored, so a test run before a commit tries the change too)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        env=clean_environment(),
        capture_output=True,
        check=True,
    ).stdout
    copy = target / "scorekeeper"
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if not source.is_file():  # deleted in the working tree, not yet committed
            continue
        destination = copy / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, destination)
    return copy


def _request(port: int, method: str, path: str, body: dict | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = {"Accept-Language": "en"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        return response.status, response.getheader("Location"), response.read()
    finally:
        connection.close()


class Server:
    """``make run`` in its own process group, so stopping it stops gunicorn too."""

    def __init__(self, copy: Path, port: int, log: Path):
        self.copy, self.port, self.log = copy, port, log

    def start(self) -> None:
        env = clean_environment(**database_url())
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                ["make", "run", f"PORT={self.port}"],
                cwd=self.copy,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.process.poll() is not None:
                pytest.fail(f"make run exited with {self.process.returncode}:\n{self.tail()}")
            try:
                if _request(self.port, "GET", "/healthz")[0] == 200:
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"make run did not serve within {START_TIMEOUT} s:\n{self.tail()}")
            time.sleep(0.5)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        # make exits at once; gunicorn finishes its requests and closes its socket a
        # moment later. Until the port is free, a health check could be answered by
        # the old server, and the next request reset as it closes (seen once on CI).
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    pass
            except OSError:
                return
            time.sleep(0.2)

    def tail(self) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-30:])


@pytest.fixture
def server(tmp_path):
    copy = _fresh_copy(tmp_path)
    running = Server(copy, _free_port(), tmp_path / "make-run.log")
    running.start()
    try:
        yield running
    finally:
        running.stop()


def _follow(port: int, path: str) -> tuple[int, str]:
    """GET, following redirects on this server: the status and the last path."""
    for _ in range(5):
        status, location, _ = _request(port, "GET", path)
        if status not in (301, 302) or not location:
            return status, path
        path = location.removeprefix(f"http://127.0.0.1:{port}")
    pytest.fail(f"too many redirects from {path}")


def test_make_run_in_an_empty_environment_serves_and_keeps_the_data(server):
    assert "Scorekeeper on http://127.0.0.1:" in server.tail()
    # The home page (an address without a language sends the newcomer to English).
    assert _follow(server.port, "/") == (200, "/en/")
    for language in ("en", "de", "eo"):
        assert _follow(server.port, f"/{language}/")[0] == 200, language
        assert _follow(server.port, f"/{language}/new/skat/")[0] == 200, language

    status, _, body = _request(
        server.port,
        "POST",
        "/api/v1/sheets",
        {"game": "skat", "players": ["Anna", "Ben", "Cleo"]},
    )
    assert status == 201, body
    token = json.loads(body)["edit_token"]
    sheet = f"/en/s/{token}/"
    status, _, page = _request(server.port, "GET", sheet)
    assert status == 200
    assert b"Anna" in page

    # Stopped and started again (no new install: the stamp file says it is there),
    # the sheet is still there.
    server.stop()
    server.start()
    status, _, page = _request(server.port, "GET", sheet)
    assert status == 200
    assert b"Cleo" in page
