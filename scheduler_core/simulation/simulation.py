"""The discrete-event simulation: a clock, timers, the object store and the controllers.

`Simulation.run()` is a generator of events: the CLI prints it. `Simulation.stream()` is the run
as it happened, every store change and every event interleaved in the order the engine made them,
each instant closed by an InstantEnd: the web app turns it into frames, one per event. Time is
simulated (seconds from 0), never the wall clock; randomness comes from one seeded generator; so
the same scenario and seed give the same events, byte for byte.

Each instant is settled before time moves on: after a change, every controller with pending work
syncs, in a fixed order, until none has any left. Then the clock jumps to the next timer. Controllers
change the store and record events synchronously, inside their syncs, so the stream cannot pause
between two of them: the store's journal keeps an instant's changes and events in their order, and
the stream yields them once the instant is settled (Cluster.before gives the store as it was at any
of them). A reader that cannot wait for a long instant (5,000 pods placed at t=0) asks for
checkpoints: the stream then also pauses between two syncs once enough events have been recorded,
yields what the engine did so far and a Checkpoint, and the store is as those items left it.

The options bound a run (events, objects, steps per instant, CPU seconds): past a bound it stops
with a SimulationLimitError. The CPU budget is the one use of a real clock, and it only aborts.
"""

import heapq
import itertools
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from scheduler_core.admission.chain import install
from scheduler_core.api.manifests import Manifest
from scheduler_core.api.timeline import Action
from scheduler_core.controllers.base import Controller, SimulationOptions
from scheduler_core.controllers.registry import default_controllers
from scheduler_core.controllers.taint_eviction import NAME as TAINT_EVICTION
from scheduler_core.controllers.taint_eviction import TaintEvictionController
from scheduler_core.scheduler.config import SchedulerConfiguration
from scheduler_core.simulation.actions import apply_document, schedule_action
from scheduler_core.store.cluster import Change, Cluster, SimulationLimitError, StoredObject
from scheduler_core.store.events import Event

ControllerFactory = Callable[["Simulation"], Controller]


@dataclass(order=True, slots=True)
class _Timer:
    time: float
    sequence: int
    callback: Callable[[], None] = field(compare=False)
    label: str = field(compare=False, default="")
    idle: bool = field(compare=False, default=False)  # a periodic retry that alone never keeps a run going
    # An idle retry that the store's changes make work left to do (Simulation.after, woken_by_change):
    # the store's version once the instant that armed it had settled; None for other timers.
    armed_version: int | None = field(compare=False, default=None)
    pending: Callable[[], bool] | None = field(compare=False, default=None)  # the retry still means to run
    needed: Callable[[], bool] | None = field(compare=False, default=None)  # an idle timer still has work


@dataclass(frozen=True, slots=True)
class Instant:
    time: float
    events: list[Event]
    # When the run goes on (the next timer's time, possibly this same time), None if it stops here.
    next_time: float | None


@dataclass(frozen=True, slots=True)
class InstantEnd:
    """In a stream, after an instant's last change and event: the controllers have settled, the
    store is quiet, and the simulation waits here (its store is as this instant left it) until the
    reader asks for more."""

    time: float
    # When the run goes on (the next timer's time, possibly this same time), None if it stops here.
    next_time: float | None


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """In a stream asked for checkpoints, inside an instant that has not settled: the engine paused
    between two controller syncs, the store as the items so far left it. The instant goes on."""

    time: float


# What Simulation.stream yields: a store change, an event, a pause inside an instant, or its end.
StreamItem = Change[StoredObject] | Event | Checkpoint | InstantEnd

_CHECKPOINT = object()  # _instants' pause inside an instant


