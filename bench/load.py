"""Load test: the app under gunicorn (``scorekeeper/gunicorn.conf.py``) on this machine.

Run (about a minute per database; not part of ``make bench``):

    .venv/bin/python bench/load.py
    .venv/bin/python bench/load.py --postgres postgres://scorekeeper:scorekeeper@127.0.0.1:5432/scorekeeper

SQLite always (a fresh DATA_DIR in a temporary directory for each run); PostgreSQL
too when ``--postgres URL`` or DATABASE_URL names a database (it is migrated, and
the sheets the runs create stay in it). For each number of clients (``--clients``,
16 and 64 unless told), a fresh gunicorn on a free loopback port serves; the clients
(threads, http.client) enter Skat deals through the JSON API for ``--seconds``.
``--sqlite-queue both`` runs SQLite twice at each number of clients, without its write
queue (SQLITE_WRITE_QUEUE=0: SQLite's busy handler alone) and then with it, so the two
are measured side by side on the same machine at the same time:

- ``POST /api/v1/sheets``, then ``POST /api/v1/sheets/{id}/hands`` with the edit token
  and a new Idempotency-Key per deal; ``--per-sheet`` clients share a sheet (row
  locks and the sheet's order are contended), and when its series is over
  (``--series`` deals, 36 as at a real table) the table starts a new sheet;
- every deal differs from the others on its sheet, so each stored deal can be
  matched with the request that sent it;
- each client stands for ``--phones`` phones: its requests carry their addresses in
  X-Forwarded-For, as a proxy in front adds them; the clients connect from 127.0.0.1,
  the proxy FORWARDED_ALLOW_IPS trusts (its default, which the bench sets whatever the
  environment says), so the rate limits count phones (a 429 is waited out, or the deal
  dropped at the end). A request and its retries come from one phone, as an anonymous
  Idempotency-Key is kept for the address that sent it;
- a share of the answered deals (``--replay``) is sent again with the same key, as
  a phone does when the answer got lost: the same answer must come back;
- a share of the deals (``--double-tap``) is sent twice at the same moment on two
  connections with one key, as a double tap or an impatient retry does: both
  answers must be the same, and the deal stored once;
- mid-burst, gunicorn workers are killed with SIGKILL (``--kills``); the master
  starts new ones, and every client whose connection broke sends the same request
  again with the same key (so do clients that get a 5xx).

Then every sheet is read back (``GET /api/v1/sheets/{id}``) and compared with what
was acknowledged (a 201 came back): every acknowledged deal stored exactly once,
none doubled, none lost. The table gives requests, throughput, latency percentiles,
5xx answers, and those counts; errors are listed with gunicorn's tracebacks. Deal
entries (``POST /api/v1/sheets/{id}/hands``, 429s left out) get percentiles of their own.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "scorekeeper" / "gunicorn.conf.py"
HOST = "127.0.0.1"  # loopback only
ATTEMPTS = 8  # per request, on connection errors and 5xx answers
TIMEOUT = 30.0  # seconds per attempt (gunicorn's worker timeout)

GAMES = ("clubs", "spades", "hearts", "diamonds", "grand")
POINTS = range(31, 90)  # no schneider either way: every deal is legal at bid 18
MATADORS = ({"with": 1}, {"with": 2}, {"with": 3}, {"against": 1}, {"against": 2}, {"against": 3})
DISTINCT = len(POINTS) * len(GAMES) * len(MATADORS)


# A deal entry's path: its latencies are reported on their own.
DEALS = re.compile(r"/api/v1/sheets/\d+/hands$")


def deal(index: int) -> dict[str, Any]:
    """Deal number ``index`` of a sheet: legal whatever came before, and different from
    the ``DISTINCT - 1`` deals around it."""
    index %= DISTINCT
    points = POINTS[index % len(POINTS)]
    index //= len(POINTS)
    return {
        "declarer": points % 3,
        "game": GAMES[index % len(GAMES)],
        "bid": 18,
        "matadors": MATADORS[index // len(GAMES) % len(MATADORS)],
        "declarer_points": points,
        "declarer_tricks": 5,
    }


def canonical(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def percentile(samples: list[float], share: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# -- the server ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


class Server:
    """gunicorn with the project's config on a free loopback port; its log in a file."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.log = log
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "gunicorn", "scorekeeper.wsgi", "-c", str(CONFIG)]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [*command, "--bind", f"{HOST}:{self.port}"],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"gunicorn stopped at start:\n{self.log.read_text()}")
            try:
                connection = http.client.HTTPConnection(HOST, self.port, timeout=5)
                connection.request("GET", "/api/v1/openapi.json")
                if connection.getresponse().status == 200:
                    connection.close()
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise SystemExit(f"gunicorn did not answer within 30 s:\n{self.log.read_text()}")

    def workers(self) -> list[int]:
        """The master's children, from /proc (what ``ps --ppid`` shows)."""
        assert self.process is not None
        children = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.process.pid:
                children.append(int(stat.parent.name))
        return children

    def kill_a_worker(self, rng: random.Random) -> int | None:
        workers = self.workers()
        if not workers:
            return None
        pid = rng.choice(workers)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            return None
        return pid

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# -- the clients --------------------------------------------------------------------------


