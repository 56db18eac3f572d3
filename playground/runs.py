"""Runs: a scenario version simulated by the engine, its events stored and streamed to viewers.

A run executes in a worker thread, off the event loop. Each stored event carries the changes to
pods and nodes since the previous one, in the engine's order (Simulation.stream), so a viewer can
rebuild the cluster as it was at any event (forward by applying them, backward by replaying from
the start), and stepping one event moves the board by exactly that event. Events go to the
database in batches and to the scenario's websocket group as they are stored.
"""

import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, close_old_connections, transaction
from django.utils import timezone

from playground import heap, run_states
from playground.broadcast import send_run_batch, send_run_status
from playground.budgets import budget_scale, declared_pods
from playground.change_deltas import DeltaEncoder
from playground.disruption_frames import BUDGET_KIND, EvictionCountdowns, budget_frame
from playground.models import Run, RunEvent, Scenario, ScenarioVersion
from playground.retention import prune_scenario_runs
from playground.scenarios import snapshot
from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import Manifest, load_manifests
from scheduler_core.api.types import Node, Pod
from scheduler_core.controllers.base import SimulationOptions
from scheduler_core.controllers.deployment_util import max_surge, max_unavailable
from scheduler_core.explain.explain import Explanation, explain_in_cluster
from scheduler_core.scheduler.config import SchedulerConfiguration, parse_configuration
from scheduler_core.scheduler.resources import pod_requests
from scheduler_core.simulation.simulation import Checkpoint, InstantEnd, Simulation
from scheduler_core.simulation.state import node_state, owner_of, pod_placement
from scheduler_core.store.cluster import Change, ChangeType, Cluster, SimulationLimitError
from scheduler_core.store.events import Event

logger = logging.getLogger(__name__)

# A run's event cap grows with what it simulates: a pod's life is about five events (created,
# scheduled, pulled, created, started) and a rollout or a drain replaces each pod, so a 50,000-pod
# rollout is hundreds of thousands of events. MIN for small scenarios (timelines, CronJobs), MAX
# to bound storage (about 200 bytes an event, see README "Limits").
MIN_RUN_EVENTS = 20_000
EVENTS_PER_POD = 20
MAX_RUN_EVENTS = 2_000_000
MAX_RUN_CPU_SECONDS = 120.0  # the engine's own CPU time for one run, in its thread or worker
# A replay inside a request (explain, traffic, each side of a comparison) holds the thread that
# every sync view shares, so it gets less: a run heavier than that can still be watched, not replayed.
MAX_REPLAY_CPU_SECONDS = 30.0
# Those budgets are for a scenario of up to this many pods and nodes; a bigger one gets them in
# proportion (the engine's cost is about linear in the pods: 2 to 4 ms a pod at 5,000 nodes with a
# zone spread, so 50,000 pods are minutes of CPU, as they are for a real scheduler), up to
# MAX_BUDGET_SCALE times (playground/budgets.py).
PODS_IN_BASE_BUDGET = 30_000
MAX_BUDGET_SCALE = 5.0
RUN_LIMITS = (
    f"limits ({MIN_RUN_EVENTS:,} events or {EVENTS_PER_POD} a pod, up to {MAX_RUN_EVENTS:,}; "
    f"{MAX_RUN_CPU_SECONDS:g} s of CPU time, in proportion past {PODS_IN_BASE_BUDGET:,} pods)"
)
DEFAULT_UNTIL_SECONDS = 3600.0  # a run stops after one simulated hour (CronJobs and HPAs never settle)
BATCH_SIZE = 200
ANY_CHANGES = float("inf")  # later batches are bounded by their events (and the clock) alone
# The first batch goes once the engine has made this many events: a viewer sees the run start as
# soon as it does (at 5,000 nodes the first 200 events took 0.3 s of the first frame's wait).
FIRST_BATCH_SIZE = 16
# ... or once its frames carry this many changes: at 5,000 nodes the run's first event comes after
# nine frames of node changes (1.1 MB), and storing and encoding them all took 0.2 s of the wait.
FIRST_BATCH_CHANGES = 512
# A long instant gives its frames every this many events, while it runs (Simulation.stream's
# checkpoints): at 500 nodes the first 256 placements take about 0.2 s, the whole t=0 six seconds.
# Runs and replays pause at the same events, so both walk the same frames.
CHECKPOINT_EVENTS = 256
FLUSH_SECONDS = 0.5
# A frame's changes are kept under this many characters of JSON (a pod's change is about 400): an
# instant that changes thousands of pods at once (5,000 pods turning Ready) is stored and sent as
# several frames, the changes first, the event with the last part, so no websocket message nears
# Daphne's 1 MiB limit and the viewer's board still moves in the engine's order.
MAX_FRAME_CHANGE_CHARS = 128 * 1024
SPLIT_CHECK_CHANGES = 64  # frames with fewer changes than this are never measured
# A run declaring this many pods and nodes grows the heap past heap.BIG_HEAP_OBJECTS within its first
# instant: what the server holds is frozen as it starts (heap.freeze_before_growth).
FREEZE_HEAP_FROM_PODS = 5_000


