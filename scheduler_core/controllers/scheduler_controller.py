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
from scheduler_core.scheduler.framework import Code, CycleState, Status, error
from scheduler_core.scheduler.messages import SUCCESSFULLY_ASSIGNED
from scheduler_core.scheduler.queue import ClusterEvent, QueuedPodInfo, SchedulingQueue
from scheduler_core.scheduler.resources import holds_resources, pod_requests
from scheduler_core.scheduler.runtime import Framework
from scheduler_core.scheduler.schedule_one import Scheduler, ScheduleResult
from scheduler_core.scheduler.selector_source import SelectorSource
from scheduler_core.store.cluster import Change, ChangeType, Cluster, StoredObject

NAME = "scheduler"
SOURCE = "default-scheduler"
SELECTOR_KINDS = ("Service", "ReplicaSet", "StatefulSet")
EVENT_NOTE_LIMIT = 1024
# Storage objects the volume plugins read: (event on add, event on update).
STORAGE_EVENTS = {
    "PersistentVolumeClaim": (ClusterEvent.PVC_ADD, ClusterEvent.PVC_UPDATE),
    "PersistentVolume": (ClusterEvent.PV_ADD, ClusterEvent.PV_UPDATE),
    "StorageClass": (ClusterEvent.STORAGE_CLASS_ADD, ClusterEvent.STORAGE_CLASS_UPDATE),
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


def _requests_shrank(old: Pod, new: Pod) -> bool:
    before, after = pod_requests(old), pod_requests(new)
    return any(after.get(name, 0) < amount for name, amount in before.items())


def _scheduling_relevant(pod: Pod) -> Any:
    return (pod.spec, pod.metadata.labels)


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
            pre_enqueue=lambda pod: not pod.spec.scheduling_gates,
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
            self.scheduler.snapshot.namespace_labels = {ns.metadata.name: ns.metadata.labels for ns in namespaces}
            self._moved(ClusterEvent.NAMESPACE_CHANGE)
        elif kind == "PodDisruptionBudget":
            self.handle.pdbs = list(self.ctx.cluster.objects(PodDisruptionBudget))
        elif kind in SELECTOR_KINDS and _selector_changed(change):
            self._selector_source_changed(change)
        elif kind in STORAGE_EVENTS and change.type is not ChangeType.DELETED:
            added, updated = STORAGE_EVENTS[kind]
            self._moved(added if change.type is ChangeType.ADDED else updated)

    def _moved(self, *events: ClusterEvent) -> None:
        if self.queue.unschedulable:
            self.queue.move_all_to_active_or_backoff(events, self.ctx.now)
            self._arm_backoff_timer()

    def _on_node(self, change: Change[Node]) -> None:
        snapshot = self.scheduler.snapshot
        if change.type is ChangeType.ADDED:
            snapshot.add_node(change.latest)
            self._moved(ClusterEvent.NODE_ADD)
            return
        if change.type is ChangeType.DELETED:
            snapshot.remove_node(change.previous.name)
            return
        old, new = change.previous, change.latest
        snapshot.update_node(new)
        events = []
        if old.labels != new.labels:
            events.append(ClusterEvent.NODE_LABEL_UPDATE)
        if old.spec.taints != new.spec.taints or old.spec.unschedulable != new.spec.unschedulable:
            events.append(ClusterEvent.NODE_TAINT_UPDATE)
        if old.status.allocatable != new.status.allocatable:
            events.append(ClusterEvent.NODE_ALLOCATABLE_UPDATE)
        if old.status.ready != new.status.ready:
            events.append(ClusterEvent.NODE_CONDITION_UPDATE)
        if events:
            self._moved(*events)

    def _on_pod(self, change: Change[Pod]) -> None:
        old: Pod | None = change.old
        new: Pod | None = change.new
        self._mirror_assigned(old, new)
        if change.type is ChangeType.DELETED:
            if old is not None:
                self.queue.delete(old.key)
                self.handle.nominator.remove(old)
            return
        assert new is not None
        if new.spec.node_name or new.status.phase in TERMINAL_PHASES or new.metadata.deletion_timestamp is not None:
            if new.key in self.queue and not new.spec.node_name:
                self.queue.delete(new.key)
            return
        if self.scheduler.framework_for(new) is None:
            return  # another scheduler's pod
        if new.key not in self.queue:
            self.queue.add(new, self.ctx.now)
            if new.status.nominated_node_name:
                self.handle.nominator.add(new)
        elif old is not None and _scheduling_relevant(old) != _scheduling_relevant(new):
            self.queue.update(new, self.ctx.now)
            self._arm_backoff_timer()

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
            self._moved(ClusterEvent.ASSIGNED_POD_DELETE)
        elif now and not was:
            self._moved(ClusterEvent.ASSIGNED_POD_ADD)
        elif was and now and changed and old is not None and new is not None:
            events = []
            if old.metadata.labels != new.metadata.labels:
                events.append(ClusterEvent.ASSIGNED_POD_LABEL_UPDATE)
            if _requests_shrank(old, new):
                events.append(ClusterEvent.ASSIGNED_POD_SCALE_DOWN)
            if events:
                self._moved(*events)

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
            binding = _Binding(info, pod, pod, node_name, state, framework, self.ctx.now)
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
            binding.assumed = replace(
                binding.pod,
                spec=replace(binding.pod.spec, node_name=binding.node_name),
                status=replace(binding.pod.status, nominated_node_name=""),
            )
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
        """handleBindingCycleError: unreserve, forget the assumed pod (as a pod deletion), requeue."""
        binding.framework.run_unreserve(binding.state, binding.pod, binding.node_name)
        was_assumed = binding.pod.key in self._binding
        self._forget(binding)
        if was_assumed:
            self._moved(ClusterEvent.ASSIGNED_POD_DELETE)
        self._binding_failed(binding.info, binding.pod, status)

    def _binding_failed(self, info: QueuedPodInfo, pod: Pod, status: Status) -> None:
        """The failure handler for a Reserve or binding-cycle failure: FailedScheduling with the
        status's message; an error goes to backoff, a rejection waits for its plugin's events."""
        record(self.ctx, pod, "FailedScheduling", truncate_note(status.message), warning=True, source=SOURCE)
        if self.ctx.cluster.get(Pod, pod.key) is None:
            self.queue.delete(pod.key)
            return
        # The binding cycle's failure clears any nomination (upstream's clearNominatedNode).
        info.pod = self._write_failure(pod, status.message, status.is_rejected, nominated_node="") or pod
        rejectors = {status.plugin} if status.is_rejected and status.plugin else set()
        self.queue.add_unschedulable(info, self.ctx.now, rejectors, error=not rejectors)
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
        if result.nominated_node is None:
            info.pod = self._write_failure(pod, result.message, True, nominated_node=None) or pod
        else:
            # Upstream's failure handler writes the nomination while the preemption goroutine is
            # still clearing lower-priority nominations and deleting the victims, so the pod is
            # seen nominated before (and while) its victims terminate.
            applied = self.scheduler.apply_preemption(result, evict=_deleted_below)
            nominated = applied.preemptor.status.nominated_node_name
            info.pod = self._write_failure(pod, result.message, True, nominated_node=nominated) or pod
            for cleared in applied.cleared:
                self._store_nomination(cleared)
            for victim, message in applied.events:
                self._evict_victim(victim, pod)
                record(self.ctx, victim, "Preempted", message, source=SOURCE)
        self.queue.add_unschedulable(info, self.ctx.now, result.diagnosis.unschedulable_plugins)
        self._arm_backoff_timer()
        self._arm_leftover_timer()

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
