"""The load bench (bench/load.py) runs the server as the settings read it now (issue 19).

It set TRUSTED_PROXY_HOPS=1, which is no longer read (FORWARDED_ALLOW_IPS took its
place: scorekeeper/security.py): the server warned at every start, and its phones'
addresses counted only because 127.0.0.1 is trusted by default. And a request's retry
came from the next phone: a new sheet's Idempotency-Key, kept for the address that sent
it, then started a second sheet instead of answering the first one.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from django.test import RequestFactory, override_settings

from scorekeeper.security import client_ip

ROOT = Path(__file__).resolve().parent.parent


def _bench():
    """bench/load.py as a module (the bench is no package)."""
    if "bench_load" in sys.modules:
        return sys.modules["bench_load"]
    spec = importlib.util.spec_from_file_location("bench_load", ROOT / "bench" / "load.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_load"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_bench_trusts_its_own_address_as_the_proxy_and_sets_no_removed_setting():
    """issue 19: the bench's server trusts X-Forwarded-For from where its clients
    connect (FORWARDED_ALLOW_IPS), and sets no TRUSTED_PROXY_HOPS."""
    load = _bench()
    env = load.server_environment({"TRUSTED_PROXY_HOPS": "1"}, workers="2", threads="8")
    assert "TRUSTED_PROXY_HOPS" not in env
    allowed = tuple(part.strip() for part in env["FORWARDED_ALLOW_IPS"].split(","))
    request = RequestFactory().get(
        "/api/v1/sheets", REMOTE_ADDR=load.HOST, HTTP_X_FORWARDED_FOR="10.0.0.7"
    )
    with override_settings(FORWARDED_ALLOW_IPS=allowed):
        assert client_ip(request) == "10.0.0.7"


class _Answer:
    status = 201

    def __init__(self) -> None:
        self.headers: dict[str, str] = {}

    def read(self) -> bytes:
        return json.dumps({"id": 1}).encode()


def test_a_request_and_its_retries_come_from_one_phone(monkeypatch):
    """issue 19: a retry after a broken connection carries the same phone's address."""
    load = _bench()
    sent: list[str] = []

    class Connection:
        def __init__(self, *args, **kwargs) -> None:
            pass

        def request(self, method, path, body=None, headers=None) -> None:
            sent.append(headers["X-Forwarded-For"])
            if len(sent) == 1:
                raise ConnectionResetError("the worker was killed")

        def getresponse(self) -> _Answer:
            return _Answer()

        def close(self) -> None:
            pass

    monkeypatch.setattr(load.http.client, "HTTPConnection", Connection)
    monkeypatch.setattr(load.time, "sleep", lambda seconds: None)
    client = load.Client(0, load.Tally(), load.time.monotonic() + 60, load.phones(1, 8))
    assert client.exchange("POST", "/api/v1/sheets", {"game": "skat"}, key="k") == (201, {"id": 1})
    assert len(sent) == 2
    assert sent[0] == sent[1]
    client.exchange("POST", "/api/v1/sheets", {"game": "skat"}, key="k2")
    assert sent[2] != sent[0]  # the next request: the next phone
