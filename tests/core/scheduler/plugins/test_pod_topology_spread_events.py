"""PodTopologySpread's EventsToRegister and QueueingHints: upstream's hint tables (podtopologyspread/
plugin_test.go, Test_isSchedulableAfterNodeChange and Test_isSchedulableAfterPodChange, v1.34 era)
ported case by case, then what the engine adds: the registration list, default constraints, cached
constraints and the queue asking the hints."""

from typing import Any

import pytest

from scheduler_core.api.manifests import parse_object
from scheduler_core.api.types import LabelSelector, Node, Pod
from scheduler_core.scheduler.cluster_events import (
    ASSIGNED_POD_ADD,
    NODE_ADD,
    ActionType,
    ClusterEvent,
    EventResource,
    QueueingHint,
    build_queueing_hint_map,
)
from scheduler_core.scheduler.plugins.pod_topology_spread.plugin import NAME, PodTopologySpread
from scheduler_core.scheduler.plugins.priority_sort import PrioritySort
from scheduler_core.scheduler.queue import SchedulingQueue
from scheduler_core.scheduler.runtime import Handle
from scheduler_core.scheduler.selector_source import SelectorSource

QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP
FOO = {"matchExpressions": [{"key": "foo", "operator": "Exists"}]}  # upstream's fooSelector
BAR = {"matchExpressions": [{"key": "bar", "operator": "Exists"}]}  # upstream's barSelector
UNSCHEDULABLE_TOLERATION = {"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"}


def spread(key: str, selector: dict[str, Any] | None = FOO, **extra: Any) -> dict[str, Any]:
    constraint = {"maxSkew": 1, "topologyKey": key, "whenUnsatisfiable": "DoNotSchedule", **extra}
    if selector is not None:
        constraint["labelSelector"] = selector
    return constraint


