"""What every controller sees of the simulation, and the shape of a controller."""

import random
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field, replace
from typing import Protocol, runtime_checkable

from scheduler_core.api.pod_conditions import DISRUPTION_TARGET, is_pod_terminal, with_condition
from scheduler_core.api.timeline import Action
from scheduler_core.api.types import Pod
from scheduler_core.store.cluster import Change, Cluster, ConflictError, StoredObject
from scheduler_core.store.events import NORMAL, WARNING

# Annotations a scenario may set on a pod (or its template) to shape its simulated life (also
# playground.k8s.io/run-seconds and exit-code, in api/container_states.py, which reports them).
STARTUP_SECONDS_ANNOTATION = "playground.k8s.io/startup-seconds"
MEMORY_USAGE_ANNOTATION = "playground.k8s.io/memory-usage"
DEFAULT_STARTUP_SECONDS = 1.0


@dataclass(slots=True)
class SimulationOptions:
    """How the run goes, and the bounds past which it stops with a SimulationLimitError. The bounds
    only ever abort a run: a run that stays within them produces the same events with or without."""

    default_startup_seconds: float = DEFAULT_STARTUP_SECONDS
    max_events: int = 1_000_000
    max_steps_per_instant: int = 200_000
    max_objects: int | None = None  # objects in the store at once (pods, ReplicaSets, ...), None: no bound
    # CPU seconds the engine itself may spend running (time.thread_time(), so a server's other
    # threads and what the caller does between events do not count), None: no bound.
    max_cpu_seconds: float | None = None


class Context(Protocol):
    """The simulation as controllers use it."""

    cluster: Cluster
    rng: random.Random
    options: SimulationOptions
    workload_demand: dict[str, float]  # "Kind/namespace/name" -> total CPU demand in millicores (set-utilization)
    # Every change of a demand, in order: (time, key, millicores), for what metrics-server would
    # report at a moment after the run (kubectl top).
    demand_log: list[tuple[float, str, float]]

    @property
    def now(self) -> float: ...

    def after(
        self,
        delay: float,
        callback: Callable[[], None],
        *,
        label: str = "",
        idle: bool = False,
        woken_by_change: Callable[[], bool] | None = None,
        needed: Callable[[], bool] | None = None,
    ) -> None: ...


class Controller(Protocol):
    """A controller may also name the kinds its on_change reacts to in a class attribute
    `watch_kinds` (a frozenset): the simulation then does not call it for the others."""

    name: str

    def on_change(self, change: Change[StoredObject]) -> None: ...

    def sync(self) -> bool: ...


@runtime_checkable
class ActionHandler(Protocol):
    """A controller that carries out timeline actions of its own (drain, node-down, rollout undo...)."""

    def handle_action(self, action: Action) -> None: ...


@dataclass(slots=True)
class DirtyKeys:
    """Keys a controller must reconcile, in the order they were first marked (deterministic)."""

    keys: dict[str, None] = field(default_factory=dict)

    def mark(self, key: str) -> None:
        self.keys[key] = None

    def take(self) -> list[str]:
        if not self.keys:
            return []
        keys = list(self.keys)
        self.keys.clear()
        return keys

    def __bool__(self) -> bool:
        return bool(self.keys)


def delete_pod(ctx: Context, pod: Pod, *, grace_period: int | None = None) -> None:
    """DELETE a pod as the API server does: an unbound pod goes at once; a bound one becomes
    Terminating (deletionTimestamp) and the kubelet removes it after its grace period."""
    current = ctx.cluster.get(Pod, pod.key)
    if current is None:
        return
    if not current.spec.node_name or grace_period == 0:
        with suppress(ConflictError):
            ctx.cluster.delete(Pod, current.key)
        return
    if current.metadata.deletion_timestamp is not None:
        return
    grace = current.spec.termination_grace_period_seconds if grace_period is None else grace_period
    metadata = replace(current.metadata, deletion_timestamp=ctx.now, deletion_grace_period_seconds=grace)
    ctx.cluster.update(replace(current, metadata=metadata))


def mark_disruption_target(ctx: Context, pod: Pod, reason: str, message: str) -> Pod | None:
    """DisruptionTarget=True on the pod's status, written before a deletion that disrupts it (by
    preemption, the eviction API, the taint manager). Returns the stored pod."""
    current: Pod | None = ctx.cluster.get(Pod, pod.key)
    if current is None:
        return None
    status = with_condition(current.status, DISRUPTION_TARGET, True, ctx.now, reason, message)
    if status is current.status:
        return current
    stored: Pod = ctx.cluster.update(replace(current, status=status))
    return stored


def record(
    ctx: Context, obj: StoredObject, reason: str, message: str, *, warning: bool = False, source: str = ""
) -> None:
    ctx.cluster.record(obj, reason, message, event_type=WARNING if warning else NORMAL, source=source)


def is_terminating(pod: Pod) -> bool:
    return pod.metadata.deletion_timestamp is not None


def is_active(pod: Pod) -> bool:
    """Counted by controllers: not finished and not being deleted."""
    return not is_pod_terminal(pod) and not is_terminating(pod)
