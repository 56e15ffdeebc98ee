"""Lighthouse (mobile) on the pages a player meets first, against the thresholds.

Run: .venv/bin/python bench/lighthouse.py   (or: make lighthouse)

Installs lighthouse@12.2.3 from the npm registry into bench/.lighthouse (once),
serves the app as `make run` does (gunicorn, a fresh SQLite file with a 36-deal
Skat sheet), and runs Lighthouse's mobile preset on Debian's Chromium for: home,
new sheet, the 36-deal sheet, its read-only view, a referee page and the rule book.
It prints the four scores per page and exits 1 when a page falls below
Performance 95, Accessibility 100, Best Practices 100 or SEO 100. Each report is
kept as JSON under bench/.lighthouse/reports/ for a closer look.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
HERE = ROOT / "bench" / ".lighthouse"
VERSION = "12.2.3"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
THRESHOLDS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
DATA_DIR = tempfile.mkdtemp(prefix="scorekeeper-lighthouse-")
os.environ["DATA_DIR"] = DATA_DIR
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
os.environ.pop("DATABASE_URL", None)

import django  # noqa: E402

django.setup()

from bench_sheet import deal, free_port  # noqa: E402
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


def audit(binary: Path, name: str, url: str) -> dict[str, int]:
    reports = HERE / "reports"
    reports.mkdir(parents=True, exist_ok=True)
    report = reports / (name.replace(" ", "-") + ".json")
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
    # Chromium's trace now and then misses the page's start (NO_NAVSTART): run again.
    for attempt in range(3):
        done = subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROMIUM}, check=False)
        if done.returncode == 0:
            break
        if attempt == 2:
            raise SystemExit(f"Lighthouse failed three times on {url}")
    data = json.loads(report.read_text())
    return {key: round(data["categories"][key]["score"] * 100) for key in THRESHOLDS}


def main() -> int:
    binary = lighthouse()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    port = free_port()
    targets = pages(port)
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
        print(f"{'page':<16} {'perf':>5} {'a11y':>5} {'best':>5} {'seo':>5}")
        for name, url in targets.items():
            scores = audit(binary, name, url)
            print(
                f"{name:<16} {scores['performance']:>5} {scores['accessibility']:>5} "
                f"{scores['best-practices']:>5} {scores['seo']:>5}"
            )
            failed += [
                f"{name}: {key} {scores[key]} < {limit}"
                for key, limit in THRESHOLDS.items()
                if scores[key] < limit
            ]
    finally:
        server.terminate()
        server.wait(timeout=30)
    for line in failed:
        print("below the bar:", line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
