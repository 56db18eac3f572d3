"""The smallest fixes for a Pending pod, each verified by scheduling the pod again with it applied.

Candidates come from each rejected node's diagnosis (the plugin that rejected it and its reasons),
one change at a time:

- TaintToleration: a toleration for that exact taint; or the taint removed from the node.
- NodeUnschedulable: the node uncordoned.
- NodeAffinity: the nodeSelector value changed to one the nodes have, the key or the failing
  requirement removed, a value added to an In requirement; or the missing label put on the node.
- NodeResourcesFit: the request lowered to what a node has left; or a new node with the capacity.
- NodePorts: the hostPort moved to one free on every node.
- PodTopologySpread: the constraint's maxSkew plus one, or whenUnsatisfiable: ScheduleAnyway.
- InterPodAffinity: the pod's own required (anti-)affinity term made preferred.
- VolumeBinding: a PersistentVolume for the claim, usable from the node.

A candidate is never trusted: it is applied to a copy of the scheduling inputs and the pod is
scheduled again, with the explanation's own seed and the scheduler in the state the explanation saw
(the earlier pods scheduled again too when a node changes, since they might now land elsewhere).
Only candidates after which the scheduler selects a node are returned, with that node and the nodes
that fit. Node filters stop at the first plugin that rejects a node, so a change that clears one
rejection may meet the next: verification tells, and such candidates are dropped.

Order: changes to the pod (one field) before changes to existing nodes, before new objects; then
the plugin that rejected the most nodes first; then the order the candidates were made in.
"""

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import yaml

from scheduler_core.api.manifests import Manifest
from scheduler_core.api.quantity import format_quantity
from scheduler_core.api.selectors import NODE_NAME_FIELD, requirement_matches
from scheduler_core.api.types import (
    CPU,
    NO_EXECUTE,
    NO_SCHEDULE,
    PODS,
    Affinity,
    Container,
    ContainerPort,
    LabelSelector,
    Node,
    NodeAffinity,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    ObjectMeta,
    Pod,
    PodAffinity,
    PodAffinityTerm,
    ResourceRequirements,
    Taint,
    Toleration,
    TopologySpreadConstraint,
    WeightedPodAffinityTerm,
    tolerates_taint,
)
from scheduler_core.api.volumes import claim_class
from scheduler_core.api.workloads import PersistentVolume, PersistentVolumeClaim, PersistentVolumeSpec
from scheduler_core.explain.inputs import SchedulingInputs, build_scheduler
from scheduler_core.scheduler.framework import CycleState, SchedulingError, Status
from scheduler_core.scheduler.plugins.inter_pod_affinity import (
    ERR_REASON_AFFINITY_RULES_NOT_MATCH,
    ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
)
from scheduler_core.scheduler.plugins.node_affinity import ERR_REASON_ENFORCED
from scheduler_core.scheduler.plugins.node_ports import conflicts, pod_host_ports
from scheduler_core.scheduler.plugins.node_resources_fit import TOO_MANY_PODS
from scheduler_core.scheduler.plugins.volume_binding import ERR_REASON_BIND_CONFLICT
from scheduler_core.scheduler.resources import is_pod_level_resource, pod_requests
from scheduler_core.scheduler.runtime import Framework
from scheduler_core.scheduler.schedule_one import Diagnosis, Scheduler, ScheduleResult
from scheduler_core.scheduler.snapshot import DEFAULT_BIND_ALL_HOST_IP, NodeInfo, Snapshot

# Fix kinds.
ADD_TOLERATION = "add-toleration"
REMOVE_TAINT = "remove-taint"
UNCORDON = "uncordon"
CHANGE_NODE_SELECTOR = "change-node-selector"
RELAX_NODE_SELECTOR = "relax-node-selector"
RELAX_AFFINITY_TERM = "relax-affinity-term"
LABEL_NODE = "label-node"
LOWER_REQUEST = "lower-request"
ADD_NODE = "add-node"
FREE_HOST_PORT = "free-host-port"
RELAX_SPREAD = "relax-spread"
ADD_VOLUME = "add-volume"

DEFAULT_LIMIT = 5
# The work allowed, in scheduling attempts, whatever comes out of it: a what-if changing only the pod
# costs one; any other costs a rebuild of the scheduler (counted as one) plus replaying the earlier
# pods and the pod's attempt. About 60 attempts take 0.1-0.3 s on 100 nodes.
BUDGET = 60
MAX_ALTERNATIVES = 3  # tries of one change (on other nodes, with other values) before giving up on it
MAX_PER_KIND = 2  # fixes of one kind kept, so that the few shown differ
HOSTNAME_LABEL = "kubernetes.io/hostname"
MEBIBYTE = 1024 * 1024
MAX_PORT = 65535

# Scopes, in the order fixes are offered: the pod itself, existing nodes, new objects.
_POD, _NODES, _NEW = 0, 1, 2

PodChange = Callable[[Pod], Pod]
NodeChange = Callable[[Node], Node]


@dataclass(frozen=True, slots=True)
class Fix:
    """One change that makes the pod schedulable, as verified: the pod then fits on ``feasible_nodes``
    and the scheduler picks ``selected``."""

    kind: str
    description: str  # a plain-language sentence
    yaml: str  # the change, as the YAML to write into the object
    target: str  # the object changed: "Pod shop/big", "Node worker-1", "new Node worker-5"
    feasible_nodes: tuple[str, ...]
    selected: str
    command: str = ""  # the kubectl command doing it, for changes to nodes
    pod_change: PodChange | None = field(default=None, compare=False, repr=False)
    node_changes: Mapping[str, NodeChange] = field(default_factory=dict, compare=False, repr=False)
    added_nodes: tuple[Node, ...] = field(default=(), compare=False, repr=False)
    added_volumes: tuple[PersistentVolume, ...] = field(default=(), compare=False, repr=False)

    def as_dict(self) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "kind": self.kind,
            "description": self.description,
            "target": self.target,
            "yaml": self.yaml,
        }
        if self.command:
            entry["command"] = self.command
        entry["feasibleNodes"] = list(self.feasible_nodes)
        entry["selected"] = self.selected
        return entry

    def apply(self, inputs: SchedulingInputs) -> SchedulingInputs:
        """A copy of the inputs with the change made; the inputs themselves stay as they are."""
        return _apply(inputs, self.pod_change, self.node_changes, self.added_nodes, self.added_volumes)

    def apply_to_manifests(self, manifests: Sequence[Manifest], pod_key: str) -> list[Manifest]:
        """The files with the change made (for explain): the pod and nodes replaced, new objects appended."""
        changed: list[Manifest] = []
        for manifest in manifests:
            obj = manifest.object
            if self.pod_change is not None and isinstance(obj, Pod) and obj.key == pod_key:
                manifest = replace(manifest, object=self.pod_change(obj))
            elif isinstance(obj, Node) and obj.name in self.node_changes:
                manifest = replace(manifest, object=self.node_changes[obj.name](obj))
            changed.append(manifest)
        for node in self.added_nodes:
            changed.append(Manifest(node.kind, node, f"Node {node.name}", 0, "fix"))
        for volume in self.added_volumes:
            changed.append(Manifest(volume.kind, volume, f"PersistentVolume {volume.metadata.name}", 0, "fix"))
        return changed


