"""PodTopologySpread's PreScore state (scoring.go): per soft constraint, the matching pods per
domain or per node, and the normalizing weight of a topology's size."""

import math
from collections.abc import Sequence

from scheduler_core.scheduler.plugins.pod_topology_spread.common import (
    SpreadConstraint,
    count_matching_pods,
)
from scheduler_core.scheduler.plugins.pod_topology_spread.counts import DomainCounts
from scheduler_core.scheduler.snapshot import NodeInfo


class SoftConstraint:
    """One ScheduleAnyway constraint in the PreScore state."""

    __slots__ = ("bonus", "constraint", "counts", "node_counts", "topology_key", "weight")

    def __init__(
        self,
        constraint: SpreadConstraint,
        counts: dict[str, int] | None,
        weight: float,
        node_counts: DomainCounts | None = None,
    ) -> None:
        self.constraint = constraint
        self.topology_key = constraint.topology_key
        self.counts = counts  # None for kubernetes.io/hostname: Score counts the node's own pods
        # For kubernetes.io/hostname, each snapshot node's count kept across cycles (recounted only
        # where pods changed): the same numbers as counting the node's pods on every Score call.
        self.node_counts = node_counts
        self.weight = weight
        self.bonus = float(constraint.max_skew - 1)  # waters down small skews

    def count_on(self, node: NodeInfo, namespace: str) -> int:
        """The node's matching pods, for a hostname constraint."""
        return self.counts_on([node], namespace)[0]

    def counts_on(self, nodes: Sequence[NodeInfo], namespace: str) -> list[int]:
        """count_on for each node: the kept count of a snapshot node, a count of any other's pods."""
        cached = self.node_counts
        if cached is None or cached.nodes_list is None:
            return [count_matching_pods(node.pods, self.constraint, namespace) for node in nodes]
        positions, kept, counts = cached.positions(), cached.nodes_list, cached.counts
        result = []
        for node in nodes:
            position = positions.get(node.name)
            if position is not None and kept[position] is node:
                result.append(counts[position])
            else:
                result.append(count_matching_pods(node.pods, self.constraint, namespace))
        return result


class PreScoreState:
    __slots__ = ("constraints", "ignored_nodes", "namespace")

    def __init__(self, constraints: list[SoftConstraint], ignored_nodes: set[str], namespace: str) -> None:
        self.constraints = constraints
        self.ignored_nodes = ignored_nodes  # nodes missing a required topology key: they score 0
        self.namespace = namespace


def topology_normalizing_weight(size: int) -> float:
    """Smaller topologies weigh less, so their counts are not watered down by bigger ones."""
    return math.log(size + 2)


def round_half_away(value: float) -> int:
    """Go's math.Round for the non-negative raw scores."""
    whole = int(value)
    return whole + 1 if value - whole >= 0.5 else whole
