"""`kubectl drain` (k8s.io/kubectl/pkg/drain), run as `kubectl drain NODE --ignore-daemonsets
--delete-emptydir-data --force [--grace-period N] [--timeout D]`.

The node is cordoned (spec.unschedulable; the kubelet reports NodeNotSchedulable), then every pod on
it is evicted through the eviction API (controllers/eviction.py), all at once, except mirror pods
and pods of a DaemonSet that exists. An eviction a PodDisruptionBudget refuses (429) is retried
every 5 seconds, as kubectl does, until it is accepted or the timeout passes; an accepted one is a
graceful delete (the kubelet's Killing), and kubectl then polls every second until the pod is gone.
A drain therefore never takes a budget below what it allows.

The eviction API records no event. What kubectl prints is recorded as events with source
"kubectl", so the timeline shows why a drain waits: its warning line (DrainWarning), each refused
eviction (FailedEviction: `error when evicting pods/"web-1" -n "default" (will retry after 5s):
Cannot evict pod as it would violate the pod's disruption budget.`), and the outcome ("node/NAME
drained", or the error it ends with, DrainFailed). These are not Kubernetes events.

Action args: gracePeriodSeconds (default -1: each pod's own), timeout (a duration; 0: no limit).
"""

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from scheduler_core.api.errors import ActionError
from scheduler_core.api.pod_conditions import is_pod_terminal
from scheduler_core.api.timeline import Action, DurationError, parse_duration
from scheduler_core.api.types import Node, Pod
from scheduler_core.api.workloads import DaemonSet
from scheduler_core.controllers.base import Context, record
from scheduler_core.controllers.eviction import NOT_FOUND_CODE, TOO_MANY_REQUESTS, evict
from scheduler_core.store.cluster import Change, ChangeType, StoredObject

NAME = "drain"
SOURCE = "kubectl"
KUBELET_SOURCE = "kubelet"
RETRY_SECONDS = 5.0
POLL_SECONDS = 1.0
MIRROR_POD_ANNOTATION = "kubernetes.io/config.mirror"

# kubectl's texts (drain.go, filters.go, cmd/drain).
RETRY_MESSAGE = 'error when evicting pods/"{}" -n "{}" (will retry after 5s): {}'
EVICT_ERROR = 'error when evicting pods/"{}" -n "{}": {}'
EVICT_TIMEOUT = 'error when evicting pods/"{}" -n "{}": global timeout reached: {}'
WAIT_TIMEOUT = 'error when waiting for pod "{}" in namespace "{}" to terminate: global timeout reached: {}'
DRAINED_MESSAGE = "node/{} drained"
DAEMONSET_WARNING = "ignoring DaemonSet-managed Pods"
UNMANAGED_WARNING = "deleting Pods that declare no controller"
DAEMONSET_NOT_FOUND = 'daemonsets.apps "{}" not found'
NODE_NOT_SCHEDULABLE = "NodeNotSchedulable"
NODE_STATUS_MESSAGE = "Node {} status is now: {}"

# Reasons of the kubectl-sourced events (kubectl's output, not Kubernetes events).
DRAIN_WARNING = "DrainWarning"
FAILED_EVICTION = "FailedEviction"
DRAINED = "Drained"
DRAIN_FAILED = "DrainFailed"

_EVICTING, _WAITING, _DONE, _FAILED = "evicting", "waiting", "done", "failed"


def go_duration(seconds: float) -> str:
    """time.Duration.String(): 1m0s, 30s, 1h30m0s, 500ms."""
    if seconds == 0:
        return "0s"
    if seconds < 1:
        millis = seconds * 1000
        return f"{millis:g}ms"
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    sec_text = f"{int(secs)}s" if float(secs).is_integer() else f"{secs:.9f}".rstrip("0").rstrip(".") + "s"
    if hours:
        return f"{int(hours)}h{int(minutes)}m{sec_text}"
    if minutes:
        return f"{int(minutes)}m{sec_text}"
    return sec_text


def aggregate(messages: list[str]) -> str:
    unique = list(dict.fromkeys(messages))
    return unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]"


@dataclass(slots=True)
class _Task:
    namespace: str
    name: str
    uid: str
    state: str = _EVICTING
    evicted_at: float = 0.0
    gives_up_armed: bool = False
    # The retry of a refused eviction: when it is due, and whether its timer is idle (see _retry_at).
    retry_at: float | None = None
    retry_idle: bool = True
    retry_token: int = 0

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass(slots=True)
class _Drain:
    node: str
    grace_period: int | None
    timeout: float
    deadline: float | None
    tasks: list[_Task] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    finished: bool = False


