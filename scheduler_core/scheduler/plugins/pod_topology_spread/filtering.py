"""PodTopologySpread's PreFilter state (filtering.go): per hard constraint, the matching pods counted
per domain, the global minimum kept up to date as preemption's what-ifs add and remove pods."""

from scheduler_core.scheduler.plugins.pod_topology_spread.common import (
    MAX_INT32,
    CriticalPaths,
    SpreadConstraint,
)


class HardConstraint:
    """One DoNotSchedule constraint in the PreFilter state: matching pods per eligible domain."""

    __slots__ = ("constraint", "counts", "max_skew", "min_domains", "minimum", "paths", "self_match", "topology_key")

    def __init__(self, constraint: SpreadConstraint, counts: dict[str, int], self_match: int) -> None:
        self.constraint = constraint
        self.topology_key = constraint.topology_key
        self.max_skew = constraint.max_skew
        self.min_domains = constraint.min_domains
        self.self_match = self_match  # the incoming pod counts itself where it matches the selector
        self.counts = counts  # TpValueToMatchNum: domain -> matching pods
        self.minimum = min(counts.values()) if counts else MAX_INT32
        # criticalPaths, built on the first AddPod/RemovePod: until then the minimum above is the same number.
        self.paths: CriticalPaths | None = None

    def clone(self) -> "HardConstraint":
        copy = HardConstraint.__new__(HardConstraint)
        copy.constraint = self.constraint
        copy.topology_key = self.topology_key
        copy.max_skew = self.max_skew
        copy.min_domains = self.min_domains
        copy.self_match = self.self_match
        copy.counts = dict(self.counts)
        copy.minimum = self.minimum
        copy.paths = self.paths.copy() if self.paths is not None else None
        return copy

    def skew_limit(self) -> int:
        """The most matching pods a domain may hold for the node to pass: Filter's
        ``count + self_match - minimum > max_skew``, rearranged. With fewer eligible domains
        than minDomains the global minimum is taken as 0."""
        minimum = self.minimum if len(self.counts) >= self.min_domains else 0
        return self.max_skew + minimum - self.self_match

    def add(self, value: str, delta: int) -> None:
        if self.paths is None:
            self.paths = CriticalPaths.of(self.counts)
        count = self.counts.get(value, 0) + delta
        self.counts[value] = count
        self.paths.update(value, count)
        self.minimum = self.paths.count0


class PreFilterState:
    """preFilterState; CycleState.clone() clones it for each preemption what-if."""

    __slots__ = ("constraints", "keys")

    def __init__(self, constraints: list[HardConstraint]) -> None:
        self.constraints = constraints
        self.keys = tuple(c.topology_key for c in constraints)

    def clone(self) -> "PreFilterState":
        return PreFilterState([c.clone() for c in self.constraints])
