"""VolumeBinding: a pod's PersistentVolumeClaims must be bound, or bindable on the node
(pkg/scheduler/framework/plugins/volumebinding: volume_binding.go and binder.go, v1.34).

PreFilter sorts the pod's claims into bound ones, unbound WaitForFirstConsumer ones and unbound
Immediate ones (which the PV controller should already have bound: the pod waits for that). Filter
checks, per node, that every bound claim's PV accepts the node (its nodeAffinity), and that every
delay-binding claim either finds an Available PV usable from the node or can be dynamically
provisioned. Reserve picks the bindings for the chosen node; PreBind writes them (a PV's claimRef, a
claim's selected-node annotation) and waits until the PV controller has bound every claim, as
checkBindings does, polling once a second (the scheduler controller asks again).

Since v1.32 PreFilter no longer narrows the nodes for bound local PVs (kubernetes#125398): every node
is filtered. Score exists upstream but only with the StorageCapacityScoring feature gate, alpha and
off in v1.34, so the plugin does not score. CSI storage capacity and a class's allowedTopologies are
not modelled: provisioning is possible on every node.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scheduler_core.api.types import Pod
from scheduler_core.api.volumes import (
    ANN_BOUND_BY_CONTROLLER,
    ANN_SELECTED_NODE,
    CLAIM_LOST,
    NOT_SUPPORTED_PROVISIONER,
    check_node_affinity,
    claim_class,
    claim_key,
    find_matching_volume,
    is_delay_binding_mode,
    is_fully_bound,
    is_volume_bound_to_claim,
    volume_class,
)
from scheduler_core.api.workloads import PersistentVolume, PersistentVolumeClaim
from scheduler_core.scheduler.cluster_events import ClusterEventWithHint
from scheduler_core.scheduler.framework import (
    SKIP,
    SUCCESS,
    Code,
    CycleState,
    PreFilterResult,
    Status,
    error,
    unresolvable,
)
from scheduler_core.scheduler.plugins.volume_binding_events import volume_binding_events
from scheduler_core.scheduler.snapshot import NodeInfo
from scheduler_core.scheduler.volume_lister import CLAIM_NOT_FOUND, PV_NOT_FOUND, StaticVolumeLister, VolumeLister

NAME = "VolumeBinding"
STATE_KEY = NAME
DEFAULT_BIND_TIMEOUT_SECONDS = 600

# Reasons (binder.go ConflictReason).
ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind"
ERR_REASON_NODE_CONFLICT = "node(s) had volume node affinity conflict"
ERR_REASON_NOT_ENOUGH_SPACE = "node(s) did not have enough free storage"
ERR_REASON_PV_NOT_EXIST = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"
UNBOUND_IMMEDIATE = "pod has unbound immediate PersistentVolumeClaims"
CLAIM_LOST_MESSAGE = 'persistentvolumeclaim "{}" bound to non-existent persistentvolume "{}"'
CLAIM_BEING_DELETED = 'persistentvolumeclaim "{}" is being deleted'
NO_CLASS_FOR_CLAIM = 'no class for claim "{}"'
CLASS_NOT_FOUND = 'failed to find storage class "{}"'
NO_POD_VOLUMES = 'no pod volumes found for node "{}"'
BINDING_VOLUMES = "binding volumes: {}"
TIMED_OUT = "context deadline exceeded"
NODE_NOT_FOUND = 'failed to get node "{0}": node "{0}" not found'
CHECK_BINDING_FAILED = "failed to check binding: {}"
CHECK_PROVISIONING_FAILED = "failed to check provisioning pvc: {}"
PV_AFFINITY_MISMATCH = 'pv "{}" node affinity doesn\'t match node "{}": no matching NodeSelectorTerms'
CLAIM_REF_RESET = 'ClaimRef got reset for pv "{}"'
SELECTED_NODE_RESET = 'selectedNode annotation reset for PVC "{}"'
PROVISIONING_FAILED = 'provisioning failed for PVC "{}"'
POD_GONE = 'pod does not exist any more: pod "{}" not found'


@dataclass(slots=True)
class PodVolumeClaims:
    bound: list[PersistentVolumeClaim] = field(default_factory=list)
    unbound_delay_binding: list[PersistentVolumeClaim] = field(default_factory=list)
    unbound_immediate: list[PersistentVolumeClaim] = field(default_factory=list)
    # class name -> every PV of that class, for the delay-binding claims
    unbound_volumes_delay_binding: dict[str, list[PersistentVolume]] = field(default_factory=dict)


@dataclass(slots=True)
class PodVolumes:
    """The decisions for one node: PVs to bind claims to, and claims to provision."""

    static_bindings: list[tuple[PersistentVolume, PersistentVolumeClaim]] = field(default_factory=list)
    dynamic_provisions: list[PersistentVolumeClaim] = field(default_factory=list)


@dataclass(slots=True)
class StateData:
    claims: PodVolumeClaims | None = None
    pod_volumes_by_node: dict[str, PodVolumes] = field(default_factory=dict)
    all_bound: bool = False
    api_updated: bool = False  # PreBind made its writes; later calls check the bindings

    def clone(self) -> "StateData":
        return self  # shared, as upstream's stateData.Clone returns itself


class VolumeBinding:
    name = NAME

    def __init__(self, args: Mapping[str, Any], handle: Any = None) -> None:
        self.handle = handle
        timeout = args.get("bindTimeoutSeconds") if args else None
        self.bind_timeout_seconds = float(timeout) if timeout is not None else float(DEFAULT_BIND_TIMEOUT_SECONDS)

    @property
    def lister(self) -> VolumeLister:
        volumes: VolumeLister | None = getattr(self.handle, "volumes", None)
        return volumes if volumes is not None else StaticVolumeLister()

    def events_to_register(self) -> list[ClusterEventWithHint]:
        """The events that may make a pod this plugin rejected schedulable (volume_binding_events.py)."""
        return volume_binding_events()

    # ------------------------------------------------------------------ PreFilter

    def _pod_has_claims(self, pod: Pod) -> tuple[bool, str]:
        """podHasPVCs: (whether the pod uses claims, the first problem with one of them)."""
        has_claims = False
        lister = self.lister
        for volume in pod.spec.volumes:
            if not volume.persistent_volume_claim:
                continue
            has_claims = True
            claim = lister.claim(pod.namespace, volume.persistent_volume_claim)
            if claim is None:
                return True, CLAIM_NOT_FOUND.format(volume.persistent_volume_claim)
            if claim.status.phase == CLAIM_LOST:
                return True, CLAIM_LOST_MESSAGE.format(claim.metadata.name, claim.spec.volume_name)
            if claim.metadata.deletion_timestamp is not None:
                return True, CLAIM_BEING_DELETED.format(claim.metadata.name)
        return has_claims, ""

    def pod_volume_claims(self, pod: Pod) -> PodVolumeClaims:
        """GetPodVolumeClaims: the pod's claims by state; pre-bound unbound claims count as immediate."""
        lister = self.lister
        claims = PodVolumeClaims()
        for volume in pod.spec.volumes:
            if not volume.persistent_volume_claim:
                continue
            claim = lister.claim(pod.namespace, volume.persistent_volume_claim)
            if claim is None:
                continue  # PreFilter has already refused the pod
            if is_fully_bound(claim):
                claims.bound.append(claim)
            elif is_delay_binding_mode(claim, lister.storage_class) and not claim.spec.volume_name:
                claims.unbound_delay_binding.append(claim)
            else:
                claims.unbound_immediate.append(claim)
        all_volumes = lister.volumes()
        for claim in claims.unbound_delay_binding:
            class_name = claim_class(claim)
            claims.unbound_volumes_delay_binding[class_name] = [
                volume for volume in all_volumes if volume_class(volume) == class_name
            ]
        return claims

    def pre_filter(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[PreFilterResult | None, Status]:
        has_claims, problem = self._pod_has_claims(pod)
        if problem:
            return None, unresolvable(problem)
        if not has_claims:
            state.write(STATE_KEY, StateData())
            return None, SKIP
        claims = self.pod_volume_claims(pod)
        if claims.unbound_immediate:
            return None, unresolvable(UNBOUND_IMMEDIATE)
        state.write(STATE_KEY, StateData(claims=claims))
        return None, SUCCESS

    # ------------------------------------------------------------------ Filter

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        data = state.get(STATE_KEY)
        if not isinstance(data, StateData) or data.claims is None:
            return error(f"{STATE_KEY!r} not found in CycleState")
        pod_volumes, reasons, problem = self.find_pod_volumes(data.claims, node)
        if problem:
            return error(problem)
        if reasons:
            return unresolvable(*reasons)
        data.pod_volumes_by_node[node.name] = pod_volumes
        return SUCCESS

    def find_pod_volumes(self, claims: PodVolumeClaims, node: NodeInfo) -> tuple[PodVolumes, list[str], str]:
        """FindPodVolumes: (the node's bindings, the reasons it does not fit, an error)."""
        labels = node.node.labels
        bound_satisfied = unbound_satisfied = bound_volumes_found = True
        sufficient_storage = True
        pod_volumes = PodVolumes()
        lister = self.lister

        for claim in claims.bound:  # checkBoundClaims: stops at the first problem
            volume = lister.volume(claim.spec.volume_name)
            if volume is None:
                bound_volumes_found = False
                break
            if not check_node_affinity(volume, labels):
                bound_satisfied = False
                break

        if claims.unbound_delay_binding:
            to_match: list[PersistentVolumeClaim] = []
            to_provision: list[PersistentVolumeClaim] = []
            fast_path_miss = False
            for claim in claims.unbound_delay_binding:
                selected = claim.metadata.annotations.get(ANN_SELECTED_NODE)
                if selected is not None:
                    if selected != node.name:
                        fast_path_miss = True  # already being provisioned for another node
                        break
                    to_provision.append(claim)
                else:
                    to_match.append(claim)
            if fast_path_miss:
                unbound_satisfied = False
            else:
                if to_match:
                    unbound_satisfied, pod_volumes.static_bindings, unmatched = self._find_matching_volumes(
                        to_match, claims.unbound_volumes_delay_binding, labels
                    )
                    to_provision.extend(unmatched)
                if to_provision:
                    provision_ok, sufficient_storage, provisions, problem = self._check_volume_provisions(to_provision)
                    if problem:
                        return pod_volumes, [], problem
                    unbound_satisfied = provision_ok
                    pod_volumes.dynamic_provisions = provisions

        reasons = []
        if not bound_satisfied:
            reasons.append(ERR_REASON_NODE_CONFLICT)
        if not unbound_satisfied:
            reasons.append(ERR_REASON_BIND_CONFLICT)
        if not sufficient_storage:
            reasons.append(ERR_REASON_NOT_ENOUGH_SPACE)
        if not bound_volumes_found:
            reasons.append(ERR_REASON_PV_NOT_EXIST)
        return pod_volumes, reasons, ""

    def _find_matching_volumes(
        self,
        claims: list[PersistentVolumeClaim],
        volumes_by_class: Mapping[str, list[PersistentVolume]],
        labels: Mapping[str, str],
    ) -> tuple[bool, list[tuple[PersistentVolume, PersistentVolumeClaim]], list[PersistentVolumeClaim]]:
        """findMatchingVolumes: smallest requests first; a PV chosen for one claim is not offered again."""
        chosen: list[str] = []
        bindings: list[tuple[PersistentVolume, PersistentVolumeClaim]] = []
        unmatched: list[PersistentVolumeClaim] = []
        for claim in sorted(claims, key=lambda c: c.spec.storage):
            candidates = volumes_by_class.get(claim_class(claim), [])
            volume = find_matching_volume(claim, candidates, labels, chosen, delay_binding=True)
            if volume is None:
                unmatched.append(claim)
                continue
            chosen.append(volume.metadata.name)
            bindings.append((volume, claim))
        return not unmatched, bindings, unmatched

    def _check_volume_provisions(
        self, claims: list[PersistentVolumeClaim]
    ) -> tuple[bool, bool, list[PersistentVolumeClaim], str]:
        """checkVolumeProvisions: (provisioning possible, storage sufficient, the claims, an error)."""
        lister = self.lister
        for claim in claims:
            class_name = claim_class(claim)
            if not class_name:
                return False, False, [], NO_CLASS_FOR_CLAIM.format(claim_key(claim))
            storage_class = lister.storage_class(class_name)
            if storage_class is None:
                return False, False, [], CLASS_NOT_FOUND.format(class_name)
            if not storage_class.provisioner or storage_class.provisioner == NOT_SUPPORTED_PROVISIONER:
                return False, True, [], ""
        return True, True, list(claims), ""

    # ------------------------------------------------------------------ Reserve / PreBind

    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        """AssumePodVolumes: the PV claimRefs and selected-node annotations PreBind will write."""
        data = state.get(STATE_KEY)
        if not isinstance(data, StateData):
            return error(f"{STATE_KEY!r} not found in CycleState")
        pod_volumes = data.pod_volumes_by_node.get(node_name)
        if pod_volumes is None:
            data.all_bound = True  # the pod uses no claims
            return SUCCESS
        if self._all_bound(pod):
            data.all_bound = True
            return SUCCESS
        data.all_bound = False
        bindings = []
        for volume, claim in pod_volumes.static_bindings:
            bindings.append((_bind_volume_to_claim(volume, claim), claim))
        provisions = []
        for claim in pod_volumes.dynamic_provisions:
            annotations = {**claim.metadata.annotations, ANN_SELECTED_NODE: node_name}
            provisions.append(replace(claim, metadata=replace(claim.metadata, annotations=annotations)))
        data.pod_volumes_by_node[node_name] = PodVolumes(bindings, provisions)
        return SUCCESS

    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        """The assume cache is the store itself here: nothing to revert (upstream never rolls back
        API writes either)."""

    def _all_bound(self, pod: Pod) -> bool:
        lister = self.lister
        for volume in pod.spec.volumes:
            if not volume.persistent_volume_claim:
                continue
            claim = lister.claim(pod.namespace, volume.persistent_volume_claim)
            if claim is None or not is_fully_bound(claim):
                return False
        return True

    def pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        data = state.get(STATE_KEY)
        if not isinstance(data, StateData):
            return error(f"{STATE_KEY!r} not found in CycleState")
        if data.all_bound:
            return SUCCESS
        pod_volumes = data.pod_volumes_by_node.get(node_name)
        if pod_volumes is None:
            return error(NO_POD_VOLUMES.format(node_name))
        if not data.api_updated:
            data.api_updated = True
            problem = self._bind_api_update(pod_volumes)
            if problem:
                return error(problem)
            return Status(Code.Wait)  # polled: the first check comes a second later
        done, problem = self.check_bindings(pod_volumes, node_name)
        if problem:
            return error(BINDING_VOLUMES.format(problem))
        return SUCCESS if done else Status(Code.Wait)

    def pod_deleted(self, pod_name: str) -> Status:
        """What PreBind reports when the pod was deleted while its volumes were being bound."""
        return error(BINDING_VOLUMES.format(POD_GONE.format(pod_name)))

    def timed_out(self) -> Status:
        """What PreBind reports when the bindings are not complete after bindTimeoutSeconds."""
        return error(BINDING_VOLUMES.format(TIMED_OUT))

    def _bind_api_update(self, pod_volumes: PodVolumes) -> str:
        """bindAPIUpdate: write the PVs' claimRefs, then the claims' selected-node annotations.
        Returns the API error that stopped it, if any."""
        lister = self.lister
        written: list[tuple[PersistentVolume, PersistentVolumeClaim]] = []
        for volume, claim in pod_volumes.static_bindings:
            current = lister.volume(volume.metadata.name)
            if current is None:
                return PV_NOT_FOUND.format(volume.metadata.name)
            metadata = replace(current.metadata, annotations=volume.metadata.annotations)
            written.append((lister.update_volume(replace(current, spec=volume.spec, metadata=metadata)), claim))
        pod_volumes.static_bindings = written
        provisioned: list[PersistentVolumeClaim] = []
        for claim in pod_volumes.dynamic_provisions:
            current_claim = lister.claim(claim.metadata.namespace, claim.metadata.name)
            if current_claim is None:
                return CLAIM_NOT_FOUND.format(claim.metadata.name)
            selected = claim.metadata.annotations[ANN_SELECTED_NODE]
            annotations = {**current_claim.metadata.annotations, ANN_SELECTED_NODE: selected}
            metadata = replace(current_claim.metadata, annotations=annotations)
            provisioned.append(lister.update_claim(replace(current_claim, metadata=metadata)))
        pod_volumes.dynamic_provisions = provisioned
        return ""

    def check_bindings(self, pod_volumes: PodVolumes, node_name: str) -> tuple[bool, str]:
        """checkBindings: (all bound, an error that means scheduling must be retried)."""
        node = self.handle.snapshot.get(node_name) if self.handle is not None else None
        if node is None:
            return False, NODE_NOT_FOUND.format(node_name)
        labels = node.node.labels
        lister = self.lister
        for volume, claim in pod_volumes.static_bindings:
            current = lister.volume(volume.metadata.name)
            if current is None:
                return False, CHECK_BINDING_FAILED.format(PV_NOT_FOUND.format(volume.metadata.name))
            current_claim = lister.claim(claim.metadata.namespace, claim.metadata.name)
            if current_claim is None:
                return False, CHECK_BINDING_FAILED.format(CLAIM_NOT_FOUND.format(claim.metadata.name))
            if not check_node_affinity(current, labels):
                return False, PV_AFFINITY_MISMATCH.format(current.metadata.name, node_name)
            if not current.spec.claim_ref:
                return False, CLAIM_REF_RESET.format(current.metadata.name)
            if not is_fully_bound(current_claim):
                return False, ""
        for claim in pod_volumes.dynamic_provisions:
            current_claim = lister.claim(claim.metadata.namespace, claim.metadata.name)
            if current_claim is None:
                return False, CHECK_PROVISIONING_FAILED.format(CLAIM_NOT_FOUND.format(claim.metadata.name))
            if not current_claim.metadata.annotations:
                return False, SELECTED_NODE_RESET.format(claim.metadata.name)
            if current_claim.metadata.annotations.get(ANN_SELECTED_NODE) != node_name:
                return False, PROVISIONING_FAILED.format(claim.metadata.name)
            if current_claim.spec.volume_name:
                provisioned = lister.volume(current_claim.spec.volume_name)
                if provisioned is None:
                    return False, ""  # not seen yet
                if not check_node_affinity(provisioned, labels):
                    return False, PV_AFFINITY_MISMATCH.format(provisioned.metadata.name, node_name)
            if not is_fully_bound(current_claim):
                return False, ""
        return True, ""


def _bind_volume_to_claim(volume: PersistentVolume, claim: PersistentVolumeClaim) -> PersistentVolume:
    """GetBindVolumeToClaim: the PV with its claimRef on the claim, marked bound-by-controller unless
    it was already bound to it."""
    already = is_volume_bound_to_claim(volume, claim)
    spec = (
        volume.spec if volume.spec.claim_ref == claim_key(claim) else replace(volume.spec, claim_ref=claim_key(claim))
    )
    annotations = volume.metadata.annotations
    if not already and ANN_BOUND_BY_CONTROLLER not in annotations:
        annotations = {**annotations, ANN_BOUND_BY_CONTROLLER: "yes"}
    return replace(volume, spec=spec, metadata=replace(volume.metadata, annotations=annotations))