@dataclass(slots=True)
class _Candidate:
    kind: str
    action: str  # "Add a toleration for dedicated=gpu:NoSchedule to the pod"
    change: Any  # the change as YAML data, rendered only for the fixes kept
    target: str
    scope: int
    group: str  # alternatives of one change: the first that verifies is kept, at most MAX_ALTERNATIVES tried
    command: str = ""
    pod_change: PodChange | None = None
    node_changes: dict[str, NodeChange] = field(default_factory=dict)
    added_nodes: tuple[Node, ...] = ()
    added_volumes: tuple[PersistentVolume, ...] = ()
    rank: int = 0  # the rejecting plugin's rank (most rejected nodes first)


class _Verifier(Scheduler):
    """The scheduler of the what-ifs: the pod's attempts run no PostFilter (preemption's dry runs
    would only slow a failed what-if down; they never make an attempt select a node)."""

    post_filter = True

    def run_post_filter(
        self, framework: Framework, state: CycleState, pod: Pod, diagnosis: Diagnosis
    ) -> tuple[str | None, tuple[Pod, ...]]:
        if not self.post_filter:
            return None, ()
        return super().run_post_filter(framework, state, pod, diagnosis)


def _build(inputs: SchedulingInputs) -> _Verifier:
    scheduler, _ = build_scheduler(inputs, _Verifier)
    assert isinstance(scheduler, _Verifier)
    scheduler.post_filter = False
    return scheduler


class _Session:
    """The what-ifs of one pod. A change to the pod only is scheduled on one warm scheduler, reset to
    the state before the pod's attempt (generator and start index); any other change on a scheduler
    built again from the changed inputs."""

    def __init__(self, inputs: SchedulingInputs) -> None:
        self.inputs = inputs
        self.warm = _build(inputs)
        self.rng_state = self.warm.rng.getstate()
        self.start_index = self.warm.next_start_node_index
        self.spent = 0  # scheduling attempts, as BUDGET counts them

    def cost(self, candidate: "_Candidate") -> int:
        return 1 if _pod_only(candidate) else 2 + len(self.inputs.pending)

    def attempt(self, pod: Pod) -> ScheduleResult | None:
        self.warm.rng.setstate(self.rng_state)
        self.warm.next_start_node_index = self.start_index
        return _attempt(self.warm, pod)

    def verify(self, candidate: _Candidate) -> ScheduleResult | None:
        self.spent += self.cost(candidate)
        if _pod_only(candidate):
            assert candidate.pod_change is not None
            return self.attempt(candidate.pod_change(self.inputs.pod))
        changed = _apply(
            self.inputs, candidate.pod_change, candidate.node_changes, candidate.added_nodes, candidate.added_volumes
        )
        try:
            scheduler = _build(changed)
        except SchedulingError:
            return None
        return _attempt(scheduler, changed.pod)


def _pod_only(candidate: _Candidate) -> bool:
    return not candidate.node_changes and not candidate.added_nodes and not candidate.added_volumes


def _attempt(scheduler: Scheduler, pod: Pod) -> ScheduleResult | None:
    try:
        return scheduler.schedule_pod(pod)
    except SchedulingError:
        return None


def _apply(
    inputs: SchedulingInputs,
    pod_change: PodChange | None,
    node_changes: Mapping[str, NodeChange],
    added_nodes: Iterable[Node],
    added_volumes: Iterable[PersistentVolume],
) -> SchedulingInputs:
    nodes = [node_changes[node.name](node) if node.name in node_changes else node for node in inputs.nodes]
    return replace(
        inputs,
        pod=pod_change(inputs.pod) if pod_change is not None else inputs.pod,
        nodes=[*nodes, *added_nodes],
        bound=list(inputs.bound),
        pending=list(inputs.pending),
        volumes=[*inputs.volumes, *added_volumes],
    )


# ---------------------------------------------------------------------------- the entry point


def suggest_fixes(inputs: SchedulingInputs, pod: Pod | None = None, limit: int = DEFAULT_LIMIT) -> list[Fix]:
    """The smallest verified fixes that make the pod (by default the inputs' own) schedulable, at
    most ``limit``, best first; none when the pod is schedulable already or no single change helps."""
    if pod is not None:
        inputs = replace(inputs, pod=replace(pod, spec=replace(pod.spec, node_name="")))
    try:
        session = _Session(inputs)
    except SchedulingError:
        return []
    if session.warm.framework_for(inputs.pod) is None:
        return []
    base = session.attempt(inputs.pod)
    if base is None or base.selected is not None:
        return []
    snapshot = session.warm.snapshot
    statuses: dict[str, Status] = {}
    for name in snapshot.node_names():
        status = base.diagnosis.status_of(name)
        if status is not None and status.is_rejected:
            statuses[name] = status
    candidates = sorted(
        enumerate(_candidates(inputs, snapshot, statuses)), key=lambda item: (item[1].scope, item[1].rank, item[0])
    )
    fixes: list[Fix] = []
    settled: set[str] = set()
    tries: dict[str, int] = {}
    kinds: dict[str, int] = {}
    for _, candidate in candidates:
        if len(fixes) >= limit:
            break
        if candidate.group in settled or tries.get(candidate.group, 0) >= MAX_ALTERNATIVES:
            continue
        if kinds.get(candidate.kind, 0) >= MAX_PER_KIND or session.spent + session.cost(candidate) > BUDGET:
            continue
        tries[candidate.group] = tries.get(candidate.group, 0) + 1
        result = session.verify(candidate)
        if result is None or result.selected is None:
            continue
        settled.add(candidate.group)
        kinds[candidate.kind] = kinds.get(candidate.kind, 0) + 1
        fixes.append(_fix(candidate, result, inputs))
    return fixes


