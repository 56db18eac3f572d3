"""NodeAffinity's registered events and queueing hint, ported from upstream's
nodeaffinity/node_affinity_test.go (Test_isSchedulableAfterNodeChange)."""

from collections.abc import Mapping
from typing import Any

import pytest

from scheduler_core.api.types import (
    Affinity,
    Node,
    NodeAffinity,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    NodeStatus,
    ObjectMeta,
    Pod,
    PodSpec,
)
from scheduler_core.scheduler.cluster_events import ActionType, ClusterEvent, EventResource, QueueingHint
from scheduler_core.scheduler.plugins import node_affinity

QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP
FOO_IN_BAR = {"nodeSelectorTerms": [{"matchExpressions": [{"key": "foo", "operator": "In", "values": ["bar"]}]}]}


def pod_with_node_affinity() -> Pod:
    term = NodeSelectorTerm(match_expressions=(NodeSelectorRequirement("foo", "In", ("bar",)),))
    affinity = Affinity(node_affinity=NodeAffinity(required=NodeSelector((term,))))
    return Pod(ObjectMeta("pod"), PodSpec(affinity=affinity))


def node(*, allocatable: Mapping[str, int] | None = None, **labels: str) -> Node:
    return Node(ObjectMeta("node", labels=labels), status=NodeStatus(allocatable=allocatable or {}))


def plugin(enforced: Mapping[str, Any] | None = None) -> node_affinity.NodeAffinity:
    args = {"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": enforced}} if enforced else {}
    return node_affinity.NodeAffinity(args)


def test_registers_node_add_and_label_updates() -> None:
    registrations = plugin().events_to_register()
    assert [r.event for r in registrations] == [
        ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL)
    ]
    assert registrations[0].hint is not None


@pytest.mark.parametrize(
    ("enforced", "old", "new", "expected"),
    [
        pytest.param(None, None, "not-a-node", QUEUE, id="backoff-wrong-new-object"),
        pytest.param(None, "not-a-node", node(), QUEUE, id="backoff-wrong-old-object"),
        pytest.param(None, None, node(), SKIP, id="skip-queue-on-add"),
        pytest.param(None, None, node(foo="bar"), QUEUE, id="queue-on-add"),
        pytest.param(None, node(), node(allocatable={"cpu": 1000}), SKIP, id="skip-unrelated-changes"),
        pytest.param(None, node(), node(k="v"), SKIP, id="skip-unrelated-changes-on-labels"),
        pytest.param(
            None, node(foo="bar"), node(k="v"), SKIP, id="skip-labels-changes-on-node-from-suitable-to-unsuitable"
        ),
        pytest.param(None, node(), node(foo="bar"), QUEUE, id="queue-on-labels-change-makes-pod-schedulable"),
        pytest.param(FOO_IN_BAR, None, node(), SKIP, id="skip-queue-on-add-scheduler-enforced-node-affinity"),
        pytest.param(FOO_IN_BAR, None, node(foo="bar"), QUEUE, id="queue-on-add-scheduler-enforced-node-affinity"),
    ],
)
def test_is_schedulable_after_node_change(
    enforced: Mapping[str, Any] | None, old: Any, new: Any, expected: QueueingHint
) -> None:
    assert plugin(enforced).is_schedulable_after_node_change(pod_with_node_affinity(), old, new) is expected


def test_node_selector_counts_as_required_affinity() -> None:
    """GetRequiredNodeAffinity joins spec.nodeSelector with the required terms."""
    selecting = Pod(ObjectMeta("pod"), PodSpec(node_selector={"zone": "a"}))
    hint = plugin().is_schedulable_after_node_change
    assert hint(selecting, node(), node(zone="a")) is QUEUE
    assert hint(selecting, node(), node(zone="b")) is SKIP
