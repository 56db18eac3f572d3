"""`kubectl describe node` in the node detail (issue #16, item 7): at the scenario's state with the
node's card, and at the player's event of a run (views.running.describe_node_at)."""

import html
import re

import pytest
from django.urls import reverse

from playground import preview, run_replay, run_states
from playground.management.commands.load_gallery import GALLERY_DIR, split_gallery_file
from playground.models import Run
from playground.runs import execute
from playground.scenarios import create_scenario, snapshot
from tests.web.stored_events import events_with_reason

pytestmark = pytest.mark.django_db

CAPACITY = {"cpu": "2", "memory": "4Gi", "pods": "110"}
NODES = [
    {"name": "n1", "labels": {"node-role.kubernetes.io/infra": ""}, "capacity": CAPACITY},
    {"name": "n2", "capacity": CAPACITY},
]
WORKLOAD = """\
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  nodeName: n1
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m, memory: 256Mi}, limits: {cpu: 500m}}}]
"""


def rows(page: str, table: str) -> list[list[str]]:
    """The cells of each body row of one of the describe tables, as text."""
    body = re.search(rf'<table class="describe-table {table}".*?<tbody>(.*?)</tbody>', page, re.S)
    assert body, table
    return [
        [html.unescape(re.sub(r"<[^>]+>", "", cell)) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body.group(1), re.S)
    ]


def gallery_run(file_name: str) -> tuple:
    header, nodes, workload = split_gallery_file((GALLERY_DIR / file_name).read_text())
    scenario, _ = create_scenario(header["title"], nodes=nodes, workload_yaml=workload)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    execute(run, publish=lambda slug, run_id, events: None)
    return scenario, run


def test_the_node_detail_describes_the_node_at_the_scenarios_state(client):
    scenario, _ = create_scenario("describe", nodes=NODES, workload_yaml=WORKLOAD)
    assert preview.preview(snapshot(scenario).cluster_document, wait=60).ready
    page = client.get(reverse("board", args=[scenario.slug]), {"node": "n1", "view": "cards"}).content.decode()
    assert "<code>kubectl describe node n1</code>" in page
    assert "at the scenario’s state (t=0s)" in page
    assert "<dt>Roles</dt><dd>infra</dd>" in page
    assert rows(page, "describe-conditions")[-1] == [
        "Ready", "True", "t=0s", "t=0s", "KubeletReady", "kubelet is posting ready status",
    ]  # fmt: skip
    assert "Non-terminated Pods: (1 in total)" in page
    assert rows(page, "describe-pods") == [
        ["default", "web", "100m (5%)", "500m (25%)", "256Mi (6%)", "0 (0%)", "0s"],
    ]
    assert rows(page, "describe-allocated")[:2] == [
        ["cpu", "100m (5%)", "500m (25%)"],
        ["memory", "256Mi (6%)", "0 (0%)"],
    ]
    assert ["pods", "110", "110"] in rows(page, "describe-resources")
    assert "Events: &lt;none&gt;" in page
    # The run's slot waits, hidden, for node-describe.js to fill it when a run is watched.
    assert '<div data-describe-slot="run" id="node-describe-run" hidden>' in page


def test_a_node_under_memory_pressure_at_the_players_event(client):
    scenario, run = gallery_run("110-memory-pressure-qos.yaml")
    url = reverse("describe-node", args=[scenario.slug, run.pk])
    evicted = events_with_reason(run, "Evicted")[0]
    page = client.get(url, {"node": "worker1", "seq": evicted.seq}).content.decode()
    assert "<code>kubectl describe node worker1</code>" in page and f"at event {evicted.seq}, t=10s" in page
    assert rows(page, "describe-conditions")[0] == [
        "MemoryPressure", "True", "t=10s", "t=10s", "KubeletHasInsufficientMemory",
        "kubelet has insufficient memory available",
    ]  # fmt: skip
    assert 'data-describe-event="NodeHasInsufficientMemory"' in page
    assert "<dd>node.kubernetes.io/memory-pressure:NoSchedule</dd>" in page
    # Before the eviction manager's first tick, no pressure yet.
    before = client.get(url, {"node": "worker1", "seq": 1}).content.decode()
    assert rows(before, "describe-conditions")[0][:2] == ["MemoryPressure", "False"]


def test_a_downed_node_is_unknown_from_the_controllers_event_on(client):
    scenario, run = gallery_run("100-node-down.yaml")
    url = reverse("describe-node", args=[scenario.slug, run.pk])
    not_ready = next(
        e for e in events_with_reason(run, "NodeNotReady") if e.payload["event"]["object"] == "Node/worker1"
    )
    page = client.get(url, {"node": "worker1", "seq": not_ready.seq}).content.decode()
    conditions = rows(page, "describe-conditions")
    assert {(row[1], row[4], row[5]) for row in conditions} == {
        ("Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status.")
    }
    assert [row[3] for row in conditions] == ["t=80s"] * 4  # down at 30 s, 50 s of grace
    assert "node.kubernetes.io/unreachable:NoExecute" in page
    earlier = client.get(url, {"node": "worker1", "seq": not_ready.seq - 1}).content.decode()
    assert rows(earlier, "describe-conditions")[-1][:2] == ["Ready", "True"]


def test_the_same_answer_from_a_kept_run_and_from_a_replay(client):
    scenario, run = gallery_run("100-node-down.yaml")
    url = reverse("describe-node", args=[scenario.slug, run.pk])
    seq = events_with_reason(run, "NodeNotReady")[0].seq
    run_states.clear()  # not kept: a replay up to the event (a short run: inline)
    replayed = client.get(url, {"node": "worker2", "seq": seq}).content.decode()
    run_replay.replay(run, 10**9)  # a replay to the end keeps the run's states in this process
    assert run_states.finished_run(run_replay.state_key(run)) is not None
    kept = client.get(url, {"node": "worker2", "seq": seq}).content.decode()
    assert replayed == kept


def test_a_node_not_there_and_a_run_gone(client):
    scenario, run = gallery_run("100-node-down.yaml")
    url = reverse("describe-node", args=[scenario.slug, run.pk])
    missing = client.get(url, {"node": "nope", "seq": 3})
    assert missing.status_code == 200
    assert 'Error from server (NotFound): nodes "nope" not found at event 3.' in html.unescape(missing.content.decode())
    gone = client.get(reverse("describe-node", args=[scenario.slug, run.pk + 1000]), {"node": "worker1", "seq": 1})
    assert gone.status_code == 404 and "no longer exists" in gone.content.decode()


def test_the_run_panel_names_where_the_node_detail_asks(client):
    scenario, run = gallery_run("100-node-down.yaml")
    page = client.get(reverse("scenario", args=[scenario.slug]), {"run": run.pk}).content.decode()
    assert f'data-describe-node-url="{reverse("describe-node", args=[scenario.slug, run.pk])}"' in page
    assert "js/node-describe." in page


def test_before_the_first_event_the_node_is_described_as_at_the_first(client):
    """Position 0 (before the run's first event) is the store before anything was loaded: the
    panel answers as at event 1, as an explanation does."""
    scenario, run = gallery_run("100-node-down.yaml")
    url = reverse("describe-node", args=[scenario.slug, run.pk])
    at_zero = client.get(url, {"node": "worker1", "seq": 0}).content.decode()
    assert "not found" not in at_zero
    assert at_zero == client.get(url, {"node": "worker1", "seq": 1}).content.decode()
