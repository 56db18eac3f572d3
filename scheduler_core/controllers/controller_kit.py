"""What the DaemonSet, Job and CronJob controllers share, after pkg/controller/controller_utils.go
and client-go's workqueue: a delaying work queue on simulated timers, an index of objects by their
controller's uid (kept from watch changes, so a reconcile never scans every pod), pod creation and
deletion with the events RealPodControl records, slow-start batches, and the garbage collector's
cascade for the objects an owner leaves behind.
"""

import math
from collections.abc import Callable, Iterable
from contextlib import suppress
from typing import Any

from scheduler_core.admission.priority import AdmissionError
from scheduler_core.api.types import ObjectMeta, OwnerReference, Pod, PodSpec
from scheduler_core.controllers.base import Context, DirtyKeys, delete_pod, record
from scheduler_core.controllers.naming import generate_name
from scheduler_core.store.cluster import Change, ChangeType, ConflictError, StoredObject

# Event reasons and messages of pkg/controller/controller_utils.go (RealPodControl).
SUCCESSFUL_CREATE_POD = "SuccessfulCreate"
FAILED_CREATE_POD = "FailedCreate"
SUCCESSFUL_DELETE_POD = "SuccessfulDelete"
CREATED_POD_MESSAGE = "Created pod: {}"
ERROR_CREATING_MESSAGE = "Error creating: {}"
DELETED_POD_MESSAGE = "Deleted pod: {}"

# controller.SlowStartInitialBatchSize
SLOW_START_INITIAL_BATCH_SIZE = 1
IDLE_RETRY_SECONDS = 60.0


class DelayingQueue:
    """workqueue's Add, AddAfter and AddRateLimited over the simulation's timers. A key asked for
    after a delay waits for the earliest time it was asked for (a later AddAfter of a waiting key is
    dropped); `add` makes it ready at once. Ready keys are taken in the order they became ready.

    `add_rate_limited` is the per-item exponential failure limiter (`base` doubling up to `cap`),
    reset by `forget` after a successful sync. Retries a minute or more away are idle timers: alone
    they do not keep a finished run going, so an object that keeps failing does not make it endless.
    """

    def __init__(self, ctx: Context, label: str, *, base: float = 0.005, cap: float = 1000.0) -> None:
        self.ctx = ctx
        self.label = label
        self.base = base
        self.cap = cap
        self.ready = DirtyKeys()
        self._waiting: dict[str, tuple[float, bool]] = {}  # key -> (when, idle)
        self._failures: dict[str, int] = {}

    def add(self, key: str) -> None:
        self.ready.mark(key)

    def add_after(self, key: str, delay: float, *, idle: bool = False) -> None:
        if delay <= 0:
            self.add(key)
            return
        at = self.ctx.now + delay
        waiting = self._waiting.get(key)
        if waiting is not None and waiting[0] <= at:
            if waiting[1] and not idle:
                # An earlier idle retry must not make this wake-up optional: keep the run going.
                self.ctx.after(delay, lambda: self.ready.mark(key), label=f"{self.label} {key}")
            return
        self._waiting[key] = (at, idle)
        self.ctx.after(delay, lambda: self._fire(key, at), label=f"{self.label} {key}", idle=idle)

    def add_coalesced(self, key: str) -> None:
        """Add, at the same simulated instant but after everything already due now has run: the
        pod events of a burst (a scheduler binding pod after pod, kubelets starting them) reach the
        controller as one sync, as a busy workqueue folds repeated adds of a key into one."""
        waiting = self._waiting.get(key)
        if waiting is not None and waiting[0] <= self.ctx.now:
            return
        at = self.ctx.now
        self._waiting[key] = (at, False)
        self.ctx.after(0.0, lambda: self._fire(key, at), label=f"{self.label} {key}")

    def add_rate_limited(self, key: str) -> None:
        failures = self._failures.get(key, 0)
        self._failures[key] = failures + 1
        delay = min(self.base * 2.0 ** min(failures, 60), self.cap)
        self.add_after(key, delay, idle=delay >= IDLE_RETRY_SECONDS)

    def forget(self, key: str) -> None:
        self._failures.pop(key, None)

    def _fire(self, key: str, at: float) -> None:
        waiting = self._waiting.get(key)
        if waiting is not None and waiting[0] == at:
            del self._waiting[key]
            self.ready.mark(key)

    def take(self) -> list[str]:
        return self.ready.take()

    def __bool__(self) -> bool:
        return bool(self.ready)


