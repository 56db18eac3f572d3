"""PodTopologySpread's shared pieces: a pod's constraints as the plugin uses them, the default
selector, node inclusion policies, counting matching pods and the critical paths
(podtopologyspread/common.go and filtering.go, plugins/helper/spread.go)."""

from collections.abc import Iterable, Mapping, Sequence

from scheduler_core.api.selectors import label_selector_matches, requirement_matches
from scheduler_core.api.types import (
    NO_EXECUTE,
    NO_SCHEDULE,
    LabelSelector,
    LabelSelectorRequirement,
    Pod,
    Toleration,
    TopologySpreadConstraint,
    tolerates_taint,
)
from scheduler_core.scheduler.plugins.node_affinity import RequiredNodeAffinity
from scheduler_core.scheduler.selector_source import SelectorSource
from scheduler_core.scheduler.snapshot import NodeInfo, PodInfo

HOSTNAME_LABEL = "kubernetes.io/hostname"
ZONE_LABEL = "topology.kubernetes.io/zone"
DO_NOT_SCHEDULE = "DoNotSchedule"
SCHEDULE_ANYWAY = "ScheduleAnyway"
MAX_INT32 = 2**31 - 1

# A hashable stand-in for a selector, for caching counts: None is the nil selector.
SelectorKey = tuple[tuple[tuple[str, str], ...], tuple[LabelSelectorRequirement, ...]] | None


class SpreadConstraint:
    """topologySpreadConstraint: a constraint with its selector resolved and its defaults applied."""

    __slots__ = (
        "counts_nothing",
        "honor_node_affinity",
        "honor_node_taints",
        "max_skew",
        "min_domains",
        "selector",
        "selector_key",
        "topology_key",
    )

    def __init__(
        self,
        max_skew: int,
        topology_key: str,
        selector: LabelSelector | None,
        min_domains: int = 1,
        honor_node_affinity: bool = True,
        honor_node_taints: bool = False,
    ) -> None:
        self.max_skew = max_skew
        self.topology_key = topology_key
        self.selector = selector  # None (nil) selects nothing; {} selects everything
        self.min_domains = min_domains
        self.honor_node_affinity = honor_node_affinity
        self.honor_node_taints = honor_node_taints
        # countPodsMatchSelector counts nothing for an empty selector although it matches every pod.
        self.counts_nothing = selector is None or selector.is_empty
        self.selector_key: SelectorKey = (
            None if selector is None else (tuple(sorted(selector.match_labels.items())), selector.match_expressions)
        )

    def matches(self, labels: Mapping[str, str]) -> bool:
        return label_selector_matches(self.selector, labels)

    def with_selector(self, selector: LabelSelector) -> "SpreadConstraint":
        return SpreadConstraint(
            self.max_skew,
            self.topology_key,
            selector,
            self.min_domains,
            self.honor_node_affinity,
            self.honor_node_taints,
        )


def _with_label_values(pairs: Mapping[str, str], selector: LabelSelector) -> LabelSelector:
    """mergeLabelSetWithSelector: the pod's key=value pairs ANDed with the original requirements."""
    kept = tuple(LabelSelectorRequirement(key, "In", (value,)) for key, value in selector.match_labels.items())
    return LabelSelector(dict(pairs), kept + selector.match_expressions)


def spread_constraints(
    constraints: Iterable[TopologySpreadConstraint], pod_labels: Mapping[str, str], action: str
) -> list[SpreadConstraint]:
    """filterTopologySpreadConstraints: the constraints with the given whenUnsatisfiable.

    matchLabelKeys (MatchLabelKeysInPodTopologySpread, on in v1.34) adds the pod's own values of those
    keys; keys the pod lacks are skipped, and a nil selector stays nil. Both inclusion policies are read
    (NodeInclusionPolicyInPodTopologySpread is GA): nodeAffinityPolicy defaults to Honor,
    nodeTaintsPolicy to Ignore.
    """
    result = []
    for constraint in constraints:
        if constraint.when_unsatisfiable != action:
            continue
        selector = constraint.label_selector
        if constraint.match_label_keys and selector is not None:
            pairs = {key: pod_labels[key] for key in constraint.match_label_keys if key in pod_labels}
            if pairs:
                selector = _with_label_values(pairs, selector)
        result.append(
            SpreadConstraint(
                constraint.max_skew,
                constraint.topology_key,
                selector,
                constraint.min_domains if constraint.min_domains is not None else 1,
                constraint.node_affinity_policy != "Ignore",
                constraint.node_taints_policy == "Honor",
            )
        )
    return result


# ---------------------------------------------------------------------------- default selector

_REPLICATION_CONTROLLER = ("", "v1", "ReplicationController")
_REPLICA_SET = ("apps", "v1", "ReplicaSet")
_STATEFUL_SET = ("apps", "v1", "StatefulSet")


def _group_version_kind(api_version: str, kind: str) -> tuple[str, str, str] | None:
    """schema.ParseGroupVersion, then WithKind; None where the apiVersion does not parse."""
    if not api_version:
        return "", "", kind
    parts = api_version.split("/")
    if len(parts) == 1:
        return "", parts[0], kind
    if len(parts) == 2:
        return parts[0], parts[1], kind
    return None


