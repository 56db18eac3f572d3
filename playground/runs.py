"""Runs: a scenario version simulated by the engine, its events stored and streamed to viewers.

A run executes in a worker thread, off the event loop. Each stored event carries the changes to
pods and nodes since the previous one, in the engine's order (Simulation.stream), so a viewer can
rebuild the cluster as it was at any event (forward by applying them, backward by replaying from
the start), and stepping one event moves the board by exactly that event. Events go to the
database in batches and to the scenario's websocket group as they are stored."""

import logging
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, close_old_connections, transaction
from django.utils import timezone

from playground import heap, run_states
from playground.broadcast import send_run_batch, send_run_status
from playground.budgets import declared_pods
from playground.models import Run, RunEvent, Scenario, ScenarioVersion
from playground.retention import prune_scenario_runs
from playground.run_frames import ReplayDiverged, RunFrames, check_replay
from playground.run_replay import keep_finished
from playground.run_simulations import configuration_of, run_simulation
from playground.scenarios import snapshot
from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import Manifest, load_manifests
from scheduler_core.store.cluster import SimulationLimitError

logger = logging.getLogger(__name__)


BATCH_SIZE = 200


ANY_CHANGES = float("inf")  # later batches are bounded by their events (and the clock) alone


# The first batch goes once the engine has made this many events: a viewer sees the run start as
# soon as it does (at 5,000 nodes the first 200 events took 0.3 s of the first frame's wait).
FIRST_BATCH_SIZE = 16


# ... or once its frames carry this many changes: at 5,000 nodes the run's first event comes after
# nine frames of node changes (1.1 MB), and storing and encoding them all took 0.2 s of the wait.
FIRST_BATCH_CHANGES = 512


FLUSH_SECONDS = 0.5


# A run declaring this many pods and nodes grows the heap past heap.BIG_HEAP_OBJECTS within its first
# instant: what the server holds is frozen as it starts (heap.freeze_before_growth).
FREEZE_HEAP_FROM_PODS = 5_000


def start_run(
    scenario: Scenario,
    seed: int = 0,
    *,
    background: bool = True,
    version: ScenarioVersion | None = None,
    manifests: list[Manifest] | None = None,
    api_clock: tuple[float, float | None] | None = None,
) -> Run:
    """A run of the scenario's current version (or `version`, its snapshot already taken). A run
    executed in this process simulates `manifests` when given: the version's, parsed by the caller
    (which needed them too), so that the run's first frame does not wait for a second parse.
    `api_clock`: (simulated, Unix seconds) where the Kubernetes API's clock goes on on this run; no
    Unix second: from when the API first serves it."""
    version = version or snapshot(scenario)
    clock_sim, clock_wall = api_clock if api_clock is not None else (None, None)
    run = Run.objects.create(
        scenario=scenario, version=version, seed=seed, api_clock_sim=clock_sim, api_clock_wall=clock_wall
    )
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
                check_replay(payload, stored_payload, run_frames.whole)
                continue
            batch.append(RunEvent(run=run, seq=seq, payload=payload))
            changes += len(payload["changes"])
            # Batches keep the database and the socket calm; the clock keeps a slow run live.
            if len(batch) >= most_events or changes >= most_changes or time.monotonic() - flushed_at >= FLUSH_SECONDS:
                _flush(run, slug, batch, publish)
                heartbeat.now()
                flushed_at = time.monotonic()
                most_events, most_changes, changes = BATCH_SIZE, ANY_CHANGES, 0
        keep_finished(run, simulation, run_frames)
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
