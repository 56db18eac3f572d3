"""The node lifecycle controller (pkg/controller/nodelifecycle) and the kubelet's node heartbeat.

`node-down` stops a node's kubelet: it no longer renews its lease or posts status. After the node
monitor grace period (nodeMonitorGracePeriod, 50s since v1.32) the controller sets the node's Ready
condition, and the kubelet's pressure conditions, to Unknown (api/node_conditions.py; status.ready
False), records NodeNotReady ("Node NAME status is now: NodeNotReady"), marks the node's ready pods
not ready (MarkPodsNotReady: Warning NodeNotReady "Node is not ready" on each), and taints the node
node.kubernetes.io/unreachable with NoExecute (timeAdded now: the taint eviction controller's
clock) and NoSchedule (TaintNodesByCondition).

`node-up` starts the kubelet again: it posts its conditions, Ready and the pressure ones back to
normal (events from the kubelet: Starting, NodeHasSufficientMemory..., NodeReady), the controller
removes the unreachable taints, and the kubelet re-probes the pods it runs (ready again after their
readiness delay). A node that comes back within the grace period was never marked.

A node that reports Ready False by itself (a manifest's Ready condition False) gets the
node.kubernetes.io/not-ready taints instead, and loses them once Ready; turning from Ready to
NotReady that way is recorded and marks its pods not ready as above.

Simplifications: the heartbeat is modelled as renewed at the instant the kubelet stops, so the node
turns NotReady exactly 50s later (upstream: 40-55s, on the 5s monitor period); RegisteredNode events
for nodes joining are not recorded; until the grace period ends the simulated kubelet still acts,
since it only reads status.ready.
"""

from dataclasses import replace

from scheduler_core.api.errors import ActionError
from scheduler_core.api.node_conditions import (
    HEALTHY,
    TAINT_NODE_MEMORY_PRESSURE,
    with_kubelet_post,
    with_kubelet_stopped,
)
from scheduler_core.api.pod_conditions import with_ready
from scheduler_core.api.timeline import Action
from scheduler_core.api.types import NO_EXECUTE, NO_SCHEDULE, Node, Pod, Taint
from scheduler_core.controllers.base import Context, DirtyKeys, record
from scheduler_core.controllers.kubelet import readiness_delay
from scheduler_core.store.cluster import Change, ChangeType, StoredObject

NAME = "node-lifecycle"
SOURCE = "node-controller"
KUBELET_SOURCE = "kubelet"
NODE_MONITOR_GRACE_PERIOD = 50.0

TAINT_NODE_NOT_READY = "node.kubernetes.io/not-ready"
TAINT_NODE_UNREACHABLE = "node.kubernetes.io/unreachable"

# Upstream's event reasons and texts.
NODE_NOT_READY = "NodeNotReady"
NODE_READY = "NodeReady"
NODE_STATUS_MESSAGE = "Node {} status is now: {}"  # RecordNodeStatusChange, and the kubelet's node events
POD_NODE_NOT_READY_MESSAGE = "Node is not ready"  # MarkPodsNotReady
STARTING = "Starting"
STARTING_MESSAGE = "Starting kubelet."
NODE_ALLOCATABLE_ENFORCED = "NodeAllocatableEnforced"
NODE_ALLOCATABLE_ENFORCED_MESSAGE = "Updated Node Allocatable limit across pods"
# The kubelet's condition setters, in their order, when the conditions come back from Unknown.
RECOVERED_CONDITIONS = ("NodeHasSufficientMemory", "NodeHasNoDiskPressure", "NodeHasSufficientPID")


def _taints_for(key: str, now: float) -> tuple[Taint, Taint]:
    return Taint(key=key, effect=NO_EXECUTE, time_added=now), Taint(key=key, effect=NO_SCHEDULE)


def _without(taints: tuple[Taint, ...], keys: tuple[str, ...]) -> tuple[Taint, ...]:
    return tuple(t for t in taints if not (t.key in keys and t.effect in (NO_EXECUTE, NO_SCHEDULE)))


