"""Containers' states as the kubelet reports them, read off a pod's phase, start and readiness: built
by hand for each rule, and checked against what the engine's kubelet does in a run."""

from dataclasses import replace

import pytest

from scheduler_core.api.container_states import (
    COMPLETED,
    CONTAINER_CREATING,
    ERROR,
    POD_INITIALIZING,
    RUNNING,
    TERMINATED,
    WAITING,
    ContainerState,
    container_states,
    init_container_states,
)
from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.pod_conditions import DISRUPTION_TARGET, TERMINATION_BY_KUBELET, with_condition
from scheduler_core.api.types import Container, ObjectMeta, Pod, PodSpec, PodStatus
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import Change, ChangeType
from tests.core.controllers.node_health_helpers import NODE

APP = Container("app", "nginx:1.27")
SIDE = Container("proxy", "envoy", restart_policy="Always")
SETUP = Container("setup", "busybox")


def pod(
    phase: str = "Pending",
    *,
    node: str = "n1",
    start: float | None = None,
    ready: bool = False,
    init: tuple[Container, ...] = (),
    annotations: dict[str, str] | None = None,
    reason: str = "",
    message: str = "",
) -> Pod:
    return Pod(
        ObjectMeta("web", "default", annotations=annotations or {}),
        PodSpec(containers=(APP,), init_containers=init, node_name=node),
        PodStatus(phase=phase, start_time=start, ready=ready, reason=reason, message=message),
    )


def test_a_pod_no_kubelet_took_has_no_container_statuses():
    assert container_states(pod(node="")) == []
    rejected = pod(
        "Failed", reason="OutOfcpu", message="Pod was rejected: Node didn't have enough resource: cpu", init=(SETUP,)
    )
    assert container_states(rejected) == [] and init_container_states(rejected) == []
    assert container_states(pod("Succeeded")) == []  # imported ended, never started here
    assert container_states(pod("Unknown", start=3.0)) == []


def test_a_bound_pod_not_started_is_creating_its_containers():
    assert container_states(pod()) == [ContainerState("app", "nginx:1.27", WAITING, CONTAINER_CREATING)]
    with_init = pod(init=(SETUP, SIDE))
    assert [s.reason for s in container_states(with_init)] == [POD_INITIALIZING]
    assert [(s.name, s.state, s.reason) for s in init_container_states(with_init)] == [
        ("setup", WAITING, POD_INITIALIZING),
        ("proxy", WAITING, POD_INITIALIZING),
    ]


def test_a_running_pod_runs_its_containers_since_it_started():
    (state,) = container_states(pod("Running", start=4.0, ready=True))
    assert state == ContainerState("app", "nginx:1.27", RUNNING, ready=True, started=True, started_at=4.0)
    (unready,) = container_states(pod("Running", start=4.0))
    assert (unready.ready, unready.started) == (False, True)


def test_init_containers_completed_when_the_pod_started_and_a_sidecar_runs_on():
    running = pod("Running", start=4.0, ready=True, init=(SETUP, SIDE))
    setup, proxy = init_container_states(running)
    assert setup == ContainerState(
        "setup", "busybox", TERMINATED, COMPLETED, started_at=4.0, finished_at=4.0, exit_code=0
    )
    assert (proxy.state, proxy.ready, proxy.started_at) == (RUNNING, True, 4.0)


def test_a_pod_that_ran_to_completion_finishes_after_its_run_seconds():
    (done,) = container_states(pod("Succeeded", start=1.0))
    assert done == ContainerState(
        "app", "nginx:1.27", TERMINATED, COMPLETED, started_at=1.0, finished_at=6.0, exit_code=0
    )
    (longer,) = container_states(pod("Succeeded", start=1.0, annotations={"playground.k8s.io/run-seconds": "12"}))
    assert longer.finished_at == 13.0


@pytest.mark.parametrize(("annotation", "code"), [("3", 3), ("oops", 1), ("0", 1)])
def test_a_failed_pod_exits_with_its_annotated_code(annotation, code):
    failed = pod("Failed", start=1.0, annotations={"playground.k8s.io/exit-code": annotation})
    (state,) = container_states(failed)
    assert (state.state, state.exit_code, state.reason, state.started) == (TERMINATED, code, ERROR, False)


def test_an_evicted_pod_was_killed_when_the_kubelet_evicted_it():
    evicted = pod("Failed", start=1.0, reason="Evicted", message="The node was low on resource: memory.")
    evicted = replace(
        evicted, status=with_condition(evicted.status, DISRUPTION_TARGET, True, 10.0, TERMINATION_BY_KUBELET, "x")
    )
    (state,) = container_states(evicted)
    assert (state.exit_code, state.reason, state.started_at, state.finished_at) == (137, ERROR, 1.0, 10.0)


def test_the_manifest_is_a_container_status_in_kubernetes_shape():
    state = ContainerState("app", "nginx", TERMINATED, ERROR, started_at=1.0, finished_at=6.5, exit_code=3)
    assert state.as_manifest() == {
        "name": "app",
        "state": {
            "terminated": {
                "exitCode": 3,
                "reason": "Error",
                "startedAt": "1970-01-01T00:00:01Z",
                "finishedAt": "1970-01-01T00:00:06.5Z",
            }
        },
        "lastState": {},
        "ready": False,
        "restartCount": 0,
        "image": "nginx",
        "imageID": "",
        "started": False,
    }
    waiting = ContainerState("app", "nginx", WAITING, CONTAINER_CREATING).as_manifest()
    assert waiting["state"] == {"waiting": {"reason": "ContainerCreating"}}


SCENARIO = (
    NODE.format(name="n1")
    + """---
apiVersion: v1
kind: Pod
metadata:
  name: batch
  annotations: {playground.k8s.io/run-seconds: "2.5", playground.k8s.io/exit-code: "3"}
spec:
  restartPolicy: Never
  containers: [{name: app, image: busybox}]
"""
)


def test_the_states_follow_the_kubelet_through_a_run():
    simulation = Simulation(load_manifests(SCENARIO))
    seen: list[tuple[float, str, str, float | None]] = []
    for item in simulation.stream():
        change = item.of(Pod) if isinstance(item, Change) else None
        if change is None or change.type is ChangeType.DELETED:
            continue
        for state in container_states(change.latest):
            seen.append((simulation.now, state.state, state.reason, state.finished_at))
    # Bound at 0 (ContainerCreating), started at 1 s, failed 2.5 s later with exit code 3.
    assert seen[0] == (0.0, WAITING, CONTAINER_CREATING, None)
    assert (1.0, RUNNING, "", None) in seen
    assert seen[-1] == (3.5, TERMINATED, ERROR, 3.5)
    assert container_states(simulation.cluster.get(Pod, "default/batch"))[0].exit_code == 3
