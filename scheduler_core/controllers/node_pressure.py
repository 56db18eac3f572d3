"""The kubelet's eviction manager (pkg/kubelet/eviction) for memory: node-pressure eviction.

Memory use is simulated with the annotation playground.k8s.io/memory-usage on a pod (or its
template), a quantity:
- `600Mi`: the pod's working set; its first container uses what the others' requests leave;
- `app=600Mi,sidecar=50Mi`: per container;
- absent (or unreadable): every container uses exactly its memory request (0 without one).
Only Running pods use memory (a terminating pod until it is gone).

Every 10 seconds (the eviction manager's monitoring interval, on the simulated clock) a node whose
kubelet is up compares memory.available, its allocatable memory minus what its pods use, with the
default hard eviction threshold memory.available<100Mi. Below it, the node's MemoryPressure
condition turns True (KubeletHasInsufficientMemory, api/node_conditions.py; the kubelet records
NodeHasInsufficientMemory; the taint node.kubernetes.io/memory-pressure:NoSchedule, which the node
lifecycle controller adds for that condition, is set here with it) and one pod is evicted per
interval, ranked as rankMemoryPressure does: pods using more than their request first, then lower
priority, then the larger use above the request. So BestEffort pods go first, then Burstable ones
over their requests, and Guaranteed pods last. Critical pods (priority from system-cluster-critical
up) are never evicted. The evicted pod fails at once (hard thresholds have no grace period) with
Warning Evicted "The node was low on resource: memory. Threshold quantity: 100Mi, available:
92160Ki. Container app was using 600Mi, request is 100Mi, has larger consumption of memory. "
(upstream's text, trailing space included) and the kubelet's Killing. The condition clears 5
minutes (evictionPressureTransitionPeriod) after pressure was last seen (False,
KubeletHasSufficientMemory; NodeHasSufficientMemory, taint removed). Containers above their limit
are OOM-killed in a real cluster; that is not simulated.
"""

import math
from collections.abc import Sequence
from dataclasses import replace

from scheduler_core.api import quantity
from scheduler_core.api.errors import QuantityError
from scheduler_core.api.node_conditions import (
    INSUFFICIENT_MEMORY,
    MEMORY_PRESSURE,
    SUFFICIENT_MEMORY,
    TAINT_NODE_MEMORY_PRESSURE,
    has_condition,
    with_kubelet_post,
)
from scheduler_core.api.pod_conditions import DISRUPTION_TARGET, TERMINATION_BY_KUBELET, with_condition, with_ready
from scheduler_core.api.quantity import format_binary_si, format_bytes
from scheduler_core.api.types import MEMORY, NO_SCHEDULE, Container, Node, Pod, Taint
from scheduler_core.controllers.base import MEMORY_USAGE_ANNOTATION, Context, DirtyKeys, record
from scheduler_core.scheduler.resources import pod_requests
from scheduler_core.store.cluster import Change, ChangeType, StoredObject

NAME = "node-pressure"
SOURCE = "kubelet"
MONITORING_INTERVAL = 10.0
PRESSURE_TRANSITION_PERIOD = 300.0  # evictionPressureTransitionPeriod
MEMORY_AVAILABLE_THRESHOLD = 100 * 2**20  # evictionHard memory.available<100Mi
MEMORY_AVAILABLE_THRESHOLD_TEXT = "100Mi"
SYSTEM_CRITICAL_PRIORITY = 2_000_000_000

# Upstream's texts (eviction/helpers.go, kubelet node events).
EVICTED = "Evicted"
NODE_LOW_MESSAGE = "The node was low on resource: {}. "
THRESHOLD_MET_MESSAGE = "Threshold quantity: {}, available: {}. "
CONTAINER_MESSAGE = "Container {} was using {}, request is {}, has larger consumption of {}. "
NODE_HAS_INSUFFICIENT_MEMORY = "NodeHasInsufficientMemory"
NODE_HAS_SUFFICIENT_MEMORY = "NodeHasSufficientMemory"
NODE_STATUS_MESSAGE = "Node {} status is now: {}"
KILLING = "Killing"
KILLING_MESSAGE = "Stopping container {}"


def _running_containers(pod: Pod) -> list[Container]:
    return [*pod.spec.containers, *(c for c in pod.spec.init_containers if c.restart_policy == "Always")]


def _parse(text: str) -> int | None:
    try:
        amount = quantity.value(text.strip())
    except QuantityError:
        return None
    return amount if amount >= 0 else None


