"""NodeUnschedulable's fix: the node uncordoned."""

from dataclasses import replace

from scheduler_core.api.types import Node
from scheduler_core.explain.suggestions.candidates import SCOPE_NODES, UNCORDON, Candidate, Rejection


def candidates(rejection: Rejection) -> list[Candidate]:
    nodes = rejection.nodes
    return [
        Candidate(
            UNCORDON,
            f"Uncordon node {info.name} (it is marked unschedulable)",
            {"spec": {"unschedulable": False}},
            f"Node {info.name}",
            SCOPE_NODES,
            "uncordon",
            command=f"kubectl uncordon {info.name}",
            node_changes={info.name: _uncordon},
        )
        for info in nodes
        if info.node.spec.unschedulable
    ]


def _uncordon(node: Node) -> Node:
    return replace(node, spec=replace(node.spec, unschedulable=False))
