"""Simulation.stream: the store's changes and the events interleaved in the engine's causal order,
each instant closed by an InstantEnd; and Simulation.cluster_at_event, the store right after one
event."""

from pathlib import Path
from typing import Any

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Pod
from scheduler_core.controllers.base import SimulationOptions
from scheduler_core.simulation.simulation import Checkpoint, InstantEnd, Simulation, StreamItem
from scheduler_core.simulation.state import cluster_state
from scheduler_core.store.cluster import Change, ChangeType, SimulationLimitError
from scheduler_core.store.events import Event
from tests.manifests import deployment_yaml

DATA = Path(__file__).parents[1] / "data"
NODES = "".join(
    f"apiVersion: v1\nkind: Node\nmetadata: {{name: n{index}, labels: {{kubernetes.io/hostname: n{index}}}}}\n"
    "status: {capacity: {cpu: '8', memory: 16Gi, pods: '110'}}\n---\n"
    for index in range(4)
)
MANY_AT_ZERO = NODES + deployment_yaml(12)


def stream(text: str, seed: int = 0, until: float | None = None) -> list[StreamItem]:
    return list(Simulation(load_manifests(text), seed=seed).stream(until))


def scheduled_pod(event: Event) -> str:
    return event.object.removeprefix("Pod/")


def test_every_scheduled_event_comes_right_after_its_pods_binding_and_before_any_later_binding():
    bound_so_far: list[str] = []  # pods whose binding the stream has shown
    scheduled_so_far: list[str] = []
    items = stream(MANY_AT_ZERO)
    for item in items:
        if isinstance(item, Change) and item.kind == "Pod" and item.new is not None and item.old is not None:
            if item.new.spec.node_name and not item.old.spec.node_name:
                bound_so_far.append(item.key)
        elif isinstance(item, Event) and item.reason == "Scheduled":
            scheduled_so_far.append(scheduled_pod(item))
            # Bound before its event, and no pod of a later event is bound yet.
            assert bound_so_far == scheduled_so_far, item
    assert len(scheduled_so_far) == 12


def test_the_binding_a_scheduled_event_follows_is_to_the_node_it_names():
    last_binding: dict[str, str] = {}
    for item in stream(MANY_AT_ZERO):
        if isinstance(item, Change) and item.kind == "Pod" and item.new is not None:
            last_binding[item.key] = item.new.spec.node_name
        elif isinstance(item, Event) and item.reason == "Scheduled":
            assert item.message.endswith(f" to {last_binding[scheduled_pod(item)]}")


def test_every_instant_ends_with_its_time_and_when_the_run_goes_on():
    items = stream((DATA / "sim_basic.yaml").read_text())
    ends = [item for item in items if isinstance(item, InstantEnd)]
    assert isinstance(items[-1], InstantEnd) and items[-1].next_time is None
    assert [end.time for end in ends] == [0.0, 1.0, 10.0, 20.0, 21.0, 30.0, 40.0]
    assert [end.next_time for end in ends] == [1.0, 10.0, 20.0, 21.0, 30.0, 40.0, None]
    events = [item for item in items if isinstance(item, Event)]
    # Every item is stamped with the instant it belongs to.
    instant = 0
    for item in items:
        if isinstance(item, InstantEnd):
            instant += 1
        elif isinstance(item, Event):
            assert item.time == ends[instant].time
    # The stream's events are run()'s, in order.
    assert [e.as_dict() for e in events] == [
        e.as_dict() for e in Simulation(load_manifests((DATA / "sim_basic.yaml").read_text())).run()
    ]


def test_a_change_after_the_last_event_of_its_instant_and_an_instant_with_no_event_are_in_the_stream():
    items = stream((DATA / "sim_basic.yaml").read_text())
    by_instant: list[list[StreamItem]] = [[]]
    for item in items:
        if isinstance(item, InstantEnd):
            by_instant[-1].append(item)
            by_instant.append([])
        else:
            by_instant[-1].append(item)
    started = next(instant for instant in by_instant if instant and getattr(instant[-1], "time", None) == 1.0)
    # At 1 s the kubelet records Pulled, Created, Started, then reports the pod Running: no event follows it.
    assert [type(item).__name__ for item in started] == ["Event", "Event", "Event", "Change", "InstantEnd"]
    running = started[3]
    assert isinstance(running, Change) and running.new.status.phase == "Running"
    removed = next(instant for instant in by_instant if instant and getattr(instant[-1], "time", None) == 40.0)
    # At 40 s the grace period ends: the pod goes, with no event.
    assert [type(item).__name__ for item in removed] == ["Change", "InstantEnd"]
    assert isinstance(removed[0], Change) and removed[0].type is ChangeType.DELETED


