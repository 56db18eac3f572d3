"""The ReplicaSet controller (pkg/controller/replicaset/replica_set.go).

Each ReplicaSet gets as many active pods (not finished, not terminating) as spec.replicas asks:
missing ones are created from the template in slow-start batches (1, 2, 4... at most 500 a sync),
named "<replicaset>-" plus five random characters and owned through a controller ownerReference;
extra ones are deleted, first-to-go first by upstream's ranking (controllers/pod_deletion.py).
A creation the API server refuses is a Warning FailedCreate "Error creating: ..." and the sync is
retried with the workqueue's exponential backoff. Orphan pods that match the selector are adopted and
owned pods that stop matching are released, as the PodControllerRefManager does. Status counts
replicas, fullyLabeledReplicas, readyReplicas and availableReplicas (ready for minReadySeconds).

When a ReplicaSet is deleted its pods are deleted after it (the garbage collector's background
cascade), as `kubectl delete` leaves it to the garbage collector to do.

Pods are indexed by their owner's uid from the watch, so a sync touches only its own pods.
"""

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from scheduler_core.admission.priority import AdmissionError
from scheduler_core.api.conditions import REPLICA_FAILURE, condition_of_type
from scheduler_core.api.pod_conditions import is_pod_available, ready_changed_at
from scheduler_core.api.selectors import label_selector_matches
from scheduler_core.api.types import Condition, ObjectMeta, OwnerReference, Pod
from scheduler_core.api.workloads import ReplicaSet, ReplicaSetStatus
from scheduler_core.controllers.base import Context, DirtyKeys, delete_pod, is_active, record
from scheduler_core.controllers.naming import generate_name
from scheduler_core.controllers.pod_deletion import (
    rank_pods_for_deletion,
    ranks_by_related_pods_on_same_node,
)
from scheduler_core.controllers.requeue import Requeue
from scheduler_core.store.cluster import Change, ChangeType, ConflictError, StoredObject

NAME = "replicaset"
SOURCE = "replicaset-controller"
API_VERSION = "apps/v1"
BURST_REPLICAS = 500
SLOW_START_INITIAL_BATCH_SIZE = 1
GENERATE_NAME_ATTEMPTS = 8  # the API server retries a generated name that is taken (RetryGenerateName)

# Events (pkg/controller/controller_utils.go RealPodControl).
SUCCESSFUL_CREATE_REASON = "SuccessfulCreate"
FAILED_CREATE_REASON = "FailedCreate"
SUCCESSFUL_DELETE_REASON = "SuccessfulDelete"
FAILED_DELETE_REASON = "FailedDelete"
CREATED_POD_MESSAGE = "Created pod: {}"
ERROR_CREATING_MESSAGE = "Error creating: {}"
DELETED_POD_MESSAGE = "Deleted pod: {}"
ERROR_DELETING_MESSAGE = "Error deleting: {}"


def controller_uid(obj: Any, kind: str) -> str | None:
    """The uid of the object's controller when that controller is of `kind`."""
    ref = obj.metadata.controller_ref()
    if ref is None or ref.kind != kind or not ref.uid:
        return None
    return str(ref.uid)


def pod_prefix(owner_name: str) -> str:
    """getPodsPrefix: the owner's name and a dash."""
    return f"{owner_name}-"


def slow_start_batch(count: int, initial: int, attempt: Any) -> tuple[int, str | None]:
    """slowStartBatch: call `attempt` count times in doubling batches; stop after a batch with a failure.
    `attempt` returns an error text or None. Returns (successes, first error)."""
    remaining, successes = count, 0
    batch = min(remaining, initial)
    while batch > 0:
        errors = [error for error in (attempt() for _ in range(batch)) if error is not None]
        successes += batch - len(errors)
        if errors:
            return successes, errors[0]
        remaining -= batch
        batch = min(2 * batch, remaining)
    return successes, None


