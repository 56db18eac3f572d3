"""InterPodAffinity: required pod affinity and anti-affinity (the incoming pod's, and existing pods'
anti-affinity towards it) filter nodes; preferred terms, and existing pods' terms by symmetry, score
them (pkg/scheduler/framework/plugins/interpodaffinity: plugin.go, filtering.go, scoring.go).

matchLabelKeys/mismatchLabelKeys are not read here: the API server folds them into labelSelector at
pod creation, and the snapshot's PodInfo does the same for every pod.
"""

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.types import EMPTY, Pod
from scheduler_core.scheduler.cluster_events import ClusterEventWithHint, QueueingHint
from scheduler_core.scheduler.config import CONFIG_DOCUMENT
from scheduler_core.scheduler.framework import (
    SKIP,
    SUCCESS,
    CycleState,
    NodeScore,
    PodInfoLike,
    PreFilterResult,
    Status,
    error,
    unresolvable,
    unschedulable,
)
from scheduler_core.scheduler.plugins.inter_pod_affinity.counts import (
    Contribute,
    NodeGenerations,
    NodeSums,
    SumsCache,
    full_sums,
)
from scheduler_core.scheduler.plugins.inter_pod_affinity.events import (
    RequiredTermsByPod,
    after_node_change,
    after_pod_change,
    events_to_register,
)
from scheduler_core.scheduler.plugins.inter_pod_affinity.filtering import (
    PreFilterState,
    affinity_contribution,
    anti_affinity_contribution,
    existing_anti_affinity_contribution,
)
from scheduler_core.scheduler.plugins.inter_pod_affinity.scoring import PreScoreState, normalize, score_contribution
from scheduler_core.scheduler.plugins.inter_pod_affinity.terms import (
    pod_key,
    pod_parse_error,
    resolve_terms,
    resolve_weighted_terms,
)
from scheduler_core.scheduler.snapshot import NodeInfo, PodInfo, Snapshot
from scheduler_core.scheduler.window_filter import NodeDomains, WindowFilter, Wrap, reject_all

NAME = "InterPodAffinity"
PRE_FILTER_KEY = "PreFilter" + NAME
PRE_SCORE_KEY = "PreScore" + NAME
GENERATIONS_KEY = NAME + "/nodeGenerations"  # this engine's own: the node generations read this cycle
ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't satisfy existing pods anti-affinity rules"
ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules"
ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules"
# Filter's verdicts (one reason each); Status is immutable, so they are built once.
AFFINITY_REJECTED = unresolvable(ERR_REASON_AFFINITY_RULES_NOT_MATCH)
ANTI_AFFINITY_REJECTED = unschedulable(ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH)
EXISTING_ANTI_AFFINITY_REJECTED = unschedulable(ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH)
ARGS_PATH = "pluginConfig[InterPodAffinity].args"
DEFAULT_HARD_POD_AFFINITY_WEIGHT = 1  # v1 defaulting (SetDefaults_InterPodAffinityArgs)
MAX_HARD_POD_AFFINITY_WEIGHT = 100


def not_found(key: str) -> Status:
    """getPreFilterState/getPreScoreState when the state is missing (fwk.ErrNotFound)."""
    verb = "error reading" if key == PRE_FILTER_KEY else "failed to read"
    return error(f'{verb} "{key}" from cycleState: not found')


def _hard_pod_affinity_weight(args: Mapping[str, Any]) -> int:
    """ValidateHardPodAffinityWeight: 0..100."""
    weight = args.get("hardPodAffinityWeight", DEFAULT_HARD_POD_AFFINITY_WEIGHT)
    if isinstance(weight, bool) or not isinstance(weight, int):
        raise ManifestError(CONFIG_DOCUMENT, ARGS_PATH + ".hardPodAffinityWeight", "must be an integer")
    if not 0 <= weight <= MAX_HARD_POD_AFFINITY_WEIGHT:
        raise ManifestError(
            CONFIG_DOCUMENT,
            ARGS_PATH + ".hardPodAffinityWeight",
            f"Invalid value: {weight}: not in valid range [0-{MAX_HARD_POD_AFFINITY_WEIGHT}]",
        )
    return weight


def _has_preferred_terms(pod: Pod) -> bool:
    affinity = pod.spec.affinity
    if affinity is None:
        return False
    return bool(
        (affinity.pod_affinity is not None and affinity.pod_affinity.preferred)
        or (affinity.pod_anti_affinity is not None and affinity.pod_anti_affinity.preferred)
    )


