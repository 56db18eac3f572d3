"""InterPodAffinity's PreFilter state and Filter predicates (interpodaffinity/filtering.go)."""

from collections.abc import Iterable, Mapping

from scheduler_core.api.types import Node, Pod
from scheduler_core.scheduler.framework import Status
from scheduler_core.scheduler.plugins.inter_pod_affinity.counts import Contribute, Contribution, Pair
from scheduler_core.scheduler.plugins.inter_pod_affinity.terms import IncomingTerm
from scheduler_core.scheduler.snapshot import AffinityTerm, NodeInfo, PodInfo
from scheduler_core.scheduler.window_filter import (
    NodeDomains,
    WindowFilter,
    reject_at_most,
    reject_missing,
    reject_missing_or_above,
    reject_unless,
)


def _bump(counts: dict[Pair, int], labels: Mapping[str, str], key: str, value: int) -> None:
    """topologyToMatchedTermCount.update: only nodes carrying the key count; zero entries go."""
    node_value = labels.get(key)
    if node_value is None:
        return
    pair = (key, node_value)
    count = counts.get(pair, 0) + value
    if count:
        counts[pair] = count
    else:
        del counts[pair]


def matches_all(terms: tuple[IncomingTerm, ...], pod: Pod) -> bool:
    """podMatchesAllAffinityTerms: false for no terms."""
    if not terms:
        return False
    return all(term.matches(pod) for term in terms)


def _tally(labels: Mapping[str, str], matched: Iterable[tuple[str, int]]) -> Contribution | None:
    """A node's counts per (topology key, its value of the key) from (topology key, matches)
    found on it; a key the node lacks counts nothing. None when nothing counts."""
    found: Contribution | None = None
    for key, count in matched:
        value = labels.get(key)
        if value is not None and count:
            found = found if found is not None else {}
            pair = (key, value)
            found[pair] = found.get(pair, 0) + count
    return found


def existing_anti_affinity_contribution(pod: Pod, namespace_labels: Mapping[str, str]) -> Contribute:
    """Per node: the required anti-affinity terms of its pods that match the incoming pod."""

    def contribute(node: NodeInfo) -> Contribution | None:
        infos = node.pods_with_required_anti_affinity
        if not infos:
            return None
        labels = node.node.labels
        return _tally(
            labels,
            (
                (term.topology_key, 1)
                for info in infos
                for term in info.required_anti_affinity_terms
                if term.matches(pod, namespace_labels)
            ),
        )

    return contribute


def affinity_contribution(terms: tuple[IncomingTerm, ...]) -> Contribute:
    """Per node: one count per term (on a node with its key) for each pod matching all the terms."""

    def contribute(node: NodeInfo) -> Contribution | None:
        infos = node.pods
        if not infos:
            return None
        matching = sum(1 for info in infos if matches_all(terms, info.pod))
        return _tally(node.node.labels, ((term.topology_key, matching) for term in terms))

    return contribute


def anti_affinity_contribution(terms: tuple[IncomingTerm, ...]) -> Contribute:
    """Per node: one count per anti-affinity term (on a node with its key) for each pod it matches."""

    def contribute(node: NodeInfo) -> Contribution | None:
        infos = node.pods
        if not infos:
            return None
        labels = node.node.labels
        return _tally(
            labels,
            (
                (term.topology_key, sum(1 for info in infos if term.matches(info.pod)))
                for term in terms
                if term.topology_key in labels
            ),
        )

    return contribute


