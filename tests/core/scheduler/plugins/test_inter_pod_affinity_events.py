"""InterPodAffinity's EventsToRegister and QueueingHints: upstream's hint tables (interpodaffinity/
plugin_test.go, Test_isSchedulableAfterPodChange and Test_isSchedulableAfterNodeChange) ported case by
case, then what the engine adds: the registration list, namespaceSelector read as upstream's hints
read it, selectors that do not parse, cached terms and the queue asking the hints."""

from dataclasses import replace
from typing import Any

import pytest

from scheduler_core.api.manifests import parse_object
from scheduler_core.api.types import LabelSelector, LabelSelectorRequirement, Node, Pod
from scheduler_core.scheduler.cluster_events import (
    ASSIGNED_POD_DELETE,
    ActionType,
    ClusterEvent,
    EventResource,
    QueueingHint,
    build_queueing_hint_map,
)
from scheduler_core.scheduler.plugins.inter_pod_affinity.plugin import NAME, InterPodAffinity
from scheduler_core.scheduler.plugins.priority_sort import PrioritySort
from scheduler_core.scheduler.queue import SchedulingQueue
from scheduler_core.scheduler.runtime import Handle
from scheduler_core.scheduler.snapshot import build_snapshot

QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP


def term_in(key: str, topology_key: str, values: list[str]) -> dict[str, Any]:
    """st.PodAffinityIn's term."""
    selector = {"matchExpressions": [{"key": key, "operator": "In", "values": values}]}
    return {"labelSelector": selector, "topologyKey": topology_key}


def term_exists(key: str, topology_key: str) -> dict[str, Any]:
    """st.PodAffinityExists's term."""
    return {"labelSelector": {"matchExpressions": [{"key": key, "operator": "Exists"}]}, "topologyKey": topology_key}


