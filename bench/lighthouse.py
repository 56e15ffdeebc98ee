"""Lighthouse (mobile) on the pages a player meets first, against the thresholds.

Run: .venv/bin/python bench/lighthouse.py   (or: make lighthouse)

Installs lighthouse@12.2.3 from the npm registry into bench/.lighthouse (once),
serves the app as `make run` does (gunicorn, a fresh SQLite file with a 36-deal
Skat sheet), asks for each page a few times with the files it links (a phone meets a
server that has been running, not a fresh worker's first answer), and runs
Lighthouse's mobile preset on Debian's Chromium for: home, new sheet, the 36-deal
sheet, its read-only view, a referee page and the rule book.
It prints the four scores per page, and for each page the total blocking time, the
longest main-thread task (as Lighthouse simulates a phone: 4x slower CPU) and the
bytes transferred on the first load; for the sheet page also every task of 50 ms or
more, with the script Lighthouse blames it on. It exits 1 when a page falls below
Performance 95, Accessibility 100, Best Practices 100 or SEO 100, or when the sheet
page blocks for 200 ms or more, has a task of 50 ms or more, or loads more than
60 KB. Beside the sheet page it measures, as often, a blank page (one paragraph, no
script, no style, served apart from the app), bare and again with the app's security
headers: the long tasks Chromium shows for any page on this machine ("Unattributable":
the new page's start; with the app's Cross-Origin-Opener-Policy, a renderer process of
its own), as a floor to read the sheet page's against; and the sheet page itself with
its scripts taken out (its HTML and style sheets, the same headers): what the document
alone costs. They count for nothing. For the sheet page and the floors it keeps
Lighthouse's trace too (with Chromium's font events) and prints each run's first
render: the task's length, the thread's own part of it, and the font lookups in it.
Each report is kept as JSON under bench/.lighthouse/reports/ for a closer look.

Options: --only NAME (a page, as listed; repeatable), --runs N (each page N times,
the median run by performance score reported: Lighthouse's numbers vary from run to
run on a shared machine).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import typing
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
HERE = ROOT / "bench" / ".lighthouse"
VERSION = "12.2.3"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
THRESHOLDS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
# The sheet page on a phone (issue: the slowest page): no task of 50 ms or more, less
# than 200 ms blocked in all, and a first load of at most 60 KB as transferred.
SHEET = "36-deal sheet"
SHEET_LIMITS = {"tbt": 200, "longest": 50, "bytes": 60 * 1024}
DATA_DIR = tempfile.mkdtemp(prefix="scorekeeper-lighthouse-")
os.environ["DATA_DIR"] = DATA_DIR
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
os.environ.pop("DATABASE_URL", None)

import django  # noqa: E402

django.setup()

from bench_sheet import deal, free_port  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402

from games import services  # noqa: E402


def lighthouse() -> Path:
    binary = HERE / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        HERE.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                "npm",
                "install",
                "--prefix",
                str(HERE),
                "--no-audit",
                "--no-fund",
                f"lighthouse@{VERSION}",
            ],
            check=True,
        )
    return binary


def pages(port: int) -> dict[str, str]:
    sheet = services.sheet_create(game="skat", players=["Ana", "Ben", "Cem"])
    for number in range(35):
        services.hand_record(sheet=sheet, data=deal(number))
    base = f"http://127.0.0.1:{port}"
    return {
        "home": f"{base}/en/",
        "new sheet": f"{base}/en/new/skat/",
        "36-deal sheet": f"{base}{sheet.get_absolute_url()}",
        "read-only view": f"{base}{sheet.get_view_url()}",
        "referee page": f"{base}/en/referee/skat/value/",
        "rule book": f"{base}/en/rules/skat/",
    }


def warm(targets: dict[str, str]) -> None:
    """Each page asked for a few times (each of `make run`'s two workers answers some),
    with the files it links, before it is audited: a player's phone meets a server that
    has been running, not a worker that has yet to load its templates (a fresh worker's
    first answer of the sheet page took 228 ms here, and decided when the style sheets
    came)."""
    for url in targets.values():
        origin = "/".join(url.split("/", 3)[:3])
        for _ in range(4):
            with urllib.request.urlopen(url, timeout=30) as response:
                page = response.read().decode()
            for link in set(re.findall(r'(?:href|src)="(/static/[^"]+)"', page)):
                with urllib.request.urlopen(origin + link, timeout=30) as response:
                    response.read()


def first_render(trace: Path) -> dict | None:
    """The page's first render in a saved trace: the main-thread task that first lays
    out more than a handful of boxes, its length (this machine's wall time, as
    Lighthouse reads it, and the thread's own), and what of it went to asking for fonts
    (FontCache::GetFontPlatformData: on Linux each font, size and weight met for the
    first time is asked of Chromium's browser process, and the renderer waits)."""
    events = json.loads(trace.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    complete = [event for event in events if event.get("ph") == "X"]
    layouts = [
        event
        for event in complete
        if event["name"] == "Layout"
        and (event.get("args", {}).get("beginData") or {}).get("totalObjects", 0) > 20
    ]
    if not layouts:
        return None
    layout = min(layouts, key=lambda event: event["ts"])
    thread = (layout["pid"], layout["tid"])

    def within(event: dict, outer: dict) -> bool:
        return (event["pid"], event["tid"]) == thread and (
            outer["ts"] <= event["ts"] <= outer["ts"] + outer["dur"]
        )

    tasks = [event for event in complete if event["name"] == "RunTask" and within(layout, event)]
    if not tasks:
        return None
    task = max(tasks, key=lambda event: event["dur"])
    lookups = [
        event
        for event in complete
        if event["name"] == "FontCache::GetFontPlatformData" and within(event, task)
    ]
    return {
        "ms": task["dur"] / 1000,
        "thread_ms": task.get("tdur", 0) / 1000,
        "font_lookups": len(lookups),
        "font_ms": sum(event["dur"] for event in lookups) / 1000,
    }


def audit(binary: Path, name: str, url: str, run: int = 0, trace: bool = False) -> dict:
    reports = HERE / "reports"
    reports.mkdir(parents=True, exist_ok=True)
    report = reports / (name.replace(" ", "-") + (f"-{run + 1}" if run else "") + ".json")
    command = [
        str(binary),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={report}",
        "--only-categories=performance,accessibility,best-practices,seo",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-quic "
        "--no-first-run --disable-background-networking --disable-component-update "
        "--disable-sync",
    ]
    if trace:
        # The trace is kept beside the report (<report>-0.trace.json), with Chromium's
        # font events in it.
        command += ["--save-assets", "--additional-trace-categories=fonts"]
    # Chromium's trace now and then misses the page's start (NO_NAVSTART): run again.
    for attempt in range(3):
        done = subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROMIUM}, check=False)
        if done.returncode == 0:
            break
        if attempt == 2:
            raise SystemExit(f"Lighthouse failed three times on {url}")
    data = json.loads(report.read_text())
    scores = {key: round(data["categories"][key]["score"] * 100) for key in THRESHOLDS}
    audits = data["audits"]
    # Lighthouse's long-tasks audit lists the tasks of 50 ms or more as simulated on a
    # phone (throttled CPU), each under the script it blames (or the page itself).
    tasks = [
        (round(item["duration"]), item["url"], round(item["startTime"]))
        for item in (audits["long-tasks"].get("details") or {}).get("items", [])
    ]
    render = None
    if trace:
        render = first_render(report.with_name(report.stem + "-0.trace.json"))
    return {
        **scores,
        "render": render,
        "tbt": round(audits["total-blocking-time"]["numericValue"]),
        "longest": max((duration for duration, _, _ in tasks), default=0),
        "fcp": round(audits["first-contentful-paint"]["numericValue"]),
        "tasks": sorted(tasks, reverse=True),
        "bytes": round(audits["total-byte-weight"]["numericValue"]),
        "requests": [
            (item["transferSize"], item["url"])
            for item in audits["network-requests"]["details"]["items"]
            if item.get("transferSize")
        ],
    }


BLANK = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    '<title>Blank</title><meta name="description" content="A blank page.">'
    "</head><body><p>Nothing here.</p></body></html>"
)


SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.DOTALL)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extra: typing.ClassVar[dict[str, str]] = {}

    def end_headers(self) -> None:
        for name, value in self.extra.items():
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, *args: object) -> None:
        pass