def run_options(manifests: list[Manifest], *, replay: bool = False) -> SimulationOptions:
    """A run's bounds; a replay in a request has a smaller CPU budget (the bounds only abort: a
    replay that finishes gives the run's events)."""
    cpu = MAX_REPLAY_CPU_SECONDS if replay else MAX_RUN_CPU_SECONDS
    scale = budget_scale(manifests, PODS_IN_BASE_BUDGET, MAX_BUDGET_SCALE)
    return SimulationOptions(max_events=event_cap(manifests), max_cpu_seconds=round(cpu * scale, 2))


def configuration_of(text: str, source: str = "config") -> SchedulerConfiguration | None:
    """A version's scheduler configuration, parsed; None for none (the default profile)."""
    return parse_configuration(text, source) if text.strip() else None


def run_simulation(
    manifests: list[Manifest], config: SchedulerConfiguration | None, seed: int, *, replay: bool = False
) -> Simulation:
    """The simulation a run (or a replay of one, or a comparison's side) goes through: its manifests
    under its configuration with its seed, bounded by run_options."""
    return Simulation(manifests, config, seed=seed, options=run_options(manifests, replay=replay))


def event_cap(manifests: list[Manifest]) -> int:
    """The run's event bound: EVENTS_PER_POD for each pod and node it declares, within MIN and MAX."""
    return max(MIN_RUN_EVENTS, min(MAX_RUN_EVENTS, EVENTS_PER_POD * declared_pods(manifests)))


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
    return {"op": "node", **node_state(node), "allocatable": dict(node.status.allocatable)}


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


def start_run(
    scenario: Scenario,
    seed: int = 0,
    *,
    background: bool = True,
    version: ScenarioVersion | None = None,
    manifests: list[Manifest] | None = None,
) -> Run:
    """A run of the scenario's current version (or `version`, its snapshot already taken). A run
    executed in this process simulates `manifests` when given: the version's, parsed by the caller
    (which needed them too), so that the run's first frame does not wait for a second parse."""
    version = version or snapshot(scenario)
    run = Run.objects.create(scenario=scenario, version=version, seed=seed)
    _dispatch(run, background, manifests)
    return run


def _dispatch(run: Run, background: bool, manifests: list[Manifest] | None = None) -> None:
    if background and settings.RUNS_IN_WORKERS:
        _send_to_worker(run.pk)  # another process: it parses the version itself
    elif background:
        thread = threading.Thread(
            target=_execute_in_thread, args=(run.pk, manifests), name=f"run-{run.pk}", daemon=True
        )
        thread.start()
    else:
        execute(run, manifests=manifests)


def _send_to_worker(run_id: int) -> None:
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from playground.workers import RUN_CHANNEL

    def send() -> None:
        layer = get_channel_layer()
        assert layer is not None
        async_to_sync(layer.send)(RUN_CHANNEL, {"type": "run.execute", "run": run_id})

    # Only once the run row is committed can a worker in another process read it.
    transaction.on_commit(send)