class GaveUp(Exception):
    pass


@dataclass
class Tally:
    """What the clients saw, shared by their threads."""

    lock: threading.RLock = field(default_factory=threading.RLock)
    latencies: list[float] = field(default_factory=list)
    # Deal entries (POST /api/v1/sheets/{id}/hands) answered other than 429, on their own:
    # the number is theirs, and reads and replays would dilute them.
    deal_latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    connection_errors: Counter[str] = field(default_factory=Counter)
    server_errors: Counter[str] = field(default_factory=Counter)
    unexpected: Counter[str] = field(default_factory=Counter)
    replays: int = 0
    replays_differing: int = 0
    double_taps: int = 0
    double_taps_differing: int = 0
    differing: Counter[str] = field(default_factory=Counter)
    given_up: int = 0
    refused: int = 0
    acknowledged: dict[int, Counter[str]] = field(default_factory=dict)
    sheets: dict[int, str] = field(default_factory=dict)  # id: edit token
    kills: list[int] = field(default_factory=list)
    client_cpu: float = 0.0  # seconds of CPU the load threads used
    load: float = 0.0  # the machine's load average at the end

    def answered(self, status: int, seconds: float, deal_entry: bool = False) -> None:
        with self.lock:
            self.latencies.append(seconds)
            self.statuses[status] += 1
            if deal_entry and status != 429:
                self.deal_latencies.append(seconds)

    def count(self, counter: Counter[str], what: str) -> None:
        with self.lock:
            counter[what] += 1

    def acknowledge(self, sheet: int, data: dict[str, Any]) -> None:
        with self.lock:
            self.acknowledged.setdefault(sheet, Counter())[canonical(data)] += 1


class Refused(GaveUp):
    """429 until the end of the run: refused before the view, so nothing was stored."""


class Client:
    """One load thread: one keep-alive connection, every request retried with its key.

    Each request comes from one of the client's ``addresses`` in turn (as if a proxy in
    front had added it to X-Forwarded-For: the server trusts the header from 127.0.0.1,
    FORWARDED_ALLOW_IPS), so the rate limits count phones, as they would behind a real
    proxy. A request's retries come from the same phone: a new sheet's Idempotency-Key
    is kept for the address that sent it, so a retry from another address would start
    a second sheet.
    """

    def __init__(self, port: int, tally: Tally, stop: float, addresses: list[str]) -> None:
        self.port = port
        self.tally = tally
        self.stop = stop
        self.hard_stop = stop + 60  # a request under way may still retry until then
        self.addresses = addresses
        self.sent = 0
        self.connection: http.client.HTTPConnection | None = None
        self._twin: Client | None = None

    def twin(self) -> Client:
        """A second connection of the same phone (for a double tap)."""
        if self._twin is None:
            self._twin = Client(self.port, self.tally, self.stop, self.addresses)
        return self._twin

    def reset(self) -> None:
        if self.connection is not None:
            self.connection.close()
        self.connection = None

    def exchange(
        self, method: str, path: str, body: Any = None, token: str = "", key: str = ""
    ) -> tuple[int, Any]:
        payload = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/json"}
        if payload is not None:
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if key:
            headers["Idempotency-Key"] = key
        self.sent += 1
        headers["X-Forwarded-For"] = self.addresses[self.sent % len(self.addresses)]
        failures = 0
        while failures < ATTEMPTS and time.monotonic() < self.hard_stop:
            if failures:
                time.sleep(random.uniform(0, min(0.05 * 2**failures, 1.0)))
            if self.connection is None:
                self.connection = http.client.HTTPConnection(HOST, self.port, timeout=TIMEOUT)
            start = time.perf_counter()
            try:
                self.connection.request(method, path, body=payload, headers=headers)
                response = self.connection.getresponse()
                raw = response.read()
            except (OSError, http.client.HTTPException) as error:
                self.tally.count(self.tally.connection_errors, type(error).__name__)
                self.reset()
                failures += 1
                continue
            self.tally.answered(
                response.status,
                time.perf_counter() - start,
                method == "POST" and DEALS.match(path) is not None,
            )
            if response.status >= 500:
                first = raw.decode(errors="replace").strip().splitlines()[:1]
                route = re.sub(r"/\d+", "/{id}", path)
                self.tally.count(
                    self.tally.server_errors, f"{response.status} {method} {route}: {first}"
                )
                failures += 1
                continue
            if response.status == 429:
                wait = float(response.headers.get("Retry-After") or 1)
                if time.monotonic() + wait > self.stop:
                    raise Refused
                time.sleep(wait)
                continue
            return response.status, json.loads(raw) if raw else None
        raise GaveUp


