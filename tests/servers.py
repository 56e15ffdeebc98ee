"""Several app servers behind a proxy, all on the loopback: what
``tests/test_multi_server.py`` and ``bench/multi_server.py`` start (issue 20).

A ``Cluster`` is, as a club's site past one machine would be:

- one PostgreSQL database, made fresh for the run (``scorekeeper_multi_<random>``, by
  the role of ``MULTI_SERVER_DATABASE_URL``, else of ``DATABASE_URL`` when that names
  PostgreSQL, else ``postgres://scorekeeper:scorekeeper@127.0.0.1:5432/scorekeeper``,
  the role ``.ci/run`` makes), migrated once, and dropped at the end;
- one Redis on a free port, nothing written to disk (``--save '' --appendonly no``);
- N gunicorns as ``make run`` starts them (``scorekeeper/gunicorn.conf.py``), each in
  a process group of its own, so that ``kill()`` takes the whole server down at once
  (master, workers, helper processes) as a machine that dies does. Each has a
  ``DATA_DIR`` of its own, as separate machines have: what they share is the
  database, Redis and ``SECRET_KEY``, given to every server alike;
- HAProxy in front (nginx when there is no HAProxy, or ``proxy="nginx"``), round robin,
  checking ``/healthz`` every half second, a connection that fails sent to the other
  server.

Every process starts from a clean environment (``tests.processes``): nothing of
pytest's. ``Cluster`` is a context manager that takes everything down again, also
after a failure. Only the standard library and psycopg (for the database) are used,
so the bench can import this module without Django.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.processes import clean_environment

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "scorekeeper" / "gunicorn.conf.py"
HOST = "127.0.0.1"
DEFAULT_POSTGRES = "postgres://scorekeeper:scorekeeper@127.0.0.1:5432/scorekeeper"
PROXIES = ("haproxy", "nginx")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def _program(name: str) -> str | None:
    """A program on PATH or in the sbin folders (haproxy and nginx live there, which a
    user's PATH may lack)."""
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin:/usr/local/sbin")


# -- what is there ------------------------------------------------------------------------


def postgres_candidates(environ: dict[str, str] | None = None) -> list[str]:
    environ = dict(os.environ if environ is None else environ)
    found = []
    for name in ("MULTI_SERVER_DATABASE_URL", "DATABASE_URL"):
        url = environ.get(name, "")
        if url.startswith(("postgres://", "postgresql://")):
            found.append(url)
    found.append(DEFAULT_POSTGRES)
    return list(dict.fromkeys(found))


def _connect(url: str):
    """An autocommit connection to the server ``url`` names: to its database, else to
    the database "postgres" (the role may lack a database of its own name)."""
    import psycopg

    parts = urllib.parse.urlsplit(url)
    kwargs = {
        "host": parts.hostname or HOST,
        "port": parts.port or 5432,
        "user": urllib.parse.unquote(parts.username or ""),
        "password": urllib.parse.unquote(parts.password or ""),
        "connect_timeout": 3,
        "autocommit": True,
    }
    try:
        return psycopg.connect(dbname=parts.path.lstrip("/") or "postgres", **kwargs)
    except psycopg.OperationalError:
        return psycopg.connect(dbname="postgres", **kwargs)


def find_postgres(environ: dict[str, str] | None = None) -> tuple[str | None, str]:
    """A PostgreSQL URL whose role may create databases, or None and why not."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return None, "psycopg is not installed"
    reasons = []
    for url in postgres_candidates(environ):
        parts = urllib.parse.urlsplit(url)
        shown = f"{parts.hostname}:{parts.port or 5432}{parts.path}"  # no password
        try:
            with _connect(url) as connection:
                allowed = connection.execute(
                    "SELECT rolcreatedb OR rolsuper FROM pg_roles WHERE rolname = current_user"
                ).fetchone()
        except Exception as error:
            reasons.append(f"{shown}: {str(error).strip().splitlines()[0]}")
            continue
        if allowed and allowed[0]:
            return url, ""
        reasons.append(f"{shown}: the role may not create databases (CREATEDB)")
    return None, "no PostgreSQL to use (" + "; ".join(reasons) + ")"


def missing(proxy: str | None = None) -> str | None:
    """Why a cluster cannot be started here, or None when it can."""
    wanted = [proxy] if proxy else list(PROXIES)
    if not any(_program(name) for name in wanted):
        return f"{' or '.join(wanted)} is not installed (apt-get install {wanted[0]})"
    if not _program("redis-server"):
        return "redis-server is not installed (apt-get install redis-server)"
    url, why = find_postgres()
    if url is None:
        return why
    return None


# -- the pieces ---------------------------------------------------------------------------


def _wait(check, what: str, log: Path | None, process: subprocess.Popen | None, seconds=30.0):
    deadline = time.monotonic() + seconds
    while True:
        try:
            if check():
                return
        except OSError:
            pass
        if process is not None and process.poll() is not None:
            break
        if time.monotonic() > deadline:
            break
        time.sleep(0.1)
    text = log.read_text(errors="replace")[-4000:] if log and log.exists() else ""
    raise RuntimeError(f"{what} did not start:\n{text}")


def _stop(process: subprocess.Popen | None, *, group: bool = False, grace: float = 10.0):
    """SIGTERM, then SIGKILL after ``grace`` seconds (to the whole group if ``group``)."""
    if process is None:
        return
    if process.poll() is None:
        if group:  # a frozen server (``AppServer.freeze``) takes its SIGTERM once woken
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGCONT)
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=grace)
    if group:
        # Whatever of the server is left (a worker, a helper process) goes with it.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    if process.poll() is None:
        process.kill()
    process.wait()


class Database:
    """A fresh PostgreSQL database for one run, dropped by ``drop()``."""

    def __init__(self, admin_url: str) -> None:
        self.admin_url = admin_url
        self.name = f"scorekeeper_multi_{secrets.token_hex(4)}"
        parts = urllib.parse.urlsplit(admin_url)
        self.url = urllib.parse.urlunsplit(parts._replace(path="/" + self.name, query=""))

    def create(self) -> None:
        with _connect(self.admin_url) as connection:
            connection.execute(f'CREATE DATABASE "{self.name}"')

    def drop(self, seconds: float = 30.0) -> None:
        """Drop it, waiting for what still holds it.

        FORCE ends the servers' own connections, but PostgreSQL refuses to end a
        process of a superuser (an autovacuum worker busy in the database after the
        evening's writes) to a role that is not one: InsufficientPrivilege. Such a
        worker finishes within seconds, so the drop is tried again until it has."""
        import psycopg

        deadline = time.monotonic() + seconds
        while True:
            try:
                with _connect(self.admin_url) as connection:
                    connection.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
                return
            except (psycopg.errors.InsufficientPrivilege, psycopg.errors.ObjectInUse):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    def backends(self) -> set[int]:
        """The process ids of PostgreSQL's server processes for this database."""
        with _connect(self.admin_url) as connection:
            rows = connection.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.name]
            ).fetchall()
        return {pid for (pid,) in rows}


