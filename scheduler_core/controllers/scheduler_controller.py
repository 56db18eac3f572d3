"""kube-scheduler in the simulated cluster: the engine's Scheduler fed by the object store.

It mirrors nodes, assigned pods, namespaces, PDBs and the objects behind default spreading into the
scheduler's snapshot, keeps the scheduling queue, and writes its decisions back through the store:
bindings (Scheduled), FailedScheduling events, preemption (victims deleted with Preempted events,
the preemptor nominated), with upstream's backoff and requeue on cluster events.

The binding cycle runs Reserve, then PreBind, then binds. A PreBind that waits for other controllers
(VolumeBinding, until the PV controller has bound the pod's claims) keeps the pod assumed on its
node in the snapshot while the scheduler goes on with other pods, and is asked again every second.
"""

from dataclasses import dataclass, replace
from typing import Any, cast

from scheduler_core.api.pod_conditions import (
    POD_SCHEDULED,
    PREEMPTION_BY_SCHEDULER,
    PREEMPTION_MESSAGE,
    SCHEDULER_ERROR,
    TERMINAL_PHASES,
    UNSCHEDULABLE,
    with_condition,
)
from scheduler_core.api.types import LabelSelector, Namespace, Node, Pod, PodDisruptionBudget
from scheduler_core.api.workloads import (
    PersistentVolume,
    PersistentVolumeClaim,
    ReplicaSet,
    Service,
    StatefulSet,
    StorageClass,
)
from scheduler_core.controllers.base import Context, delete_pod, mark_disruption_target, record
from scheduler_core.scheduler.cluster_events import (
    ASSIGNED_POD_ADD,
    ASSIGNED_POD_DELETE,
    NODE_ADD,
    NODE_DELETE,
    ActionType,
    ClusterEvent,
    EventResource,
    node_scheduling_properties_change,
    pod_scheduling_properties_change,
)
from scheduler_core.scheduler.framework import Code, CycleState, Status, error
from scheduler_core.scheduler.messages import SUCCESSFULLY_ASSIGNED
from scheduler_core.scheduler.plugins.scheduling_gates import NAME as SCHEDULING_GATES
from scheduler_core.scheduler.queue import PreCheck, QueuedPodInfo, SchedulingQueue
from scheduler_core.scheduler.resources import holds_resources
from scheduler_core.scheduler.runtime import Framework
from scheduler_core.scheduler.schedule_one import Scheduler, ScheduleResult
from scheduler_core.scheduler.selector_source import SelectorSource
from scheduler_core.store.cluster import Change, ChangeType, Cluster, StoredObject

NAME = "scheduler"
SOURCE = "default-scheduler"
SELECTOR_KINDS = ("Service", "ReplicaSet", "StatefulSet")
EVENT_NOTE_LIMIT = 1024
# Storage objects the volume plugins read, by the resource their events name.
STORAGE_EVENTS = {
    "PersistentVolumeClaim": EventResource.PERSISTENT_VOLUME_CLAIM,
    "PersistentVolume": EventResource.PERSISTENT_VOLUME,
    "StorageClass": EventResource.STORAGE_CLASS,
}
CHANGE_ACTIONS = {
    ChangeType.ADDED: ActionType.ADD,
    ChangeType.MODIFIED: ActionType.UPDATE,
    ChangeType.DELETED: ActionType.DELETE,
}
PRE_BIND_POLL_SECONDS = 1.0  # VolumeBinding's wait.PollUntilContextTimeout interval
DEFAULT_PRE_BIND_TIMEOUT_SECONDS = 600.0
RESERVE_FAILED = 'running Reserve plugin "{}": {}'
PRE_BIND_FAILED = 'running PreBind plugin "{}": {}'
POD_GONE = 'pod does not exist any more: pod "{}" not found'
TIMED_OUT = "context deadline exceeded"


