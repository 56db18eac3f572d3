"""Every event is a frame: a run's stored frames move the board by exactly one event each, a replay
to frame N is exactly the cluster those frames build, and the explanation at event N sees only
what had happened by then."""

import json
import random
import re
from typing import Any

import pytest

from playground import run_frames, run_replay, run_simulations, run_states
from playground.change_deltas import expand
from playground.management.commands.load_gallery import GALLERY_DIR, split_gallery_file
from playground.models import Run
from playground.run_replay import replay
from playground.runs import execute
from playground.scenarios import create_scenario, snapshot
from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Node, Pod
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.simulation.state import cluster_state
from scheduler_core.store.cluster import Cluster
from scheduler_core.store.event_correlation import recorded
from tests.core.controllers.node_health_helpers import DATA

pytestmark = pytest.mark.django_db

SPREAD = "045-topology-spread"  # six replicas placed at t=0, spread over two zones of two nodes
ANTI_AFFINITY = "040-ha-spread-services"  # three replicas at t=0, one per node (required anti-affinity)
SCHEDULED = re.compile(r"Successfully assigned (\S+) to (\S+)")


def gallery_run(name: str) -> Run:
    header, nodes, workload = split_gallery_file((GALLERY_DIR / f"{name}.yaml").read_text())
    scenario, _ = create_scenario(header["title"], nodes=nodes, workload_yaml=workload)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    execute(run, publish=lambda *args: None)
    run.refresh_from_db()
    assert run.status == Run.Status.FINISHED, run.error
    return run


def stored_frames(run: Run) -> list[dict[str, Any]]:
    """The run's frames as the page holds them: stored, then with each change whole again."""
    return list(expand(run.events.order_by("seq").values_list("payload", flat=True)))


class Board:
    """The cluster as the player rebuilds it from frames (static/js/run-player.js: the last frame of
    a pod or node wins, "pod-" and "node-" remove it)."""

    def __init__(self) -> None:
        self.pods: dict[str, dict[str, Any]] = {}
        self.nodes: dict[str, dict[str, Any]] = {}

    def apply(self, frame: dict[str, Any]) -> None:
        for change in frame["changes"]:
            if change["op"] == "pod":
                self.pods[change["key"]] = change
            elif change["op"] == "pod-":
                self.pods.pop(change["key"], None)
            elif change["op"] == "node":
                self.nodes[change["name"]] = change
            elif change["op"] == "node-":
                self.nodes.pop(change["name"], None)

    def state(self) -> dict[str, Any]:
        return {
            "pods": {key: pod_fields(pod) for key, pod in self.pods.items()},
            "nodes": {name: node_fields(node) for name, node in self.nodes.items()},
        }


def pod_fields(pod: dict[str, Any]) -> tuple[Any, ...]:
    return (pod["node"], pod["phase"], pod["ready"], pod["deleting"], pod["nominated"])


def node_fields(node: dict[str, Any]) -> tuple[Any, ...]:
    return (node["unschedulable"], node["ready"], node["taints"], node["labels"])


def state_of(cluster: Cluster) -> dict[str, Any]:
    """The same fields, from a store (the frames' own functions, as the run stored them)."""
    return {
        "pods": {pod.key: pod_fields(run_frames.pod_frame(pod)) for pod in cluster.objects(Pod)},
        "nodes": {node.name: node_fields(run_frames.node_frame(node)) for node in cluster.objects(Node)},
    }


def bindings(board: Board, frame: dict[str, Any]) -> dict[str, str]:
    """The pods the frame moves onto a node: key -> node."""
    moved = {}
    for change in frame["changes"]:
        if change["op"] == "pod" and change["node"]:
            before = board.pods.get(change["key"])
            if before is None or before["node"] != change["node"]:
                moved[change["key"]] = change["node"]
    return moved


# ---------------------------------------------------------------------------- stepping


def test_stepping_through_pods_placed_at_once_places_one_pod_per_scheduled_event():
    frames = stored_frames(gallery_run(SPREAD))
    board = Board()
    scheduled = 0
    for frame in frames:
        event = frame["event"]
        moved = bindings(board, frame)
        if event and event["reason"] == "Scheduled":
            scheduled += 1
            pod, node = SCHEDULED.match(event["message"]).groups()
            assert moved == {pod: node}, frame  # that pod, on that node, and no other pod moves
        else:
            assert moved == {}, frame  # nothing is placed but by its Scheduled event
        board.apply(frame)
    assert scheduled == 6
    assert sum(1 for frame in frames if frame["time"] == 0.0 and frame["event"]) > 6