class PreFilterState:
    """preFilterState: the three count maps, the incoming pod's resolved required terms and its
    namespace labels (for AddPod/RemovePod)."""

    __slots__ = (
        "affinity_counts",
        "affinity_keys",
        "affinity_terms",
        "anti_affinity_counts",
        "anti_affinity_keys",
        "anti_affinity_terms",
        "existing_anti_affinity_counts",
        "existing_keys",
        "matches_own_affinity",
        "namespace_labels",
        "pod",
    )

    def __init__(
        self,
        pod: Pod,
        namespace_labels: Mapping[str, str],
        affinity_terms: tuple[IncomingTerm, ...],
        anti_affinity_terms: tuple[IncomingTerm, ...],
        existing_anti_affinity_counts: dict[Pair, int],
        affinity_counts: dict[Pair, int],
        anti_affinity_counts: dict[Pair, int],
        existing_keys: Iterable[str],
    ) -> None:
        self.pod = pod
        self.namespace_labels = namespace_labels
        self.affinity_terms = affinity_terms
        self.anti_affinity_terms = anti_affinity_terms
        self.existing_anti_affinity_counts = existing_anti_affinity_counts
        self.affinity_counts = affinity_counts
        self.anti_affinity_counts = anti_affinity_counts
        # The terms' topology keys, each once: all Filter needs of the terms.
        self.affinity_keys = tuple(dict.fromkeys(term.topology_key for term in affinity_terms))
        self.anti_affinity_keys = tuple(dict.fromkeys(term.topology_key for term in anti_affinity_terms))
        # Topology keys that may hold a positive existing anti-affinity count (a superset is fine):
        # Filter then looks up those keys instead of every label of the node.
        self.existing_keys = set(existing_keys)
        # The "first pod of a self-affine group" rule needs this; it cannot change within the cycle.
        self.matches_own_affinity = matches_all(affinity_terms, pod)

    def clone(self) -> "PreFilterState":
        copy = PreFilterState.__new__(PreFilterState)
        copy.pod = self.pod
        copy.namespace_labels = self.namespace_labels
        copy.affinity_terms = self.affinity_terms
        copy.anti_affinity_terms = self.anti_affinity_terms
        copy.affinity_keys = self.affinity_keys
        copy.anti_affinity_keys = self.anti_affinity_keys
        copy.existing_anti_affinity_counts = dict(self.existing_anti_affinity_counts)
        copy.affinity_counts = dict(self.affinity_counts)
        copy.anti_affinity_counts = dict(self.anti_affinity_counts)
        copy.existing_keys = set(self.existing_keys)
        copy.matches_own_affinity = self.matches_own_affinity
        return copy

    def update_with_pod(self, info: PodInfo, node: Node, multiplier: int) -> None:
        """preFilterState.updateWithPod: what one pod on ``node`` adds (1) or takes away (-1)."""
        labels = node.labels
        terms: tuple[AffinityTerm, ...] = info.required_anti_affinity_terms
        for term in terms:
            if term.matches(self.pod, self.namespace_labels):
                _bump(self.existing_anti_affinity_counts, labels, term.topology_key, multiplier)
                self.existing_keys.add(term.topology_key)
        if matches_all(self.affinity_terms, info.pod):
            for incoming in self.affinity_terms:
                _bump(self.affinity_counts, labels, incoming.topology_key, multiplier)
        for incoming in self.anti_affinity_terms:
            if incoming.matches(info.pod):
                _bump(self.anti_affinity_counts, labels, incoming.topology_key, multiplier)

    # ------------------------------------------------------------------ Filter predicates

    def satisfies_pod_affinity(self, labels: Mapping[str, str]) -> bool:
        """satisfyPodAffinity: every term's key on the node with matching pods in that topology, or,
        when no pod anywhere matches, the pod matching its own terms."""
        pods_exist = True
        counts = self.affinity_counts
        for key in self.affinity_keys:
            value = labels.get(key)
            if value is None:
                return False  # every topology key must be on the node
            if counts.get((key, value), 0) <= 0:
                pods_exist = False
        if pods_exist:
            return True
        return self.first_of_its_group()

    def first_of_its_group(self) -> bool:
        """No pod anywhere matches the affinity terms and the pod matches its own: it may go to any
        node carrying the terms' keys (the first pod of a self-affine group)."""
        return not self.affinity_counts and self.matches_own_affinity

    def satisfies_pod_anti_affinity(self, labels: Mapping[str, str]) -> bool:
        """satisfyPodAntiAffinity: no matching pod in the node's topology of any term."""
        counts = self.anti_affinity_counts
        if not counts:
            return True
        for key in self.anti_affinity_keys:
            value = labels.get(key)
            if value is not None and counts.get((key, value), 0) > 0:
                return False
        return True

    def satisfies_existing_pods_anti_affinity(self, labels: Mapping[str, str]) -> bool:
        """satisfyExistingPodsAntiAffinity: no existing pod's anti-affinity covers any label of the node."""
        counts = self.existing_anti_affinity_counts
        if not counts:
            return True
        for key in self.existing_keys:
            value = labels.get(key)
            if value is not None and counts.get((key, value), 0) > 0:
                return False
        return True

    # ------------------------------------------------------------------ Filter over a window

    def window_filters(
        self, domains: NodeDomains, affinity: Status, anti_affinity: Status, existing_anti_affinity: Status
    ) -> list[WindowFilter]:
        """The three predicates above over a window of nodes (scheduler/window_filter.py), in
        Filter's order, each rejecting with the status given for it."""
        filters: list[WindowFilter] = []
        if self.affinity_terms:
            if len(self.affinity_keys) == 1:
                pairs = domains.pairs(self.affinity_keys[0])
                if self.first_of_its_group():
                    filters.append(reject_missing(pairs, affinity))
                else:
                    filters.append(reject_at_most(pairs, self.affinity_counts, 0, affinity))
            else:
                filters.append(reject_unless(domains.labels(), self.satisfies_pod_affinity, affinity))
        for counts, keys, status in (
            (self.anti_affinity_counts, self.anti_affinity_keys, anti_affinity),
            (self.existing_anti_affinity_counts, tuple(self.existing_keys), existing_anti_affinity),
        ):
            if counts:
                # A matching pod in the node's domain of any of the keys rejects it.
                filters.extend(reject_missing_or_above(domains.pairs(key), counts, 0, None, status) for key in keys)
        return filters
