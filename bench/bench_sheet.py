"""Benchmark: what a score sheet costs as it grows, against a bare Django view.

Run: .venv/bin/python bench/bench_sheet.py   (or: make bench)

It serves the app as `make run` does (gunicorn with scorekeeper/gunicorn.conf.py, a
fresh SQLite file in WAL mode, one worker so every request meets the same process)
and asks it over HTTP on a kept-alive connection, as a phone does. For Skat sheets
of 10, 36, 100 and 200 deals it times, median of many requests:

- a bare view (``/healthz``: the floor of the same stack);
- the sheet page (edit link) and the read-only page;
- the live preview of the next deal (htmx);
- entering a deal (htmx; the deal is taken off again between rounds, untimed);
- the read-only view's update after a change (the board for a new version).

Each request is timed side by side with the bare view: blocks of ten bare requests
and ten of the request alternate, so that both meet the machine in the same state (a
shared two-core machine drifts by a third within a minute). It prints the median
milliseconds, the bare view's median measured beside it, the ratio of the two, the
ratio to the same request at 10 deals, and the size of each answer (raw and
gzip-compressed, as sent).
A 200-deal series cannot take another deal, so "enter" is measured on the 199-deal
sheet there (its last deal).
"""

from __future__ import annotations

import gzip
import http.client
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATA_DIR = tempfile.mkdtemp(prefix="scorekeeper-bench-")
os.environ["DATA_DIR"] = DATA_DIR
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
os.environ.pop("DATABASE_URL", None)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from games import services  # noqa: E402
from games.models import Sheet  # noqa: E402

SIZES = (10, 36, 100, 200)
ROUNDS = int(os.environ.get("ROUNDS", "150"))
PLAYERS = ["Ana", "Ben", "Cem"]
DEAL_FORM = {
    "mode": "game",
    "declarer": "1",
    "game": "grand",
    "bid": "24",
    "matadors_by": "count",
    "matadors_direction": "with",
    "matadors_count": "2",
    "matadors": "with-2",
    "result_by": "outcome",
    "outcome": "won",
    # Sent by a form drawn fresh, as the phone's is: the answer brings no new form.
    "entry_fresh": "1",
}


def deal(number: int) -> dict:
    """The deals the sheets are filled with: suit, grand and null games, won and lost."""
    if number % 4 == 3:
        return {"declarer": (number + 1) % 3, "game": "null", "bid": 23, "outcome": "won"}
    return {
        "declarer": (number + 1) % 3,
        "game": ["clubs", "grand", "hearts"][number % 4],
        "bid": 18,
        "matadors": {"with": 1},
        "outcome": "won" if number % 3 else "lost",
    }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(port: int, workers: int = 1) -> subprocess.Popen:
    """Gunicorn as ``make run`` starts it (one worker unless told), on the benchmark's
    database."""
    return subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "scorekeeper.wsgi",
            "-c",
            str(ROOT / "scorekeeper" / "gunicorn.conf.py"),
            "--bind",
            f"127.0.0.1:{port}",
            "--access-logfile",
            "/dev/null",
        ],
        cwd=ROOT,
        env={**os.environ, "WORKERS": str(workers), "DATA_DIR": DATA_DIR},
        stdout=subprocess.DEVNULL,
        stderr=open(Path(DATA_DIR) / "server.log", "w"),
    )


