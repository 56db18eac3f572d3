"""The kubelet's admission of a pod bound to its node (pkg/kubelet/lifecycle/predicate.go and
kubelet.go rejectPod, v1.34).

Before it starts a pod, the kubelet runs the scheduler's node-local checks against the pods it has
already admitted: a pod bound without the scheduler (spec.nodeName in its manifest) that does not
fit is rejected, not run. The first failed check names the rejection: an insufficient resource
gives reason OutOf<resource> (OutOfcpu, OutOfmemory, OutOfpods, ...) and the message "Node didn't
have enough resource: cpu, requested: 2000, used: 0, capacity: 1000"; a failed filter gives its
plugin's name (NodeAffinity, NodeName, NodePorts, TaintToleration for an untolerated NoExecute
taint) and "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector".
The kubelet records a Warning event with that reason and message and sets the pod Failed, with
the reason and "Pod was rejected: " + the message in its status.

Not simulated: the OS field (every simulated node runs linux), SupplementalGroupsPolicy, device
plugins' resources, and the admission handlers other than the predicates (eviction manager under
pressure, topology and CPU managers).
"""

from collections.abc import Iterable
from dataclasses import dataclass

from scheduler_core.api.container_states import REJECTED_PREFIX
from scheduler_core.api.types import NO_EXECUTE, Node, Pod, tolerates_taint
from scheduler_core.api.validation import is_extended_resource_name
from scheduler_core.scheduler.admission_check import AdmissionResult, admission_check
from scheduler_core.scheduler.plugins import taint_toleration
from scheduler_core.scheduler.resources import pod_requests
from scheduler_core.scheduler.snapshot import NodeInfo, PodInfoCache

OUT_OF = "OutOf"  # InsufficientResourcePrefix
REJECTED = REJECTED_PREFIX  # api/container_states.py reads it too
OS_LABEL = "kubernetes.io/os"
NODE_OS = "linux"  # runtime.GOOS of every simulated kubelet
OS_SELECTOR_MISMATCH = "PodOSSelectorNodeLabelDoesNotMatch"
OS_SELECTOR_MESSAGE = "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label"
TAINTS_NOT_TOLERATED = "node(s) had taints that the pod didn't tolerate"  # tainttoleration.ErrReasonNotMatch


@dataclass(frozen=True, slots=True)
class Rejection:
    reason: str
    message: str


def admit(pod: Pod, node: Node, admitted: Iterable[Pod], infos: PodInfoCache) -> Rejection | None:
    """None when the kubelet of `node` admits `pod` beside the pods it has `admitted` (its active
    pods), else why it rejects it."""
    if OS_LABEL in pod.labels and pod.labels[OS_LABEL] != NODE_OS:
        return Rejection(OS_SELECTOR_MISMATCH, OS_SELECTOR_MESSAGE)
    info = NodeInfo(node)
    info.add_pods([infos.info(other) for other in admitted])
    # Extended resources the node does not advertise are left out (cluster-level resources).
    requests = {
        name: amount
        for name, amount in pod_requests(pod).items()
        if not is_extended_resource_name(name) or name in info.allocatable
    }
    failed = admission_check(pod, info, include_all=True, requests=requests)
    if not failed and _untolerated_no_execute(pod, node):
        failed = [AdmissionResult(taint_toleration.NAME, TAINTS_NOT_TOLERATED)]
    return _rejection(failed[0]) if failed else None


def _untolerated_no_execute(pod: Pod, node: Node) -> bool:
    """The kubelet looks only at NoExecute taints (static pods aside, which are not simulated)."""
    return any(
        taint.effect == NO_EXECUTE and not tolerates_taint(pod.spec.tolerations, taint) for taint in node.spec.taints
    )


def _rejection(first: AdmissionResult) -> Rejection:
    lack = first.insufficient
    if lack is not None:
        message = (
            f"Node didn't have enough resource: {lack.resource}, requested: {lack.requested}, "
            f"used: {lack.used}, capacity: {lack.capacity}"
        )
        return Rejection(OUT_OF + lack.resource, message)
    return Rejection(first.plugin, f"Predicate {first.plugin} failed: {first.reason}")