class ReplicaSetController:
    name = NAME
    watch_kinds = frozenset({"Pod", "ReplicaSet"})  # the kinds on_change reacts to

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.dirty = DirtyKeys()
        self.requeue = Requeue(ctx, self.dirty.mark, "replicaset sync")
        # Pods by the uid of the ReplicaSet that controls them (pod key -> pod), and the reverse.
        self._pods: dict[str, dict[str, Pod]] = {}
        self._pod_owner: dict[str, str] = {}
        # The active ones among them, by whether they match their ReplicaSet's selector (kept as pods
        # and ReplicaSets change): a sync claims them without matching every pod again.
        self._claimable: dict[str, dict[str, Pod]] = {}
        self._strays: dict[str, dict[str, Pod]] = {}
        # Among claimable and strays, those carrying every template label and those ready: the
        # status' counts without a pass over the pods.
        self._labeled: dict[str, dict[str, Pod]] = {}
        self._ready: dict[str, dict[str, Pod]] = {}
        self._orphans: dict[str, dict[str, None]] = {}  # namespace -> keys of pods with no controller
        # ReplicaSets: uid -> key, namespace -> keys, controller uid -> keys of the ReplicaSets it controls.
        self._rs_key: dict[str, str] = {}
        self._rs_in_namespace: dict[str, dict[str, None]] = {}
        # ReplicaSets by one label their selector requires ((namespace, key, value) -> keys), or by namespace
        # when the selector has no matchLabels: the candidates to adopt a new orphan.
        self._rs_by_label: dict[tuple[str, str, str], dict[str, None]] = {}
        self._rs_by_expression: dict[str, dict[str, None]] = {}
        self._rs_index_entry: dict[str, tuple[str, str, str] | str] = {}
        self._adopt_check: set[str] = set()  # keys that must look at the orphans of their namespace
        self._siblings: dict[str, dict[str, None]] = {}
        self._rs_controller: dict[str, str] = {}  # rs key -> controller uid
        self._collect: list[tuple[str, str]] = []  # (pod key, owner uid): dependents of deleted ReplicaSets

    # ------------------------------------------------------------------ watching

    def on_change(self, change: Change[StoredObject]) -> None:
        if (pod_change := change.of(Pod)) is not None:
            self._on_pod(pod_change)
        elif (replica_set_change := change.of(ReplicaSet)) is not None:
            self._on_replica_set(replica_set_change)

    def _on_replica_set(self, change: Change[ReplicaSet]) -> None:
        key = change.key
        if change.type is ChangeType.DELETED:
            old = change.previous
            self._forget_rs(key, old)
            self.requeue.drop(key)
            uid = old.metadata.uid
            self._collect.extend((pod_key, uid) for pod_key in self._pods.get(uid, {}))
            return
        rs, previous = change.latest, change.old
        if previous is not None and previous.metadata.uid != rs.metadata.uid:
            self._forget_rs(key, previous)
        self._rs_key[rs.metadata.uid] = key
        if (
            previous is None
            or previous.metadata.uid != rs.metadata.uid
            or previous.spec.selector != rs.spec.selector
            or previous.spec.template.labels != rs.spec.template.labels
        ):
            self._classify_all(rs)
        self._rs_in_namespace.setdefault(rs.metadata.namespace, {})[key] = None
        self._index_selector(key, rs)
        ref = rs.metadata.controller_ref()
        owner = ref.uid if ref is not None else ""
        old_owner = self._rs_controller.get(key)
        if old_owner != owner:
            if old_owner:
                self._siblings.get(old_owner, {}).pop(key, None)
            if owner:
                self._siblings.setdefault(owner, {})[key] = None
                self._rs_controller[key] = owner
            else:
                self._rs_controller.pop(key, None)
        status_only = (
            previous is not None
            and previous.spec == rs.spec
            and previous.metadata == rs.metadata
            and previous.generation == rs.generation
        )
        if not status_only:
            self.dirty.mark(key)
            self._adopt_check.add(key)

    def _index_selector(self, key: str, rs: ReplicaSet) -> None:
        self._unindex_selector(key)
        namespace = rs.metadata.namespace
        match_labels = rs.spec.selector.match_labels
        if match_labels:
            label = min(match_labels.items())
            entry = (namespace, label[0], label[1])
            self._rs_by_label.setdefault(entry, {})[key] = None
            self._rs_index_entry[key] = entry
        else:
            self._rs_by_expression.setdefault(namespace, {})[key] = None
            self._rs_index_entry[key] = namespace

    def _unindex_selector(self, key: str) -> None:
        entry = self._rs_index_entry.pop(key, None)
        if isinstance(entry, tuple):
            self._rs_by_label.get(entry, {}).pop(key, None)
        elif entry is not None:
            self._rs_by_expression.get(entry, {}).pop(key, None)

    def _forget_rs(self, key: str, rs: ReplicaSet) -> None:
        self._rs_key.pop(rs.metadata.uid, None)
        self._rs_in_namespace.get(rs.metadata.namespace, {}).pop(key, None)
        self._unindex_selector(key)
        self._adopt_check.discard(key)
        owner = self._rs_controller.pop(key, None)
        if owner:
            self._siblings.get(owner, {}).pop(key, None)

    def _on_pod(self, change: Change[Pod]) -> None:
        key = change.key
        old: Pod | None = change.old
        new: Pod | None = change.new
        previous_owner = self._pod_owner.get(key)
        if new is None:
            if previous_owner is not None:
                self._unindex_pod(previous_owner, key)
                del self._pod_owner[key]
                self._mark_uid(previous_owner)
            if old is not None:
                self._orphans.get(old.metadata.namespace, {}).pop(key, None)
            return
        owner = controller_uid(new, "ReplicaSet")
        if previous_owner != owner:
            if previous_owner is not None:
                self._unindex_pod(previous_owner, key)
                self._mark_uid(previous_owner)
            if owner is None:
                self._pod_owner.pop(key, None)
            else:
                self._pod_owner[key] = owner
        if owner is not None:
            self._pods.setdefault(owner, {})[key] = new
            self._classify(owner, key, new)
            self._mark_uid(owner)
        namespace = new.metadata.namespace
        if new.metadata.controller_ref() is None:
            self._orphans.setdefault(namespace, {})[key] = None
            if old is None or old.metadata.labels != new.metadata.labels or old.metadata.controller_ref():
                self._mark_selecting(new)
        else:
            self._orphans.get(namespace, {}).pop(key, None)

    def _unindex_pod(self, owner: str, key: str) -> None:
        pods = self._pods.get(owner)
        if pods is not None:
            pods.pop(key, None)
            if not pods:
                del self._pods[owner]
        self._unclassify(owner, key)

    def _classify(self, owner: str, key: str, pod: Pod) -> None:
        """Files an owned pod as claimable (active, selected), a stray (active, not selected) or
        neither (finished or terminating), by its ReplicaSet's selector as it is now."""
        rs_key = self._rs_key.get(owner)
        rs: ReplicaSet | None = self.ctx.cluster.get(ReplicaSet, rs_key) if rs_key is not None else None
        if rs is None or rs.metadata.uid != owner or not is_active(pod):
            self._unclassify(owner, key)  # a ReplicaSet that appears later files its pods then
            return
        if label_selector_matches(rs.spec.selector, pod.metadata.labels):
            self._claimable.setdefault(owner, {})[key] = pod
            self._drop(self._strays, owner, key)
        else:
            self._strays.setdefault(owner, {})[key] = pod
            self._drop(self._claimable, owner, key)
        if rs.spec.template.labels.items() <= pod.metadata.labels.items():  # every one, with its value
            self._labeled.setdefault(owner, {})[key] = pod
        else:
            self._drop(self._labeled, owner, key)
        if pod.status.ready:
            self._ready.setdefault(owner, {})[key] = pod
        else:
            self._drop(self._ready, owner, key)

    def _classify_all(self, rs: ReplicaSet) -> None:
        uid = rs.metadata.uid
        for key, pod in self._pods.get(uid, {}).items():
            self._classify(uid, key, pod)

    def _unclassify(self, owner: str, key: str) -> None:
        for index in (self._claimable, self._strays, self._labeled, self._ready):
            self._drop(index, owner, key)

    @staticmethod
    def _drop(index: dict[str, dict[str, Pod]], owner: str, key: str) -> None:
        pods = index.get(owner)
        if pods is not None and pods.pop(key, None) is not None and not pods:
            del index[owner]

    def _mark_uid(self, uid: str) -> None:
        key = self._rs_key.get(uid)
        if key is not None:
            self.dirty.mark(key)

    def _mark_selecting(self, pod: Pod) -> None:
        """An orphan appeared or changed: the ReplicaSets that select it may adopt it."""
        namespace = pod.metadata.namespace
        candidates = [
            key
            for label in pod.metadata.labels.items()
            for key in self._rs_by_label.get((namespace, label[0], label[1]), {})
        ]
        candidates.extend(self._rs_by_expression.get(namespace, {}))
        for key in candidates:
            rs: ReplicaSet | None = self.ctx.cluster.get(ReplicaSet, key)
            if rs is not None and label_selector_matches(rs.spec.selector, pod.metadata.labels):
                self.dirty.mark(key)
                self._adopt_check.add(key)

    # ------------------------------------------------------------------ syncing

    def sync(self) -> bool:
        busy = False
        for _ in self.sync_steps():
            busy = True
        return busy

    def sync_steps(self) -> Iterator[None]:
        """sync's work, yielding after each piece (the garbage collection, each ReplicaSet): a
        simulation asked for checkpoints may pause there, a store between two syncs of keys."""
        if self._collect:
            collect, self._collect = self._collect, []
            for pod_key, owner in collect:
                pod: Pod | None = self.ctx.cluster.get(Pod, pod_key)
                if pod is not None and controller_uid(pod, "ReplicaSet") == owner:
                    delete_pod(self.ctx, pod)
            yield
        for key in self.dirty.take():
            self._sync_replica_set(key)
            yield

    def _sync_replica_set(self, key: str) -> None:
        rs: ReplicaSet | None = self.ctx.cluster.get(ReplicaSet, key)
        if rs is None:
            return
        active = self._claim_pods(rs)
        error = None
        if rs.metadata.deletion_timestamp is None:
            error = self._manage_replicas(rs, active)
        rs = self.ctx.cluster.get(ReplicaSet, key) or rs
        was_failing = condition_of_type(rs.status.conditions, REPLICA_FAILURE) is not None
        status = self._calculate_status(rs, error, len(active))
        if status != rs.status:
            rs = self.ctx.cluster.update(replace(rs, status=status))
        if error is not None:
            if not was_failing:
                self.dirty.mark(key)  # the ReplicaFailure condition is new: its status update resyncs at once
            self.requeue.rate_limited(key)
            return
        if was_failing:
            self.dirty.mark(key)
        self.requeue.forget(key)
        if rs.spec.min_ready_seconds > 0 and status.ready_replicas != status.available_replicas:
            self.requeue.after(key, self._next_availability_check(rs), idle=False)

    def _claim_pods(self, rs: ReplicaSet) -> list[Pod]:
        """PodControllerRefManager.ClaimPods over active pods: keep owned ones that match the selector,
        release those that do not, adopt matching orphans."""
        uid = rs.metadata.uid
        strays = self._strays.get(uid)
        if strays and rs.metadata.deletion_timestamp is None:
            # Released in the order the pods were owned, as a pass over them all releases them.
            for pod in [pod for key, pod in self._pods.get(uid, {}).items() if key in strays]:
                self._set_owner(pod, None, uid)
        claimed = list(self._claimable.get(uid, {}).values())
        if rs.metadata.deletion_timestamp is not None or rs.metadata.key not in self._adopt_check:
            return claimed
        self._adopt_check.discard(rs.metadata.key)
        for pod_key in list(self._orphans.get(rs.metadata.namespace, {})):
            orphan: Pod | None = self.ctx.cluster.get(Pod, pod_key)
            if orphan is None or not is_active(orphan) or orphan.metadata.controller_ref() is not None:
                continue
            if label_selector_matches(rs.spec.selector, orphan.metadata.labels):
                claimed.append(self._set_owner(orphan, _controller_ref(rs), uid))
        return claimed

    def _set_owner(self, pod: Pod, ref: OwnerReference | None, uid: str) -> Pod:
        others = tuple(r for r in pod.metadata.owner_references if r.uid != uid)
        references = (*others, ref) if ref is not None else others
        updated: Pod = self.ctx.cluster.update(
            replace(pod, metadata=replace(pod.metadata, owner_references=references))
        )
        return updated

    def _manage_replicas(self, rs: ReplicaSet, active: list[Pod]) -> str | None:
        diff = len(active) - rs.spec.replicas
        if diff < 0:
            _, error = slow_start_batch(
                min(-diff, BURST_REPLICAS), SLOW_START_INITIAL_BATCH_SIZE, lambda: self._create_pod(rs)
            )
            return error
        if diff > 0:
            doomed = self._pods_to_delete(rs, active, min(diff, BURST_REPLICAS))
            errors = [error for error in (self._delete_pod(rs, pod) for pod in doomed) if error]
            return errors[0] if errors else None
        return None

    def _pods_to_delete(self, rs: ReplicaSet, active: list[Pod], count: int) -> list[Pod]:
        """getPodsToDelete, ranked with the pods of every ReplicaSet under the same controller."""
        related: list[Pod] = []
        owner = self._rs_controller.get(rs.metadata.key)
        if owner:
            for sibling_key in self._siblings.get(owner, {}):
                sibling: ReplicaSet | None = self.ctx.cluster.get(ReplicaSet, sibling_key)
                if sibling is not None:
                    related.extend(self._pods.get(sibling.metadata.uid, {}).values())
        pods = sorted(active, key=lambda p: p.metadata.name)
        ranks = ranks_by_related_pods_on_same_node(pods, related)
        return rank_pods_for_deletion(pods, ranks, self.ctx.now)[:count]

    def _create_pod(self, rs: ReplicaSet) -> str | None:
        template = rs.spec.template
        prefix = pod_prefix(rs.metadata.name)
        error = ""
        for _ in range(GENERATE_NAME_ATTEMPTS):
            pod = Pod(
                metadata=ObjectMeta(
                    name=generate_name(prefix, self.ctx.rng),
                    namespace=rs.metadata.namespace,
                    labels=dict(template.labels),
                    annotations=dict(template.annotations),
                    owner_references=(_controller_ref(rs),),
                    generate_name=prefix,
                ),
                spec=template.spec,
            )
            try:
                created: Pod = self.ctx.cluster.create(pod)
            except ConflictError as conflict:
                error = str(conflict)
                continue
            except AdmissionError as refusal:
                error = str(refusal)
                break
            record(self.ctx, rs, SUCCESSFUL_CREATE_REASON, CREATED_POD_MESSAGE.format(created.name), source=SOURCE)
            return None
        record(self.ctx, rs, FAILED_CREATE_REASON, ERROR_CREATING_MESSAGE.format(error), warning=True, source=SOURCE)
        return error

    def _delete_pod(self, rs: ReplicaSet, pod: Pod) -> str | None:
        if self.ctx.cluster.get(Pod, pod.key) is None:
            return None  # already gone: NotFound is not an error event
        # The DELETE cannot fail here; its event goes first, before the kubelet reacts to the deletion.
        record(self.ctx, rs, SUCCESSFUL_DELETE_REASON, DELETED_POD_MESSAGE.format(pod.name), source=SOURCE)
        delete_pod(self.ctx, pod)
        return None

    # ------------------------------------------------------------------ status

    def _calculate_status(self, rs: ReplicaSet, error: str | None, active: int) -> ReplicaSetStatus:
        """calculateStatus over the active pods it owns (claimable and strays), from the indexes,
        with ReplicaFailure set when managing the replicas failed and removed once it works."""
        uid = rs.metadata.uid
        ready = self._ready.get(uid, {})
        if rs.spec.min_ready_seconds == 0:
            available = len(ready)
        else:
            now = self.ctx.now
            available = sum(1 for pod in ready.values() if is_pod_available(pod, rs.spec.min_ready_seconds, now))
        return ReplicaSetStatus(
            replicas=len(self._claimable.get(uid, {})) + len(self._strays.get(uid, {})),
            fully_labeled_replicas=len(self._labeled.get(uid, {})),
            ready_replicas=len(ready),
            available_replicas=available,
            observed_generation=rs.generation,
            conditions=self._failure_conditions(rs, error, active),
        )

    def _failure_conditions(self, rs: ReplicaSet, error: str | None, active: int) -> tuple[Condition, ...]:
        failure = condition_of_type(rs.status.conditions, REPLICA_FAILURE)
        if error is not None and failure is None:
            diff = active - rs.spec.replicas
            reason = FAILED_CREATE_REASON if diff < 0 else FAILED_DELETE_REASON if diff > 0 else ""
            condition = Condition(REPLICA_FAILURE, "True", reason, error, last_transition_time=self.ctx.now)
            return (*rs.status.conditions, condition)
        if error is None and failure is not None:
            return tuple(c for c in rs.status.conditions if c.type != REPLICA_FAILURE)
        return rs.status.conditions

    def _next_availability_check(self, rs: ReplicaSet) -> float:
        """FindMinNextPodAvailabilityCheck: when the next ready pod becomes available (else minReadySeconds)."""
        pending = [
            since + rs.spec.min_ready_seconds - self.ctx.now
            for pod in self._ready.get(rs.metadata.uid, {}).values()
            if (since := ready_changed_at(pod)) is not None
        ]
        upcoming = [delay for delay in pending if delay > 1e-9]
        return min(upcoming) if upcoming else float(rs.spec.min_ready_seconds)


def _controller_ref(rs: ReplicaSet) -> OwnerReference:
    return OwnerReference(
        kind="ReplicaSet", name=rs.metadata.name, uid=rs.metadata.uid, api_version=API_VERSION, controller=True
    )
