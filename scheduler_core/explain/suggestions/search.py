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
the plugin that rejected the most nodes first; then the order the candidates were made in."""

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from scheduler_core.api.manifest_writer import dump_yaml
from scheduler_core.api.types import Pod
from scheduler_core.explain.inputs import SchedulingInputs, build_scheduler
from scheduler_core.explain.suggestions import (
    inter_pod_affinity,
    node_affinity,
    node_ports,
    node_resources_fit,
    node_unschedulable,
    pod_topology_spread,
    taint_toleration,
    volume_binding,
)
from scheduler_core.explain.suggestions.candidates import Candidate, Generator, Rejection
from scheduler_core.explain.suggestions.fix import Fix, apply_changes
from scheduler_core.scheduler.framework import CycleState, SchedulingError, Status
from scheduler_core.scheduler.runtime import Framework
from scheduler_core.scheduler.schedule_one import Diagnosis, Scheduler, ScheduleResult
from scheduler_core.scheduler.snapshot import NodeInfo, Snapshot

DEFAULT_LIMIT = 5


# The work allowed, in scheduling attempts, whatever comes out of it: a what-if changing only the pod
# costs one; any other costs a rebuild of the scheduler (counted as one) plus replaying the earlier
# pods and the pod's attempt. About 60 attempts take 0.1-0.3 s on 100 nodes.
BUDGET = 60


MAX_ALTERNATIVES = 3  # tries of one change (on other nodes, with other values) before giving up on it


MAX_PER_KIND = 2  # fixes of one kind kept, so that the few shown differ


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

    def cost(self, candidate: "Candidate") -> int:
        return 1 if _pod_only(candidate) else 2 + len(self.inputs.pending)

    def attempt(self, pod: Pod) -> ScheduleResult | None:
        self.warm.rng.setstate(self.rng_state)
        self.warm.next_start_node_index = self.start_index
        return _attempt(self.warm, pod)

    def verify(self, candidate: Candidate) -> ScheduleResult | None:
        self.spent += self.cost(candidate)
        if _pod_only(candidate):
            assert candidate.pod_change is not None
            return self.attempt(candidate.pod_change(self.inputs.pod))
        changed = apply_changes(
            self.inputs, candidate.pod_change, candidate.node_changes, candidate.added_nodes, candidate.added_volumes
        )
        try:
            scheduler = _build(changed)
        except SchedulingError:
            return None
        return _attempt(scheduler, changed.pod)


def _pod_only(candidate: Candidate) -> bool:
    return not candidate.node_changes and not candidate.added_nodes and not candidate.added_volumes


def _attempt(scheduler: Scheduler, pod: Pod) -> ScheduleResult | None:
    try:
        return scheduler.schedule_pod(pod)
    except SchedulingError:
        return None


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


def _fix(candidate: Candidate, result: ScheduleResult, inputs: SchedulingInputs) -> Fix:
    selected = result.selected
    assert selected is not None
    # The nodes that fit, in the cluster's order (the scheduler visits them from a rotating start).
    order = {name: index for index, name in enumerate([n.name for n in (*inputs.nodes, *candidate.added_nodes)])}
    feasible = tuple(sorted(result.feasible or [selected], key=lambda name: order.get(name, len(order))))
    return Fix(
        kind=candidate.kind,
        description=f"{candidate.action}: {_fits_on(feasible, selected)}.",
        yaml=dump_yaml(candidate.change),
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


def _candidates(inputs: SchedulingInputs, snapshot: Snapshot, statuses: Mapping[str, Status]) -> list[Candidate]:
    """Every candidate the diagnosis suggests, each tagged with the rank of the plugin it answers."""
    by_plugin: dict[str, list[NodeInfo]] = {}
    for name, status in statuses.items():
        info = snapshot.get(name)
        if info is not None:
            by_plugin.setdefault(_plugin_of(status), []).append(info)
    ranked = sorted(by_plugin.items(), key=lambda item: -len(item[1]))  # stable: first rejected first on ties
    pod = inputs.pod
    candidates: list[Candidate] = []
    for rank, (plugin, nodes) in enumerate(ranked):
        generator = GENERATORS.get(plugin)
        if generator is None:
            continue
        reasons = {name: statuses[name].reasons for name in (node.name for node in nodes)}
        for candidate in generator(Rejection(inputs, pod, nodes, reasons, snapshot)):
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


GENERATORS: dict[str, Generator] = {
    "TaintToleration": taint_toleration.candidates,
    "NodeUnschedulable": node_unschedulable.candidates,
    "NodeAffinity": node_affinity.candidates,
    "NodeResourcesFit": node_resources_fit.candidates,
    "NodePorts": node_ports.candidates,
    "PodTopologySpread": pod_topology_spread.candidates,
    "InterPodAffinity": inter_pod_affinity.candidates,
    "VolumeBinding": volume_binding.candidates,
}
