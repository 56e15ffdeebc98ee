"""How many tables app servers behind a proxy carry at a club evening's pace (issue 20).

Run (a few minutes; not part of ``make bench``; needs haproxy or nginx, redis-server
and a PostgreSQL role that may create databases, as ``tests/test_multi_server.py``):

    .venv/bin/python bench/multi_server.py --servers 1        # one server's capacity
    .venv/bin/python bench/multi_server.py                    # two servers, one killed

It starts what ``tests/servers.py`` starts (a fresh PostgreSQL database, migrated once;
a Redis on a free port; ``--servers`` gunicorns as ``make run`` starts them, 2 workers
of 8 threads each unless told; HAProxy in front), all on this machine's loopback, and
plays club evenings through the proxy at their own pace, open loop (every request
is sent when it is due, whether or not the earlier ones were answered, and timed from
then: a slow server is not hidden by clients that wait for it):

- every table enters a deal every ``--deal-every`` seconds (120: a Skat deal takes
  about two minutes), as its scorer's phone does: ``--previews`` live previews while
  the deal is typed (POST …/preview), then the deal itself (the sheet's form, htmx,
  with its idempotency key);
- every table has ``--viewers`` phones (3: the other players) on the read-only page,
  each polling ``/v/<token>/live?since=<version>`` every ``--poll`` seconds (3, as
  the page does): 204 while nothing changed, the new board after a deal.

For each number of tables it runs ``--seconds`` and reports the requests' latency
(p50/p95/p99, from when each was due) by kind, errors, and how busy the machine was.
Starting at ``--start`` tables it doubles while the p95 of every kind stays within
``--p95`` ms (300) without errors, then halves the step between the last number that
passed and the first that did not, ``--refine`` times: the last number that passed
is what these servers carry. ``--tables 100 200`` runs just those numbers.

With two servers or more and ``--kill`` (on by default then), one more step at that
number of tables kills server "a" (SIGKILL, all its processes) halfway, while the
proxy has a request under way on it: clients whose request broke send it again, with
the same idempotency key, through the proxy. Then every sheet is read back: each
acknowledged deal stored once, none lost, none doubled.

Everything runs on one machine: the load clients, PostgreSQL, Redis and the proxy
take their share of its cores beside the app servers, so on a two-core machine the
number is what one two-core server carries with its database beside it, a lower
bound for a server whose database lives elsewhere.
"""

from __future__ import annotations

import argparse
import heapq
import os
import queue
import random
import resource
import signal
import statistics
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import (  # noqa: E402
    DEAL_FORM,
    HTMX,
    AppServer,
    Broken,
    Cluster,
    Phone,
    missing,
    version_of,
)

PLAYERS = ["Ana", "Ben", "Cem"]
KINDS = ("poll", "preview", "deal")


