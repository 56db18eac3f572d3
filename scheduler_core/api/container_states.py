"""What each of a pod's containers is doing, as the kubelet reports it in status.containerStatuses
(and initContainerStatuses): one ContainerState per container, read off the pod's phase, start
time and readiness, since the engine's kubelet (controllers/kubelet.py) runs a pod's containers
together and keeps no per-container record.

- not bound, or rejected by the kubelet's admission ("Pod was rejected: ..."): no statuses, the
  kubelet never ran it;
- bound, not started: waiting, ContainerCreating (PodInitializing when the pod has init
  containers, as the kubelet's default waiting state says);
- Running: running since the pod's start time, ready as the pod is;
- Succeeded: terminated, exit code 0, Completed;
- Failed after running: terminated with the exit code of the playground.k8s.io/exit-code
  annotation (1 when it is not a number), Error; a pod evicted by the kubelet (reason Evicted)
  was killed: exit code 137 (SIGKILL), Error.

Init containers ran to completion before the pod started (the engine starts them all at the pod's
start time): terminated, exit code 0, Completed. A sidecar (an init container with restartPolicy
Always) keeps running beside the containers, so it reports what they report.

A terminated container's finishedAt is when the engine's kubelet ended it: the pod's start plus
its run seconds (playground.k8s.io/run-seconds, 5 by default) for a pod that ran to completion, the
DisruptionTarget condition's time for an evicted pod. (A pod imported already ended gets the same
reckoning: the engine keeps no finish time.)
"""

from dataclasses import dataclass
from typing import Any

from scheduler_core.api.manifest_writer import format_timestamp
from scheduler_core.api.pod_conditions import DISRUPTION_TARGET, TERMINATION_BY_KUBELET, condition_of
from scheduler_core.api.types import Container, Pod

# The kubelet's words: controllers/kubelet.py and kubelet_admission.py use these (the api floor is
# below them).
EXIT_CODE_ANNOTATION = "playground.k8s.io/exit-code"
RUN_SECONDS_ANNOTATION = "playground.k8s.io/run-seconds"
DEFAULT_RUN_SECONDS = 5.0
MAX_ANNOTATED_SECONDS = 366 * 24 * 3600.0
REJECTED_PREFIX = "Pod was rejected: "
EVICTED = "Evicted"

# ContainerState.state
WAITING = "waiting"
RUNNING = "running"
TERMINATED = "terminated"

# Reasons (kubelet, container runtime)
CONTAINER_CREATING = "ContainerCreating"
POD_INITIALIZING = "PodInitializing"
COMPLETED = "Completed"
ERROR = "Error"
KILLED_EXIT_CODE = 137  # 128 + SIGKILL
FAILED_EXIT_CODE = 1


@dataclass(frozen=True, slots=True)
class ContainerState:
    """One entry of containerStatuses. Times are the engine's seconds (None when not known)."""

    name: str
    image: str
    state: str  # WAITING, RUNNING or TERMINATED
    reason: str = ""  # a waiting or terminated container's
    ready: bool = False
    started: bool = False
    started_at: float | None = None  # running and terminated
    finished_at: float | None = None  # terminated
    exit_code: int | None = None  # terminated
    restart_count: int = 0  # the engine never restarts a container

    def as_manifest(self) -> dict[str, Any]:
        """The ContainerStatus as the API shows it (k8s.io/api/core/v1, its field order)."""
        return {
            "name": self.name,
            "state": {self.state: self._state_fields()},
            "lastState": {},
            "ready": self.ready,
            "restartCount": self.restart_count,
            "image": self.image,
            "imageID": "",
            "started": self.started,
        }

    def _state_fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        if self.exit_code is not None:
            fields["exitCode"] = self.exit_code
        if self.reason:
            fields["reason"] = self.reason
        if self.started_at is not None:
            fields["startedAt"] = format_timestamp(self.started_at)
        if self.finished_at is not None:
            fields["finishedAt"] = format_timestamp(self.finished_at)
        return fields