def _fix(candidate: _Candidate, result: ScheduleResult, inputs: SchedulingInputs) -> Fix:
    selected = result.selected
    assert selected is not None
    # The nodes that fit, in the cluster's order (the scheduler visits them from a rotating start).
    order = {name: index for index, name in enumerate([n.name for n in (*inputs.nodes, *candidate.added_nodes)])}
    feasible = tuple(sorted(result.feasible or [selected], key=lambda name: order.get(name, len(order))))
    return Fix(
        kind=candidate.kind,
        description=f"{candidate.action}: {_fits_on(feasible, selected)}.",
        yaml=_dump(candidate.change),
        target=candidate.target,
        feasible_nodes=feasible,
        selected=selected,
        command=candidate.command,
        pod_change=candidate.pod_change,
        node_changes=dict(candidate.node_changes),
        added_nodes=candidate.added_nodes,
        added_volumes=candidate.added_volumes,
    )


def _fits_on(nodes: Sequence[str], selected: str) -> str:
    if len(nodes) == 1:
        return f"it then fits on {nodes[0]}"
    if len(nodes) <= 4:
        return f"it then fits on {', '.join(nodes[:-1])} and {nodes[-1]}, and the scheduler picks {selected}"
    return f"it then fits on {len(nodes)} nodes, and the scheduler picks {selected}"


# ---------------------------------------------------------------------------- candidates


def _candidates(inputs: SchedulingInputs, snapshot: Snapshot, statuses: Mapping[str, Status]) -> list[_Candidate]:
    """Every candidate the diagnosis suggests, each tagged with the rank of the plugin it answers."""
    by_plugin: dict[str, list[NodeInfo]] = {}
    for name, status in statuses.items():
        info = snapshot.get(name)
        if info is not None:
            by_plugin.setdefault(_plugin_of(status), []).append(info)
    ranked = sorted(by_plugin.items(), key=lambda item: -len(item[1]))  # stable: first rejected first on ties
    pod = inputs.pod
    candidates: list[_Candidate] = []
    for rank, (plugin, nodes) in enumerate(ranked):
        generator = _GENERATORS.get(plugin)
        if generator is None:
            continue
        reasons = {name: statuses[name].reasons for name in (node.name for node in nodes)}
        for candidate in generator(inputs, pod, nodes, reasons, snapshot):
            candidate.rank = rank
            candidates.append(candidate)
    return candidates


def _plugin_of(status: Status) -> str:
    """The plugin behind a rejection; nodes a PreFilter ruled out name it only in their reason."""
    if status.plugin:
        return status.plugin
    for reason in status.reasons:
        found = re.match(r"node\(s\) didn't satisfy plugin\(s\) \[(\S+)", reason)
        if found:
            return found.group(1).rstrip("]")
    return ""


Generator = Callable[[SchedulingInputs, Pod, list[NodeInfo], Mapping[str, tuple[str, ...]], Snapshot], list[_Candidate]]


def _pod_target(pod: Pod) -> str:
    return f"Pod {pod.key}"


def _dump(data: Any) -> str:
    text: str = yaml.safe_dump(data, sort_keys=False, default_flow_style=False, allow_unicode=True, width=1000)
    return text.rstrip("\n")


# ---------------------------------------------------------------------------- TaintToleration


def _blocking_taint(pod: Pod, node: Node) -> Taint | None:
    """The taint TaintToleration's Filter stops at."""
    for taint in node.spec.taints:
        if taint.effect in (NO_SCHEDULE, NO_EXECUTE) and not tolerates_taint(pod.spec.tolerations, taint):
            return taint
    return None


def _toleration_for(taint: Taint) -> Toleration:
    if taint.value:
        return Toleration(key=taint.key, operator="Equal", value=taint.value, effect=taint.effect)
    return Toleration(key=taint.key, operator="Exists", effect=taint.effect)


def _toleration_dict(toleration: Toleration) -> dict[str, Any]:
    entry: dict[str, Any] = {"key": toleration.key, "operator": toleration.operator}
    if toleration.operator != "Exists":
        entry["value"] = toleration.value
    entry["effect"] = toleration.effect
    return entry


def _taint_dict(taint: Taint) -> dict[str, Any]:
    entry: dict[str, Any] = {"key": taint.key}
    if taint.value:
        entry["value"] = taint.value
    entry["effect"] = taint.effect
    return entry


def _taint_candidates(
    inputs: SchedulingInputs,
    pod: Pod,
    nodes: list[NodeInfo],
    reasons: Mapping[str, tuple[str, ...]],
    snapshot: Snapshot,
) -> list[_Candidate]:
    taints: dict[Taint, list[Node]] = {}
    for info in nodes:
        taint = _blocking_taint(pod, info.node)
        if taint is not None:
            taints.setdefault(replace(taint, time_added=None), []).append(info.node)
    candidates: list[_Candidate] = []
    for taint, tainted in taints.items():
        toleration = _toleration_for(taint)
        candidates.append(
            _Candidate(
                ADD_TOLERATION,
                f"Add a toleration for {taint} to the pod",
                {"spec": {"tolerations": [_toleration_dict(toleration)]}},
                _pod_target(pod),
                _POD,
                f"toleration:{taint}",
                pod_change=_add_toleration(toleration),
            )
        )
        for node in tainted:
            remaining = [t for t in node.spec.taints if replace(t, time_added=None) != taint]
            candidates.append(
                _Candidate(
                    REMOVE_TAINT,
                    f"Remove the taint {taint} from node {node.name}",
                    {"spec": {"taints": [_taint_dict(t) for t in remaining]}},
                    f"Node {node.name}",
                    _NODES,
                    f"untaint:{taint}",
                    command=f"kubectl taint nodes {node.name} {taint}-",
                    node_changes={node.name: _remove_taint(taint)},
                )
            )
    return candidates


