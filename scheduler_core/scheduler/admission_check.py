"""AdmissionCheck (pkg/scheduler/schedule_one.go, v1.34): the node-local filters the scheduler and
the kubelet share. The kubelet runs them before it admits a pod (kubelet/lifecycle/predicate.go),
so a pod bound without the scheduler (spec.nodeName set by its author) is still refused where it
does not fit: resources first, then the required node affinity, the node name, the host ports.

Each check is the scheduler plugin's own rule (NodeResourcesFit's fits_request, NodeAffinity's
required terms, NodeName, NodePorts), so the two cannot disagree."""

from collections.abc import Mapping
from dataclasses import dataclass

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.plugins import node_affinity, node_name, node_ports
from scheduler_core.scheduler.plugins.node_resources_fit import InsufficientResource, fits_request
from scheduler_core.scheduler.resources import pod_requests
from scheduler_core.scheduler.snapshot import NodeInfo

NO_IGNORED: frozenset[str] = frozenset()  # the kubelet ignores no resource (NodeResourcesFit's args do)


@dataclass(frozen=True, slots=True)
class AdmissionResult:
    """One failed check: an insufficient resource, or a filter (its plugin name and reason)."""

    plugin: str = ""
    reason: str = ""
    insufficient: InsufficientResource | None = None


def admission_check(
    pod: Pod, node: NodeInfo, *, include_all: bool, requests: Mapping[str, int] | None = None
) -> list[AdmissionResult]:
    """The failed checks in upstream's order: every insufficient resource, then each filter; without
    `include_all`, it stops at the first group that fails. `requests`: the pod's, unless given (the
    kubelet leaves out extended resources its node does not know)."""
    wanted = pod_requests(pod) if requests is None else requests
    results = [AdmissionResult(insufficient=lack) for lack in fits_request(wanted, node, NO_IGNORED, NO_IGNORED)]
    if results and not include_all:
        return results
    for plugin, reason, fits in (
        (node_affinity.NAME, node_affinity.ERR_REASON_POD, _matches_node_affinity),
        (node_name.NAME, node_name.ERR_REASON, node_name.fits),
        (node_ports.NAME, node_ports.ERR_REASON, node_ports.fits),
    ):
        if not fits(pod, node):
            results.append(AdmissionResult(plugin, reason))
            if not include_all:
                return results
    return results


def _matches_node_affinity(pod: Pod, node: NodeInfo) -> bool:
    return node_affinity.required_node_affinity(pod).matches(node)
