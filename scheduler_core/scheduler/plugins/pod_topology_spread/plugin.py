"""PodTopologySpread: DoNotSchedule constraints filter nodes by skew; ScheduleAnyway constraints
(or the default constraints) prefer nodes whose domains hold fewer matching pods
(pkg/scheduler/framework/plugins/podtopologyspread: plugin.go, filtering.go, scoring.go)."""

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.fields import Fields
from scheduler_core.api.types import Pod, TopologySpreadConstraint
from scheduler_core.api.validation import qualified_name_problem
from scheduler_core.scheduler.cluster_events import ClusterEventWithHint, QueueingHint
from scheduler_core.scheduler.config import CONFIG_DOCUMENT
from scheduler_core.scheduler.framework import (
    MAX_NODE_SCORE,
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
from scheduler_core.scheduler.plugins.node_affinity import required_node_affinity
from scheduler_core.scheduler.plugins.pod_topology_spread.common import (
    DO_NOT_SCHEDULE,
    HOSTNAME_LABEL,
    SCHEDULE_ANYWAY,
    ZONE_LABEL,
    SpreadConstraint,
    default_selector,
    node_has_keys,
    passes_inclusion_policies,
    spread_constraints,
)
from scheduler_core.scheduler.plugins.pod_topology_spread.counts import DomainCountsCache
from scheduler_core.scheduler.plugins.pod_topology_spread.events import (
    HardConstraints,
    HardConstraintsByPod,
    after_node_change,
    after_pod_change,
    events_to_register,
)
from scheduler_core.scheduler.plugins.pod_topology_spread.filtering import HardConstraint, PreFilterState
from scheduler_core.scheduler.plugins.pod_topology_spread.scoring import (
    PreScoreState,
    SoftConstraint,
    round_half_away,
    topology_normalizing_weight,
)
from scheduler_core.scheduler.runtime import Handle
from scheduler_core.scheduler.snapshot import NodeInfo
from scheduler_core.scheduler.window_filter import NodeDomains, WindowFilter, Wrap, reject_all, reject_missing_or_above

NAME = "PodTopologySpread"
PRE_FILTER_KEY = "PreFilter" + NAME
PRE_SCORE_KEY = "PreScore" + NAME
ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints"
ERR_REASON_NODE_LABEL_NOT_MATCH = ERR_REASON_CONSTRAINTS_NOT_MATCH + " (missing required label)"
SYSTEM_DEFAULTING = "System"
LIST_DEFAULTING = "List"

# plugin.go systemDefaultConstraints: both ScheduleAnyway, so they only ever affect scoring.
SYSTEM_DEFAULT_CONSTRAINTS = (
    TopologySpreadConstraint(max_skew=3, topology_key=HOSTNAME_LABEL, when_unsatisfiable=SCHEDULE_ANYWAY),
    TopologySpreadConstraint(max_skew=5, topology_key=ZONE_LABEL, when_unsatisfiable=SCHEDULE_ANYWAY),
)

_ARGS_PATH = "pluginConfig[PodTopologySpread].args"
_DOCUMENT = CONFIG_DOCUMENT
NODE_LABEL_NOT_MATCH = unresolvable(ERR_REASON_NODE_LABEL_NOT_MATCH)
CONSTRAINTS_NOT_MATCH = unschedulable(ERR_REASON_CONSTRAINTS_NOT_MATCH)


def _default_constraint(item: Fields) -> TopologySpreadConstraint:
    """One of args.defaultConstraints, checked as ValidatePodTopologySpreadArgs checks it (which,
    unlike the API server's pod validation, leaves minDomains alone)."""
    item.reject_unknown(
        {
            "maxSkew", "topologyKey", "whenUnsatisfiable", "labelSelector", "minDomains",
            "nodeAffinityPolicy", "nodeTaintsPolicy", "matchLabelKeys",
        }
    )  # fmt: skip
    max_skew = item.int32("maxSkew", "TopologySpreadConstraint", 0) or 0
    if max_skew <= 0:
        raise item.error("maxSkew", f"Invalid value: {max_skew}: not in valid range (0, inf)")
    topology_key = item.string("topologyKey")
    if not topology_key:
        raise item.error("topologyKey", "Required value: can not be empty")
    problem = qualified_name_problem(topology_key)
    if problem:
        raise item.error("topologyKey", f'Invalid value: "{topology_key}": {problem}')
    when = item.one_of("whenUnsatisfiable", (DO_NOT_SCHEDULE, SCHEDULE_ANYWAY))
    if when is None:
        raise item.error(
            "whenUnsatisfiable", f'Unsupported value: "": supported values: "{DO_NOT_SCHEDULE}", "{SCHEDULE_ANYWAY}"'
        )
    if item.has("labelSelector"):
        raise item.error(
            "labelSelector", "Forbidden: constraint must not define a selector, as they deduced for each pod"
        )
    return TopologySpreadConstraint(
        max_skew=max_skew,
        topology_key=topology_key,
        when_unsatisfiable=when,
        min_domains=item.int32("minDomains", "TopologySpreadConstraint"),
        node_affinity_policy=item.one_of("nodeAffinityPolicy", ("Honor", "Ignore")),
        node_taints_policy=item.one_of("nodeTaintsPolicy", ("Honor", "Ignore")),
        match_label_keys=item.strings("matchLabelKeys"),
    )


def parse_args(args: Mapping[str, Any]) -> tuple[tuple[TopologySpreadConstraint, ...], bool]:
    """PodTopologySpreadArgs (v1 defaults defaultingType to System), validated as upstream does:
    (the default constraints, whether they are the system defaults)."""
    defaulting = args.get("defaultingType") or SYSTEM_DEFAULTING
    if defaulting not in (SYSTEM_DEFAULTING, LIST_DEFAULTING):
        raise ManifestError(
            _DOCUMENT,
            f"{_ARGS_PATH}.defaultingType",
            f'Unsupported value: "{defaulting}": supported values: "{SYSTEM_DEFAULTING}", "{LIST_DEFAULTING}"',
        )
    constraints: list[TopologySpreadConstraint] = []
    seen: set[tuple[str, str]] = set()
    for item in Fields(args, _ARGS_PATH, _DOCUMENT).objects("defaultConstraints"):
        constraint = _default_constraint(item)
        pair = (constraint.topology_key, constraint.when_unsatisfiable)
        if pair in seen:
            raise item.error_here(f'Duplicate value: "{{{pair[0]}, {pair[1]}}}"')
        seen.add(pair)
        constraints.append(constraint)
    if defaulting == SYSTEM_DEFAULTING:
        if constraints:
            raise ManifestError(
                _DOCUMENT,
                f"{_ARGS_PATH}.defaultingType",
                'Invalid value: "System": when .defaultingType is "System", .defaultConstraints must be empty',
            )
        return SYSTEM_DEFAULT_CONSTRAINTS, True
    return tuple(constraints), False


def _values_of(label_maps: list[Mapping[str, str]], constraint: SpreadConstraint) -> Iterator[str]:
    key = constraint.topology_key
    return (labels.get(key, "") for labels in label_maps)


def _includes_every_node(constraint: SpreadConstraint, affinity_trivial: bool) -> bool:
    """Whether the inclusion policies let every node in, so the cached per-domain totals apply as they are."""
    return (affinity_trivial or not constraint.honor_node_affinity) and not constraint.honor_node_taints


# The CycleState read errors upstream wraps (getPreFilterState, getPreScoreState).
PRE_FILTER_STATE_NOT_FOUND = error(f'reading "{PRE_FILTER_KEY}" from cycleState: not found')
_PRE_SCORE_STATE_NOT_FOUND = error(f'error reading "{PRE_SCORE_KEY}" from cycleState: not found')


# ---------------------------------------------------------------------------- the plugin


class PodTopologySpread:
    name = NAME

    def __init__(self, args: Mapping[str, Any], handle: Handle | None = None) -> None:
        self.handle = handle if handle is not None else Handle()
        defaults, self.system_defaulted = parse_args(args)
        # The default constraints split by action once; each pod gets them with its own selector.
        self._hard_defaults = spread_constraints(defaults, {}, DO_NOT_SCHEDULE)
        self._soft_defaults = spread_constraints(defaults, {}, SCHEDULE_ANYWAY)
        self._counts = DomainCountsCache()
        self._hint_constraints = HardConstraintsByPod()

    def _constraints(self, pod: Pod, action: str) -> list[SpreadConstraint]:
        """getConstraints: the pod's own constraints with this action, else the default ones, which
        need a selector deduced from the pod's Services and controller (none deduced: no constraints)."""
        if pod.spec.topology_spread_constraints:
            return spread_constraints(pod.spec.topology_spread_constraints, pod.labels, action)
        defaults = self._hard_defaults if action == DO_NOT_SCHEDULE else self._soft_defaults
        if not defaults:
            return []
        selector = default_selector(pod, self.handle.selector_sources)
        if selector.is_empty:
            return []
        return [constraint.with_selector(selector) for constraint in defaults]

    # ------------------------------------------------------------------ EnqueueExtensions (events.py)

    def events_to_register(self) -> list[ClusterEventWithHint]:
        return events_to_register(self.is_schedulable_after_pod_change, self.is_schedulable_after_node_change)

    def is_schedulable_after_pod_change(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        return after_pod_change(pod, old, new, self._hard_constraints)

    def is_schedulable_after_node_change(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        return after_node_change(pod, old, new, self._hard_constraints)

    def _hard_constraints(self, pod: Pod) -> HardConstraints:
        """getConstraints(pod) as the hints read it, kept per pod version."""
        return self._hint_constraints.get(pod, self.handle.selector_sources, self._hard_constraint_list)

    def _hard_constraint_list(self, pod: Pod) -> list[SpreadConstraint]:
        return self._constraints(pod, DO_NOT_SCHEDULE)

    # ------------------------------------------------------------------ PreFilter

    def pre_filter(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[PreFilterResult | None, Status]:
        constraints = self._constraints(pod, DO_NOT_SCHEDULE)
        if not constraints:
            return None, SKIP
        # A node takes part only if it has every constraint's key; then each constraint's policies apply.
        keys = tuple(c.topology_key for c in constraints)
        required = required_node_affinity(pod)
        affinity_trivial = not required.node_selector and required.required is None
        tolerations = pod.spec.tolerations
        hard = []
        for constraint in constraints:
            counted = self._counts.get(nodes, pod.namespace, constraint, keys, self.handle.snapshot)
            if _includes_every_node(constraint, affinity_trivial):
                per_domain = dict(counted.totals)
            else:
                per_domain = {}
                for node, domain, count in zip(counted.nodes, counted.domains, counted.counts, strict=True):
                    if domain is not None and passes_inclusion_policies(constraint, node, required, tolerations):
                        per_domain[domain] = per_domain.get(domain, 0) + count
            hard.append(HardConstraint(constraint, per_domain, 1 if constraint.matches(pod.labels) else 0))
        state.write(PRE_FILTER_KEY, PreFilterState(hard))
        return None, SUCCESS

    # ------------------------------------------------------------------ PreFilterExtensions

    def add_pod(self, state: CycleState, pod_to_schedule: Pod, pod_info_to_add: PodInfoLike, node: NodeInfo) -> Status:
        return self._update_with_pod(state, pod_info_to_add.pod, pod_to_schedule, node, 1)

    def remove_pod(
        self, state: CycleState, pod_to_schedule: Pod, pod_info_to_remove: PodInfoLike, node: NodeInfo
    ) -> Status:
        return self._update_with_pod(state, pod_info_to_remove.pod, pod_to_schedule, node, -1)

    def _update_with_pod(self, state: CycleState, updated: Pod, preemptor: Pod, node: NodeInfo, delta: int) -> Status:
        """updateWithPod: a pod of the preemptor's namespace on an eligible node moves its domain's
        count. Unlike PreFilter's counting, an empty selector matches here and terminating pods count."""
        s: PreFilterState | None = state.get(PRE_FILTER_KEY)
        if s is None:
            return PRE_FILTER_STATE_NOT_FOUND
        if updated.namespace != preemptor.namespace:
            return SUCCESS
        labels = node.node.metadata.labels
        if not node_has_keys(labels, s.keys):
            return SUCCESS
        required = required_node_affinity(preemptor)
        for hard in s.constraints:
            constraint = hard.constraint
            if not constraint.matches(updated.labels):
                continue
            if not passes_inclusion_policies(constraint, node, required, preemptor.spec.tolerations):
                continue
            hard.add(labels[hard.topology_key], delta)
        return SUCCESS

    # ------------------------------------------------------------------ Filter

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        s: PreFilterState | None = state.get(PRE_FILTER_KEY)
        if s is None:
            return PRE_FILTER_STATE_NOT_FOUND
        labels = node.node.metadata.labels
        for hard in s.constraints:
            value = labels.get(hard.topology_key)
            if value is None:
                return NODE_LABEL_NOT_MATCH
            if hard.counts.get(value, 0) > hard.skew_limit():
                return CONSTRAINTS_NOT_MATCH
        return SUCCESS

    def window_filters(self, state: CycleState, domains: NodeDomains, wrap: Wrap) -> list[WindowFilter]:
        """Filter over a window of nodes (scheduler/window_filter.py): per constraint in turn, the
        node must have the topology key and its domain stay within the skew limit."""
        s = state.get(PRE_FILTER_KEY)
        if not isinstance(s, PreFilterState):
            return [reject_all(wrap(PRE_FILTER_STATE_NOT_FOUND))]
        missing, skewed = wrap(NODE_LABEL_NOT_MATCH), wrap(CONSTRAINTS_NOT_MATCH)
        return [
            reject_missing_or_above(domains.values(hard.topology_key), hard.counts, hard.skew_limit(), missing, skewed)
            for hard in s.constraints
        ]

    # ------------------------------------------------------------------ PreScore

    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status:
        all_nodes = self.handle.snapshot.nodes()
        if not all_nodes:
            return SKIP
        constraints = self._constraints(pod, SCHEDULE_ANYWAY)
        if not constraints:
            return SKIP
        # Only system-defaulted pods may score nodes lacking a key: hostname spreading without zones.
        require_all = bool(pod.spec.topology_spread_constraints) or not self.system_defaulted
        keys = tuple(c.topology_key for c in constraints)
        ignored: set[str] = set()
        label_maps = [node.node.metadata.labels for node in nodes]
        if require_all:
            ignored = {
                node.name for node, labels in zip(nodes, label_maps, strict=True) if not node_has_keys(labels, keys)
            }
            if ignored:
                label_maps = [
                    labels for node, labels in zip(nodes, label_maps, strict=True) if node.name not in ignored
                ]
        # Each constraint's domains among the scored nodes, in the order the nodes hold them.
        registered: list[dict[str, int]] = [
            {} if constraint.topology_key == HOSTNAME_LABEL else dict.fromkeys(_values_of(label_maps, constraint), 0)
            for constraint in constraints
        ]

        required = required_node_affinity(pod)
        affinity_trivial = not required.node_selector and required.required is None
        tolerations = pod.spec.tolerations
        soft = []
        for constraint, domains in zip(constraints, registered, strict=True):
            if constraint.topology_key == HOSTNAME_LABEL:
                size = len(nodes) - len(ignored)
                per_node = self._counts.get(all_nodes, pod.namespace, constraint, (), self.handle.snapshot)
                soft.append(SoftConstraint(constraint, None, topology_normalizing_weight(size), per_node))
                continue
            # Count over all nodes, but only into domains that some filtered node holds.
            counted = self._counts.get(
                all_nodes, pod.namespace, constraint, keys if require_all else (), self.handle.snapshot
            )
            if _includes_every_node(constraint, affinity_trivial):
                totals = counted.totals
                for value in domains:
                    domains[value] = totals.get(value, 0)
            else:
                for node, domain, count in zip(counted.nodes, counted.domains, counted.counts, strict=True):
                    if (
                        domain is not None
                        and domain in domains
                        and passes_inclusion_policies(constraint, node, required, tolerations)
                    ):
                        domains[domain] += count
            soft.append(SoftConstraint(constraint, domains, topology_normalizing_weight(len(domains))))
        state.write(PRE_SCORE_KEY, PreScoreState(soft, ignored, pod.namespace))
        return SUCCESS

    # ------------------------------------------------------------------ Score

    def score(self, state: CycleState, pod: Pod, node: NodeInfo) -> tuple[int, Status]:
        s: PreScoreState | None = state.get(PRE_SCORE_KEY)
        if s is None:
            return 0, _PRE_SCORE_STATE_NOT_FOUND
        if node.name in s.ignored_nodes:
            return 0, SUCCESS
        labels = node.node.metadata.labels
        total = 0.0
        for soft in s.constraints:
            value = labels.get(soft.topology_key)
            if value is None:
                continue
            counts = soft.counts
            matching = soft.count_on(node, s.namespace) if counts is None else counts.get(value, 0)
            total += matching * soft.weight + soft.bonus
        return round_half_away(total), SUCCESS

    def score_nodes(self, state: CycleState, nodes: Sequence[NodeInfo]) -> list[int] | None:
        """Score on every node at once (None without the PreScore state): the same sums, added in
        the same order, so the same rounded numbers, without a call per node."""
        s: PreScoreState | None = state.get(PRE_SCORE_KEY)
        if s is None:
            return None
        totals = [0.0] * len(nodes)
        label_maps = [node.node.metadata.labels for node in nodes]
        for soft in s.constraints:
            key, weight, bonus, counts = soft.topology_key, soft.weight, soft.bonus, soft.counts
            if counts is None:  # kubernetes.io/hostname: each node's own pods
                per_node = soft.counts_on(nodes, s.namespace)
                for position, labels in enumerate(label_maps):
                    if key in labels:
                        totals[position] += per_node[position] * weight + bonus
                continue
            for position, labels in enumerate(label_maps):
                value = labels.get(key)
                if value is not None:
                    totals[position] += counts.get(value, 0) * weight + bonus
        ignored = s.ignored_nodes
        return [
            0 if ignored and node.name in ignored else round_half_away(total)
            for node, total in zip(nodes, totals, strict=True)
        ]

    def normalize_column(self, state: CycleState, nodes: Sequence[NodeInfo], raw: list[int]) -> list[int] | None:
        """normalize_score on a column of scores (score_nodes' order), without a NodeScore per node:
        the same numbers (None without the PreScore state)."""
        s: PreScoreState | None = state.get(PRE_SCORE_KEY)
        if s is None:
            return None
        ignored = s.ignored_nodes
        kept = [score for node, score in zip(nodes, raw, strict=True) if node.name not in ignored] if ignored else raw
        lowest = min(kept, default=2**63 - 1)
        highest = max(kept, default=0)
        if highest == 0:
            column = [MAX_NODE_SCORE] * len(raw)
        else:
            top = highest + lowest
            column = [MAX_NODE_SCORE * (top - score) // highest for score in raw]
        if ignored:
            for position, node in enumerate(nodes):
                if node.name in ignored:
                    column[position] = 0
        return column

    def normalize_score(self, state: CycleState, pod: Pod, scores: list[NodeScore]) -> Status:
        """Fewer matching pods score higher; ignored nodes get 0 and stay out of min and max."""
        s: PreScoreState | None = state.get(PRE_SCORE_KEY)
        if s is None:
            return _PRE_SCORE_STATE_NOT_FOUND
        ignored = s.ignored_nodes
        lowest = 2**63 - 1
        highest = 0
        for entry in scores:
            if entry.name in ignored:
                continue
            lowest = min(lowest, entry.score)
            highest = max(highest, entry.score)
        for entry in scores:
            if entry.name in ignored:
                entry.score = 0
            elif highest == 0:
                entry.score = MAX_NODE_SCORE
            else:
                entry.score = MAX_NODE_SCORE * (highest + lowest - entry.score) // highest
        return SUCCESS