class Redis:
    """redis-server on a free loopback port, in memory only."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.dir = workdir / "redis"
        self.log = workdir / "redis.log"
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def start(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        command = [
            _program("redis-server") or "redis-server",
            "--bind", HOST, "--port", str(self.port), "--save", "", "--appendonly", "no",
            "--daemonize", "no", "--dir", str(self.dir), "--loglevel", "warning",
        ]  # fmt: skip
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                command, env=clean_environment(), stdout=log, stderr=subprocess.STDOUT
            )
        _wait(self.ping, "redis-server", self.log, self.process)

    def ping(self) -> bool:
        with socket.create_connection((HOST, self.port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")

    def stop(self) -> None:
        _stop(self.process)


class AppServer:
    """gunicorn with the project's settings on a free loopback port, in a process group
    of its own; its output in ``log``."""

    def __init__(self, name: str, env: dict[str, str], workdir: Path, *, access_log: bool):
        self.name = name
        self.port = free_port()
        self.data_dir = workdir / f"data-{name}"
        self.env = {**env, "DATA_DIR": str(self.data_dir)}
        self.log = workdir / f"gunicorn-{name}.log"
        self.access_log = access_log
        self.process: subprocess.Popen | None = None
        self.starts = 0

    def launch(self) -> None:
        command = [sys.executable, "-m", "gunicorn", "scorekeeper.wsgi", "-c", str(CONFIG)]
        command += ["--bind", f"{HOST}:{self.port}"]
        if not self.access_log:
            command += ["--access-logfile", "/dev/null"]
        self.starts += 1
        with self.log.open("ab") as log:
            log.write(f"== start {self.starts}\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # a group of its own: kill() takes all of it
            )

    def wait_ready(self) -> None:
        _wait(lambda: get_status(self.port, "/healthz") == 200, f"gunicorn {self.name}",
              self.log, self.process)  # fmt: skip

    def start(self) -> None:
        self.launch()
        self.wait_ready()

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def freeze(self) -> None:
        """SIGSTOP to every process of the server: it takes connections (the kernel
        does) and answers nothing."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGSTOP)

    def kill(self) -> None:
        """SIGKILL to every process of the server at once: nothing is finished, nothing
        answered, as when its machine dies."""
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        _stop(self.process, group=True, grace=25.0)


