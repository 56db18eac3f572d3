"""The kubelets: a bound pod is admitted or rejected (kubelet_admission.py); an admitted one starts
after its start-up delay (Pulled, Created, Started), becomes Ready when its readinessProbe allows,
runs to completion when it is not restartPolicy Always, and a deleted pod is stopped (Killing) and
removed after its grace period.

Annotations shape a pod's simulated life: playground.k8s.io/startup-seconds (default 1),
playground.k8s.io/run-seconds (default 5 for pods that run to completion), playground.k8s.io/exit-code.
"""

from dataclasses import replace

from scheduler_core.api.container_states import (
    DEFAULT_RUN_SECONDS,
    EXIT_CODE_ANNOTATION,
    RUN_SECONDS_ANNOTATION,
    annotated_seconds,
)
from scheduler_core.api.pod_conditions import is_pod_terminal, with_ready
from scheduler_core.api.types import Node, Pod
from scheduler_core.controllers.base import (
    STARTUP_SECONDS_ANNOTATION,
    Context,
    record,
)
from scheduler_core.controllers.kubelet_admission import REJECTED, Rejection, admit
from scheduler_core.scheduler.snapshot import PodInfoCache
from scheduler_core.store.cluster import Change, ChangeType, StoredObject

NAME = "kubelet"


def readiness_delay(pod: Pod) -> float:
    """Seconds from start to Ready: the first probe runs at initialDelaySeconds, then every
    periodSeconds until successThreshold probes have passed; no probe means ready at once."""
    delays = [
        probe.initial_delay_seconds + probe.period_seconds * (probe.success_threshold - 1)
        for container in pod.spec.containers
        if (probe := container.readiness_probe) is not None
    ]
    return float(max(delays, default=0))


