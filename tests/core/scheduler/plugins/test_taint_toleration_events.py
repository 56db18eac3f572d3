"""TaintToleration's registered events and queueing hints, ported from upstream's
tainttoleration/taint_toleration_test.go (TestIsSchedulableAfterNodeChange and the pod toleration
hint's table)."""

from typing import Any

import pytest

from scheduler_core.api.types import NO_SCHEDULE, Node, NodeSpec, ObjectMeta, Pod, PodSpec, Taint, Toleration
from scheduler_core.scheduler.cluster_events import ActionType, ClusterEvent, EventResource, QueueingHint
from scheduler_core.scheduler.plugins.taint_toleration import TaintToleration

QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP


def dedicated(user: str) -> Taint:
    return Taint("dedicated", NO_SCHEDULE, user)


def node(*taints: Taint) -> Node:
    return Node(ObjectMeta("nodeA"), NodeSpec(taints=taints))


def pod_tolerating(user: str) -> Pod:
    toleration = Toleration(key="dedicated", operator="Equal", value=user, effect=NO_SCHEDULE)
    return Pod(ObjectMeta("pod1"), PodSpec(tolerations=(toleration,)))


def pod(name: str, uid: str = "", *, tolerations: tuple[Toleration, ...] = ()) -> Pod:
    return Pod(ObjectMeta(name, "ns-1", uid=uid), PodSpec(tolerations=tolerations))


FOO_NO_SCHEDULE = (Toleration(key="foo", effect=NO_SCHEDULE),)


def test_registers_node_add_and_taint_updates_and_the_pods_toleration_updates() -> None:
    registrations = TaintToleration().events_to_register()
    assert [r.event for r in registrations] == [
        ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_TAINT),
        ClusterEvent(EventResource.POD, ActionType.UPDATE_POD_TOLERATIONS),
    ]
    assert all(r.hint is not None for r in registrations)


@pytest.mark.parametrize(
    ("target", "old", "new", "expected"),
    [
        pytest.param(pod_tolerating("user2"), None, "not-a-node", QUEUE, id="backoff-wrong-new-object"),
        pytest.param(
            pod_tolerating("user2"), "not-a-node", node(dedicated("user1")), QUEUE, id="backoff-wrong-old-object"
        ),
        pytest.param(
            pod_tolerating("user2"),
            None,
            node(dedicated("user1")),
            SKIP,
            id="skip-queue-on-untoleratedtaint-node-added",
        ),
        pytest.param(
            pod_tolerating("user2"), None, node(dedicated("user2")), QUEUE, id="queue-on-toleratedtaint-node-added"
        ),
        pytest.param(
            pod_tolerating("user2"),
            node(dedicated("user1")),
            node(dedicated("user1"), dedicated("user3")),
            SKIP,
            id="skip-unrelated-change",
        ),
        pytest.param(
            pod_tolerating("user2"),
            node(dedicated("user1")),
            node(dedicated("user2")),
            QUEUE,
            id="queue-on-taint-change",
        ),
        pytest.param(
            pod_tolerating("user2"),
            node(),
            node(Taint("dedicated", "PreferNoSchedule", "user1")),
            SKIP,
            id="skip-when-it-was-tolerated-before",
        ),
    ],
)
def test_is_schedulable_after_node_change(target: Pod, old: Any, new: Any, expected: QueueingHint) -> None:
    assert TaintToleration().is_schedulable_after_node_change(target, old, new) is expected


@pytest.mark.parametrize(
    ("target", "old", "new", "expected"),
    [
        pytest.param(pod("pod-1"), None, "not-a-pod", QUEUE, id="backoff-wrong-new-object"),
        pytest.param(pod("pod-1"), "not-a-pod", pod("pod-1"), QUEUE, id="backoff-wrong-old-object"),
        pytest.param(
            pod("pod-1", "uid0"),
            pod("pod-2", "uid1"),
            pod("pod-2", "uid1", tolerations=FOO_NO_SCHEDULE),
            SKIP,
            id="skip-updates-other-pod",
        ),
        pytest.param(
            pod("pod-1"), pod("pod-1"), pod("pod-1", tolerations=FOO_NO_SCHEDULE), QUEUE, id="queue-on-toleration-added"
        ),
    ],
)
def test_is_schedulable_after_pod_toleration_change(target: Pod, old: Any, new: Any, expected: QueueingHint) -> None:
    assert TaintToleration().is_schedulable_after_pod_toleration_change(target, old, new) is expected