def _execute_in_thread(run_id: int, manifests: list[Manifest] | None = None) -> None:
    close_old_connections()
    try:
        execute(Run.objects.select_related("scenario", "version").get(pk=run_id), manifests=manifests)
    finally:
        close_old_connections()


def execute(
    run: Run,
    publish: Callable[[str, int, list[dict[str, Any]]], None] | None = None,
    manifests: list[Manifest] | None = None,
) -> None:
    """Simulates the run's version with its seed, storing and publishing its events. A run that
    already holds events (an interrupted one, resumed) is replayed from the start, as the engine is
    deterministic, and only the events after the last stored one are stored and published.
    `manifests`: the version's, parsed already, the run's own (the simulation takes them over)."""
    walked = False
    try:
        with heap.busy():
            walked = _execute(run, publish or send_run_batch, manifests)
    finally:
        # A run that failed (or whose failure could not even be stored) let its simulation go only
        # now: walked at a quiet moment.
        if not walked:
            heap.released()


def _execute(
    run: Run, publish: Callable[[str, int, list[dict[str, Any]]], None], manifests: list[Manifest] | None
) -> bool:
    """execute's work; True when it let the simulation go itself (heap.released at its end)."""
    walked = False
    slug = run.scenario.slug
    stored = RunEvent.objects.filter(run=run).order_by("-seq").values_list("seq", "payload").first()
    stored_seq, stored_payload = stored if stored else (0, None)
    heartbeat = Heartbeat(run)
    Run.objects.filter(pk=run.pk).update(status=Run.Status.RUNNING, error="", heartbeat_at=timezone.now())
    send_run_status(slug, run.pk, Run.Status.RUNNING)
    try:
        if manifests is None:
            manifests = load_manifests(run.version.cluster_document, source="scenario")
        if declared_pods(manifests) >= FREEZE_HEAP_FROM_PODS:
            heap.freeze_before_growth()
        simulation = run_simulation(manifests, configuration_of(run.version.scheduler_config_yaml), run.seed)
        simulation.cluster.watch(lambda _change: heartbeat.beat())
        batch: list[RunEvent] = []
        flushed_at = time.monotonic()
        most_events, most_changes = FIRST_BATCH_SIZE, FIRST_BATCH_CHANGES
        changes = 0  # in the batch's frames
        seq = 0
        run_frames = RunFrames(simulation, keep=run_states.MAX_ITEMS)
        for payload in run_frames:
            seq += 1
            heartbeat.beat()
            if seq < stored_seq:
                continue
            if seq == stored_seq:
                _check_replay(payload, stored_payload, run_frames.whole)
                continue
            batch.append(RunEvent(run=run, seq=seq, payload=payload))
            changes += len(payload["changes"])
            # Batches keep the database and the socket calm; the clock keeps a slow run live.
            if len(batch) >= most_events or changes >= most_changes or time.monotonic() - flushed_at >= FLUSH_SECONDS:
                _flush(run, slug, batch, publish)
                heartbeat.now()
                flushed_at = time.monotonic()
                most_events, most_changes, changes = BATCH_SIZE, ANY_CHANGES, 0
        _keep_finished(run, simulation, run_frames)
        # The simulation is let go here, and its reference cycles (controllers, watchers) freed by
        # a whole walk of the collector (playground/heap.py: 1 s at 5,000 / 50,000) before the last
        # frames leave: the pause lengthens the run a viewer watches, not the click after its end.
        del simulation, run_frames
        heap.released(walk_now=True)
        walked = True
        _flush(run, slug, batch, publish)
    except (ManifestError, SimulationLimitError, ReplayDiverged) as error:
        _fail(run, slug, str(error))
    except Exception as error:  # an engine bug: the run says so; the server keeps serving
        logger.exception("run %s failed", run.pk)
        _fail(run, slug, f"internal error: {type(error).__name__}")
    else:
        Run.objects.filter(pk=run.pk).update(status=Run.Status.FINISHED)
        send_run_status(slug, run.pk, Run.Status.FINISHED)
    try:
        prune_scenario_runs(run.scenario_id)  # the run has ended: older ones may go (retention.py)
    except DatabaseError:  # the run's own outcome is stored; the next run's end prunes again
        logger.warning("could not prune the runs of scenario %s", run.scenario_id, exc_info=True)
    return walked


