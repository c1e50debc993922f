"""Real servers in subprocesses for benchmarks and tests, and a small cookie-keeping browser.

`serve()` starts the ASGI app under uvicorn (the production server) on a free port and
waits until it answers HTTP; `spawn()` starts any command that listens on a port.
`Browser` talks HTTP/1.1 over one kept-alive connection, keeps cookies and sends the
CSRF token the way a browser's form post does. Standard library only, no Django import,
so the benchmarks' client processes can use it too.
"""

from __future__ import annotations

import compileall
import contextlib
import functools
import http.client
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import IO
from urllib.parse import urlencode, urlsplit

BASE_DIR = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


def free_port() -> int:
    """A TCP port nobody listens on now (the kernel picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def database_url(settings_dict: Mapping[str, object]) -> str:
    """A DATABASE_URL naming the database Django is connected to (e.g. pytest's test db)."""
    engine = str(settings_dict["ENGINE"])
    name = str(settings_dict["NAME"])
    if engine.endswith("sqlite3"):
        return f"sqlite:///{name}"
    user = str(settings_dict.get("USER") or "")
    password = str(settings_dict.get("PASSWORD") or "")
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = str(settings_dict.get("HOST") or HOST)
    port = str(settings_dict.get("PORT") or 5432)
    return f"postgres://{credentials}{host}:{port}/{name}"


@dataclass
class Process:
    """A child process listening on `port`, its output kept in a temporary file."""

    popen: subprocess.Popen
    port: int
    log: IO[bytes]

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def output(self) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-4000:]

    def stop(self, timeout: float = 10) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGINT)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                # Its own session: the group is this server and the workers it forked.
                os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait(timeout)
        self.log.close()


def _wait_listening(process: Process, timeout: float, http_path: str | None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.popen.poll() is not None:
            raise RuntimeError(
                f"server exited with code {process.popen.returncode}:\n{process.output()}"
            )
        try:
            if http_path is None:
                with socket.create_connection((HOST, process.port), timeout=1):
                    return
            else:
                connection = http.client.HTTPConnection(HOST, process.port, timeout=5)
                connection.request("GET", http_path)
                connection.getresponse().read()
                connection.close()
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"server did not listen within {timeout:.0f} s:\n{process.output()}")


@contextlib.contextmanager
def spawn(
    command: Sequence[str],
    *,
    port: int,
    env: Mapping[str, str | None] | None = None,
    timeout: float = 60,
    http_path: str | None = None,
) -> Iterator[Process]:
    """Run `command` (which must listen on `port`), wait until it does, stop it on exit.

    `env` overrides the inherited environment; a None value removes the variable.
    With `http_path`, waits until a GET of that path gets any answer (the app is loaded).
    """
    environment = dict(os.environ)
    for key, value in (env or {}).items():
        if value is None:
            environment.pop(key, None)
        else:
            environment[key] = value
    log = tempfile.TemporaryFile()  # noqa: SIM115 - closed by Process.stop()
    popen = subprocess.Popen(
        list(command),
        cwd=BASE_DIR,
        env=environment,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    process = Process(popen, port, log)
    try:
        _wait_listening(process, timeout, http_path)
        yield process
    finally:
        process.stop()


@functools.cache
def compile_app() -> None:
    """Compile the app's modules once, as bin/serve does before it starts the servers: a
    server process then reads them compiled instead of compiling every module as it
    imports it (where PYTHONDONTWRITEBYTECODE is set, nothing is ever cached otherwise).
    Up-to-date files are left as they are."""
    for package in ("config", "tournaments", "tables"):
        compileall.compile_dir(BASE_DIR / package, quiet=1)


def serve(
    *,
    workers: int = 1,
    env: Mapping[str, str | None] | None = None,
    timeout: float = 60,
    port: int | None = None,
    phases: str | None = None,
) -> contextlib.AbstractContextManager[Process]:
    """The real ASGI app under uvicorn on `port` or a free one (same database and settings
    as the caller's environment unless `env` says otherwise). `phases`: a file where the
    server writes each change's timeline (bench/phases.py)."""
    compile_app()
    port = port or free_port()
    runner = ["bench.phases", phases] if phases else ["uvicorn"]
    command = [
        sys.executable,
        "-m",
        *runner,
        "config.asgi:application",
        "--host",
        HOST,
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--lifespan",
        "off",
        "--log-level",
        "warning",
        "--no-access-log",
        "--timeout-graceful-shutdown",
        "3",
        "--backlog",
        "4096",
        # As bin/serve: pushes go out uncompressed (deflate compressed each push once
        # per socket, half a fan-out's time).
        "--ws-per-message-deflate",
        "false",
    ]
    environment: dict[str, str | None] = {"DJANGO_SETTINGS_MODULE": "config.settings"}
    environment.update(env or {})
    return spawn(command, port=port, env=environment, timeout=timeout, http_path="/login/")


# --- A browser, as far as forms and cookies go -------------------------------------------


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def location(self) -> str:
        return self.headers.get("location", "")


def keep_cookies(jar: dict[str, str], set_cookies: Sequence[str]) -> None:
    """Update `jar` as a browser does from an answer's Set-Cookie headers: a cookie set
    empty or to expire now is dropped."""
    for value in set_cookies:
        cookie: SimpleCookie = SimpleCookie()
        cookie.load(value)
        for name, morsel in cookie.items():
            if morsel["max-age"] == "0" or morsel.value == "":
                jar.pop(name, None)
            else:
                jar[name] = morsel.value


@dataclass
class Browser:
    """One user's browser: a kept-alive connection and a cookie jar."""

    base_url: str
    cookies: dict[str, str] = field(default_factory=dict)
    timeout: float = 120

    def __post_init__(self) -> None:
        parts = urlsplit(self.base_url)
        self.host, self.port = parts.hostname or HOST, parts.port or 80
        self._connection: http.client.HTTPConnection | None = None

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _send(self, method: str, path: str, body: bytes | None, headers: dict[str, str]):
        if self._connection is None:
            self._connection = http.client.HTTPConnection(self.host, self.port, self.timeout)
        self._connection.request(method, path, body=body, headers=headers)
        return self._connection.getresponse()

    def request(self, method: str, path: str, form: Mapping[str, str] | None = None) -> Response:
        headers = {"Accept-Language": "en"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = self.base_url.rstrip("/")
        try:
            raw = self._send(method, path, body, headers)
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # The server closed an idle kept-alive connection: a browser simply reconnects.
            self.close()
            raw = self._send(method, path, body, headers)
        data = raw.read()
        keep_cookies(self.cookies, raw.headers.get_all("Set-Cookie") or [])
        if raw.will_close:
            self.close()
        return Response(raw.status, {k.lower(): v for k, v in raw.getheaders()}, data)

    def get(self, path: str) -> Response:
        return self.request("GET", path)

    def post(self, path: str, form: Mapping[str, str]) -> Response:
        """Post a form with the CSRF token from the cookie, as the page's form carries it."""
        return self.request("POST", path, {"csrfmiddlewaretoken": self.csrf_token, **form})

    @property
    def csrf_token(self) -> str:
        return self.cookies.get("csrftoken", "")

    def login(self, username: str, password: str) -> None:
        """Log in through the login page; raise when the server refuses."""
        page = self.get("/login/")
        if page.status != 200 or not self.csrf_token:
            raise RuntimeError(f"login page answered {page.status}")
        answer = self.post("/login/", {"username": username, "password": password})
        if answer.status != 302:
            raise RuntimeError(f"login of {username!r} refused ({answer.status})")
