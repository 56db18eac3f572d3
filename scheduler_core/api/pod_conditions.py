"""A pod's Ready condition, availability and terminal phases (k8s.io/kubernetes/pkg/api/v1/pod, util.go).

Every controller that counts available pods (ReplicaSet, DaemonSet, StatefulSet, the Deployment
through its ReplicaSets) and the HPA's readiness rules read the same thing upstream reads: the
Ready condition and its lastTransitionTime, kept on the pod (`PodStatus.ready_changed`). Whoever
turns a pod Ready or not Ready (the kubelet, the node lifecycle controller, node-pressure
eviction) writes it through `with_ready`, so the time is set in one place.
"""

from dataclasses import replace

from scheduler_core.api.types import Pod, PodStatus

TERMINAL_PHASES = frozenset({"Succeeded", "Failed"})

# Simulated time has no clock skew: a check made at the very instant a pod becomes available
# (a requeue after exactly minReadySeconds) sees what upstream's, made an instant later, sees.
AVAILABILITY_TOLERANCE = 1e-9


def with_ready(status: PodStatus, ready: bool, now: float) -> PodStatus:
    """The status with Ready set, its transition time moved only when it flips (as the kubelet's
    status manager keeps lastTransitionTime)."""
    return replace(status, ready=ready, ready_changed=now) if ready != status.ready else status


def ready_changed_at(pod: Pod) -> float | None:
    """When the pod's Ready condition last changed. A pod created Ready (an imported one) has been
    since its creation; one never Ready has no transition."""
    if pod.status.ready_changed is not None:
        return pod.status.ready_changed
    return pod.metadata.creation_timestamp if pod.status.ready else None


def is_pod_available(pod: Pod, min_ready_seconds: int, now: float, *, strict: bool = False) -> bool:
    """IsPodAvailable: Ready, and Ready for minReadySeconds.

    `strict`: for longer than minReadySeconds, upstream's Before, for the DaemonSet and StatefulSet
    controllers, which look again a second after it ("to avoid milliseconds skew"). Without it the
    instant counts: the ReplicaSet looks again exactly minReadySeconds later, when upstream's clock
    has always moved on a little."""
    if not pod.status.ready:
        return False
    if min_ready_seconds == 0:
        return True
    since = ready_changed_at(pod)
    if since is None:
        return False
    if strict:
        return since + min_ready_seconds < now
    return since + min_ready_seconds <= now + AVAILABILITY_TOLERANCE


def is_pod_terminal(pod: Pod) -> bool:
    """IsPodTerminal: Succeeded or Failed, its containers done for good."""
    return pod.status.phase in TERMINAL_PHASES
