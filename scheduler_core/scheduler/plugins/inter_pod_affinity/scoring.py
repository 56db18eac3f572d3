"""InterPodAffinity's PreScore contributions, Score and NormalizeScore (interpodaffinity/scoring.go)."""

from collections.abc import Mapping

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.framework import MAX_NODE_SCORE, NodeScore
from scheduler_core.scheduler.plugins.inter_pod_affinity.counts import Contribute, Contribution, Pair
from scheduler_core.scheduler.plugins.inter_pod_affinity.terms import IncomingTerm
from scheduler_core.scheduler.snapshot import NodeInfo


def score_contribution(
    pod: Pod,
    namespace_labels: Mapping[str, str],
    preferred_affinity: tuple[IncomingTerm, ...],
    preferred_anti_affinity: tuple[IncomingTerm, ...],
    hard_pod_affinity_weight: int,
    all_pods: bool,
) -> Contribute:
    """Per node, processExistingPod for each pod walked (all of them when the incoming pod has
    preferred terms, else those with affinity): weights per topology pair of the node.

    A term that matches on a node carrying its key makes an entry even if the weights cancel out,
    as upstream's score map does; that decides whether PreScore skips.
    """

    def contribute(node: NodeInfo) -> Contribution | None:
        infos = node.pods if all_pods else node.pods_with_affinity
        labels = node.node.labels
        if not infos or not labels:
            return None
        found: Contribution = {}

        def add(key: str, weight: int) -> None:
            value = labels.get(key)
            if value is not None:
                pair = (key, value)
                found[pair] = found.get(pair, 0) + weight

        for info in infos:
            existing = info.pod
            # The incoming pod's preferred terms against the existing pod.
            for term in preferred_affinity:
                if term.matches(existing):
                    add(term.topology_key, term.weight)
            for term in preferred_anti_affinity:
                if term.matches(existing):
                    add(term.topology_key, -term.weight)
            # Symmetry: the existing pod's terms against the incoming pod. Its required
            # anti-affinity plays no part in scoring.
            if hard_pod_affinity_weight > 0:
                for required in info.required_affinity_terms:
                    if required.matches(pod, namespace_labels):
                        add(required.topology_key, hard_pod_affinity_weight)
            for weighted in info.preferred_affinity_terms:
                if weighted.term.matches(pod, namespace_labels):
                    add(weighted.term.topology_key, weighted.weight)
            for weighted in info.preferred_anti_affinity_terms:
                if weighted.term.matches(pod, namespace_labels):
                    add(weighted.term.topology_key, -weighted.weight)
        return found or None

    return contribute


class PreScoreState:
    """preScoreState's topologyScore, flattened: (key, value) -> summed weight, and the keys in it."""

    __slots__ = ("keys", "topology_score")

    def __init__(self, topology_score: dict[Pair, int], keys: tuple[str, ...]) -> None:
        self.topology_score = topology_score
        self.keys = keys


def normalize(scores: list[NodeScore]) -> None:
    """Min-max to 0..MaxNodeScore in float64, truncated (int64(float64) in Go); all equal gives 0."""
    for entry, score in zip(scores, normalized([entry.score for entry in scores]), strict=True):
        entry.score = score


def normalized(scores: list[int]) -> list[int]:
    """normalize over plain ints (the fast path's score columns)."""
    if not scores:
        return scores
    lowest = min(scores)
    spread = max(scores) - lowest
    if spread <= 0:
        return [0] * len(scores)
    return [int(float(MAX_NODE_SCORE) * (float(score - lowest) / float(spread))) for score in scores]