class Simulation:
    def __init__(
        self,
        manifests: Sequence[Manifest],
        configuration: SchedulerConfiguration | None = None,
        *,
        seed: int = 0,
        options: SimulationOptions | None = None,
        controllers: Sequence[ControllerFactory] | None = None,
    ) -> None:
        self.options = options or SimulationOptions()
        self.rng = random.Random(seed)
        self.seed = seed
        self._now = 0.0
        self.cluster = Cluster(
            lambda: self._now, self.rng, max_events=self.options.max_events, max_objects=self.options.max_objects
        )
        self._cpu_spent = 0.0  # engine CPU seconds up to the last pause (a yield)
        self._cpu_resumed = 0.0  # time.thread_time() when the run last resumed
        self._cpu_next_check = 0.0  # perf_counter() before which the budget is not looked at
        install(self.cluster, seed=seed)
        self.configuration = configuration or SchedulerConfiguration()
        self.workload_demand: dict[str, float] = {}
        self.demand_log: list[tuple[float, str, float]] = []
        self._timers: list[_Timer] = []
        self._busy_timers = 0  # timers that are not idle: while there are some, the run goes on
        self._arming: list[_Timer] = []  # woken_by_change timers armed in the instant now settling
        self._sequence = itertools.count()
        self.manifests = list(manifests)
        factories = list(controllers) if controllers is not None else default_controllers()
        self.controllers: list[Controller] = [factory(self) for factory in factories]
        self._by_name: dict[str, Controller] = {}
        for controller in self.controllers:
            self._by_name.setdefault(controller.name, controller)
            # A controller that names the kinds it reacts to (watch_kinds) is not called for the others.
            self.cluster.watch(controller.on_change, kinds=getattr(controller, "watch_kinds", None))
        self._started = False

    # ------------------------------------------------------------------ the Context protocol

    @property
    def now(self) -> float:
        return self._now

    def after(
        self,
        delay: float,
        callback: Callable[[], None],
        *,
        label: str = "",
        idle: bool = False,
        woken_by_change: Callable[[], bool] | None = None,
        needed: Callable[[], bool] | None = None,
    ) -> None:
        """Calls `callback` after `delay` simulated seconds. The run goes on while a timer that is
        not idle is pending. An idle one (a periodic retry) fires only if the run goes on anyway,
        except one `woken_by_change`: a retry that a change could make succeed (a controller's
        backoff after a refused create) is work left to do once the store has changed after the
        instant that armed it, for as long as `woken_by_change()` says the retry still means to
        run (a retry superseded or dropped is not), so a run never ends with a retry pending that
        would now succeed. An idle one `needed` is work left for as long as `needed()` says its
        callback would still change something (a rollout's progress deadline, while the rollout is
        stuck), and no longer once that has happened by other means."""
        timer = _Timer(self._now + max(delay, 0.0), next(self._sequence), callback, label, idle)
        heapq.heappush(self._timers, timer)
        if not idle:
            self._busy_timers += 1
        elif woken_by_change is not None:
            timer.pending = woken_by_change
            self._arming.append(timer)
        elif needed is not None:
            timer.needed = needed

    def controller(self, name: str) -> Controller | None:
        return self._by_name.get(name)

    def scheduled_evictions(self) -> dict[str, float]:
        """Pods the taint eviction controller will delete (tolerationSeconds counting down): pod key ->
        the simulated time it is due. Read-only: asking changes nothing of the run."""
        controller = self._by_name.get(TAINT_EVICTION)
        return controller.scheduled_evictions() if isinstance(controller, TaintEvictionController) else {}

    # ------------------------------------------------------------------ the CPU budget

    def _resume(self) -> None:
        self._cpu_resumed = time.thread_time()

    def _pause(self) -> None:
        self._cpu_spent += time.thread_time() - self._cpu_resumed

    @property
    def cpu_seconds(self) -> float:
        """CPU time the engine spent running, up to the instant it last yielded (its caller's time
        between instants is not counted)."""
        return self._cpu_spent

    def _check_cpu(self) -> None:
        limit = self.options.max_cpu_seconds
        if limit is None:
            return
        # thread_time() is a system call (~0.4 us); perf_counter() (~0.07 us) gates it to every 10 ms.
        now = time.perf_counter()
        if now < self._cpu_next_check:
            return
        self._cpu_next_check = now + 0.01
        if self._cpu_spent + time.thread_time() - self._cpu_resumed > limit:
            raise SimulationLimitError(f"the run used more than {limit:g} s of CPU time")

    # ------------------------------------------------------------------ running

    def _settle(self, checkpoint_events: int | None = None) -> Iterator[object]:
        """Syncs the controllers until none has work left; with `checkpoint_events`, pauses (yields)
        between two syncs, or two steps of a controller's sync (its sync_steps), whenever at least
        that many events were recorded since the last pause."""
        steps = 0
        busy = True
        events = self.cluster.events
        marked = len(events)

        def due() -> bool:
            nonlocal marked
            if checkpoint_events is None or len(events) - marked < checkpoint_events:
                return False
            marked = len(events)
            return True

        while busy:
            busy = False
            for controller in self.controllers:
                if checkpoint_events is not None and hasattr(controller, "sync_steps"):
                    # The same work in the same order, with pauses inside it (one sync of five
                    # ReplicaSets creates 2,500 pods: it would hold the first frame back).
                    synced = False
                    for _ in controller.sync_steps():
                        synced = True
                        if due():
                            yield from self._paused()
                else:
                    synced = controller.sync()
                if synced:
                    busy = True
                    steps += 1
                    self._check_cpu()
                    if steps > self.options.max_steps_per_instant:
                        raise SimulationLimitError(
                            f"the cluster does not settle at t={self._now:g}s (controllers keep changing it)"
                        )
                    if due():
                        yield from self._paused()

    def _paused(self) -> Iterator[object]:
        """A checkpoint: the engine's CPU time stops while the reader looks."""
        self._pause()
        yield _CHECKPOINT
        self._resume()

    def _apply_initial(self) -> None:
        for manifest in self.manifests:
            self._check_cpu()
            if isinstance(manifest.object, Action):
                schedule_action(self, manifest.object)
            else:
                apply_document(self, manifest)

    def run(self, until: float | None = None) -> Iterator[Event]:
        """Yield every event as it happens; stop when nothing can change any more, or at `until`."""
        for instant in self.run_instants(until):
            yield from instant.events

    def run_instants(self, until: float | None = None) -> Iterator["Instant"]:
        """The run instant by instant: the start, then every timer that fired, each with the events
        it caused (often none: a pod turning Ready, a requeue). Between two instants the store is
        quiet, so a watcher can tell what changed at each, events or not."""
        emitted = 0
        for next_time in self._instants(until):
            events = self.cluster.events[emitted:]
            emitted += len(events)
            yield Instant(self._now, events, next_time)

    def stream(self, until: float | None = None, checkpoint_events: int | None = None) -> Iterator[StreamItem]:
        """The run as it happened: every change to the store (the Cluster's Change) and every event,
        interleaved in the order the engine made them, and after each instant's last one an
        InstantEnd (at the start too, even if nothing happened). A change comes before the watchers
        hear of it, so whatever they do about it follows it: a pod's binding precedes its Scheduled
        event, and nothing of a later event comes before that event. Within an instant the items
        are yielded once it has settled: while a reader looks at them, the store is as the instant
        left it (Cluster.before undoes the rest for a reader stopped in the middle).

        With `checkpoint_events`, an instant's items also come out while it runs, followed by a
        Checkpoint, each time the engine recorded that many more events (see _settle): the same
        items in the same order, split where the engine paused."""
        journal: list[Change[StoredObject] | Event] = []
        self.cluster.journal = journal
        try:
            for pause in self._instants(until, checkpoint_events):
                items, journal = journal, []
                self.cluster.journal = journal
                yield from items
                if pause is _CHECKPOINT:
                    yield Checkpoint(self._now)
                else:
                    yield InstantEnd(self._now, pause)
        finally:
            self.cluster.journal = None

    def cluster_at_event(self, seq: int, until: float | None = None) -> Cluster | None:
        """Runs up to the event numbered `seq` (Event.seq) and gives the store as it was right after
        it: a copy (Cluster.before) without what the rest of its instant did, so what a viewer
        stepping to that event sees. None if the run ends, or reaches `until`, before it. The run
        stops there: a Simulation runs once."""
        later: list[Change[StoredObject] | Event] | None = None
        for item in self.stream(until):
            if later is None:
                if isinstance(item, Event) and item.seq == seq:
                    later = []
            elif isinstance(item, InstantEnd):
                return self.cluster.before(later)
            elif not isinstance(item, Checkpoint):
                later.append(item)
        return None

    def _instants(self, until: float | None, checkpoint_events: int | None = None) -> Iterator[Any]:
        """Runs the simulation, pausing at each settled instant: yields when the run goes on (the
        next timer's time, None if it stops there), and _CHECKPOINT at a pause inside an instant
        (with `checkpoint_events`). The engine's CPU time stops while it waits."""
        if self._started:
            raise RuntimeError("a Simulation runs once")
        self._started = True
        self._resume()
        self._apply_initial()
        yield from self._settle(checkpoint_events)
        self._stamp_armed()
        while True:
            next_time = self._next_time(until)
            self._pause()  # what the caller does with the instant is not the engine's time
            yield next_time
            self._resume()
            if not self._busy_timers and not self._woken() and not self._needed():
                break  # no timers, or only idle ones with nothing new to retry and nothing needed
            timer = heapq.heappop(self._timers)
            if until is not None and timer.time > until:
                heapq.heappush(self._timers, timer)
                self._now = until
                break
            if not timer.idle:
                self._busy_timers -= 1
            self._now = timer.time
            self._check_cpu()
            timer.callback()
            yield from self._settle(checkpoint_events)
            self._stamp_armed()
        self._pause()

    def _next_time(self, until: float | None) -> float | None:
        if not self._busy_timers and not self._woken() and not self._needed():
            return None
        upcoming = self._timers[0].time
        return upcoming if until is None or upcoming <= until else None

    def _stamp_armed(self) -> None:
        """The instant has settled: what it changed is what the retries it armed already saw."""
        version = self.cluster.resource_version
        for timer in self._arming:
            timer.armed_version = version
        self._arming.clear()

    def _woken(self) -> bool:
        """A pending woken_by_change retry has a changed store to look at."""
        version = self.cluster.resource_version
        return any(
            timer.armed_version is not None
            and timer.armed_version != version
            and timer.pending is not None
            and timer.pending()
            for timer in self._timers
        )

    def _needed(self) -> bool:
        """A pending idle timer whose callback would still do something."""
        return any(timer.needed is not None and timer.needed() for timer in self._timers)

    def run_to_end(self, until: float | None = None) -> list[Event]:
        return list(self.run(until))

    def on_change(self, change: Change[StoredObject]) -> None:  # pragma: no cover - simulation is not a watcher
        pass