class Table:
    """A sheet some clients share; a new one when it is over."""

    def __init__(self, players: list[str], series: int, tally: Tally) -> None:
        self.players = players
        self.series = series
        self.tally = tally
        self.lock = threading.Lock()
        self.sheet: tuple[int, str] | None = None
        self.next = 0

    def current(self, client: Client) -> tuple[int, str]:
        with self.lock:
            if self.sheet is None:
                self.sheet = self._new(client)
            return self.sheet

    def over(self, client: Client, sheet: int) -> None:
        with self.lock:
            if self.sheet is not None and self.sheet[0] == sheet:
                self.sheet = self._new(client)

    def next_index(self) -> int:
        with self.lock:
            self.next += 1
            return self.next

    def _new(self, client: Client) -> tuple[int, str]:
        body = {"game": "skat", "players": self.players, "options": {"series_deals": self.series}}
        status, answer = client.exchange("POST", "/api/v1/sheets", body, key=str(uuid.uuid4()))
        if status != 201:
            self.tally.count(self.tally.unexpected, f"new sheet: {status} {answer}")
            raise GaveUp
        with self.tally.lock:
            self.tally.sheets[answer["id"]] = answer["edit_token"]
        return answer["id"], answer["edit_token"]


def describe(first: tuple[int, Any], second: tuple[int, Any]) -> str:
    """What differs between two answers to one key, shortly."""
    if first[0] != second[0]:
        return (
            f"{first[0]} {json.dumps(first[1])[:200]} and {second[0]} {json.dumps(second[1])[:200]}"
        )
    hands = [
        answer[1].get("hand", {}) if isinstance(answer[1], dict) else {}
        for answer in (first, second)
    ]
    if hands[0].get("number") != hands[1].get("number"):
        return (
            f"both {first[0]}, as deal {hands[0].get('number')} and deal {hands[1].get('number')}"
        )
    keys = sorted(k for k in first[1] if first[1].get(k) != second[1].get(k))
    return f"both {first[0]}, differing in {keys}"


def double_tap(client: Client, path: str, data: Any, token: str, key: str) -> tuple[int, Any]:
    """The same deal sent twice at the same moment on two connections, one key: both
    answers must be the first one's. The answer, or GaveUp if neither came."""
    answers: list[Any] = [None, None]

    def send(which: int, sender: Client) -> None:
        try:
            answers[which] = sender.exchange("POST", path, data, token, key)
        except GaveUp as error:
            answers[which] = error

    other = threading.Thread(target=send, args=(1, client.twin()))
    other.start()
    send(0, client)
    other.join()
    got = [answer for answer in answers if not isinstance(answer, GaveUp)]
    with client.tally.lock:
        client.tally.double_taps += 1
        if len(got) == 2 and got[0] != got[1]:
            client.tally.double_taps_differing += 1
            client.tally.count(client.tally.differing, f"{path}: {describe(got[0], got[1])}")
    if not got:
        raise answers[0]
    return next((answer for answer in got if answer[0] == 201), got[0])


