"""NodeResourcesFit's registered events and queueing hints, ported from upstream's
noderesources/fit_test.go (TestEventsToRegister, Test_isSchedulableAfterPodChange,
Test_isSchedulableAfterNodeChange, TestIsFit, TestHaveAnyRequestedResourcesIncreased), with
queueing hints and InPlacePodVerticalScaling on, as in v1.34."""

from collections.abc import Mapping
from typing import Any

import pytest

from scheduler_core.api.types import (
    Container,
    Node,
    NodeStatus,
    ObjectMeta,
    Pod,
    PodSpec,
    PodStatus,
    ResourceRequirements,
)
from scheduler_core.scheduler.cluster_events import (
    ActionType,
    ClusterEvent,
    EventResource,
    QueueingHint,
    build_queueing_hint_map,
    node_scheduling_properties_change,
)
from scheduler_core.scheduler.plugins.node_resources_fit import (
    NAME,
    NodeResourcesFit,
    fits_empty_node,
    requested_resources_increased,
)
from scheduler_core.scheduler.plugins.priority_sort import PrioritySort
from scheduler_core.scheduler.queue import SchedulingQueue

QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP
GI = 1024**3
EXTENDED_A, EXTENDED_B = "example.com/aaa", "example.com/bbb"
HUGEPAGES_2MI = "hugepages-2Mi"


def pod(
    name: str = "pod",
    uid: str = "",
    *,
    node_name: str = "",
    pod_level: Mapping[str, int] | None = None,
    **requests: int,
) -> Pod:
    """A pod whose one container requests `requests` (cpu in millicores), or with pod-level requests."""
    container = Container("c", resources=ResourceRequirements(requests=requests))
    spec = PodSpec(
        containers=(container,),
        node_name=node_name,
        resources=ResourceRequirements(requests=pod_level) if pod_level is not None else None,
    )
    return Pod(ObjectMeta(name, uid=uid), spec)


def node(**capacity: int) -> Node:
    """st.MakeNode().Capacity(...): allocatable = capacity, 32 pods unless given."""
    resources = {"pods": 32, **capacity}
    return Node(ObjectMeta("node"), status=NodeStatus(capacity=resources, allocatable=resources))


def extended(**amounts: int) -> dict[str, int]:
    """Extended resource amounts by short name: a -> example.com/aaa, b -> example.com/bbb."""
    names = {"a": EXTENDED_A, "b": EXTENDED_B}
    return {names[short]: amount for short, amount in amounts.items()}


def resource_pod(memory: int = 0, cpu: int = 0, ephemeral: int = 0, **scalars: int) -> Pod:
    """newResourcePod: one container requesting these (extended resources by short name)."""
    requests = {"cpu": cpu, "memory": memory, "ephemeral-storage": ephemeral, **extended(**scalars)}
    return Pod(ObjectMeta("pod"), PodSpec(containers=(Container("c", resources=ResourceRequirements(requests)),)))


def resource_node(pods: int = 32, **amounts: int) -> Node:
    """A node with these allocatable amounts: cpu in millicores, extended resources by short name."""
    standard = {k.replace("_", "-"): v for k, v in amounts.items() if k in ("cpu", "memory", "ephemeral_storage")}
    scalars = extended(**{k: v for k, v in amounts.items() if k in ("a", "b")})
    resources = {"pods": pods, **standard, **scalars}
    return Node(ObjectMeta("node"), status=NodeStatus(capacity=resources, allocatable=resources))


def plugin() -> NodeResourcesFit:
    return NodeResourcesFit({})


def test_registers_pod_deletions_and_scale_downs_and_node_add_and_allocatable_updates() -> None:
    registrations = plugin().events_to_register()
    assert [r.event for r in registrations] == [
        ClusterEvent(EventResource.POD, ActionType.DELETE | ActionType.UPDATE_POD_SCALE_DOWN),
        ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_ALLOCATABLE),
    ]
    assert all(r.hint is not None for r in registrations)


# ------------------------------------------------------------------ pod events


