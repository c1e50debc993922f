"""Real production processes for the distributed and fault tests.

A private redis-server (so a test may kill and restart it), uvicorn ASGI servers and a
Celery worker, all started as subprocesses in production mode on the pytest database;
a TD who logs in through the real login form; screens that are WebSocket clients
reconnecting the way static/js/screen.js does.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
REDIS_SERVER = shutil.which("redis-server")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def wait_until(predicate: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


class PrivateRedis:
    """A redis-server of our own, with nothing on disk, that a test may kill and restart."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert REDIS_SERVER, "redis-server is not installed"
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=real_clock_env(),
        )
        wait_until(lambda: listening(self.port), 10, "redis-server")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def real_clock_env() -> dict[str, str]:
    """This environment without faketime (CI runs one pass a year ahead): a service such
    as redis-server is not the code under test, and libfaketime breaks its allocator."""
    return {
        key: value
        for key, value in os.environ.items()
        if key != "LD_PRELOAD" and not key.startswith("FAKETIME")
    }


class Process:
    """One subprocess with its output in a log file the test can read."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], logdir: Path) -> None:
        self.name, self.args, self.env = name, args, env
        self.log_path = logdir / f"{name}.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            self.args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill9(self) -> None:
        if self.process is not None:
            self.process.kill()  # SIGKILL: no shutdown, no goodbye to the sockets
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None


class Server(Process):
    """One uvicorn process (one worker) on its own port."""

    def __init__(self, name: str, env: dict[str, str], logdir: Path) -> None:
        self.port = free_port()
        args = [sys.executable, "-m", "uvicorn", "config.asgi:application"]
        args += ["--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning"]
        args += ["--ws-per-message-deflate", "false"]  # as bin/serve runs it
        super().__init__(name, args, env, logdir)

    def start(self) -> None:
        super().start()
        wait_until(lambda: listening(self.port) or not self.running, 30, f"{self.name} to listen")
        assert self.running, self.log()

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
        try:
            conn.request("GET", path, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.read().decode()
        finally:
            conn.close()

    def health(self) -> tuple[int, dict[str, str]]:
        # The details, as a monitoring probe sees them (anonymous callers get ok/error).
        status, body = self.get("/health/", {"X-Health-Token": self.env["HEALTH_TOKEN"]})
        return status, json.loads(body)


class Cluster:
    """The processes of production mode, started on demand and shared by a module."""

    def __init__(self, workdir: Path, database_url: str) -> None:
        self.workdir = workdir
        self.redis = PrivateRedis(workdir)
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO"))},
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "TORNEO_ENV": "production",
            "SECRET_KEY": "torneo-production-tests-" + "x" * 40,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "DATABASE_URL": database_url,
            "REDIS_URL": self.redis.url,
            "CHANNEL_PREFIX": f"torneo-test-{os.getpid()}",
            "TORNEO_VAR_DIR": str(workdir),
            "STATIC_ROOT": str(workdir / "static"),
            "CLOCK_ANNOUNCE_GRACE_SECONDS": "2",
            "LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
            "HEALTH_TOKEN": "torneo-production-tests-health",
        }
        self.servers = {name: Server(name, self.env, workdir) for name in ("a", "b")}
        worker = [sys.executable, "-m", "celery", "-A", "config.celery", "worker", "--pool", "solo"]
        worker += ["--loglevel", "info", "--without-mingle", "--without-gossip"]
        worker += ["--without-heartbeat", "--hostname", f"test{os.getpid()}@%h"]
        self.worker = Process("worker", worker, self.env, workdir)

    def start(self) -> None:
        self.redis.start()
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env=self.env,
            check=True,
            timeout=120,
        )
        self.worker.start()  # starts in parallel with the servers; tests wait for "ready"
        for server in self.servers.values():
            server.start()

    def up(self) -> None:
        """Every server running and healthy (a test before may have killed one)."""
        if self.redis.process is None:
            self.redis.start()
        for server in self.servers.values():
            if not server.running:
                server.start()

    def start_worker(self) -> None:
        """Start the worker (unless it runs) and wait until it takes tasks."""
        if not self.worker.running:
            self.worker.log_path.unlink(missing_ok=True)
            self.worker.start()
        wait_until(lambda: " ready." in self.worker.log(), 30, "the Celery worker")

    def stop(self) -> None:
        for process in (*self.servers.values(), self.worker):
            process.stop()
        self.redis.kill()


class Browser:
    """A person with a browser: cookies, the CSRF token, forms posted to one server."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.cookies: dict[str, str] = {}
        self.headers: dict[str, str] = {}  # the last answer's

    def request(self, method: str, path: str, data: dict[str, Any] | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if data is not None:
            body = urlencode({**data, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read().decode()
            self.headers = {k.lower(): v for k, v in response.getheaders()}
            for header, value in response.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    self.cookies[name] = rest.split(";", 1)[0]
            return response.status, response.getheader("Location"), text
        finally:
            conn.close()

    def log_in(self, username: str, password: str) -> None:
        status, _location, page = self.request("GET", "/login/")
        assert status == 200 and "csrftoken" in self.cookies
        assert re.search(r'name="csrfmiddlewaretoken"', page)
        status, location, _page = self.request(
            "POST", "/login/", {"username": username, "password": password}
        )
        assert status == 302 and "sessionid" in self.cookies, (status, location)

    def clock(self, slug: str, action: str, **fields: Any) -> tuple[int, str | None]:
        status, location, _page = self.request("POST", f"/t/{slug}/clock/{action}/", fields)
        return status, location


class Screen:
    """A screen's socket, reconnecting like static/js/screen.js (backoff with jitter from
    0.5 s, 2 s cap for the first minute). Runs its own event loop in a thread; records every message
    with the local time it arrived."""

    def __init__(self, server: Server, path: str) -> None:
        self.server, self.path = server, path
        self.messages: list[tuple[float, dict[str, Any]]] = []
        self.closes: list[tuple[float, int | None]] = []
        self.opens: list[float] = []
        self._lock = threading.Condition()
        self._stop = False
        self._loop = asyncio.new_event_loop()
        self._stopping = asyncio.Event()
        self._thread = threading.Thread(target=self._loop.run_until_complete, args=(self._run(),))
        self._thread.daemon = True
        self._thread.start()

    async def _run(self) -> None:
        from websockets.asyncio.client import connect

        retries = 0
        lost_at: float | None = None
        while not self._stop:
            url = f"ws://127.0.0.1:{self.server.port}{self.path}"
            origin = f"http://127.0.0.1:{self.server.port}"
            try:
                async with connect(url, origin=origin, open_timeout=5) as socket_:
                    retries, lost_at = 0, None
                    with self._lock:
                        self.opens.append(time.monotonic())
                    while not self._stop:
                        try:
                            raw = await asyncio.wait_for(socket_.recv(), 0.2)
                        except TimeoutError:
                            continue
                        with self._lock:
                            self.messages.append((time.monotonic(), json.loads(raw)))
                            self._lock.notify_all()
            except Exception as exc:  # noqa: BLE001 - refused, closed, reset: reconnect
                code = getattr(getattr(exc, "rcvd", None), "code", None) or repr(exc)[:80]
                with self._lock:
                    self.closes.append((time.monotonic(), code))
                    self._lock.notify_all()
            if self._stop:
                break
            lost_at = lost_at or time.monotonic()
            cap = 30.0 if time.monotonic() - lost_at > 60 else 2.0
            base = min(cap, 0.5 * 2**retries)
            retries += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), base / 2 + random.random() * base / 2)

    def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float, after: float = 0.0
    ) -> tuple[float, dict[str, Any]]:
        """The first message after `after` (monotonic time) that satisfies `predicate`."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                for at, message in self.messages:
                    if at >= after and predicate(message):
                        return at, message
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = [m for at, m in self.messages if at >= after]
                    raise AssertionError(f"no such message in {timeout} s; got {seen[-3:]}")
                self._lock.wait(left)

    def clocks(self, after: float = 0.0) -> list[dict[str, Any]]:
        with self._lock:
            return [m for at, m in self.messages if at >= after and m.get("type") == "clock"]

    def close(self) -> None:
        self._stop = True
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(self._stopping.set)
        self._thread.join(timeout=5)
        with contextlib.suppress(Exception):
            self._loop.close()
