"""`explain`: why a pod lands where it lands, or why it stays Pending.

The files describe a cluster: Nodes, bound Pods, Namespaces, PriorityClasses, PodDisruptionBudgets.
Every other unbound Pod is scheduled first, in document order; then the pod asked about is
scheduled against that state, and every node's verdict and scores are reported.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scheduler_core.admission.priority import AdmissionError, admit_priority
from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import Manifest
from scheduler_core.api.pod_conditions import TERMINAL_PHASES
from scheduler_core.api.types import Namespace, Node, Pod, PodDisruptionBudget, PriorityClass
from scheduler_core.api.workloads import PersistentVolume, PersistentVolumeClaim, StorageClass
from scheduler_core.controllers.kubelet_admission import REJECTED
from scheduler_core.explain.describe import PodDescription, describe_pod
from scheduler_core.explain.inputs import SchedulingInputs, build_scheduler
from scheduler_core.explain.preemption import PreemptionExplanation, explain_preemption
from scheduler_core.explain.retry_triggers import RetryTrigger, retry_triggers
from scheduler_core.explain.suggestions import Fix, suggest_fixes
from scheduler_core.scheduler.config import SchedulerConfiguration
from scheduler_core.scheduler.framework import Code, CycleState, Status
from scheduler_core.scheduler.schedule_one import Scheduler, ScheduleResult
from scheduler_core.scheduler.snapshot import NodeInfo, PodInfoCache
from scheduler_core.store.cluster import Cluster


@dataclass(slots=True)
class ClusterInput:
    """The objects of the files, by kind, in document order."""

    nodes: list[Node] = field(default_factory=list)
    pods: list[tuple[Pod, Manifest]] = field(default_factory=list)
    namespaces: list[Namespace] = field(default_factory=list)
    priority_classes: dict[str, PriorityClass] = field(default_factory=dict)
    pdbs: list[PodDisruptionBudget] = field(default_factory=list)
    claims: list[PersistentVolumeClaim] = field(default_factory=list)
    volumes: list[PersistentVolume] = field(default_factory=list)
    storage_classes: list[StorageClass] = field(default_factory=list)


def collect(manifests: Sequence[Manifest]) -> ClusterInput:
    cluster = ClusterInput()
    seen: dict[tuple[str, str], Manifest] = {}
    for manifest in manifests:
        key = (manifest.kind, getattr(manifest.object.metadata, "key", ""))
        if key in seen:
            raise ManifestError(
                manifest.document,
                "metadata.name",
                f"duplicate object: also defined at line {seen[key].line}",
                manifest.line,
            )
        seen[key] = manifest
        obj = manifest.object
        if isinstance(obj, Node):
            cluster.nodes.append(obj)
        elif isinstance(obj, Pod):
            cluster.pods.append((obj, manifest))
        elif isinstance(obj, Namespace):
            cluster.namespaces.append(obj)
        elif isinstance(obj, PriorityClass):
            cluster.priority_classes[obj.metadata.name] = obj
        elif isinstance(obj, PodDisruptionBudget):
            cluster.pdbs.append(obj)
        elif isinstance(obj, PersistentVolumeClaim):
            cluster.claims.append(obj)
        elif isinstance(obj, PersistentVolume):
            cluster.volumes.append(obj)
        elif isinstance(obj, StorageClass):
            cluster.storage_classes.append(obj)
    return cluster


@dataclass(slots=True)
class NodeReport:
    name: str
    feasible: bool
    plugin: str = ""
    reasons: list[str] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)
    total: int | None = None
    evaluated: bool = True

    def as_dict(self) -> dict[str, Any]:
        if self.feasible:
            entry: dict[str, Any] = {
                "name": self.name,
                "feasible": True,
                "reasons": [],
                "scores": self.scores,
                "total": self.total,
            }
        else:
            entry = {"name": self.name, "feasible": False, "plugin": self.plugin, "reasons": self.reasons}
        if not self.evaluated:
            entry["evaluated"] = False
        return entry


@dataclass(slots=True)
class Explanation:
    pod: str
    selected: str | None
    message: str
    nodes: list[NodeReport]
    weights: dict[str, int]
    nominated_node: str | None = None
    scoring_skipped: bool = False
    earlier_pods: list[dict[str, Any]] = field(default_factory=list)
    # For a Pending pod: the smallest single changes that make it schedulable, each verified by
    # scheduling the pod again with the change applied (scheduler_core.explain.suggestions).
    fixes: "list[Fix]" = field(default_factory=list)
    # For a pod that does not fit: what DefaultPreemption's dry run found (victims and the chosen
    # node, or why it could not help); None when no preemption ran.
    preemption: PreemptionExplanation | None = None
    # A pod its kubelet refused (controllers/kubelet_admission.py): (reason, message) of its status,
    # such as ("OutOfcpu", "Pod was rejected: Node didn't have enough resource: ..."). The
    # scheduler's verdicts above are then what it would decide for the pod, not why it failed.
    rejected: tuple[str, str] | None = None
    # The pod as `kubectl describe pod` shows it at that moment (explain_in_cluster only).
    described: PodDescription | None = None
    # For a Pending pod: the changes that make kube-scheduler try it again, by rejecting plugin.
    retried_when: list[RetryTrigger] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {"pod": self.pod, "selected": self.selected}
        if self.rejected is not None:
            result["rejected"] = {"reason": self.rejected[0], "message": self.rejected[1]}
        if self.selected is None:
            result["message"] = self.message
        if self.nominated_node:
            result["nominatedNodeName"] = self.nominated_node
        if self.selected is None:
            result["fixes"] = [fix.as_dict() for fix in self.fixes]
            result["retriedWhen"] = [{"plugin": trigger.plugin, "when": trigger.when} for trigger in self.retried_when]
        if self.preemption is not None:
            result["preemption"] = self.preemption.as_dict()
        result["nodes"] = [node.as_dict() for node in self.nodes]
        result["weights"] = self.weights
        if self.scoring_skipped:
            result["note"] = "only one node fits: kube-scheduler skips scoring; the scores are shown for reference"
        result["earlierPods"] = self.earlier_pods
        if self.described is not None:
            result["describe"] = self.described.as_dict()
        return result


def _admitted(pod: Pod, manifest: Manifest, classes: dict[str, PriorityClass]) -> Pod:
    try:
        return admit_priority(pod, classes)
    except AdmissionError as error:
        raise ManifestError(manifest.document, "spec.priorityClassName", str(error), manifest.line) from None


def explain(
    manifests: Sequence[Manifest],
    pod_key: str,
    configuration: SchedulerConfiguration | None = None,
    seed: int = 0,
    *,
    fixes: bool = True,
) -> Explanation:
    """``fixes``: for a Pending pod, also compute the smallest verified fixes (Explanation.fixes)."""
    cluster = collect(manifests)
    target = next(((pod, m) for pod, m in cluster.pods if pod.key == pod_key), None)
    if target is None:
        known = ", ".join(pod.key for pod, _ in cluster.pods[:20]) or "none"
        raise ManifestError(pod_key, "", f"no Pod {pod_key} in the files (pods: {known})")

    node_names = {node.name for node in cluster.nodes}
    bound: list[Pod] = []
    pending: list[Pod] = []
    for pod, manifest in cluster.pods:
        if pod.status.phase in TERMINAL_PHASES or (pod is target[0]):
            continue
        admitted = _admitted(pod, manifest, cluster.priority_classes)
        if admitted.spec.node_name:
            if admitted.spec.node_name not in node_names:
                message = f'node "{admitted.spec.node_name}" is not in the files'
                raise ManifestError(manifest.document, "spec.nodeName", message, manifest.line)
            bound.append(admitted)
        else:
            pending.append(admitted)

    pod = _admitted(target[0], target[1], cluster.priority_classes)
    pod = replace(pod, spec=replace(pod.spec, node_name=""))  # explain where the scheduler would put it
    inputs = SchedulingInputs(
        nodes=list(cluster.nodes),
        bound=bound,
        pending=pending,
        pod=pod,
        namespace_labels={ns.metadata.name: ns.metadata.labels for ns in cluster.namespaces},
        pdbs=list(cluster.pdbs),
        claims=list(cluster.claims),
        volumes=list(cluster.volumes),
        storage_classes=list(cluster.storage_classes),
        configuration=configuration,
        seed=seed,
    )
    scheduler, earlier = build_scheduler(inputs)
    framework = scheduler.framework_for(pod)
    if framework is None:
        raise ManifestError(
            target[1].document,
            "spec.schedulerName",
            f'no profile for scheduler name "{pod.spec.scheduler_name}"',
            target[1].line,
        )
    return _explain_pod(scheduler, framework, pod, cluster.nodes, inputs if fixes else None, earlier)


def _fixes(inputs: SchedulingInputs) -> list[Fix]:
    return suggest_fixes(inputs)


def _node_reports(
    scheduler: Scheduler, pod: Pod, result: ScheduleResult, order: list[str]
) -> tuple[list[NodeReport], bool]:
    """Every node's verdict: the attempt's own where it evaluated the node, a side evaluation
    (that changes no scheduler state) for nodes the attempt did not reach."""
    framework = scheduler.framework_for(pod)
    assert framework is not None
    snapshot = scheduler.snapshot
    reports: dict[str, NodeReport] = {}
    for name, status in result.diagnosis.node_statuses.items():
        reports[name] = _rejected(name, status)
    for entry in result.scores:
        reports[entry.name] = NodeReport(entry.name, True, scores=dict(entry.scores), total=entry.total)

    missing = [snapshot.node_infos[name] for name in order if name not in reports]
    scoring_skipped = False
    if missing:
        state = CycleState()
        pre_result, pre_status, narrowing = framework.run_pre_filter(state, pod, snapshot.nodes())
        allowed = pre_result.node_names if pre_result is not None else None
        feasible: list[NodeInfo] = []
        for node in missing:
            if not pre_status.is_success:
                status = pre_status
            elif allowed is not None and node.name not in allowed:
                reason = f"node(s) didn't satisfy plugin(s) [{' '.join(sorted(narrowing))}]"
                status = Status(Code.UnschedulableAndUnresolvable, (reason,), " ".join(sorted(narrowing)))
            else:
                status = framework.run_filter(state, pod, node)
            if status.is_success:
                feasible.append(node)
            else:
                reports[node.name] = _rejected(node.name, status)
        if feasible:
            # Scores for fitting nodes the attempt did not score: with one fitting node
            # kube-scheduler skips scoring, and with sampling it stops early.
            scoring_skipped = len(result.feasible) == 1
            for entry in scheduler.prioritize_nodes(framework, state, pod, feasible):
                report = NodeReport(entry.name, True, scores=dict(entry.scores), total=entry.total)
                report.evaluated = entry.name in result.feasible
                reports[entry.name] = report
    return [reports[name] for name in order if name in reports], scoring_skipped


def _rejected(name: str, status: Status) -> NodeReport:
    return NodeReport(name, False, plugin=status.plugin, reasons=list(status.reasons))


def explain_in_cluster(
    cluster: Cluster,
    pod_key: str,
    configuration: SchedulerConfiguration | None = None,
    seed: int = 0,
    *,
    fixes: bool = True,
    pod_infos: PodInfoCache | None = None,
    now: float | None = None,
) -> Explanation:
    """The same explanation for a pod of a running simulation, against the cluster as it is now:
    every other non-terminal pod stays where it is, the pod itself is evaluated as if unbound.
    Reads the cluster's objects only: it is never changed, not even by the suggested fixes.
    `pod_infos`: PodInfos kept across explanations of the same objects (a kept run's). `now`: the
    moment the description's ages count to (by default, the cluster's last event)."""
    inputs = inputs_in_cluster(cluster, pod_key, configuration, seed)
    scheduler, _ = build_scheduler(inputs, pod_infos=pod_infos)
    pod = inputs.pod
    framework = scheduler.framework_for(pod)
    if framework is None:
        raise ManifestError(pod_key, "spec.schedulerName", f'no profile for scheduler name "{pod.spec.scheduler_name}"')
    explanation = _explain_pod(scheduler, framework, pod, inputs.nodes, inputs if fixes else None)
    stored = cluster.get(Pod, pod_key)
    if stored is not None and stored.status.phase == "Failed" and stored.status.message.startswith(REJECTED):
        explanation.rejected = (stored.status.reason, stored.status.message)
    if stored is not None:
        explanation.described = describe_pod(cluster, stored, now if now is not None else _last_event_time(cluster))
    return explanation


def _last_event_time(cluster: Cluster) -> float:
    return cluster.events[-1].time if cluster.events else 0.0


def _explain_pod(
    scheduler: Scheduler,
    framework: Any,
    pod: Pod,
    nodes: Sequence[Node],
    fix_inputs: "SchedulingInputs | None",
    earlier: list[dict[str, Any]] | None = None,
) -> Explanation:
    """Schedule the pod once and report every node; fixes only for a Pending pod (and if asked)."""
    result = scheduler.schedule_pod(pod)
    reports, scoring_skipped = _node_reports(scheduler, pod, result, [node.name for node in nodes])
    return Explanation(
        pod=pod.key,
        selected=result.selected,
        message=result.message,
        nodes=reports,
        weights=dict(framework.score_weights),
        nominated_node=result.nominated_node,
        scoring_skipped=scoring_skipped,
        earlier_pods=earlier or [],
        fixes=_fixes(fix_inputs) if fix_inputs is not None and result.selected is None else [],
        preemption=explain_preemption(result.state, pod, [node.name for node in nodes], _nominated_pods(scheduler, pod))
        if result.selected is None
        else None,
        retried_when=retry_triggers(result.diagnosis.unschedulable_plugins) if result.selected is None else [],
    )


def _nominated_pods(scheduler: Scheduler, pod: Pod) -> list[Pod]:
    """The pods on the node the pod is nominated to, as the scheduler's snapshot has them."""
    node = scheduler.snapshot.get(pod.status.nominated_node_name) if pod.status.nominated_node_name else None
    return [info.pod for info in node.pods] if node is not None else []