def test_the_scale_up_event_comes_before_the_pods_it_leads_to():
    frames = stored_frames(gallery_run(SPREAD))
    first = frames[0]
    assert first["event"]["reason"] == "ScalingReplicaSet"
    assert not [change for change in first["changes"] if change["op"] == "pod"]  # no pod yet, let alone placed
    created = [frame for frame in frames if frame["event"] and frame["event"]["reason"] == "SuccessfulCreate"]
    assert len(created) == 6
    for frame in created:  # each "Created pod: X" brings X, Pending and on no node
        (pod,) = [change for change in frame["changes"] if change["op"] == "pod"]
        assert frame["event"]["message"] == f"Created pod: {pod['name']}" and pod["node"] is None


def test_changes_after_an_instants_last_event_get_a_frame_of_their_own_at_that_time():
    frames = stored_frames(gallery_run(SPREAD))
    eventless = [frame for frame in frames if frame["event"] is None and "end" not in frame]
    assert eventless
    for frame in eventless:
        assert frame["changes"]
        # The next frame happens later (or closes the run): changes held for an event at the same
        # time would ride with it.
        following = frames[frames.index(frame) + 1]
        assert following["time"] > frame["time"] or "end" in following
    started = [frame for frame in frames if frame["event"] and frame["event"]["reason"] == "Started"]
    last_started = frames.index(started[-1])
    # The kubelet reports the last pod Running after its Started event: the frame after it shows it.
    after = frames[last_started + 1]
    assert after["event"] is None and after["time"] == started[-1]["time"]
    assert any(change["op"] == "pod" and change["phase"] == "Running" for change in after["changes"])
    assert "end" in frames[-1] and frames[-1]["event"] is None


def test_a_deployments_frames_carry_its_conditions_up_to_a_missed_progress_deadline():
    """Issue #16, item 7: the rollout view reads status.conditions off the Deployment's frames; a
    rollout stuck on a pod that fits nowhere ends, 31 s on, with ProgressDeadlineExceeded."""
    text = (DATA / "deploy_progress_deadline.yaml").read_text()
    manifests = load_manifests(text, source="scenario")
    frames = list(expand(run_frames.RunFrames(Simulation(manifests, seed=0))))
    deployment = [c for f in frames for c in f["changes"] if c["op"] == "workload" and c["kind"] == "Deployment"]
    assert ["Progressing", "True", "ReplicaSetUpdated"] in [c[:3] for c in deployment[-2]["conditions"]]
    last = deployment[-1]["conditions"]
    assert [condition[:3] for condition in last] == [
        ["Available", "False", "MinimumReplicasUnavailable"],
        ["Progressing", "False", "ProgressDeadlineExceeded"],
    ]
    assert last[1][3].endswith("has timed out progressing.")
    assert frames[-1]["end"] == pytest.approx(31.005)


def test_a_run_is_framed_the_same_every_time():
    run = gallery_run(SPREAD)
    again = list(run_frames.frames(Simulation(load_manifests(run.version.cluster_document), seed=0)))
    assert json.loads(json.dumps(again)) == list(run.events.order_by("seq").values_list("payload", flat=True))


# ---------------------------------------------------------------------------- replaying


@pytest.mark.parametrize(
    ("name", "every"),
    [(SPREAD, 1), ("080-drain-with-pdb", 3), ("190-preemption", 2), ("090-noexecute-taint", 1)],
)
def test_a_replay_to_a_frame_is_the_cluster_the_frames_up_to_it_build(name, every):
    run = gallery_run(name)
    frames = stored_frames(run)
    board = Board()
    sampled = set(range(1, len(frames) + 1, every)) | {len(frames) - 1, len(frames)}
    for seq, frame in enumerate(frames, start=1):
        board.apply(frame)
        if seq in sampled:
            replayed = replay(run, seq)
            assert state_of(replayed.cluster) == board.state(), f"frame {seq}: {frame['event']}"
            assert replayed.time == frame["time"]
            if frame["event"]:
                assert replayed.cluster.events[-1].as_dict() == recorded(frame["event"])