def percentile(samples: list[float], share: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def table_address(number: int) -> str:
    return f"10.{(number >> 16) & 255}.{(number >> 8) & 255}.{number & 255 or 1}"


# -- what the machine did -----------------------------------------------------------------


def cpu_times() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    fields = [float(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return sum(fields) - idle, sum(fields)


def process_cpu(pids: set[int], groups: set[int] = frozenset()) -> dict[int, float]:
    """CPU seconds used so far by each live process among ``pids`` or in the process
    ``groups`` (an app server: master, workers, helper processes), by process id."""
    ticks = os.sysconf("SC_CLK_TCK")
    used = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        pid = int(stat.parent.name)
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if pid in pids or int(fields[2]) in groups:
            used[pid] = (int(fields[11]) + int(fields[12])) / ticks
    return used


def cpu_between(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds the processes alive at the end used in between (a killed server's
    are not counted: they are gone)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


class Meter:
    """The CPU the site's own processes use: the app servers, the database's server
    processes for its database, Redis and the proxy (not the load clients)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster

    def sample(self) -> dict[str, dict[int, float]]:
        c = self.cluster
        groups = {s.process.pid for s in c.app if s.alive and s.process}
        others = {
            "database": c.database.backends() if c.database else set(),
            "redis": {c.redis.process.pid} if c.redis and c.redis.process else set(),
            "proxy": {c.front.process.pid} if c.front and c.front.process else set(),
        }
        return {
            "app": process_cpu(set(), groups),
            **{name: process_cpu(pids) for name, pids in others.items()},
        }

    @staticmethod
    def between(before: dict, after: dict, seconds: float) -> dict[str, float]:
        """Cores used on average, by part."""
        return {name: cpu_between(before[name], after[name]) / seconds for name in after}


# -- the room -----------------------------------------------------------------------------


@dataclass
class Table:
    number: int
    id: int
    edit_token: str
    view_token: str
    version: int
    acknowledged: list[str] = field(default_factory=list)  # the keys of stored deals
    given_up: list[str] = field(default_factory=list)


@dataclass
class Step:
    tables: int
    seconds: float
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    retried: Counter = field(default_factory=Counter)
    late: int = 0  # tasks still unanswered when the step ended (waited for after)
    busy: float = 0.0  # the machine's CPU use, share of all cores
    servers_cpu: float = 0.0  # the app servers' CPU seconds per second (1.0: one core)
    site_cpu: float = 0.0  # app servers, database, Redis and proxy together
    client_cpu: float = 0.0  # this process's
    killed: str = ""

    def p95(self, kind: str) -> float:
        return percentile(self.latencies[kind], 0.95)

    def passed(self, limit: float) -> bool:
        return not self.errors and all(
            self.latencies[kind] and self.p95(kind) <= limit for kind in KINDS
        )


class Room:
    """The tables, their sheets, and the clients that play them through the proxy."""

    def __init__(self, cluster: Cluster, args: argparse.Namespace) -> None:
        self.cluster = cluster
        self.args = args
        self.port = cluster.proxy_port
        self.tables: list[Table] = []
        self.since: dict[tuple[int, int], int] = {}
        self.lock = threading.Lock()
        self.csrf = self._csrf_cookie()

    def _csrf_cookie(self) -> str:
        phone = Phone(self.port)
        phone.request("GET", "/en/new/")
        if "csrftoken" not in phone.cookies:
            raise SystemExit("No CSRF cookie from /en/new/")
        return phone.cookies["csrftoken"]

    def seat(self, count: int) -> None:
        """Sheets for ``count`` tables (the tables already seated keep theirs)."""
        wanted = list(range(len(self.tables), count))
        made: dict[int, Table] = {}
        errors: list[str] = []

        def make(numbers: list[int]) -> None:
            for number in numbers:
                phone = Phone(self.port, table_address(number))
                try:
                    answer = phone.until_answered(
                        "POST",
                        "/api/v1/sheets",
                        json_body={"game": "skat", "players": PLAYERS},
                        headers={"Idempotency-Key": str(uuid.uuid4())},
                        deadline=time.monotonic() + 60,
                    )
                except Broken as error:
                    errors.append(str(error))
                    return
                if answer.status != 201:
                    errors.append(f"{answer.status} {answer.text[:200]}")
                    return
                body = answer.json()
                made[number] = Table(
                    number, body["id"], body["edit_token"], body["view_token"], body["version"]
                )
                phone.close()

        threads = [
            threading.Thread(target=make, args=(wanted[i::8],), daemon=True) for i in range(8)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            raise SystemExit(f"Could not start the sheets: {errors[:3]}")
        for number in wanted:
            table = made[number]
            self.tables.append(table)
            for viewer in range(self.args.viewers):
                self.since[number, viewer] = table.version

    # -- one step ---------------------------------------------------------------------

    def schedule(self, count: int, seconds: float, rng: random.Random) -> list[tuple]:
        """(due, order, kind, table, viewer) for every task of the step, by due time."""
        events = []
        order = 0
        for table in self.tables[:count]:
            due = rng.uniform(0, self.args.deal_every)
            while due < seconds:
                events.append((due, order, "deal", table.number, -1))
                order += 1
                due += self.args.deal_every
            for viewer in range(self.args.viewers):
                due = rng.uniform(0, self.args.poll)
                while due < seconds:
                    events.append((due, order, "poll", table.number, viewer))
                    order += 1
                    due += self.args.poll
        heapq.heapify(events)
        return [heapq.heappop(events) for _ in range(len(events))]

    def run(self, count: int, seconds: float, *, kill: AppServer | None = None) -> Step:
        self.seat(count)
        step = Step(count, seconds)
        tasks: queue.Queue = queue.Queue()
        rng = random.Random(count)
        events = self.schedule(count, seconds, rng)
        workers = [
            threading.Thread(target=self._work, args=(tasks, step), daemon=True)
            for _ in range(self.args.clients)
        ]
        for worker in workers:
            worker.start()
        meter = Meter(self.cluster)
        busy0, total0 = cpu_times()
        site0 = meter.sample()
        client0 = resource.getrusage(resource.RUSAGE_SELF)
        start = time.monotonic()
        killer = None
        if kill is not None:

            def kill_halfway() -> None:
                time.sleep(seconds / 2)
                cut = self.cluster.kill_mid_request(kill)
                at = time.monotonic() - start
                under_way = "" if cut is None else f", {cut} requests under way on it"
                step.killed = f"server {kill.name} killed at {at:.1f} s{under_way}"

            killer = threading.Thread(target=kill_halfway, daemon=True)
            killer.start()
        for due, _order, kind, table, viewer in events:
            wait = start + due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            tasks.put((start + due, kind, table, viewer))
        for _ in workers:
            tasks.put(None)
        step.late = tasks.qsize() - len(workers)
        busy1, total1 = cpu_times()
        site1 = meter.sample()
        client1 = resource.getrusage(resource.RUSAGE_SELF)
        elapsed = time.monotonic() - start
        for worker in workers:
            worker.join()
        if killer is not None:
            killer.join()
        step.busy = (busy1 - busy0) / max(1.0, total1 - total0)
        used = Meter.between(site0, site1, elapsed)
        step.servers_cpu = used["app"]
        step.site_cpu = sum(used.values())
        step.client_cpu = (
            client1.ru_utime + client1.ru_stime - client0.ru_utime - client0.ru_stime
        ) / elapsed
        return step

    def _work(self, tasks: queue.Queue, step: Step) -> None:
        phone = Phone(self.port, timeout=60)
        phone.cookies["csrftoken"] = self.csrf
        while (task := tasks.get()) is not None:
            due, kind, number, viewer = task
            table = self.tables[number]
            if kind == "poll":
                self._poll(phone, step, due, table, viewer)
            else:
                self._deal(phone, step, due, table)
        phone.close()

    def _send(self, phone: Phone, step: Step, kind: str, due: float, method: str, path: str,
              **kwargs):  # fmt: skip
        """The request, sent again after a broken connection or a 502/503/504 (the same
        request, the same key); its latency from ``due``. None when it got no answer."""
        retried: list[str] = []
        try:
            answer = phone.until_answered(
                method, path, deadline=time.monotonic() + 60, retried=retried, **kwargs
            )
        except Broken as error:
            with self.lock:
                step.errors[f"{kind}: no answer ({error})"] += 1
            return None
        took = (time.monotonic() - due) * 1000
        with self.lock:
            step.latencies[kind].append(took)
            step.statuses[answer.status] += 1
            step.retried[kind] += len(retried)
        return answer

    def _poll(self, phone: Phone, step: Step, due: float, table: Table, viewer: int) -> None:
        since = self.since[table.number, viewer]
        path = f"/en/v/{table.view_token}/live?since={since}"
        answer = self._send(phone, step, "poll", due, "GET", path)
        if answer is None:
            return
        if answer.status == 200:
            self.since[table.number, viewer] = version_of(answer) or since
        elif answer.status != 204:
            with self.lock:
                step.errors[f"poll: {answer.status}"] += 1

    def _deal(self, phone: Phone, step: Step, due: float, table: Table) -> None:
        for _ in range(self.args.previews):
            answer = self._send(phone, step, "preview", due, "POST",
                                f"/en/s/{table.edit_token}/preview", form=DEAL_FORM,
                                headers=HTMX)  # fmt: skip
            if answer is None:
                return
            if answer.status != 200 or "preview-ok" not in answer.text:
                with self.lock:
                    step.errors[f"preview: {answer.status}"] += 1
                return
            due = time.monotonic()
        key = uuid.uuid4().hex
        form = {**DEAL_FORM, "idempotency_key": key}
        answer = self._send(
            phone, step, "deal", due, "POST", f"/en/s/{table.edit_token}/", form=form, headers=HTMX
        )
        with self.lock:
            if answer is None:
                table.given_up.append(key)
            elif answer.status == 200:
                table.acknowledged.append(key)
            else:
                step.errors[f"deal: {answer.status} {answer.text[:120]!r}"] += 1

    # -- reading back -----------------------------------------------------------------

    def check(self) -> tuple[int, int, int, int]:
        """(acknowledged, stored, lost, unacknowledged but stored) over every sheet."""
        phone = Phone(self.port)
        acknowledged = stored = lost = extra = 0
        for table in self.tables:
            answer = phone.until_answered(
                "GET",
                f"/api/v1/sheets/{table.id}",
                headers={"Authorization": f"Bearer {table.edit_token}"},
                deadline=time.monotonic() + 60,
            )
            count = len(answer.json()["hands"])
            acknowledged += len(table.acknowledged)
            stored += count
            lost += max(0, len(table.acknowledged) - count)
            extra += max(0, count - len(table.acknowledged))
        return acknowledged, stored, lost, extra


# -- the report ---------------------------------------------------------------------------


def describe(step: Step, args: argparse.Namespace) -> dict[str, str]:
    def cell(kind: str) -> str:
        ms = step.latencies[kind]
        if not ms:
            return "-"
        return (
            f"{statistics.median(ms):.0f} / {percentile(ms, 0.95):.0f} / "
            f"{percentile(ms, 0.99):.0f} ({len(ms)})"
        )

    requests = sum(len(v) for v in step.latencies.values())
    return {
        "tables": f"{step.tables}",
        "deals a minute": f"{len(step.latencies['deal']) * 60 / step.seconds:.0f}",
        "requests a second": f"{requests / step.seconds:.0f}",
        "poll ms p50 / p95 / p99 (n)": cell("poll"),
        "preview ms": cell("preview"),
        "deal ms": cell("deal"),
        "errors": f"{sum(step.errors.values())}",
        "sent again": f"{sum(step.retried.values())}",
        "machine CPU busy": f"{step.busy:.0%}",
        "app servers' CPU (cores)": f"{step.servers_cpu:.2f}",
        "with db, Redis, proxy": f"{step.site_cpu:.2f}",
        "CPU ms a table a second": f"{step.site_cpu * 1000 / step.tables:.1f}",
        "load clients' CPU (cores)": f"{step.client_cpu:.2f}",
        f"p95 within {args.p95:.0f} ms": "yes" if step.passed(args.p95) else "no",
    }


def print_table(steps: list[Step], args: argparse.Namespace) -> None:
    rows = [describe(step, args) for step in steps]
    names = list(rows[0])
    widths = [max(len(name), *(len(row[name]) for row in rows)) for name in names]
    print("| " + " | ".join(n.rjust(w) for n, w in zip(names, widths, strict=True)) + " |")
    print("| " + " | ".join("-" * w for w in widths) + " |")
    for row in rows:
        print("| " + " | ".join(row[n].rjust(w) for n, w in zip(names, widths, strict=True)) + " |")
    for step in steps:
        for what, n in step.errors.most_common(5):
            print(f"  {step.tables} tables: {n} x {what}")
        if step.killed:
            print(f"  {step.tables} tables: {step.killed}")


def ladder(room: Room, args: argparse.Namespace) -> tuple[list[Step], int]:
    """The steps run, and the most tables that passed (0: none)."""
    steps: list[Step] = []

    def attempt(count: int) -> bool:
        print(f"-- {count} tables for {args.seconds:.0f} s", flush=True)
        step = room.run(count, args.seconds)
        steps.append(step)
        print_table([step], args)
        return step.passed(args.p95)

    if args.tables:
        best = max((n for n in args.tables if attempt(n)), default=0)
        return steps, best
    good, bad = 0, None
    count = args.start
    while bad is None and count <= args.most:
        if attempt(count):
            good, count = count, count * 2
        else:
            bad = count
    for _ in range(args.refine if bad is not None else 0):
        count = (good + bad) // 2
        if count in (good, bad) or (bad - good) <= max(10, good // 10):
            break
        if attempt(count):
            good = count
        else:
            bad = count
    return steps, good


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WORKERS", "2")))
    parser.add_argument("--threads", type=int, default=int(os.environ.get("THREADS", "8")))
    parser.add_argument("--proxy", choices=("haproxy", "nginx"), default=None)
    parser.add_argument("--seconds", type=float, default=120.0, help="per number of tables")
    parser.add_argument("--deal-every", type=float, default=120.0, help="seconds per table")
    parser.add_argument("--previews", type=int, default=2, help="live previews per deal")
    parser.add_argument("--viewers", type=int, default=3, help="read-only phones per table")
    parser.add_argument("--poll", type=float, default=3.0, help="seconds between polls")
    parser.add_argument("--p95", type=float, default=300.0, help="ms, for every kind")
    parser.add_argument("--start", type=int, default=50, help="tables of the first step")
    parser.add_argument("--most", type=int, default=3200, help="tables at most")
    parser.add_argument("--refine", type=int, default=3, help="halvings after the first miss")
    parser.add_argument("--tables", type=int, nargs="*", help="just these numbers of tables")
    parser.add_argument("--clients", type=int, default=64, help="load threads")
    parser.add_argument(
        "--kill",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="kill one server halfway through one more step (default: with 2+ servers)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the logs' folder")
    args = parser.parse_args()
    # Stopped with SIGTERM or Ctrl-C (also when started in the background, where SIGINT
    # comes ignored): everything started is taken down and the database dropped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    kill = args.servers > 1 if args.kill is None else args.kill
    if kill and args.servers < 2:
        raise SystemExit("--kill needs two servers or more")
    why = missing(args.proxy)
    if why:
        raise SystemExit(f"Cannot start the servers: {why}")
    with Cluster(
        servers=args.servers,
        workers=args.workers,
        threads=args.threads,
        proxy=args.proxy,
        referee_processes=1,  # as make run
        access_log=False,
        keep=args.keep,
    ) as cluster:
        print(
            f"{args.servers} server(s) of {args.workers} workers x {args.threads} threads "
            f"behind {cluster.front.kind if cluster.front else '?'}, PostgreSQL, Redis; "
            f"{os.cpu_count()} cores here. A table: a deal every {args.deal_every:.0f} s "
            f"({args.previews} previews first), {args.viewers} viewers polling every "
            f"{args.poll:.0f} s. Latency from when each request was due. Load average "
            f"now {os.getloadavg()[0]:.1f}. Logs: {cluster.workdir}"
            f"{'' if args.keep else ' (removed at the end)'}",
            flush=True,
        )
        room = Room(cluster, args)
        steps, best = ladder(room, args)
        if kill:
            count = max(best, args.start)
            print(f"-- {count} tables, server a killed halfway", flush=True)
            steps.append(room.run(count, args.seconds, kill=cluster.app[0]))
            print_table(steps[-1:], args)
        acknowledged, stored, lost, extra = room.check()
        print("\n== All steps")
        print_table(steps, args)
        print(
            f"\nDeals acknowledged {acknowledged:,}, stored {stored:,}: lost {lost}, "
            f"stored without an answer {extra}, given up "
            f"{sum(len(t.given_up) for t in room.tables)}."
        )
        measured = [step for step in steps if step.tables >= 50 and not step.killed]
        if measured:
            cost = statistics.median(step.site_cpu / step.tables for step in measured)
            print(
                f"The site's own processes (app servers, database, Redis, proxy) used "
                f"{cost * 1000:.1f} ms of CPU a table a second: two cores kept 70 % busy "
                f"would carry about {1.4 / cost:.0f} tables."
            )
        per_server = best / max(1, args.servers)
        print(
            f"Carried with every p95 within {args.p95:.0f} ms: {best} tables "
            f"({args.servers} server(s); {per_server:.0f} a server) at a deal every "
            f"{args.deal_every:.0f} s a table, {args.viewers} viewers polling every {args.poll:.0f} s."
        )
        if lost or extra:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
