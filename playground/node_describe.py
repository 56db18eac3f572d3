"""`kubectl describe node` for the node detail (issue #16, item 7): at the player's event of a run,
or at the scenario's state when no run is watched.

At an event, the run's store right after that frame and its simulated time (describe_at.py hands
them to in_store). At the scenario's state, the node as its version writes it and the pods its
preview placed there (time 0: the preview's instant), from what the preview keeps of each pod
(preview_compute.PodView): no simulation for a click.

Either way only the selected node's pods are read: the store's index by node, or the preview's
pods by node.
"""

from typing import Any

from playground.models import Node as BoardNode
from playground.preview_compute import Preview
from playground.scenarios import node_manifest
from scheduler_core.api.manifests import parse_object
from scheduler_core.api.pod_conditions import TERMINAL_PHASES
from scheduler_core.api.types import Node
from scheduler_core.explain.describe_node import NodeDescription, describe_node, node_description
from scheduler_core.explain.kubectl_resources import PodAmounts
from scheduler_core.store.cluster import Cluster


def in_store(cluster: Cluster, time: float, name: str) -> NodeDescription | None:
    """The node as the store holds it at `time`; None when it does not exist there."""
    node: Node | None = cluster.get(Node, name)
    return describe_node(cluster, node, time) if node is not None else None


def in_scenario(board_node: BoardNode, placement: Preview) -> NodeDescription:
    """The board's node with the pods its preview placed on it, at time 0 (no events yet)."""
    node: Node = parse_object(node_manifest(board_node), f"Node {board_node.name}")
    usage = placement.usage.get(board_node.name)
    views = usage.pod_views if usage is not None else []
    pods = [
        PodAmounts(view.namespace, view.name, 0.0, view.requests, view.limits)
        for view in views
        if view.phase not in TERMINAL_PHASES
    ]
    return node_description(node, pods, [], 0.0)


def context(description: NodeDescription | None, *, name: str, seq: int | None = None) -> dict[str, Any]:
    """describe_node.html's context: the description, or which node is missing at which event."""
    return {"describe": description, "describe_name": name, "describe_seq": seq}