def get_status(port: int, path: str) -> int:
    connection = http.client.HTTPConnection(HOST, port, timeout=2)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


HAPROXY = """\
global
    maxconn 4096
    log stdout format raw local0 info
    stats socket {dir}/admin.sock mode 600 level admin

defaults
    mode http
    log global
    option httplog
    timeout connect 1s
    timeout client 60s
    timeout server 60s
    timeout queue 30s
    # Phones keep their connection between polls (every 3 s).
    timeout http-keep-alive 30s
    # X-Forwarded-For: the address the proxy saw, added after whatever came.
    option forwardfor
    # A connection to a server that fails (nothing was sent) is tried again on another
    # server. A request that reached a server that then died is not: the client retries
    # it with its Idempotency-Key.
    retries 3
    option redispatch 1

frontend scorekeeper
    bind {host}:{port}
    default_backend servers

backend servers
    balance roundrobin
    option httpchk
    http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host {host}
    # Checked every half second (a slow answer within 3 s is still an answer); marked
    # down after two failed checks, or at once when a connection to it fails.
    timeout check 3s
    default-server check inter 500ms fall 2 rise 2 observe layer4 error-limit 1 on-error mark-down
{servers}
"""

NGINX = """\
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/nginx-error.log warn;
{user}
events {{ worker_connections 4096; }}
http {{
    access_log off;
    # Phones keep their connection between polls (every 3 s).
    keepalive_timeout 30s;
    client_body_temp_path {dir}/client_body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    upstream scorekeeper {{
{servers}
        keepalive 64;
        keepalive_timeout 4s;  # below gunicorn's 5 s: nginx lets go of an idle one first
    }}
    server {{
        listen {host}:{port};
        location / {{
            proxy_pass http://scorekeeper;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_connect_timeout 1s;
            proxy_read_timeout 60s;
            # A server that refuses the connection: the next one. A POST that reached a
            # server is not sent again (nginx never does): the client retries it.
            proxy_next_upstream error timeout;
        }}
    }}
}}
"""


class Proxy:
    """HAProxy or nginx on a free loopback port in front of ``servers``."""

    def __init__(self, kind: str, servers: list[AppServer], workdir: Path) -> None:
        self.kind = kind
        self.servers = servers
        self.port = free_port()
        self.dir = workdir / kind
        self.log = workdir / f"{kind}.log"
        self.process: subprocess.Popen | None = None

    def config(self) -> tuple[Path, list[str]]:
        self.dir.mkdir(parents=True, exist_ok=True)
        if self.kind == "haproxy":
            servers = "\n".join(f"    server {s.name} {HOST}:{s.port}" for s in self.servers)
            path = self.dir / "haproxy.cfg"
            path.write_text(
                HAPROXY.format(host=HOST, port=self.port, servers=servers, dir=self.dir)
            )
            return path, [_program("haproxy") or "haproxy", "-db", "-f", str(path)]
        servers = "\n".join(
            f"        server {HOST}:{s.port} max_fails=1 fail_timeout=2s;" for s in self.servers
        )
        # As root nginx hands its workers to "nobody", who could not use the folder.
        user = "user root;" if os.geteuid() == 0 else ""
        path = self.dir / "nginx.conf"
        path.write_text(
            NGINX.format(dir=self.dir, host=HOST, port=self.port, servers=servers, user=user)
        )
        command = [_program("nginx") or "nginx", "-e", str(self.dir / "nginx-error.log")]
        return path, [*command, "-p", str(self.dir), "-c", str(path), "-g", "daemon off;"]

    def start(self) -> None:
        _, command = self.config()
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                command, env=clean_environment(), stdout=log, stderr=subprocess.STDOUT
            )
        _wait(lambda: get_status(self.port, "/healthz") == 200, self.kind, self.log, self.process)

    def in_flight(self, server: str) -> int | None:
        """How many requests HAProxy has under way on ``server`` (its "scur"), or None
        where that cannot be asked (nginx)."""
        if self.kind != "haproxy":
            return None
        with socket.socket(socket.AF_UNIX) as sock:
            sock.settimeout(2)
            sock.connect(str(self.dir / "admin.sock"))
            sock.sendall(b"show stat\n")
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        lines = data.decode().splitlines()
        heads = lines[0].lstrip("# ").split(",")
        for line in lines[1:]:
            row = dict(zip(heads, line.split(","), strict=False))
            if row.get("pxname") == "servers" and row.get("svname") == server:
                return int(row["scur"] or 0)
        return 0

    def stop(self) -> None:
        _stop(self.process)


