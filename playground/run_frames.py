"""A run's frames: each store change and event of the engine's stream becomes a frame of the pod, node
and workload changes since the previous one (RunFrames), bounded in size; a replay's frames are
checked against the stored ones (check_replay)."""

import json
from collections.abc import Iterator
from typing import Any

from playground.change_deltas import DeltaEncoder
from playground.disruption_frames import BUDGET_KIND, EvictionCountdowns, budget_frame
from playground.run_simulations import run_until
from scheduler_core.api.types import Node, Pod
from scheduler_core.controllers.deployment_util import max_surge, max_unavailable
from scheduler_core.scheduler.resources import pod_requests
from scheduler_core.simulation.simulation import Checkpoint, InstantEnd, Simulation
from scheduler_core.simulation.state import node_state, owner_of, pod_placement
from scheduler_core.store.cluster import Change, ChangeType
from scheduler_core.store.event_correlation import EventCorrelator
from scheduler_core.store.events import Event

# A long instant gives its frames every this many events, while it runs (Simulation.stream's
# checkpoints): at 500 nodes the first 256 placements take about 0.2 s, the whole t=0 six seconds.
# Runs and replays pause at the same events, so both walk the same frames.
CHECKPOINT_EVENTS = 256


# A frame's changes are kept under this many characters of JSON (a pod's change is about 400): an
# instant that changes thousands of pods at once (5,000 pods turning Ready) is stored and sent as
# several frames, the changes first, the event with the last part, so no websocket message nears
# Daphne's 1 MiB limit and the viewer's board still moves in the engine's order.
MAX_FRAME_CHANGE_CHARS = 128 * 1024


SPLIT_CHECK_CHANGES = 64  # frames with fewer changes than this are never measured


def pod_frame(pod: Pod) -> dict[str, Any]:
    """The engine's pod_placement, and what the board draws and explains from."""
    return {
        "op": "pod",
        "key": pod.key,
        **pod_placement(pod),
        "deleting": pod.metadata.deletion_timestamp is not None,
        "owner": owner_of(pod),
        "nominated": pod.status.nominated_node_name or None,
        "priority": pod.priority,
        # What the pod takes from its node (cpu in millicores, memory in bytes), for the per-node bars.
        "requests": {name: amount for name, amount in pod_requests(pod).items() if amount},
    }


def node_frame(node: Node) -> dict[str, Any]:
    """The engine's node_state, and the allocatable amounts for the per-node bars."""
    state = node_state(node)
    return {
        "op": "node",
        "name": state["name"],
        "unschedulable": state["unschedulable"],
        "ready": state["ready"],
        "taints": state["taints"],
        "labels": state["labels"],  # the frames' own order, which their packing dictionary knows
        "allocatable": dict(node.status.allocatable),
    }


def workload_frame(kind: str, obj: Any) -> dict[str, Any]:
    """Deployments and ReplicaSets, for the rollout view: desired and ready counts, surge limits."""
    frame: dict[str, Any] = {
        "op": "workload",
        "kind": kind,
        "key": obj.metadata.key,
        "name": obj.metadata.name,
        "replicas": obj.spec.replicas,
        "ready": obj.status.ready_replicas,
        "available": obj.status.available_replicas,
    }
    if kind == "Deployment":
        frame["strategy"] = obj.spec.strategy_type
        # status.conditions as kubectl describe lists them: type, status, reason, message.
        frame["conditions"] = [[c.type, c.status, c.reason, c.message] for c in obj.status.conditions]
        if obj.spec.strategy_type == "RollingUpdate":
            frame["maxSurge"] = max_surge(obj)
            frame["maxUnavailable"] = max_unavailable(obj)
    else:
        owner = obj.metadata.controller_ref()
        frame["owner"] = f"{owner.kind}/{owner.name}" if owner else None
        frame["revision"] = obj.metadata.annotations.get("deployment.kubernetes.io/revision")
    return frame


