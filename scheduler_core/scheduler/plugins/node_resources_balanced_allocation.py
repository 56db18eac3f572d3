"""NodeResourcesBalancedAllocation: prefer nodes whose CPU and memory would be used in equal
proportion (plugins/noderesources/balanced_allocation.go)."""

from collections.abc import Mapping, Sequence
from typing import Any

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.framework import SKIP, SUCCESS, CycleState, Status
from scheduler_core.scheduler.plugins.node_resources_fit import parse_resource_specs
from scheduler_core.scheduler.plugins.resource_allocation import balanced_resource_scorer, pod_request_list, score_node
from scheduler_core.scheduler.snapshot import NodeInfo

NAME = "NodeResourcesBalancedAllocation"
PRE_SCORE_KEY = "PreScore" + NAME


class NodeResourcesBalancedAllocation:
    name = NAME
    use_requested = True  # it balances what pods really request, without the non-zero defaults

    def __init__(self, args: Mapping[str, Any], handle: Any = None) -> None:
        self.resources = parse_resource_specs(
            args.get("resources"), "pluginConfig[NodeResourcesBalancedAllocation].args"
        )

    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status:
        requests = pod_request_list(pod, self.resources, use_requested=True)
        if not any(requests):
            # Best-effort pods would all pile onto the same node otherwise.
            return SKIP
        state.write(PRE_SCORE_KEY, requests)
        return SUCCESS

    def score(self, state: CycleState, pod: Pod, node: NodeInfo) -> tuple[int, Status]:
        requests = state.get(PRE_SCORE_KEY)
        if requests is None:
            requests = pod_request_list(pod, self.resources, use_requested=True)
        return score_node(node, requests, self.resources, balanced_resource_scorer, use_requested=True), SUCCESS