@dataclass
class Cluster:
    """PostgreSQL, Redis, ``servers`` gunicorns and a proxy, as the module says."""

    servers: int = 2
    workers: int = 1
    threads: int = 8
    proxy: str | None = None  # "haproxy" or "nginx"; None: whichever is installed
    referee_processes: int = 0
    access_log: bool = True
    keep: bool = False  # leave the work folder (logs) behind
    secret_key: str = field(default_factory=lambda: "multi-" + secrets.token_urlsafe(40))
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="sk-multi-")))

    def __post_init__(self) -> None:
        self.database: Database | None = None
        self.redis: Redis | None = None
        self.app: list[AppServer] = []
        self.front: Proxy | None = None
        self._stack = contextlib.ExitStack()

    @property
    def proxy_port(self) -> int:
        assert self.front is not None
        return self.front.port

    def environment(self) -> dict[str, str]:
        """What every server is given alike: the one database, the one Redis and the one
        secret key (a key each server generated in its own DATA_DIR would differ)."""
        assert self.database is not None
        assert self.redis is not None
        return clean_environment(
            DATABASE_URL=self.database.url,
            REDIS_URL=self.redis.url,
            SECRET_KEY=self.secret_key,
            DEBUG="0",
            ALLOWED_HOSTS=f"{HOST},localhost",
            # The proxy connects from the loopback: its X-Forwarded-For is believed.
            FORWARDED_ALLOW_IPS=HOST,
            WORKERS=str(self.workers),
            THREADS=str(self.threads),
            REFEREE_PROCESSES=str(self.referee_processes),
            LOG_LEVEL="WARNING",
        )

    def __enter__(self) -> Cluster:
        try:
            self._start()
        except BaseException:
            self.__exit__(*sys.exc_info())
            raise
        return self

    def _start(self) -> None:
        kind = self.proxy or next((name for name in PROXIES if _program(name)), None)
        why = missing(kind)
        if why:
            raise RuntimeError(why)
        admin, _ = find_postgres()
        assert admin is not None
        self.database = Database(admin)
        self.database.create()
        self._stack.callback(self.database.drop)
        self.redis = Redis(self.workdir)
        self._stack.callback(self.redis.stop)
        self.redis.start()
        env = self.environment()
        # Once, before any server starts (no createcachetable: the cache is Redis).
        migrate = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env={**env, "DATA_DIR": str(self.workdir / "data-migrate")},
            capture_output=True,
            text=True,
        )
        if migrate.returncode:
            raise RuntimeError(f"migrate failed:\n{migrate.stdout}{migrate.stderr}")
        if not (ROOT / "staticfiles" / "staticfiles.json").exists():
            # The pages need the static manifest, as `make setup` builds it.
            subprocess.run(
                [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                cwd=ROOT,
                env={**env, "DATA_DIR": str(self.workdir / "data-migrate")},
                check=True,
                capture_output=True,
            )
        names = "abcdefghijklmnopqrstuvwxyz"
        self.app = [
            AppServer(names[i], env, self.workdir, access_log=self.access_log)
            for i in range(self.servers)
        ]
        for server in self.app:
            self._stack.callback(server.stop)
            server.launch()  # side by side: each takes a second or two
        for server in self.app:
            server.wait_ready()
        self.front = Proxy(kind, self.app, self.workdir)
        self._stack.callback(self.front.stop)
        self.front.start()

    def __exit__(self, *exc: object) -> None:
        try:
            self._stack.close()  # the proxy, the servers, Redis, the database
        finally:
            if not self.keep:
                shutil.rmtree(self.workdir, ignore_errors=True)

    def kill_mid_request(self, server: AppServer, settle: float = 0.3) -> int | None:
        """Kill ``server`` with requests under way on it: its processes are stopped first
        (SIGSTOP), so whatever the proxy sends it stays unanswered; once the proxy has a
        request under way there (at most 5 s) and ``settle`` seconds more have passed,
        every process of it is killed at once (SIGKILL). How many requests were cut off
        (None where the proxy cannot say: nginx)."""
        assert self.front is not None
        server.freeze()
        until = time.monotonic() + 5
        while time.monotonic() < until and self.front.in_flight(server.name) == 0:
            time.sleep(0.005)
        time.sleep(settle)
        cut = self.front.in_flight(server.name)
        server.kill()
        return cut

    def logs(self) -> str:
        """The tail of every log, for a failure's message."""
        parts = []
        for path in sorted(self.workdir.glob("*.log")):
            parts.append(f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}")
        return "\n".join(parts)


# -- clients ------------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class Broken(Exception):
    """No answer: the connection failed or broke (the server may have died)."""


# What a kept-alive connection that the other end closed while idle fails with.
STALE = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError)


