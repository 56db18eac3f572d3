"""The taint eviction controller (pkg/controller/tainteviction, formerly the NoExecute taint manager).

When a node's NoExecute taints change, every pod bound to it is looked at: a pod that does not
tolerate them all is deleted at once; a pod whose tolerations for them all set tolerationSeconds
is deleted when the smallest has passed; a pod tolerating them forever stays. Before deleting it
records TaintManagerEviction "Marking for deletion Pod NAMESPACE/NAME"; a scheduled deletion that
the taints' removal (or a change to the pod's tolerations) calls off records "Cancelling deletion
of Pod NAMESPACE/NAME". Pods are looked at again when they are bound or their tolerations change.

The countdown starts when the controller sees the taint (upstream uses its own clock, not the
taint's timeAdded; in the simulation both are the instant the taint is added). A deletion is done
once: the pod stays marked until it is gone or the node's taints change.
"""

import math
from dataclasses import dataclass

from scheduler_core.api.pod_conditions import DELETION_BY_TAINT_MANAGER, TAINT_MANAGER_MESSAGE
from scheduler_core.api.types import NO_EXECUTE, Node, ObjectMeta, Pod, Taint, Toleration
from scheduler_core.controllers.base import Context, DirtyKeys, delete_pod, mark_disruption_target, record
from scheduler_core.store.cluster import Change, StoredObject

NAME = "taint-eviction"
SOURCE = "taint-eviction-controller"

# Upstream's event reason and texts (emitPodDeletionEvent, emitCancelPodDeletionEvent).
TAINT_MANAGER_EVICTION = "TaintManagerEviction"
MARKING_MESSAGE = "Marking for deletion Pod {}"
CANCELLING_MESSAGE = "Cancelling deletion of Pod {}"


@dataclass(slots=True)
class _Work:
    created_at: float
    fire_at: float
    cancelled: bool = False


def no_execute_taints(taints: tuple[Taint, ...]) -> tuple[Taint, ...]:
    return tuple(taint for taint in taints if taint.effect == NO_EXECUTE)


def matching_tolerations(
    taints: tuple[Taint, ...], tolerations: tuple[Toleration, ...]
) -> tuple[bool, list[Toleration]]:
    """v1helper.GetMatchingTolerations: for each taint the first toleration that tolerates it."""
    used: list[Toleration] = []
    for taint in taints:
        match = next((toleration for toleration in tolerations if toleration.tolerates(taint)), None)
        if match is None:
            return False, []
        used.append(match)
    return True, used


def min_toleration_time(tolerations: list[Toleration]) -> float:
    """getMinTolerationTime: seconds until eviction, 0 at once, -1 for never."""
    if not tolerations:
        return 0.0
    smallest = math.inf
    for toleration in tolerations:
        seconds = toleration.toleration_seconds
        if seconds is None:
            continue
        if seconds <= 0:
            return 0.0
        smallest = min(smallest, float(seconds))
    return -1.0 if smallest == math.inf else smallest


