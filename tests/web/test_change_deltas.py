import json

import pytest

from playground.change_deltas import DeltaEncoder, expand
from playground.management.commands.load_gallery import GALLERY_DIR, split_gallery_file
from playground.run_frames import RunFrames, same_frame
from playground.run_simulations import run_options
from playground.scenarios import create_scenario, snapshot
from scheduler_core.api.manifests import load_manifests
from scheduler_core.simulation.simulation import Simulation


def pod(name: str, **fields: object) -> dict[str, object]:
    return {"op": "pod", "key": f"default/{name}", "name": name, "node": None, "phase": "Pending", **fields}


def frame(*changes: dict[str, object]) -> dict[str, object]:
    return {"event": None, "time": 0.0, "changes": list(changes)}


def test_a_later_change_carries_only_its_identity_and_what_differs():
    encoder = DeltaEncoder()
    first = encoder.encode(frame(pod("a"), {"op": "node", "name": "n1", "labels": {"zone": "a"}}))
    assert first["changes"] == [pod("a"), {"op": "node", "name": "n1", "labels": {"zone": "a"}}]
    later = encoder.encode(frame(pod("a", node="n1"), {"op": "node", "name": "n1", "labels": {"zone": "b"}}))
    assert later["changes"] == [
        {"op": "pod~", "key": "default/a", "node": "n1"},
        {"op": "node~", "name": "n1", "labels": {"zone": "b"}},
    ]
    same = encoder.encode(frame(pod("a", node="n1")))
    assert same["changes"] == [{"op": "pod~", "key": "default/a"}]  # sent again, nothing changed


def test_workloads_are_told_apart_by_kind_and_key():
    encoder = DeltaEncoder()
    deployment = {"op": "workload", "kind": "Deployment", "key": "default/web", "ready": 0}
    replica_set = {"op": "workload", "kind": "ReplicaSet", "key": "default/web", "ready": 0}
    encoder.encode(frame(deployment))
    assert encoder.encode(frame(replica_set))["changes"] == [replica_set]  # another object: whole
    assert encoder.encode(frame({**replica_set, "ready": 2}))["changes"] == [
        {"op": "workload~", "kind": "ReplicaSet", "key": "default/web", "ready": 2}
    ]


def test_after_a_deletion_or_with_other_fields_the_change_is_whole_again():
    encoder = DeltaEncoder()
    encoder.encode(frame(pod("a")))
    assert encoder.encode(frame({"op": "pod-", "key": "default/a"}))["changes"] == [{"op": "pod-", "key": "default/a"}]
    assert encoder.encode(frame(pod("a", node="n2")))["changes"] == [pod("a", node="n2")]  # a new pod, same name
    with_countdown = pod("a", node="n2", evictAt=30.0)
    assert encoder.encode(frame(with_countdown))["changes"] == [with_countdown]


def test_expanding_gives_back_every_frame_whole():
    whole = [
        frame(pod("a"), pod("b")),
        frame(pod("a", node="n1")),
        frame({"op": "pod-", "key": "default/b"}, pod("a", node="n1", phase="Running")),
        frame(pod("b", node="n2")),
    ]
    encoder = DeltaEncoder()
    stored = json.loads(json.dumps([encoder.encode(item) for item in whole]))  # as the database holds it
    assert stored[2]["changes"][1] == {"op": "pod~", "key": "default/a", "phase": "Running"}
    assert list(expand(stored)) == whole


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["045-topology-spread", "080-drain-with-pdb", "190-preemption", "050-rolling-update"])
def test_a_gallery_runs_frames_are_smaller_and_expand_to_the_frames_the_engine_made(name):
    header, nodes, workload = split_gallery_file((GALLERY_DIR / f"{name}.yaml").read_text())
    scenario, _ = create_scenario(header["title"], nodes=nodes, workload_yaml=workload)
    manifests = load_manifests(snapshot(scenario).cluster_document, source="scenario")
    run_frames = RunFrames(Simulation(manifests, seed=0, options=run_options(manifests)))
    stored, whole = [], []
    for item in run_frames:
        stored.append(json.loads(json.dumps(item)))
        whole.append(json.loads(json.dumps(run_frames.whole)))
    assert list(expand(stored)) == whole
    assert any(change["op"].endswith("~") for item in stored for change in item["changes"])
    assert len(json.dumps(stored)) < len(json.dumps(whole))


def test_a_stored_frame_matches_its_replay_stored_either_way_and_nothing_else():
    encoder = DeltaEncoder()
    encoder.encode(frame(pod("a")))
    whole = frame(pod("a", node="n1"))
    compact = encoder.encode(whole)
    assert compact != whole
    as_stored = json.loads(json.dumps(compact))
    assert same_frame(as_stored, compact, whole)  # a run stored with deltas
    assert same_frame(json.loads(json.dumps(whole)), compact, whole)  # one stored before them
    assert not same_frame(json.loads(json.dumps(frame(pod("a", node="n2")))), compact, whole)