def test_a_replay_to_an_event_is_the_engines_cluster_at_that_event():
    run = gallery_run(SPREAD)
    frames = stored_frames(run)
    for seq in (4, 9, 14):
        event = frames[seq - 1]["event"]
        engine = Simulation(load_manifests(run.version.cluster_document), seed=0).cluster_at_event(event["seq"])
        assert engine is not None
        assert cluster_state(replay(run, seq).cluster, event["time"]) == cluster_state(engine, event["time"])


# ---------------------------------------------------------------------------- explaining


def first_scheduled(frames: list[dict[str, Any]]) -> tuple[int, str, list[str]]:
    """The first Scheduled frame's seq, the node it places its pod on, and the pods scheduled after
    it at its time (Pending at that frame)."""
    placed = [
        (seq, *SCHEDULED.match(frame["event"]["message"]).groups())
        for seq, frame in enumerate(frames, start=1)
        if frame["event"] and frame["event"]["reason"] == "Scheduled" and frame["time"] == 0.0
    ]
    seq, _pod, node = placed[0]
    return seq, node, [pod for _, pod, _ in placed[1:]]


def verdicts(explanation: Any) -> dict[str, str]:
    return {node.name: "fits" if node.feasible else node.plugin for node in explanation.nodes}


def test_explaining_at_the_first_placement_counts_that_pod_only_for_inter_pod_affinity():
    run = gallery_run(ANTI_AFFINITY)
    frames = stored_frames(run)
    seq, node, later = first_scheduled(frames)
    explanation = run_replay.explain_at(run, later[0], seq)
    # One pod placed: only its node breaks the anti-affinity, the two others can take the next one.
    assert verdicts(explanation) == {
        name: ("InterPodAffinity" if name == node else "fits") for name in ("worker1", "worker2", "worker3")
    }
    # One event later the second pod is placed too: two nodes are taken.
    second = next(s for s in range(seq + 1, len(frames)) if frames[s - 1]["event"]["reason"] == "Scheduled")
    assert list(verdicts(run_replay.explain_at(run, later[1], second)).values()).count("fits") == 1


def test_explaining_at_the_first_placement_spreads_against_that_pod_only():
    run = gallery_run(SPREAD)
    frames = stored_frames(run)
    seq, node, later = first_scheduled(frames)
    zone = node.rsplit("-", 1)[0]  # node-a-1 is in zone-a with node-a-2
    explanation = run_replay.explain_at(run, later[0], seq)
    # The placed pod's zone has one pod, the other none: with maxSkew 1 the next goes to the other zone.
    assert verdicts(explanation) == {
        name: ("PodTopologySpread" if name.startswith(zone) else "fits")
        for name in ("node-a-1", "node-a-2", "node-b-1", "node-b-2")
    }


def test_a_frame_with_too_many_changes_is_split_before_its_event(monkeypatch: pytest.MonkeyPatch):
    """An instant that changes more than a frame may carry is stored as frames of its own, the event
    with the last part: the events, their order and the cluster after each event are the same."""
    whole = stored_frames(gallery_run(SPREAD))
    monkeypatch.setattr(run_frames, "MAX_FRAME_CHANGE_CHARS", 900)  # two or three pod changes
    monkeypatch.setattr(run_frames, "SPLIT_CHECK_CHANGES", 1)
    split = stored_frames(gallery_run(SPREAD))
    assert len(split) > len(whole)
    for frame in split:
        sizes = [len(json.dumps(change, separators=(",", ":"))) for change in frame["changes"]]
        assert len(sizes) <= 1 or sum(sizes) <= 900, frame
    events = lambda frames: [frame["event"] for frame in frames if frame["event"] is not None]  # noqa: E731
    assert events(split) == events(whole)
    boards: dict[str, list[Any]] = {"whole": [], "split": []}
    for name, frames in (("whole", whole), ("split", split)):
        board = Board()
        for frame in frames:
            board.apply(frame)
            if frame["event"] is not None or "end" in frame:
                boards[name].append((json.dumps(board.pods, sort_keys=True), json.dumps(board.nodes, sort_keys=True)))
    assert boards["split"] == boards["whole"]


def test_the_event_cap_grows_with_the_pods_a_scenario_declares():
    def cap(replicas: int, nodes: int = 3) -> int:
        document = "\n---\n".join(
            [f"apiVersion: v1\nkind: Node\nmetadata: {{name: n{index}}}" for index in range(nodes)]
            + [
                "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
                f"spec:\n  replicas: {replicas}\n  selector: {{matchLabels: {{app: web}}}}\n"
                "  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: nginx}]}"
            ]
        )
        return run_simulations.event_cap(load_manifests(document))

    assert cap(3) == run_simulations.MIN_RUN_EVENTS  # small scenarios keep the floor
    assert cap(50_000, nodes=5) == run_simulations.EVENTS_PER_POD * 50_005  # a rollout of 50,000 pods fits
    assert cap(10_000_000) == run_simulations.MAX_RUN_EVENTS