def container_usage(pod: Pod) -> list[tuple[Container, int]]:
    """Each running container's working set, from playground.k8s.io/memory-usage."""
    containers = _running_containers(pod)
    usage = [(container, container.resources.requests.get(MEMORY, 0)) for container in containers]
    raw = pod.metadata.annotations.get(MEMORY_USAGE_ANNOTATION)
    if raw is None or not containers:
        return usage
    if "=" in raw:
        per_container: dict[str, int] = {}
        for part in raw.split(","):
            name, _, amount_text = part.partition("=")
            amount = _parse(amount_text)
            if amount is None:
                return usage
            per_container[name.strip()] = amount
        return [(container, per_container.get(container.name, used)) for container, used in usage]
    total = _parse(raw)
    if total is None:
        return usage
    others = sum(used for _, used in usage[1:])
    return [(usage[0][0], max(total - others, 0)), *usage[1:]]


def pod_memory_usage(pod: Pod) -> int:
    return sum(used for _, used in container_usage(pod))


def _uses_memory(pod: Pod) -> bool:
    return pod.status.phase == "Running"


def _is_pressure_taint(taint: Taint) -> bool:
    return taint.key == TAINT_NODE_MEMORY_PRESSURE and taint.effect == NO_SCHEDULE


def rank_for_memory_pressure(pods: Sequence[Pod]) -> list[Pod]:
    """rankMemoryPressure: exceeding requests first, then lower priority, then larger use above
    the request (ties in the order given)."""

    def key(pod: Pod) -> tuple[bool, int, int]:
        used = pod_memory_usage(pod)
        request = pod_requests(pod).get(MEMORY, 0)
        return (not used > request, pod.priority, -(used - request))

    return sorted(pods, key=key)


def eviction_message(pod: Pod, available: int) -> str:
    """evictionMessage for memory."""
    message = NODE_LOW_MESSAGE.format(MEMORY)
    message += THRESHOLD_MET_MESSAGE.format(MEMORY_AVAILABLE_THRESHOLD_TEXT, format_binary_si(available))
    for container, used in container_usage(pod):
        request = container.resources.requests.get(MEMORY, 0)
        if used > request:
            message += CONTAINER_MESSAGE.format(container.name, format_binary_si(used), format_bytes(request), MEMORY)
    return message


