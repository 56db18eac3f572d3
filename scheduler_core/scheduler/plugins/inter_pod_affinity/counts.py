"""Topology-pair sums over every node, kept from one scheduling cycle to the next.

InterPodAffinity's PreFilter and PreScore add up, for the pod being scheduled, what each node's pods
contribute per (topology key, value) pair. Upstream redoes that walk for every pod (Go, in
parallel). Here the result for a given input (a "signature": the incoming pod's resolved terms, or
its namespace and labels) is kept, with each node's own contribution and the NodeInfo generation it
was computed at; the next pod with the same signature only recomputes the nodes whose generation
moved (usually the one node the previous pod went to). The sums are exactly those of a full walk.
"""

from collections.abc import Callable, Hashable, Sequence

from scheduler_core.scheduler.snapshot import NodeInfo, Snapshot

Pair = tuple[str, str]
Contribution = dict[Pair, int]
Contribute = Callable[[NodeInfo], Contribution | None]
# One read of the nodes' state: every generation, or a Snapshot's (epoch, journal position).
Generations = list[int] | tuple[int, int]

_CHUNK = 128  # generations compared a slice at a time to find the few nodes that changed
_CAPACITY = 16  # signatures remembered per cache


def _changed(new: list[int], old: list[int]) -> list[int]:
    changed: list[int] = []
    for start in range(0, len(new), _CHUNK):
        end = start + _CHUNK
        if new[start:end] != old[start:end]:
            changed.extend(i for i in range(start, min(end, len(new))) if new[i] != old[i])
    return changed


class NodeGenerations:
    """The snapshot's nodes and their generations, read once per scheduling cycle (the snapshot does
    not change within a cycle), and which nodes moved since an earlier read, worked out once for all
    the caches that last saw that read.

    Given the Snapshot whose own node list ``nodes`` is, the read is a journal position instead of
    every node's generation, and the snapshot's journal tells which nodes moved."""

    __slots__ = ("_diffs", "nodes", "snapshot", "values")

    def __init__(self, nodes: Sequence[NodeInfo], snapshot: Snapshot | None = None) -> None:
        self.nodes = nodes
        self.snapshot = snapshot if snapshot is not None and nodes is snapshot.nodes() else None
        self.values: Generations
        if self.snapshot is not None:
            self.values = (self.snapshot.epoch, self.snapshot.journal_position())
        else:
            self.values = [node.generation for node in nodes]
        self._diffs: dict[int, tuple[Generations, list[int] | None]] = {}

    def changed_since(self, old: "Generations") -> list[int] | None:
        """The indices of the nodes that moved since the read ``old``; None: any of them may have."""
        known = self._diffs.get(id(old))
        if known is not None and known[0] is old:
            return known[1]
        changed: list[int] | None
        values = self.values
        if isinstance(values, tuple):
            moved = self.snapshot.changed_since(*old) if isinstance(old, tuple) and self.snapshot else None
            if moved is None:
                changed = None
            else:
                index = self.snapshot.node_index() if self.snapshot else {}
                changed = sorted({index[node.node.name] for node in moved})
        elif isinstance(old, list) and len(old) == len(values):
            changed = _changed(values, old)
        else:
            changed = None
        self._diffs[id(old)] = (old, changed)
        return changed


class NodeSums:
    """The per-node contributions for one signature and their sums.

    ``totals`` holds every pair at least one node contributes to (the sum may cancel to zero, which
    upstream's score map keeps too); ``keys`` the topology keys among them; ``contributing`` how many
    nodes contribute anything.
    """

    __slots__ = ("contributing", "contributions", "generations", "keys", "nodes", "refs", "totals")

    def __init__(self, nodes: Sequence[NodeInfo], node_generations: "Generations", contribute: Contribute) -> None:
        self.nodes = nodes
        self.generations = node_generations  # never changed in place: a new read is a new list
        self.totals: dict[Pair, int] = {}
        self.refs: dict[Pair, int] = {}  # pair -> nodes contributing to it
        self.keys: dict[str, int] = {}  # topology key -> pairs with that key
        self.contributing = 0
        contributions = [contribute(node) for node in nodes]
        for contribution in contributions:
            if contribution:
                self._apply(contribution, 1)
        self.contributions = contributions

    def refresh(self, current: NodeGenerations, contribute: Contribute) -> None:
        if current.values is self.generations:
            return
        changed = current.changed_since(self.generations)
        if changed is None:
            changed = list(range(len(self.nodes)))
        for index in changed:
            old = self.contributions[index]
            if old:
                self._apply(old, -1)
            new = contribute(self.nodes[index])
            if new:
                self._apply(new, 1)
            self.contributions[index] = new
        self.generations = current.values

    def _apply(self, contribution: Contribution, sign: int) -> None:
        totals, refs, keys = self.totals, self.refs, self.keys
        self.contributing += sign
        for pair, value in contribution.items():
            count = refs.get(pair, 0) + sign
            if count:
                refs[pair] = count
                totals[pair] = totals.get(pair, 0) + sign * value
                if count == 1 and sign == 1:
                    keys[pair[0]] = keys.get(pair[0], 0) + 1
            else:
                del refs[pair], totals[pair]
                remaining = keys[pair[0]] - 1
                if remaining:
                    keys[pair[0]] = remaining
                else:
                    del keys[pair[0]]


class SumsCache:
    """NodeSums by signature, the few most recently used."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[Hashable, NodeSums] = {}

    def sums(self, signature: Hashable, current: NodeGenerations, contribute: Contribute) -> NodeSums:
        """``current.nodes`` must be the snapshot's own node list: a new list object means the nodes changed."""
        entries = self._entries
        entry = entries.pop(signature, None)
        if entry is None or entry.nodes is not current.nodes:
            entry = NodeSums(current.nodes, current.values, contribute)
        else:
            entry.refresh(current, contribute)
        entries[signature] = entry
        if len(entries) > _CAPACITY:
            del entries[next(iter(entries))]
        return entry


def full_sums(nodes: Sequence[NodeInfo], contribute: Contribute) -> NodeSums:
    """The same sums without the cache, for node lists that are not the snapshot's."""
    return NodeSums(nodes, [], contribute)
