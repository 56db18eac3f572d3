"""An import tells how far it has come (playground/import_progress.py): against a real Daphne
process, a file sent slowly is seen arriving, then read, phase after phase, and the import lands."""

import http.client
import json
import re
import secrets
import threading
import time
import urllib.parse

import pytest

from playground import import_progress
from tests.servers import DaphneServer, HttpClient, create_scenario, multipart
from tests.web.conftest import ON_POSTGRES
from tests.web.kubectl_output import node_name, nodes_yaml

SCENARIO = """apiVersion: playground/v1
kind: Scenario
title: "Import progress"
---
apiVersion: v1
kind: Node
metadata: {name: node-0}
status: {capacity: {cpu: '4', memory: 16Gi, pods: '110'}}
"""


def slow_post(client: HttpClient, path: str, body: bytes, content_type: str, token: str) -> tuple[int, str]:
    """Posts as the import form does, in 20 pieces a tenth of a second apart."""
    url = urllib.parse.urlparse(client.base)
    cookies = {cookie.name: cookie.value for cookie in client.jar}
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    connection.putrequest("POST", path)
    for name, value in {
        "Content-Type": content_type,
        "Content-Length": str(len(body)),
        "Cookie": "; ".join(f"{name}={value}" for name, value in cookies.items()),
        "X-CSRFToken": cookies["csrftoken"],
        "Referer": client.base + "/",
        "HX-Request": "true",
        import_progress.TOKEN_HEADER: token,
    }.items():
        connection.putheader(name, value)
    connection.endheaders()
    step = len(body) // 20 + 1
    for start in range(0, len(body), step):
        connection.send(body[start : start + step])
        time.sleep(0.1)
    response = connection.getresponse()
    return response.status, response.read().decode()


@pytest.mark.django_db(transaction=ON_POSTGRES)
def test_an_import_is_seen_arriving_then_read_then_saved(live_server_process: DaphneServer):
    server = live_server_process
    links = create_scenario(server.env, SCENARIO)
    editor = HttpClient(server.url)
    editor.get(links["edit"])
    slug = links["slug"]
    version = re.search(r'id="board" class="board[^"]*" data-version="(\d+)"', editor.get(f"/s/{slug}")).group(1)
    body, content_type = multipart({"version": version}, {"nodes_file": ("nodes.yaml", nodes_yaml(3000).encode())})
    token = secrets.token_hex(16)
    answer: list[tuple[int, str]] = []
    sender = threading.Thread(
        target=lambda: answer.append(slow_post(editor, f"/s/{slug}/import", body, content_type, token))
    )
    sender.start()
    seen: list[dict] = []
    watcher = HttpClient(server.url)  # another tab: the progress is not the editor's secret
    while sender.is_alive():
        progress = json.loads(watcher.get(f"/s/{slug}/import/progress/{token}"))
        if progress["phase"] and (not seen or progress != seen[-1]):
            seen.append(progress)
        time.sleep(0.02)  # reading 3,000 nodes takes a few tenths of a second on a fast machine
    sender.join()

    status, page = answer[0]
    assert status == 200, page[:500]
    assert f'data-version="{int(version) + 1}"' in page and node_name(2999) in page  # the board, imported
    phases = [step["phase"] for step in seen]
    assert "sending" in phases and "nodes" in phases, seen
    assert phases == sorted(phases, key=import_progress.PHASES.index)  # never back to an earlier phase
    overall = [step["overall"] for step in seen]
    assert overall == sorted(overall) and 0 < overall[0] < overall[-1] <= 1
    assert any(0 < step["done"] < 1 for step in seen if step["phase"] == "sending")  # seen arriving
    assert {step["label"] for step in seen} <= set(import_progress.LABELS.values())
    assert json.loads(watcher.get(f"/s/{slug}/import/progress/{token}")) == {"phase": None}  # over: forgotten


def test_progress_is_kept_for_valid_tokens_only_and_bounded(monkeypatch):
    assert import_progress.valid_token("short") is None
    assert import_progress.valid_token("../../etc/passwd") is None
    assert import_progress.valid_token(b"0123456789abcdef") == "0123456789abcdef"
    monkeypatch.setattr(import_progress, "MAX_ENTRIES", 3)
    for index in range(5):
        import_progress.report(f"token-{index:04d}", "nodes", 0.5)
    assert import_progress.read("token-0000") is None and import_progress.read("token-0001") is None
    assert import_progress.read("token-0004") is not None
    monkeypatch.setattr(import_progress, "TTL_SECONDS", 0.0)
    assert import_progress.read("token-0004") is None


def test_a_reporter_records_steps_not_every_call():
    token = "reporter-" + secrets.token_hex(4)
    told = import_progress.reporter(token, "pods", step=0.1)
    told(0.05)
    assert import_progress.read(token).done == 0.05  # the first call always counts
    told(0.1)
    assert import_progress.read(token).done == 0.05
    told(0.2)
    told(1.0)
    progress = import_progress.read(token)
    assert progress.done == 1.0 and progress.overall == 0.75  # pods is the third of four phases
    import_progress.forget(token)
