"""The page's kubectl console (issue #17, item 1), its web half: the cluster a command reads (the
run shown in the page, right after the player's event), and a write carried out as the Act form
carries out an action: the command's timeline Actions appended at that event's moment, a new
version, and a run that goes on from there (scheduler_core/kubectl/console.py decides both).

A run this process does not keep is replayed (briefly inline, or off the request with the console
asking again) exactly as the explanation and describe panels do."""

import bisect
from dataclasses import dataclass

from playground import run_replay, run_state_builder, run_states
from playground.kubeapi import live, watching
from playground.models import Run
from scheduler_core.api.errors import ManifestError
from scheduler_core.kubeapi.metrics import demand_at
from scheduler_core.kubeapi.objects import ApiSnapshot, snapshot_of
from scheduler_core.kubeapi.watch import cluster_hosts
from scheduler_core.kubectl.watching import Frames
from scheduler_core.store.cluster import SimulationLimitError


@dataclass(frozen=True, slots=True)
class Waiting:
    """The run's states are not here yet: the console asks again in a moment."""

    why: str


class ConsoleUnavailable(Exception):
    """The run cannot be read (failed, or past a replay's limit): str(error) says why."""


def epoch_of(run: Run) -> float:
    """The Unix second of the run's simulated second 0: the API clock's if the API served the run,
    else the run's start (so creation timestamps read as the moment the run was made)."""
    if run.api_clock_sim is not None and run.api_clock_wall is not None:
        return float(int(run.api_clock_wall - run.api_clock_sim))
    return float(int(run.created_at.timestamp()))


def kept_run(run: Run) -> run_states.FinishedRun | Waiting | None:
    """The run's kept states; Waiting while they are prepared; None for a run still under way."""
    state = run_state_builder.state(run)
    if state.error:
        raise ConsoleUnavailable(state.error)
    if state.preparing:
        return Waiting(f"preparing run {run.pk}'s {state.frames_shown} events for the console")
    if state.kept is None and run.status == Run.Status.FINISHED:  # a short run: replayed here to its end, then kept
        return _replayed_to_end(run)
    return state.kept


def frames_of(run: Run) -> Frames | Waiting:
    """The run's journal by frames, for `get -w` (Waiting while the run is under way or prepared)."""
    kept = kept_run(run)
    if kept is None:
        return Waiting(f"run {run.pk} is still being simulated")
    if isinstance(kept, Waiting):
        return kept
    return Frames(
        kept.journal,
        watching.journal_index(run.pk, kept),
        kept.boundaries,
        kept.times,
        epoch_of(run),
        lambda: watching.event_occurrences(run.pk, kept),
        cluster_hosts(kept.final),
    )


def frame_read(kept: run_states.FinishedRun, seq: int | None, at: float | None) -> int:
    """The frame a command reads: the player's position, else the last at or before `at`, else the last."""
    frames = len(kept.boundaries)
    if seq is None and at is not None:
        seq = bisect.bisect_right(kept.times, at)
    return frames if seq is None else max(0, min(seq, frames))


def snapshot_at(run: Run, seq: int | None, at: float | None = None) -> ApiSnapshot | Waiting:
    """The run's cluster right after frame `seq` (None: its last, or its last frame at or before
    simulated second `at`), as the API shows it."""
    kept = kept_run(run)
    if isinstance(kept, Waiting):
        return kept
    if kept is not None:
        frame = frame_read(kept, seq, at)
        now = kept.times[frame - 1] if frame else 0.0
        return live.frame_snapshot(run, kept, frame, now=now, epoch=epoch_of(run))
    if seq is None or seq > run_state_builder.INLINE_FRAMES:  # (an `at` waits for the run's end too)
        return Waiting(f"run {run.pk} is still being simulated")
    try:  # a run under way, early on: replayed up to the player's event (no resource versions kept)
        replayed = run_replay.replay(run, seq)
    except (ManifestError, SimulationLimitError) as error:
        raise ConsoleUnavailable(str(error)) from None
    cluster, time = replayed.cluster, replayed.time
    demand = demand_at(replayed.simulation.demand_log, time)
    return snapshot_of(cluster, [], cluster.resource_version, now=time, epoch=epoch_of(run), demand=demand)


def _replayed_to_end(run: Run) -> run_states.FinishedRun | None:
    try:
        run_replay.replay(run, 1 << 30)
    except (ManifestError, SimulationLimitError) as error:
        raise ConsoleUnavailable(str(error)) from None
    return run_states.finished_run(run_replay.state_key(run))