class StoreVolumeLister:
    """The volume plugins' listers over the object store; PreBind's writes go to the store."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster

    def claim(self, namespace: str, name: str) -> PersistentVolumeClaim | None:
        claim: PersistentVolumeClaim | None = self.cluster.get(PersistentVolumeClaim, f"{namespace}/{name}")
        return claim

    def volume(self, name: str) -> PersistentVolume | None:
        volume: PersistentVolume | None = self.cluster.get(PersistentVolume, name)
        return volume

    def storage_class(self, name: str) -> StorageClass | None:
        storage_class: StorageClass | None = self.cluster.get(StorageClass, name)
        return storage_class

    def volumes(self) -> list[PersistentVolume]:
        return sorted(self.cluster.objects(PersistentVolume), key=lambda volume: volume.metadata.name)

    def update_claim(self, claim: PersistentVolumeClaim) -> PersistentVolumeClaim:
        stored: PersistentVolumeClaim = self.cluster.update(claim)
        return stored

    def update_volume(self, volume: PersistentVolume) -> PersistentVolume:
        stored: PersistentVolume = self.cluster.update(volume)
        return stored


@dataclass(slots=True)
class _Binding:
    """A pod in its binding cycle, assumed on its node while a PreBind plugin waits."""

    info: QueuedPodInfo
    pod: Pod  # the pod as it was scheduled
    assumed: Pod  # ... with spec.nodeName set, counted in the snapshot
    node_name: str
    state: CycleState
    framework: Framework
    started: float
    waiting_on: str = ""  # the PreBind plugin that returned Wait


def _assigned(pod: Pod | None) -> bool:
    """The scheduler's view of assigned pods excludes finished ones (its informer's field selector)."""
    return pod is not None and holds_resources(pod)


def _placement_changed(old: Pod, new: Pod) -> bool:
    """Whether the scheduler's view of an assigned pod must be rebuilt (node, resources, labels...).
    Of its status the scheduler reads the start time (preemption prefers the node whose victims
    started last, and orders victims by it): the kubelet's start is an update of the cache, as
    upstream's cache takes every update of an assigned pod. Its Ready condition and phase changes
    while it runs are read by nothing the scheduler does."""
    return (
        old.spec != new.spec
        or old.metadata.labels != new.metadata.labels
        or old.metadata.deletion_timestamp != new.metadata.deletion_timestamp
        or old.status.start_time != new.status.start_time
        or old.status.conditions != new.status.conditions  # DisruptionTarget: see podTerminatingByPreemption
    )


def _selector_changed(change: Change[StoredObject]) -> bool:
    """Only a new, deleted or re-selected Service/ReplicaSet/StatefulSet changes default spreading
    (status updates, which are most of their changes, do not)."""
    if change.type is not ChangeType.MODIFIED:
        return True
    old, new = cast(SelectorOwner, change.previous), cast(SelectorOwner, change.latest)
    return bool(old.spec.selector != new.spec.selector or old.metadata.namespace != new.metadata.namespace)


def _scheduling_gate(pod: Pod) -> str:
    """The PreEnqueue plugin that holds the pod back: SchedulingGates while it has gates."""
    return SCHEDULING_GATES if pod.spec.scheduling_gates else ""


def _unscheduled(pod: Pod) -> bool:
    """What the scheduler's informer of pods to schedule holds: unbound and not finished."""
    return not pod.spec.node_name and pod.status.phase not in TERMINAL_PHASES


def _assumed(pod: Pod, node_name: str) -> Pod:
    """The pod as the scheduler's cache assumes it on its node while it is being bound."""
    return replace(pod, spec=replace(pod.spec, node_name=node_name), status=replace(pod.status, nominated_node_name=""))


def _priority(pod: Pod) -> int:
    return pod.spec.priority or 0


def _not_above(priority: int) -> PreCheck:
    """getLEPriorityPreCheck: only pods of lower or equal priority."""
    return lambda pod: _priority(pod) <= priority


