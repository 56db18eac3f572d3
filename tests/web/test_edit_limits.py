"""Edits are bounded (issue #12, item 9): a client's edits go through the "edit" bucket (30 at once,
then 30 a minute), Act's too, and a scenario's history holds at most MAX_VERSIONS versions and
MAX_HISTORY_BYTES of YAML; past it an edit is refused, saying so, and a fork starts afresh."""

import base64
import functools
import http.client
import os
import re
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from playground import scenarios
from playground.models import Scenario
from playground.ratelimit import DEFAULT_LIMITS, Limit
from tests.servers import DaphneServer, HttpClient, create_scenario
from tests.web.conftest import ON_POSTGRES

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
POD = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec: {containers: [{name: c, image: nginx}]}\n"
FLOOD_EDITS, FLOOD_BYTES, FLOOD_SECONDS, FLOODERS = 100, 250_000, 20.0, 5  # the attack
EDIT = DEFAULT_LIMITS["edit"]
SCENARIO = """\
apiVersion: playground/v1
kind: Scenario
title: "Someone else's"
---
apiVersion: v1
kind: Node
metadata: {name: worker1}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


def big_workload(index: int, size: int = FLOOD_BYTES) -> str:
    """A valid workload of `size` bytes that compresses poorly (as an attacker would send)."""
    head = f"# edit {index}\n" + POD
    noise = base64.b64encode(os.urandom(size)).decode()
    lines = [f"# {noise[start : start + 96]}\n" for start in range(0, len(noise), 96)]
    body = "".join(lines)[: size - len(head) - 1]
    return head + body.rsplit("\n", 1)[0] + "\n"


class FromAddress(urllib.request.HTTPHandler):
    """Connects from another loopback address: to the server, another client."""

    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(functools.partial(http.client.HTTPConnection, source_address=(self.address, 0)), req)


def client_from(base: str, address: str) -> HttpClient:
    client = HttpClient(base)
    client.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(client.jar), FromAddress(address))
    return client


def database_bytes(server: DaphneServer) -> int:
    if ON_POSTGRES:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_database_size(current_database())")
            return int(cursor.fetchone()[0])
    var = Path(server.env["PLAYGROUND_VAR_DIR"])
    return sum(path.stat().st_size for path in var.glob("db.sqlite3*"))


def version_of(page: str) -> int:
    return int(re.search(r'<div id="board" class="board[^"]*" data-version="(\d+)"', page).group(1))


@pytest.mark.django_db(transaction=ON_POSTGRES)  # the server commits what it does; PostgreSQL shares it
def test_a_flood_of_large_edits_is_refused_after_the_burst_while_others_are_served(
    live_server_process: DaphneServer,
):
    server = live_server_process
    flooders = [HttpClient(server.url) for _ in range(FLOODERS)]  # one address, five tabs, five scenarios
    slugs = []
    for flooder in flooders:
        flooder.get("/")
        status, page = flooder.submit("/scenarios/new", {})
        assert status == 200
        slugs.append(re.search(r"/s/(\w+)/edit#", page).group(1))
    other = client_from(server.url, "127.0.0.2")
    links = create_scenario(server.env, SCENARIO)
    other.get(links["edit"])
    texts = [big_workload(index) for index in range(FLOOD_EDITS)]
    before = database_bytes(server)

    results: list[tuple[float, int]] = []  # (when, status) of every flood edit
    served: list[tuple[float, int]] = []  # (seconds, status) of the other client's requests meanwhile
    done = threading.Event()
    start = time.monotonic()

    def flood(index: int) -> None:
        version = 1
        for number in range(index, FLOOD_EDITS, FLOODERS):
            pause = start + number * FLOOD_SECONDS / FLOOD_EDITS - time.monotonic()  # 100 in 20 s
            if pause > 0:
                time.sleep(pause)
            url = f"/s/{slugs[index]}/workload"
            status, _ = flooders[index].submit(url, {"version": version, "workload": texts[number]})
            results.append((time.monotonic() - start, status))
            version += status == 200

    def meanwhile() -> None:
        while not done.is_set():
            began = time.monotonic()
            version = version_of(other.get(links["view"]))
            status, _ = other.submit(f"{links['view']}/details", {"version": version, "title": f"v{version}"})
            served.append((time.monotonic() - began, status))
            time.sleep(0.5)

    threads = [threading.Thread(target=flood, args=(index,)) for index in range(FLOODERS)]
    watcher = threading.Thread(target=meanwhile)
    for thread in [*threads, watcher]:
        thread.start()
    for thread in threads:
        thread.join(timeout=180)
    elapsed = time.monotonic() - start
    done.set()
    watcher.join(timeout=30)
    grown = database_bytes(server) - before

    statuses = [status for _, status in sorted(results)]
    accepted = statuses.count(200)
    first_refused = statuses.index(429) if 429 in statuses else "-"
    allowed = EDIT.burst + int(elapsed * EDIT.per_minute / 60) + 1  # the burst, then the refill
    print(
        f"\nflood: {len(statuses)} edits of {FLOOD_BYTES:,} B in {elapsed:.1f} s: {accepted} stored,"
        f" {statuses.count(429)} refused (429), first 429 after {first_refused} edits;"
        f" database +{grown / 2**20:.1f} MiB; other client: {len(served)} requests,"
        f" slowest {max(seconds for seconds, _ in served):.2f} s"
    )
    assert len(statuses) == FLOOD_EDITS and set(statuses) <= {200, 429}
    assert statuses[: EDIT.burst] == [200] * EDIT.burst  # the burst is served
    assert 429 in statuses and accepted <= allowed  # then the bucket refuses
    # Each stored edit keeps its workload three times at most (the scenario, the version's workload,
    # the version's whole document); the refused ones keep nothing.
    assert grown <= allowed * 3 * FLOOD_BYTES + 4 * 2**20
    assert served and all(status == 200 for _, status in served)  # another client is still served
    assert max(seconds for seconds, _ in served) < 10.0


@pytest.fixture
def editor() -> tuple[Client, Scenario]:
    client = Client()
    assert client.post(reverse("new-scenario")).status_code == 302
    return client, Scenario.objects.get()


def save(client: Client, scenario: Scenario, text: str):
    scenario.refresh_from_db()
    url = reverse("save-workload", args=[scenario.slug])
    return client.post(url, {"version": scenario.version, "workload": text}, headers=HTMX)


def test_a_scenario_keeps_a_bounded_number_of_versions_then_says_fork_it(editor, monkeypatch):
    client, scenario = editor
    monkeypatch.setattr(scenarios, "MAX_VERSIONS", 3)
    assert save(client, scenario, POD).status_code == 200
    assert save(client, scenario, POD.replace("nginx", "redis")).status_code == 200  # 3 versions now
    refused = save(client, scenario, POD.replace("nginx", "httpd"))
    assert refused.status_code == 422
    text = refused.content.decode()
    assert "history is full: it keeps at most 3 versions" in text and "Fork it to go on" in text
    scenario.refresh_from_db()
    assert scenario.version == 3 and "httpd" not in scenario.workload_yaml and scenario.versions.count() == 3
    assert save(client, scenario, POD).status_code == 200  # back to a version it keeps: no new one
    assert scenario.versions.count() == 3

    assert client.post(reverse("fork-scenario", args=[scenario.slug])).status_code == 302
    fork = Scenario.objects.exclude(pk=scenario.pk).get()
    assert save(client, fork, POD.replace("nginx", "httpd")).status_code == 200  # a fresh history


def test_a_scenario_keeps_a_bounded_amount_of_yaml(editor, monkeypatch):
    client, scenario = editor
    monkeypatch.setattr(scenarios, "MAX_HISTORY_BYTES", 600_000)
    assert save(client, scenario, big_workload(1, 200_000)).status_code == 200  # ~400 kB stored
    refused = save(client, scenario, big_workload(2, 200_000))
    assert refused.status_code == 422
    assert "its versions keep at most 585.938 KiB of YAML. Fork it to go on" in refused.content.decode()


def test_act_takes_an_edit_token_too(editor, settings):
    client, scenario = editor
    settings.RATE_LIMITS = {"edit": Limit(burst=1, per_minute=1, what="edits")}
    save(client, scenario, POD)  # the one edit this client may make now
    scenario.refresh_from_db()
    act = client.post(
        reverse("act", args=[scenario.slug]),
        {"op": "cordon", "target": "Node/worker1", "at": "5", "version": scenario.version},
        headers=HTMX,
    )
    assert act.status_code == 429 and "Too many edits from your address" in act.content.decode()
