"""Matching pods per topology domain, kept across scheduling cycles for PodTopologySpread.

Upstream's PreFilter and PreScore count the matching pods of every node on each call (in parallel).
The numbers here are the same, but a node is recounted only when its NodeInfo.generation moved (a
pod was added or removed, or the node was updated), so a cycle costs a pass over the generations
instead of a pass over every pod of the cluster.
"""

from collections.abc import Sequence

from scheduler_core.scheduler.plugins.pod_topology_spread.common import (
    SelectorKey,
    SpreadConstraint,
    count_matching_pods,
    node_has_keys,
)
from scheduler_core.scheduler.snapshot import NodeInfo, Snapshot

_MAX_ENTRIES = 64  # distinct constraints in use (a hostname and a zone one per workload, by default)
_SCAN_BELOW = 64

CountsKey = tuple[str, SelectorKey, str, tuple[str, ...]]


def _changed_indices(new: list[int], old: list[int], low: int, high: int) -> list[int]:
    """Where two unequal lists differ: halves are compared as slices (a C loop) and only unequal
    halves are searched further, so a few changed nodes cost far less than a Python pass over all."""
    if high - low <= _SCAN_BELOW:
        return [index for index in range(low, high) if new[index] != old[index]]
    middle = (low + high) // 2
    changed: list[int] = []
    if new[low:middle] != old[low:middle]:
        changed = _changed_indices(new, old, low, middle)
    if new[middle:high] != old[middle:high]:
        changed += _changed_indices(new, old, middle, high)
    return changed


class DomainCounts:
    """For one node list, namespace, selector, topology key and set of required keys:
    each node's domain (None when it lacks a required key) and matching-pod count, and per domain
    the total over its nodes. Every domain of a counted node has a total, zero included."""

    __slots__ = (
        "constraint",
        "counts",
        "domains",
        "generations",
        "journal",
        "members",
        "namespace",
        "nodes",
        "nodes_list",
        "required",
        "totals",
    )

    def __init__(self, constraint: SpreadConstraint, namespace: str, required: tuple[str, ...]) -> None:
        self.constraint = constraint
        self.namespace = namespace
        # The node must carry every required key; a missing topology key then reads as "" (system defaults).
        self.required = required
        self.nodes: list[NodeInfo] = []
        self.generations: list[int] | None = []
        # When following a Snapshot's own node list: (snapshot, epoch, journal position) of the last read.
        self.journal: tuple[Snapshot, int, int] | None = None
        self.nodes_list: list[NodeInfo] | None = None
        self.domains: list[str | None] = []
        self.counts: list[int] = []
        self.totals: dict[str, int] = {}
        self.members: dict[str, int] = {}  # domain -> how many counted nodes hold it

    def refresh(self, nodes: list[NodeInfo], snapshot: Snapshot | None = None) -> None:
        if snapshot is not None and nodes is snapshot.nodes():
            # The snapshot's own list: its journal names the nodes that changed since the last read.
            changed = None
            if self.journal is not None and self.journal[0] is snapshot and self.nodes_list is nodes:
                changed = snapshot.changed_since(self.journal[1], self.journal[2])
            if changed is None:
                self._rebuild(nodes)
            elif changed:
                positions = snapshot.node_index()
                for node in dict.fromkeys(changed):
                    self._recount(positions[node.node.name], node)
            self.generations = None
            self.nodes_list = nodes
            self.journal = (snapshot, snapshot.epoch, snapshot.journal_position())
            return
        self.journal = None
        self.nodes_list = None
        # A list of the same NodeInfo objects compares equal by identity: NodeInfo has no __eq__.
        if self.nodes != nodes or self.generations is None:
            self._rebuild(nodes)
            return
        generations = [node.generation for node in nodes]
        if generations != self.generations:
            for index in _changed_indices(generations, self.generations, 0, len(generations)):
                self._recount(index, nodes[index])
            self.generations = generations

    def positions(self) -> dict[str, int]:
        """Where each node is in the snapshot's list this follows (empty when it follows none)."""
        if self.journal is None:
            return {}
        return self.journal[0].node_index()

    def _domain(self, node: NodeInfo) -> str | None:
        labels = node.node.metadata.labels
        if not node_has_keys(labels, self.required):
            return None
        return labels.get(self.constraint.topology_key, "")

    def _rebuild(self, nodes: list[NodeInfo]) -> None:
        self.nodes = list(nodes)
        self.generations = [node.generation for node in nodes]
        self.domains = []
        self.counts = []
        self.totals = {}
        self.members = {}
        for node in nodes:
            domain = self._domain(node)
            count = 0
            if domain is not None:
                count = count_matching_pods(node.pods, self.constraint, self.namespace)
                self.totals[domain] = self.totals.get(domain, 0) + count
                self.members[domain] = self.members.get(domain, 0) + 1
            self.domains.append(domain)
            self.counts.append(count)

    def _recount(self, index: int, node: NodeInfo) -> None:
        old_domain = self.domains[index]
        if old_domain is not None:
            self.totals[old_domain] -= self.counts[index]
            remaining = self.members[old_domain] - 1
            if remaining:
                self.members[old_domain] = remaining
            else:
                del self.members[old_domain]
                del self.totals[old_domain]
        domain = self._domain(node)
        count = 0
        if domain is not None:
            count = count_matching_pods(node.pods, self.constraint, self.namespace)
            self.totals[domain] = self.totals.get(domain, 0) + count
            self.members[domain] = self.members.get(domain, 0) + 1
        self.domains[index] = domain
        self.counts[index] = count


class DomainCountsCache:
    """The most recently used DomainCounts, a few at a time (one per distinct constraint in use)."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[CountsKey, DomainCounts] = {}

    def get(
        self,
        nodes: Sequence[NodeInfo],
        namespace: str,
        constraint: SpreadConstraint,
        required: tuple[str, ...],
        snapshot: Snapshot | None = None,
    ) -> DomainCounts:
        node_list = nodes if isinstance(nodes, list) else list(nodes)
        key = (namespace, constraint.selector_key, constraint.topology_key, required)
        entry = self._entries.pop(key, None)
        if entry is None:
            entry = DomainCounts(constraint, namespace, required)
            if len(self._entries) >= _MAX_ENTRIES:
                del self._entries[next(iter(self._entries))]
        self._entries[key] = entry  # most recently used last
        entry.refresh(node_list, snapshot)
        return entry