# The objects whose selectors feed default spreading (SELECTOR_KINDS).
SelectorOwner = Service | ReplicaSet | StatefulSet


def _selector_source(kind: str, obj: SelectorOwner) -> SelectorSource:
    if kind == "Service":
        assert isinstance(obj, Service)
        selector = LabelSelector(obj.spec.selector) if obj.spec.selector else None
        return SelectorSource(kind, obj.metadata.namespace, obj.metadata.name, selector)
    assert isinstance(obj, ReplicaSet | StatefulSet)
    return SelectorSource(kind, obj.metadata.namespace, obj.metadata.name, obj.spec.selector)


def truncate_note(message: str, limit: int = EVENT_NOTE_LIMIT) -> str:
    """Event notes are capped at 1024 bytes; longer ones end with " ..."."""
    encoded = message.encode()
    if len(encoded) <= limit:
        return message
    return encoded[: limit - 4].decode(errors="ignore") + " ..."


class SchedulerController:
    name = NAME
    # The kinds on_change reacts to.
    watch_kinds = frozenset({"Pod", "Node", "Namespace", "PodDisruptionBudget", *SELECTOR_KINDS, *STORAGE_EVENTS})

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        configuration = getattr(ctx, "configuration", None)
        self.scheduler = Scheduler(configuration, seed=ctx.rng.randrange(2**32))
        self.handle = self.scheduler.handle
        framework = next(iter(self.scheduler.frameworks.values()))
        config = self.scheduler.configuration
        self.queue = SchedulingQueue(
            framework.queue_sort.less,
            initial_backoff=float(config.pod_initial_backoff_seconds),
            max_backoff=float(config.pod_max_backoff_seconds),
            pre_enqueue=_scheduling_gate,
            hint_maps={name: profile.queueing_hint_map() for name, profile in self.scheduler.frameworks.items()},
        )
        self._timer_at: set[float] = set()
        self._leftover_timer = False
        self.handle.volumes = StoreVolumeLister(ctx.cluster)
        self._binding: dict[str, _Binding] = {}  # pod key -> its waiting binding cycle
        # Default spreading's selector sources by kind, in store order, kept from the watch; the
        # handle's list is rebuilt from them before the next scheduling cycle that may read it.
        self._sources: dict[str, dict[str, SelectorSource]] = {kind: {} for kind in SELECTOR_KINDS}
        self._sources_stale = False

    # ------------------------------------------------------------------ watching

    def on_change(self, change: Change[StoredObject]) -> None:
        kind = change.kind
        if (pods := change.of(Pod)) is not None:
            self._on_pod(pods)
        elif (nodes := change.of(Node)) is not None:
            self._on_node(nodes)
        elif kind == "Namespace":
            namespaces: list[Namespace] = self.ctx.cluster.objects(Namespace)
            # No plugin registers namespace events: a pod waiting on a namespace selector is
            # retried by the next event it registered, or after five minutes.
            self.scheduler.snapshot.namespace_labels = {ns.metadata.name: ns.metadata.labels for ns in namespaces}
        elif kind == "PodDisruptionBudget":
            self.handle.pdbs = list(self.ctx.cluster.objects(PodDisruptionBudget))
        elif kind in SELECTOR_KINDS and _selector_changed(change):
            self._selector_source_changed(change)
        elif kind in STORAGE_EVENTS:
            event = ClusterEvent(STORAGE_EVENTS[kind], CHANGE_ACTIONS[change.type])
            self._moved(event, change.old, change.new)

    def _moved(self, event: ClusterEvent, old: Any = None, new: Any = None, pre_check: PreCheck | None = None) -> None:
        """MoveAllToActiveOrBackoffQueue: the parked pods whose rejecting plugins' hints say this
        change may help go back to the queue; pods in flight see it when they come back."""
        if not self.queue.waiting():
            return
        self._refresh_selector_sources()  # default spreading's hints read them, as upstream's listers
        if self.queue.move_all_to_active_or_backoff(event, self.ctx.now, old, new, pre_check):
            self._arm_backoff_timer()

    def _on_node(self, change: Change[Node]) -> None:
        snapshot = self.scheduler.snapshot
        if change.type is ChangeType.ADDED:
            snapshot.add_node(change.latest)
            self._moved(NODE_ADD, None, change.latest)
            return
        if change.type is ChangeType.DELETED:
            self._moved(NODE_DELETE, change.previous, None)
            snapshot.remove_node(change.previous.name)
            return
        old, new = change.previous, change.latest
        snapshot.update_node(new)
        for event in node_scheduling_properties_change(new, old):
            self._moved(event, old, new)

    def _on_pod(self, change: Change[Pod]) -> None:
        old: Pod | None = change.old
        new: Pod | None = change.new
        self._mirror_assigned(old, new)
        if change.type is ChangeType.DELETED:
            if old is not None and _unscheduled(old):
                self._left_the_queue(old)
            return
        assert new is not None
        if new.spec.node_name or new.status.phase in TERMINAL_PHASES or new.metadata.deletion_timestamp is not None:
            if new.key in self.queue and not new.spec.node_name:
                self.queue.delete(new.key)
            if old is not None and _unscheduled(old) and not _unscheduled(new):
                # Bound, or finished unbound: it leaves the informer of unscheduled pods (a delete).
                self._left_the_queue(old)
            return
        if self.scheduler.framework_for(new) is None:
            return  # another scheduler's pod
        if new.key not in self.queue:
            self.queue.add(new, self.ctx.now)
            if new.status.nominated_node_name:
                self.handle.nominator.add(new)
        elif old is not None:
            self.queue.update(new, self.ctx.now, old)
            self._arm_backoff_timer()
            if old.status.nominated_node_name and old.status.nominated_node_name != new.status.nominated_node_name:
                # The nominated node changed: as if the pod left the old one (hasNominatedNodeNameChanged).
                self._moved(ASSIGNED_POD_DELETE, old, None, _not_above(_priority(old)))

    def _left_the_queue(self, old: Pod) -> None:
        """deletePodFromSchedulingQueue: a pod of this scheduler that was nominated counted on its
        node for pods of lower or equal priority, which may fit now."""
        if self.scheduler.framework_for(old) is None:
            return
        self.queue.delete(old.key)
        self.handle.nominator.remove(old)
        if old.status.nominated_node_name:
            self._moved(ASSIGNED_POD_DELETE, old, None, _not_above(_priority(old)))

    def _mirror_assigned(self, old: Pod | None, new: Pod | None) -> None:
        """Keep the snapshot's assigned pods equal to the store's, and requeue pods that may now fit."""
        snapshot = self.scheduler.snapshot
        was, now = _assigned(old), _assigned(new)
        changed = old is not None and new is not None and _placement_changed(old, new)
        if was and old is not None and (not now or changed):
            snapshot.remove_pod(old)
        if now and new is not None and (not was or changed) and snapshot.get(new.spec.node_name) is not None:
            snapshot.add_pod(new)
        if new is not None and new.spec.node_name:
            self.handle.nominator.remove(new)
        if was and not now:
            self._moved(ASSIGNED_POD_DELETE, old, None)
        elif now and not was:
            self._moved(ASSIGNED_POD_ADD, None, new)
        elif was and now and old is not None and new is not None and self.queue.waiting():
            for event in pod_scheduling_properties_change(new, old):
                self._moved(event, old, new)

    def _selector_source_changed(self, change: Change[StoredObject]) -> None:
        sources = self._sources[change.kind]
        if change.type is ChangeType.DELETED:
            sources.pop(change.key, None)
        else:
            # An update keeps its place (as in the store); a new object goes last.
            sources[change.key] = _selector_source(change.kind, cast(SelectorOwner, change.latest))
        self._sources_stale = True

    def _refresh_selector_sources(self) -> None:
        """The handle's selector sources as the store lists them: Services, ReplicaSets, StatefulSets."""
        if self._sources_stale:
            self._sources_stale = False
            sources = self._sources
            self.handle.selector_sources = [source for kind in SELECTOR_KINDS for source in sources[kind].values()]

    # ------------------------------------------------------------------ timers

    def _arm_backoff_timer(self) -> None:
        expiry = self.queue.next_backoff_expiry()
        if expiry is None:
            return
        at = max(expiry + 1.0, self.ctx.now)  # flushed on the first whole-second tick past the expiry window
        if at in self._timer_at:
            return
        self._timer_at.add(at)

        def flush() -> None:
            self._timer_at.discard(at)
            self.queue.flush_backoff_completed(self.ctx.now)
            self._arm_backoff_timer()

        # Retries after errors alone (e.g. a cluster without nodes) repeat forever upstream too; they
        # must not keep a finished run alive, so their timer is idle.
        self.ctx.after(at - self.ctx.now, flush, label="backoff flush", idle=self.queue.only_errors_backing_off())

    def _arm_leftover_timer(self) -> None:
        if self._leftover_timer or not self.queue.unschedulable:
            return
        self._leftover_timer = True

        def flush() -> None:
            self._leftover_timer = False
            self.queue.flush_unschedulable_leftover(self.ctx.now)
            self._arm_backoff_timer()
            self._arm_leftover_timer()

        # Idle: periodic retries of pods nothing else will help do not keep a finished run alive.
        self.ctx.after(30.0, flush, label="unschedulable flush", idle=True)

    # ------------------------------------------------------------------ scheduling

    def sync(self) -> bool:
        info = self.queue.pop(self.ctx.now)
        if info is None:
            return False
        self._refresh_selector_sources()
        current: Pod | None = self.ctx.cluster.get(Pod, info.key)
        if current is None or current.spec.node_name:
            self.queue.done(info.key)
            return True
        info.pod = current
        result = self.scheduler.schedule_pod(current)
        if result.selected is not None:
            self._bind(info, current, result.selected, result.state or CycleState())
        else:
            self._failed(info, result)
        return True

    def _bind(self, info: QueuedPodInfo, pod: Pod, node_name: str, state: CycleState) -> None:
        """Reserve, then the binding cycle: PreBind (which may wait), then the binding."""
        framework = self.scheduler.framework_for(pod)
        if framework is not None:
            status = framework.run_reserve(state, pod, node_name)
            if not status.is_success:
                framework.run_unreserve(state, pod, node_name)
                if not status.is_rejected:
                    status = error(RESERVE_FAILED.format(status.plugin, status.message)).with_plugin(status.plugin)
                self._binding_failed(info, pod, status)
                return
            # Done() for the scheduling cycle: the binding cycle's events are not weighed for it.
            self.queue.binding(info.key)
            binding = _Binding(info, pod, _assumed(pod, node_name), node_name, state, framework, self.ctx.now)
            if not self._pre_bind(binding):
                return
        self._finish_binding(info, pod, node_name)

    def _pre_bind(self, binding: _Binding) -> bool:
        """Runs PreBind; True when the pod can be bound now. A plugin that waits is asked again a
        second later, the pod assumed on its node meanwhile; a failure unreserves and requeues."""
        pod, node_name, state = binding.pod, binding.node_name, binding.state
        waiting = binding.framework.plugin(binding.waiting_on) if binding.waiting_on else None
        if waiting is not None and self.ctx.cluster.get(Pod, pod.key) is None:
            gone = getattr(waiting, "pod_deleted", None)
            reason = gone(pod.name).message if gone is not None else POD_GONE.format(pod.name)
            self._abandon_binding(binding, error(PRE_BIND_FAILED.format(binding.waiting_on, reason)))
            return False
        status = binding.framework.run_pre_bind(state, pod, node_name)
        if status.code is Code.Wait:
            binding.waiting_on = status.plugin
            plugin = binding.framework.plugin(status.plugin)
            timeout = float(getattr(plugin, "bind_timeout_seconds", DEFAULT_PRE_BIND_TIMEOUT_SECONDS))
            if self.ctx.now - binding.started < timeout:
                self._wait_for_pre_bind(binding)
                return False
            timed_out = getattr(plugin, "timed_out", None)
            reason = timed_out().message if timed_out is not None else TIMED_OUT
            status = error(PRE_BIND_FAILED.format(status.plugin, reason)).with_plugin(status.plugin)
        if status.is_success:
            self._forget(binding)
            return True
        self._abandon_binding(binding, status)
        return False

    def _wait_for_pre_bind(self, binding: _Binding) -> None:
        key = binding.pod.key
        if key not in self._binding:  # assume: the pod counts on its node from now on
            self.handle.nominator.remove(binding.pod)
            self.scheduler.snapshot.add_pod(binding.assumed)
            self._binding[key] = binding

        def poll() -> None:
            if self._binding.get(key) is not binding:
                return
            if self._pre_bind(binding):
                self._finish_binding(binding.info, binding.pod, binding.node_name)

        self.ctx.after(PRE_BIND_POLL_SECONDS, poll, label=f"prebind {key}")

    def _forget(self, binding: _Binding) -> None:
        """ForgetPod: the assumed pod leaves the snapshot (the store's version replaces it)."""
        if self._binding.get(binding.pod.key) is binding:
            del self._binding[binding.pod.key]
            self.scheduler.snapshot.remove_pod(binding.assumed)

    def _abandon_binding(self, binding: _Binding, status: Status) -> None:
        """handleBindingCycleError: unreserve, forget the assumed pod (a pod deletion for the
        others), requeue. After a rejection the deletion is announced once the pod is requeued, and
        not to the pod itself; after an error, before."""
        binding.framework.run_unreserve(binding.state, binding.pod, binding.node_name)
        self._forget(binding)
        if status.is_rejected:
            self._binding_failed(binding.info, binding.pod, status, binding_cycle=True)
            uid = binding.assumed.metadata.uid
            self._moved(ASSIGNED_POD_DELETE, binding.assumed, None, lambda pod: pod.metadata.uid != uid)
        else:
            self._moved(ASSIGNED_POD_DELETE, binding.assumed, None)
            self._binding_failed(binding.info, binding.pod, status, binding_cycle=True)

    def _binding_failed(self, info: QueuedPodInfo, pod: Pod, status: Status, *, binding_cycle: bool = False) -> None:
        """The failure handler for a Reserve or binding-cycle failure: FailedScheduling with the
        status's message. A Reserve rejection waits for its plugin's events; an error, or any
        failure in the binding cycle (no rejecting plugins come back from there), backs off."""
        record(self.ctx, pod, "FailedScheduling", truncate_note(status.message), warning=True, source=SOURCE)
        if self.ctx.cluster.get(Pod, pod.key) is None:
            self.queue.delete(pod.key)
            return
        rejectors = {status.plugin} if status.is_rejected and status.plugin and not binding_cycle else set()
        self._requeue(info, rejectors, error=not rejectors)
        # The binding cycle's failure clears any nomination (upstream's clearNominatedNode).
        self._write_failure(pod, status.message, status.is_rejected, nominated_node="")

    def _requeue(self, info: QueuedPodInfo, rejectors: set[str], *, error: bool = False) -> None:
        """The failure handler requeues the pod (the store's latest version of it) before it writes
        the pod's status, so its own status update reaches it as an update of a parked pod."""
        info.pod = self.ctx.cluster.get(Pod, info.key) or info.pod
        self.queue.add_unschedulable(info, self.ctx.now, rejectors, error=error)
        self._arm_backoff_timer()
        self._arm_leftover_timer()

    def _finish_binding(self, info: QueuedPodInfo, pod: Pod, node_name: str) -> None:
        current: Pod | None = self.ctx.cluster.get(Pod, pod.key)
        if current is None:
            self.queue.done(info.key)
            return
        pod = current
        self.queue.done(info.key)
        self.handle.nominator.remove(pod)
        bound = replace(
            pod, spec=replace(pod.spec, node_name=node_name), status=replace(pod.status, nominated_node_name="")
        )
        # The binding subresource sets PodScheduled=True with the node.
        bound = replace(bound, status=with_condition(bound.status, POD_SCHEDULED, True, self.ctx.now))
        stored = self.ctx.cluster.update(bound)
        message = SUCCESSFULLY_ASSIGNED.format(pod.namespace, pod.name, node_name)
        record(self.ctx, stored, "Scheduled", message, source=SOURCE)

    def _failed(self, info: QueuedPodInfo, result: ScheduleResult) -> None:
        pod = info.pod
        record(self.ctx, pod, "FailedScheduling", truncate_note(result.message), warning=True, source=SOURCE)
        self._requeue(info, result.diagnosis.unschedulable_plugins)
        if result.nominated_node is None:
            self._write_failure(pod, result.message, True, nominated_node=None)
        else:
            # Upstream's failure handler writes the nomination while the preemption goroutine is
            # still clearing lower-priority nominations and deleting the victims, so the pod is
            # seen nominated before (and while) its victims terminate.
            applied = self.scheduler.apply_preemption(result, evict=_deleted_below)
            nominated = applied.preemptor.status.nominated_node_name
            self._write_failure(pod, result.message, True, nominated_node=nominated)
            for cleared in applied.cleared:
                self._store_nomination(cleared)
            for victim, message in applied.events:
                self._evict_victim(victim, pod)
                record(self.ctx, victim, "Preempted", message, source=SOURCE)

    def _evict_victim(self, victim: Pod, preemptor: Pod) -> None:
        """PreemptPod: DisruptionTarget on the victim's status, then the API's graceful deletion."""
        message = PREEMPTION_MESSAGE.format(scheduler=preemptor.spec.scheduler_name)
        mark_disruption_target(self.ctx, victim, PREEMPTION_BY_SCHEDULER, message)
        delete_pod(self.ctx, victim)

    def _write_failure(self, pod: Pod, message: str, rejected: bool, nominated_node: str | None) -> Pod | None:
        """updatePod of the failure handler: PodScheduled=False with the attempt's message (reason
        Unschedulable, or SchedulerError for an error) and, unless None, the nomination, in one
        status update, skipped when neither changes. Returns the stored pod."""
        current: Pod | None = self.ctx.cluster.get(Pod, pod.key)
        if current is None:
            return None
        reason = UNSCHEDULABLE if rejected else SCHEDULER_ERROR
        status = with_condition(current.status, POD_SCHEDULED, False, self.ctx.now, reason, message)
        if nominated_node is not None and status.nominated_node_name != nominated_node:
            status = replace(status, nominated_node_name=nominated_node)
        if status is current.status:
            return current
        stored: Pod = self.ctx.cluster.update(replace(current, status=status))
        return stored

    def _store_nomination(self, pod: Pod) -> Pod | None:
        current: Pod | None = self.ctx.cluster.get(Pod, pod.key)
        if current is None or current.status.nominated_node_name == pod.status.nominated_node_name:
            return current
        status = replace(current.status, nominated_node_name=pod.status.nominated_node_name)
        stored: Pod = self.ctx.cluster.update(replace(current, status=status))
        return stored


def _deleted_below(victim: Pod) -> None:
    """apply_preemption's eviction, deferred: _failed deletes the victims after the nomination."""