def _find(sources: Sequence[SelectorSource], kind: str, namespace: str, name: str) -> SelectorSource | None:
    for source in sources:
        if source.kind == kind and source.namespace == namespace and source.name == name:
            return source
    return None


def default_selector(pod: Pod, sources: Sequence[SelectorSource]) -> LabelSelector:
    """helper.DefaultSelector: the selectors of the pod's Services merged, plus its controller's.

    Services in the pod's namespace whose selector matches the pod contribute their label maps (a nil
    selector matches nothing). The controller owner contributes when it is a ReplicationController
    (its label map, merged over the Services'), or a ReplicaSet or StatefulSet (its requirements, ANDed),
    and only if that object exists; a nil ReplicaSet selector adds nothing.
    """
    labels: dict[str, str] = {}
    namespace = pod.namespace
    for source in sources:
        if (
            source.kind == "Service"
            and source.namespace == namespace
            and source.selector is not None
            and label_selector_matches(source.selector, pod.labels)
        ):
            labels.update(source.selector.match_labels)
    owner = pod.metadata.controller_ref()
    extra: tuple[LabelSelectorRequirement, ...] = ()
    if owner is not None:
        kind = _group_version_kind(owner.api_version, owner.kind)
        if kind == _REPLICATION_CONTROLLER:
            found = _find(sources, "ReplicationController", namespace, owner.name)
            if found is not None and found.selector is not None:
                labels.update(found.selector.match_labels)
        elif kind in (_REPLICA_SET, _STATEFUL_SET):
            found = _find(sources, owner.kind, namespace, owner.name)
            if found is not None and found.selector is not None:
                extra = (
                    tuple(LabelSelectorRequirement(k, "In", (v,)) for k, v in found.selector.match_labels.items())
                    + found.selector.match_expressions
                )
    return LabelSelector(labels, extra)


# ---------------------------------------------------------------------------- nodes and pods


def node_has_keys(labels: Mapping[str, str], keys: Sequence[str]) -> bool:
    """nodeLabelsMatchSpreadConstraints: every topology key is a label of the node."""
    return all(map(labels.__contains__, keys))


def passes_inclusion_policies(
    constraint: SpreadConstraint,
    node: NodeInfo,
    required: RequiredNodeAffinity,
    tolerations: tuple[Toleration, ...],
) -> bool:
    """matchNodeInclusionPolicies: Honor node affinity means the pod's nodeSelector and required
    affinity; Honor taints means no NoSchedule/NoExecute taint the pod does not tolerate."""
    if constraint.honor_node_affinity and not required.matches(node):
        return False
    if constraint.honor_node_taints:
        for taint in node.node.spec.taints:
            if taint.effect in (NO_SCHEDULE, NO_EXECUTE) and not tolerates_taint(tolerations, taint):
                return False
    return True


def count_matching_pods(pods: Sequence[PodInfo], constraint: SpreadConstraint, namespace: str) -> int:
    """countPodsMatchSelector: pods of the namespace, not terminating, matching the selector.
    The selector's labels are compared in place (an explanation's first spread pod counts all
    50,000 pods of the scenario limit); its expressions, rarer, through requirement_matches."""
    selector = constraint.selector
    if constraint.counts_nothing or not pods or selector is None:
        return 0
    wanted = tuple(selector.match_labels.items())
    expressions = selector.match_expressions
    count = 0
    for info in pods:
        meta = info.pod.metadata
        if meta.deletion_timestamp is not None or meta.namespace != namespace:
            continue
        labels = meta.labels
        for key, value in wanted:
            if labels.get(key) != value:
                break
        else:
            if not expressions or all(requirement_matches(requirement, labels) for requirement in expressions):
                count += 1
    return count


# ---------------------------------------------------------------------------- critical paths


class CriticalPaths:
    """criticalPaths: two domains with few matching pods; the first always holds the minimum.

    The second is not guaranteed to be the runner-up after updates: upstream relies on preemption
    changing pods on one node at a time, and this keeps that exact behaviour.
    """

    __slots__ = ("count0", "count1", "value0", "value1")

    def __init__(self) -> None:
        self.value0 = ""
        self.count0 = MAX_INT32
        self.value1 = ""
        self.count1 = MAX_INT32

    @classmethod
    def of(cls, counts: Mapping[str, int]) -> "CriticalPaths":
        paths = cls()
        for value, count in counts.items():
            paths.update(value, count)
        return paths

    def copy(self) -> "CriticalPaths":
        paths = CriticalPaths()
        paths.value0, paths.count0, paths.value1, paths.count1 = self.value0, self.count0, self.value1, self.count1
        return paths

    def update(self, value: str, count: int) -> None:
        if value == self.value0 or value == self.value1:
            if value == self.value0:
                self.count0 = count
            else:
                self.count1 = count
            if self.count0 > self.count1:
                self.value0, self.count0, self.value1, self.count1 = self.value1, self.count1, self.value0, self.count0
        elif count < self.count0:
            self.value1, self.count1 = self.value0, self.count0
            self.value0, self.count0 = value, count
        elif count < self.count1:
            self.value1, self.count1 = value, count
