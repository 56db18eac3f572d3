"""The StatefulSet controller (pkg/controller/statefulset, kubernetes v1.34).

Pods get stable identities: `<set>-<ordinal>` for ordinals spec.ordinals.start .. start+replicas-1,
labelled statefulset.kubernetes.io/pod-name, apps.kubernetes.io/pod-index and
controller-revision-hash. Each volumeClaimTemplate gives every ordinal its own claim,
`<template>-<set>-<ordinal>`, created before the pod; claims outlive their pods, so a recreated pod
mounts the same claim (and, through VolumeBinding, lands where the claim's volume is).

podManagementPolicy OrderedReady (monotonic) creates one pod at a time, the next only once every
lower ordinal is Running and Ready (and available after minReadySeconds), and removes surplus pods
one at a time from the highest ordinal, each only once the others are healthy. Parallel creates and
deletes without waiting. updateStrategy RollingUpdate replaces pods whose revision differs from the
update revision, highest ordinal first, one at a time, leaving ordinals below the partition alone;
OnDelete replaces a pod only when someone deletes it. (maxUnavailable needs the
MaxUnavailableStatefulSet gate, alpha and off in v1.34: one pod at a time.)

persistentVolumeClaimRetentionPolicy (StatefulSetAutoDeletePVC, GA): whenDeleted Delete makes the
set the claims' controller (they go with the set); whenScaled Delete makes a condemned pod its
claims' controller (they go with the pod). The garbage collector's part in that (deleting dependents
whose owner is gone) is done here for the pods and claims this controller owns.

Revisions are kept by the controller (ControllerRevision objects are not modelled): a revision is the
pod template, named `<set>-<hash>`; a name already taken by another template's revision bumps
status.collisionCount, which every status write carries (0 included), with observedGeneration, the
generation the sync worked on. Event messages are stateful_pod_control.go's.
"""

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from scheduler_core.admission.priority import AdmissionError
from scheduler_core.api.pod_conditions import TERMINAL_PHASES, is_pod_available
from scheduler_core.api.types import ObjectMeta, OwnerReference, Pod, PodSpec, Volume
from scheduler_core.api.workloads import (
    PersistentVolumeClaim,
    PodTemplateSpec,
    Service,
    StatefulSet,
    StatefulSetStatus,
)
from scheduler_core.controllers.base import Context, delete_pod, record
from scheduler_core.controllers.controller_kit import DelayingQueue, OwnerIndex, controller_ref
from scheduler_core.controllers.endpoints import compute_endpoints
from scheduler_core.controllers.naming import template_hash
from scheduler_core.controllers.requeue import Requeue
from scheduler_core.store.cluster import Change, ChangeType, Cluster, ConflictError, StoredObject

NAME = "statefulset"
SOURCE = "statefulset-controller"
KIND = "StatefulSet"
API_VERSION = "apps/v1"

# apps/v1 labels.
POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name"  # StatefulSetPodNameLabel
POD_INDEX_LABEL = "apps.kubernetes.io/pod-index"  # PodIndexLabel (PodIndexLabel gate, GA)
REVISION_LABEL = "controller-revision-hash"  # StatefulSetRevisionLabel

# Event reasons and messages (stateful_pod_control.go recordPodEvent / recordClaimEvent).
POD_EVENT_SUCCESS = "{verb} Pod {pod} in StatefulSet {set} successful"
POD_EVENT_FAILURE = "{verb} Pod {pod} in StatefulSet {set} failed error: {error}"
CLAIM_EVENT_SUCCESS = "{verb} Claim {claim} Pod {pod} in StatefulSet {set} success"
CLAIM_EVENT_FAILURE = "{verb} Claim {claim} for Pod {pod} in StatefulSet {set} failed error: {error}"
CONFLICTING_CONTROLLER = "ConflictingController"
CONFLICTING_CONTROLLER_MESSAGE = (
    "PersistentVolumeClaim {} has a conflicting OwnerReference that acts as a manging controller, "
    "the retention policy is ignored for this claim"
)
FAILED_TO_CREATE_CLAIM = "failed to create PVC {}: {}"
CLAIM_BEING_DELETED = "pvc {} is being deleted"