class NodePressureEviction:
    name = NAME
    watch_kinds = frozenset({"Pod", "Node"})  # the kinds on_change reacts to

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.dirty = DirtyKeys()  # node names
        self._armed: dict[str, float] = {}
        self._armed_idle: dict[str, bool] = {}
        self._by_node: dict[str, dict[str, None]] = {}  # node -> keys of the pods bound to it
        self._last_pressure: dict[str, float] = {}

    def on_change(self, change: Change[StoredObject]) -> None:
        if (pod_change := change.of(Pod)) is not None:
            old_pod, new_pod = pod_change.old, pod_change.new
            old_node = old_pod.spec.node_name if old_pod is not None else ""
            new_node = new_pod.spec.node_name if new_pod is not None else ""
            if old_node and old_node != new_node:
                self._by_node.get(old_node, {}).pop(change.key, None)
            if new_node:
                self._by_node.setdefault(new_node, {})[change.key] = None
            for name in (old_node, new_node):
                if name:
                    self.dirty.mark(name)
        elif (node_change := change.of(Node)) is not None:
            if change.type is ChangeType.DELETED:
                self._last_pressure.pop(change.key, None)
                self._by_node.pop(change.key, None)
                return
            old, new = node_change.old, node_change.latest
            if old is None or old.status != new.status:
                self.dirty.mark(change.key)

    def sync(self) -> bool:
        """Arms the next monitoring tick for nodes that may need it; changes nothing itself."""
        for name in self.dirty.take():
            node: Node | None = self.ctx.cluster.get(Node, name)
            if node is None or not node.status.ready:
                continue
            if self._pressure(node):
                # Idle when nothing can be evicted: lasting pressure alone does not keep a run going.
                self._arm(name, self._next_tick(), idle=not self._candidates(node))
            elif has_condition(node, MEMORY_PRESSURE):
                self._arm(name, self._last_pressure.get(name, self.ctx.now) + PRESSURE_TRANSITION_PERIOD)
        return False

    # ------------------------------------------------------------------ observations

    def _next_tick(self) -> float:
        return (math.floor(self.ctx.now / MONITORING_INTERVAL) + 1) * MONITORING_INTERVAL

    def _pods_on(self, name: str) -> list[Pod]:
        keys = self._by_node.get(name, {})
        pods = [pod for key in list(keys) if (pod := self.ctx.cluster.get(Pod, key)) is not None]
        return sorted(pods, key=lambda pod: (pod.metadata.creation_timestamp, pod.namespace, pod.name))

    def _available(self, node: Node) -> int | None:
        allocatable = node.status.allocatable.get(MEMORY)
        if allocatable is None:
            return None
        used = sum(pod_memory_usage(pod) for pod in self._pods_on(node.name) if _uses_memory(pod))
        return allocatable - used

    def _pressure(self, node: Node) -> bool:
        available = self._available(node)
        return available is not None and available < MEMORY_AVAILABLE_THRESHOLD

    def _arm(self, name: str, at: float, *, idle: bool = False) -> None:
        armed = self._armed.get(name)
        if armed is not None and armed <= at and (idle or not self._armed_idle.get(name, False)):
            return
        if armed is not None and armed < at:
            at = armed  # an idle tick that now has work to do
        self._armed[name] = at
        self._armed_idle[name] = idle
        label = f"eviction manager {name}"
        self.ctx.after(at - self.ctx.now, lambda: self._synchronize(name, at), label=label, idle=idle)

    def _candidates(self, node: Node) -> list[Pod]:
        """The pods the manager may evict: running, not being deleted, not critical."""
        return [
            pod
            for pod in self._pods_on(node.name)
            if _uses_memory(pod) and pod.metadata.deletion_timestamp is None and pod.priority < SYSTEM_CRITICAL_PRIORITY
        ]

    def _kubelet_stopped(self, name: str) -> bool:
        """A node-down stops the whole kubelet, its eviction manager too."""
        find = getattr(self.ctx, "controller", None)
        lifecycle = find("node-lifecycle") if find is not None else None
        return lifecycle is not None and bool(lifecycle.is_stopped(name))

    # ------------------------------------------------------------------ the monitoring tick

    def _synchronize(self, name: str, at: float) -> None:
        if self._armed.get(name) != at:
            return
        del self._armed[name]
        node: Node | None = self.ctx.cluster.get(Node, name)
        if node is None or not node.status.ready or self._kubelet_stopped(name):
            return
        now = self.ctx.now
        available = self._available(node)
        pressure = available is not None and available < MEMORY_AVAILABLE_THRESHOLD
        if pressure:
            self._last_pressure[name] = now
        last = self._last_pressure.get(name)
        condition = last is not None and now - last < PRESSURE_TRANSITION_PERIOD
        node = self._set_condition(node, condition)
        if pressure and available is not None:
            self._evict_one(node, available)
        self.dirty.mark(name)  # look again: still under pressure, or waiting for the condition to clear

    def _set_condition(self, node: Node, pressure: bool) -> Node:
        """MemoryPressureCondition, the kubelet's setter: the condition flips (an event says so), and
        the taint the node lifecycle controller derives from it follows the pressure, also when a
        node coming back (its conditions posted healthy) still carries it."""
        name = node.name
        tainted = any(_is_pressure_taint(taint) for taint in node.spec.taints)
        flips = pressure != has_condition(node, MEMORY_PRESSURE)
        if not flips and tainted == pressure:
            return node
        untainted = tuple(taint for taint in node.spec.taints if not _is_pressure_taint(taint))
        taints = (*untainted, Taint(key=TAINT_NODE_MEMORY_PRESSURE, effect=NO_SCHEDULE)) if pressure else untainted
        if flips:
            reason = NODE_HAS_INSUFFICIENT_MEMORY if pressure else NODE_HAS_SUFFICIENT_MEMORY
            state = INSUFFICIENT_MEMORY if pressure else SUFFICIENT_MEMORY
            record(self.ctx, node, reason, NODE_STATUS_MESSAGE.format(name, reason), source=SOURCE)
            node = with_kubelet_post(node, self.ctx.now, {MEMORY_PRESSURE: state})
        updated: Node = self.ctx.cluster.update(replace(node, spec=replace(node.spec, taints=taints)))
        return updated

    def _evict_one(self, node: Node, available: int) -> None:
        candidates = self._candidates(node)
        if not candidates:
            return
        victim = rank_for_memory_pressure(candidates)[0]
        message = eviction_message(victim, available)
        record(self.ctx, victim, EVICTED, message, warning=True, source=SOURCE)
        for container in _running_containers(victim):
            record(self.ctx, victim, KILLING, KILLING_MESSAGE.format(container.name), source=SOURCE)
        # The eviction manager's status: Failed, reason Evicted, and DisruptionTarget with its message.
        status = replace(victim.status, phase="Failed", reason=EVICTED, message=message)
        status = with_condition(status, DISRUPTION_TARGET, True, self.ctx.now, TERMINATION_BY_KUBELET, message)
        status = with_ready(status, False, self.ctx.now)
        self.ctx.cluster.update(replace(victim, status=status))