class DrainController:
    name = NAME
    watch_kinds = frozenset({"Pod", "PodDisruptionBudget"})  # the kinds on_change reacts to

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._drains: list[_Drain] = []

    def on_change(self, change: Change[StoredObject]) -> None:
        if change.kind == "PodDisruptionBudget":
            # A budget's status moved (a pod turned Ready, one went): a refused eviction may now be
            # accepted, so its next retry is work left to do.
            self._wake(lambda task: True)
            return
        if change.kind != "Pod" or change.old is None:
            return
        gone = change.type is ChangeType.DELETED or change.latest.metadata.uid != change.old.metadata.uid
        if not gone:
            return
        self._wake(lambda task: task.key == change.key)  # its retry will find it gone
        for drain in self._drains:
            for task in drain.tasks:
                if task.state == _WAITING and task.key == change.key and task.uid == change.old.metadata.uid:
                    # waitForDelete polls every second from the accepted eviction on.
                    seen = task.evicted_at + math.ceil((self.ctx.now - task.evicted_at) / POLL_SECONDS) * POLL_SECONDS
                    self._poll_at(drain, task, seen)

    def _poll_at(self, drain: _Drain, task: _Task, at: float) -> None:
        self.ctx.after(at - self.ctx.now, lambda: self._gone(drain, task), label=f"drain poll {task.key}")

    def sync(self) -> bool:
        return False  # the work runs on the action and on timers

    # ------------------------------------------------------------------ the command

    def handle_action(self, action: Action) -> None:
        target = action.target
        if target is None:  # the parser asks for one; an Action built in code may lack it
            raise ActionError(f"{action.op} needs a target node")
        node: Node | None = self.ctx.cluster.get(Node, target.key)
        if node is None:
            raise ActionError(f'nodes "{target.name}" not found')
        raw_grace = action.args.get("gracePeriodSeconds", -1)
        if isinstance(raw_grace, bool) or not isinstance(raw_grace, int) or abs(raw_grace) > 2**63 - 1:
            raise ActionError("gracePeriodSeconds must be a 64-bit integer")
        try:
            timeout = parse_duration(action.args.get("timeout", 0))
        except DurationError as error:
            raise ActionError(f"timeout: {error}") from None
        now = self.ctx.now
        drain = _Drain(
            node=node.name,
            grace_period=raw_grace if raw_grace >= 0 else None,
            timeout=timeout,
            deadline=now + timeout if timeout > 0 else None,
        )
        node = self._cordon(node)
        pods, warnings = self._pods_for_deletion(node.name)
        if warnings:
            record(self.ctx, node, DRAIN_WARNING, "Warning: " + warnings, warning=True, source=SOURCE)
        drain.tasks = [_Task(pod.namespace, pod.name, pod.metadata.uid) for pod in pods]
        self._drains.append(drain)
        for task in drain.tasks:
            self._attempt(drain, task)
        self._maybe_finish(drain)

    def _cordon(self, node: Node) -> Node:
        if node.spec.unschedulable:
            return node
        updated: Node = self.ctx.cluster.update(replace(node, spec=replace(node.spec, unschedulable=True)))
        message = NODE_STATUS_MESSAGE.format(node.name, NODE_NOT_SCHEDULABLE)
        record(self.ctx, updated, NODE_NOT_SCHEDULABLE, message, source=KUBELET_SOURCE)
        return updated

    def _pods_for_deletion(self, node_name: str) -> tuple[list[Pod], str]:
        """GetPodsForDeletion with kubectl's filters (DaemonSet, mirror, unreplicated), in the order
        the API lists pods; the warnings line groups pods by message."""
        pods = sorted(self.ctx.cluster.pods_on_node(node_name), key=lambda pod: (pod.namespace, pod.name))
        chosen: list[Pod] = []
        warned: dict[str, list[str]] = {}
        for pod in pods:
            finished = is_pod_terminal(pod)
            ref = pod.metadata.controller_ref()
            if ref is not None and ref.kind == "DaemonSet" and not finished:
                if self.ctx.cluster.get(DaemonSet, f"{pod.namespace}/{ref.name}") is not None:
                    warned.setdefault(DAEMONSET_WARNING, []).append(f"{pod.namespace}/{pod.name}")
                    continue
                warned.setdefault(DAEMONSET_NOT_FOUND.format(ref.name), []).append(f"{pod.namespace}/{pod.name}")
                chosen.append(pod)
                continue
            if MIRROR_POD_ANNOTATION in pod.metadata.annotations:
                continue
            if ref is None and not finished:
                warned.setdefault(UNMANAGED_WARNING, []).append(f"{pod.namespace}/{pod.name}")
            chosen.append(pod)
        warnings = "; ".join(f"{message}: {', '.join(names)}" for message, names in warned.items())
        return chosen, warnings

    # ------------------------------------------------------------------ one pod

    def _attempt(self, drain: _Drain, task: _Task) -> None:
        if drain.finished or task.state != _EVICTING:
            return
        now = self.ctx.now
        if drain.deadline is not None and now >= drain.deadline:
            self._fail(drain, task, EVICT_TIMEOUT.format(task.name, task.namespace, go_duration(drain.timeout)))
            return
        result = evict(self.ctx, task.namespace, task.name, grace_period=drain.grace_period)
        if result.ok:
            task.state = _WAITING
            task.evicted_at = now
            if self._is_gone(task):
                self._done(drain, task)
            elif drain.deadline is not None:
                at = now + math.ceil((drain.deadline - now) / POLL_SECONDS) * POLL_SECONDS
                self.ctx.after(at - now, lambda: self._wait_timeout(drain, task), label=f"drain timeout {task.key}")
        elif result.code == NOT_FOUND_CODE:
            self._done(drain, task)
        elif result.code == TOO_MANY_REQUESTS:
            pod = self.ctx.cluster.get(Pod, task.key)
            if pod is not None:
                message = RETRY_MESSAGE.format(task.name, task.namespace, result.message)
                record(self.ctx, pod, FAILED_EVICTION, message, warning=True, source=SOURCE)
            self._retry_at(drain, task, now + RETRY_SECONDS, idle=True)
            if drain.deadline is not None and not task.gives_up_armed:
                task.gives_up_armed = True
                steps = math.ceil((drain.deadline - now) / RETRY_SECONDS)
                self.ctx.after(
                    steps * RETRY_SECONDS, lambda: self._attempt(drain, task), label=f"drain timeout {task.key}"
                )
        else:
            self._fail(drain, task, EVICT_ERROR.format(task.name, task.namespace, result.message))

    def _retry_at(self, drain: _Drain, task: _Task, at: float, *, idle: bool) -> None:
        """kubectl retries a refused eviction every 5 s, forever (or until its timeout). The retry's
        timer is idle while nothing it depends on has changed: a drain that waits for a budget
        nothing will satisfy does not keep a finished run going. A budget's change wakes it
        (_wake): the same retry, now a timer the run waits for."""
        task.retry_token += 1
        token = task.retry_token
        task.retry_at, task.retry_idle = at, idle

        def retry() -> None:
            if token == task.retry_token:
                task.retry_at = None
                self._attempt(drain, task)

        self.ctx.after(at - self.ctx.now, retry, label=f"drain retry {task.key}", idle=idle)

    def _wake(self, concerned: Callable[[_Task], bool]) -> None:
        for drain in self._drains:
            for task in drain.tasks:
                if task.state == _EVICTING and task.retry_at is not None and task.retry_idle and concerned(task):
                    self._retry_at(drain, task, task.retry_at, idle=False)

    def _is_gone(self, task: _Task) -> bool:
        pod = self.ctx.cluster.get(Pod, task.key)
        return pod is None or pod.metadata.uid != task.uid

    def _gone(self, drain: _Drain, task: _Task) -> None:
        if task.state == _WAITING and not drain.finished:
            self._done(drain, task)

    def _wait_timeout(self, drain: _Drain, task: _Task) -> None:
        if task.state != _WAITING or drain.finished:
            return
        if self._is_gone(task):
            self._done(drain, task)
            return
        self._fail(drain, task, WAIT_TIMEOUT.format(task.name, task.namespace, go_duration(drain.timeout)))

    def _done(self, drain: _Drain, task: _Task) -> None:
        task.state = _DONE
        self._maybe_finish(drain)

    def _fail(self, drain: _Drain, task: _Task, error: str) -> None:
        task.state = _FAILED
        drain.errors.append(error)
        self._maybe_finish(drain)

    def _maybe_finish(self, drain: _Drain) -> None:
        if drain.finished or any(task.state in (_EVICTING, _WAITING) for task in drain.tasks):
            return
        drain.finished = True
        self._drains.remove(drain)
        node = self.ctx.cluster.get(Node, drain.node)
        if node is None:
            return
        if drain.errors:
            record(self.ctx, node, DRAIN_FAILED, "error: " + aggregate(drain.errors), warning=True, source=SOURCE)
        else:
            record(self.ctx, node, DRAINED, DRAINED_MESSAGE.format(drain.node), source=SOURCE)
