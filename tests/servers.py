"""Real servers for tests: a Daphne process (Django's live_server has no websockets) on its own
database, management commands against that database, and an HTTP client that behaves like a tab."""

import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The tests' collected static files, one folder for every server and session (collect_static takes
# turns and skips the work when the sources have not changed): apart from var/static, which a
# running `make run` serves from.
STATIC_ROOT = ROOT / "var" / "test-static"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_serving(url: str, server: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"daphne exited with status {server.returncode}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"daphne did not answer at {url} within {timeout:.0f}s")


def server_environment(var_dir: Path, **overrides: str) -> dict[str, str]:
    """The embedded default (SQLite in var_dir, in-memory channel layer), whatever the outer
    environment says, unless `overrides` sets DATABASE_URL or REDIS_URL."""
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "playground.settings",
            "SECRET_KEY": "test-server-secret-key",
            "PLAYGROUND_VAR_DIR": str(var_dir),
            "SQLITE_PATH": str(var_dir / "db.sqlite3"),
            "PLAYGROUND_STATIC_ROOT": str(STATIC_ROOT),
            **overrides,
        }
    )
    return env


def manage(env: dict[str, str], *command: str) -> str:
    """Runs a management command against the server's database; returns what it printed."""
    done = subprocess.run(
        [sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    return done.stdout


def postgres_test_database_url(port: int | None = None) -> str:
    """pytest-django's PostgreSQL test database, for a server process to share with the test (which
    must then be transactional, so that each side sees what the other committed); `port` reaches it
    through something else listening on 127.0.0.1, a proxy say."""
    from django.db import connection

    settings = connection.settings_dict
    user, host = settings["USER"] or "postgres", settings["HOST"] or "127.0.0.1"
    if port is not None:
        host = "127.0.0.1"
    return f"postgres://{user}@{host}:{port or settings['PORT'] or 5432}/{settings['NAME']}"


def create_scenario(env: dict[str, str], text: str) -> dict[str, str]:
    """A scenario from a gallery-format file's text, in the server's database: its slug, view and
    edit paths (`manage.py create_scenario`)."""
    with tempfile.NamedTemporaryFile("w", suffix=".yaml") as file:
        file.write(text)
        file.flush()
        return json.loads(manage(env, "create_scenario", file.name))


class ServerProcess:
    """A process of the app (`arguments` after the Python executable), its stdout and stderr (the
    access log, the logging) to a file of the server's var dir: a pipe nobody reads fills up and
    then blocks the process's logging."""

    def __init__(self, env: dict[str, str], arguments: list[str], log_name: str) -> None:
        self.env = env
        self.arguments = arguments
        self.process: subprocess.Popen[bytes] | None = None
        self.log = open(Path(env["PLAYGROUND_VAR_DIR"]) / log_name, "ab")  # noqa: SIM115

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, *self.arguments], cwd=ROOT, env=self.env, stdout=self.log, stderr=self.log
        )

    def kill(self) -> None:
        """As a crash or an OOM kill would: no shutdown handlers, threads die mid-write."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()


class DaphneServer(ServerProcess):
    """A Daphne process on a fixed port, which a test may kill and start again."""

    def __init__(self, env: dict[str, str], port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # Through playground.serve, as `make run` starts it (an access log that redacts edit keys).
        daphne = ["-m", "playground.serve", "-b", "127.0.0.1", "-p", str(self.port), "playground.asgi:application"]
        super().__init__(env, daphne, f"daphne-{self.port}.log")

    def start(self) -> None:
        super().start()
        assert self.process is not None
        wait_until_serving(self.url, self.process)


class WorkerProcess(ServerProcess):
    """`manage.py runworker simulation-runs`: executes runs in the scale-out set-up."""

    def __init__(self, env: dict[str, str]) -> None:
        super().__init__(env, ["manage.py", "runworker", "simulation-runs"], f"worker-{free_port()}.log")


def ensure_postgres_database(url: str) -> None:
    """Creates the database a postgres:// URL names, if it does not exist yet."""
    import psycopg

    parts = urllib.parse.urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{name}"')


def drop_postgres_database(url: str) -> None:
    import psycopg

    parts = urllib.parse.urlparse(url)
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')


def multipart(fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> tuple[bytes, str]:
    """A multipart/form-data body, as a browser sends a form with files: (body, its Content-Type)."""
    boundary = "----playground" + secrets.token_hex(8)
    parts: list[bytes] = []
    for name, value in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, (filename, content) in files.items():
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        )
        parts.append(head.encode() + content + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


class HttpClient:
    """An HTTP client with cookies and Django's CSRF header, like a browser tab (htmx requests)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.read().decode()

    def post(self, path: str, data: dict[str, object]) -> int:
        """Posts as htmx does; an error status raises urllib's HTTPError."""
        with self.opener.open(self._form(path, data), timeout=30) as response:
            return int(response.status)

    def submit(self, path: str, data: dict[str, object]) -> tuple[int, str]:
        """Posts as htmx does; (status, body) whatever the status."""
        try:
            with self.opener.open(self._form(path, data), timeout=30) as response:
                return int(response.status), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def _form(self, path: str, data: dict[str, object]) -> urllib.request.Request:
        token = next(cookie.value for cookie in self.jar if cookie.name == "csrftoken")
        return urllib.request.Request(
            self.base + path,
            data=urllib.parse.urlencode(data).encode(),
            headers={"X-CSRFToken": token, "HX-Request": "true", "Referer": self.base + "/"},
        )