def _add_toleration(toleration: Toleration) -> PodChange:
    def change(pod: Pod) -> Pod:
        return replace(pod, spec=replace(pod.spec, tolerations=(*pod.spec.tolerations, toleration)))

    return change


def _remove_taint(taint: Taint) -> NodeChange:
    def change(node: Node) -> Node:
        taints = tuple(t for t in node.spec.taints if replace(t, time_added=None) != taint)
        return replace(node, spec=replace(node.spec, taints=taints))

    return change


# ---------------------------------------------------------------------------- NodeUnschedulable


def _unschedulable_candidates(
    inputs: SchedulingInputs,
    pod: Pod,
    nodes: list[NodeInfo],
    reasons: Mapping[str, tuple[str, ...]],
    snapshot: Snapshot,
) -> list[_Candidate]:
    return [
        _Candidate(
            UNCORDON,
            f"Uncordon node {info.name} (it is marked unschedulable)",
            {"spec": {"unschedulable": False}},
            f"Node {info.name}",
            _NODES,
            "uncordon",
            command=f"kubectl uncordon {info.name}",
            node_changes={info.name: _uncordon},
        )
        for info in nodes
        if info.node.spec.unschedulable
    ]


def _uncordon(node: Node) -> Node:
    return replace(node, spec=replace(node.spec, unschedulable=False))


# ---------------------------------------------------------------------------- NodeAffinity


def _required_terms(pod: Pod) -> tuple[NodeSelectorTerm, ...]:
    affinity = pod.spec.affinity
    if affinity is None or affinity.node_affinity is None or affinity.node_affinity.required is None:
        return ()
    return affinity.node_affinity.required.node_selector_terms


def _requirement_holds(requirement: NodeSelectorRequirement, is_field: bool, node: Node) -> bool:
    if is_field:
        if requirement.key != NODE_NAME_FIELD or len(requirement.values) != 1:
            return False
        return requirement_matches(requirement, {NODE_NAME_FIELD: node.name})
    return requirement_matches(requirement, node.labels)


def _term_requirements(term: NodeSelectorTerm) -> list[tuple[NodeSelectorRequirement, bool]]:
    return [(r, False) for r in term.match_expressions] + [(r, True) for r in term.match_fields]


def _requirement_text(requirement: NodeSelectorRequirement) -> str:
    if requirement.operator in ("Exists", "DoesNotExist"):
        return f"{requirement.key} {requirement.operator}"
    return f"{requirement.key} {requirement.operator} [{', '.join(requirement.values)}]"


def _requirement_dict(requirement: NodeSelectorRequirement) -> dict[str, Any]:
    entry: dict[str, Any] = {"key": requirement.key, "operator": requirement.operator}
    if requirement.values:
        entry["values"] = list(requirement.values)
    return entry


def _term_dict(term: NodeSelectorTerm) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    if term.match_expressions:
        entry["matchExpressions"] = [_requirement_dict(r) for r in term.match_expressions]
    if term.match_fields:
        entry["matchFields"] = [_requirement_dict(r) for r in term.match_fields]
    return entry


def _with_required(pod: Pod, required: NodeSelector | None) -> Pod:
    affinity = pod.spec.affinity or Affinity()
    node_affinity = affinity.node_affinity or NodeAffinity()
    affinity = replace(affinity, node_affinity=replace(node_affinity, required=required))
    return replace(pod, spec=replace(pod.spec, affinity=affinity))