CLUSTER_DOMAIN = "cluster.local"
RETAIN, DELETE = "Retain", "Delete"
ORDINAL_PATTERN = re.compile(r"(.*)-([0-9]+)$")


# ---------------------------------------------------------------------------- identity


@lru_cache(maxsize=16384)  # a sync reads every pod's ordinal, several times: parse each name once
def parent_and_ordinal(pod_name: str) -> tuple[str, int]:
    """getParentNameAndOrdinal: ("", -1) when the name is not <parent>-<ordinal>."""
    match = ORDINAL_PATTERN.match(pod_name)
    if match is None:
        return "", -1
    ordinal = int(match.group(2))
    return (match.group(1), ordinal) if ordinal < 2**31 else ("", -1)


def ordinal_of(pod: Pod) -> int:
    return parent_and_ordinal(pod.name)[1]


def pod_name(ss: StatefulSet, ordinal: int) -> str:
    return f"{ss.metadata.name}-{ordinal}"


def claim_name(ss: StatefulSet, template: PersistentVolumeClaim, ordinal: int) -> str:
    return f"{template.metadata.name}-{ss.metadata.name}-{ordinal}"


def is_member(ss: StatefulSet, pod: Pod) -> bool:
    return parent_and_ordinal(pod.name)[0] == ss.metadata.name


def pod_dns_name(pod: str, service: str, namespace: str, cluster_domain: str = CLUSTER_DOMAIN) -> str:
    """The stable DNS name a headless Service gives a StatefulSet pod (hostname.subdomain)."""
    return f"{pod}.{service}.{namespace}.svc.{cluster_domain}"


def stateful_pod_dns_names(cluster: Cluster, ss: StatefulSet, cluster_domain: str = CLUSTER_DOMAIN) -> dict[str, str]:
    """pod name -> DNS name, for the set's pods that have a record now: the governing Service
    (spec.serviceName) exists, is headless, selects the pod, and the pod is a ready endpoint of it
    (publishNotReadyAddresses is not modelled). Pods are named the same after a restart, so the
    names are stable; only while a pod is missing or not ready does its record go away."""
    if not ss.spec.service_name:
        return {}
    service: Service | None = cluster.get(Service, f"{ss.metadata.namespace}/{ss.spec.service_name}")
    if service is None or not service.headless:
        return {}
    names: dict[str, str] = {}
    for endpoint in compute_endpoints(cluster, service):
        pod = cluster.get(Pod, f"{endpoint.namespace}/{endpoint.pod}")
        if pod is None or not endpoint.ready or not is_member(ss, pod):
            continue
        owner = pod.metadata.controller_ref()
        if owner is None or owner.uid != ss.metadata.uid:
            continue
        names[pod.name] = pod_dns_name(pod.name, service.metadata.name, ss.metadata.namespace, cluster_domain)
    return names


# ---------------------------------------------------------------------------- revisions


@dataclass(frozen=True, slots=True)
class Revision:
    name: str
    number: int
    template: PodTemplateSpec


def _first(item: tuple[int, Pod]) -> int:
    return item[0]


def revision_label(pod: Pod) -> str:
    return pod.labels.get(REVISION_LABEL, "")


def _aggregate(errors: list[str]) -> str:
    """errors.NewAggregate(...).Error()."""
    return errors[0] if len(errors) == 1 else "[" + ", ".join(errors) + "]"


# ---------------------------------------------------------------------------- the controller


