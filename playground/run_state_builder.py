"""A finished run's states, rebuilt off the request when this process did not keep them (issue #14:
a run executed by a worker process, before a restart, or dropped from run_states' LRU was replayed
from its start inside the explain request, about 10 s at 500 nodes / 5,000 pods).

A request asks `state(run)`: the kept run (playground/run_states.py) if there is one; else, for a
run of few frames (INLINE_FRAMES), nothing, and it replays inline as before (cheap); else a replay
of the run to its end is queued, which `remember`s it. The request that queued it waits for it
briefly (WAIT_SECONDS), then answers "preparing" and asks again later; a poll does not wait.

The replays work as previews do (playground/preview.py): daemon threads at a lower priority
(NICE), at most WORKERS at once and QUEUE_SIZE waiting (past it a request is told to come back,
nothing is queued), each run once however many ask for it (single flight, by run_states.RunKey).
A replay has the run's own CPU budget (it holds no request), and is checked against the stored
run: as many frames, the same last one. One that differs, or stops at a bound, is remembered as
failed (FAILED_KEPT of them) and its message given to whoever asks, so a poll never starts it
again.

The worker never touches the database: the request gives it the version's documents, the seed
and the stored run's frame count and last frame.
"""

import logging
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

from playground import heap, run_frames, run_replay, run_simulations, run_states
from playground.background import keep_workers, lower_priority, next_job
from playground.models import Run
from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import load_manifests
from scheduler_core.store.cluster import SimulationLimitError

logger = logging.getLogger(__name__)

# A run of at most this many frames is replayed inside the request, as before: a gallery run, say,
# in a quarter of a second at most (a replay costs 0.5 to 0.6 ms a frame at 10 and 100 nodes).
INLINE_FRAMES = 500
WORKERS = 1  # replays are CPU-bound and share the GIL with the requests: one at a time
# Replays waiting for the worker: with the one under way, no more than run_states keeps (more would
# push each other out before their requests come back for them).
QUEUE_SIZE = run_states.MAX_RUNS - WORKERS
WAIT_SECONDS = 0.3  # how long a request waits for a replay it started or joined
FAILED_KEPT = 64
NICE = 10


@dataclass(frozen=True, slots=True)
class State:
    """What a request can answer with: the kept run, or why not yet (preparing), or why never."""

    kept: run_states.FinishedRun | None = None
    preparing: bool = False
    queue_full: bool = False  # preparing, but not queued: every worker busy and the queue full
    frames: int = 0  # the run's stored frames (what the replay replays)
    error: str = ""

    @property
    def frames_shown(self) -> str:
        return f"{self.frames:,}"

    @property
    def inline(self) -> bool:
        """Nothing kept nor to prepare: the caller replays inline (a small or unfinished run)."""
        return self.kept is None and not self.preparing and not self.error


@dataclass(slots=True)
class _Job:
    key: run_states.RunKey
    cluster_document: str
    scheduler_config_yaml: str
    seed: int
    frames: int
    last_frame: Any
    done: threading.Event = field(default_factory=threading.Event)


_lock = threading.Lock()
_work = threading.Condition(_lock)
_jobs: dict[run_states.RunKey, _Job] = {}  # queued or being replayed
_queue: deque[_Job] = deque()
_failed: "OrderedDict[run_states.RunKey, str]" = OrderedDict()
_workers: list[threading.Thread] = []
replays = 0  # replays started by this process (how tests see that nothing ran twice)


def state(run: Run, wait: float | None = None) -> State:
    """The run's kept states, or a replay of it started (or joined) and waited for `wait` seconds."""
    key = run_replay.state_key(run)
    kept = run_states.finished_run(key)
    if kept is not None:
        return State(kept=kept)
    with _lock:
        failed = _failed.get(key)
        job = _jobs.get(key)
    if failed is not None:
        return State(error=failed)
    started = False  # a request that joins a replay under way (a poll) does not wait for it
    if job is None:
        if run.status != Run.Status.FINISHED:  # an unfinished run has no end to replay to
            return State()
        last = run.events.order_by("-seq").values_list("seq", "payload").first()
        frames, last_frame = last if last else (0, None)
        if frames <= INLINE_FRAMES:
            return State(frames=frames)
        outcome, job = _submit(key, run, frames, last_frame)
        if outcome == "full":
            return State(preparing=True, queue_full=True, frames=frames)
        started = outcome == "queued"
    if job is not None and started:
        job.done.wait(WAIT_SECONDS if wait is None else wait)
    kept = run_states.finished_run(key)
    if kept is not None:
        return State(kept=kept, frames=job.frames if job else 0)
    with _lock:
        failed = _failed.get(key)
    if failed is not None:
        return State(error=failed)
    return State(preparing=True, frames=job.frames if job else 0)