def pod(
    uid: str = "p2",
    *,
    on: str = "",
    namespace: str = "default",
    spreads: tuple[dict[str, Any], ...] = (),
    tolerations: tuple[dict[str, Any], ...] = (),
    **labels: str,
) -> Pod:
    spec: dict[str, Any] = {"containers": [{"name": "c", "image": "pause"}]}
    if on:
        spec["nodeName"] = on
    if spreads:
        spec["topologySpreadConstraints"] = list(spreads)
    if tolerations:
        spec["tolerations"] = list(tolerations)
    metadata = {"name": uid, "namespace": namespace, "uid": uid, "labels": labels}
    result = parse_object({"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec})
    assert isinstance(result, Pod)
    return result


def target(*spreads: dict[str, Any], tolerations: tuple[dict[str, Any], ...] = (), **labels: str) -> Pod:
    """The parked pod: upstream's st.MakePod().UID("p").Name("p")."""
    return pod("p", spreads=spreads, tolerations=tolerations, **labels)


def node(taints: tuple[dict[str, str], ...] = (), **labels: str) -> Node:
    manifest = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": "node-a", "labels": labels},
        "spec": {"taints": list(taints)},
    }
    result = parse_object(manifest)
    assert isinstance(result, Node)
    return result


def plugin(args: dict[str, Any] | None = None, **handle: Any) -> PodTopologySpread:
    return PodTopologySpread(args or {"defaultingType": "List"}, Handle(**handle))


ZONE = spread("zone")
NODE = spread("node")
NODE_BAR = spread("node", BAR)
TAINT_A = ({"key": "aaa", "value": "bbb", "effect": "NoSchedule"},)
TAINT_C = ({"key": "ccc", "value": "bbb", "effect": "NoSchedule"},)

# (name, parked pod, old node, new node, hint)
NODE_CASES = [
    ("node updates label which matches topologyKey", target(ZONE), node(zone="zone1"), node(zone="zone2"), QUEUE),
    (
        "node that doesn't match topologySpreadConstraints updates non-related label",
        target(ZONE),
        node(foo="bar1"),
        node(foo="bar2"),
        SKIP,
    ),
    (
        "node that match topologySpreadConstraints adds non-related label",
        target(ZONE, NODE),
        node(zone="zone1", node="node1", foo="bar"),
        node(zone="zone1", node="node1"),
        SKIP,
    ),
    ("create node with non-related labels", target(ZONE), None, node(foo="bar"), SKIP),
    ("create node with related labels", target(ZONE), None, node(zone="zone1"), QUEUE),
    ("delete node with non-related labels", target(ZONE), node(foo="bar"), None, SKIP),
    ("delete node with related labels", target(ZONE), node(zone="zone1"), None, QUEUE),
    (
        "add node with related labels that only match one of topologySpreadConstraints",
        target(ZONE, NODE),
        None,
        node(zone="zone1"),
        SKIP,
    ),
    (
        "add node with related labels that match all topologySpreadConstraints",
        target(ZONE, NODE),
        None,
        node(zone="zone1", node="node1"),
        QUEUE,
    ),
    (
        "update node with related labels that only match one of topologySpreadConstraints",
        target(ZONE, NODE),
        node(zone="zone1"),
        node(zone="zone1"),
        SKIP,
    ),
    (
        "update node with related labels that match all topologySpreadConstraints",
        target(ZONE, NODE),
        node(zone="zone1", node="node1"),
        node(zone="zone1", node="node2"),
        QUEUE,
    ),
    (
        "update node with different taints that match all topologySpreadConstraints",
        target(ZONE, NODE),
        node(TAINT_A, zone="zone1", node="node1"),
        node(TAINT_C, zone="zone1", node="node1"),
        QUEUE,
    ),
    (
        "update node with different taints that only match one of topologySpreadConstraints",
        target(ZONE, NODE),
        node(TAINT_A, node="node1"),
        node(TAINT_C, node="node1"),
        SKIP,
    ),
]


@pytest.mark.parametrize(("name", "parked", "old", "new", "expected"), NODE_CASES, ids=[c[0] for c in NODE_CASES])
def test_is_schedulable_after_node_change(name: str, parked: Pod, old: Node, new: Node, expected: QueueingHint):
    assert plugin().is_schedulable_after_node_change(parked, old, new) is expected


HONOR_TAINTS = spread("zone", nodeTaintsPolicy="Honor")
IGNORE_TAINTS = spread("zone", nodeTaintsPolicy="Ignore")

# (name, parked pod, old pod, new pod, hint)
POD_CASES = [
    (
        "add pod with labels match topologySpreadConstraints selector",
        target(ZONE, foo=""),
        None,
        pod(on="fake-node", foo=""),
        QUEUE,
    ),
    ("add un-scheduled pod", target(ZONE, foo=""), None, pod(foo=""), SKIP),
    ("update un-scheduled pod", target(ZONE, foo=""), pod(bar=""), pod(foo=""), SKIP),
    ("delete un-scheduled pod", target(ZONE, foo=""), pod(foo=""), None, SKIP),
    (
        "add pod with different namespace",
        target(ZONE, foo=""),
        None,
        pod(on="fake-node", namespace="fake-namespace", foo=""),
        SKIP,
    ),
    (
        "add pod with labels don't match topologySpreadConstraints selector",
        target(ZONE, foo=""),
        None,
        pod(on="fake-node", bar=""),
        SKIP,
    ),
    (
        "delete pod with labels that match topologySpreadConstraints selector",
        target(ZONE, foo=""),
        pod(on="fake-node", foo=""),
        None,
        QUEUE,
    ),
    (
        "delete pod with labels that don't match topologySpreadConstraints selector",
        target(ZONE, foo=""),
        pod(on="fake-node", bar=""),
        None,
        SKIP,
    ),
    (
        "update pod's non-related label",
        target(ZONE, foo=""),
        pod(on="fake-node", foo="", bar="bar1"),
        pod(on="fake-node", foo="", bar="bar2"),
        SKIP,
    ),
    (
        "add pod's label that matches topologySpreadConstraints selector",
        target(ZONE, foo=""),
        pod(on="fake-node"),
        pod(on="fake-node", foo=""),
        QUEUE,
    ),
    (
        "delete pod label that matches topologySpreadConstraints selector",
        target(ZONE, foo=""),
        pod(on="fake-node", foo=""),
        pod(on="fake-node"),
        QUEUE,
    ),
    (
        "change pod's label that matches topologySpreadConstraints selector",
        target(ZONE, foo=""),
        pod(on="fake-node", foo="foo1"),
        pod(on="fake-node", foo="foo2"),
        SKIP,
    ),
    (
        "change pod's label that doesn't match topologySpreadConstraints selector",
        target(ZONE, foo=""),
        pod(on="fake-node", foo="", bar="bar1"),
        pod(on="fake-node", foo="", bar="bar2"),
        SKIP,
    ),
    (
        "add pod's label that matches topologySpreadConstraints selector with multi topologySpreadConstraints",
        target(ZONE, NODE_BAR, foo=""),
        pod(on="fake-node", foo=""),
        pod(on="fake-node", foo="", bar="bar2"),
        QUEUE,
    ),
    (
        "change pod's label that doesn't match topologySpreadConstraints selector with multi topologySpreadConstraints",
        target(ZONE, NODE_BAR, foo=""),
        pod(on="fake-node", foo=""),
        pod(on="fake-node", foo="", baz=""),
        SKIP,
    ),
    (
        "change pod's label that match topologySpreadConstraints selector with multi topologySpreadConstraints",
        target(ZONE, NODE_BAR, foo=""),
        pod(on="fake-node", foo="", bar=""),
        pod(on="fake-node", foo="", bar="bar2"),
        SKIP,
    ),
    (
        "the unschedulable Pod has topologySpreadConstraint with NodeTaintsPolicy:Honor and has got a new toleration",
        target(HONOR_TAINTS, NODE_BAR, foo=""),
        target(foo=""),
        target(foo="", tolerations=(UNSCHEDULABLE_TOLERATION,)),
        QUEUE,
    ),
    (
        "the unschedulable Pod has topologySpreadConstraint without NodeTaintsPolicy:Honor "
        "and has got a new toleration",
        target(IGNORE_TAINTS, NODE_BAR, foo=""),
        target(foo=""),
        target(foo="", tolerations=(UNSCHEDULABLE_TOLERATION,)),
        SKIP,
    ),
    (
        "the unschedulable Pod has topologySpreadConstraint and has got a new label matching the selector of the "
        "constraint",
        target(IGNORE_TAINTS, NODE_BAR, foo=""),
        target(),
        target(foo=""),
        QUEUE,
    ),
    (
        "the unschedulable Pod has topologySpreadConstraint and has got a new unrelated label",
        target(IGNORE_TAINTS, NODE_BAR, foo=""),
        target(),
        target(unrelated=""),
        SKIP,
    ),
]


@pytest.mark.parametrize(("name", "parked", "old", "new", "expected"), POD_CASES, ids=[c[0] for c in POD_CASES])
def test_is_schedulable_after_pod_change(name: str, parked: Pod, old: Pod, new: Pod, expected: QueueingHint):
    assert plugin().is_schedulable_after_pod_change(parked, old, new) is expected


# ---------------------------------------------------------------------------- beyond upstream's tables


def test_events_to_register_with_queueing_hints_on():
    spreading = plugin()
    registered = {entry.event: entry.hint for entry in spreading.events_to_register()}
    pod_actions = ActionType.ADD | ActionType.UPDATE_POD_LABEL | ActionType.UPDATE_POD_TOLERATIONS | ActionType.DELETE
    node_actions = ActionType.ADD | ActionType.DELETE | ActionType.UPDATE_NODE_LABEL | ActionType.UPDATE_NODE_TAINT
    assert registered == {
        ClusterEvent(EventResource.POD, pod_actions): spreading.is_schedulable_after_pod_change,
        ClusterEvent(EventResource.NODE, node_actions): spreading.is_schedulable_after_node_change,
    }


def test_the_pods_own_new_toleration_reaches_the_plugin_and_allocatable_changes_do_not():
    hints = build_queueing_hint_map({NAME: plugin()})
    asked = [
        event
        for event in hints
        if event.matches(ClusterEvent(EventResource.UNSCHEDULED_POD, ActionType.UPDATE_POD_TOLERATIONS))
    ]
    assert len(asked) == 1
    assert not any(
        event.matches(ClusterEvent(EventResource.NODE, ActionType.UPDATE_NODE_ALLOCATABLE)) for event in hints
    )


def test_objects_of_the_wrong_kind_queue_like_upstreams_error():
    spreading = plugin()
    assert spreading.is_schedulable_after_pod_change(target(ZONE), None, node(zone="z")) is QUEUE
    assert spreading.is_schedulable_after_node_change(target(ZONE), None, pod(on="n", foo="")) is QUEUE


def test_match_label_keys_narrow_the_selector_to_the_pods_own_value():
    parked = target(spread("zone", FOO, matchLabelKeys=["app"]), foo="", app="web")
    spreading = plugin()
    assert spreading.is_schedulable_after_pod_change(parked, None, pod(on="n", foo="", app="db")) is SKIP
    assert spreading.is_schedulable_after_pod_change(parked, None, pod(on="n", foo="", app="web")) is QUEUE


def test_a_pod_without_constraints_spreads_by_the_hard_default_constraints_and_their_selector():
    service = SelectorSource("Service", "default", "web", LabelSelector({"app": "web"}))
    args = {
        "defaultingType": "List",
        "defaultConstraints": [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}],
    }
    spreading = plugin(args, selector_sources=[service])
    parked = target(app="web")
    assert spreading.is_schedulable_after_pod_change(parked, None, pod(on="n", app="web")) is QUEUE
    assert spreading.is_schedulable_after_pod_change(parked, None, pod(on="n", app="db")) is SKIP
    # The Service went: the selector is empty, so there are no constraints any more.
    spreading.handle.selector_sources = []
    assert spreading.is_schedulable_after_pod_change(parked, None, pod(on="n", app="web")) is SKIP


