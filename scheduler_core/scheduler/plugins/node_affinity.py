"""NodeAffinity: spec.nodeSelector and required node affinity filter nodes; preferred terms add
their weights to a node's score (plugins/nodeaffinity)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scheduler_core.api.fields import Fields
from scheduler_core.api.parse import parse_affinity
from scheduler_core.api.selectors import node_selector_map_matches, node_selector_matches, node_selector_term_matches
from scheduler_core.api.types import Node, NodeSelector, Pod, PreferredSchedulingTerm
from scheduler_core.scheduler.cluster_events import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    EventResource,
    QueueingHint,
)
from scheduler_core.scheduler.config import CONFIG_DOCUMENT
from scheduler_core.scheduler.framework import (
    SKIP,
    SUCCESS,
    CycleState,
    NodeScore,
    PreFilterResult,
    Status,
    unresolvable,
)
from scheduler_core.scheduler.plugins.helpers import default_normalize_score
from scheduler_core.scheduler.snapshot import NodeInfo

NAME = "NodeAffinity"
PRE_FILTER_KEY = "PreFilter" + NAME
PRE_SCORE_KEY = "PreScore" + NAME
ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector"
ERR_REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity"
ERR_REASON_CONFLICT = "pod affinity terms conflict"
NODE_NAME_FIELD = "metadata.name"


@dataclass(frozen=True, slots=True)
class RequiredNodeAffinity:
    """nodeaffinity.RequiredNodeAffinity: the pod's nodeSelector AND its required terms."""

    node_selector: Mapping[str, str]
    required: NodeSelector | None

    def matches(self, node: NodeInfo) -> bool:
        return self.matches_node(node.node)

    def matches_node(self, node: Node) -> bool:
        labels = node.labels
        if self.node_selector and not node_selector_map_matches(self.node_selector, labels):
            return False
        return self.required is None or node_selector_matches(self.required, node.name, labels)


def required_node_affinity(pod: Pod) -> RequiredNodeAffinity:
    affinity = pod.spec.affinity
    required = affinity.node_affinity.required if affinity and affinity.node_affinity else None
    return RequiredNodeAffinity(pod.spec.node_selector, required)


def preferred_terms(pod: Pod) -> tuple[PreferredSchedulingTerm, ...]:
    affinity = pod.spec.affinity
    return affinity.node_affinity.preferred if affinity and affinity.node_affinity else ()


def preferred_score(terms: Sequence[PreferredSchedulingTerm], node: NodeInfo) -> int:
    return sum(
        term.weight for term in terms if node_selector_term_matches(term.preference, node.name, node.node.labels)
    )


class NodeAffinity:
    name = NAME

    def __init__(self, args: Mapping[str, Any], handle: Any = None) -> None:
        self.added_required: NodeSelector | None = None
        self.added_preferred: tuple[PreferredSchedulingTerm, ...] = ()
        added = args.get("addedAffinity")
        if added:
            fields = Fields({"nodeAffinity": added}, "pluginConfig[NodeAffinity].args.addedAffinity", CONFIG_DOCUMENT)
            affinity = parse_affinity(fields)
            if affinity is not None and affinity.node_affinity is not None:
                self.added_required = affinity.node_affinity.required
                self.added_preferred = affinity.node_affinity.preferred

    def pre_filter(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[PreFilterResult | None, Status]:
        affinity = pod.spec.affinity
        required = affinity.node_affinity.required if affinity and affinity.node_affinity else None
        if required is None and self.added_required is None and not pod.spec.node_selector:
            return None, SKIP
        state.write(PRE_FILTER_KEY, required_node_affinity(pod))
        if required is None or self.added_required is not None:
            return None, SUCCESS
        # Terms naming nodes through matchFields metadata.name narrow the nodes to evaluate.
        node_names: set[str] | None = None
        for term in required.node_selector_terms:
            term_names: set[str] | None = None
            for requirement in term.match_fields:
                if requirement.key == NODE_NAME_FIELD and requirement.operator == "In":
                    values = set(requirement.values)
                    term_names = values if term_names is None else term_names & values
            if term_names is None:
                return None, SUCCESS  # terms are ORed: a term without names lets every node in
            node_names = term_names if node_names is None else node_names | term_names
        if node_names is not None and not node_names:
            return None, unresolvable(ERR_REASON_CONFLICT)
        if node_names:
            return PreFilterResult(frozenset(node_names)), SUCCESS
        return None, SUCCESS

    def fits_added_affinity(self, node: Node) -> bool:
        """The scheduler-enforced node affinity (args.addedAffinity), when configured."""
        return self.added_required is None or node_selector_matches(self.added_required, node.name, node.labels)

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        if not self.fits_added_affinity(node.node):
            return unresolvable(ERR_REASON_ENFORCED)
        required: RequiredNodeAffinity | None = state.get(PRE_FILTER_KEY)
        if required is None:
            required = required_node_affinity(pod)
        if not required.matches(node):
            return unresolvable(ERR_REASON_POD)
        return SUCCESS

    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status:
        if not nodes:
            return SUCCESS
        terms = preferred_terms(pod)
        if not terms and not self.added_preferred:
            return SKIP
        state.write(PRE_SCORE_KEY, terms)
        return SUCCESS

    def score(self, state: CycleState, pod: Pod, node: NodeInfo) -> tuple[int, Status]:
        terms = state.get(PRE_SCORE_KEY)
        if terms is None:
            terms = preferred_terms(pod)
        total = preferred_score(self.added_preferred, node) if self.added_preferred else 0
        return total + preferred_score(terms, node), SUCCESS

    def normalize_score(self, state: CycleState, pod: Pod, scores: list[NodeScore]) -> Status:
        default_normalize_score(scores, reverse=False)
        return SUCCESS

    def events_to_register(self) -> list[ClusterEventWithHint]:
        # Only labels decide the match. Queueing hints on: no UpdateNodeTaint (only needed for preCheck).
        return [
            ClusterEventWithHint(
                ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL),
                self.is_schedulable_after_node_change,
            )
        ]

    def is_schedulable_after_node_change(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        """Queue for a node added that matches the pod's required affinity (and the enforced one),
        or updated from not matching to matching."""
        if not isinstance(new, Node) or not isinstance(old, Node | None):
            return QueueingHint.QUEUE  # upstream's hint errors on other objects, and an error queues
        if not self.fits_added_affinity(new):
            return QueueingHint.QUEUE_SKIP
        required = required_node_affinity(pod)
        if not required.matches_node(new):
            return QueueingHint.QUEUE_SKIP
        if old is not None and required.matches_node(old):
            return QueueingHint.QUEUE_SKIP  # it matched before: the update changed nothing for this pod
        return QueueingHint.QUEUE
