"""NodePorts' registered events and queueing hint, ported from upstream's
nodeports/node_ports_test.go (Test_isSchedulableAfterPodDeleted)."""

from typing import Any

import pytest

from scheduler_core.api.types import Container, ContainerPort, ObjectMeta, Pod, PodSpec, PodStatus
from scheduler_core.scheduler.cluster_events import (
    NODE_ADD,
    ActionType,
    ClusterEvent,
    EventResource,
    QueueingHint,
)
from scheduler_core.scheduler.plugins.node_ports import NodePorts

QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP


def pod(*host_ports: int, node_name: str = "", nominated: str = "", sidecar_port: int = 0) -> Pod:
    ports = tuple(ContainerPort(container_port=p, host_port=p) for p in host_ports)
    sidecars = (
        (Container("sidecar", ports=(ContainerPort(sidecar_port, sidecar_port),), restart_policy="Always"),)
        if sidecar_port
        else ()
    )
    spec = PodSpec(containers=(Container("c", ports=ports),), init_containers=sidecars, node_name=node_name)
    return Pod(ObjectMeta("pod"), spec, PodStatus(nominated_node_name=nominated))


def test_registers_pod_deletions_with_a_hint_and_node_add_without_one() -> None:
    registrations = NodePorts().events_to_register()
    assert [r.event for r in registrations] == [ClusterEvent(EventResource.POD, ActionType.DELETE), NODE_ADD]
    assert registrations[0].hint is not None
    assert registrations[1].hint is None


@pytest.mark.parametrize(
    ("deleted", "expected"),
    [
        pytest.param("not-a-pod", QUEUE, id="backoff-wrong-old-object"),
        pytest.param(pod(), SKIP, id="skip-queue-on-unscheduled"),
        pytest.param(pod(node_name="fake-node"), SKIP, id="skip-queue-on-non-hostport"),
        pytest.param(pod(8081, node_name="fake-node"), SKIP, id="skip-queue-on-unrelated-hostport"),
        pytest.param(pod(8080, node_name="fake-node"), QUEUE, id="queue-on-released-hostport"),
        # Not in upstream's table: a nominated pod's ports count, and so do sidecars' (GetHostPorts).
        pytest.param(pod(8080, nominated="fake-node"), QUEUE, id="queue-on-nominated-pod-released-hostport"),
        pytest.param(pod(node_name="fake-node", sidecar_port=8080), QUEUE, id="queue-on-released-sidecar-hostport"),
    ],
)
def test_is_schedulable_after_pod_deleted(deleted: Any, expected: QueueingHint) -> None:
    assert NodePorts().is_schedulable_after_pod_deleted(pod(8080), deleted, None) is expected