def pod(
    name: str = "p2",
    *,
    on: str = "",
    namespace: str = "default",
    affinity: tuple[dict[str, Any], ...] = (),
    anti_affinity: tuple[dict[str, Any], ...] = (),
    **labels: str,
) -> Pod:
    spec: dict[str, Any] = {"containers": [{"name": "c", "image": "pause"}]}
    if on:
        spec["nodeName"] = on
    rules = {}
    if affinity:
        rules["podAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution": list(affinity)}
    if anti_affinity:
        rules["podAntiAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution": list(anti_affinity)}
    if rules:
        spec["affinity"] = rules
    metadata = {"name": name, "namespace": namespace, "labels": labels}
    result = parse_object({"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec})
    assert isinstance(result, Pod)
    return result


def node(**labels: str) -> Node:
    result = parse_object({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-a", "labels": labels}})
    assert isinstance(result, Node)
    return result


def plugin(namespaces: dict[str, dict[str, str]] | None = None) -> InterPodAffinity:
    return InterPodAffinity({}, Handle(snapshot=build_snapshot([], [], namespaces)))


SECURITY_SCAN = term_in("service", "region", ["securityscan", "value2"])
ZONE_SECURITY_SCAN = term_in("service", "zone", ["securityscan", "value2"])
ANOTHER_LABEL = {"labelSelector": {"matchLabels": {"another": "label"}}, "topologyKey": "zone"}
AFFINE = pod("p", affinity=(SECURITY_SCAN,))
AFFINE_TO_BOTH = pod("p", affinity=(term_exists("aaa", "hostname"), term_exists("bbb", "hostname")))
AVERSE = pod("p", anti_affinity=(SECURITY_SCAN,))

# (name, parked pod, old pod, new pod, hint)
POD_CASES = [
    ("add a pod which matches the pod affinity", AFFINE, None, pod(on="fake-node", service="securityscan"), QUEUE),
    ("add an un-scheduled pod", AFFINE, None, pod(service="securityscan"), SKIP),
    ("add a pod which doesn't match the pod affinity", AFFINE, None, pod(on="fake-node", aaa="a"), SKIP),
    (
        "update a pod from non-match to match pod affinity",
        AFFINE,
        pod(on="fake-node", aaa="a"),
        pod(on="fake-node", service="securityscan"),
        QUEUE,
    ),
    (
        "the updating pod matches target pod's affinity both before and after label changes",
        AFFINE,
        pod(on="fake-node", service="value2"),
        pod(on="fake-node", service="securityscan"),
        SKIP,
    ),
    ("update an un-scheduled pod", AFFINE, pod(service="securityscan"), pod(service="securityscan"), SKIP),
    (
        "update a pod from match to non-match the pod affinity",
        AFFINE,
        pod(on="fake-node", service="securityscan"),
        pod(on="fake-node", aaa="a"),
        SKIP,
    ),
    (
        "update a pod from match to non-match pod's affinity - multiple terms case",
        AFFINE_TO_BOTH,
        pod(on="fake-node", aaa="a"),
        pod(on="fake-node", service="securityscan"),
        SKIP,
    ),
    (
        "update a pod from non-match to match pod's affinity - multiple terms case",
        AFFINE_TO_BOTH,
        pod(on="fake-node", aaa="a"),
        pod(on="fake-node", aaa="", bbb=""),
        QUEUE,
    ),
    (
        "modify pod label to change it from satisfying pod anti-affinity to not satisfying anti-affinity",
        AVERSE,
        pod(on="fake-node", service="securityscan"),
        pod(on="fake-node", service="aaaa"),
        QUEUE,
    ),
    (
        "modify pod label to change it from not satisfying pod anti-affinity to satisfying anti-affinity",
        AVERSE,
        pod(on="fake-node", service="bbb"),
        pod(on="fake-node", service="securityscan"),
        SKIP,
    ),
    ("delete a pod which doesn't match pod's anti-affinity", AVERSE, pod(on="fake-node", aaa="a"), None, SKIP),
    (
        "delete a pod which matches pod's anti-affinity",
        AVERSE,
        pod(on="fake-node", service="securityscan"),
        None,
        QUEUE,
    ),
]


@pytest.mark.parametrize(("name", "parked", "old", "new", "expected"), POD_CASES, ids=[c[0] for c in POD_CASES])
def test_is_schedulable_after_pod_change(name: str, parked: Pod, old: Pod, new: Pod, expected: QueueingHint):
    assert plugin().is_schedulable_after_pod_change(parked, old, new) is expected


ZONE_AFFINE = pod("p", affinity=(ZONE_SECURITY_SCAN,))
REGION_AFFINE = pod("p", affinity=(SECURITY_SCAN,))
ZONE_AVERSE = pod("p", anti_affinity=(ANOTHER_LABEL,))

# (name, parked pod, old node, new node, hint)
NODE_CASES = [
    ("add a new node with matched pod affinity topologyKey", ZONE_AFFINE, None, node(zone="zone1"), QUEUE),
    ("add a new node without matched topologyKey", REGION_AFFINE, None, node(zone="zone1"), SKIP),
    ("update node label but not topologyKey", ZONE_AFFINE, node(aaa="a"), node(aaa="b"), SKIP),
    (
        "update node label that isn't related to the pod affinity",
        ZONE_AFFINE,
        node(zone="zone1"),
        node(zone="zone1", **{"unrelated-label": "unrelated"}),
        SKIP,
    ),
    (
        "update node with different affinity topologyKey value",
        ZONE_AFFINE,
        node(zone="zone1"),
        node(zone="zone2"),
        QUEUE,
    ),
    ("update node to have the affinity topology label", ZONE_AFFINE, node(aaa="a"), node(zone="zone1"), QUEUE),
    ("add a new node with matched pod anti-affinity topologyKey", ZONE_AVERSE, None, node(zone="zone1"), QUEUE),
    ("add a new node without matched pod anti-affinity topologyKey", ZONE_AVERSE, None, node(), QUEUE),
    (
        "update node label that isn't related to the pod anti-affinity",
        ZONE_AVERSE,
        node(zone="zone1"),
        node(zone="zone1", **{"unrelated-label": "unrelated"}),
        SKIP,
    ),
    (
        "update node with different anti-affinity topologyKey value",
        ZONE_AVERSE,
        node(zone="zone1"),
        node(zone="zone2"),
        QUEUE,
    ),
    ("update node to have the anti-affinity topology label", ZONE_AVERSE, node(aaa="a"), node(zone="zone1"), SKIP),
    (
        "update node label not to have anti-affinity topology label",
        ZONE_AVERSE,
        node(zone="zone1"),
        node(aaa="a"),
        QUEUE,
    ),
]


@pytest.mark.parametrize(("name", "parked", "old", "new", "expected"), NODE_CASES, ids=[c[0] for c in NODE_CASES])
def test_is_schedulable_after_node_change(name: str, parked: Pod, old: Node, new: Node, expected: QueueingHint):
    assert plugin().is_schedulable_after_node_change(parked, old, new) is expected


# ---------------------------------------------------------------------------- beyond upstream's tables


def test_events_to_register_with_queueing_hints_on():
    affinity = plugin()
    registered = {entry.event: entry.hint for entry in affinity.events_to_register()}
    pod_actions = ActionType.ADD | ActionType.UPDATE_POD_LABEL | ActionType.DELETE
    node_actions = ActionType.ADD | ActionType.UPDATE_NODE_LABEL
    assert registered == {
        ClusterEvent(EventResource.POD, pod_actions): affinity.is_schedulable_after_pod_change,
        ClusterEvent(EventResource.NODE, node_actions): affinity.is_schedulable_after_node_change,
    }


def test_node_taint_updates_always_queue_through_the_frameworks_node_add_mitigation():
    hints = build_queueing_hint_map({NAME: plugin()})
    taint_update = ClusterEvent(EventResource.NODE, ActionType.UPDATE_NODE_TAINT)
    assert [entry.hint(AFFINE, node(), node()) for entry in hints[taint_update]] == [QUEUE]


def team_term(namespace_selector: dict[str, Any]) -> dict[str, Any]:
    return {**term_exists("app", "zone"), "namespaceSelector": namespace_selector}


@pytest.mark.parametrize(
    ("namespace_selector", "expected"),
    [
        ({"matchLabels": {"team": "a"}}, SKIP),  # upstream's hints never see the namespace's labels
        ({}, QUEUE),  # every namespace
        ({"matchExpressions": [{"key": "team", "operator": "DoesNotExist"}]}, QUEUE),  # true of no labels
    ],
    ids=["labelled selector", "empty selector", "selector an unlabelled namespace meets"],
)
def test_namespace_selector_is_matched_against_no_labels_as_upstreams_hint_does(
    namespace_selector: dict[str, Any], expected: QueueingHint
):
    """kubernetes#141953: v1.34's hint neither merges namespaceSelector into names nor reads namespace
    labels, so an assigned pod in a namespace the selector picks does not queue the pod."""
    affinity = plugin({"team-a": {"team": "a"}})
    parked = pod("p", affinity=(team_term(namespace_selector),))
    added = pod(on="n", namespace="team-a", app="x")
    assert affinity.is_schedulable_after_pod_change(parked, None, added) is expected


def test_terms_without_namespaces_select_the_pods_own_namespace():
    affinity = plugin()
    assert (
        affinity.is_schedulable_after_pod_change(AFFINE, None, pod(on="n", namespace="other", service="value2")) is SKIP
    )
    assert affinity.is_schedulable_after_pod_change(AFFINE, None, pod(on="n", service="value2")) is QUEUE


def with_bad_affinity_selector(parked: Pod) -> Pod:
    """The pod with its one required affinity term's selector made invalid, bypassing the manifest parser."""
    affinity = parked.spec.affinity
    assert affinity is not None and affinity.pod_affinity is not None
    bad = LabelSelector(match_expressions=(LabelSelectorRequirement("app", "In", ("-bad-",)),))
    terms = tuple(replace(t, label_selector=bad) for t in affinity.pod_affinity.required)
    rules = replace(affinity, pod_affinity=replace(affinity.pod_affinity, required=terms))
    return replace(parked, spec=replace(parked.spec, affinity=rules))


def test_a_selector_that_does_not_parse_queues_for_assigned_pods_only():
    broken = with_bad_affinity_selector(ZONE_AFFINE)
    affinity = plugin()
    assert affinity.is_schedulable_after_pod_change(broken, None, pod(on="n", other="x")) is QUEUE
    assert affinity.is_schedulable_after_pod_change(broken, None, pod(other="x")) is SKIP
    assert affinity.is_schedulable_after_node_change(broken, node(a="1"), node(a="2")) is QUEUE


def test_deleting_a_pod_whose_anti_affinity_repelled_the_pod_does_not_queue_it():
    """The hint reads only the parked pod's own terms (as upstream's does), not existing pods' ones."""
    repelling = pod(on="n", anti_affinity=({"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "zone"},))
    assert plugin().is_schedulable_after_pod_change(pod("p", app="web"), repelling, None) is SKIP


def test_a_deleted_pod_must_match_every_anti_affinity_term():
    parked = pod("p", anti_affinity=(term_exists("aaa", "zone"), term_exists("bbb", "zone")))
    affinity = plugin()
    assert affinity.is_schedulable_after_pod_change(parked, pod(on="n", aaa=""), None) is SKIP
    assert affinity.is_schedulable_after_pod_change(parked, pod(on="n", aaa="", bbb=""), None) is QUEUE


def test_match_label_keys_narrow_the_term_to_the_pods_own_value():
    keyed = {**term_exists("service", "zone"), "matchLabelKeys": ["app"]}
    parked = pod("p", affinity=(keyed,), app="web")
    affinity = plugin()
    assert affinity.is_schedulable_after_pod_change(parked, None, pod(on="n", service="s", app="db")) is SKIP
    assert affinity.is_schedulable_after_pod_change(parked, None, pod(on="n", service="s", app="web")) is QUEUE


def test_objects_of_the_wrong_kind_queue_like_upstreams_error():
    affinity = plugin()
    assert affinity.is_schedulable_after_pod_change(AFFINE, None, node(zone="z")) is QUEUE
    assert affinity.is_schedulable_after_node_change(ZONE_AFFINE, None, pod(on="n")) is QUEUE


def test_terms_are_read_once_per_pod_version():
    affinity = plugin()
    assert affinity._hint_terms.get(AFFINE) is affinity._hint_terms.get(AFFINE)
    updated = pod("p", affinity=(term_in("service", "region", ["other"]),))
    assert affinity.is_schedulable_after_pod_change(updated, None, pod(on="n", service="securityscan")) is SKIP
    assert affinity.is_schedulable_after_pod_change(updated, None, pod(on="n", service="other")) is QUEUE


def test_the_queue_moves_a_parked_pod_when_a_pod_it_repels_goes():
    hints = build_queueing_hint_map({NAME: plugin()})
    q = SchedulingQueue(PrioritySort().less, hint_maps={"default-scheduler": hints})
    q.add(AVERSE, now=0.0)
    q.add_unschedulable(q.pop(now=0.0), now=0.0, rejectors=[NAME])
    assert q.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, now=5.0, old=pod(on="n", aaa="a")) == 0
    assert q.location("default/p") == "unschedulable"
    assert q.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, now=5.0, old=pod(on="n", service="value2")) == 1