def inputs_in_cluster(
    cluster: Cluster, pod_key: str, configuration: SchedulerConfiguration | None = None, seed: int = 0
) -> SchedulingInputs:
    """The scheduling inputs of explain_in_cluster: nodes by name, the bound non-terminal pods."""
    target: Pod | None = cluster.get(Pod, pod_key)
    if target is None:
        raise ManifestError(pod_key, "", f"no Pod {pod_key} in the cluster at this point")
    nodes = sorted(cluster.objects(Node), key=lambda n: n.name)
    names = {node.name for node in nodes}
    bound = [
        pod
        for pod in cluster.objects(Pod)
        if pod.key != pod_key
        and pod.status.phase not in TERMINAL_PHASES
        and pod.spec.node_name
        and pod.spec.node_name in names
    ]
    return SchedulingInputs(
        nodes=nodes,
        bound=bound,
        pending=[],
        pod=replace(target, spec=replace(target.spec, node_name="")),
        namespace_labels={ns.metadata.name: ns.metadata.labels for ns in cluster.objects(Namespace)},
        pdbs=list(cluster.objects(PodDisruptionBudget)),
        claims=list(cluster.objects(PersistentVolumeClaim)),
        volumes=list(cluster.objects(PersistentVolume)),
        storage_classes=list(cluster.objects(StorageClass)),
        configuration=configuration,
        seed=seed,
    )