def _required_yaml(required: NodeSelector | None) -> dict[str, Any]:
    block = {"nodeSelectorTerms": [_term_dict(t) for t in required.node_selector_terms]} if required else None
    return {"spec": {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": block}}}}


def _closest(wanted: str, values: Iterable[str]) -> list[str]:
    """Distinct values, the likeliest fix of a typo first: fewest edits, then the longest common
    prefix (typos rarely hit the first letters), then the most common, then by name."""
    counts: dict[str, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1

    def prefix(value: str) -> int:
        return next(
            (i for i, (a, b) in enumerate(zip(wanted, value, strict=False)) if a != b), min(len(wanted), len(value))
        )

    return sorted(counts, key=lambda v: (_edits(wanted, v), -prefix(v), -counts[v], v))


def _edits(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions, swaps of neighbours."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[len(b)]


def _set_label(key: str, value: str) -> NodeChange:
    def change(node: Node) -> Node:
        labels = dict(node.labels)
        labels[key] = value
        return replace(node, metadata=replace(node.metadata, labels=labels))

    return change


def _remove_label(key: str) -> NodeChange:
    def change(node: Node) -> Node:
        labels = {k: v for k, v in node.labels.items() if k != key}
        return replace(node, metadata=replace(node.metadata, labels=labels))

    return change


def _label_candidate(node: Node, key: str, value: str | None, why: str) -> _Candidate:
    """``value`` None removes the label."""
    if value is None:
        return _Candidate(
            LABEL_NODE,
            f"Remove the label {key} from node {node.name} ({why})",
            {"metadata": {"labels": {key: None}}},
            f"Node {node.name}",
            _NODES,
            f"unlabel:{key}",
            command=f"kubectl label nodes {node.name} {key}-",
            node_changes={node.name: _remove_label(key)},
        )
    overwrite = " --overwrite" if key in node.labels else ""
    verb = "Set" if key in node.labels else "Add"
    return _Candidate(
        LABEL_NODE,
        f"{verb} the label {key}={value} on node {node.name} ({why})",
        {"metadata": {"labels": {key: value}}},
        f"Node {node.name}",
        _NODES,
        f"label:{key}={value}",
        command=f"kubectl label nodes {node.name} {key}={value}{overwrite}",
        node_changes={node.name: _set_label(key, value)},
    )


def _affinity_candidates(
    inputs: SchedulingInputs,
    pod: Pod,
    nodes: list[NodeInfo],
    reasons: Mapping[str, tuple[str, ...]],
    snapshot: Snapshot,
) -> list[_Candidate]:
    # The nodes the pod's own selector and affinity reject (not the scheduler-enforced addedAffinity).
    rejected = [info.node for info in nodes if ERR_REASON_ENFORCED not in reasons[info.name]]
    candidates: list[_Candidate] = []
    selector = dict(pod.spec.node_selector)
    terms = _required_terms(pod)
    target = _pod_target(pod)

    # spec.nodeSelector: the value one of the nodes has, or no such key at all.
    for key, wanted in selector.items():
        missing = [node for node in rejected if node.labels.get(key) != wanted]
        if not missing:
            continue
        for value in _closest(wanted, [n.labels[key] for n in missing if key in n.labels]):
            candidates.append(
                _Candidate(
                    CHANGE_NODE_SELECTOR,
                    f"Change the pod's nodeSelector {key}: {wanted} to {key}: {value} (a value nodes have)",
                    {"spec": {"nodeSelector": {**selector, key: value}}},
                    target,
                    _POD,
                    f"selector-value:{key}",
                    pod_change=_set_selector(key, value),
                )
            )
        rest = {k: v for k, v in selector.items() if k != key}
        candidates.append(
            _Candidate(
                RELAX_NODE_SELECTOR,
                f"Remove {key}: {wanted} from the pod's nodeSelector",
                {"spec": {"nodeSelector": rest}},
                target,
                _POD,
                f"selector-remove:{key}",
                pod_change=_set_selector(key, None),
            )
        )

    # Required node affinity: one requirement dropped, or a value added to an In requirement.
    for index, term in enumerate(terms):
        for requirement, is_field in _term_requirements(term):
            failing = [node for node in rejected if not _requirement_holds(requirement, is_field, node)]
            if not failing:
                continue
            if requirement.operator == "In" and not is_field:
                present = [n.labels[requirement.key] for n in failing if requirement.key in n.labels]
                for value in _closest(requirement.values[0], present):
                    widened = replace(requirement, values=(*requirement.values, value))
                    widened_terms = _with_requirement(terms, index, requirement, widened)
                    candidates.append(
                        _Candidate(
                            RELAX_AFFINITY_TERM,
                            f"Add {value} to the values of the pod's node affinity requirement "
                            f"{_requirement_text(requirement)}",
                            _required_yaml(widened_terms),
                            target,
                            _POD,
                            f"affinity-widen:{index}:{requirement}",
                            pod_change=_set_required(widened_terms),
                        )
                    )
            required = _without_requirement(terms, index, requirement)
            candidates.append(
                _Candidate(
                    RELAX_AFFINITY_TERM,
                    f"Remove the requirement {_requirement_text(requirement)} from the pod's required node affinity",
                    _required_yaml(required),
                    target,
                    _POD,
                    f"affinity-remove:{index}:{requirement}",
                    pod_change=_set_required(required),
                )
            )

    # A node that misses exactly one label (or has exactly one too many) gets it fixed.
    for node in rejected:
        label = _one_label_change(selector, terms, node)
        if label is not None:
            candidates.append(_label_candidate(node, *label))
    return candidates


def _set_selector(key: str, value: str | None) -> PodChange:
    def change(pod: Pod) -> Pod:
        selector = {k: v for k, v in pod.spec.node_selector.items() if k != key}
        if value is not None:
            selector = {**pod.spec.node_selector, key: value}
        return replace(pod, spec=replace(pod.spec, node_selector=selector))

    return change


def _set_required(required: NodeSelector | None) -> PodChange:
    def change(pod: Pod) -> Pod:
        return _with_required(pod, required)

    return change


def _with_requirement(
    terms: tuple[NodeSelectorTerm, ...],
    index: int,
    old: NodeSelectorRequirement,
    new: NodeSelectorRequirement,
) -> NodeSelector:
    term = terms[index]
    term = replace(
        term,
        match_expressions=tuple(new if r is old else r for r in term.match_expressions),
        match_fields=tuple(new if r is old else r for r in term.match_fields),
    )
    return NodeSelector((*terms[:index], term, *terms[index + 1 :]))


def _without_requirement(
    terms: tuple[NodeSelectorTerm, ...], index: int, requirement: NodeSelectorRequirement
) -> NodeSelector | None:
    """The terms without the requirement; a term left empty (it would match nothing) goes, and with
    it the whole required affinity when it was the only term."""
    term = terms[index]
    term = replace(
        term,
        match_expressions=tuple(r for r in term.match_expressions if r is not requirement),
        match_fields=tuple(r for r in term.match_fields if r is not requirement),
    )
    if term.match_expressions or term.match_fields:
        return NodeSelector((*terms[:index], term, *terms[index + 1 :]))
    rest = (*terms[:index], *terms[index + 1 :])
    return NodeSelector(rest) if rest else None


def _one_label_change(
    selector: Mapping[str, str], terms: tuple[NodeSelectorTerm, ...], node: Node
) -> tuple[str, str | None, str] | None:
    """(key, value or None to remove, why) when one label change makes the node match the pod's
    nodeSelector and required node affinity."""
    wrong = [(key, value) for key, value in selector.items() if node.labels.get(key) != value]
    terms_hold = not terms or any(
        all(_requirement_holds(r, f, node) for r, f in _term_requirements(term)) for term in terms
    )
    if len(wrong) == 1 and terms_hold:
        key, value = wrong[0]
        return key, value, "the pod's nodeSelector asks for it"
    if wrong:
        return None
    for term in terms:
        failing = [(r, f) for r, f in _term_requirements(term) if not _requirement_holds(r, f, node)]
        if len(failing) != 1 or failing[0][1]:
            continue
        requirement = failing[0][0]
        why = f"the pod's node affinity requires {_requirement_text(requirement)}"
        if requirement.operator == "In":
            return requirement.key, requirement.values[0], why
        if requirement.operator == "Exists":
            return requirement.key, "true", why
        if requirement.operator in ("NotIn", "DoesNotExist"):
            return requirement.key, None, why
    return None


# ---------------------------------------------------------------------------- NodeResourcesFit


def _resources_candidates(
    inputs: SchedulingInputs,
    pod: Pod,
    nodes: list[NodeInfo],
    reasons: Mapping[str, tuple[str, ...]],
    snapshot: Snapshot,
) -> list[_Candidate]:
    requests = pod_requests(pod)
    candidates: list[_Candidate] = []
    # Lower one request to what a node short of only that resource has left, the most generous first.
    short_of: dict[str, list[NodeInfo]] = {}
    for info in nodes:
        names = reasons[info.name]
        if len(names) == 1 and names[0].startswith("Insufficient "):
            short_of.setdefault(names[0].removeprefix("Insufficient "), []).append(info)
    for resource, infos in short_of.items():
        left = sorted(
            {
                _round_down(resource, info.allocatable.get(resource, 0) - info.requested.get(resource, 0))
                for info in infos
            },
            reverse=True,
        )
        for amount in left:
            if amount <= 0 or amount >= requests.get(resource, 0):
                continue
            lowered = _lower_request(pod, resource, amount)
            if lowered is None:
                continue
            change, action, snippet = lowered
            candidates.append(
                _Candidate(
                    LOWER_REQUEST, action, snippet, _pod_target(pod), _POD, f"lower:{resource}", pod_change=change
                )
            )
    # A new node like the roomiest rejected one, with enough of everything the pod asks for.
    template = _roomiest(nodes, reasons, requests)
    if template is not None:
        candidates.append(_add_node_candidate(inputs, pod, template, requests))
    return candidates


def _round_down(resource: str, amount: int) -> int:
    """What is left, in a unit people write: whole MiB of memory and storage (CPU stays in millicores)."""
    in_bytes = resource in ("memory", "ephemeral-storage") or resource.startswith("hugepages-")
    if in_bytes and amount >= MEBIBYTE:
        return amount - amount % MEBIBYTE
    return amount


def _lower_request(pod: Pod, resource: str, target: int) -> tuple[PodChange, str, Any] | None:
    """(change, sentence, YAML) bringing the pod's effective request of the resource down to ``target``:
    the pod-level request when there is one, else the container asking the most."""
    current = pod_requests(pod).get(resource, 0)
    cut = current - target
    if cut <= 0:
        return None
    pod_level = pod.spec.resources
    if pod_level is not None and resource in pod_level.requests and is_pod_level_resource(resource):
        amount = pod_level.requests[resource] - cut
        if amount <= 0:
            return None

        def change_pod_level(p: Pod) -> Pod:
            resources = p.spec.resources or ResourceRequirements()
            requests = {**resources.requests, resource: amount}
            return replace(p, spec=replace(p.spec, resources=replace(resources, requests=requests)))

        if pod_requests(change_pod_level(pod)).get(resource, 0) > target:
            return None
        was = format_quantity(resource, pod_level.requests[resource])
        now = format_quantity(resource, amount)
        action = f"Lower the pod's {resource} request from {was} to {now}"
        return change_pod_level, action, {"spec": {"resources": {"requests": {resource: now}}}}

    containers = pod.spec.containers
    asking = [(c.resources.requests.get(resource, 0), i) for i, c in enumerate(containers)]
    if not asking:
        return None
    most, index = max(asking, key=lambda item: (item[0], -item[1]))
    amount = most - cut
    if amount <= 0:
        return None
    name = containers[index].name

    def change(p: Pod) -> Pod:
        updated = list(p.spec.containers)
        for i, container in enumerate(updated):
            if container.name == name:
                requests = {**container.resources.requests, resource: amount}
                updated[i] = replace(container, resources=replace(container.resources, requests=requests))
        return replace(p, spec=replace(p.spec, containers=tuple(updated)))

    if pod_requests(change(pod)).get(resource, 0) > target:
        return None  # an init container or the overhead keeps it higher
    was, now = format_quantity(resource, most), format_quantity(resource, amount)
    who = "the pod's" if len(containers) == 1 else f"container {name}'s"
    action = f"Lower {who} {resource} request from {was} to {now} (what a node has left)"
    snippet = {"spec": {"containers": [{"name": name, "resources": {"requests": {resource: now}}}]}}
    return change, action, snippet


def _roomiest(
    nodes: list[NodeInfo], reasons: Mapping[str, tuple[str, ...]], requests: Mapping[str, int]
) -> NodeInfo | None:
    """The rejected node with the most of what the pod lacks, as the model of a new one."""
    short = [info for info in nodes if reasons[info.name]]
    if not short:
        return None
    first = reasons[short[0].name][0]
    resource = PODS if first == TOO_MANY_PODS else first.removeprefix("Insufficient ")
    return max(short, key=lambda info: info.allocatable.get(resource, 0))  # max keeps the first of equals


def _new_node_name(template: str, taken: set[str]) -> str:
    """worker-4 after worker-1..worker-4 becomes worker-5; any other name gets a -2, -3, ... suffix."""
    numbered = re.fullmatch(r"(.*?)(\d+)", template)
    if numbered:
        prefix, digits = numbered.groups()
        highest = max(
            (int(m.group(1)) for name in taken if (m := re.fullmatch(re.escape(prefix) + r"(\d+)", name))),
            default=int(digits),
        )
        number = highest + 1
        while (name := f"{prefix}{number:0{len(digits)}d}") in taken:
            number += 1
        return name
    number = 2
    while f"{template}-{number}" in taken:
        number += 1
    return f"{template}-{number}"


def _round_up(resource: str, amount: int) -> int:
    """A capacity people buy: whole CPUs, whole GiB."""
    unit = 1000 if resource == CPU else 2**30 if resource in ("memory", "ephemeral-storage") else 1
    return -(-amount // unit) * unit


def _add_node_candidate(
    inputs: SchedulingInputs, pod: Pod, template: NodeInfo, requests: Mapping[str, int]
) -> _Candidate:
    model = template.node
    name = _new_node_name(model.name, {node.name for node in inputs.nodes})
    allocatable = dict(model.status.allocatable)
    grown: dict[str, str] = {}
    for resource, amount in requests.items():
        if amount > allocatable.get(resource, 0):
            allocatable[resource] = _round_up(resource, amount)
            grown[resource] = format_quantity(resource, allocatable[resource])
    if allocatable.get(PODS, 0) < 1:
        allocatable[PODS] = 110  # the kubelet's default
    capacity = {**model.status.capacity, **allocatable}
    labels = {k: (name if k == HOSTNAME_LABEL and v == model.name else v) for k, v in model.labels.items()}
    node = Node(
        metadata=ObjectMeta(name=name, labels=labels),
        spec=replace(model.spec, unschedulable=False),
        status=replace(model.status, capacity=capacity, allocatable=allocatable, images=()),
    )
    extra = f" but with {', '.join(f'{k} {v}' for k, v in grown.items())}" if grown else ""
    status: dict[str, Any] = {"capacity": {k: format_quantity(k, v) for k, v in allocatable.items()}}
    metadata: dict[str, Any] = {"name": name}
    if labels:
        metadata["labels"] = dict(labels)
    manifest: dict[str, Any] = {"apiVersion": "v1", "kind": "Node", "metadata": metadata}
    if node.spec.taints:
        manifest["spec"] = {"taints": [_taint_dict(t) for t in node.spec.taints]}
    manifest["status"] = status
    return _Candidate(
        ADD_NODE,
        f"Add a node {name} like {model.name}{extra} (a new machine joining the cluster)",
        manifest,
        f"new Node {name}",
        _NEW,
        "add-node",
        added_nodes=(node,),
    )


# ---------------------------------------------------------------------------- NodePorts


def _ports_candidates(
    inputs: SchedulingInputs,
    pod: Pod,
    nodes: list[NodeInfo],
    reasons: Mapping[str, tuple[str, ...]],
    snapshot: Snapshot,
) -> list[_Candidate]:
    wanted = pod_host_ports(pod)
    all_nodes = snapshot.nodes()
    candidates: list[_Candidate] = []
    for host_port in dict.fromkeys(wanted):
        if not any(info.used_ports and conflicts(info.used_ports, host_port) for info in nodes):
            continue
        ip, protocol, port = host_port
        own = {p for (_, proto, p) in wanted if proto == protocol}
        free = next(
            (
                candidate
                for candidate in range(port + 1, MAX_PORT + 1)
                if candidate not in own
                and not any(
                    info.used_ports and conflicts(info.used_ports, (ip, protocol, candidate)) for info in all_nodes
                )
            ),
            None,
        )
        if free is None:
            continue
        located = _locate_port(pod, ip, protocol, port)
        if located is None:
            continue
        init, container, entry = located
        snippet_port: dict[str, Any] = {"containerPort": entry.container_port, "hostPort": free}
        if protocol != "TCP":
            snippet_port["protocol"] = protocol
        section = "initContainers" if init else "containers"
        candidates.append(
            _Candidate(
                FREE_HOST_PORT,
                f"Change the pod's hostPort {port}/{protocol} to {free}, a port no node uses yet",
                {"spec": {section: [{"name": container.name, "ports": [snippet_port]}]}},
                _pod_target(pod),
                _POD,
                f"port:{host_port}",
                pod_change=_move_port(init, container.name, ip, protocol, port, free),
            )
        )
    return candidates


def _port_matches(entry: ContainerPort, ip: str, protocol: str, port: int) -> bool:
    return (
        entry.host_port == port
        and (entry.host_ip or DEFAULT_BIND_ALL_HOST_IP) == ip
        and (entry.protocol or "TCP") == protocol
    )


def _locate_port(pod: Pod, ip: str, protocol: str, port: int) -> tuple[bool, Container, ContainerPort] | None:
    sidecars = [(True, c) for c in pod.spec.init_containers if c.restart_policy == "Always"]
    for init, container in [*sidecars, *((False, c) for c in pod.spec.containers)]:
        for entry in container.ports:
            if _port_matches(entry, ip, protocol, port):
                return init, container, entry
    return None


def _move_port(init: bool, name: str, ip: str, protocol: str, port: int, free: int) -> PodChange:
    def move(container: Container) -> Container:
        if container.name != name:
            return container
        ports = tuple(
            replace(entry, host_port=free) if _port_matches(entry, ip, protocol, port) else entry
            for entry in container.ports
        )
        return replace(container, ports=ports)

    def change(pod: Pod) -> Pod:
        if init:
            return replace(pod, spec=replace(pod.spec, init_containers=tuple(map(move, pod.spec.init_containers))))
        return replace(pod, spec=replace(pod.spec, containers=tuple(map(move, pod.spec.containers))))

    return change


# ---------------------------------------------------------------------------- PodTopologySpread


def _selector_dict(selector: LabelSelector | None) -> dict[str, Any] | None:
    if selector is None:
        return None
    entry: dict[str, Any] = {}
    if selector.match_labels:
        entry["matchLabels"] = dict(selector.match_labels)
    if selector.match_expressions:
        entry["matchExpressions"] = [
            {"key": r.key, "operator": r.operator, **({"values": list(r.values)} if r.values else {})}
            for r in selector.match_expressions
        ]
    return entry


def _spread_dict(constraint: TopologySpreadConstraint) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "maxSkew": constraint.max_skew,
        "topologyKey": constraint.topology_key,
        "whenUnsatisfiable": constraint.when_unsatisfiable,
    }
    selector = _selector_dict(constraint.label_selector)
    if selector is not None:
        entry["labelSelector"] = selector
    return entry


def _spread_candidates(
    inputs: SchedulingInputs,
    pod: Pod,
    nodes: list[NodeInfo],
    reasons: Mapping[str, tuple[str, ...]],
    snapshot: Snapshot,
) -> list[_Candidate]:
    constraints = pod.spec.topology_spread_constraints
    candidates: list[_Candidate] = []
    for index, constraint in enumerate(constraints):
        if constraint.when_unsatisfiable != "DoNotSchedule":
            continue
        for relaxed, action in (
            (
                replace(constraint, max_skew=constraint.max_skew + 1),
                f"Raise maxSkew of the pod's topology spread constraint on {constraint.topology_key} "
                f"from {constraint.max_skew} to {constraint.max_skew + 1}",
            ),
            (
                replace(constraint, when_unsatisfiable="ScheduleAnyway"),
                f"Make the pod's topology spread constraint on {constraint.topology_key} "
                "whenUnsatisfiable: ScheduleAnyway (a preference instead of a rule)",
            ),
        ):
            updated = (*constraints[:index], relaxed, *constraints[index + 1 :])
            candidates.append(
                _Candidate(
                    RELAX_SPREAD,
                    action,
                    {"spec": {"topologySpreadConstraints": [_spread_dict(c) for c in updated]}},
                    _pod_target(pod),
                    _POD,
                    f"spread:{index}:{relaxed.max_skew}:{relaxed.when_unsatisfiable}",
                    pod_change=_set_spread(updated),
                )
            )
    return candidates


def _set_spread(constraints: tuple[TopologySpreadConstraint, ...]) -> PodChange:
    def change(pod: Pod) -> Pod:
        return replace(pod, spec=replace(pod.spec, topology_spread_constraints=constraints))

    return change


# ---------------------------------------------------------------------------- InterPodAffinity


def _affinity_term_text(term: PodAffinityTerm) -> str:
    selector = term.label_selector
    labels = ", ".join(f"{k}={v}" for k, v in selector.match_labels.items()) if selector else ""
    return f"topologyKey {term.topology_key}" + (f", pods with {labels}" if labels else "")


def _affinity_term_dict(term: PodAffinityTerm) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    selector = _selector_dict(term.label_selector)
    if selector is not None:
        entry["labelSelector"] = selector
    if term.namespaces:
        entry["namespaces"] = list(term.namespaces)
    entry["topologyKey"] = term.topology_key
    return entry


def _inter_pod_candidates(
    inputs: SchedulingInputs,
    pod: Pod,
    nodes: list[NodeInfo],
    reasons: Mapping[str, tuple[str, ...]],
    snapshot: Snapshot,
) -> list[_Candidate]:
    seen = {reason for names in reasons.values() for reason in names}
    affinity = pod.spec.affinity
    candidates: list[_Candidate] = []
    if affinity is None:
        return candidates
    for anti, reason, field_name, title in (
        (False, ERR_REASON_AFFINITY_RULES_NOT_MATCH, "podAffinity", "pod affinity"),
        (True, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH, "podAntiAffinity", "pod anti-affinity"),
    ):
        rules = affinity.pod_anti_affinity if anti else affinity.pod_affinity
        if reason not in seen or rules is None:
            continue
        for index, term in enumerate(rules.required):
            relaxed = PodAffinity(
                required=(*rules.required[:index], *rules.required[index + 1 :]),
                preferred=(*rules.preferred, WeightedPodAffinityTerm(100, term)),
            )
            snippet = {
                "spec": {
                    "affinity": {
                        field_name: {
                            "requiredDuringSchedulingIgnoredDuringExecution": [
                                _affinity_term_dict(t) for t in relaxed.required
                            ],
                            "preferredDuringSchedulingIgnoredDuringExecution": [
                                {"weight": w.weight, "podAffinityTerm": _affinity_term_dict(w.pod_affinity_term)}
                                for w in relaxed.preferred
                            ],
                        }
                    }
                }
            }
            candidates.append(
                _Candidate(
                    RELAX_AFFINITY_TERM,
                    f"Make the pod's required {title} term ({_affinity_term_text(term)}) preferred instead",
                    snippet,
                    _pod_target(pod),
                    _POD,
                    f"{field_name}:{index}",
                    pod_change=_set_pod_affinity(anti, relaxed),
                )
            )
    return candidates


def _set_pod_affinity(anti: bool, rules: PodAffinity) -> PodChange:
    def change(pod: Pod) -> Pod:
        affinity = pod.spec.affinity or Affinity()
        affinity = replace(affinity, pod_anti_affinity=rules) if anti else replace(affinity, pod_affinity=rules)
        return replace(pod, spec=replace(pod.spec, affinity=affinity))

    return change


# ---------------------------------------------------------------------------- VolumeBinding


def _volume_candidates(
    inputs: SchedulingInputs,
    pod: Pod,
    nodes: list[NodeInfo],
    reasons: Mapping[str, tuple[str, ...]],
    snapshot: Snapshot,
) -> list[_Candidate]:
    claims = {claim.metadata.key: claim for claim in inputs.claims}
    unbound: list[PersistentVolumeClaim] = []
    for volume in pod.spec.volumes:
        claim = (
            claims.get(f"{pod.namespace}/{volume.persistent_volume_claim}") if volume.persistent_volume_claim else None
        )
        if claim is not None and not claim.spec.volume_name:
            unbound.append(claim)
    if len(unbound) != 1:
        return []  # several claims to satisfy at once: more than one change
    claim = unbound[0]
    taken = {volume.metadata.name for volume in inputs.volumes}
    name = _new_volume_name(claim.metadata.name, taken)
    candidates: list[_Candidate] = []
    for info in nodes:
        hostname = info.node.labels.get(HOSTNAME_LABEL)
        if ERR_REASON_BIND_CONFLICT not in reasons[info.name] or hostname is None:
            continue
        requirement = NodeSelectorRequirement(HOSTNAME_LABEL, "In", (hostname,))
        new_volume = PersistentVolume(
            metadata=ObjectMeta(name=name),
            spec=PersistentVolumeSpec(
                storage=claim.spec.storage,
                access_modes=claim.spec.access_modes,
                storage_class_name=claim_class(claim),
                node_affinity=NodeSelector((NodeSelectorTerm(match_expressions=(requirement,)),)),
            ),
        )
        manifest = {
            "apiVersion": "v1",
            "kind": "PersistentVolume",
            "metadata": {"name": name},
            "spec": {
                "capacity": {"storage": format_quantity("storage", claim.spec.storage)},
                "accessModes": list(claim.spec.access_modes),
                "storageClassName": claim_class(claim),
                "local": {"path": f"/mnt/{name}"},
                "nodeAffinity": {
                    "required": {"nodeSelectorTerms": [{"matchExpressions": [_requirement_dict(requirement)]}]}
                },
            },
        }
        candidates.append(
            _Candidate(
                ADD_VOLUME,
                f"Create a PersistentVolume {name} on node {info.name} for the claim {claim.metadata.name} "
                f"({format_quantity('storage', claim.spec.storage)}, class {claim_class(claim) or 'none'})",
                manifest,
                f"new PersistentVolume {name}",
                _NEW,
                f"volume:{claim.metadata.key}",
                added_volumes=(new_volume,),
            )
        )
    return candidates


def _new_volume_name(claim: str, taken: set[str]) -> str:
    name, number = f"{claim}-pv", 2
    while name in taken:
        name, number = f"{claim}-pv-{number}", number + 1
    return name


_GENERATORS: dict[str, Generator] = {
    "TaintToleration": _taint_candidates,
    "NodeUnschedulable": _unschedulable_candidates,
    "NodeAffinity": _affinity_candidates,
    "NodeResourcesFit": _resources_candidates,
    "NodePorts": _ports_candidates,
    "PodTopologySpread": _spread_candidates,
    "InterPodAffinity": _inter_pod_candidates,
    "VolumeBinding": _volume_candidates,
}