# ---------------------------------------------------------------------------- long instants


@pytest.fixture
def small_checkpoints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Checkpoints every 3 events, so that the gallery's small instants pause inside too."""
    monkeypatch.setattr(run_frames, "CHECKPOINT_EVENTS", 3)


@pytest.mark.usefixtures("small_checkpoints")
def test_a_long_instant_gives_its_first_frames_before_it_settles():
    document = snapshot(gallery_run(SPREAD).scenario).cluster_document
    simulation = Simulation(load_manifests(document), seed=0)
    framed = run_frames.frames(simulation)
    first = next(framed)
    assert first["time"] == 0.0 and first["event"] is not None
    at_first = len(simulation.cluster.events)
    rest = list(framed)
    assert at_first < len(simulation.cluster.events)  # the engine paused there; t=0 went on after
    assert sum(1 for frame in [first, *rest] if frame["event"]) == len(simulation.cluster.events)


@pytest.mark.usefixtures("small_checkpoints")
def test_checkpoints_do_not_change_the_frames_of_a_run_without_evictions(monkeypatch: pytest.MonkeyPatch):
    run = gallery_run(SPREAD)
    monkeypatch.setattr(run_frames, "CHECKPOINT_EVENTS", 1_000_000)
    unpaused = list(expand(run_frames.frames(Simulation(load_manifests(run.version.cluster_document), seed=0))))
    assert json.loads(json.dumps(unpaused)) == stored_frames(run)


@pytest.mark.usefixtures("small_checkpoints")
@pytest.mark.parametrize("name", [SPREAD, "090-noexecute-taint", "080-drain-with-pdb"])
def test_a_replay_stopped_at_a_checkpoint_is_the_cluster_the_frames_build(name):
    run = gallery_run(name)
    board = Board()
    for seq, frame in enumerate(stored_frames(run), start=1):
        board.apply(frame)
        replayed = replay(run, seq)
        assert state_of(replayed.cluster) == board.state(), f"frame {seq}: {frame['event']}"
        assert replayed.time == frame["time"]


# ---------------------------------------------------------------------------- kept runs


@pytest.fixture
def nothing_kept():
    run_states.clear()
    yield
    run_states.clear()


@pytest.mark.usefixtures("nothing_kept")
@pytest.mark.parametrize("name", [SPREAD, "090-noexecute-taint", "080-drain-with-pdb", "190-preemption"])
def test_a_kept_run_gives_the_replays_store_at_every_frame(name):
    run = gallery_run(name)  # executed here: its end is kept
    kept = run_states.finished_run(run_replay.state_key(run))
    assert kept is not None
    frames = stored_frames(run)
    assert len(kept.boundaries) == len(frames)
    for seq in range(0, len(frames) + 1):
        replayed = replay(run, seq)
        cluster, time = kept.cluster_at(seq)
        assert state_of(cluster) == state_of(replayed.cluster), f"frame {seq}"
        assert [e.as_dict() for e in cluster.events] == [e.as_dict() for e in replayed.cluster.events]
        assert time == replayed.time


@pytest.mark.usefixtures("nothing_kept")
@pytest.mark.parametrize("every", [1, 7, 40])
def test_a_kept_run_undoes_from_its_nearest_kept_store(monkeypatch: pytest.MonkeyPatch, every: int):
    monkeypatch.setattr(run_states, "STORE_EVERY_ITEMS", every)
    monkeypatch.setattr(run_states, "MOST_STORES", 1_000)
    run = gallery_run("080-drain-with-pdb")  # deletions and re-creations: undone in store order
    kept = run_states.finished_run(run_replay.state_key(run))
    assert len(kept.stores) == (len(kept.journal) - 1) // every
    assert [position for position, _ in kept.stores] == sorted(position for position, _ in kept.stores)
    for seq in range(0, len(stored_frames(run)) + 1):
        replayed = replay(run, seq)
        cluster, _time = kept.cluster_at(seq)
        assert state_of(cluster) == state_of(replayed.cluster), f"frame {seq}"
        assert [e.as_dict() for e in cluster.events] == [e.as_dict() for e in replayed.cluster.events]
        assert cluster.resource_version == replayed.cluster.resource_version