class ChangeRecorder:
    """Collects the pod and node changes between two events (the last write of an object wins)."""

    def __init__(self, simulation: Simulation | None = None) -> None:
        self._pending: dict[tuple[str, str], dict[str, Any]] = {}
        # With the simulation, pod frames also carry "evictAt" (the taint eviction countdown).
        self.evictions = EvictionCountdowns(simulation, pod_frame)

    def __call__(self, change: Change) -> None:
        if change.kind == "Pod":
            key = ("Pod", change.key)
            if change.type is ChangeType.DELETED:
                self._pending[key] = {"op": "pod-", "key": change.key}
            else:
                self._pending[key] = pod_frame(change.new)
        elif change.kind == "Node":
            key = ("Node", change.key)
            if change.type is ChangeType.DELETED:
                self._pending[key] = {"op": "node-", "name": change.key}
            else:
                self._pending[key] = node_frame(change.new)
        elif change.kind in ("Deployment", "ReplicaSet"):
            key = (change.kind, change.key)
            if change.type is ChangeType.DELETED:
                self._pending[key] = {"op": "workload-", "kind": change.kind, "key": change.key}
            else:
                self._pending[key] = workload_frame(change.kind, change.new)
        elif change.kind == BUDGET_KIND:
            key = (change.kind, change.key)
            if change.type is ChangeType.DELETED:
                self._pending[key] = {"op": "workload-", "kind": change.kind, "key": change.key}
            else:
                self._pending[key] = budget_frame(change.new)

    def resend(self, frame: dict[str, Any]) -> None:
        """A pod's frame sent again though the pod did not change (its eviction countdown did)."""
        self._pending.setdefault(("Pod", frame["key"]), frame)

    def has_changes(self) -> bool:
        return bool(self._pending)

    def take(self) -> list[dict[str, Any]]:
        self.evictions.stamp(self._pending)
        changes = list(self._pending.values())
        self._pending.clear()
        return changes


def frames(simulation: Simulation) -> "RunFrames":
    """The run as viewers replay it: a frame per event, carrying exactly the store changes the engine
    made since the frame before (Simulation.stream's order: "Scheduled pod X to worker2" carries X's
    binding and nothing else); a frame of its own ("event": None) for the changes after an instant's
    last event (a pod turning Ready, a taint landing), at that instant's time, so the board shows
    them when they happened rather than at the next event (held instead for the next event when the
    next instant is at the same time); and a closing frame ("end"). Every frame has its simulated
    "time". A replay (explain, traffic, a resumed run) walks the same frames, so sequence numbers
    always agree. A change to an object shown before carries only what changed (change_deltas.py);
    change_deltas.expand gives the frames whole."""
    return RunFrames(simulation)