class StatefulSetController:
    name = NAME
    watch_kinds = frozenset({KIND, "Pod", "PersistentVolumeClaim"})  # the kinds on_change reacts to

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.queue = DelayingQueue(ctx, "sync statefulset")
        self.requeue = Requeue(ctx, self.queue.add, "retry statefulset")
        self.pods = OwnerIndex(KIND)
        self.claims_by_set = OwnerIndex(KIND)
        self.claims_by_pod = OwnerIndex("Pod")
        self._keys_by_uid: dict[str, str] = {}
        self._revisions: dict[str, list[Revision]] = {}  # set uid -> history, oldest first
        self._collect_pods: list[str] = []
        self._collect_claims: list[str] = []

    # ------------------------------------------------------------------ watching

    def on_change(self, change: Change[StoredObject]) -> None:
        if (stateful_set_change := change.of(StatefulSet)) is not None:
            self._on_set(stateful_set_change)
        elif (pod_change := change.of(Pod)) is not None:
            self._on_pod(pod_change)
        elif change.kind == "PersistentVolumeClaim":
            self.claims_by_set.observe(change)
            self.claims_by_pod.observe(change)

    def _on_set(self, change: Change[StatefulSet]) -> None:
        if change.type is ChangeType.DELETED:
            uid = change.previous.metadata.uid
            self._keys_by_uid.pop(uid, None)
            self._revisions.pop(uid, None)
            self.requeue.drop(change.key)
            # The garbage collector: the set's pods, and the claims it controls (whenDeleted: Delete).
            self._collect_pods.extend(self.pods.forget(uid))
            self._collect_claims.extend(self.claims_by_set.forget(uid))
            return
        new, old = change.latest, change.old
        self._keys_by_uid[new.metadata.uid] = change.key
        if old is not None and old.spec == new.spec and old.metadata == new.metadata:
            return  # only the status changed (our own write)
        self.queue.add(change.key)

    def _on_pod(self, change: Change[Pod]) -> None:
        old: Pod | None = change.old
        new: Pod | None = change.new
        if change.type is ChangeType.DELETED and old is not None:
            # The garbage collector: claims whose controller was this pod (whenScaled: Delete).
            self._collect_claims.extend(self.claims_by_pod.forget(old.metadata.uid))
        before, after = self.pods.observe(change)
        for uid in dict.fromkeys((before, after)):  # in that order (a set's order varies between runs)
            if uid is None:
                continue
            key = self._keys_by_uid.get(str(uid))
            if key is None:
                continue
            self.queue.add(key)
            became_ready = old is not None and new is not None and new.status.ready and not old.status.ready
            ss = self.ctx.cluster.get(StatefulSet, key)
            if became_ready and ss is not None and ss.spec.min_ready_seconds > 0:
                # A second more "to avoid milliseconds skew", as upstream's updatePod adds.
                self.queue.add_after(key, ss.spec.min_ready_seconds + 1.0)

    # ------------------------------------------------------------------ syncing

    def sync(self) -> bool:
        busy = self._garbage_collect()
        keys = self.queue.take()
        for key in keys:
            self._sync(key)
        return busy or bool(keys)

    def _garbage_collect(self) -> bool:
        pods, claims = self._collect_pods, self._collect_claims
        self._collect_pods, self._collect_claims = [], []
        for key in pods:
            pod = self.ctx.cluster.get(Pod, key)
            if pod is not None:
                delete_pod(self.ctx, pod)
        for key in claims:
            if self.ctx.cluster.get(PersistentVolumeClaim, key) is not None:
                self.ctx.cluster.delete(PersistentVolumeClaim, key)
        return bool(pods or claims)

    def _sync(self, key: str) -> None:
        ss: StatefulSet | None = self.ctx.cluster.get(StatefulSet, key)
        if ss is None:
            return
        if ss.metadata.deletion_timestamp is not None:
            return
        pods = self._owned_pods(ss)
        current, update, collisions = self._revisions_of(ss)
        failed = _SyncState(self, ss, current, update).run(pods)
        pods = self._owned_pods(ss)  # after this round's creations and deletions
        self._update_status(ss, current, update, pods, collisions)
        self._truncate_history(ss, current, update, pods)
        if failed:
            self.requeue.rate_limited(key)
        else:
            self.requeue.forget(key)
            latest: StatefulSet | None = self.ctx.cluster.get(StatefulSet, key)
            waiting = latest is not None and latest.status.available_replicas != latest.spec.replicas
            if latest is not None and latest.spec.min_ready_seconds > 0 and waiting:
                self.queue.add_after(key, float(latest.spec.min_ready_seconds))

    def _owned_pods(self, ss: StatefulSet) -> list[Pod]:
        """The set's pods, by ordinal (a stable sort: the index's order among equal ordinals)."""
        name = ss.metadata.name
        get = self.ctx.cluster.get
        members: list[tuple[int, Pod]] = []
        for key in self.pods.keys(ss.metadata.uid):
            pod = get(Pod, key)
            if pod is not None:
                parent, ordinal = parent_and_ordinal(pod.metadata.name)
                if parent == name:
                    members.append((ordinal, pod))
        members.sort(key=_first)
        return [pod for _, pod in members]

    # ------------------------------------------------------------------ revisions

    def _revisions_of(self, ss: StatefulSet) -> tuple[Revision, Revision, int]:
        """getStatefulSetRevisions: the update revision is the set's template (an equal earlier
        revision is reused and renumbered, as a rollback does); the current one is status.currentRevision's.
        Also the collision count, status.collisionCount's, bumped while a new revision's name is taken."""
        history = self._revisions.setdefault(ss.metadata.uid, [])
        collisions = ss.status.collision_count or 0
        next_number = history[-1].number + 1 if history else 1
        template = ss.spec.template
        equal = [revision for revision in history if revision.template == template]
        if equal and history[-1] is equal[-1]:
            update = history[-1]
        elif equal:
            update = replace(equal[-1], number=next_number)
            history.remove(equal[-1])
            history.append(update)
        else:
            # CreateControllerRevision: a name taken by another template's revision is a hash collision.
            name = f"{ss.metadata.name}-{template_hash(template, collisions)}"
            while any(revision.name == name for revision in history):
                collisions += 1
                name = f"{ss.metadata.name}-{template_hash(template, collisions)}"
            update = Revision(name, next_number, template)
            history.append(update)
        current = next((r for r in history if r.name == ss.status.current_revision), update)
        return current, update, collisions

    def _truncate_history(self, ss: StatefulSet, current: Revision, update: Revision, pods: list[Pod]) -> None:
        history = self._revisions.get(ss.metadata.uid, [])
        live = {current.name, update.name} | {revision_label(pod) for pod in pods}
        old = [revision for revision in history if revision.name not in live]
        surplus = len(old) - ss.spec.revision_history_limit
        for revision in old[: max(surplus, 0)]:
            history.remove(revision)

    def revisions(self, ss: StatefulSet) -> list[Revision]:
        """The set's revision history, oldest first (what `kubectl rollout history` lists)."""
        return list(self._revisions.get(ss.metadata.uid, []))

    # ------------------------------------------------------------------ status

    def _update_status(
        self, ss: StatefulSet, current: Revision, update: Revision, owned: list[Pod], collisions: int
    ) -> None:
        """updateStatefulSet's status: the counts, the revisions, the generation it was computed for
        and the collision count (always set, 0 included)."""
        pods = [pod for pod in owned if ordinal_of(pod) >= 0]
        replicas = ready = available = current_count = updated = 0
        for pod in pods:
            replicas += 1
            if self.running_and_ready(pod):
                ready += 1
                if self.available(pod, ss.spec.min_ready_seconds):
                    available += 1
            if pod.metadata.deletion_timestamp is None:
                revision = revision_label(pod)
                if revision == current.name:
                    current_count += 1
                if revision == update.name:
                    updated += 1
        status = StatefulSetStatus(
            observed_generation=ss.generation,
            replicas=replicas,
            ready_replicas=ready,
            current_replicas=current_count,
            updated_replicas=updated,
            available_replicas=available,
            current_revision=current.name,
            update_revision=update.name,
            collision_count=collisions,
        )
        if (
            ss.spec.update_strategy_type == "RollingUpdate"
            and updated == ss.spec.replicas
            and ready == ss.spec.replicas
            and replicas == ss.spec.replicas
        ):  # completeRollingUpdate
            status = replace(status, current_replicas=updated, current_revision=update.name)
        latest: StatefulSet | None = self.ctx.cluster.get(StatefulSet, ss.metadata.key)
        if latest is not None and latest.status != status:
            self.ctx.cluster.update(replace(latest, status=status))

    # ------------------------------------------------------------------ pod states

    @staticmethod
    def running_and_ready(pod: Pod) -> bool:
        return pod.status.phase == "Running" and pod.status.ready

    def available(self, pod: Pod, min_ready_seconds: int) -> bool:
        """IsPodAvailable: ready, for longer than minReadySeconds."""
        if not self.running_and_ready(pod):
            return False
        return is_pod_available(pod, min_ready_seconds, self.ctx.now, strict=True)

    def healthy(self, pod: Pod) -> bool:
        return self.running_and_ready(pod) and pod.metadata.deletion_timestamp is None

    # ------------------------------------------------------------------ pod and claim control

    def record_pod_event(self, ss: StatefulSet, verb: str, pod: str, error: str = "") -> None:
        if error:
            message = POD_EVENT_FAILURE.format(verb=verb, pod=pod, set=ss.metadata.name, error=error)
            record(self.ctx, ss, f"Failed{verb.title()}", message, warning=True, source=SOURCE)
        else:
            message = POD_EVENT_SUCCESS.format(verb=verb, pod=pod, set=ss.metadata.name)
            record(self.ctx, ss, f"Successful{verb.title()}", message, source=SOURCE)

    def record_claim_event(self, ss: StatefulSet, verb: str, claim: str, pod: str, error: str = "") -> None:
        if error:
            message = CLAIM_EVENT_FAILURE.format(verb=verb, claim=claim, pod=pod, set=ss.metadata.name, error=error)
            record(self.ctx, ss, f"Failed{verb.title()}", message, warning=True, source=SOURCE)
        else:
            message = CLAIM_EVENT_SUCCESS.format(verb=verb, claim=claim, pod=pod, set=ss.metadata.name)
            record(self.ctx, ss, f"Successful{verb.title()}", message, source=SOURCE)

    def claims_for(self, ss: StatefulSet, ordinal: int) -> list[PersistentVolumeClaim]:
        """getPersistentVolumeClaims: the ordinal's claims, labelled with the set's matchLabels."""
        claims = []
        for template in ss.spec.volume_claim_templates:
            labels = {**template.metadata.labels, **ss.spec.selector.match_labels}
            metadata = ObjectMeta(
                name=claim_name(ss, template, ordinal),
                namespace=ss.metadata.namespace,
                labels=labels,
                annotations=dict(template.metadata.annotations),
            )
            claims.append(PersistentVolumeClaim(metadata=metadata, spec=template.spec))
        return claims

    def create_missing_claims(self, ss: StatefulSet, ordinal: int, pod: str) -> list[str]:
        """createPersistentVolumeClaims: the errors met (one per claim that could not be made)."""
        errors = []
        for claim in self.claims_for(ss, ordinal):
            existing: PersistentVolumeClaim | None = self.ctx.cluster.get(PersistentVolumeClaim, claim.metadata.key)
            if existing is None:
                try:
                    self.ctx.cluster.create(claim)
                except (AdmissionError, ConflictError) as error:
                    errors.append(FAILED_TO_CREATE_CLAIM.format(claim.metadata.name, error))
                    if not isinstance(error, ConflictError):
                        self.record_claim_event(ss, "create", claim.metadata.name, pod, str(error))
                    continue
                self.record_claim_event(ss, "create", claim.metadata.name, pod)
            elif existing.metadata.deletion_timestamp is not None:
                errors.append(CLAIM_BEING_DELETED.format(claim.metadata.name))
        return errors

    def new_pod(self, ss: StatefulSet, template: PodTemplateSpec, ordinal: int, revision: str) -> Pod:
        """newStatefulSetPod at a revision: the template with the pod's identity, its claims as volumes."""
        name = pod_name(ss, ordinal)
        labels = {
            **template.labels,
            POD_NAME_LABEL: name,
            POD_INDEX_LABEL: str(ordinal),
            REVISION_LABEL: revision,
        }
        claim_volumes = tuple(
            Volume(name=t.metadata.name, persistent_volume_claim=claim_name(ss, t, ordinal))
            for t in ss.spec.volume_claim_templates
        )
        claimed = {volume.name for volume in claim_volumes}
        volumes = claim_volumes + tuple(v for v in template.spec.volumes if v.name not in claimed)
        spec: PodSpec = replace(template.spec, volumes=volumes)
        metadata = ObjectMeta(
            name=name,
            namespace=ss.metadata.namespace,
            labels=labels,
            annotations=dict(template.annotations),
            owner_references=(controller_ref(KIND, API_VERSION, ss),),
        )
        return Pod(metadata=metadata, spec=spec)

    def create_pod(self, ss: StatefulSet, pod: Pod) -> Pod | None:
        """CreateStatefulPod: claims first, then the pod, then the claims' retention owners."""
        ordinal = ordinal_of(pod)
        errors = self.create_missing_claims(ss, ordinal, pod.name)
        if errors:
            self.record_pod_event(ss, "create", pod.name, _aggregate(errors))
            return None
        try:
            created: Pod = self.ctx.cluster.create(pod)
        except ConflictError:
            return None  # already exists: sunk without an event
        except AdmissionError as error:
            self.record_pod_event(ss, "create", pod.name, str(error))
            return None
        self.update_claims_for_retention(ss, created)
        self.record_pod_event(ss, "create", pod.name)
        return created

    def delete_pod(self, ss: StatefulSet, pod: Pod) -> None:
        """DeleteStatefulPod. The event comes first: the kubelet's Killing follows the DELETE upstream."""
        if self.ctx.cluster.get(Pod, pod.key) is None:
            return
        self.record_pod_event(ss, "delete", pod.name)
        delete_pod(self.ctx, pod)

    # ------------------------------------------------------------------ retention policy

    def _set_ref(self, ss: StatefulSet) -> OwnerReference:
        return controller_ref(KIND, API_VERSION, ss)

    @staticmethod
    def _pod_ref(pod: Pod) -> OwnerReference:
        return controller_ref("Pod", "v1", pod)

    @staticmethod
    def _matches_ref(ref: OwnerReference, kind: str, api_version: str, name: str) -> bool:
        return ref.kind == kind and ref.api_version == api_version and ref.name == name

    def _stale_ref(self, claim: PersistentVolumeClaim, kind: str, api_version: str, name: str, uid: str) -> bool:
        for ref in claim.metadata.owner_references:
            if self._matches_ref(ref, kind, api_version, name):
                return ref.uid != uid
        return False

    def _unexpected_controller(self, claim: PersistentVolumeClaim, ss: StatefulSet, pod: Pod) -> bool:
        if ss.spec.when_scaled == RETAIN and ss.spec.when_deleted == RETAIN:
            return False
        for ref in claim.metadata.owner_references:
            if self._matches_ref(ref, KIND, API_VERSION, ss.metadata.name):
                if ref.uid != ss.metadata.uid:
                    return True
                continue
            if self._matches_ref(ref, "Pod", "v1", pod.name):
                if ref.uid != pod.metadata.uid:
                    return True
                continue
            if ref.controller:
                return True
        return False

    @staticmethod
    def _has_ref(claim: PersistentVolumeClaim, uid: str) -> bool:
        return any(ref.uid == uid for ref in claim.metadata.owner_references)

    @staticmethod
    def in_range(ss: StatefulSet, ordinal: int) -> bool:
        return ss.spec.ordinals_start <= ordinal < ss.spec.ordinals_start + ss.spec.replicas

    def claim_owner_up_to_date(self, claim: PersistentVolumeClaim, ss: StatefulSet, pod: Pod) -> bool:
        """isClaimOwnerUpToDate."""
        if self._stale_ref(claim, KIND, API_VERSION, ss.metadata.name, ss.metadata.uid) or self._stale_ref(
            claim, "Pod", "v1", pod.name, pod.metadata.uid
        ):
            return True  # left by a previous owner: not touched
        set_ref, pod_ref = self._has_ref(claim, ss.metadata.uid), self._has_ref(claim, pod.metadata.uid)
        if self._unexpected_controller(claim, ss, pod):
            return not (set_ref or pod_ref)
        for ref in claim.metadata.owner_references:
            if ref.uid in (ss.metadata.uid, pod.metadata.uid) and not ref.controller:
                return False
        scaled_down = not self.in_range(ss, ordinal_of(pod))
        scaled, deleted = ss.spec.when_scaled, ss.spec.when_deleted
        if scaled == DELETE and deleted == DELETE:
            return scaled_down != set_ref and scaled_down == pod_ref
        if scaled == DELETE:
            return not set_ref and scaled_down == pod_ref
        if deleted == DELETE:
            return set_ref and not pod_ref
        return not set_ref and not pod_ref

    def _owners_for(self, claim: PersistentVolumeClaim, ss: StatefulSet, pod: Pod) -> tuple[OwnerReference, ...]:
        """updateClaimOwnerRefForSetAndPod."""
        unexpected = self._unexpected_controller(claim, ss, pod)
        refs = [
            ref
            for ref in claim.metadata.owner_references
            if not self._matches_ref(ref, KIND, API_VERSION, ss.metadata.name)
            and not self._matches_ref(ref, "Pod", "v1", pod.name)
        ]
        if unexpected:
            return tuple(refs)
        scaled_down = not self.in_range(ss, ordinal_of(pod))
        if ss.spec.when_scaled == DELETE and scaled_down:
            refs.append(self._pod_ref(pod))
        if ss.spec.when_deleted == DELETE and not (ss.spec.when_scaled == DELETE and scaled_down):
            refs.append(self._set_ref(ss))
        return tuple(refs)

    def claims_match_retention(self, ss: StatefulSet, pod: Pod) -> bool:
        if not ss.spec.volume_claim_templates:
            return True
        ordinal = ordinal_of(pod)
        for template in ss.spec.volume_claim_templates:
            claim = self.ctx.cluster.get(
                PersistentVolumeClaim, f"{ss.metadata.namespace}/{claim_name(ss, template, ordinal)}"
            )
            if claim is not None and not self.claim_owner_up_to_date(claim, ss, pod):
                return False
        return True

    def update_claims_for_retention(self, ss: StatefulSet, pod: Pod) -> None:
        """UpdatePodClaimForRetentionPolicy."""
        ordinal = ordinal_of(pod)
        for template in ss.spec.volume_claim_templates:
            name = claim_name(ss, template, ordinal)
            claim = self.ctx.cluster.get(PersistentVolumeClaim, f"{ss.metadata.namespace}/{name}")
            if claim is None:
                continue
            if self._unexpected_controller(claim, ss, pod):
                record(
                    self.ctx,
                    ss,
                    CONFLICTING_CONTROLLER,
                    CONFLICTING_CONTROLLER_MESSAGE.format(name),
                    warning=True,
                    source=SOURCE,
                )
            if not self.claim_owner_up_to_date(claim, ss, pod):
                owners = self._owners_for(claim, ss, pod)
                if owners != claim.metadata.owner_references:
                    metadata = replace(claim.metadata, owner_references=owners)
                    self.ctx.cluster.update(replace(claim, metadata=metadata))

    def claim_is_stale(self, ss: StatefulSet, ordinal: int) -> bool:
        """PodClaimIsStale: with whenScaled Delete, a claim still controlled by an earlier pod of the
        ordinal blocks the new pod until the garbage collector removes it."""
        if ss.spec.when_scaled == RETAIN:
            return False
        name = pod_name(ss, ordinal)
        for claim in self.claims_for(ss, ordinal):
            existing: PersistentVolumeClaim | None = self.ctx.cluster.get(PersistentVolumeClaim, claim.metadata.key)
            if existing is not None and self._stale_ref(existing, "Pod", "v1", name, ""):
                return True
        return False