# The headers of the app's answers that change how Chromium starts a page. With
# Cross-Origin-Opener-Policy: same-origin (Django's default, kept: a window of another
# site that opens ours gets no handle on it) the page gets a browsing context group and
# a renderer process of its own instead of the one Lighthouse's about:blank was in, and
# that renderer's start (V8's context, the first document) is a task of its own.
APP_HEADERS = (
    "Content-Security-Policy",
    "Cross-Origin-Opener-Policy",
    "Referrer-Policy",
    "X-Content-Type-Options",
    "X-Frame-Options",
)


def app_headers(url: str) -> tuple[dict[str, str], str]:
    """APP_HEADERS as the app sends them with the page at ``url``, and the page."""
    with urllib.request.urlopen(url, timeout=30) as response:
        headers = {name: response.headers[name] for name in APP_HEADERS if response.headers[name]}
        return headers, response.read().decode()


def served(page: str, headers: dict[str, str]) -> tuple[str, http.server.ThreadingHTTPServer]:
    """``page`` served with ``headers`` (and the collected static files under /static/)
    from a folder of its own in a thread of this process."""
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-floor-"))
    (folder / "index.html").write_text(page)
    (folder / "static").symlink_to(settings.STATIC_ROOT, target_is_directory=True)
    handler = functools.partial(
        type("_Floor", (_Quiet,), {"extra": headers}), directory=str(folder)
    )
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/", server