def container_states(pod: Pod) -> list[ContainerState]:
    """status.containerStatuses of the pod, in spec order; empty when its kubelet never took it."""
    if not _kubelet_took(pod):
        return []
    return [_state_of(pod, container) for container in pod.spec.containers]


def init_container_states(pod: Pod) -> list[ContainerState]:
    """status.initContainerStatuses of the pod, in spec order; empty as container_states is."""
    if not _kubelet_took(pod):
        return []
    return [_init_state_of(pod, container) for container in pod.spec.init_containers]


def _kubelet_took(pod: Pod) -> bool:
    if not pod.spec.node_name or pod.status.message.startswith(REJECTED_PREFIX):
        return False
    if pod.status.phase in ("Pending", "Running"):
        return True
    # A pod that ended without starting (imported so) never ran a container; Unknown says nothing.
    return pod.status.phase in ("Succeeded", "Failed") and pod.status.start_time is not None


def _state_of(pod: Pod, container: Container) -> ContainerState:
    name, image = container.name, container.image
    phase, started_at = pod.status.phase, pod.status.start_time
    if phase == "Running":
        return ContainerState(name, image, RUNNING, ready=pod.status.ready, started=True, started_at=started_at)
    if phase in ("Succeeded", "Failed"):
        code = _exit_code(pod)
        reason = COMPLETED if code == 0 else ERROR
        return ContainerState(
            name, image, TERMINATED, reason, started_at=started_at, finished_at=_finished_at(pod), exit_code=code
        )
    waiting = POD_INITIALIZING if pod.spec.init_containers else CONTAINER_CREATING
    return ContainerState(name, image, WAITING, waiting)


def _init_state_of(pod: Pod, container: Container) -> ContainerState:
    if container.restart_policy == "Always":
        return _state_of(pod, container)  # a sidecar runs beside the containers
    if pod.status.phase == "Pending":
        return ContainerState(container.name, container.image, WAITING, POD_INITIALIZING)
    started = pod.status.start_time
    return ContainerState(
        container.name, container.image, TERMINATED, COMPLETED, started_at=started, finished_at=started, exit_code=0
    )


def _exit_code(pod: Pod) -> int:
    if pod.status.phase == "Succeeded":
        return 0
    if pod.status.reason == EVICTED:
        return KILLED_EXIT_CODE
    # The kubelet fails a pod whose annotation is anything but "0"; a word has no number of its own.
    try:
        code = int(pod.metadata.annotations.get(EXIT_CODE_ANNOTATION, ""))
    except ValueError:
        return FAILED_EXIT_CODE
    return code if code != 0 else FAILED_EXIT_CODE


def _finished_at(pod: Pod) -> float | None:
    if pod.status.reason == EVICTED:
        evicted = condition_of(pod.status, DISRUPTION_TARGET)
        if evicted is not None and evicted.reason == TERMINATION_BY_KUBELET:
            return evicted.last_transition_time
        return None
    if pod.status.start_time is None:
        return None
    return pod.status.start_time + run_seconds(pod)


def run_seconds(pod: Pod) -> float:
    """How long a pod that runs to completion runs: its playground.k8s.io/run-seconds annotation,
    5 s when absent or not a number."""
    return annotated_seconds(pod, RUN_SECONDS_ANNOTATION, DEFAULT_RUN_SECONDS)


def annotated_seconds(pod: Pod, annotation: str, default: float) -> float:
    """A duration the scenario set in an annotation, bounded to 0 to 366 days; `default` when it is
    absent or not a number (the kubelet reads its start-up and run times so)."""
    raw = pod.metadata.annotations.get(annotation)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        return default
    if value != value:  # "nan" parses as a float but is no time
        return default
    return min(max(value, 0.0), MAX_ANNOTATED_SECONDS)
