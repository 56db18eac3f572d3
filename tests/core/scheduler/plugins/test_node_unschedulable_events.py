"""NodeUnschedulable's registered events and queueing hints, ported from upstream's
nodeunschedulable/node_unschedulable_test.go (TestIsSchedulableAfterNodeChange,
TestIsSchedulableAfterPodTolerationChange)."""

from typing import Any

import pytest

from scheduler_core.api.types import NO_EXECUTE, Node, NodeSpec, ObjectMeta, Pod, PodSpec, Taint, Toleration
from scheduler_core.scheduler.cluster_events import ActionType, ClusterEvent, EventResource, QueueingHint
from scheduler_core.scheduler.plugins.node_unschedulable import UNSCHEDULABLE_TAINT, NodeUnschedulable

QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP
NOT_READY = Taint("node.kubernetes.io/not-ready", NO_EXECUTE)


def node(*, unschedulable: bool, taints: tuple[Taint, ...] = ()) -> Node:
    return Node(ObjectMeta("node"), NodeSpec(unschedulable=unschedulable, taints=taints))


def pod(uid: str = "", *tolerated_keys: str) -> Pod:
    return Pod(
        ObjectMeta("pod", uid=uid),
        PodSpec(tolerations=tuple(Toleration(key=k, operator="Exists") for k in tolerated_keys)),
    )


def test_registers_node_add_and_taint_updates_and_the_pods_toleration_updates() -> None:
    registrations = NodeUnschedulable().events_to_register()
    assert [r.event for r in registrations] == [
        ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_TAINT),
        ClusterEvent(EventResource.POD, ActionType.UPDATE_POD_TOLERATIONS),
    ]
    assert all(r.hint is not None for r in registrations)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        pytest.param(None, "not-a-node", QUEUE, id="error-wrong-new-object"),
        pytest.param("not-a-node", node(unschedulable=True), QUEUE, id="error-wrong-old-object"),
        pytest.param(None, node(unschedulable=True), SKIP, id="skip-queue-on-unschedulable-node-added"),
        pytest.param(None, node(unschedulable=False), QUEUE, id="queue-on-schedulable-node-added"),
        pytest.param(
            node(unschedulable=True),
            node(unschedulable=True, taints=(NOT_READY,)),
            SKIP,
            id="skip-unrelated-change-unschedulable-true",
        ),
        pytest.param(
            node(unschedulable=False),
            node(unschedulable=False, taints=(NOT_READY,)),
            SKIP,
            id="skip-unrelated-change-unschedulable-false",
        ),
        pytest.param(
            node(unschedulable=True), node(unschedulable=False), QUEUE, id="queue-on-unschedulable-field-change"
        ),
    ],
)
def test_is_schedulable_after_node_change(old: Any, new: Any, expected: QueueingHint) -> None:
    assert NodeUnschedulable().is_schedulable_after_node_change(pod(), old, new) is expected


@pytest.mark.parametrize(
    ("target", "old", "new", "expected"),
    [
        pytest.param(pod(), None, "not-a-pod", QUEUE, id="error-wrong-new-object"),
        pytest.param(pod(), "not-a-pod", pod(), QUEUE, id="error-wrong-old-object"),
        pytest.param(
            pod("uid"),
            pod("different-uid"),
            pod("different-uid", UNSCHEDULABLE_TAINT.key),
            SKIP,
            id="skip-different-pod-update",
        ),
        pytest.param(
            pod("uid"),
            pod("uid"),
            pod("uid", UNSCHEDULABLE_TAINT.key),
            QUEUE,
            id="queue-when-the-unsched-pod-gets-toleration",
        ),
        pytest.param(
            pod("uid"),
            pod("uid"),
            pod("uid", "unrelated-key"),
            SKIP,
            id="skip-when-the-unsched-pod-gets-unrelated-toleration",
        ),
    ],
)
def test_is_schedulable_after_pod_toleration_change(target: Pod, old: Any, new: Any, expected: QueueingHint) -> None:
    assert NodeUnschedulable().is_schedulable_after_pod_toleration_change(target, old, new) is expected