def describe(render: dict | None) -> str:
    if render is None:
        return "no layout of more than 20 boxes"
    return (
        f"{render['ms']:.1f} ms (thread {render['thread_ms']:.1f} ms), "
        f"{render['font_lookups']} font lookups taking {render['font_ms']:.1f} ms"
    )


def short(url: str) -> str:
    """A URL without the server's address."""
    path = url.split("//", 1)[-1].partition("/")[2]
    return "/" + path if url.startswith("http") else url


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--only", action="append", help="a page, as listed (repeatable)")
    parser.add_argument("--runs", type=int, default=1, help="runs per page (median reported)")
    options = parser.parse_args()
    binary = lighthouse()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    port = free_port()
    targets = pages(port)
    if options.only:
        unknown = set(options.only) - set(targets)
        if unknown:
            raise SystemExit(
                f"no such page: {', '.join(sorted(unknown))}; pages: {', '.join(targets)}"
            )
        targets = {name: url for name, url in targets.items() if name in options.only}
    server = subprocess.Popen(
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
        env={**os.environ, "DATA_DIR": DATA_DIR},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    failed = []
    try:
        time.sleep(3)
        warm(targets)
        print(
            f"{'page':<16} {'perf':>5} {'a11y':>5} {'best':>5} {'seo':>5} "
            f"{'TBT ms':>7} {'longest task ms':>16} {'KB sent':>8}"
        )
        sheet = None
        sheet_renders: list[dict | None] = []
        for name, url in targets.items():
            runs = [
                audit(binary, name, url, run, trace=name == SHEET) for run in range(options.runs)
            ]
            runs.sort(key=lambda each: each["performance"])
            scores = runs[len(runs) // 2]
            spread = ""
            if len(runs) > 1:
                spread = (
                    f"   (of {len(runs)} runs: perf {min(r['performance'] for r in runs)}"
                    f"-{max(r['performance'] for r in runs)}, TBT "
                    f"{min(r['tbt'] for r in runs)}-{max(r['tbt'] for r in runs)} ms, median TBT "
                    f"{statistics.median(r['tbt'] for r in runs):.0f} ms)"
                )
            print(
                f"{name:<16} {scores['performance']:>5} {scores['accessibility']:>5} "
                f"{scores['best-practices']:>5} {scores['seo']:>5} {scores['tbt']:>7} "
                f"{scores['longest']:>16} {scores['bytes'] / 1024:>8.1f}{spread}"
            )
            failed += [
                f"{name}: {key} {scores[key]} < {limit}"
                for key, limit in THRESHOLDS.items()
                if scores[key] < limit
            ]
            if name == SHEET:
                sheet = scores
                sheet_renders = [each["render"] for each in runs]
                failed += [
                    f"{name}: {key} {scores[key]} over {limit}"
                    for key, limit in SHEET_LIMITS.items()
                    # Blocking and tasks must stay under their limits; bytes may reach it.
                    if scores[key] > limit or (key != "bytes" and scores[key] == limit)
                ]
        if sheet is not None:
            print(
                f"\n{SHEET}, tasks of 50 ms or more (simulated phone; first paint at "
                f"{sheet['fcp']} ms: blocking time counts what comes after it):"
            )
            for duration, url, start in sheet["tasks"] or [(0, "none", 0)]:
                print(f"  {duration:>5} ms  at {start:>5} ms  {short(url) or '(the page)'}")
            print(
                f"{SHEET}, its first render run by run (this machine's time: the task, "
                "the thread's own part, and the renderer asking for fonts):"
            )
            for render in sheet_renders:
                print(f"  {describe(render)}")
            print(f"{SHEET}, first load as transferred:")
            for size, url in sorted(sheet["requests"], reverse=True):
                print(f"  {size:>7} B  {short(url)}")
            headers, page = app_headers(targets[SHEET])
            floors = (
                ("A blank page (no script, no style), bare", BLANK, {}),
                ("A blank page (no script, no style), with the app's headers", BLANK, headers),
                # The sheet page as its HTML and style sheets alone: what the document
                # costs Chromium to read and draw the first time, scripts aside.
                (f"The {SHEET} page without its scripts", SCRIPT.sub("", page), headers),
            )
            for label, html, served_with in floors:
                url, floor_server = served(html, served_with)
                try:
                    floor = [
                        audit(binary, "floor", url, run, trace=True) for run in range(options.runs)
                    ]
                finally:
                    floor_server.shutdown()
                print(f"{label}: tasks of 50 ms or more, run by run:")
                for run in floor:
                    tasks = ", ".join(
                        f"{duration} ms {short(url)}" for duration, url, _ in run["tasks"]
                    )
                    print(f"  {tasks or 'none'}; first render: {describe(run['render'])}")
    finally:
        server.terminate()
        server.wait(timeout=30)
    for line in failed:
        print("below the bar:", line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