class Kubelet:
    name = NAME
    watch_kinds = frozenset({"Pod", "Node"})  # the kinds on_change reacts to

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._starting: set[str] = set()  # uids with a start timer
        self._stopping: set[str] = set()  # uids with a removal timer
        # Per node, the pods its kubelet admitted that have not ended: uid -> pod key.
        self._admitted: dict[str, dict[str, str]] = {}
        self._infos = PodInfoCache()  # what admission reads of the pods already on a node

    def on_change(self, change: Change[StoredObject]) -> None:
        if (pod_change := change.of(Pod)) is not None:
            pod = pod_change.new
            if change.type is ChangeType.DELETED or pod is None:
                return
            self._consider(pod)
        elif (node_change := change.of(Node)) is not None and change.type is ChangeType.MODIFIED:
            # Any node update may mean its kubelet is back (Ready again, or restarted before the
            # control plane noticed): look at its pods again, in store order. _consider is idempotent.
            for pod in self.ctx.cluster.pods_on_node(node_change.latest.name):
                self._consider(pod)

    def sync(self) -> bool:
        return False  # all of the kubelet's work runs on timers

    def _node_ready(self, pod: Pod) -> bool:
        """The pod's kubelet is up: its node is Ready and has not been taken down (a stopped kubelet
        does nothing from the moment it stops, before the control plane notices it)."""
        node = self.ctx.cluster.get(Node, pod.spec.node_name)
        if node is None or not node.status.ready:
            return False
        find = getattr(self.ctx, "controller", None)
        lifecycle = find("node-lifecycle") if find is not None else None
        return not (lifecycle is not None and lifecycle.is_stopped(node.name))

    def _consider(self, pod: Pod) -> None:
        if not pod.spec.node_name or not self._node_ready(pod):
            return
        uid = pod.metadata.uid
        if pod.metadata.deletion_timestamp is not None:
            if uid not in self._stopping:
                self._stopping.add(uid)
                self._stop(pod)
            return
        admitted = self._admitted.setdefault(pod.spec.node_name, {})
        if is_pod_terminal(pod):
            admitted.pop(uid, None)  # an ended pod holds nothing on its node any more
            return
        if pod.status.phase != "Pending":
            admitted[uid] = pod.key  # already running (a manifest's status, a kubelet back)
            return
        if uid in self._starting:
            return
        self._starting.add(uid)
        key = pod.key
        delay = annotated_seconds(pod, STARTUP_SECONDS_ANNOTATION, self.ctx.options.default_startup_seconds)
        if uid not in admitted:
            # The kubelet admits a pod when it receives it, against the pods it admitted before. A
            # rejection is written when the kubelet gets to the pod (its start-up delay), so that a
            # ReplicaSet replacing a rejected pod does so once a second, not in a loop at one instant.
            rejection = self._admission(pod)
            if rejection is not None:
                self.ctx.after(delay, lambda: self._reject(key, uid, rejection), label=f"reject {key}")
                return
            admitted[uid] = key
        self.ctx.after(delay, lambda: self._start(key, uid), label=f"start {key}")

    def _admission(self, pod: Pod) -> Rejection | None:
        node = self.ctx.cluster.get(Node, pod.spec.node_name)
        if node is None:
            return None  # _node_ready saw it a moment ago
        admitted = self._admitted.get(node.name, {})
        active, ended = [], []
        for uid, key in admitted.items():
            other = self._current(key, uid)
            if other is not None and other.spec.node_name == node.name and not is_pod_terminal(other):
                active.append(other)
            else:
                ended.append(uid)
        for uid in ended:  # gone while its kubelet was away
            del admitted[uid]
        return admit(pod, node, active, self._infos)

    def _reject(self, key: str, uid: str, rejection: Rejection) -> None:
        """rejectPod: a Warning event, and the pod Failed with the reason, never started."""
        self._starting.discard(uid)
        pod = self._current(key, uid)
        if pod is None or pod.metadata.deletion_timestamp is not None or pod.status.phase != "Pending":
            return
        record(self.ctx, pod, rejection.reason, rejection.message, warning=True, source=NAME)
        status = replace(pod.status, phase="Failed", reason=rejection.reason, message=REJECTED + rejection.message)
        self.ctx.cluster.update(replace(pod, status=status))

    def _current(self, key: str, uid: str) -> Pod | None:
        pod = self.ctx.cluster.get(Pod, key)
        if pod is None or pod.metadata.uid != uid:
            return None
        return pod

    def _start(self, key: str, uid: str) -> None:
        pod = self._current(key, uid)
        if pod is None or pod.metadata.deletion_timestamp is not None or pod.status.phase != "Pending":
            return
        if not self._node_ready(pod):
            self._starting.discard(uid)
            return
        for container in pod.spec.containers:
            record(
                self.ctx, pod, "Pulled", f'Container image "{container.image}" already present on machine', source=NAME
            )
            record(self.ctx, pod, "Created", f"Created container: {container.name}", source=NAME)
            record(self.ctx, pod, "Started", f"Started container {container.name}", source=NAME)
        ready_after = readiness_delay(pod)
        status = with_ready(
            replace(pod.status, phase="Running", start_time=self.ctx.now), ready_after == 0, self.ctx.now
        )
        self.ctx.cluster.update(replace(pod, status=status))
        if ready_after > 0:
            self.ctx.after(ready_after, lambda: self._ready(key, uid), label=f"ready {key}")
        if pod.spec.restart_policy != "Always":
            run = annotated_seconds(pod, RUN_SECONDS_ANNOTATION, DEFAULT_RUN_SECONDS)
            self.ctx.after(run, lambda: self._finish(key, uid), label=f"finish {key}")

    def _ready(self, key: str, uid: str) -> None:
        pod = self._current(key, uid)
        if pod is None or pod.status.phase != "Running" or pod.metadata.deletion_timestamp is not None:
            return
        if self._node_ready(pod):
            self.ctx.cluster.update(replace(pod, status=with_ready(pod.status, True, self.ctx.now)))

    def _finish(self, key: str, uid: str) -> None:
        pod = self._current(key, uid)
        if pod is None or pod.status.phase != "Running" or pod.metadata.deletion_timestamp is not None:
            return
        if not self._node_ready(pod):
            return
        exit_code = pod.metadata.annotations.get(EXIT_CODE_ANNOTATION, "0")
        phase = "Succeeded" if exit_code == "0" else "Failed"
        status = with_ready(replace(pod.status, phase=phase), False, self.ctx.now)
        self.ctx.cluster.update(replace(pod, status=status))

    def _stop(self, pod: Pod) -> None:
        if pod.status.phase == "Running":
            for container in pod.spec.containers:
                record(self.ctx, pod, "Killing", f"Stopping container {container.name}", source=NAME)
        grace = pod.metadata.deletion_grace_period_seconds
        delay = float(pod.spec.termination_grace_period_seconds if grace is None else grace)
        if pod.status.phase in ("Succeeded", "Failed", "Pending"):
            delay = 0.0  # nothing runs: the kubelet confirms the deletion at once
        uid = pod.metadata.uid
        self.ctx.after(delay, lambda: self._remove(pod.key, uid), label=f"remove {pod.key}")

    def _remove(self, key: str, uid: str) -> None:
        self._stopping.discard(uid)
        self._starting.discard(uid)
        pod = self._current(key, uid)
        if pod is None:
            return
        if not self._node_ready(pod):
            return  # an unreachable kubelet cannot confirm; the pod stays Terminating until it is back
        self._admitted.get(pod.spec.node_name, {}).pop(uid, None)
        self.ctx.cluster.delete(Pod, key)
