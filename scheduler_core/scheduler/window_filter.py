"""Filter verdicts for a window of nodes at a time, for the plugins whose Filter reads cluster-wide
counts (PodTopologySpread, InterPodAffinity).

The scheduler's fast path walks nodes in windows and looks up each node's topology domain in a
plugin's PreFilter counts with list operations. Each such plugin says, beside its Filter, what
its Filter decides for a whole window (``window_filters``), from the same state and the same
thresholds, so the two cannot drift: tests/core/scheduler/test_window_filter.py holds them equal
node by node, and test_fast_path.py holds the fast path equal to the generic loops.

A domain is a label value or a (key, value) pair. A window filter gets the window's snapshot
positions and their verdicts so far (None: still passing) and fills in the verdict of each
still-passing node it rejects. Filters run in the order the plugin's Filter checks, so a node
keeps the first rejection, as the Filter returns.
"""

from collections.abc import Callable, Hashable, Mapping, Sequence
from itertools import repeat
from typing import Protocol, cast

from scheduler_core.scheduler.framework import Status

WindowFilter = Callable[[list[int], list[Status | None]], None]
# The Filter status as Framework.run_filter reports it (named after its plugin, errors wrapped).
Wrap = Callable[[Status], Status]


class NodeDomains(Protocol):
    """Per node of the snapshot, by position in nodes(): what a window filter looks up."""

    def values(self, key: str) -> Sequence[str | None]:
        """The node's value of the label ``key`` (None without it)."""
        ...

    def pairs(self, key: str) -> Sequence[tuple[str, str] | None]:
        """The node's (key, value) for the label ``key`` (None without it)."""
        ...

    def labels(self) -> Sequence[Mapping[str, str]]:
        """The node's labels."""
        ...


def _count_of[Domain: Hashable](counts: Mapping[Domain, int]) -> Callable[[Domain | None, int], int]:
    """counts.get(domain, default): a missing domain (None) is never a key, so it gets the default."""
    return cast("Callable[[Domain | None, int], int]", counts.get)


def reject_all(status: Status) -> WindowFilter:
    def run(slots: list[int], verdicts: list[Status | None]) -> None:
        for i, current in enumerate(verdicts):
            if current is None:
                verdicts[i] = status

    return run


def reject_missing_or_above[Domain: Hashable](
    domains: Sequence[Domain | None],
    counts: Mapping[Domain, int],
    limit: int,
    missing: Status | None,
    above: Status,
) -> WindowFilter:
    """Nodes without the domain get ``missing`` (when given), then nodes whose domain counts more
    than ``limit`` get ``above`` (a missing domain counts 0)."""

    def run(slots: list[int], verdicts: list[Status | None]) -> None:
        found = list(map(domains.__getitem__, slots))
        if missing is not None and None in found:
            for i, domain in enumerate(found):
                if domain is None and verdicts[i] is None:
                    verdicts[i] = missing
        counted = list(map(_count_of(counts), found, repeat(0)))
        if counted and max(counted) > limit:
            for i, count in enumerate(counted):
                if count > limit and verdicts[i] is None:
                    verdicts[i] = above

    return run


def reject_at_most[Domain: Hashable](
    domains: Sequence[Domain | None], counts: Mapping[Domain, int], floor: int, status: Status
) -> WindowFilter:
    """Nodes whose domain counts ``floor`` or less (a missing domain counts 0) get ``status``."""

    def run(slots: list[int], verdicts: list[Status | None]) -> None:
        counted = list(map(_count_of(counts), map(domains.__getitem__, slots), repeat(0)))
        if counted and min(counted) <= floor:
            for i, count in enumerate(counted):
                if count <= floor and verdicts[i] is None:
                    verdicts[i] = status

    return run


def reject_missing[Domain: Hashable](domains: Sequence[Domain | None], status: Status) -> WindowFilter:
    """Nodes without the domain get ``status``."""

    def run(slots: list[int], verdicts: list[Status | None]) -> None:
        found = list(map(domains.__getitem__, slots))
        if None in found:
            for i, domain in enumerate(found):
                if domain is None and verdicts[i] is None:
                    verdicts[i] = status

    return run


def reject_unless(
    labels: Sequence[Mapping[str, str]], satisfied: Callable[[Mapping[str, str]], bool], status: Status
) -> WindowFilter:
    """Node by node: nodes whose labels do not satisfy the predicate get ``status``."""

    def run(slots: list[int], verdicts: list[Status | None]) -> None:
        for i, slot in enumerate(slots):
            if verdicts[i] is None and not satisfied(labels[slot]):
                verdicts[i] = status

    return run