def play(client: Client, table: Table, stop: float, args: argparse.Namespace) -> None:
    tally = client.tally
    rng = random.Random(id(client))
    while time.monotonic() < stop:
        try:
            sheet, token = table.current(client)
            data = deal(table.next_index())
            path = f"/api/v1/sheets/{sheet}/hands"
            key = str(uuid.uuid4())
            if rng.random() < args.double_tap:
                status, answer = double_tap(client, path, data, token, key)
            else:
                status, answer = client.exchange("POST", path, data, token, key)
            if status == 201 and answer["hand"]["entry"] == data:
                tally.acknowledge(sheet, data)
                if rng.random() < args.replay:
                    # The answer got lost: the phone sends the same deal with the same key.
                    again = client.exchange("POST", path, data, token, key)
                    with tally.lock:
                        tally.replays += 1
                        tally.replays_differing += again != (status, answer)
                continue
            if status == 422:
                _, now = client.exchange("GET", f"/api/v1/sheets/{sheet}", None, token)
                if now["finished"]:
                    table.over(client, sheet)  # the series is over: a new sheet
                    continue
            tally.count(tally.unexpected, f"{status} {json.dumps(answer)[:300]}")
        except Refused:
            with tally.lock:
                tally.refused += 1
        except GaveUp:
            with tally.lock:
                tally.given_up += 1


# -- one run ------------------------------------------------------------------------------


@dataclass
class Result:
    database: str
    clients: int
    seconds: float
    tally: Tally
    stored: dict[int, Counter[str]]
    numbering_gaps: int
    log: Path
    log_text: str

    def row(self) -> dict[str, str]:
        t = self.tally
        acknowledged = sum(sum(c.values()) for c in t.acknowledged.values())
        stored = sum(sum(c.values()) for c in self.stored.values())
        doubled = sum(n - 1 for c in self.stored.values() for n in c.values() if n > 1)
        lost = unacknowledged = 0
        for sheet in set(t.acknowledged) | set(self.stored):
            ack, got = t.acknowledged.get(sheet, Counter()), self.stored.get(sheet, Counter())
            lost += sum((ack - got).values())
            unacknowledged += sum((got - ack).values())
        requests = sum(t.statuses.values())
        ms = [s * 1000 for s in t.latencies]
        deal_ms = [s * 1000 for s in t.deal_latencies]
        fives = sum(n for status, n in t.statuses.items() if status >= 500)
        boots = len(re.findall(r"Booting worker", self.log_text))
        return {
            "requests answered": f"{requests:,}",
            "throughput (req/s)": f"{requests / self.seconds:.0f}",
            "latency p50 (ms)": f"{statistics.median(ms):.0f}" if ms else "-",
            "latency p95 (ms)": f"{percentile(ms, 0.95):.0f}",
            "latency p99 (ms)": f"{percentile(ms, 0.99):.0f}",
            "deal entries answered (not 429)": f"{len(deal_ms):,}",
            "deal entry p50 / p95 / p99 (ms)": (
                f"{statistics.median(deal_ms):.0f} / {percentile(deal_ms, 0.95):.0f} / "
                f"{percentile(deal_ms, 0.99):.0f}"
                if deal_ms
                else "-"
            ),
            "5xx answers": f"{fives}",
            "connection errors (retried)": f"{sum(t.connection_errors.values())}",
            "workers killed / started": f"{len(t.kills)} / {boots}",
            "sheets": f"{len(t.sheets)}",
            "deals acknowledged (201)": f"{acknowledged:,}",
            "deals stored": f"{stored:,}",
            "doubled": f"{doubled}",
            "acknowledged, not stored": f"{lost}",
            "stored, never acknowledged": f"{unacknowledged}",
            "resent after the answer (same key): same answer": (
                f"{t.replays - t.replays_differing} of {t.replays}"
            ),
            "sent twice at once (same key): same answer": (
                f"{t.double_taps - t.double_taps_differing} of {t.double_taps}"
            ),
            "429 answers": f"{t.statuses[429]}",
            "deals refused by 429 (not retried)": f"{t.refused}",
            "deals given up (no answer)": f"{t.given_up}",
            "other answers": f"{sum(t.unexpected.values())}",
            "CPU of the load clients (s)": f"{t.client_cpu:.1f}",
            "load average (1 min) at the end": f"{t.load:.1f}",
        }


def read_back(port: int, tally: Tally) -> tuple[dict[int, Counter[str]], int]:
    """Every sheet's stored deals, and how many sheets are not numbered 1..n."""
    client = Client(port, Tally(), time.monotonic() + 120, phones(65_000, 100))
    stored: dict[int, Counter[str]] = {}
    gaps = 0
    for sheet, token in sorted(tally.sheets.items()):
        status, body = client.exchange("GET", f"/api/v1/sheets/{sheet}", None, token)
        if status != 200:
            raise SystemExit(f"Cannot read sheet {sheet} back: {status} {body}")
        stored[sheet] = Counter(canonical(hand["entry"]) for hand in body["hands"])
        gaps += [hand["number"] for hand in body["hands"]] != list(range(1, len(body["hands"]) + 1))
    client.reset()
    return stored, gaps