class TaintEvictionController:
    name = NAME
    watch_kinds = frozenset({"Node", "Pod"})  # the kinds on_change reacts to

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._tainted: dict[str, tuple[Taint, ...]] = {}  # node -> its NoExecute taints
        self._work: dict[str, _Work | None] = {}  # pod key -> scheduled deletion; None once done
        self._nodes = DirtyKeys()
        self._pods: dict[tuple[str, str], None] = {}  # (pod key, node name) updates, in order

    # ------------------------------------------------------------------ watching

    def on_change(self, change: Change[StoredObject]) -> None:
        if (node_change := change.of(Node)) is not None:
            old_node, new_node = node_change.old, node_change.new
            old = no_execute_taints(old_node.spec.taints) if old_node is not None else ()
            new = no_execute_taints(new_node.spec.taints) if new_node is not None else ()
            if old_node is None or new_node is None or old != new:
                self._nodes.mark(change.key)
        elif (pod_change := change.of(Pod)) is not None:
            old_pod, new_pod = pod_change.old, pod_change.new
            if (
                old_pod is not None
                and new_pod is not None
                and old_pod.spec.tolerations == new_pod.spec.tolerations
                and old_pod.spec.node_name == new_pod.spec.node_name
            ):
                return
            pod = new_pod if new_pod is not None else old_pod
            assert pod is not None
            self._pods[(change.key, pod.spec.node_name)] = None

    def sync(self) -> bool:
        busy = False
        # Node updates first, as upstream's workers do.
        for name in self._nodes.take():
            busy = True
            self._handle_node(name)
        while self._pods:
            busy = True
            (key, node_name), _ = next(iter(self._pods.items()))
            del self._pods[(key, node_name)]
            self._handle_pod(key, node_name)
            if self._nodes:
                break
        return busy

    # ------------------------------------------------------------------ handlers

    def _handle_node(self, name: str) -> None:
        node = self.ctx.cluster.get(Node, name)
        if node is None:
            self._tainted.pop(name, None)
            return
        taints = no_execute_taints(node.spec.taints)
        if taints:
            self._tainted[name] = taints
        else:
            self._tainted.pop(name, None)
        pods: list[Pod] = self.ctx.cluster.pods_on_node(name)
        if not pods:
            return
        if not taints:
            for pod in pods:
                self._cancel_with_event(pod.key)
            return
        now = self.ctx.now
        for pod in pods:
            # A pod update queued at this same instant would look at the same state again; with a
            # deletion already done it would only mark the pod a second time.
            self._pods.pop((pod.key, name), None)
            self._process(pod.key, pod.spec.tolerations, taints, now)

    def _handle_pod(self, key: str, node_name: str) -> None:
        pod: Pod | None = self.ctx.cluster.get(Pod, key)
        if pod is None:
            self._cancel_with_event(key)
            return
        if pod.spec.node_name != node_name or not node_name:
            return
        taints = self._tainted.get(node_name)
        if taints is None:
            return
        self._process(key, pod.spec.tolerations, taints, self.ctx.now)

    def _process(self, key: str, tolerations: tuple[Toleration, ...], taints: tuple[Taint, ...], now: float) -> None:
        """processPodOnNode."""
        if not taints:
            self._cancel_with_event(key)
        tolerated, used = matching_tolerations(taints, tolerations)
        if not tolerated:
            self._cancel_with_event(key)
            self._add_work(key, now, now)
            return
        seconds = min_toleration_time(used)
        if seconds < 0:
            self._cancel_with_event(key)
            return
        start, trigger = now, now + seconds
        scheduled = self._work.get(key)
        if scheduled is not None:
            start = scheduled.created_at
            # Upstream keeps the earlier deletion only when strictly earlier; a second look at the
            # same instant keeps it too (real clocks never stand still between two events).
            if start + seconds <= trigger:
                return
            self._cancel_with_event(key)
        self._add_work(key, start, trigger)

    # ------------------------------------------------------------------ what is scheduled

    def scheduled_evictions(self) -> dict[str, float]:
        """Pod key -> the simulated time its deletion is due, for deletions neither done nor called
        off: what a viewer's countdown shows (upstream keeps the same in its timed worker queue)."""
        return {key: work.fire_at for key, work in self._work.items() if work is not None and not work.cancelled}

    # ------------------------------------------------------------------ the timed work queue

    def _add_work(self, key: str, created_at: float, fire_at: float) -> None:
        if key in self._work:
            return  # already scheduled, or already done
        work = _Work(created_at, fire_at)
        self._work[key] = work
        delay = fire_at - self.ctx.now
        if delay <= 0:
            self._fire(key, work)
        else:
            self.ctx.after(delay, lambda: self._fire(key, work), label=f"taint eviction {key}")

    def _cancel_with_event(self, key: str) -> None:
        if key not in self._work:
            return
        work = self._work.pop(key)
        if work is None:
            return
        work.cancelled = True
        namespace, _, name = key.partition("/")
        pod = self.ctx.cluster.get(Pod, key)
        subject = pod if pod is not None else _PodRef(namespace, name)
        record(self.ctx, subject, TAINT_MANAGER_EVICTION, CANCELLING_MESSAGE.format(key), source=SOURCE)

    def _fire(self, key: str, work: _Work) -> None:
        if work.cancelled or self._work.get(key) is not work:
            return
        self._work[key] = None
        namespace, _, name = key.partition("/")
        pod = self.ctx.cluster.get(Pod, key)
        subject = pod if pod is not None else _PodRef(namespace, name)
        record(self.ctx, subject, TAINT_MANAGER_EVICTION, MARKING_MESSAGE.format(key), source=SOURCE)
        if pod is not None:
            marked = mark_disruption_target(self.ctx, pod, DELETION_BY_TAINT_MANAGER, TAINT_MANAGER_MESSAGE)
            delete_pod(self.ctx, marked or pod)


class _PodRef:
    """An event's involvedObject for a pod that is gone (upstream records by reference)."""

    kind_name = "Pod"

    def __init__(self, namespace: str, name: str) -> None:
        self.metadata = ObjectMeta(name, namespace)
