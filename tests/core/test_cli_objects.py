"""`simulate -o json` ends with "objects": every object of the state it reports, as Kubernetes
manifests any tool (and the engine's own parser) can read."""

import json

from scheduler_core.api.manifests import load_manifests
from tests.core.test_cli import DATA, run


def simulate_json(*argv: str) -> dict:
    status, out, err = run("simulate", *argv, "-o", "json")
    assert status == 0, err
    return json.loads(out)


def test_objects_follow_the_events_and_keep_every_earlier_key():
    report = simulate_json("-f", str(DATA / "svc_spread.yaml"))
    assert list(report) == ["time", "nodes", "pods", "services", "events", "objects"]
    objects = report["objects"]
    assert all(list(obj)[:3] == ["apiVersion", "kind", "metadata"] for obj in objects)
    order = [(obj["kind"], obj["metadata"].get("namespace", ""), obj["metadata"]["name"]) for obj in objects]
    assert order == sorted(order)
    pods = [obj for obj in objects if obj["kind"] == "Pod"]
    assert [(p["metadata"]["namespace"], p["metadata"]["name"]) for p in pods] == [
        (p["namespace"], p["name"]) for p in report["pods"]
    ]
    assert [p["status"]["phase"] for p in pods] == [p["phase"] for p in report["pods"]]
    assert {obj["kind"] for obj in objects} >= {"Node", "Pod", "Service", "Ingress"}


def test_the_objects_read_back_with_the_engines_parser():
    report = simulate_json("-f", str(DATA / "sim_basic.yaml"))
    text = json.dumps({"apiVersion": "v1", "kind": "List", "items": report["objects"]})
    read = load_manifests(text)
    assert [(m.kind, m.object.metadata.name) for m in read] == [
        (obj["kind"], obj["metadata"]["name"]) for obj in report["objects"]
    ]


def test_at_an_event_the_objects_are_the_state_at_that_event():
    whole = simulate_json("-f", str(DATA / "sim_basic.yaml"))
    first = simulate_json("-f", str(DATA / "sim_basic.yaml"), "--at-event", "1")
    assert len(first["events"]) == 1
    pods = [(obj["metadata"]["name"], obj["status"]["phase"]) for obj in first["objects"] if obj["kind"] == "Pod"]
    assert pods == [(p["name"], p["phase"]) for p in first["pods"]]
    assert first["objects"] != whole["objects"]


def test_jsonl_and_events_carry_no_objects():
    status, out, _ = run("simulate", "-f", str(DATA / "sim_basic.yaml"), "-o", "jsonl")
    assert status == 0
    assert all("objects" not in json.loads(line) for line in out.splitlines())
    assert '"objects"' not in out
    status, out, _ = run("simulate", "-f", str(DATA / "sim_basic.yaml"), "-o", "events")
    assert status == 0 and "apiVersion" not in out
