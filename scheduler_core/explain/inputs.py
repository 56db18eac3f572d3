"""What an explanation's scheduling attempt starts from: the cluster's objects as the scheduler's
snapshot sees them, and the earlier pending pods scheduled first. explain.py asks why a pod lands
where it does; suggestions.py asks the same of a copy with one object changed."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scheduler_core.api.types import Node, Pod, PodDisruptionBudget
from scheduler_core.api.workloads import PersistentVolume, PersistentVolumeClaim, StorageClass
from scheduler_core.scheduler.config import SchedulerConfiguration
from scheduler_core.scheduler.schedule_one import Scheduler
from scheduler_core.scheduler.snapshot import PodInfo, PodInfoCache
from scheduler_core.scheduler.volume_lister import StaticVolumeLister


@dataclass(slots=True)
class SchedulingInputs:
    """Everything an explanation's scheduling attempt is computed from. A what-if (a suggested fix)
    is a copy with some objects replaced, scheduled again from scratch by build_scheduler."""

    nodes: list[Node]  # in the order they are added to the snapshot
    bound: list[Pod]  # pods on nodes, in the order they are added
    pending: list[Pod]  # earlier pods, admitted, scheduled in this order before the pod
    pod: Pod  # the pod explained: admitted, unbound
    namespace_labels: dict[str, Mapping[str, str]] = field(default_factory=dict)
    pdbs: list[PodDisruptionBudget] = field(default_factory=list)
    claims: list[PersistentVolumeClaim] = field(default_factory=list)
    volumes: list[PersistentVolume] = field(default_factory=list)
    storage_classes: list[StorageClass] = field(default_factory=list)
    configuration: SchedulerConfiguration | None = None
    seed: int = 0


def build_scheduler(
    inputs: SchedulingInputs, factory: Callable[..., Scheduler] = Scheduler, pod_infos: PodInfoCache | None = None
) -> tuple[Scheduler, list[dict[str, Any]]]:
    """The scheduler as it is just before the pod's attempt: nodes and bound pods in its snapshot,
    the earlier pods scheduled (with preemption). Returns it with the earlier pods' outcomes.
    `pod_infos`: the bound pods' PodInfos, kept across calls by the caller."""
    # The generic loops (fast_path=False): the explanation reports what each plugin did.
    scheduler = factory(inputs.configuration, seed=inputs.seed, fast_path=False)
    snapshot = scheduler.snapshot
    snapshot.namespace_labels = dict(inputs.namespace_labels)
    scheduler.handle.pdbs = list(inputs.pdbs)
    scheduler.handle.volumes = StaticVolumeLister(inputs.claims, inputs.volumes, inputs.storage_classes)
    for node in inputs.nodes:
        snapshot.add_node(node)
    info = PodInfo if pod_infos is None else pod_infos.info
    snapshot.add_pods([info(pod) for pod in inputs.bound])
    for pod in inputs.pending:
        scheduler.handle.nominator.add(pod)  # a pending pod may carry a nomination already
    earlier = [_schedule_earlier(scheduler, pod) for pod in inputs.pending]
    return scheduler, earlier


def _schedule_earlier(scheduler: Scheduler, pod: Pod) -> dict[str, Any]:
    """One earlier pod, as the cluster would handle it: bound, or preempting and then retried once
    on the node its victims freed, or left Pending."""
    result = scheduler.schedule_pod(pod)
    entry: dict[str, Any] = {"pod": pod.key}
    if result.selected is None and result.nominated_node:
        applied = scheduler.apply_preemption(result)
        entry["preempted"] = [victim.key for victim in applied.evicted]
        pod = applied.preemptor
        result = scheduler.schedule_pod(pod)
    if result.selected is not None:
        scheduler.bind(pod, result.selected)
    entry["node"] = result.selected
    if result.selected is None:
        entry["message"] = result.message
    return entry