@pytest.mark.usefixtures("nothing_kept")
def test_a_long_journal_keeps_at_most_so_many_stores_evenly_apart(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(run_states, "STORE_EVERY_ITEMS", 1)
    monkeypatch.setattr(run_states, "MOST_STORES", 3)
    run = gallery_run("080-drain-with-pdb")
    kept = run_states.finished_run(run_replay.state_key(run))
    positions = [position for position, _ in kept.stores]
    assert len(positions) == 3
    gaps = {later - earlier for earlier, later in zip(positions, [*positions[1:], len(kept.journal)], strict=True)}
    assert len(gaps) == 1 and gaps.pop() * 4 >= len(kept.journal)  # evenly apart, the journal in four
    last = len(stored_frames(run))
    assert state_of(kept.cluster_at(last // 2)[0]) == state_of(replay(run, last // 2).cluster)


@pytest.mark.usefixtures("nothing_kept", "small_checkpoints")
def test_a_kept_run_paused_at_checkpoints_gives_the_same_stores():
    run = gallery_run(SPREAD)
    kept = run_states.finished_run(run_replay.state_key(run))
    for seq in range(1, len(stored_frames(run)) + 1):
        assert state_of(kept.cluster_at(seq)[0]) == state_of(replay(run, seq).cluster), f"frame {seq}"


@pytest.mark.usefixtures("nothing_kept")
def test_an_explanation_of_a_kept_run_replays_nothing(monkeypatch: pytest.MonkeyPatch):
    run = gallery_run(SPREAD)
    seq, _node, _later = first_scheduled(stored_frames(run))
    pod = SCHEDULED.search(stored_frames(run)[seq - 1]["event"]["message"]).group(1)
    expected = verdicts(run_replay.explain_at(run, pod, seq))

    def no_replay(*_args: object) -> None:
        raise AssertionError("the run was replayed")

    monkeypatch.setattr(run_replay, "replay", no_replay)
    assert verdicts(run_replay.explain_at(run, pod, seq)) == expected


@pytest.mark.usefixtures("nothing_kept")
def test_a_replay_to_the_end_keeps_the_run_and_a_shorter_one_does_not():
    run = gallery_run(SPREAD)
    run_states.clear()  # as in another process than the one that executed it
    replay(run, 3)
    assert run_states.finished_run(run_replay.state_key(run)) is None
    replay(run, len(stored_frames(run)) + 1)
    assert run_states.finished_run(run_replay.state_key(run)) is not None


def test_kept_runs_are_bounded_by_count_and_by_journal_length(monkeypatch: pytest.MonkeyPatch):
    run_states.clear()
    monkeypatch.setattr(run_states, "MAX_ITEMS", 10)
    cluster = Cluster(lambda: 0.0, random.Random(0))
    for index in range(run_states.MAX_RUNS + 2):
        run_states.remember((index, "v", 0), run_states.FinishedRun(cluster, None, [], [], []))
    assert run_states.finished_run((0, "v", 0)) is None and run_states.finished_run((index, "v", 0)) is not None
    too_long = run_states.FinishedRun(cluster, None, [None] * 11, [], [])  # type: ignore[list-item]
    run_states.remember((99, "v", 0), too_long)
    assert run_states.finished_run((99, "v", 0)) is None
    run_states.clear()


@pytest.mark.usefixtures("nothing_kept")
@pytest.mark.parametrize("name", [SPREAD, "080-drain-with-pdb", "190-preemption"])
def test_a_kept_run_has_the_scheduler_view_of_every_bound_pod_at_every_frame(name):
    # Computed when the run is kept, not by its first explanation at each frame (issue #14: the
    # last placement of 5,000 / 50,000 missed all 50,000 pods, bound but not yet Running).
    run = gallery_run(name)
    kept = run_states.finished_run(run_replay.state_key(run))
    computed = len(kept.pod_infos)
    for seq in range(0, len(kept.boundaries) + 1):
        cluster, _time = kept.cluster_at(seq)
        for pod in cluster.objects(Pod):
            if pod.spec.node_name:
                assert kept.pod_infos.info(pod).pod is pod
    assert len(kept.pod_infos) == computed, "a frame held a bound pod the run did not keep"
