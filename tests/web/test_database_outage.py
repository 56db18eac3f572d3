"""The database goes away under a running server and comes back: pages answer 503 with a clear
notice (never a traceback, never a 500), /healthz says what failed, the socket refuses politely, and
everything works again once the database returns, without restarting anything.

The outage is real: on the embedded default the SQLite file's directory disappears; on PostgreSQL
(the suite's second pass) the server reaches the database through a TCP proxy that the test cuts.
"""

import asyncio
import contextlib
import json
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.message import Message
from pathlib import Path

import pytest
import websockets
from django.db import connection

from tests.servers import (
    DaphneServer,
    HttpClient,
    create_scenario,
    free_port,
    manage,
    postgres_test_database_url,
    server_environment,
)
from tests.web.conftest import ON_POSTGRES

pytestmark = pytest.mark.django_db(transaction=True) if ON_POSTGRES else []

POD = """\
apiVersion: playground/v1
kind: Scenario
title: "Outage"
---
apiVersion: v1
kind: Node
metadata: {name: worker1}
status: {capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec: {containers: [{name: c, image: nginx}]}
"""


class TcpProxy:
    """Forwards a local port to the database server; `cut` drops every connection and stops
    listening (the server is unreachable), `restore` listens again on the same port."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self.listener: socket.socket | None = None
        self.sockets: set[socket.socket] = set()
        self.lock = threading.Lock()

    def restore(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen()
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        if self.listener is not None:
            # shutdown wakes the thread blocked in accept(); close alone would leave it accepting.
            with contextlib.suppress(OSError):
                self.listener.shutdown(socket.SHUT_RDWR)
            self.listener.close()
            self.listener = None
        with self.lock:
            for sock in self.sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self.sockets.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.sockets.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)


@dataclass
class Outage:
    server: DaphneServer
    scenario_path: str
    begin: Callable[[], None]
    end: Callable[[], None]


@pytest.fixture
def outage(tmp_path: Path) -> Iterator[Outage]:
    if ON_POSTGRES:
        settings = connection.settings_dict
        proxy = TcpProxy((settings["HOST"] or "127.0.0.1", int(settings["PORT"] or 5432)))
        proxy.restore()
        direct = server_environment(tmp_path, DATABASE_URL=postgres_test_database_url())
        env = server_environment(tmp_path, DATABASE_URL=postgres_test_database_url(port=proxy.port))
        begin, end = proxy.cut, proxy.restore
    else:
        database_dir = tmp_path / "database"
        database_dir.mkdir()
        direct = env = server_environment(tmp_path, SQLITE_PATH=str(database_dir / "db.sqlite3"))
        manage(env, "migrate", "--noinput")
        hidden = tmp_path / "elsewhere"

        def begin() -> None:
            database_dir.rename(hidden)  # the file cannot be opened any more

        def end() -> None:
            hidden.rename(database_dir)

    view = create_scenario(direct, POD)["view"]
    server = DaphneServer(env)
    server.start()
    try:
        yield Outage(server, view, begin, end)
    finally:
        server.stop()


def fetch(url: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, Message, str]:
    """(status, headers (looked up case-insensitively), body), whatever the status."""
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


async def websocket_refused(url: str) -> bool:
    try:
        async with websockets.connect(url, origin="http://127.0.0.1", open_timeout=10):
            return False
    except websockets.InvalidStatus:
        return True


def test_pages_say_the_database_is_unavailable_and_recover_when_it_returns(outage: Outage):
    base = outage.server.url
    tab = HttpClient(base)
    assert "Outage" in tab.get(outage.scenario_path)
    status, _, body = fetch(base + "/healthz")
    assert status == 200 and json.loads(body)["status"] == "ok"

    outage.begin()
    status, headers, body = fetch(base + outage.scenario_path)
    assert status == 503, body[:300]
    assert headers["Retry-After"] == "5"
    assert "cannot reach its database" in body and "Traceback" not in body
    health_status, _, health = fetch(base + "/healthz")
    assert health_status == 503
    assert json.loads(health)["status"] == "unavailable" and json.loads(health)["checks"]["database"] != "ok"
    # An htmx request gets the notice where the page shows notices, not in the form's target.
    token = next(cookie.value for cookie in tab.jar if cookie.name == "csrftoken")
    htmx = {"HX-Request": "true", "X-CSRFToken": token, "Cookie": f"csrftoken={token}", "Referer": base + "/"}
    status, headers, body = fetch(base + "/scenarios/new", data=b"", headers=htmx)
    assert status == 503 and headers["HX-Retarget"] == "#notice"
    assert 'data-testid="unavailable"' in body and "<html" not in body
    ws_url = base.replace("http", "ws") + "/ws/scenarios/anything/"
    assert asyncio.run(websocket_refused(ws_url))  # refused at once; the page's socket retries

    outage.end()
    status, _, body = fetch(base + "/healthz")
    assert status == 200 and json.loads(body)["status"] == "ok"
    assert "Outage" in tab.get(outage.scenario_path)
    assert tab.post("/scenarios/new", {}) == 200  # writes work again (a redirect to the new one)