def test_without_hard_constraints_every_node_carries_all_keys():
    """System defaulting has no DoNotSchedule defaults: upstream's nodeLabelsMatchSpreadConstraints is
    then true for any node, so any node added or deleted queues the pod, and an update only on taints."""
    spreading = plugin({"defaultingType": "System"})
    parked = target(app="web")
    assert spreading.is_schedulable_after_node_change(parked, None, node(foo="bar")) is QUEUE
    assert spreading.is_schedulable_after_node_change(parked, node(foo="bar"), node(foo="baz")) is SKIP
    assert spreading.is_schedulable_after_node_change(parked, node(TAINT_A), node(TAINT_C)) is QUEUE


def test_constraints_are_built_once_per_pod_version():
    spreading = plugin()
    parked = target(ZONE, foo="")
    assert spreading._hard_constraints(parked) is spreading._hard_constraints(parked)
    assert spreading._hard_constraints(target(ZONE, foo="")) is not spreading._hard_constraints(parked)


def test_a_new_version_of_the_parked_pod_is_read_afresh():
    spreading = plugin()
    added = pod(on="n", bar="")
    assert spreading.is_schedulable_after_pod_change(target(ZONE, foo=""), None, added) is SKIP
    assert spreading.is_schedulable_after_pod_change(target(spread("zone", BAR), foo=""), None, added) is QUEUE


def parked_in(q: SchedulingQueue, parked: Pod) -> None:
    q.add(parked, now=0.0)
    q.add_unschedulable(q.pop(now=0.0), now=0.0, rejectors=[NAME])


def test_the_queue_moves_a_parked_pod_only_on_a_change_its_constraints_select():
    hints = build_queueing_hint_map({NAME: plugin()})
    q = SchedulingQueue(PrioritySort().less, hint_maps={"default-scheduler": hints})
    parked_in(q, target(ZONE, foo=""))
    assert q.move_all_to_active_or_backoff(ASSIGNED_POD_ADD, now=5.0, new=pod(on="n", bar="")) == 0
    assert q.move_all_to_active_or_backoff(NODE_ADD, now=5.0, new=node(foo="bar")) == 0
    assert q.location("default/p") == "unschedulable"
    assert q.move_all_to_active_or_backoff(ASSIGNED_POD_ADD, now=5.0, new=pod(on="n", foo="")) == 1