@pytest.mark.parametrize(
    ("target", "old", "new", "expected"),
    [
        pytest.param(Pod(ObjectMeta("")), "not-a-pod", None, QUEUE, id="backoff-wrong-old-object"),
        pytest.param(Pod(ObjectMeta("")), None, "not-a-pod", QUEUE, id="backoff-wrong-new-object"),
        pytest.param(
            pod("pod1", cpu=1000), pod("pod2", cpu=1000, node_name="fake"), None, QUEUE, id="queue-on-other-pod-deleted"
        ),
        pytest.param(Pod(ObjectMeta("")), Pod(ObjectMeta("")), None, SKIP, id="skip-queue-on-unscheduled-pod-deleted"),
        pytest.param(
            pod("pod1", "uid0", cpu=1000),
            pod("pod2", "uid1", cpu=2000),
            pod("pod2", "uid1", cpu=1000),
            SKIP,
            id="skip-queue-on-other-unscheduled-pod",
        ),
        pytest.param(
            pod("pod1", "pod1", cpu=1000),
            pod("pod2", "pod2", node_name="fake", memory=2),
            pod("pod2", "pod2", node_name="fake", memory=1),
            SKIP,
            id="skip-queue-on-other-pod-unrelated-resource-scaled-down",
        ),
        pytest.param(
            pod("pod1", "pod1", pod_level={"cpu": 1000}),
            pod("pod2", "pod2", node_name="fake", pod_level={"memory": 2}),
            pod("pod2", "pod2", node_name="fake", pod_level={"memory": 1}),
            SKIP,
            id="skip-queue-on-other-pod-unrelated-pod-level-resource-scaled-down",
        ),
        pytest.param(
            pod("pod1", "pod1", cpu=1000),
            pod("pod2", "pod2", node_name="fake", cpu=2000),
            pod("pod2", "pod2", node_name="fake", cpu=1000),
            QUEUE,
            id="queue-on-other-pod-some-resource-scale-down",
        ),
        pytest.param(
            pod("pod1", "pod1", pod_level={"cpu": 1000}),
            pod("pod2", "pod2", node_name="fake", pod_level={"cpu": 2000}),
            pod("pod2", "pod2", node_name="fake", pod_level={"cpu": 1000}),
            QUEUE,
            id="queue-on-other-pod-some-pod-level-resource-scale-down",
        ),
        pytest.param(
            pod("pod1", "pod1", cpu=1000),
            pod("pod1", "pod1", cpu=2000),
            pod("pod1", "pod1", cpu=1000),
            QUEUE,
            id="queue-on-target-pod-some-resource-scale-down",
        ),
        pytest.param(
            pod("pod1", "pod1", pod_level={"cpu": 1000}),
            pod("pod1", "pod1", pod_level={"cpu": 2000}),
            pod("pod1", "pod1", pod_level={"cpu": 1000}),
            QUEUE,
            id="queue-on-target-pod-some-pod-level-resource-scale-down",
        ),
    ],
)
def test_is_schedulable_after_pod_event(target: Pod, old: Any, new: Any, expected: QueueingHint) -> None:
    assert plugin().is_schedulable_after_pod_event(target, old, new) is expected


def test_a_deleted_pod_that_was_only_nominated_may_free_room() -> None:
    """Lower-priority pods counted it on its nominated node (upstream checks NominatedNodeName too)."""
    other = pod("other", cpu=1000)
    nominated = Pod(other.metadata, other.spec, PodStatus(nominated_node_name="node"))
    assert plugin().is_schedulable_after_pod_event(pod(cpu=1000), nominated, None) is QUEUE


# ------------------------------------------------------------------ node events


@pytest.mark.parametrize(
    ("target", "old", "new", "expected"),
    [
        pytest.param(Pod(ObjectMeta("")), None, "not-a-node", QUEUE, id="backoff-wrong-new-object"),
        pytest.param(Pod(ObjectMeta("")), "not-a-node", Node(ObjectMeta("")), QUEUE, id="backoff-wrong-old-object"),
        pytest.param(
            resource_pod(memory=2),
            None,
            resource_node(memory=1),
            SKIP,
            id="skip-queue-on-node-add-without-sufficient-resources",
        ),
        pytest.param(
            resource_pod(a=1),
            None,
            resource_node(b=1),
            SKIP,
            id="skip-queue-on-node-add-without-required-resource-type",
        ),
        pytest.param(
            resource_pod(memory=2, a=1),
            None,
            resource_node(memory=4, a=2),
            QUEUE,
            id="queue-on-node-add-with-sufficient-resources",
        ),
        pytest.param(
            resource_pod(memory=2, a=1),
            resource_node(memory=2, a=2),
            resource_node(memory=2, a=1, b=2),
            SKIP,
            id="skip-queue-on-node-unrelated-changes",
        ),
        pytest.param(
            resource_pod(memory=2, a=1),
            resource_node(memory=2, a=1),
            resource_node(memory=2, a=2),
            QUEUE,
            id="queue-on-pod-requested-resources-increase",
        ),
        pytest.param(
            resource_pod(memory=2, a=1),
            resource_node(memory=4, a=2),
            resource_node(memory=1, a=2),
            SKIP,
            id="skip-queue-on-node-changes-from-suitable-to-unsuitable",
        ),
        pytest.param(
            resource_pod(memory=2, a=1),
            resource_node(memory=1, a=2),
            resource_node(memory=4, a=2),
            QUEUE,
            id="queue-on-node-changes-from-unsuitable-to-suitable",
        ),
    ],
)
def test_is_schedulable_after_node_change(target: Pod, old: Any, new: Any, expected: QueueingHint) -> None:
    assert plugin().is_schedulable_after_node_change(target, old, new) is expected


