"""The Priority admission plugin (plugin/pkg/admission/priority): a pod's priorityClassName
becomes its spec.priority and, unless set, its preemptionPolicy; without a class (nor a global
default) a pod gets priority 0 and PreemptLowerPriority."""

from collections.abc import Mapping
from dataclasses import replace

from scheduler_core.admission.spec_memo import SpecMemo
from scheduler_core.api.types import ObjectMeta, Pod, PodSpec, PriorityClass

SYSTEM_CLUSTER_CRITICAL = "system-cluster-critical"
SYSTEM_NODE_CRITICAL = "system-node-critical"
PREEMPT_LOWER_PRIORITY = "PreemptLowerPriority"
# Built into every cluster (pkg/apis/scheduling: SystemCriticalPriority = 2 * HighestUserDefinablePriority).
BUILTIN_PRIORITY_CLASSES: dict[str, PriorityClass] = {
    SYSTEM_CLUSTER_CRITICAL: PriorityClass(ObjectMeta(SYSTEM_CLUSTER_CRITICAL), 2_000_000_000),
    SYSTEM_NODE_CRITICAL: PriorityClass(ObjectMeta(SYSTEM_NODE_CRITICAL), 2_000_001_000),
}


class AdmissionError(Exception):
    """The API server would refuse the object; the text is upstream's."""


def admit_priority(pod: Pod, classes: Mapping[str, PriorityClass], memo: SpecMemo | None = None) -> Pod:
    """The pod with its class's priority and policy; `memo` shares the spec this makes between the
    pods of one template."""
    known = {**BUILTIN_PRIORITY_CLASSES, **classes}
    spec = pod.spec
    name = spec.priority_class_name
    if name:
        priority_class = known.get(name)
        if priority_class is None:
            # Mutating admission runs before a generated name is chosen: the message shows the prefix.
            shown = pod.metadata.generate_name or pod.name
            raise AdmissionError(f'pods "{shown}" is forbidden: no PriorityClass with name {name} was found')
    else:
        priority_class = next((c for c in classes.values() if c.global_default), None)
    if priority_class is None:
        # No class and no global default: priority 0 and PreemptLowerPriority (getDefaultPriority),
        # unless the manifest already carries them (upstream would refuse a different one).
        priority = 0 if spec.priority is None else spec.priority
        wanted = (priority, name, spec.preemption_policy or PREEMPT_LOWER_PRIORITY)
    else:
        policy = spec.preemption_policy or priority_class.preemption_policy
        wanted = (priority_class.value, priority_class.metadata.name, policy)
    if (spec.priority, spec.priority_class_name, spec.preemption_policy) == wanted:
        return pod

    def prioritized() -> PodSpec:
        return replace(spec, priority=wanted[0], priority_class_name=wanted[1], preemption_policy=wanted[2])

    return replace(pod, spec=prioritized() if memo is None else memo.get(spec, wanted, prioritized))
