import pytest
from django.urls import reverse

from playground import run_frames
from playground.change_deltas import expand
from playground.compare import BIN_PACKING_YAML
from playground.models import Run
from playground.runs import execute
from playground.scenarios import create_scenario, snapshot

pytestmark = pytest.mark.django_db

POD = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: c, image: nginx}]\n"


def run_now(scenario, published):
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    execute(run, publish=lambda slug, run_id, events: published.extend(events))
    run.refresh_from_db()
    return run


def test_a_run_stores_every_event_with_the_changes_that_led_to_it():
    scenario, _ = create_scenario("run", workload_yaml=POD)
    published: list[dict] = []
    run = run_now(scenario, published)
    assert run.status == Run.Status.FINISHED
    events = list(run.events.order_by("seq").values_list("seq", "payload"))
    assert [seq for seq, _ in events] == list(range(1, len(events) + 1))
    first = events[0][1]
    assert first["event"]["reason"] == "Scheduled"
    ops = {change["op"] for change in first["changes"]}
    assert ops == {"node", "pod"}  # the nodes appear, and the pod bound to its node
    bound = next(c for c in first["changes"] if c["op"] == "pod")
    assert bound["node"] == first["event"]["message"].rsplit(" ", 1)[1]
    assert events[-1][1]["event"] is None and "end" in events[-1][1]  # the closing frame
    assert [e["seq"] for e in published] == [seq for seq, _ in events]  # streamed as stored


def test_frames_carry_what_the_per_node_bars_need():
    nodes = [{"name": "n1", "labels": {}, "taints": [], "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}}]
    sized = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: sized}\nspec:\n"
        "  initContainers: [{name: i, image: x, resources: {requests: {cpu: '2'}}}]\n"
        "  containers: [{name: c, image: x, resources: {requests: {cpu: 500m, memory: 1Gi}}}]\n"
    )
    scenario, _ = create_scenario("sized", nodes=nodes, workload_yaml=sized)
    run = run_now(scenario, [])
    changes = run.events.get(seq=1).payload["changes"]
    pod = next(c for c in changes if c["op"] == "pod")
    # The effective request: the init container's 2 CPUs outweigh the app container's 500m.
    assert pod["requests"] == {"cpu": 2000, "memory": 1024**3}
    node = next(c for c in changes if c["op"] == "node")
    assert node["allocatable"] == {"cpu": 4000, "memory": 8 * 1024**3, "pods": 110}


def test_a_run_of_an_invalid_version_fails_with_the_parsers_message():
    scenario, _ = create_scenario("bad")
    scenario.workload_yaml = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}], bogus: 1}\n"
    )
    scenario.version += 1  # as every edit does
    scenario.save()
    run = run_now(scenario, [])
    assert run.status == Run.Status.FAILED
    assert 'unknown field "spec.bogus"' in run.error


def test_anyone_with_the_view_link_can_start_a_run(client):
    scenario, _ = create_scenario("public", workload_yaml=POD)
    response = client.post(reverse("start-run", args=[scenario.slug]), headers={"HX-Request": "true"})
    assert response.status_code == 201
    run = Run.objects.get()
    assert f'data-run-id="{run.pk}"' in response.content.decode()
    page = client.get(reverse("scenario", args=[scenario.slug]) + f"?run={run.pk}")
    assert f'data-run-id="{run.pk}"' in page.content.decode()  # a reload comes back to the run


def test_explaining_a_pending_pod_at_an_event_gives_the_engines_verdicts(client):
    control_plane_taint = {"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}
    nodes = [
        {"name": "cp", "labels": {}, "taints": [control_plane_taint], "capacity": {"cpu": "8", "memory": "16Gi"}},
        {"name": "w1", "labels": {}, "taints": [], "capacity": {"cpu": "2", "memory": "4Gi", "pods": "110"}},
    ]
    big = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: big}\nspec:\n"
        "  containers: [{name: c, image: x, resources: {requests: {cpu: '3'}}}]\n"
    )
    scenario, _ = create_scenario("pending", nodes=nodes, workload_yaml=big)
    run = run_now(scenario, [])
    url = reverse("explain-pod", args=[scenario.slug, run.pk])
    page = client.get(url, {"pod": "default/big", "seq": 1}).content.decode()
    assert "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint" in page
    assert "TaintToleration" in page and "NodeResourcesFit" in page
    # When it is tried again: each rejecting plugin's changes (its queueing hints), by plugin.
    assert 'data-testid="retried-when"' in page
    assert 'data-retry-plugin="NodeResourcesFit"' in page and 'data-retry-plugin="TaintToleration"' in page
    missing = client.get(url, {"pod": "default/ghost", "seq": 1})
    assert missing.status_code == 404
    assert b"no Pod default/ghost" in missing.content


