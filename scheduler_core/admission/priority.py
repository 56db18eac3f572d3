"""The Priority admission plugin (plugin/pkg/admission/priority): a pod's priorityClassName
becomes its spec.priority and, unless set, its preemptionPolicy."""

from collections.abc import Mapping
from dataclasses import replace

from scheduler_core.api.types import ObjectMeta, Pod, PriorityClass

SYSTEM_CLUSTER_CRITICAL = "system-cluster-critical"
SYSTEM_NODE_CRITICAL = "system-node-critical"
# Built into every cluster (pkg/apis/scheduling: SystemCriticalPriority = 2 * HighestUserDefinablePriority).
BUILTIN_PRIORITY_CLASSES: dict[str, PriorityClass] = {
    SYSTEM_CLUSTER_CRITICAL: PriorityClass(ObjectMeta(SYSTEM_CLUSTER_CRITICAL), 2_000_000_000),
    SYSTEM_NODE_CRITICAL: PriorityClass(ObjectMeta(SYSTEM_NODE_CRITICAL), 2_000_001_000),
}


class AdmissionError(Exception):
    """The API server would refuse the object; the text is upstream's."""


def admit_priority(pod: Pod, classes: Mapping[str, PriorityClass]) -> Pod:
    known = {**BUILTIN_PRIORITY_CLASSES, **classes}
    name = pod.spec.priority_class_name
    if name:
        priority_class = known.get(name)
        if priority_class is None:
            # Mutating admission runs before a generated name is chosen: the message shows the prefix.
            shown = pod.metadata.generate_name or pod.name
            raise AdmissionError(f'pods "{shown}" is forbidden: no PriorityClass with name {name} was found')
    else:
        priority_class = next((c for c in classes.values() if c.global_default), None)
        if priority_class is None:
            # No class and no global default: priority 0, unless the manifest already carries one.
            return pod if pod.spec.priority is not None else replace(pod, spec=replace(pod.spec, priority=0))
    policy = pod.spec.preemption_policy or priority_class.preemption_policy
    spec = replace(
        pod.spec,
        priority=priority_class.value,
        priority_class_name=priority_class.metadata.name,
        preemption_policy=policy,
    )
    return replace(pod, spec=spec)