class InterPodAffinity:
    name = NAME

    def __init__(self, args: Mapping[str, Any], handle: Any = None) -> None:
        self.handle = handle
        self.hard_pod_affinity_weight = _hard_pod_affinity_weight(args)
        ignore = args.get("ignorePreferredTermsOfExistingPods", False)
        if not isinstance(ignore, bool):
            raise ManifestError(CONFIG_DOCUMENT, ARGS_PATH + ".ignorePreferredTermsOfExistingPods", "must be a boolean")
        self.ignore_preferred_terms_of_existing_pods = ignore
        self._existing_anti_affinity = SumsCache()
        self._affinity = SumsCache()
        self._anti_affinity = SumsCache()
        self._scores = SumsCache()
        self._parsed: tuple[Pod, PodInfo, str | None] | None = None
        self._hint_terms = RequiredTermsByPod()

    # ------------------------------------------------------------------ helpers

    @property
    def _snapshot(self) -> Snapshot:
        snapshot: Snapshot = self.handle.snapshot
        return snapshot

    def _parse(self, pod: Pod) -> tuple[PodInfo, str | None]:
        """framework.NewPodInfo for the incoming pod; remembered for PreScore of the same cycle."""
        parsed = self._parsed
        if parsed is not None and parsed[0] is pod:
            return parsed[1], parsed[2]
        info = PodInfo(pod)
        problem = pod_parse_error(info)
        self._parsed = (pod, info, problem)
        return info, problem

    def _namespace_labels(self, pod: Pod) -> Mapping[str, str]:
        """GetNamespaceLabelsSnapshot: a namespace the scheduler does not know has no labels."""
        return self._snapshot.namespace_labels.get(pod.namespace) or EMPTY

    @staticmethod
    def _generations(state: CycleState, nodes: Sequence[NodeInfo], snapshot: Snapshot | None = None) -> NodeGenerations:
        """The node generations, read once per cycle: PreScore reuses what PreFilter read, as the
        snapshot stays the same for the whole scheduling cycle."""
        current: NodeGenerations | None = state.get(GENERATIONS_KEY)
        if current is None or current.nodes is not nodes:
            current = NodeGenerations(nodes, snapshot)
            state.write(GENERATIONS_KEY, current)
        return current

    @staticmethod
    def _sums(
        cache: SumsCache,
        signature: Hashable,
        nodes: Sequence[NodeInfo],
        current: NodeGenerations,
        contribute: Contribute,
    ) -> NodeSums:
        """The cached sums when ``nodes`` is the snapshot's list (the engine always passes it), else a full walk."""
        if current.nodes is nodes:
            return cache.sums(signature, current, contribute)
        return full_sums(nodes, contribute)

    # ------------------------------------------------------------------ EnqueueExtensions (events.py)

    def events_to_register(self) -> list[ClusterEventWithHint]:
        return events_to_register(self.is_schedulable_after_pod_change, self.is_schedulable_after_node_change)

    def is_schedulable_after_pod_change(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        return after_pod_change(pod, old, new, self._hint_terms)

    def is_schedulable_after_node_change(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        return after_node_change(pod, old, new, self._hint_terms)

    # ------------------------------------------------------------------ PreFilter / Filter

    def pre_filter(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[PreFilterResult | None, Status]:
        info, problem = self._parse(pod)
        if problem is not None:
            return None, unresolvable(f"parsing pod: {problem}")
        snapshot = self._snapshot
        namespaces = snapshot.namespace_labels
        affinity_terms = resolve_terms(info.required_affinity_terms, namespaces)
        anti_affinity_terms = resolve_terms(info.required_anti_affinity_terms, namespaces)
        namespace_labels = self._namespace_labels(pod)

        has_terms = bool(affinity_terms or anti_affinity_terms)
        existing: dict[tuple[str, str], int] = {}
        existing_keys: Iterable[str] = ()
        affinity: dict[tuple[str, str], int] = {}
        anti_affinity: dict[tuple[str, str], int] = {}
        # Without required terms of its own the pod only needs the counts if some pod has required
        # anti-affinity, which the snapshot's list answers without reading every node.
        if has_terms or snapshot.have_pods_with_required_anti_affinity():
            current = self._generations(state, snapshot.nodes(), snapshot)
            contribute = existing_anti_affinity_contribution(pod, namespace_labels)
            sums = self._existing_anti_affinity.sums(pod_key(pod, namespace_labels), current, contribute)
            existing, existing_keys = dict(sums.totals), sums.keys
            if affinity_terms:
                signature = tuple(term.key for term in affinity_terms)
                contribute = affinity_contribution(affinity_terms)
                affinity = dict(self._sums(self._affinity, signature, nodes, current, contribute).totals)
            if anti_affinity_terms:
                signature = tuple(term.key for term in anti_affinity_terms)
                contribute = anti_affinity_contribution(anti_affinity_terms)
                anti_affinity = dict(self._sums(self._anti_affinity, signature, nodes, current, contribute).totals)

        if not existing and not has_terms:
            return None, SKIP
        state.write(
            PRE_FILTER_KEY,
            PreFilterState(
                pod,
                namespace_labels,
                affinity_terms,
                anti_affinity_terms,
                existing,
                affinity,
                anti_affinity,
                existing_keys,
            ),
        )
        return None, SUCCESS

    def add_pod(self, state: CycleState, pod_to_schedule: Pod, pod_info_to_add: PodInfoLike, node: NodeInfo) -> Status:
        return self._update(state, pod_info_to_add, node, 1)

    def remove_pod(
        self, state: CycleState, pod_to_schedule: Pod, pod_info_to_remove: PodInfoLike, node: NodeInfo
    ) -> Status:
        return self._update(state, pod_info_to_remove, node, -1)

    def _update(self, state: CycleState, pod_info: PodInfoLike, node: NodeInfo, multiplier: int) -> Status:
        pre_filter: PreFilterState | None = state.get(PRE_FILTER_KEY)
        if pre_filter is None:
            return not_found(PRE_FILTER_KEY)
        info = pod_info if isinstance(pod_info, PodInfo) else PodInfo(pod_info.pod)
        pre_filter.update_with_pod(info, node.node, multiplier)
        return SUCCESS

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        pre_filter: PreFilterState | None = state.get(PRE_FILTER_KEY)
        if pre_filter is None:
            return not_found(PRE_FILTER_KEY)
        labels = node.node.labels
        # Each check is a no-op when its terms or counts are empty; testing that here saves a call per node.
        if pre_filter.affinity_terms and not pre_filter.satisfies_pod_affinity(labels):
            return AFFINITY_REJECTED  # preemption cannot help: UnschedulableAndUnresolvable
        if pre_filter.anti_affinity_counts and not pre_filter.satisfies_pod_anti_affinity(labels):
            return ANTI_AFFINITY_REJECTED
        if pre_filter.existing_anti_affinity_counts and not pre_filter.satisfies_existing_pods_anti_affinity(labels):
            return EXISTING_ANTI_AFFINITY_REJECTED
        return SUCCESS

    def window_filters(self, state: CycleState, domains: NodeDomains, wrap: Wrap) -> list[WindowFilter]:
        """Filter over a window of nodes (scheduler/window_filter.py)."""
        pre_filter = state.get(PRE_FILTER_KEY)
        if not isinstance(pre_filter, PreFilterState):
            return [reject_all(wrap(not_found(PRE_FILTER_KEY)))]
        return pre_filter.window_filters(
            domains, wrap(AFFINITY_REJECTED), wrap(ANTI_AFFINITY_REJECTED), wrap(EXISTING_ANTI_AFFINITY_REJECTED)
        )

    # ------------------------------------------------------------------ PreScore / Score

    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status:
        has_constraints = _has_preferred_terms(pod)
        if self.ignore_preferred_terms_of_existing_pods and not has_constraints:
            return SKIP
        snapshot = self._snapshot
        info, problem = self._parse(pod)
        if problem is not None:
            return error(f"failed to parse pod: {problem}")
        all_nodes = snapshot.nodes()
        # Unless the incoming pod has preferred terms, only pods with affinity can contribute. Whether
        # there are any is cheap to ask the snapshot when few pods have affinity, which is likely
        # when the incoming pod has none; otherwise the cache below finds out as fast.
        if not all_nodes or (not info.has_affinity and not snapshot.have_pods_with_affinity()):
            return SKIP
        namespaces = snapshot.namespace_labels
        preferred_affinity = resolve_weighted_terms(info.preferred_affinity_terms, namespaces)
        preferred_anti_affinity = resolve_weighted_terms(info.preferred_anti_affinity_terms, namespaces)
        namespace_labels = self._namespace_labels(pod)
        contribute = score_contribution(
            pod,
            namespace_labels,
            preferred_affinity,
            preferred_anti_affinity,
            self.hard_pod_affinity_weight,
            has_constraints,
        )
        # Walking every node gives the same sums (nodes without pods with affinity add nothing) and
        # lets the cache follow one stable node list.
        signature = (
            pod_key(pod, namespace_labels),
            tuple(term.key for term in preferred_affinity),
            tuple(term.key for term in preferred_anti_affinity),
            has_constraints,
        )
        sums = self._scores.sums(signature, self._generations(state, all_nodes, snapshot), contribute)
        if not sums.contributing:
            return SKIP
        state.write(PRE_SCORE_KEY, PreScoreState(dict(sums.totals), tuple(sums.keys)))
        return SUCCESS

    def score(self, state: CycleState, pod: Pod, node: NodeInfo) -> tuple[int, Status]:
        pre_score: PreScoreState | None = state.get(PRE_SCORE_KEY)
        if pre_score is None:
            return 0, not_found(PRE_SCORE_KEY)
        # The sum, over the topology keys scored, of the weight for the node's own value (inlined:
        # this runs for every feasible node).
        labels = node.node.labels
        topology_score = pre_score.topology_score
        total = 0
        for key in pre_score.keys:
            value = labels.get(key)
            if value is not None:
                total += topology_score.get((key, value), 0)
        return total, SUCCESS

    def normalize_score(self, state: CycleState, pod: Pod, scores: list[NodeScore]) -> Status:
        pre_score: PreScoreState | None = state.get(PRE_SCORE_KEY)
        if pre_score is None:
            return not_found(PRE_SCORE_KEY)
        if pre_score.keys:
            normalize(scores)
        return SUCCESS
