"""DynamicResources (DRA, GA and on by default in v1.34): for pods without resource claims it only
takes part in PostFilter, where it runs before preemption and reports that it has no claims to
deallocate. That is why v1.34's FailedScheduling messages read "... no new claims to deallocate,
preemption: ...". Pods that use resource claims are refused with an explicit status: devices are
not simulated.

Its events and QueueingHints are upstream's (dynamicresources.go, v1.34). The engine has no
ResourceClaim objects: a handle may offer `resource_claims(namespace, name)`, answering a claim as
a plain manifest (tests do); without it no claim exists. A pod's `spec.resource_claims` entries are
taken to name their claims directly (resourceClaimName): the engine keeps no template-generated
claim names (status.resourceClaimStatuses), so upstream's owner check has nothing to check.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.cluster_events import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    EventResource,
    QueueingHint,
)
from scheduler_core.scheduler.framework import (
    SKIP,
    Code,
    CycleState,
    PreFilterResult,
    Status,
    error,
    unresolvable,
)
from scheduler_core.scheduler.plugins.hint_helpers import is_plain_object, plain_field
from scheduler_core.scheduler.snapshot import NodeInfo

NAME = "DynamicResources"
STATE_KEY = NAME
NO_NEW_CLAIMS_TO_DEALLOCATE = "no new claims to deallocate"
CLAIMS_NOT_SIMULATED = "resource claims (DRA) are not simulated by this playground"
NOT_FOUND = "not found"  # framework.ErrNotFound, when PreFilter never ran for this pod

# (namespace, name) -> the ResourceClaim as a plain manifest, None when there is none.
ResourceClaimLookup = Callable[[str, str], Mapping[str, Any] | None]


def _no_claims(namespace: str, name: str) -> Mapping[str, Any] | None:
    return None


class DynamicResources:
    name = NAME

    def __init__(self, args: Mapping[str, Any], handle: Any = None) -> None:
        lookup: ResourceClaimLookup | None = getattr(handle, "resource_claims", None)
        self.resource_claims: ResourceClaimLookup = lookup or _no_claims

    def pre_filter(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[PreFilterResult | None, Status]:
        state.write(STATE_KEY, ())  # the pod's claims: none
        if pod.spec.resource_claims:
            return None, unresolvable(CLAIMS_NOT_SIMULATED)
        return None, SKIP

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        return Status()

    def post_filter(self, state: CycleState, pod: Pod, statuses: dict[str, Status]) -> tuple[str | None, Status]:
        claims = state.get(STATE_KEY)
        if claims is None:
            return None, error(NOT_FOUND)
        return None, Status(Code.Unschedulable, (NO_NEW_CLAIMS_TO_DEALLOCATE,))

    # ------------------------------------------------------------------ claims

    def pod_claims(self, pod: Pod) -> list[Mapping[str, Any]] | None:
        """foreachPodResourceClaim: the pod's claims, or None when one is missing or being deleted
        (the pod cannot be scheduled yet)."""
        claims = []
        for claim_name in pod.spec.resource_claims:
            claim = self.resource_claims(pod.namespace, claim_name)
            if claim is None or plain_field(claim, "metadata", "deletionTimestamp") is not None:
                return None
            claims.append(claim)
        return claims

    # ------------------------------------------------------------------ events (QueueingHints on)

    def events_to_register(self) -> list[ClusterEventWithHint]:
        """Node Add, label and allocatable updates (no UpdateNodeTaint: that served the preCheck
        QueueingHints retired; allocatable for extended resources backed by DRA)."""
        add_or_update = ActionType.ADD | ActionType.UPDATE
        node_actions = ActionType.ADD | ActionType.UPDATE_NODE_LABEL | ActionType.UPDATE_NODE_ALLOCATABLE
        return [
            ClusterEventWithHint(ClusterEvent(EventResource.NODE, node_actions)),
            # Allocation is tracked in the claims.
            ClusterEventWithHint(
                ClusterEvent(EventResource.RESOURCE_CLAIM, add_or_update), self.is_schedulable_after_claim_change
            ),
            # The pod's status got the name of a claim generated for it.
            ClusterEventWithHint(
                ClusterEvent(EventResource.POD, ActionType.UPDATE_POD_GENERATED_RESOURCE_CLAIM),
                self.is_schedulable_after_pod_change,
            ),
            ClusterEventWithHint(ClusterEvent(EventResource.DEVICE_CLASS, add_or_update)),
            # New or updated slices bring devices.
            ClusterEventWithHint(ClusterEvent(EventResource.RESOURCE_SLICE, add_or_update)),
        ]

    def is_schedulable_after_claim_change(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        """A claim of the pod was created or its status changed; or any claim got deallocated,
        which frees devices for every pod."""
        if not (new is None or is_plain_object(new)) or not (old is None or is_plain_object(old)):
            return QueueingHint.QUEUE
        claims = self.pod_claims(pod)
        if claims is None:
            return QueueingHint.QUEUE_SKIP
        if old is not None and new is not None and _allocated(old) and not _allocated(new):
            return QueueingHint.QUEUE
        if new is None or not _uses(claims, new):
            return QueueingHint.QUEUE_SKIP
        if old is None:
            return QueueingHint.QUEUE
        # Only a status change matters (a driver adding its finalizer does not).
        return QueueingHint.QUEUE_SKIP if _status(old) == _status(new) else QueueingHint.QUEUE

    def is_schedulable_after_pod_change(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        """The pod itself now has every claim it waits for."""
        if not isinstance(new, Pod):
            return QueueingHint.QUEUE
        if new.metadata.uid != pod.metadata.uid:
            return QueueingHint.QUEUE_SKIP
        return QueueingHint.QUEUE if self.pod_claims(new) is not None else QueueingHint.QUEUE_SKIP


def _allocated(claim: Mapping[str, Any]) -> bool:
    return plain_field(claim, "status", "allocation") is not None


def _uses(claims: list[Mapping[str, Any]], claim: Mapping[str, Any]) -> bool:
    """The claim is one of the pod's (by UID: a claim deleted and recreated under the name is another)."""
    uid = plain_field(claim, "metadata", "uid")
    return any(plain_field(own, "metadata", "uid") == uid for own in claims)


def _status(claim: Mapping[str, Any]) -> Any:
    return plain_field(claim, "status") or {}
