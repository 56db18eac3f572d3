"""A request body past what the server takes is dropped as it arrives, not kept (playground/
request_body.py): against a real Daphne with small limits, an oversized upload gets a page (or, from
htmx, the board) that names the limit, whether its length is declared or chunked; the server holds
no file of it meanwhile; a client that goes on sending far past the limit is cut off; a client's own
copy of the marker header refuses nothing."""

import http.client
import os
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.servers import DaphneServer, create_scenario, manage, postgres_test_database_url, server_environment
from tests.web.conftest import ON_POSTGRES

pytestmark = pytest.mark.django_db(transaction=ON_POSTGRES)

MIB = 1 << 20
# Files of at most 1 MiB beside forms of at most 1 MiB, plus the multipart slack: 3 MiB a request.
LIMITS = {"IMPORT_MAX_UPLOAD_BYTES": str(MIB), "UPLOAD_MAX_BYTES": str(MIB)}
MOST_A_REQUEST_CARRIES = "the most one request may carry is 3 MiB"
SCENARIO = (
    'apiVersion: playground/v1\nkind: Scenario\ntitle: "Bodies"\n---\n'
    "apiVersion: v1\nkind: Node\nmetadata: {name: worker1}\nstatus: {capacity: {cpu: '4', memory: 16Gi, pods: '110'}}\n"
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[DaphneServer]:

    if ON_POSTGRES:
        env = server_environment(tmp_path, DATABASE_URL=postgres_test_database_url(), **LIMITS)
    else:
        env = server_environment(tmp_path, **LIMITS)
        manage(env, "migrate", "--noinput")
    env["TMPDIR"] = str(tmp_path)  # where Twisted and Django would keep a body they read
    daphne = DaphneServer(env)
    daphne.start()
    daphne.env = env  # type: ignore[attr-defined]
    try:
        yield daphne
    finally:
        daphne.stop()


def connection(server: DaphneServer) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)


def declared_post(
    server: DaphneServer, size: int, path: str = "/scenarios/new", headers: dict[str, str] | None = None
) -> http.client.HTTPConnection:
    """A form's POST of `size` bytes, its headers sent, its body not yet."""
    client = connection(server)
    client.putrequest("POST", path)
    client.putheader("Content-Type", "application/x-www-form-urlencoded")
    client.putheader("Content-Length", str(size))
    for name, value in (headers or {}).items():
        client.putheader(name, value)
    client.endheaders()
    return client


def post(server: DaphneServer, path: str, size: int, headers: dict[str, str] | None = None) -> tuple[int, str]:
    client = declared_post(server, size, path, headers)
    chunk = b"x" * MIB
    for start in range(0, size, MIB):
        client.send(chunk[: min(MIB, size - start)])
    response = client.getresponse()
    return response.status, response.read().decode()


def kept_bytes(pid: int) -> int:
    """The size of every deleted file the process holds open: how Twisted and Django keep a body."""
    total = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.endswith("(deleted)"):
                total += os.stat(f"/proc/{pid}/fd/{fd}").st_size
        except OSError:
            continue
    return total


def test_a_body_over_the_limit_gets_a_page_that_names_it(server: DaphneServer):
    status, body = post(server, "/scenarios/new", 5 * MIB)
    assert status == 413
    assert MOST_A_REQUEST_CARRIES in body and "This request sent 5 MiB" in body
    assert "Traceback" not in body and "Bad Request (400)" not in body


def test_an_edit_over_the_limit_gets_its_board_back_with_the_reason(server: DaphneServer):
    links = create_scenario(server.env, SCENARIO)  # type: ignore[attr-defined]
    status, body = post(server, f"/s/{links['slug']}/import", 4 * MIB, {"HX-Request": "true"})
    assert status == 413
    assert 'id="board"' in body and "worker1" in body  # the board as it was: nothing lost
    assert MOST_A_REQUEST_CARRIES in body


def test_a_chunked_body_is_refused_once_it_passes_the_limit(server: DaphneServer):
    client = connection(server)
    client.putrequest("POST", "/scenarios/new")
    client.putheader("Content-Type", "application/x-www-form-urlencoded")
    client.putheader("Transfer-Encoding", "chunked")
    client.endheaders()
    for _ in range(4):
        client.send(b"%x\r\n%s\r\n" % (MIB, b"y" * MIB))
    client.send(b"0\r\n\r\n")
    response = client.getresponse()
    assert response.status == 413
    assert MOST_A_REQUEST_CARRIES in response.read().decode()


def test_the_server_keeps_nothing_of_a_body_past_the_limit_while_it_arrives(server: DaphneServer):
    assert server.process is not None
    client = declared_post(server, 10 * MIB)
    for _ in range(9):
        client.send(b"z" * MIB)
    time.sleep(0.5)  # read by the server
    assert kept_bytes(server.process.pid) < MIB
    client.send(b"z" * MIB)
    assert client.getresponse().status == 413


def test_a_body_within_the_limit_is_kept_while_it_arrives(server: DaphneServer):
    """The measurement above can see a kept body: one under the limit is in a file meanwhile."""
    assert server.process is not None
    client = declared_post(server, 2 * MIB)
    client.send(b"a=" + b"z" * (MIB + MIB // 2))
    time.sleep(0.5)
    assert kept_bytes(server.process.pid) >= MIB
    client.send(b"z" * (MIB // 2 - 2))
    assert client.getresponse().status in (400, 403, 413)  # no CSRF token: refused by Django, read


def test_a_form_body_reaches_django_unparsed_by_twisted(server: DaphneServer):
    """Twisted would parse a form's body on the reactor thread (blocking every connection) and
    answer one it cannot parse with a bare 400 of its own: Django answers it instead."""
    client = connection(server)
    client.request(
        "POST", "/scenarios/new", body=b"a=1", headers={"Content-Type": "multipart/form-data"}
    )  # no boundary
    response = client.getresponse()
    page = response.read().decode()
    assert response.status == 403 and "CSRF" in page  # Django's page (the form has no token), not an empty 400


def test_a_client_that_sends_far_past_the_limit_is_cut_off(server: DaphneServer):
    raw = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    raw.sendall(
        b"POST /scenarios/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n"
        % (100 * MIB)
    )
    sent = 0
    with pytest.raises(OSError):  # reset (or broken pipe) once the server stops listening
        while sent < 100 * MIB:
            raw.sendall(b"w" * MIB)
            sent += MIB
    assert sent < 40 * MIB, sent  # cut off around four times the limit (kernel buffers aside)
    raw.close()


def test_a_clients_own_marker_header_refuses_nothing(server: DaphneServer):
    client = connection(server)
    client.request("GET", "/", headers={"X-Playground-Body-Refused": "999999999"})
    response = client.getresponse()
    body = response.read().decode()
    assert response.status == 200, body[:300]
    assert not re.search("may carry", body)
