"""A pod as `kubectl describe pod` shows it (k8s.io/kubectl/pkg/describe describePod), at one
moment of a run: its status, its conditions in the kubelet's order, and its events counted as
kubectl lists them, with ages at that moment."""

from dataclasses import dataclass, field
from typing import Any

from scheduler_core.api.container_states import (
    RUNNING,
    TERMINATED,
    ContainerState,
    container_states,
    init_container_states,
)
from scheduler_core.api.pod_conditions import conditions_of, is_pod_terminal
from scheduler_core.api.qos import qos_class
from scheduler_core.api.types import Pod, PodCondition
from scheduler_core.explain.object_events import DescribedEvent, described_events
from scheduler_core.store.cluster import Cluster
from scheduler_core.store.event_correlation import human_duration


@dataclass(frozen=True, slots=True)
class DescribedContainer:
    """A container as kubectl describe lists it: name, image, its state in words, ready, restarts."""

    name: str
    image: str
    state: str  # "Running (since t=1s)", "Waiting (ContainerCreating)", "Terminated (Completed, exit code 0)"
    ready: bool
    restart_count: int


@dataclass(slots=True)
class PodDescription:
    name: str
    namespace: str
    priority: int
    priority_class_name: str
    node: str  # "<none>" while unbound
    start_time: float | None
    labels: list[tuple[str, str]]  # sorted by key, as kubectl prints them
    status: str  # the phase, or "Terminating (lasts <invalid>)"
    termination_grace_period: int | None  # while Terminating
    reason: str
    message: str
    controlled_by: str
    nominated_node: str
    qos_class: str
    conditions: list[PodCondition]
    at: float  # the simulated time the ages count to
    containers: list[DescribedContainer] = field(default_factory=list)
    events: list[DescribedEvent] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "namespace": self.namespace,
            "priority": self.priority,
            "priorityClassName": self.priority_class_name,
            "node": self.node,
            "startTime": self.start_time,
            "labels": dict(self.labels),
            "status": self.status,
            "terminationGracePeriod": self.termination_grace_period,
            "reason": self.reason,
            "message": self.message,
            "controlledBy": self.controlled_by,
            "nominatedNodeName": self.nominated_node,
            "qosClass": self.qos_class,
            "at": self.at,
            "conditions": [{"type": c.type, "status": c.status, "reason": c.reason} for c in self.conditions],
            "containers": [
                {"name": c.name, "image": c.image, "state": c.state, "ready": c.ready, "restartCount": c.restart_count}
                for c in self.containers
            ],
            "events": [event.as_dict() for event in self.events],
        }


def describe_pod(cluster: Cluster, pod: Pod, now: float) -> PodDescription:
    """`kubectl describe pod` at simulated time `now`, with this pod's (this UID's) events."""
    owner = pod.metadata.controller_ref()
    status, grace = pod.status.phase, None
    if pod.metadata.deletion_timestamp is not None and not is_pod_terminal(pod):
        # kubectl prints the time since the API's deletionTimestamp, the request plus the grace
        # period: while the grace period runs that is in the future, and kubectl says <invalid>.
        grace = pod.metadata.deletion_grace_period_seconds or 0
        status = f"Terminating (lasts {human_duration(now - (pod.metadata.deletion_timestamp + grace))})"
    return PodDescription(
        name=pod.name,
        namespace=pod.namespace,
        priority=pod.priority,
        priority_class_name=pod.spec.priority_class_name,
        node=pod.spec.node_name or "<none>",
        start_time=pod.status.start_time,
        labels=sorted(pod.labels.items()),
        status=status,
        termination_grace_period=grace,
        reason=pod.status.reason,
        message=pod.status.message,
        controlled_by=f"{owner.kind}/{owner.name}" if owner else "",
        nominated_node=pod.status.nominated_node_name,
        qos_class=qos_class(pod),
        conditions=conditions_of(pod),
        at=now,
        containers=[_container(state) for state in (*init_container_states(pod), *container_states(pod))],
        events=described_events(cluster, "Pod", pod.namespace, pod.name, pod.metadata.uid, now),
    )


def _container(state: ContainerState) -> DescribedContainer:
    if state.state == RUNNING:
        words = f"Running (since t={state.started_at:g}s)" if state.started_at is not None else "Running"
    elif state.state == TERMINATED:
        words = f"Terminated ({state.reason}, exit code {state.exit_code})"
    else:
        words = f"Waiting ({state.reason})"
    return DescribedContainer(state.name, state.image, words, state.ready, state.restart_count)