class Phone:
    """One client: a kept-alive connection to ``port``, its cookies, and the address a
    proxy in front would name for it (X-Forwarded-For, believed from the loopback)."""

    def __init__(self, port: int, address: str | None = None, timeout: float = 30.0) -> None:
        self.port = port
        self.address = address or f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"  # fmt: skip
        self.timeout = timeout
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
        self.connection = None

    def request(
        self,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        form: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        retried: list | None = None,
    ) -> Answer:
        """One attempt; ``Broken`` when no answer came. A kept-alive connection that
        closes without an answer gets the request again on a new connection, as a
        browser does (noted in ``retried``): the other end may have closed it while it
        was idle, or HAProxy closes a client's connection so when the server it sent the
        request to died (its way of asking the client to send it again)."""
        sent = {"X-Forwarded-For": self.address, **(headers or {})}
        body = None
        if json_body is not None:
            body = json.dumps(json_body).encode()
            sent["Content-Type"] = "application/json"
        elif form is not None:
            body = urllib.parse.urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for fresh in (self.connection is None, True):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
            try:
                self.connection.request(method, path, body=body, headers=sent)
                response = self.connection.getresponse()
                raw = response.read()
                break
            except STALE as error:
                self.close()
                if fresh:
                    raise Broken(f"{method} {path}: {type(error).__name__}: {error}") from error
                if retried is not None:
                    retried.append(f"{method} {path}: kept-alive connection closed, sent again")
            except (OSError, http.client.HTTPException) as error:
                self.close()
                raise Broken(f"{method} {path}: {type(error).__name__}: {error}") from error
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                cookie, _, _ = value.partition(";")
                key, _, text = cookie.partition("=")
                if text and not text.startswith('""'):
                    self.cookies[key.strip()] = text
                else:
                    self.cookies.pop(key.strip(), None)
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, raw)

    def until_answered(
        self, method: str, path: str, *, deadline: float, retried: list | None = None, **kwargs
    ) -> Answer:
        """The request, sent again (the same request: the same Idempotency-Key) after a
        broken connection or a 502/503/504 from the proxy, until ``deadline``."""
        pause = 0.05
        while True:
            try:
                answer = self.request(method, path, retried=retried, **kwargs)
                if answer.status not in (502, 503, 504):
                    return answer
                failure = f"{answer.status} from the proxy"
            except Broken as error:
                failure = str(error)
            if retried is not None:
                retried.append(failure)
            if time.monotonic() > deadline:
                raise Broken(f"{method} {path}: no answer before the deadline ({failure})")
            time.sleep(pause)
            pause = min(pause * 2, 0.5)


# -- Skat deals ---------------------------------------------------------------------------

GAMES = ("clubs", "spades", "hearts", "diamonds", "grand")


def skat_deal(index: int) -> dict[str, Any]:
    """Deal ``index`` of a sheet for the JSON API: legal whatever came before, and
    different from its neighbours (so each stored deal names the request that sent it)."""
    points = 31 + index % 59  # 31..89: won, no schneider either way
    return {
        "declarer": index % 3,
        "game": GAMES[index // 59 % len(GAMES)],
        "bid": 18,
        "matadors": {"with": 1 + index // 295 % 3},
        "declarer_points": points,
        "declarer_tricks": 5,
    }


# The deal form of the sheet page, as a phone posts it (a grand won with two, bid 24).
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
    "entry_fresh": "1",
}

HTMX = {"HX-Request": "true"}


def version_of(answer: Answer) -> int | None:
    """The sheet version an ETag such as "live-12-5" names."""
    tag = answer.headers.get("etag", "").strip('"')
    tail = tag.rpartition("-")[2]
    return int(tail) if tail.isdigit() else None
