"""The disruption controller (pkg/controller/disruption): PodDisruptionBudget status.

For each budget, on every change to it or to a pod of its namespace:
- the pods are those its selector matches (a nil selector none, an empty one all);
- expectedPods and desiredHealthy: an integer minAvailable is desiredHealthy itself, with
  expectedPods the number of matching pods; a percentage (or maxUnavailable) is taken of the summed
  scale of the controllers owning the pods (getExpectedScale: a Deployment through its ReplicaSet,
  a ReplicaSet, a StatefulSet, or any kind with a scale subresource), rounding up; pods without a
  controller are reported (UnmanagedPods) and left out;
- currentHealthy: the ready pods, not being deleted and not in disruptedPods (an eviction the API
  server approved in the last 2 minutes, DeletionTimeout);
- disruptionsAllowed: currentHealthy - desiredHealthy, never below 0, and 0 while expectedPods is 0;
- observedGeneration: the budget's generation (the eviction API refuses while it lags behind).
When the expected count cannot be computed, disruptionsAllowed drops to 0 (failSafe).

Identical events are recorded once while their cause lasts, as the API server's event correlator
merges repeats into one event.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from scheduler_core.admission.resource_quota import KIND_RESOURCES
from scheduler_core.api.conditions import SYNC_FAILED, with_disruption_allowed
from scheduler_core.api.selectors import label_selector_matches
from scheduler_core.api.types import (
    IntOrString,
    LabelSelector,
    OwnerReference,
    Pod,
    PodDisruptionBudget,
    PodDisruptionBudgetStatus,
)
from scheduler_core.api.workloads import SCALE_TARGETS, Deployment, ReplicaSet, StatefulSet
from scheduler_core.controllers.base import Context, DirtyKeys, record
from scheduler_core.store.cluster import Change, ChangeType, StoredObject

NAME = "disruption"
SOURCE = "controllermanager"
DELETION_TIMEOUT = 120.0  # DeletionTimeout

# Upstream's event reasons and texts (disruption.go).
NO_PODS = "NoPods"
NO_PODS_MESSAGE = "No matching pods found"
UNMANAGED_PODS = "UnmanagedPods"
UNMANAGED_PODS_MESSAGE = (
    "Pods selected by this PodDisruptionBudget (selector: {}) were found to be unmanaged. As a result, the status of "
    "the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please "
    'set ".spec.minAvailable" field of the PDB to an integer value.'
)
CALCULATE_FAILED = "CalculateExpectedPodCountFailed"
CALCULATE_FAILED_MESSAGE = "Failed to calculate the number of expected pods: {}"
NOT_DELETED = "NotDeleted"
NOT_DELETED_MESSAGE = "Pod was expected by PDB {}/{} to be deleted but it wasn't"  # sic: namespace twice
MULTIPLE_PDBS = "MultiplePodDisruptionBudgets"
MULTIPLE_PDBS_MESSAGE = 'Pod "{}"/"{}" matches multiple PodDisruptionBudgets.  Chose "{}" arbitrarily.'
NO_CONTROLLERS = 'found no controllers for pod "{}"'
NO_SCALE = "{} does not implement the scale subresource"
NO_KIND_MATCH = 'no matches for kind "{}" in version "{}"'
NOT_A_PERCENTAGE = "invalid value for IntOrString: invalid type: string is not a percentage"

# Kinds that serve the scale subresource (getScaleController).
SCALABLE = frozenset({"Deployment", "ReplicaSet", "StatefulSet", "ReplicationController"})
APPS_GROUPS = ("apps", "extensions", "")


class ExpectedCountError(Exception):
    pass


@dataclass(frozen=True, slots=True)
class _Expected:
    expected: int
    desired: int
    unmanaged: tuple[str, ...]


def pods_for_budget(pdb: PodDisruptionBudget, pods: Sequence[Pod]) -> list[Pod]:
    """getPodsForPdb: metav1.LabelSelectorAsSelector, so nil matches nothing and {} everything."""
    selector = pdb.spec.selector
    if selector is None:
        return []
    return [
        pod for pod in pods if pod.namespace == pdb.metadata.namespace and label_selector_matches(selector, pod.labels)
    ]


def scaled(value: IntOrString, total: int) -> int:
    """intstr.GetScaledValueFromIntOrPercent(value, total, roundUp=true)."""
    if isinstance(value, int):
        return value
    text = value.strip()
    if not text.endswith("%"):
        raise ExpectedCountError(NOT_A_PERCENTAGE)
    try:
        percent = int(text[:-1])
    except ValueError:
        raise ExpectedCountError(NOT_A_PERCENTAGE) from None
    return math.ceil(percent * total / 100)


def selector_text(selector: LabelSelector | None) -> str:
    """How Go prints a *metav1.LabelSelector with %v (its generated String())."""
    if selector is None:
        return "nil"
    labels = "".join(f"{key}: {value}," for key, value in sorted(selector.match_labels.items()))
    expressions = "".join(
        f"LabelSelectorRequirement{{Key:{req.key},Operator:{req.operator},Values:[{' '.join(req.values)}],}},"
        for req in selector.match_expressions
    )
    return (
        f"&LabelSelector{{MatchLabels:map[string]string{{{labels}}},"
        f"MatchExpressions:[]LabelSelectorRequirement{{{expressions}}},}}"
    )


def _group(api_version: str) -> str:
    return api_version.split("/")[0] if "/" in api_version else ""


def _same(obj: StoredObject, ref: OwnerReference) -> bool:
    """The owner is the one the reference names (a reference without uid is taken on trust)."""
    return not ref.uid or ref.uid == obj.metadata.uid


class DisruptionController:
    name = NAME
    watch_kinds = frozenset({"PodDisruptionBudget", "Pod"})  # the kinds on_change reacts to

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.dirty = DirtyKeys()
        self._noted: dict[str, set[tuple[str, str]]] = {}  # budget key -> events whose cause lasts
        self._multiple_noted: dict[str, str] = {}  # pod key -> budget named in its warning
        self._recheck_at: dict[str, float] = {}

    # ------------------------------------------------------------------ watching

    def on_change(self, change: Change[StoredObject]) -> None:
        if change.kind == "PodDisruptionBudget":
            if change.type is ChangeType.DELETED:
                self._noted.pop(change.key, None)
                return
            self.dirty.mark(change.key)
        elif (pod_change := change.of(Pod)) is not None:
            if not self.ctx.cluster.count(PodDisruptionBudget):
                self._multiple_noted.pop(change.key, None)  # no budget to mark or to warn about
                return
            namespace = pod_change.latest.namespace
            for pdb in self.ctx.cluster.objects(PodDisruptionBudget):
                if pdb.metadata.namespace == namespace:
                    self.dirty.mark(pdb.metadata.key)
            if pod_change.new is not None:
                self._warn_multiple(pod_change.new)
            else:
                self._multiple_noted.pop(change.key, None)

    def _warn_multiple(self, pod: Pod) -> None:
        """getPdbForPod: a pod several budgets select (non-empty selectors) gets a warning."""
        budgets = sorted(
            (
                pdb
                for pdb in self.ctx.cluster.objects(PodDisruptionBudget)
                if pdb.metadata.namespace == pod.namespace
                and pdb.spec.selector is not None
                and not pdb.spec.selector.is_empty
                and label_selector_matches(pdb.spec.selector, pod.labels)
            ),
            key=lambda pdb: pdb.metadata.name,
        )
        if len(budgets) < 2:
            self._multiple_noted.pop(pod.key, None)
            return
        chosen = budgets[0].metadata.name
        if self._multiple_noted.get(pod.key) == chosen:
            return
        self._multiple_noted[pod.key] = chosen
        message = MULTIPLE_PDBS_MESSAGE.format(pod.namespace, pod.name, chosen)
        record(self.ctx, pod, MULTIPLE_PDBS, message, warning=True, source=SOURCE)

    # ------------------------------------------------------------------ syncing

    def sync(self) -> bool:
        keys = self.dirty.take()
        for key in keys:
            pdb = self.ctx.cluster.get(PodDisruptionBudget, key)
            if pdb is not None:
                self._sync(pdb)
        return bool(keys)

    def _sync(self, pdb: PodDisruptionBudget) -> None:
        key = pdb.metadata.key
        events: list[tuple[str, str, bool]] = []
        pods = pods_for_budget(pdb, self.ctx.cluster.objects(Pod))
        if not pods:
            events.append((NO_PODS, NO_PODS_MESSAGE, False))
        try:
            expected = self._expected(pdb, pods)
        except ExpectedCountError as error:
            events.append((CALCULATE_FAILED, CALCULATE_FAILED_MESSAGE.format(error), True))
            self._emit(pdb, events)
            # failSafe: nothing may be disrupted, and the condition says why; observedGeneration stays.
            failed = replace(pdb.status, disruptions_allowed=0)
            self._write(pdb, with_disruption_allowed(failed, self.ctx.now, SYNC_FAILED, str(error)))
            return
        if expected.unmanaged:
            events.append((UNMANAGED_PODS, UNMANAGED_PODS_MESSAGE.format(selector_text(pdb.spec.selector)), True))
        self._emit(pdb, events)
        now = self.ctx.now
        disrupted, recheck = self._disrupted(pdb, pods, now)
        healthy = sum(
            1
            for pod in pods
            if pod.metadata.deletion_timestamp is None
            and not (pod.name in disrupted and disrupted[pod.name] + DELETION_TIMEOUT > now)
            and pod.status.ready
        )
        allowed = healthy - expected.desired
        if expected.expected <= 0 or allowed <= 0:
            allowed = 0
        status = PodDisruptionBudgetStatus(
            disruptions_allowed=allowed,
            current_healthy=healthy,
            desired_healthy=expected.desired,
            expected_pods=expected.expected,
            disrupted_pods=disrupted,
            conditions=pdb.status.conditions,
            observed_generation=pdb.generation,  # updatePdbStatus: the generation this sync computed
        )
        self._write(pdb, with_disruption_allowed(status, now))
        if recheck is not None:
            self._recheck(key, recheck)

    def _write(self, pdb: PodDisruptionBudget, status: PodDisruptionBudgetStatus) -> None:
        if status != pdb.status:
            self.ctx.cluster.update(replace(pdb, status=status))

    def _emit(self, pdb: PodDisruptionBudget, events: list[tuple[str, str, bool]]) -> None:
        key = pdb.metadata.key
        before = self._noted.get(key, set())
        now_noted = {(reason, message) for reason, message, _ in events}
        for reason, message, warning in events:
            if (reason, message) not in before:
                record(self.ctx, pdb, reason, message, warning=warning, source=SOURCE)
        self._noted[key] = now_noted

    def _recheck(self, key: str, at: float) -> None:
        waiting = self._recheck_at.get(key)
        if waiting is not None and waiting <= at:
            return
        self._recheck_at[key] = at

        def fire() -> None:
            if self._recheck_at.get(key) == at:
                del self._recheck_at[key]
                self.dirty.mark(key)

        self.ctx.after(at - self.ctx.now, fire, label=f"pdb recheck {key}")

    def _disrupted(
        self, pdb: PodDisruptionBudget, pods: Sequence[Pod], now: float
    ) -> tuple[dict[str, float], float | None]:
        """buildDisruptedPodMap: entries for pods not yet being deleted, until DeletionTimeout. An
        entry expires at its deadline (upstream: just after it, as real clocks move on)."""
        result: dict[str, float] = {}
        recheck: float | None = None
        listed = pdb.status.disrupted_pods
        for pod in pods:
            if pod.metadata.deletion_timestamp is not None or pod.name not in listed:
                continue
            disrupted_at = listed[pod.name]
            deadline = disrupted_at + DELETION_TIMEOUT
            if deadline <= now:
                message = NOT_DELETED_MESSAGE.format(pdb.metadata.namespace, pdb.metadata.namespace)
                record(self.ctx, pod, NOT_DELETED, message, warning=True, source=SOURCE)
            else:
                result[pod.name] = disrupted_at
                recheck = deadline if recheck is None else min(recheck, deadline)
        return result, recheck

    # ------------------------------------------------------------------ expected pods

    def _expected(self, pdb: PodDisruptionBudget, pods: Sequence[Pod]) -> _Expected:
        spec = pdb.spec
        if spec.max_unavailable is not None:
            expected, unmanaged = self._expected_scale(pods)
            desired = max(expected - scaled(spec.max_unavailable, expected), 0)
            return _Expected(expected, desired, unmanaged)
        if spec.min_available is not None:
            if isinstance(spec.min_available, int):
                return _Expected(len(pods), spec.min_available, ())
            expected, unmanaged = self._expected_scale(pods)
            return _Expected(expected, scaled(spec.min_available, expected), unmanaged)
        return _Expected(0, 0, ())

    def _expected_scale(self, pods: Sequence[Pod]) -> tuple[int, tuple[str, ...]]:
        """getExpectedScale: the sum of the scales of the pods' controllers, each counted once."""
        scales: dict[str, int] = {}
        unmanaged: list[str] = []
        for pod in pods:
            ref = pod.metadata.controller_ref()
            if ref is None:
                unmanaged.append(pod.name)
                continue
            found = self._find_controller(ref, pod.namespace)
            if found is None:
                raise ExpectedCountError(NO_CONTROLLERS.format(pod.name))
            uid, scale = found
            scales[uid] = scale
        return sum(scales.values()), tuple(unmanaged)

    def _get[T: StoredObject](self, kind: type[T], namespace: str, name: str) -> T | None:
        return self.ctx.cluster.get(kind, f"{namespace}/{name}")

    def _find_controller(self, ref: OwnerReference, namespace: str) -> tuple[str, int] | None:
        """The finders in upstream's order: Deployment (through its ReplicaSet), ReplicaSet,
        StatefulSet, then the scale subresource of whatever the reference names."""
        group = _group(ref.api_version)
        if ref.kind == "ReplicaSet" and group in APPS_GROUPS:
            replica_set = self._get(ReplicaSet, namespace, ref.name)
            if replica_set is not None and _same(replica_set, ref):
                owner = replica_set.metadata.controller_ref()
                if owner is not None and owner.kind == "Deployment":
                    deployment = self._get(Deployment, namespace, owner.name)
                    if deployment is not None and _same(deployment, owner):
                        return deployment.metadata.uid or deployment.metadata.key, deployment.spec.replicas
                else:
                    return replica_set.metadata.uid or replica_set.metadata.key, replica_set.spec.replicas
        if ref.kind == "StatefulSet" and group in ("apps", ""):
            stateful_set = self._get(StatefulSet, namespace, ref.name)
            if stateful_set is not None and _same(stateful_set, ref):
                return stateful_set.metadata.uid or stateful_set.metadata.key, stateful_set.spec.replicas
        return self._scale_controller(ref, namespace)

    def _scale_controller(self, ref: OwnerReference, namespace: str) -> tuple[str, int] | None:
        known = KIND_RESOURCES.get(ref.kind)
        if known is None and ref.kind != "ReplicationController":
            raise ExpectedCountError(NO_KIND_MATCH.format(ref.kind, ref.api_version or "v1"))
        if ref.kind not in SCALABLE:
            resource, group = known if known is not None else ("replicationcontrollers", "")
            raise ExpectedCountError(NO_SCALE.format(f"{resource}.{group}" if group else resource))
        target = SCALE_TARGETS.get(ref.kind)  # a ReplicationController is never in the store
        obj = self._get(target, namespace, ref.name) if target is not None else None
        if obj is None or not _same(obj, ref):
            return None
        return obj.metadata.uid or obj.metadata.key, int(obj.spec.replicas)
