"""When kube-scheduler tries a Pending pod again, in words: for each plugin that rejected it, the
changes its queueing hints let through (each plugin's `events_to_register`; the queue in
scheduler/queue.py). Whatever happens, the queue retries a parked pod after five minutes
(podMaxInUnschedulablePodsDuration)."""

from collections.abc import Iterable
from dataclasses import dataclass

# What each plugin's hints queue the pod for, as a person would put it.
WHEN_RETRIED: dict[str, str] = {
    "NodeResourcesFit": "a node joins that could hold the pod, a node's allocatable grows, "
    "or a scheduled pod is deleted or shrinks its requests",
    "NodePorts": "a node joins, or a pod holding one of the same host ports is deleted",
    "NodeName": "a node joins",
    "NodeUnschedulable": "a node joins schedulable or is uncordoned, or the pod gains a toleration of "
    "node.kubernetes.io/unschedulable",
    "TaintToleration": "a node joins, or loses the last taint the pod does not tolerate, or the pod gains a toleration",
    "NodeAffinity": "a node joins or is relabelled and then matches the pod's node selector and required node affinity",
    "PodTopologySpread": "a pod its constraints count is added, deleted or relabelled in its namespace, or a node "
    "with the constraints' topology labels joins, leaves, or changes those labels or its taints",
    "InterPodAffinity": "a pod its required affinity selects is added or relabelled, a pod its anti-affinity "
    "selects is deleted or relabelled, or a node gets or changes a term's topology label",
    "VolumeBinding": "its claim is created or changes, a PersistentVolume or StorageClass is added or changes, "
    "or a node joins or is relabelled",
    "VolumeZone": "its claim is created or changes, a PersistentVolume is added or changes zone, a "
    "WaitForFirstConsumer StorageClass is added, or a node joins or is relabelled",
    "VolumeRestrictions": "a pod sharing its claim is deleted, its claim is created, or a node joins",
    "NodeVolumeLimits": "a scheduled pod with claims is deleted, its claim is created, or a node's CSI driver "
    "information is added",
    "DynamicResources": "its resource claims are created, allocated or released, or a device class, resource "
    "slice or node changes",
    "SchedulingGates": "all of its spec.schedulingGates are removed",
}
ANY_CHANGE = "any change to the cluster (the plugin does not say which help)"


@dataclass(frozen=True, slots=True)
class RetryTrigger:
    plugin: str
    when: str


# No plugin rejected it (no node at all, an error): it waits in the backoff queue, not for an event.
AFTER_BACKOFF = (
    "after its backoff (1 s, doubling up to 10 s): no plugin rejected it, so it is retried as after an error"
)


def retry_triggers(rejecting_plugins: Iterable[str]) -> list[RetryTrigger]:
    """The changes that wake a pod these plugins rejected, by plugin name ("" for none)."""
    plugins = sorted(set(rejecting_plugins))
    if not plugins:
        return [RetryTrigger("", AFTER_BACKOFF)]
    return [RetryTrigger(plugin, WHEN_RETRIED.get(plugin, ANY_CHANGE)) for plugin in plugins]