def test_acting_during_a_run_appends_an_action_and_runs_again(client):
    client.post(reverse("new-scenario"))
    from playground.models import Scenario

    scenario = Scenario.objects.get()
    scenario_url = reverse("start-run", args=[scenario.slug])
    first = client.post(scenario_url, headers={"HX-Request": "true"})
    assert first.status_code == 201
    run = Run.objects.get()
    data = {"version": scenario.version, "run": run.pk, "at": "12.5", "op": "taint", "target": "Node/worker1",
            "value": "maintenance=true:NoExecute"}  # fmt: skip
    response = client.post(reverse("act", args=[scenario.slug]), data, headers={"HX-Request": "true"})
    assert response.status_code == 201, response.content[:400]
    scenario.refresh_from_db()
    assert "op: taint" in scenario.workload_yaml and "at: 12.5s" in scenario.workload_yaml
    assert Run.objects.count() == 2
    assert 'data-start-at="12.5"' in response.content.decode()
    bad = client.post(
        reverse("act", args=[scenario.slug]), data | {"version": scenario.version, "value": "x:Sometimes"}
    )
    assert bad.status_code == 422
    assert b"Unsupported value" in bad.content


def test_viewers_cannot_act(client):
    from django.test import Client

    scenario, _ = create_scenario("view only")
    response = Client().post(
        reverse("act", args=[scenario.slug]), {"version": 1, "op": "cordon", "target": "Node/worker1"}
    )
    assert response.status_code == 403


@pytest.mark.parametrize(("config", "nodes_used"), [("", 2), (BIN_PACKING_YAML, 1)])
def test_a_version_with_a_scheduler_configuration_runs_under_it(config, nodes_used):
    nodes = [
        {"name": name, "labels": {}, "taints": [], "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}}
        for name in ("n1", "n2")
    ]
    pods = "---\n".join(
        f"apiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}}}\n"
        "spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 500m, memory: 1Gi}}}]}\n"
        for i in range(2)
    )
    scenario, _ = create_scenario("configured", nodes=nodes, workload_yaml=pods, scheduler_config_yaml=config)
    run = run_now(scenario, [])
    assert run.status == Run.Status.FINISHED, run.error
    assert ("KubeSchedulerConfiguration" in run.version.document) == bool(config)  # exported with it
    events = [payload["event"] for payload in run.events.values_list("payload", flat=True) if payload["event"]]
    chosen = {event["message"].rsplit(" ", 1)[1] for event in events if event["reason"] == "Scheduled"}
    assert len(chosen) == nodes_used


def test_a_change_without_an_event_gets_a_frame_at_its_own_time():
    # Readiness has no event of its own: the pod turns Ready 5 s after it started, and nothing
    # else happens until the scenario's action at 60 s.
    probed = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: probed}\n"
        "spec: {containers: [{name: c, image: x, readinessProbe: {initialDelaySeconds: 5}}]}\n"
        "---\napiVersion: playground/v1\nkind: Action\nspec: {at: 60s, op: cordon, target: Node/worker1}\n"
    )
    scenario, _ = create_scenario("ticks", workload_yaml=probed)
    run = run_now(scenario, [])
    payloads = list(expand(run.events.order_by("seq").values_list("payload", flat=True)))
    assert all("time" in payload for payload in payloads)
    assert [payload["time"] for payload in payloads] == sorted(payload["time"] for payload in payloads)
    ready_at = next(payload for payload in payloads if any(c["op"] == "pod" and c["ready"] for c in payload["changes"]))
    assert ready_at["event"] is None and "end" not in ready_at  # a frame of its own
    started = next(p for p in payloads if p["event"] and p["event"]["reason"] == "Started")
    assert ready_at["time"] == started["time"] + 5


@pytest.mark.parametrize(
    ("op", "value", "written"),
    [("label", "disk=ssd", "labels:\n    disk: ssd"), ("unlabel", "disk", "keys:\n  - disk")],
)
def test_labels_can_be_acted_on_during_a_run(client, op, value, written):
    client.post(reverse("new-scenario"))
    from playground.models import Scenario

    scenario = Scenario.objects.get()
    client.post(reverse("start-run", args=[scenario.slug]), headers={"HX-Request": "true"})
    data = {"version": scenario.version, "run": Run.objects.get().pk, "at": "3", "op": op,
            "target": "Node/worker1", "value": value}  # fmt: skip
    response = client.post(reverse("act", args=[scenario.slug]), data, headers={"HX-Request": "true"})
    assert response.status_code == 201, response.content[:400]
    scenario.refresh_from_db()
    assert f"op: {op}" in scenario.workload_yaml and written in scenario.workload_yaml


def test_the_first_batch_leaves_once_its_frames_carry_enough_changes(monkeypatch):
    """A big cluster's first event comes after frames of node changes: they go at once, not with
    the first FIRST_BATCH_SIZE events."""
    from playground import runs

    monkeypatch.setattr(run_frames, "MAX_FRAME_CHANGE_CHARS", 4096)  # a few nodes' changes a frame
    monkeypatch.setattr(runs, "FIRST_BATCH_CHANGES", 30)
    nodes = [
        {"name": f"n{index}", "labels": {}, "taints": [], "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}}
        for index in range(120)
    ]
    scenario, _ = create_scenario("first batch", nodes=nodes, workload_yaml=POD)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    batches: list[list[dict]] = []
    execute(run, publish=lambda slug, run_id, events: batches.append(events))
    first = batches[0]
    assert len(first) < runs.FIRST_BATCH_SIZE
    assert 30 <= sum(len(frame["changes"]) for frame in first) < 30 + 4096 // 100
    assert all(frame["event"] is None for frame in first)  # node changes, before the first event
    assert [frame["seq"] for batch in batches for frame in batch] == list(range(1, sum(map(len, batches)) + 1))