class OwnerIndex:
    """Keys of the objects of one kind whose controller reference names a given owner uid, in the
    order they were first seen. Fed with every Change of that kind."""

    def __init__(self, owner_kind: str) -> None:
        self.owner_kind = owner_kind
        self._by_owner: dict[str, dict[str, None]] = {}

    def _owner_uid(self, obj: StoredObject | None) -> str | None:
        if obj is None:
            return None
        ref = obj.metadata.controller_ref()
        if ref is None or ref.kind != self.owner_kind or not ref.uid:
            return None
        return str(ref.uid)

    def observe(self, change: Change[StoredObject]) -> tuple[str | None, str | None]:
        """Index the change; return the owner uid before and after it."""
        before, after = self._owner_uid(change.old), self._owner_uid(change.new)
        if before is not None and (before != after or change.type is ChangeType.DELETED):
            keys = self._by_owner.get(before)
            if keys is not None:
                keys.pop(change.key, None)
                if not keys:
                    del self._by_owner[before]
        if after is not None and change.type is not ChangeType.DELETED:
            self._by_owner.setdefault(after, {})[change.key] = None
        return before, after

    def keys(self, owner_uid: str) -> list[str]:
        return list(self._by_owner.get(owner_uid, ()))

    def forget(self, owner_uid: str) -> list[str]:
        return list(self._by_owner.pop(owner_uid, {}))


def controller_ref(kind: str, api_version: str, owner: StoredObject) -> OwnerReference:
    """metav1.NewControllerRef."""
    return OwnerReference(
        kind=kind, name=owner.metadata.name, uid=owner.metadata.uid, api_version=api_version, controller=True
    )


def scaled_value(value: int | str, total: int, *, round_up: bool) -> int:
    """intstr.GetScaledValueFromIntOrPercent."""
    if isinstance(value, int):
        return value
    text = value.strip()
    if not text.endswith("%"):
        return int(text)
    percent = int(text[:-1])
    exact = percent * total / 100
    return math.ceil(exact) if round_up else math.floor(exact)


def create_pod(
    ctx: Context,
    owner: Any,
    ref: OwnerReference,
    *,
    prefix: str,
    labels: dict[str, str],
    annotations: dict[str, str],
    spec: PodSpec,
    source: str,
) -> Pod | None:
    """RealPodControl.CreatePodsWithGenerateName: a pod named from `prefix` plus five random
    characters; SuccessfulCreate on the owner, or FailedCreate with the API server's refusal."""
    namespace = owner.metadata.namespace
    while True:
        name = generate_name(prefix, ctx.rng)
        if ctx.cluster.get(Pod, f"{namespace}/{name}" if namespace else name) is None:
            break
    metadata = ObjectMeta(
        name=name,
        namespace=namespace,
        labels=labels,
        annotations=annotations,
        owner_references=(ref,),
        generate_name=prefix,
    )
    try:
        pod: Pod = ctx.cluster.create(Pod(metadata=metadata, spec=spec))
    except (AdmissionError, ConflictError) as error:
        # Admission runs before the API server generates the name, so its refusal names the
        # prefix (admission.NewForbidden: `pods "web-" is forbidden: ...`).
        message = str(error).replace(f'"{name}"', f'"{prefix}"', 1)
        record(ctx, owner, FAILED_CREATE_POD, ERROR_CREATING_MESSAGE.format(message), warning=True, source=source)
        return None
    record(ctx, owner, SUCCESSFUL_CREATE_POD, CREATED_POD_MESSAGE.format(pod.name), source=source)
    return pod


def delete_owned_pod(ctx: Context, owner: Any, pod: Pod, *, source: str) -> bool:
    """RealPodControl.DeletePod: a graceful DELETE and SuccessfulDelete on the owner; a pod that is
    already gone is not an error and gets no event. The event is recorded first: the DELETE of an
    existing pod cannot fail here, and the kubelet reacting to it (Killing) comes after it upstream."""
    if ctx.cluster.get(Pod, pod.key) is None:
        return False
    record(ctx, owner, SUCCESSFUL_DELETE_POD, DELETED_POD_MESSAGE.format(pod.name), source=source)
    delete_pod(ctx, pod)
    return True


def slow_start(count: int, create_one: Callable[[int], bool]) -> int:
    """Creates in batches of 1, 2, 4... (controller.SlowStartInitialBatchSize); after a batch with a
    failure the rest is skipped until the next sync. `create_one(i)` returns whether pod i was made.
    Returns how many were made."""
    made = 0
    position = 0
    batch = min(count, SLOW_START_INITIAL_BATCH_SIZE)
    while position < count:
        failed = False
        for index in range(position, position + batch):
            if create_one(index):
                made += 1
            else:
                failed = True
        position += batch
        if failed:
            break
        batch = min(2 * batch, count - position)
    return made


def collect_pods(ctx: Context, keys: Iterable[str]) -> None:
    """The garbage collector deleting the pods of an owner that is gone (background propagation):
    graceful deletes, no events."""
    for key in keys:
        pod = ctx.cluster.get(Pod, key)
        if pod is not None:
            delete_pod(ctx, pod)


def collect_objects(ctx: Context, kind: str, keys: Iterable[str]) -> None:
    """The garbage collector deleting dependents of another kind (a CronJob's Jobs)."""
    for key in keys:
        with suppress(ConflictError):
            ctx.cluster.delete(kind, key)