class NodeLifecycleController:
    name = NAME
    watch_kinds = frozenset({"Node"})  # the kinds on_change reacts to

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.dirty = DirtyKeys()
        self._stopped: dict[str, int] = {}  # node -> token of its kubelet's stop
        self._unreachable: set[str] = set()  # nodes this controller marked Unknown
        self._seen_ready: dict[str, bool] = {}
        self._tokens = 0

    # ------------------------------------------------------------------ actions

    def handle_action(self, action: Action) -> None:
        target = action.target
        if target is None:  # the parser asks for one; an Action built in code may lack it
            raise ActionError(f"{action.op} needs a target node")
        node: Node | None = self.ctx.cluster.get(Node, target.key)
        if node is None:
            raise ActionError(f"{target} not found")
        if action.op == "node-down":
            if node.name in self._stopped:
                return
            self._tokens += 1
            token = self._tokens
            self._stopped[node.name] = token
            self.ctx.after(
                NODE_MONITOR_GRACE_PERIOD,
                lambda: self._grace_expired(node.name, token),
                label=f"node monitor grace period {node.name}",
            )
        elif action.op == "node-up":
            if self._stopped.pop(node.name, None) is None:
                return
            if node.name in self._unreachable:
                self._kubelet_back(node.name)

    def is_stopped(self, node_name: str) -> bool:
        """Whether the node's kubelet is down (for the other kubelet-side controllers)."""
        return node_name in self._stopped

    # ------------------------------------------------------------------ node going away

    def _grace_expired(self, name: str, token: int) -> None:
        if self._stopped.get(name) != token:
            return
        node: Node | None = self.ctx.cluster.get(Node, name)
        if node is None:
            return
        self._unreachable.add(name)
        now = self.ctx.now
        was_ready = node.status.ready
        # doNoScheduleTaintingPass derives the pressure taints from conditions that are now Unknown.
        kept = _without(node.spec.taints, (TAINT_NODE_UNREACHABLE, TAINT_NODE_NOT_READY, TAINT_NODE_MEMORY_PRESSURE))
        taints = (*kept, *_taints_for(TAINT_NODE_UNREACHABLE, now))
        self._seen_ready[name] = False
        stopped = with_kubelet_stopped(node, now)  # Ready (and the pressure conditions) Unknown
        updated = self.ctx.cluster.update(replace(stopped, spec=replace(node.spec, taints=taints)))
        if was_ready:
            record(self.ctx, updated, NODE_NOT_READY, NODE_STATUS_MESSAGE.format(name, NODE_NOT_READY), source=SOURCE)
            self._mark_pods_not_ready(name)

    def _mark_pods_not_ready(self, name: str) -> None:
        """MarkPodsNotReady: a Warning on each pod whose Ready condition it turns False."""
        for pod in self.ctx.cluster.pods_on_node(name):
            if not pod.status.ready:
                continue
            stored = self.ctx.cluster.update(replace(pod, status=with_ready(pod.status, False, self.ctx.now)))
            record(self.ctx, stored, NODE_NOT_READY, POD_NODE_NOT_READY_MESSAGE, warning=True, source=SOURCE)

    # ------------------------------------------------------------------ node coming back

    def _kubelet_back(self, name: str) -> None:
        self._unreachable.discard(name)
        node: Node | None = self.ctx.cluster.get(Node, name)
        if node is None:
            return
        record(self.ctx, node, STARTING, STARTING_MESSAGE, source=KUBELET_SOURCE)
        record(self.ctx, node, NODE_ALLOCATABLE_ENFORCED, NODE_ALLOCATABLE_ENFORCED_MESSAGE, source=KUBELET_SOURCE)
        for condition in RECOVERED_CONDITIONS:
            record(self.ctx, node, condition, NODE_STATUS_MESSAGE.format(name, condition), source=KUBELET_SOURCE)
        record(self.ctx, node, NODE_READY, NODE_STATUS_MESSAGE.format(name, NODE_READY), source=KUBELET_SOURCE)
        taints = _without(node.spec.taints, (TAINT_NODE_UNREACHABLE, TAINT_NODE_NOT_READY))
        self._seen_ready[name] = True
        posted = with_kubelet_post(node, self.ctx.now, HEALTHY)  # its first post: every condition back from Unknown
        self.ctx.cluster.update(replace(posted, spec=replace(node.spec, taints=taints)))
        for pod in self.ctx.cluster.pods_on_node(name):
            if pod.status.phase == "Running" and not pod.status.ready and pod.metadata.deletion_timestamp is None:
                self._probe_later(pod)

    def _probe_later(self, pod: Pod) -> None:
        key, uid = pod.key, pod.metadata.uid
        self.ctx.after(readiness_delay(pod), lambda: self._pod_ready(key, uid), label=f"ready {key}")

    def _pod_ready(self, key: str, uid: str) -> None:
        """The restarted kubelet's readiness probes pass again."""
        pod: Pod | None = self.ctx.cluster.get(Pod, key)
        if pod is None or pod.metadata.uid != uid or pod.status.phase != "Running" or pod.status.ready:
            return
        if pod.metadata.deletion_timestamp is not None or pod.spec.node_name in self._stopped:
            return
        node = self.ctx.cluster.get(Node, pod.spec.node_name)
        if node is None or not node.status.ready:
            return
        self.ctx.cluster.update(replace(pod, status=with_ready(pod.status, True, self.ctx.now)))

    # ------------------------------------------------------------------ nodes reporting NotReady

    def on_change(self, change: Change[StoredObject]) -> None:
        node_change = change.of(Node)
        if node_change is None:
            return
        if change.type is ChangeType.DELETED:
            self._seen_ready.pop(change.key, None)
            self._stopped.pop(change.key, None)
            self._unreachable.discard(change.key)
            return
        if self._seen_ready.get(change.key) != node_change.latest.status.ready:
            self.dirty.mark(change.key)

    def sync(self) -> bool:
        keys = self.dirty.take()
        for key in keys:
            node: Node | None = self.ctx.cluster.get(Node, key)
            if node is None:
                continue
            was_ready = self._seen_ready.get(key)
            self._seen_ready[key] = node.status.ready
            if key in self._unreachable:
                continue  # this controller's own Unknown
            taints = self._condition_taints(node)
            if taints != node.spec.taints:
                node = self.ctx.cluster.update(replace(node, spec=replace(node.spec, taints=taints)))
            if was_ready and not node.status.ready:
                record(self.ctx, node, NODE_NOT_READY, NODE_STATUS_MESSAGE.format(key, NODE_NOT_READY), source=SOURCE)
                self._mark_pods_not_ready(key)
        return bool(keys)

    def _condition_taints(self, node: Node) -> tuple[Taint, ...]:
        """Ready False: the not-ready taints (kept as they are when present); Ready: none of them."""
        current = node.spec.taints
        if node.status.ready:
            return _without(current, (TAINT_NODE_UNREACHABLE, TAINT_NODE_NOT_READY))
        kept = _without(current, (TAINT_NODE_UNREACHABLE,))
        wanted = _taints_for(TAINT_NODE_NOT_READY, self.ctx.now)
        missing = tuple(t for t in wanted if not any(k.key == t.key and k.effect == t.effect for k in kept))
        return (*kept, *missing)
