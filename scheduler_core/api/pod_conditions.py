"""A pod's Ready condition, availability and terminal phases (k8s.io/kubernetes/pkg/api/v1/pod, util.go).

Every controller that counts available pods (ReplicaSet, DaemonSet, StatefulSet, the Deployment
through its ReplicaSets) and the HPA's readiness rules read the same thing upstream reads: the
Ready condition and its lastTransitionTime, kept on the pod (`PodStatus.ready_changed`). Whoever
turns a pod Ready or not Ready (the kubelet, the node lifecycle controller, node-pressure
eviction) writes it through `with_ready`, so the time is set in one place.

The conditions others write (the scheduler's PodScheduled, DisruptionTarget from whoever deletes a
pod to disrupt it) are kept as written (`PodStatus.conditions`, through `with_condition`);
`conditions_of` lists all of them as the API shows them.
"""

from dataclasses import replace

from scheduler_core.api.types import Pod, PodCondition, PodStatus

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


# Condition types and the reasons the engine writes (k8s.io/api/core/v1 types.go).
POD_SCHEDULED = "PodScheduled"
DISRUPTION_TARGET = "DisruptionTarget"
WRITTEN_POD_CONDITIONS = frozenset({POD_SCHEDULED, DISRUPTION_TARGET})  # kept on PodStatus.conditions
UNSCHEDULABLE = "Unschedulable"
SCHEDULER_ERROR = "SchedulerError"
SCHEDULING_GATED = "SchedulingGated"
SCHEDULING_GATED_MESSAGE = "Scheduling is blocked due to non-empty scheduling gates"
PREEMPTION_BY_SCHEDULER = "PreemptionByScheduler"
PREEMPTION_MESSAGE = "{scheduler}: preempting to accommodate a higher priority pod"  # the preemptor's scheduler
EVICTION_BY_EVICTION_API = "EvictionByEvictionAPI"
EVICTION_API_MESSAGE = "Eviction API: evicting"
DELETION_BY_TAINT_MANAGER = "DeletionByTaintManager"
TAINT_MANAGER_MESSAGE = "Taint manager: deleting due to NoExecute taint"
TERMINATION_BY_KUBELET = "TerminationByKubelet"


def condition_of(status: PodStatus, condition_type: str) -> PodCondition | None:
    return next((c for c in status.conditions if c.type == condition_type), None)


def with_condition(
    status: PodStatus, condition_type: str, value: bool, now: float, reason: str = "", message: str = ""
) -> PodStatus:
    """UpdatePodCondition: the status with the condition set; its lastTransitionTime moves only when
    its status flips. The same status object when nothing changes, so a writer can skip the update
    as upstream's does."""
    truth = "True" if value else "False"
    old = condition_of(status, condition_type)
    if old is not None and (old.status, old.reason, old.message) == (truth, reason, message):
        return status
    since = old.last_transition_time if old is not None and old.status == truth else now
    new = PodCondition(condition_type, truth, reason, message, since)
    if old is None:
        return replace(status, conditions=(*status.conditions, new))
    return replace(status, conditions=tuple(new if c is old else c for c in status.conditions))


def is_disruption_target(pod: Pod, reason: str) -> bool:
    """DisruptionTarget=True for `reason` (the scheduler reads PreemptionByScheduler)."""
    condition = condition_of(pod.status, DISRUPTION_TARGET)
    return condition is not None and condition.status == "True" and condition.reason == reason


def conditions_of(pod: Pod) -> list[PodCondition]:
    """status.conditions as the API server shows them once the kubelet has synced the pod's status:
    the conditions it does not own (DisruptionTarget) first, then its own in its order
    (PodReadyToStartContainers, Initialized, Ready, ContainersReady, PodScheduled). The kubelet
    writes PodScheduled=True for every pod it runs, one given a nodeName too ("for pods created
    before 1.6"). Before the kubelet runs it, the conditions as written."""
    written = {c.type: c for c in pod.status.conditions}
    if pod.status.start_time is None:
        return list(pod.status.conditions)
    started = pod.status.start_time
    terminal = is_pod_terminal(pod)
    names = ", ".join(c.name for c in pod.spec.containers)
    if pod.status.ready:
        ready = PodCondition("Ready", "True", last_transition_time=ready_changed_at(pod))
    elif terminal and pod.status.phase == "Succeeded":
        ready = PodCondition("Ready", "False", "PodCompleted", last_transition_time=ready_changed_at(pod) or started)
    else:
        message = f"containers with unready status: [{names}]"
        since = ready_changed_at(pod) or started
        ready = PodCondition("Ready", "False", "ContainersNotReady", message, since)
    containers_ready = replace(ready, type="ContainersReady")
    # The kubelet's status sync (mergePodStatus) keeps the conditions it does not own first.
    others = [c for c in pod.status.conditions if c.type != POD_SCHEDULED]
    return [
        *others,
        PodCondition("PodReadyToStartContainers", "False" if terminal else "True", last_transition_time=started),
        PodCondition("Initialized", "True", last_transition_time=started),
        ready,
        containers_ready,
        written.get(POD_SCHEDULED) or PodCondition(POD_SCHEDULED, "True", last_transition_time=started),
    ]