def test_the_plugins_ignored_resources_do_not_apply_to_the_node_hint() -> None:
    """Upstream's isFit calls Fits, which ignores no resource, whatever the plugin's args say."""
    ignoring = NodeResourcesFit({"ignoredResources": [EXTENDED_A]})
    assert ignoring.is_schedulable_after_node_change(resource_pod(a=1), None, resource_node()) is SKIP


@pytest.mark.parametrize(
    ("target", "new", "expected"),
    [
        pytest.param(pod(cpu=2000), node(cpu=1000), False, id="insufficient resource"),
        pytest.param(pod(cpu=1000), node(cpu=2000), True, id="sufficient resource"),
        pytest.param(pod(pod_level={"cpu": 2000}), node(cpu=1000), False, id="insufficient pod-level resource"),
        pytest.param(pod(pod_level={"cpu": 2000}), node(cpu=2000), True, id="sufficient pod-level resource"),
        pytest.param(
            pod(pod_level={HUGEPAGES_2MI: 2 * 1024**2}),
            node(**{HUGEPAGES_2MI: 2 * 1024**2}),
            True,
            id="sufficient pod-level resource hugepages",
        ),
        pytest.param(
            pod(pod_level={HUGEPAGES_2MI: 4 * 1024**2}),
            node(**{HUGEPAGES_2MI: 2 * 1024**2}),
            False,
            id="insufficient pod-level resource hugepages",
        ),
    ],
)
def test_fits_empty_node(target: Pod, new: Node, expected: bool) -> None:
    """TestIsFit (its nil-node case is the node hint's None: skip)."""
    assert fits_empty_node(target, new) is expected


ONE_OF_EACH = {"cpu": 1, "memory": 1, "ephemeral_storage": 1, "a": 1}


@pytest.mark.parametrize(
    ("target", "old", "new", "expected"),
    [
        pytest.param(
            resource_pod(),
            resource_node(pods=1, **ONE_OF_EACH),
            resource_node(pods=1, cpu=2, memory=2, ephemeral_storage=2, a=2),
            False,
            id="no-requested-resources",
        ),
        pytest.param(
            resource_pod(),
            resource_node(pods=1, **ONE_OF_EACH),
            resource_node(pods=2, **ONE_OF_EACH),
            True,
            id="no-requested-resources-pods-increased",
        ),
        pytest.param(
            resource_pod(cpu=2, memory=2, ephemeral=2, a=2),
            resource_node(cpu=1, memory=2, ephemeral_storage=3, a=4),
            resource_node(cpu=1, memory=2, ephemeral_storage=1, a=1),
            False,
            id="requested-resources-decreased",
        ),
        pytest.param(
            resource_pod(cpu=2, memory=2, ephemeral=2, a=2),
            resource_node(cpu=1, memory=2, ephemeral_storage=3, a=4),
            resource_node(cpu=3, memory=4, ephemeral_storage=3, a=4),
            True,
            id="requested-resources-increased",
        ),
        pytest.param(
            resource_pod(cpu=2, memory=2),
            resource_node(cpu=1, memory=2, ephemeral_storage=3, a=4),
            resource_node(cpu=1, memory=2, ephemeral_storage=1, a=1),
            False,
            id="non-requested-resources-decreased",
        ),
        pytest.param(
            resource_pod(cpu=2, memory=2),
            resource_node(cpu=1, memory=2, ephemeral_storage=3, a=4),
            resource_node(cpu=1, memory=2, ephemeral_storage=5, a=6),
            False,
            id="non-requested-resources-increased",
        ),
    ],
)
def test_requested_resources_increased(target: Pod, old: Node, new: Node, expected: bool) -> None:
    assert requested_resources_increased(target, old, new) is expected


# ------------------------------------------------------------------ through the queue


def test_a_pod_rejected_for_memory_waits_for_a_node_with_more() -> None:
    """Registered events and hints at work in the queue: a label change is not registered, an
    allocatable change that does not help is skipped, one that does requeues the pod."""
    q = SchedulingQueue(PrioritySort().less, hint_maps={"default-scheduler": build_queueing_hint_map({NAME: plugin()})})
    q.add(pod(memory=2 * GI), now=0.0)
    info = q.pop(now=0.0)
    assert info is not None
    q.add_unschedulable(info, 0.0, {NAME})
    small = node(memory=GI)

    def update(old: Node, new: Node) -> int:
        return sum(
            q.move_all_to_active_or_backoff(e, 20.0, old, new) for e in node_scheduling_properties_change(new, old)
        )

    relabelled = Node(ObjectMeta("node", labels={"zone": "a"}), status=small.status)
    assert update(small, relabelled) == 0
    assert update(small, node(memory=GI, cpu=4000)) == 0  # more cpu: the pod did not ask for any
    assert update(small, node(memory=4 * GI)) == 1