def _keep_finished(run: Run, simulation: Simulation, run_frames: "RunFrames") -> None:
    """A run simulated to its end here leaves its store for explanations (playground/run_states.py)."""
    if run_frames.finished and run_frames.journal is not None:
        kept = run_states.FinishedRun.detached(
            simulation.cluster, simulation.configuration, run_frames.journal, run_frames.boundaries, run_frames.times
        )
        run_states.remember(_state_key(run), kept)


def _state_key(run: Run) -> run_states.RunKey:
    return (run.pk, run.version.permalink, run.seed)


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

    def __init__(self, simulation: Simulation, until: float = DEFAULT_UNTIL_SECONDS, *, keep: int = 0) -> None:
        self._simulation = simulation
        self._recorder = ChangeRecorder(simulation)
        self._tail: list[Change | Event] = []  # from the stream; before _sent they are in frames given
        self._sent = 0
        self._placed: dict[int, list[dict[str, Any]]] = {}  # countdown frames by the tail index they go with
        self._frames = self._generate(until)
        # With `keep` (at most that many), every item of the stream, and for each frame given how
        # many of them it covers and its time: the store at any frame is the end's without the rest.
        self._keep = keep
        self.journal: list[Change | Event] | None = [] if keep else None
        self.boundaries: list[int] = []
        self.times: list[float] = []
        self._seen = 0  # stream items taken so far
        self.finished = False
        self._deltas = DeltaEncoder()
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
                yield from bounded({"event": entry.as_dict(), "time": entry.time, "changes": changes})

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


def _check_replay(payload: dict[str, Any], stored: Any, whole: dict[str, Any] | None = None) -> None:
    if not same_frame(stored, payload, whole):
        raise ReplayDiverged(
            "this run cannot be resumed: replaying it gives different events than those stored "
            "(the engine changed since it started); run it again"
        )