class RunFrames(Iterator[dict[str, Any]]):
    """The frames of a run (see `frames`), an iterator that also tells what the engine did after the
    frame it last gave (`unsent`): the stream yields an instant's items once it has settled, or at a
    checkpoint inside a long one."""

    def __init__(self, simulation: Simulation, until: float | None = None, *, keep: int = 0) -> None:
        self._simulation = simulation
        self._recorder = ChangeRecorder(simulation)
        self._tail: list[Change | Event] = []  # from the stream; before _sent they are in frames given
        self._sent = 0
        self._placed: dict[int, list[dict[str, Any]]] = {}  # countdown frames by the tail index they go with
        self._frames = self._generate(run_until(simulation) if until is None else until)
        # With `keep` (at most that many), every item of the stream, and for each frame given how
        # many of them it covers and its time: the store at any frame is the end's without the rest.
        self._keep = keep
        self.journal: list[Change | Event] | None = [] if keep else None
        self.boundaries: list[int] = []
        self.times: list[float] = []
        self._seen = 0  # stream items taken so far
        self.finished = False
        self._deltas = DeltaEncoder()
        # How each event counts in `kubectl events` (its row's first seq and count): in its frame.
        self._correlator = EventCorrelator()
        self.whole: dict[str, Any] | None = None  # the last frame given, with its changes whole

    def __next__(self) -> dict[str, Any]:
        try:
            frame = next(self._frames)
        except StopIteration:
            self.finished = True
            raise
        if self.journal is not None:
            self.boundaries.append(self._seen - len(self._tail) + self._sent)
            self.times.append(frame["time"])
        self.whole = frame
        return self._deltas.encode(frame)

    @property
    def unsent(self) -> list[Change | Event]:
        """The changes and events the engine made after the last frame given, oldest first: undone
        (Cluster.before), they give the store as that frame left it."""
        return self._tail[self._sent :]

    def _generate(self, until: float) -> Iterator[dict[str, Any]]:
        tail, recorder = self._tail, self._recorder
        for item in self._simulation.stream(until=until, checkpoint_events=CHECKPOINT_EVENTS):
            if isinstance(item, Checkpoint):
                # A long instant, paused: its events so far have their frames now, not once it settles.
                yield from self._event_frames()
                continue
            if not isinstance(item, InstantEnd):
                tail.append(item)
                self._seen += 1
                if self.journal is not None:
                    self.journal.append(item)
                    if len(self.journal) > self._keep:  # too long a run to keep: replays serve it
                        self.journal = None
                continue
            # The instant has settled: what is left unsent is this instant's and, when the instants
            # before it were at this same time, theirs after their last event.
            yield from self._event_frames()
            if item.next_time != item.time:  # the clock moves on: what is left has a frame of its own
                self._feed(len(tail))
                if recorder.has_changes():
                    yield from bounded({"event": None, "time": item.time, "changes": recorder.take()})
        self._feed(len(tail))
        now = self._simulation.now
        yield from bounded({"event": None, "time": now, "changes": recorder.take(), "end": now})

    def _event_frames(self) -> Iterator[dict[str, Any]]:
        """A frame for each event the engine recorded since the last frame given, the store as the
        engine paused (the end of an instant, or a checkpoint inside it)."""
        tail, recorder = self._tail, self._recorder
        del tail[: self._sent]
        self._placed = {index - self._sent: frames for index, frames in self._placed.items()}
        self._sent = 0
        placed = recorder.evictions.placed(tail)
        if not tail:
            for frame in placed.pop(0, ()):
                recorder.resend(frame)
        for index, extra in placed.items():
            self._placed.setdefault(index, []).extend(extra)
        for index in range(len(tail)):
            entry = tail[index]
            if isinstance(entry, Event):
                changes = self._take(index + 1)
                event = {**entry.as_dict(), **self._correlator.observe(entry).as_dict(entry)}
                yield from bounded({"event": event, "time": entry.time, "changes": changes})

    def _feed(self, end: int) -> None:
        """Gives the recorder the tail's changes up to `end` (and the countdown frames placed there)."""
        recorder = self._recorder
        for index in range(self._sent, end):
            entry = self._tail[index]
            if isinstance(entry, Change):
                recorder(entry)
            for frame in self._placed.pop(index, ()):
                recorder.resend(frame)
        self._sent = end

    def _take(self, end: int) -> list[dict[str, Any]]:
        self._feed(end)
        return self._recorder.take()


def bounded(frame: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The frame, or, when its changes exceed MAX_FRAME_CHANGE_CHARS, frames of its own ("event":
    None, the same time) for the changes in order, then the frame itself with the last part: the
    store after the last of them is the store after the frame."""
    changes = frame["changes"]
    if len(changes) < SPLIT_CHECK_CHANGES:
        yield frame
        return
    part: list[dict[str, Any]] = []
    size = 0
    for change in changes:
        length = len(json.dumps(change, separators=(",", ":")))
        if part and size + length > MAX_FRAME_CHANGE_CHARS:
            yield {"event": None, "time": frame["time"], "changes": part}
            part, size = [], 0
        part.append(change)
        size += length
    yield {**frame, "changes": part}


class ReplayDiverged(Exception):
    """A resumed run's replay differs from what was stored (the engine changed in between)."""


def same_frame(stored: Any, frame: dict[str, Any], whole: dict[str, Any] | None) -> bool:
    """Whether a stored frame is the replayed one: as stored now, or whole, as runs stored before
    change deltas (their events stay resumable and explainable)."""
    return any(json.loads(json.dumps(candidate)) == stored for candidate in (frame, whole) if candidate is not None)


def check_replay(payload: dict[str, Any], stored: Any, whole: dict[str, Any] | None = None) -> None:
    if not same_frame(stored, payload, whole):
        raise ReplayDiverged(
            "this run cannot be resumed: replaying it gives different events than those stored "
            "(the engine changed since it started); run it again"
        )
