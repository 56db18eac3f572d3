"""Which state of a scenario its API serves, and when.

The API serves the newest run of the scenario's current version (started when there is none) on a
clock that goes with the wall clock: the run's simulated second `api_clock_sim` was at Unix second
`api_clock_wall`, so a client that waits sees the run go on, as it would see a real cluster (kubectl
rollout status waits for the rollout, kubectl drain's retries meet the disruption budget as it is
5 s later). A run the API serves for the first time starts at its end (a settled cluster). A write
becomes a timeline action at the clock's present moment; the run made from it carries the clock on
from there, from when it is ready (so what the write set off is not skipped while it is simulated;
timestamps move on by that time). Past the run's last frame the cluster stays as the run left it.

A run still being simulated, or being replayed off the request to be kept here, is answered 429
with Retry-After, which kubectl and client-go retry on their own.
"""

import bisect
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings

from playground import run_replay, run_state_builder, run_states, runs
from playground.models import Run, Scenario, ScenarioVersion
from playground.scenarios import snapshot
from scheduler_core.kubeapi import status
from scheduler_core.kubeapi.metrics import demand_at
from scheduler_core.kubeapi.objects import ApiSnapshot, base_version, snapshot_of

RETRY_AFTER_SECONDS = 1
MAX_SNAPSHOTS = 8  # (run, frame) snapshots kept: a watch and a few commands at different moments

_lock = threading.Lock()
_snapshots: OrderedDict[tuple[run_states.RunKey, int], ApiSnapshot] = OrderedDict()


@dataclass(frozen=True, slots=True)
class Served:
    run: Run
    kept: run_states.FinishedRun
    now: float  # simulated seconds: the clock's present moment on this run

    @property
    def end(self) -> float:
        return self.kept.times[-1] if self.kept.times else 0.0

    @property
    def epoch(self) -> float:
        """The Unix second of simulated second 0, whole: simulated times keep their own fractions."""
        return float(int(float(self.run.api_clock_wall or 0.0) - float(self.run.api_clock_sim or 0.0)))

    @property
    def frame(self) -> int:
        """The last frame at or before the present moment (0: before the first)."""
        return bisect.bisect_right(self.kept.times, self.now)


def serving_run(scenario: Scenario) -> Run:
    """The newest run of the scenario's current version; a new one (the last run's seed) if none,
    started under the scenario's lock, so that a read does not start one beside a write's own."""
    version = snapshot(scenario)
    run = _newest_run(scenario, version)
    if run is None:
        with scenario_lock(scenario.pk):
            run = _newest_run(scenario, version)
            if run is None:
                previous = scenario.runs.order_by("-pk").first()
                seed = previous.seed if previous else 0
                run = runs.start_run(scenario, seed, background=settings.RUNS_IN_BACKGROUND, version=version)
    return run


def _newest_run(scenario: Scenario, version: ScenarioVersion) -> Run | None:
    return scenario.runs.filter(version=version).order_by("-pk").select_related("scenario", "version").first()


# Striped: a scenario's writes take one of these (scenarios that share one only wait on each other
# for a moment); reentrant, since a write reads the scenario under it.
_LOCK_STRIPES = 256
_locks = [threading.RLock() for _ in range(_LOCK_STRIPES)]


@contextmanager
def scenario_lock(scenario_id: int) -> Iterator[None]:
    """Serialises this process's writes of one scenario (kubectl drain evicts pods in parallel: each
    eviction must be decided on the cluster the one before it left)."""
    with _locks[scenario_id % _LOCK_STRIPES]:
        yield


def served(scenario: Scenario) -> Served:
    """The run the API serves, kept here, with its clock; 429 while it is not ready."""
    run = serving_run(scenario)
    if run.status == Run.Status.FAILED:
        raise status.ApiError(500, "InternalError", f"the scenario's run failed: {run.error[:300]}")
    if run.status != Run.Status.FINISHED:
        raise _busy("the scenario's run is still being simulated")
    state = run_state_builder.state(run, wait=0)
    if state.error:
        raise status.ApiError(500, "InternalError", state.error)
    kept = state.kept
    if kept is None and not state.preparing:  # a short run: replayed here to its end, then kept
        run_replay.replay(run, 1 << 30)
        kept = run_states.finished_run(run_replay.state_key(run))
    if kept is None:
        raise _busy("the scenario's run is being prepared")
    wall = time.time()
    if run.api_clock_sim is None:  # a run the API did not make: its clock starts at its end
        start = kept.times[-1] if kept.times else 0.0
        Run.objects.filter(pk=run.pk, api_clock_sim__isnull=True).update(api_clock_sim=start, api_clock_wall=wall)
        run.refresh_from_db(fields=["api_clock_sim", "api_clock_wall"])
    if run.api_clock_wall is None:  # a write's run: its clock goes from the write's moment from now
        Run.objects.filter(pk=run.pk, api_clock_wall__isnull=True).update(api_clock_wall=wall)
        run.refresh_from_db(fields=["api_clock_sim", "api_clock_wall"])
    assert run.api_clock_sim is not None and run.api_clock_wall is not None
    return Served(run, kept, run.api_clock_sim + max(0.0, wall - run.api_clock_wall))


def live_snapshot(scenario: Scenario) -> tuple[Served, ApiSnapshot]:
    """The scenario's cluster at the API clock's present moment."""
    found = served(scenario)
    return found, snapshot_at(found)


def snapshot_at(found: Served) -> ApiSnapshot:
    """The store right after the served frame, with its versions; `now` is the clock's moment."""
    return frame_snapshot(found.run, found.kept, found.frame, now=found.now, epoch=found.epoch)


def frame_snapshot(run: Run, kept: run_states.FinishedRun, frame: int, *, now: float, epoch: float) -> ApiSnapshot:
    """The kept run's store right after `frame` (0: before the first), in the API's view, read at
    simulated second `now` (cached: a watch and the page's console read the same frames)."""
    key = (run_replay.state_key(run), frame)
    with _lock:
        cached = _snapshots.get(key)
        if cached is not None:
            _snapshots.move_to_end(key)
    if cached is None:
        cluster, _time = kept.cluster_at(frame)
        cut = kept.boundaries[frame - 1] if frame else 0
        base = base_version(kept.final.resource_version, kept.journal)
        cached = snapshot_of(cluster, kept.journal[:cut], base, now=now, epoch=epoch)
        with _lock:
            _snapshots[key] = cached
            while len(_snapshots) > MAX_SNAPSHOTS:
                _snapshots.popitem(last=False)
    cached.now, cached.epoch = now, epoch  # the same frame read a moment later: ages go on
    cached.demand = demand_at(kept.demand_log, now)
    return cached


def _busy(message: str) -> status.ApiError:
    return status.too_many_requests(f"{message}; try again in a moment", RETRY_AFTER_SECONDS)