class _SyncState:
    """One run of updateStatefulSet for one set."""

    def __init__(self, controller: StatefulSetController, ss: StatefulSet, current: Revision, update: Revision) -> None:
        self.c = controller
        self.ss = ss
        self.current = current
        self.update = update
        self.monotonic = ss.spec.pod_management_policy != "Parallel"
        self.failed = False

    def _template_for(self, ordinal: int) -> tuple[PodTemplateSpec, str]:
        """newVersionedStatefulSetPod: ordinals below the partition stay at the current revision."""
        ss = self.ss
        if ss.spec.update_strategy_type == "RollingUpdate" and ordinal < ss.spec.ordinals_start + ss.spec.partition:
            return self.current.template, self.current.name
        return self.update.template, self.update.name

    def run(self, pods: Iterable[Pod]) -> bool:
        """Returns whether something failed (the set is retried with backoff)."""
        ss, c = self.ss, self.c
        start, count = ss.spec.ordinals_start, ss.spec.replicas
        # By index, not a list of `count` slots: spec.replicas may be 2^62 (the run stops at its event
        # limit long before that many pods exist, but such a list would never fit in memory).
        replicas: dict[int, Pod] = {}
        condemned: list[Pod] = []
        for pod in pods:
            ordinal = ordinal_of(pod)
            if start <= ordinal < start + count:
                replicas[ordinal - start] = pod
            elif ordinal >= 0:
                condemned.append(pod)
        condemned.sort(key=ordinal_of, reverse=True)

        first_unhealthy: Any = None  # a pod, or the ordinal of a pod still to create
        for index in range(count):
            replica = replicas.get(index)
            if replica is None or not c.healthy(replica):
                first_unhealthy = replica if replica is not None else start + index
                break
        if first_unhealthy is None:
            first_unhealthy = next((pod for pod in reversed(condemned) if not c.healthy(pod)), None)

        if self.monotonic:
            for index in range(count):
                if self._process_replica(replicas, index):
                    return self.failed
        else:
            self._burst(count, lambda index: self._process_replica(replicas, index))
            if self.failed:
                return True

        for pod in condemned:  # retention owners for condemned pods
            if not c.claims_match_retention(ss, pod):
                c.update_claims_for_retention(ss, pod)

        for pod in condemned:
            if self._process_condemned(pod, first_unhealthy) and self.monotonic:
                return self.failed

        if ss.spec.update_strategy_type == "OnDelete":
            return self.failed
        update_min = ss.spec.partition
        for target in range(count - 1, update_min - 1, -1):
            replica = replicas.get(target)
            if replica is None:
                return self.failed
            if revision_label(replica) != self.update.name and replica.metadata.deletion_timestamp is None:
                c.delete_pod(ss, replica)
                return self.failed
            if not c.healthy(replica):
                return self.failed
        return self.failed

    def _burst(self, count: int, process: Callable[[int], bool]) -> None:
        """slowStartBatch(1, ...): batches of 1, 2, 4...; a batch with a failure ends the round."""
        position, batch = 0, min(count, 1)
        while position < count and batch > 0:
            for index in range(position, position + batch):
                process(index)
            position += batch
            if self.failed:
                return
            batch = min(2 * batch, count - position)

    def _process_replica(self, replicas: dict[int, Pod], index: int) -> bool:
        """processReplica: whether this round must stop here (in monotonic mode)."""
        ss, c = self.ss, self.c
        ordinal = ss.spec.ordinals_start + index
        pod = replicas.get(index)
        if pod is not None and pod.status.phase in TERMINAL_PHASES:
            if pod.metadata.deletion_timestamp is None:
                c.delete_pod(ss, pod)
            return True  # the replacement is made once this one is gone
        if pod is None:
            if c.claim_is_stale(ss, ordinal):
                return True
            template, revision = self._template_for(ordinal)
            created = c.create_pod(ss, c.new_pod(ss, template, ordinal, revision))
            if created is None:
                self.failed = True
                return True
            replicas[index] = created
            if self.monotonic:
                return True
            pod = created
        if pod.status.phase == "Pending":
            errors = c.create_missing_claims(ss, ordinal, pod.name)
            if errors:
                self.failed = True
                return True
            c.update_claims_for_retention(ss, pod)
        if self.monotonic:
            if pod.metadata.deletion_timestamp is not None:
                return True
            if not c.running_and_ready(pod) or not c.available(pod, ss.spec.min_ready_seconds):
                return True
        if not c.claims_match_retention(ss, pod):  # UpdateStatefulPod
            c.update_claims_for_retention(ss, pod)
            c.record_pod_event(ss, "update", pod.name)
        return False

    def _process_condemned(self, pod: Pod, first_unhealthy: Any) -> bool:
        ss, c = self.ss, self.c
        if pod.metadata.deletion_timestamp is not None:
            return self.monotonic
        unhealthy = not c.running_and_ready(pod) or not c.available(pod, ss.spec.min_ready_seconds)
        if self.monotonic and pod is not first_unhealthy and unhealthy:
            return True
        c.delete_pod(ss, pod)
        return True