def test_the_changes_of_the_stream_rebuild_the_store_at_every_instant():
    simulation = Simulation(load_manifests(MANY_AT_ZERO + "---\n" + (DATA / "sim_basic.yaml").read_text()))
    rebuilt: dict[tuple[str, str], Any] = {}
    for item in simulation.stream():
        if isinstance(item, Change):
            if item.type is ChangeType.DELETED:
                del rebuilt[(item.kind, item.key)]
            else:
                rebuilt[(item.kind, item.key)] = item.new
        elif isinstance(item, InstantEnd):  # the store is as the instant left it
            cluster = simulation.cluster
            assert rebuilt == {(kind, key): obj for kind in cluster.kinds() for key, obj in cluster.items(kind)}


def describe(items: list[StreamItem]) -> list[Any]:
    return [item.as_dict() if isinstance(item, Event) else (type(item).__name__, repr(item)) for item in items]


def test_the_same_scenario_and_seed_stream_the_same_items():
    text = MANY_AT_ZERO + "---\n" + (DATA / "sim_basic.yaml").read_text()
    assert describe(stream(text, seed=4)) == describe(stream(text, seed=4))


def test_a_stream_keeps_the_event_cap_and_the_cpu_budget():
    capped = Simulation(load_manifests(MANY_AT_ZERO), options=SimulationOptions(max_events=10))
    with pytest.raises(SimulationLimitError, match="more than 10 events"):
        list(capped.stream())
    budget = Simulation(load_manifests(NODES + deployment_yaml(3_000)), options=SimulationOptions(max_cpu_seconds=0.1))
    with pytest.raises(SimulationLimitError, match=r"more than 0\.1 s of CPU time"):
        list(budget.stream())


def test_the_cluster_at_an_event_holds_what_came_before_it_and_nothing_after():
    text = MANY_AT_ZERO
    first = Simulation(load_manifests(text)).cluster_at_event(1)
    assert first is not None
    reasons = [event.reason for event in first.events]
    assert reasons[-1] == "ScalingReplicaSet" and len(reasons) == 1  # "Scaled up replica set ... to 12"
    assert first.count("Pod") == 0  # the replica set creates its pods after that event
    events = Simulation(load_manifests(text)).run_to_end()
    fifth_scheduled = [event for event in events if event.reason == "Scheduled"][4]
    cluster = Simulation(load_manifests(text)).cluster_at_event(fifth_scheduled.seq)
    assert cluster is not None and cluster.events[-1] == fifth_scheduled
    bound = [pod for pod in cluster.objects(Pod) if pod.spec.node_name]
    assert len(bound) == 5 and cluster.count(Pod) == 12
    assert Simulation(load_manifests(text)).cluster_at_event(len(events) + 1) is None


def test_the_cluster_at_an_instants_last_event_is_the_state_after_its_changes_up_to_it():
    text = (DATA / "sim_basic.yaml").read_text()
    at_started = Simulation(load_manifests(text)).cluster_at_event(5)  # Started, at 1 s: Running comes after it
    assert at_started is not None
    assert at_started.get("Pod", "default/web").status.phase == "Pending"
    until_one = Simulation(load_manifests(text))
    until_one.run_to_end(until=1.0)
    assert until_one.cluster.get(Pod, "default/web").status.phase == "Running"
    assert cluster_state(at_started, 1.0)["nodes"] == cluster_state(until_one.cluster, 1.0)["nodes"]


# ---------------------------------------------------------------------------- checkpoints


def test_checkpoints_split_a_long_instant_without_changing_its_items():
    plain = stream(MANY_AT_ZERO)
    simulation = Simulation(load_manifests(MANY_AT_ZERO), seed=0)
    paused = list(simulation.stream(checkpoint_events=3))
    checkpoints = [item for item in paused if isinstance(item, Checkpoint)]
    assert len(checkpoints) >= 4  # 12 Scheduled events and the scale-ups, three at a time
    assert [item for item in paused if not isinstance(item, Checkpoint)] == plain
    first = paused.index(checkpoints[0])
    later_end = next(index for index, item in enumerate(paused) if isinstance(item, InstantEnd))
    assert first < later_end and checkpoints[0].time == 0.0  # inside t=0, before it settles


def test_at_a_checkpoint_the_store_is_as_the_items_so_far_left_it():
    simulation = Simulation(load_manifests(MANY_AT_ZERO), seed=0)
    bound: set[str] = set()
    pauses = 0
    for item in simulation.stream(checkpoint_events=2):
        if isinstance(item, Change) and item.kind == "Pod" and item.new is not None and item.new.spec.node_name:
            bound.add(item.key)
        elif isinstance(item, Checkpoint):
            pauses += 1
            on_nodes = {pod.key for pod in simulation.cluster.objects(Pod) if pod.spec.node_name}
            assert on_nodes == bound
    assert pauses and len(bound) == 12


def test_a_readers_time_at_a_checkpoint_is_not_the_engines_cpu_time():
    simulation = Simulation(load_manifests(MANY_AT_ZERO), seed=0)
    for item in simulation.stream(checkpoint_events=1):
        if isinstance(item, Checkpoint):
            before = simulation.cpu_seconds
            sum(range(200_000))  # the reader's own work while the engine waits
            assert simulation.cpu_seconds == before
