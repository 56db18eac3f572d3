"""TaintToleration's fixes: a toleration for the exact taint, or the taint removed from the node."""

from dataclasses import replace

from scheduler_core.api.manifest_writer import taint_manifest, toleration_manifest
from scheduler_core.api.types import NO_EXECUTE, NO_SCHEDULE, Node, Pod, Taint, Toleration, tolerates_taint
from scheduler_core.explain.suggestions.candidates import (
    ADD_TOLERATION,
    REMOVE_TAINT,
    SCOPE_NODES,
    SCOPE_POD,
    Candidate,
    NodeChange,
    PodChange,
    Rejection,
    pod_target,
)


def _blocking_taint(pod: Pod, node: Node) -> Taint | None:
    """The taint TaintToleration's Filter stops at."""
    for taint in node.spec.taints:
        if taint.effect in (NO_SCHEDULE, NO_EXECUTE) and not tolerates_taint(pod.spec.tolerations, taint):
            return taint
    return None


def _toleration_for(taint: Taint) -> Toleration:
    if taint.value:
        return Toleration(key=taint.key, operator="Equal", value=taint.value, effect=taint.effect)
    return Toleration(key=taint.key, operator="Exists", effect=taint.effect)


def candidates(rejection: Rejection) -> list[Candidate]:
    pod, nodes = rejection.pod, rejection.nodes
    taints: dict[Taint, list[Node]] = {}
    for info in nodes:
        taint = _blocking_taint(pod, info.node)
        if taint is not None:
            taints.setdefault(replace(taint, time_added=None), []).append(info.node)
    candidates: list[Candidate] = []
    for taint, tainted in taints.items():
        toleration = _toleration_for(taint)
        candidates.append(
            Candidate(
                ADD_TOLERATION,
                f"Add a toleration for {taint} to the pod",
                {"spec": {"tolerations": [toleration_manifest(toleration)]}},
                pod_target(pod),
                SCOPE_POD,
                f"toleration:{taint}",
                pod_change=_add_toleration(toleration),
            )
        )
        for node in tainted:
            remaining = [t for t in node.spec.taints if replace(t, time_added=None) != taint]
            candidates.append(
                Candidate(
                    REMOVE_TAINT,
                    f"Remove the taint {taint} from node {node.name}",
                    {"spec": {"taints": [taint_manifest(t) for t in remaining]}},
                    f"Node {node.name}",
                    SCOPE_NODES,
                    f"untaint:{taint}",
                    command=f"kubectl taint nodes {node.name} {taint}-",
                    node_changes={node.name: _remove_taint(taint)},
                )
            )
    return candidates


def _add_toleration(toleration: Toleration) -> PodChange:
    def change(pod: Pod) -> Pod:
        return replace(pod, spec=replace(pod.spec, tolerations=(*pod.spec.tolerations, toleration)))

    return change


def _remove_taint(taint: Taint) -> NodeChange:
    def change(node: Node) -> Node:
        taints = tuple(t for t in node.spec.taints if replace(t, time_added=None) != taint)
        return replace(node, spec=replace(node.spec, taints=taints))

    return change