def _submit(key: run_states.RunKey, run: Run, frames: int, last_frame: Any) -> tuple[str, _Job | None]:
    """Queues the run's replay ("queued"), or finds it queued by another request meanwhile
    ("joined"), or ended meanwhile ("ended": kept or failed), or the queue full ("full")."""
    with _lock:
        job = _jobs.get(key)
        if job is not None:
            return "joined", job
        # A worker remembers the run before it forgets the job: no job and not kept means not ended.
        if key in _failed or run_states.finished_run(key) is not None:
            return "ended", None
        if len(_queue) >= QUEUE_SIZE:
            return "full", None
        version = run.version
        job = _Job(key, version.cluster_document, version.scheduler_config_yaml, run.seed, frames, last_frame)
        _jobs[key] = job
        _queue.append(job)
        _start_workers()
        _work.notify()
    return "queued", job


def busy() -> int:
    """Replays queued or under way."""
    with _lock:
        return len(_jobs)


def clear_failures() -> None:
    with _lock:
        _failed.clear()


def _start_workers() -> None:
    """Called with the lock held: the pool starts with the first replay (and replaces a dead worker)."""
    keep_workers(_workers, WORKERS, _work_loop, "run-states")


def _work_loop() -> None:
    global replays
    lower_priority(NICE)
    while True:
        job = next_job(_work, _queue)
        with _lock:
            replays += 1
        started, cpu = time.monotonic(), time.thread_time()
        try:
            with heap.busy():
                error = _replay(job)
        except Exception as failure:  # an engine bug: the panel says so, the worker lives on
            logger.exception("replay of run %s failed", job.key[0])
            error = f"internal error: {type(failure).__name__}"
        heap.released()  # the replay's simulation
        logger.info(
            "run %s replayed for its states in %.1f s (%.1f s of CPU): %s",
            job.key[0],
            time.monotonic() - started,
            time.thread_time() - cpu,
            error or f"{job.frames} frames kept",
        )
        with _lock:
            if error:
                _failed[job.key] = error
                while len(_failed) > FAILED_KEPT:
                    _failed.popitem(last=False)
            del _jobs[job.key]
        job.done.set()


def _replay(job: _Job) -> str:
    """Replays the run to its end and keeps it (run_states.remember); the reason it could not, if any."""
    try:
        manifests = load_manifests(job.cluster_document, source="scenario")
        config = run_simulations.configuration_of(job.scheduler_config_yaml)
        # The run's own budget, not a request's: the run fitted in it, and its replay costs the same.
        simulation = run_simulations.run_simulation(manifests, config, job.seed)
        replayed = run_frames.RunFrames(simulation, keep=run_states.MAX_ITEMS)
        count, last = 0, None
        for frame in replayed:
            count += 1
            last = frame
    except ManifestError as error:
        return f"this run's scenario no longer loads: {error.message}"
    except SimulationLimitError as error:
        return f"replaying this run to explain it stopped: {error}"
    if count != job.frames or last is None or not run_frames.same_frame(job.last_frame, last, replayed.whole):
        return (
            "this run cannot be explained: replaying it gives different events than those stored "
            "(the engine changed since it ran); run it again"
        )
    if replayed.journal is None:
        return (
            f"this run is too long to explain ({run_states.MAX_ITEMS:,} changes and events at most are kept); "
            "a shorter run (fewer pods, or an earlier end) can be"
        )
    finished = run_states.FinishedRun.detached(
        simulation.cluster,
        simulation.configuration,
        replayed.journal,
        replayed.boundaries,
        replayed.times,
        simulation.demand_log,
    )
    run_states.remember(job.key, finished)
    return ""