class Heartbeat:
    """Tells other processes the run is alive, at most every heartbeat_seconds(), from the thread
    executing it (a separate thread would need a connection of its own, and SQLite one writer).
    It beats on every change the engine makes, so a long instant (thousands of pods scheduled at
    t=0) is not taken for a dead process; if it was (a stall longer than RUN_STALE_SECONDS), the
    run is marked running again and its viewers told."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.last = time.monotonic()

    def beat(self) -> None:
        if time.monotonic() - self.last >= heartbeat_seconds():
            self.now()

    def now(self) -> None:
        self.last = time.monotonic()
        updated = Run.objects.filter(pk=self.run.pk, status=Run.Status.RUNNING).update(heartbeat_at=timezone.now())
        if not updated:
            revived = Run.objects.filter(pk=self.run.pk, status=Run.Status.INTERRUPTED).update(
                status=Run.Status.RUNNING, error="", heartbeat_at=timezone.now()
            )
            if revived:
                send_run_status(self.run.scenario.slug, self.run.pk, Run.Status.RUNNING)


def heartbeat_seconds() -> float:
    return float(settings.RUN_STALE_SECONDS) / 6


def check_interrupted(run: Run) -> Run:
    """Marks a running run whose executor stopped beating as interrupted (and tells its viewers);
    returns the run as it now is. Whoever looks first notices: a page, a socket, a resume."""
    if run.status != Run.Status.RUNNING:
        return run
    stale_before = timezone.now() - timedelta(seconds=settings.RUN_STALE_SECONDS)
    if run.heartbeat_at is not None and run.heartbeat_at >= stale_before:
        return run
    events = RunEvent.objects.filter(run=run).count()
    message = f"interrupted after event {events}: the process executing it stopped"
    marked = Run.objects.filter(pk=run.pk, status=Run.Status.RUNNING, heartbeat_at=run.heartbeat_at).update(
        status=Run.Status.INTERRUPTED, error=message
    )
    run.refresh_from_db()
    if marked:
        send_run_status(run.scenario.slug, run.pk, Run.Status.INTERRUPTED, message)
    return run


def resume_run(run: Run, *, background: bool = True) -> bool:
    """Continues an interrupted run where it stopped; False when it is not interrupted (any more):
    of two viewers pressing Resume at once, one resumes it."""
    if not Run.objects.filter(pk=run.pk, status=Run.Status.INTERRUPTED).update(status=Run.Status.QUEUED):
        return False
    _dispatch(run, background)
    return True


def _flush(
    run: Run, slug: str, batch: list[RunEvent], publish: Callable[[str, int, list[dict[str, Any]]], None]
) -> None:
    if not batch:
        return
    # Should two executors ever hold one run (one taken for dead, then resumed), both write the same
    # events (the engine is deterministic): the second write of a seq is dropped, and viewers drop
    # what they already hold.
    RunEvent.objects.bulk_create(batch, ignore_conflicts=True)
    publish(slug, run.pk, [{"seq": item.seq, **item.payload} for item in batch])
    batch.clear()


def _fail(run: Run, slug: str, message: str) -> None:
    Run.objects.filter(pk=run.pk).update(status=Run.Status.FAILED, error=message[:2000])
    send_run_status(slug, run.pk, Run.Status.FAILED, message)


def explain_at(run: Run, pod_key: str, seq: int) -> Explanation:
    """Why the pod is where it is (or Pending) at event `seq` of the run: the run is replayed with
    the same seed up to that event, then the engine explains the pod against exactly that cluster
    (pods bound later in the same instant are not in it)."""
    kept = run_states.finished_run(_state_key(run))
    if kept is not None:
        return explain_kept(kept, pod_key, seq, run.seed)
    replayed = replay(run, seq)
    return explain_in_cluster(replayed.cluster, pod_key, replayed.simulation.configuration, seed=run.seed)


def explain_kept(kept: run_states.FinishedRun, pod_key: str, seq: int, seed: int) -> Explanation:
    """The explanation at frame `seq` of a run kept here, without a replay: the end's store with
    what came after the frame undone, and the run's PodInfos. Not with the collector paused
    (gc_pause.py), as before playground/heap.py: a full collection walks only what came since the
    last, and a pause left one young collection of everything the explanation made (0.13 s at
    5,000 / 50,000)."""
    cluster, _time = kept.cluster_at(seq)
    return explain_in_cluster(cluster, pod_key, kept.configuration, seed=seed, pod_infos=kept.pod_infos)


@dataclass(frozen=True, slots=True)
class Replay:
    """A run as it was just after one of its frames."""

    cluster: Cluster  # the store right after the frame: a copy no one watches, free to change
    time: float  # the frame's simulated time
    # The engine that replayed it, settled at the end of the frame's instant (its controllers' own
    # state, such as the nodes a node-down stopped, is that instant's end).
    simulation: Simulation


def load_for_replay(run: Run) -> None:
    """Loads what `replay` reads of the run's version, so that a replay off the request
    (playground/offloaded.py) never touches the database."""
    load_documents(run.version)


def load_documents(version: ScenarioVersion) -> None:
    """Loads the version's documents (deferred columns, a workload stored apart) into the instance."""
    _ = (version.stored_document, version.scheduler_config_yaml, version.workload_text_id)
    if version.workload_text_id:
        _ = version.workload_text


def replay(run: Run, seq: int) -> Replay:
    """The run's cluster just after its frame `seq` (seq 0: before anything happened), even in the
    middle of an instant: the same version and seed replay the same frames, and what the engine did
    after that frame in its instant is undone, so this is the cluster the viewer sees."""
    manifests = load_manifests(run.version.cluster_document, source="scenario")
    config = configuration_of(run.version.scheduler_config_yaml)
    simulation = run_simulation(manifests, config, run.seed, replay=True)
    time = 0.0
    later: list[Change | Event] = []
    if seq > 0:
        run_frames = RunFrames(simulation, keep=run_states.MAX_ITEMS)
        for index, frame in enumerate(run_frames, start=1):
            time = frame["time"]
            if index >= seq:
                later = run_frames.unsent
                break
        else:  # the replay went to the run's end: later explanations need none
            _keep_finished(run, simulation, run_frames)
    return Replay(simulation.cluster.before(later), time, simulation)