def phones(client: int, count: int) -> list[str]:
    """The addresses of the phones a load thread stands for (private, never routed)."""
    first = client * count
    return [f"10.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}" for n in range(first, first + count)]


def run(
    database: str, env: dict[str, str], clients: int, args: argparse.Namespace, log: Path
) -> Result:
    server = Server(env, log)
    server.start()
    tally = Tally()
    rng = random.Random(clients)
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    start = time.monotonic()
    stop = start + args.seconds
    tables = [
        Table([f"P{i}a", f"P{i}b", f"P{i}c"], args.series, tally)
        for i in range((clients + args.per_sheet - 1) // args.per_sheet)
    ]
    threads = [
        threading.Thread(
            target=play,
            args=(
                Client(server.port, tally, stop, phones(i, args.phones)),
                tables[i // args.per_sheet],
                stop,
                args,
            ),
            daemon=True,
        )
        for i in range(clients)
    ]
    for thread in threads:
        thread.start()
    try:
        for k in range(args.kills):
            # Spread over the middle of the burst: at 1/3 and 2/3 for two kills.
            time.sleep(
                max(0.0, start + args.seconds * (k + 1) / (args.kills + 1) - time.monotonic())
            )
            pid = server.kill_a_worker(rng)
            if pid is not None:
                tally.kills.append(pid)
        for thread in threads:
            thread.join(max(0.0, stop + 65 - time.monotonic()))
        elapsed = time.monotonic() - start
        used = resource.getrusage(resource.RUSAGE_SELF)
        tally.client_cpu = used.ru_utime + used.ru_stime - cpu.ru_utime - cpu.ru_stime
        tally.load = os.getloadavg()[0]
        stuck = sum(thread.is_alive() for thread in threads)
        if stuck:
            print(f"  {stuck} clients still waiting at the hard stop", file=sys.stderr)
        stored, gaps = read_back(server.port, tally)
    finally:
        server.stop()
    return Result(database, clients, elapsed, tally, stored, gaps, log, log.read_text())


# -- the report ---------------------------------------------------------------------------


def tracebacks(text: str) -> Counter[str]:
    """Each distinct traceback in a gunicorn log (Django's and gunicorn's), by count."""
    found: Counter[str] = Counter()
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("Traceback (most recent call last):"):
            start = i
            i += 1
            while i < len(lines) and (
                lines[i].startswith((" ", "\t"))
                or lines[i].startswith(("During handling", "The above exception"))
                or lines[i].startswith("Traceback")
                or not lines[i].strip()
            ):
                i += 1
            end = min(i + 1, len(lines))
            # The request's own line before the traceback says which URL failed.
            context = lines[start - 1] if start and not lines[start - 1].startswith(" ") else ""
            found[f"{context}\n" + "\n".join(lines[start:end])] += 1
        i += 1
    return found


def report(results: list[Result]) -> None:
    rows = [result.row() for result in results]
    heads = ["", *(f"{r.database}, {r.clients} clients" for r in results)]
    table = [heads, *([name, *(row[name] for row in rows)] for name in rows[0])]
    widths = [max(len(line[i]) for line in table) for i in range(len(heads))]
    print()
    for n, line in enumerate(table):
        cells = [
            line[0].ljust(widths[0]),
            *(c.rjust(w) for c, w in zip(line[1:], widths[1:], strict=True)),
        ]
        print("| " + " | ".join(cells) + " |")
        if n == 0:
            print("| " + " | ".join("-" * w for w in widths) + " |")
    for result in results:
        t = result.tally
        problems = [
            *(f"{n} x {what}" for what, n in t.server_errors.most_common()),
            *(
                f"{n} x connection error {what} (retried)"
                for what, n in t.connection_errors.items()
            ),
            *(f"{n} x unexpected answer {what}" for what, n in t.unexpected.most_common()),
            *(f"{n} x two answers to one key: {what}" for what, n in t.differing.most_common()),
        ]
        if result.numbering_gaps:
            problems.append(f"{result.numbering_gaps} sheets not numbered 1..n")
        traces = tracebacks(result.log_text)
        print(f"\n== {result.database}, {result.clients} clients: log {result.log}")
        for line in problems:
            print(f"  {line}")
        for trace, n in traces.most_common():
            print(f"  {n} x traceback in the gunicorn log:")
            print("    " + trace.strip().replace("\n", "\n    "))
        if not problems and not traces:
            print("  no errors")


def prepare(env: dict[str, str]) -> None:
    """As `make setup`: the tables, and the cache table where the cache is the database."""
    for command in (["migrate", "--noinput"], ["createcachetable"]):
        subprocess.run(
            [sys.executable, "manage.py", *command, "-v", "0"], cwd=ROOT, env=env, check=True
        )


def server_environment(environ: Mapping[str, str], *, workers: str, threads: str) -> dict[str, str]:
    """The environment gunicorn runs in (DATABASE_URL left out: SQLite unless a run
    sets it)."""
    env = {
        **environ,
        "SECRET_KEY": "load-" + uuid.uuid4().hex * 2,
        "DEBUG": "0",
        "ALLOWED_HOSTS": HOST,
        "WORKERS": str(workers),
        "THREADS": str(threads),
        # As behind one proxy on this machine: the clients connect from HOST, the proxy
        # the server trusts (FORWARDED_ALLOW_IPS's default, set here whatever the
        # environment says), so the rate limits count the X-Forwarded-For they send.
        "FORWARDED_ALLOW_IPS": HOST,
    }
    env.pop("DATABASE_URL", None)
    env.pop("TRUSTED_PROXY_HOPS", None)  # no longer read (a warning at every start)
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--seconds", type=float, default=20.0, help="of load per run")
    parser.add_argument("--per-sheet", type=int, default=2, help="clients sharing a sheet")
    parser.add_argument(
        "--series", type=int, default=36, help="deals per sheet, 1 to 200 (36: a Skat series)"
    )
    parser.add_argument("--replay", type=float, default=0.1, help="share resent with its key")
    parser.add_argument(
        "--double-tap", type=float, default=0.05, help="share sent twice at once, one key"
    )
    parser.add_argument("--kills", type=int, default=2, help="workers SIGKILLed per run")
    parser.add_argument(
        "--phones", type=int, default=8, help="client addresses per load thread (rate limits)"
    )
    parser.add_argument(
        "--sqlite-queue",
        choices=("on", "off", "both"),
        default="on",
        help="SQLite's write queue (SQLITE_WRITE_QUEUE, scorekeeper/sqlite_queue.py): on as "
        "the app runs, off (SQLite's busy handler alone), or both, one after the other at "
        "each number of clients",
    )
    parser.add_argument("--workers", default=os.environ.get("WORKERS", "2"))
    parser.add_argument("--threads", default=os.environ.get("THREADS", "8"))
    parser.add_argument(
        "--postgres",
        default=os.environ.get("DATABASE_URL", "")
        if os.environ.get("DATABASE_URL", "").startswith("postgres")
        else "",
        help="a PostgreSQL database URL (default: DATABASE_URL if it is one)",
    )
    args = parser.parse_args()
    if not (ROOT / "staticfiles" / "staticfiles.json").exists():
        raise SystemExit("Run `make setup` first (the pages need the static files).")
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-load-"))
    base = server_environment(os.environ, workers=args.workers, threads=args.threads)
    # SQLite runs: (label, SQLITE_WRITE_QUEUE); PostgreSQL has no such queue.
    queues = {"on": [("SQLite", "1")], "off": [("SQLite, no queue", "0")]}
    queues["both"] = queues["off"] + queues["on"]
    postgres = None
    if args.postgres:
        postgres = {**base, "DATABASE_URL": args.postgres, "DATA_DIR": str(workdir / "postgres")}
        prepare(postgres)
    print(
        f"gunicorn: {args.workers} workers x {args.threads} threads; {args.seconds:.0f} s per run; "
        f"{args.per_sheet} clients per sheet; {args.replay:.0%} resent; {args.double_tap:.0%} "
        f"sent twice at once; {args.kills} workers killed; {args.phones} phones per client"
    )
    results = []
    for clients in args.clients:
        for database, queue in queues[args.sqlite_queue]:
            name = f"sqlite-{'queue' if queue == '1' else 'busy'}-{clients}"
            # A fresh SQLite file for every run.
            env = {**base, "DATA_DIR": str(workdir / name), "SQLITE_WRITE_QUEUE": queue}
            prepare(env)
            print(f"{database}, {clients} clients ...", flush=True)
            results.append(run(database, env, clients, args, workdir / f"{name}.log"))
    if postgres is not None:
        for clients in args.clients:
            print(f"PostgreSQL, {clients} clients ...", flush=True)
            log = workdir / f"postgresql-{clients}.log"
            results.append(run("PostgreSQL", postgres, clients, args, log))
    report(results)


if __name__ == "__main__":
    main()