class Phone:
    """One kept-alive HTTP connection with the site's cookies (CSRF)."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: dict | None = None, **headers: str):
        headers = {"Accept-Encoding": "gzip", "Host": "127.0.0.1", **headers}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            headers["Origin"] = "http://127.0.0.1"
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # The server closed the kept-alive connection after its keepalive (5 s)
            # idle: a phone opens a new one, as a browser does.
            self.connection.close()
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
        sent = response.read()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        raw = gzip.decompress(sent) if response.getheader("Content-Encoding") == "gzip" else sent
        return response.status, raw, len(sent)


def ready(port: int) -> Phone:
    """A phone on the server at ``port``, once it answers ``/healthz`` (up to 10 s)."""
    phone = Phone(port)
    for _ in range(100):
        try:
            if phone.request("GET", "/healthz")[0] == 200:
                return phone
        except OSError:
            phone = Phone(port)
        time.sleep(0.1)
    raise SystemExit(f"The server on port {port} did not answer /healthz within 10 s.")


BLOCK = 10


def _ms(action) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def timed(action, bare, rounds: int = ROUNDS) -> tuple[float, float]:
    """Median ms of ``action`` and of ``bare``, in alternating blocks of BLOCK each."""
    for _ in range(5):
        action()
        bare()
    samples, floor = [], []
    for _ in range(max(1, rounds // BLOCK)):
        floor.extend(_ms(bare) for _ in range(BLOCK))
        samples.extend(_ms(action) for _ in range(BLOCK))
    return statistics.median(samples), statistics.median(floor)


def build(size: int) -> Sheet:
    sheet = services.sheet_create(game="skat", players=PLAYERS, options={"series_deals": 200})
    for number in range(size):
        services.hand_record(sheet=sheet, data=deal(number))
    sheet.refresh_from_db()
    return sheet


def main() -> None:
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    # The pages name their static files by the manifest (make bench collects them too).
    call_command("collectstatic", interactive=False, verbosity=0)
    sheets = {size: build(size) for size in SIZES}
    sheets[199] = build(199)
    port = free_port()
    server = serve(port)
    try:
        run(ready(port), sheets)
    finally:
        server.terminate()
        server.wait(timeout=30)
        errors = (Path(DATA_DIR) / "server.log").read_text()
        if "Traceback" in errors:
            print(errors[-3000:], file=sys.stderr)


def run(phone: Phone, sheets: dict[int, Sheet]) -> None:
    rows: list[tuple[str, int | None, float, float, int, int]] = []

    def bare() -> None:
        phone.request("GET", "/healthz")

    def case(name: str, size: int | None, path: str, body: dict | None = None, **headers: str):
        method = "GET" if body is None else "POST"
        status, raw, sent = phone.request(method, path, body, **headers)
        if status != 200:
            raise SystemExit(f"{name} at {size} deals answered {status}: {raw[:300]!r}")
        ms, floor = timed(lambda: phone.request(method, path, body, **headers), bare)
        rows.append((name, size, ms, floor, len(raw), sent))
        return raw

    case("bare view (/healthz)", None, "/healthz")
    htmx = {"HX-Request": "true", "HX-Current-URL": "http://127.0.0.1/"}
    for size in SIZES:
        sheet = sheets[size]
        case("sheet page", size, sheet.get_absolute_url())
        case("read-only page", size, sheet.get_view_url())
        # A full 200-deal series takes no more deals: the next deal is the 199-deal sheet's.
        target = sheets[199] if size == 200 else sheet
        raw = case("live preview", size, f"/en/s/{target.edit_token}/preview", DEAL_FORM, **htmx)
        if b"preview-ok" not in raw:
            raise SystemExit(f"The preview refused the deal: {raw[:300]!r}")
        rows.append(("enter a deal", size, *enter(phone, target, htmx, bare)))
        live = f"/en/v/{sheet.view_token}/live?since={sheet.version - 1}"
        case("read-only update", size, live, **htmx)
    report(rows)


def enter(phone: Phone, sheet: Sheet, htmx: dict, bare) -> tuple[float, float, int, int]:
    """Median ms of entering the next deal with htmx (each is taken off again, untimed),
    and of the bare view in blocks between them."""
    page = sheet.get_absolute_url()
    phone.request("GET", page)
    samples, floor, sizes = [], [], (0, 0)
    for round_ in range(ROUNDS // 2 + 5):
        if round_ >= 5 and round_ % BLOCK == 5:
            floor.extend(_ms(bare) for _ in range(BLOCK))
        form = {**DEAL_FORM, "idempotency_key": secrets.token_hex(8)}
        start = time.perf_counter()
        status, raw, sent = phone.request("POST", page, form, **htmx)
        took = (time.perf_counter() - start) * 1000
        if status != 200:
            raise SystemExit(f"Entering a deal answered {status}: {raw[:300]!r}")
        if round_ >= 5:
            samples.append(took)
        sizes = (len(raw), sent)
        sheet.refresh_from_db()
        services.hand_remove(sheet=sheet, number=sheet.deal_count)
    return statistics.median(samples), statistics.median(floor), *sizes


def report(rows) -> None:
    at_ten = {name: ms for name, size, ms, _, _, _ in rows if size == SIZES[0]}
    print(
        f"{'request':<22} {'deals':>5} {'median ms':>10} {'bare ms':>8} {'× bare':>7} "
        f"{'× at 10':>8} {'KB':>7} {'KB gz':>7}"
    )
    for name, size, ms, floor, raw, sent in rows:
        growth = f"{ms / at_ten[name]:.2f}" if name in at_ten else ""
        print(
            f"{name:<22} {size if size else '':>5} {ms:>10.2f} {floor:>8.2f} {ms / floor:>7.1f} "
            f"{growth:>8} {raw / 1024:>7.1f} {sent / 1024:>7.1f}"
        )


if __name__ == "__main__":
    if not re.fullmatch(r"\d+", str(ROUNDS)):
        raise SystemExit("ROUNDS is a whole number")
    main()
