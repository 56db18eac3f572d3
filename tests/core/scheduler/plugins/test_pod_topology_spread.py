"""PodTopologySpread beyond the ported upstream tables: the preemption bookkeeping (AddPod/RemovePod),
default constraints deduced from Services and controllers, minDomains, args validation, and the
counts kept across cycles staying equal to a fresh count."""

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import parse_object
from scheduler_core.api.types import LabelSelector, LabelSelectorRequirement, Node, Pod
from scheduler_core.scheduler.framework import Code, CycleState, NodeScore, Status
from scheduler_core.scheduler.plugins.pod_topology_spread.plugin import (
    ERR_REASON_CONSTRAINTS_NOT_MATCH,
    PRE_FILTER_KEY,
    PodTopologySpread,
)
from scheduler_core.scheduler.runtime import Handle
from scheduler_core.scheduler.selector_source import SelectorSource
from scheduler_core.scheduler.snapshot import PodInfo, Snapshot, build_snapshot

HOSTNAME = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"
LIST = {"defaultingType": "List"}
SYSTEM = {"defaultingType": "System"}


def node(name: str, **labels: str) -> Node:
    manifest = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels}}
    result: Node = parse_object(manifest)
    return result


def pod(
    name: str,
    on: str = "",
    labels: dict[str, str] | None = None,
    namespace: str = "default",
    spread: list[dict[str, Any]] | None = None,
    owner: dict[str, Any] | None = None,
    **spec: Any,
) -> Pod:
    metadata: dict[str, Any] = {"name": name, "namespace": namespace, "labels": labels or {}}
    if owner:
        metadata["ownerReferences"] = [owner]
    body: dict[str, Any] = {"containers": [{"name": "c", "image": "pause"}], **spec}
    if on:
        body["nodeName"] = on
    if spread:
        body["topologySpreadConstraints"] = spread
    result: Pod = parse_object({"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": body})
    return result


def hard(key: str, max_skew: int = 1, **extra: Any) -> dict[str, Any]:
    return {
        "maxSkew": max_skew,
        "topologyKey": key,
        "whenUnsatisfiable": "DoNotSchedule",
        "labelSelector": {"matchExpressions": [{"key": "foo", "operator": "Exists"}]},
        **extra,
    }


def plugin_for(snapshot: Snapshot, args: dict[str, Any] = LIST, **handle: Any) -> PodTopologySpread:
    return PodTopologySpread(args, Handle(snapshot=snapshot, **handle))


def verdicts(plugin: PodTopologySpread, state: CycleState, incoming: Pod, snapshot: Snapshot) -> dict[str, Code]:
    return {info.name: plugin.filter(state, incoming, info).code for info in snapshot.nodes()}


def two_nodes_one_zone() -> tuple[Snapshot, Pod]:
    """node-a holds no matching pod, node-b one: spread on the node key, maxSkew 1."""
    snapshot = build_snapshot(
        [node("node-a", zone="zone1", node="node-a"), node("node-b", zone="zone1", node="node-b")],
        [pod("p-b1", "node-b", {"foo": ""})],
    )
    return snapshot, pod("p", labels={"foo": ""}, spread=[hard("node")])


# ---------------------------------------------------------------------------- AddPod / RemovePod


def test_a_pod_added_in_a_what_if_counts_for_its_domain_only_in_that_what_if() -> None:
    snapshot, incoming = two_nodes_one_zone()
    plugin = plugin_for(snapshot)
    state = CycleState()
    assert plugin.pre_filter(state, incoming, snapshot.nodes())[1].is_success
    assert verdicts(plugin, state, incoming, snapshot) == {"node-a": Code.Success, "node-b": Code.Unschedulable}

    what_if = state.clone()
    node_a = snapshot.get("node-a")
    assert node_a is not None
    added = PodInfo(pod("p-a1", "node-a", {"foo": ""}))
    assert plugin.add_pod(what_if, incoming, added, node_a).is_success
    # 1/1 now: both nodes are at the minimum.
    assert verdicts(plugin, what_if, incoming, snapshot) == {"node-a": Code.Success, "node-b": Code.Success}
    assert plugin.add_pod(what_if, incoming, added, node_a).is_success
    assert verdicts(plugin, what_if, incoming, snapshot) == {"node-a": Code.Unschedulable, "node-b": Code.Success}
    # The original state is untouched by the clone's updates.
    assert verdicts(plugin, state, incoming, snapshot) == {"node-a": Code.Success, "node-b": Code.Unschedulable}


def test_removing_the_only_matching_pod_of_a_node_lets_the_pod_in_there() -> None:
    snapshot, incoming = two_nodes_one_zone()
    plugin = plugin_for(snapshot)
    state = CycleState()
    plugin.pre_filter(state, incoming, snapshot.nodes())
    node_b = snapshot.get("node-b")
    assert node_b is not None
    status = plugin.remove_pod(state, incoming, node_b.pods[0], node_b)
    assert status.is_success
    assert verdicts(plugin, state, incoming, snapshot) == {"node-a": Code.Success, "node-b": Code.Success}


@pytest.mark.parametrize(
    ("added", "where"),
    [
        (pod("other-ns", "node-a", {"foo": ""}, namespace="ns1"), "node-a"),
        (pod("no-match", "node-a", {"bar": ""}), "node-a"),
    ],
    ids=["pod of another namespace", "pod the selector does not match"],
)
def test_adding_a_pod_that_does_not_count_changes_nothing(added: Pod, where: str) -> None:
    snapshot, incoming = two_nodes_one_zone()
    plugin = plugin_for(snapshot)
    state = CycleState()
    plugin.pre_filter(state, incoming, snapshot.nodes())
    target = snapshot.get(where)
    assert target is not None
    for _ in range(3):
        plugin.add_pod(state, incoming, PodInfo(added), target)
    assert verdicts(plugin, state, incoming, snapshot) == {"node-a": Code.Success, "node-b": Code.Unschedulable}


def test_adding_a_pod_on_a_node_missing_a_topology_key_changes_nothing() -> None:
    snapshot = build_snapshot(
        [node("node-a", zone="zone1", node="node-a"), node("node-b", zone="zone1", node="node-b"), node("bare")],
        [pod("p-b1", "node-b", {"foo": ""})],
    )
    incoming = pod("p", labels={"foo": ""}, spread=[hard("node")])
    plugin = plugin_for(snapshot)
    state = CycleState()
    plugin.pre_filter(state, incoming, snapshot.nodes())
    bare = snapshot.get("bare")
    assert bare is not None
    plugin.add_pod(state, incoming, PodInfo(pod("x", "bare", {"foo": ""})), bare)
    assert verdicts(plugin, state, incoming, snapshot) == {
        "node-a": Code.Success,
        "node-b": Code.Unschedulable,
        "bare": Code.UnschedulableAndUnresolvable,
    }


def test_a_what_if_on_a_node_the_pods_affinity_excludes_is_not_counted() -> None:
    # nodeAffinityPolicy Honor (the default): node-b is outside the pod's nodeSelector, so neither
    # its existing pod nor an added one counts.
    snapshot = build_snapshot(
        [node("node-a", zone="zone1", node="node-a", pick="yes"), node("node-b", zone="zone1", node="node-b")],
        [pod("p-b1", "node-b", {"foo": ""})],
    )
    incoming = pod("p", labels={"foo": ""}, spread=[hard("node")], nodeSelector={"pick": "yes"})
    plugin = plugin_for(snapshot)
    state = CycleState()
    plugin.pre_filter(state, incoming, snapshot.nodes())
    node_b = snapshot.get("node-b")
    assert node_b is not None
    plugin.add_pod(state, incoming, PodInfo(pod("x", "node-b", {"foo": ""})), node_b)
    # Only node-a is a domain (count 0); node-b has no entry, so it reads as 0 too.
    assert verdicts(plugin, state, incoming, snapshot) == {"node-a": Code.Success, "node-b": Code.Success}


def test_the_global_minimum_is_upstreams_critical_path_even_when_it_misses_a_domain() -> None:
    # Domains a:1, b:2, c:3 (maxSkew 1); the critical paths start as {a:1, b:2}. Two pods added on b
    # and three on a leave {a:4, b:4}: upstream's minimum is 4 although c holds 3, so every node passes
    # (with the true minimum, a and b would not: 4+1-3 = 2).
    nodes = [node(name, node=name) for name in ("a", "b", "c")]
    existing = [pod("a1", "a", {"foo": ""})]
    existing += [pod(f"b{i}", "b", {"foo": ""}) for i in range(2)]
    existing += [pod(f"c{i}", "c", {"foo": ""}) for i in range(3)]
    snapshot = build_snapshot(nodes, existing)
    incoming = pod("p", labels={"foo": ""}, spread=[hard("node")])
    plugin = plugin_for(snapshot)
    state = CycleState()
    plugin.pre_filter(state, incoming, snapshot.nodes())
    extra = PodInfo(pod("x", "", {"foo": ""}))
    for target in ("b", "b", "a", "a", "a"):
        node_info = snapshot.get(target)
        assert node_info is not None
        plugin.add_pod(state, incoming, extra, node_info)
    assert verdicts(plugin, state, incoming, snapshot) == {"a": Code.Success, "b": Code.Success, "c": Code.Success}


def test_filter_without_prefilter_state_is_an_error() -> None:
    snapshot, incoming = two_nodes_one_zone()
    plugin = plugin_for(snapshot)
    node_a = snapshot.get("node-a")
    assert node_a is not None
    status = plugin.filter(CycleState(), incoming, node_a)
    assert status.code is Code.Error
    assert status.message == 'reading "PreFilterPodTopologySpread" from cycleState: not found'


# ---------------------------------------------------------------------------- minDomains


@pytest.mark.parametrize(
    ("min_domains", "expected"),
    [(None, Code.Success), (2, Code.Success), (3, Code.Unschedulable)],
    ids=["unset", "as many as there are zones", "more than there are zones"],
)
def test_fewer_zones_than_min_domains_make_the_global_minimum_zero(min_domains: int | None, expected: Code) -> None:
    snapshot = build_snapshot(
        [node("node-a", zone="zone1"), node("node-b", zone="zone2")],
        [pod("p-a1", "node-a", {"foo": ""}), pod("p-b1", "node-b", {"foo": ""})],
    )
    extra = {"minDomains": min_domains} if min_domains else {}
    incoming = pod("p", labels={"foo": ""}, spread=[hard("zone", **extra)])
    plugin = plugin_for(snapshot)
    state = CycleState()
    plugin.pre_filter(state, incoming, snapshot.nodes())
    # Each zone holds one pod: skew is 1+1-1 = 1, or 1+1-0 = 2 once the minimum is taken as 0.
    assert verdicts(plugin, state, incoming, snapshot) == {"node-a": expected, "node-b": expected}


def test_two_constraints_on_the_same_key_keep_separate_counts() -> None:
    snapshot = build_snapshot(
        [node("node-a", zone="zone1"), node("node-b", zone="zone2")],
        [pod("p-a1", "node-a", {"foo": "", "bar": ""}), pod("p-b1", "node-b", {"foo": ""})],
    )
    bar = {**hard("zone"), "labelSelector": {"matchLabels": {"bar": ""}}}
    incoming = pod("p", labels={"foo": "", "bar": ""}, spread=[hard("zone"), bar])
    plugin = plugin_for(snapshot)
    state = CycleState()
    plugin.pre_filter(state, incoming, snapshot.nodes())
    # foo: 1/1 lets both in; bar: 1/0 keeps node-a out (1+1-0 = 2).
    assert verdicts(plugin, state, incoming, snapshot) == {"node-a": Code.Unschedulable, "node-b": Code.Success}
    node_a = snapshot.get("node-a")
    assert node_a is not None
    assert plugin.filter(state, incoming, node_a).reasons == (ERR_REASON_CONSTRAINTS_NOT_MATCH,)


# ---------------------------------------------------------------------------- default constraints


def spread_cluster() -> list[Pod]:
    """app=web pods: 2 on node-a, 1 on node-b, 0 on node-c (all in zone1)."""
    return [
        pod("w1", "node-a", {"app": "web"}),
        pod("w2", "node-a", {"app": "web"}),
        pod("w3", "node-b", {"app": "web"}),
    ]


def web_nodes() -> list[Node]:
    return [node(name, **{HOSTNAME: name, ZONE: "zone1"}) for name in ("node-a", "node-b", "node-c")]


RS_OWNER = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-rs", "uid": "u1", "controller": True}
WEB_RS = SelectorSource("ReplicaSet", "default", "web-rs", LabelSelector({"app": "web"}))


def scores(plugin: PodTopologySpread, incoming: Pod, snapshot: Snapshot) -> tuple[Status, dict[str, int]]:
    state = CycleState()
    nodes = snapshot.nodes()
    status = plugin.pre_score(state, incoming, nodes)
    if not status.is_success:
        return status, {}
    entries = [NodeScore(info.name, plugin.score(state, incoming, info)[0]) for info in nodes]
    plugin.normalize_score(state, incoming, entries)
    return status, {entry.name: entry.score for entry in entries}


def test_system_defaults_spread_a_replicaset_pod_away_from_its_siblings() -> None:
    snapshot = build_snapshot(web_nodes(), spread_cluster())
    plugin = plugin_for(snapshot, SYSTEM, selector_sources=[WEB_RS])
    incoming = pod("web-new", labels={"app": "web"}, owner=RS_OWNER)
    # The system defaults are ScheduleAnyway: PreFilter has nothing to enforce.
    assert plugin.pre_filter(CycleState(), incoming, snapshot.nodes())[1].is_skip
    status, result = scores(plugin, incoming, snapshot)
    assert status.is_success
    # hostname (maxSkew 3, weight ln 5) + zone (maxSkew 5, weight ln 3, 3 pods in zone1):
    # raw 2*1.609+2 + 3*1.099+4 = 12.5 -> 13, 10.9 -> 11, 9.3 -> 9; normalized 100*(13+9-s)/13.
    assert result == {"node-a": 69, "node-b": 84, "node-c": 100}


@pytest.mark.parametrize(
    ("owner", "sources"),
    [
        (None, [WEB_RS]),
        (RS_OWNER, []),
        ({**RS_OWNER, "apiVersion": "extensions/v1beta1"}, [WEB_RS]),
        ({**RS_OWNER, "controller": False}, [WEB_RS]),
        (RS_OWNER, [replace(WEB_RS, namespace="other")]),
        (RS_OWNER, [replace(WEB_RS, selector=None)]),
    ],
    ids=[
        "no owner",
        "owner ReplicaSet not found",
        "owner of an unsupported apiVersion",
        "owner that is not the controller",
        "ReplicaSet in another namespace",
        "ReplicaSet with a nil selector",
    ],
)
def test_without_a_deducible_selector_the_defaults_do_not_apply(
    owner: dict[str, Any] | None, sources: list[Any]
) -> None:
    snapshot = build_snapshot(web_nodes(), spread_cluster())
    plugin = plugin_for(snapshot, SYSTEM, selector_sources=sources)
    incoming = pod("web-new", labels={"app": "web"}, owner=owner)
    status, _ = scores(plugin, incoming, snapshot)
    assert status.is_skip


def test_services_selecting_the_pod_and_its_statefulset_selector_are_anded() -> None:
    snapshot = build_snapshot(
        web_nodes(),
        [
            pod("a1", "node-a", {"app": "web", "tier": "front"}),
            pod("a2", "node-a", {"app": "web", "tier": "front"}),
            pod("b1", "node-b", {"app": "web"}),  # the Service selects it, the StatefulSet does not
            pod("b2", "node-b", {"app": "web"}),
            pod("b3", "node-b", {"app": "web"}),
        ],
    )
    sources = [
        SelectorSource("Service", "default", "web", LabelSelector({"app": "web"})),
        SelectorSource("Service", "default", "other", LabelSelector({"app": "db"})),  # does not select the pod
        SelectorSource(
            "StatefulSet",
            "default",
            "front",
            LabelSelector(match_expressions=(LabelSelectorRequirement("tier", "Exists"),)),
        ),
    ]
    owner = {"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "front", "controller": True}
    plugin = plugin_for(snapshot, SYSTEM, selector_sources=sources)
    incoming = pod("web-new", labels={"app": "web", "tier": "front"}, owner=owner)
    status, result = scores(plugin, incoming, snapshot)
    assert status.is_success
    # Counted: node-a 2, node-b 0, node-c 0: raw 11, 8, 8.
    assert result == {"node-a": 72, "node-b": 100, "node-c": 100}


def test_list_defaulting_applies_hard_default_constraints_to_pods_without_their_own() -> None:
    snapshot = build_snapshot(web_nodes(), spread_cluster())
    args = {
        "defaultingType": "List",
        "defaultConstraints": [{"maxSkew": 1, "topologyKey": HOSTNAME, "whenUnsatisfiable": "DoNotSchedule"}],
    }
    plugin = plugin_for(snapshot, args, selector_sources=[WEB_RS])
    incoming = pod("web-new", labels={"app": "web"}, owner=RS_OWNER)
    state = CycleState()
    assert plugin.pre_filter(state, incoming, snapshot.nodes())[1].is_success
    assert verdicts(plugin, state, incoming, snapshot) == {
        "node-a": Code.Unschedulable,
        "node-b": Code.Unschedulable,
        "node-c": Code.Success,
    }
    # A pod with constraints of its own ignores the defaults (its only one is ScheduleAnyway).
    own = pod(
        "own", labels={"app": "web"}, owner=RS_OWNER, spread=[{**hard(HOSTNAME), "whenUnsatisfiable": "ScheduleAnyway"}]
    )
    assert plugin.pre_filter(CycleState(), own, snapshot.nodes())[1].is_skip


# ---------------------------------------------------------------------------- args


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            {"defaultConstraints": [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}]},
            'when .defaultingType is "System", .defaultConstraints must be empty',
        ),
        (
            {
                "defaultingType": "List",
                "defaultConstraints": [
                    {
                        "maxSkew": 1,
                        "topologyKey": "zone",
                        "whenUnsatisfiable": "DoNotSchedule",
                        "labelSelector": {"matchLabels": {"a": "b"}},
                    }
                ],
            },
            "constraint must not define a selector",
        ),
        (
            {
                "defaultingType": "List",
                "defaultConstraints": [
                    {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"},
                    {"maxSkew": 2, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"},
                ],
            },
            "Duplicate value",
        ),
        (
            {
                "defaultingType": "List",
                "defaultConstraints": [{"maxSkew": 0, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}],
            },
            "not in valid range (0, inf)",
        ),
        ({"defaultingType": "Sometimes"}, 'Unsupported value: "Sometimes"'),
    ],
    ids=["System with constraints", "a selector", "a repeated key and action", "maxSkew 0", "unknown defaulting"],
)
def test_invalid_args_are_refused_as_upstream_validation_refuses_them(args: dict[str, Any], message: str) -> None:
    with pytest.raises(ManifestError, match=message.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        PodTopologySpread(args, Handle())


def test_default_constraints_may_carry_min_domains_with_schedule_anyway() -> None:
    # Unlike a pod's constraints, PodTopologySpreadArgs validation leaves minDomains alone.
    args = {
        "defaultingType": "List",
        "defaultConstraints": [
            {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway", "minDomains": 2}
        ],
    }
    assert not PodTopologySpread(args, Handle()).system_defaulted


# ---------------------------------------------------------------------------- counts kept across cycles


def fresh_counts(snapshot: Snapshot, incoming: Pod, key: str) -> dict[str, int]:
    """PreFilter's per-domain counts, computed the plain way (all keys present, Honor affinity only)."""
    counts: dict[str, int] = {}
    for info in snapshot.nodes():
        labels = info.node.labels
        if "zone" not in labels or "node" not in labels:
            continue
        value = labels[key]
        counts[value] = counts.get(value, 0) + sum(
            1
            for p in info.pods
            if p.pod.namespace == incoming.namespace
            and p.pod.metadata.deletion_timestamp is None
            and "foo" in p.pod.labels
        )
    return counts


operations = st.lists(
    st.tuples(st.sampled_from(("bind", "unbind", "relabel", "add-node", "remove-node")), st.integers(0, 50)),
    max_size=25,
)


def apply_operations(
    snapshot: Snapshot,
    ops: list[tuple[str, int]],
    relabel: Callable[[dict[str, str], str, int], None],
    new_node: Callable[[str, int], Node],
    check: Callable[[], None],
) -> None:
    """Binds, unbinds and relabels as `ops` say (pods labelled foo or bar, some terminating or in
    another namespace; nodes come and go), calling `check` after each step."""
    bound: list[Pod] = []
    for step, (operation, number) in enumerate(ops):
        names = sorted(snapshot.node_infos)
        target = names[number % len(names)]
        if operation == "bind":
            labels = {"foo": ""} if number % 3 else {"bar": ""}
            new = pod(f"q{step}", target, labels, namespace="default" if number % 5 else "other")
            if number % 7 == 0:
                new = replace(new, metadata=replace(new.metadata, deletion_timestamp=1.0))
            snapshot.add_pod(new)
            bound.append(new)
        elif operation == "unbind" and bound:
            snapshot.remove_pod(bound.pop(number % len(bound)))
        elif operation == "relabel":
            old = snapshot.node_infos[target].node
            labels = dict(old.labels)
            relabel(labels, target, number)
            snapshot.update_node(replace(old, metadata=replace(old.metadata, labels=labels)))
        elif operation == "add-node":
            snapshot.add_node(new_node(f"m{step}", number))
        elif operation == "remove-node" and len(snapshot) > 1:
            removed = snapshot.remove_node(target)
            bound = [p for p in bound if removed is None or p.spec.node_name != target]
        check()


@settings(max_examples=60, deadline=None)
@given(operations)
def test_counts_kept_across_cycles_equal_a_fresh_count(ops: list[tuple[str, int]]) -> None:
    snapshot = build_snapshot(
        [node(f"n{i}", zone=f"z{i % 3}", node=f"n{i}") for i in range(6)] + [node("keyless", zone="z0")], []
    )
    incoming = pod("p", labels={"foo": ""}, spread=[hard("zone", 10), hard("node", 10)])
    plugin = plugin_for(snapshot)

    def relabel(labels: dict[str, str], _target: str, number: int) -> None:
        labels["zone"] = f"z{number % 4}"
        if number % 6 == 0:
            labels.pop("node", None)

    def check() -> None:
        state = CycleState()
        plugin.pre_filter(state, incoming, snapshot.nodes())
        prefilter = state.read(PRE_FILTER_KEY)
        assert prefilter.constraints[0].counts == fresh_counts(snapshot, incoming, "zone")
        assert prefilter.constraints[1].counts == fresh_counts(snapshot, incoming, "node")

    apply_operations(snapshot, ops, relabel, lambda name, number: node(name, zone=f"z{number % 4}", node=name), check)


def test_a_node_list_with_the_same_nodes_in_new_objects_is_counted_afresh() -> None:
    snapshot, incoming = two_nodes_one_zone()
    plugin = plugin_for(snapshot)
    plugin.pre_filter(CycleState(), incoming, snapshot.nodes())
    clones = [info.clone() for info in snapshot.nodes()]
    clones[1].remove_pod("default/p-b1")
    state = CycleState()
    plugin.pre_filter(state, incoming, clones)
    assert state.read(PRE_FILTER_KEY).constraints[0].counts == {"node-a": 0, "node-b": 0}


def fresh_hostname_scores(snapshot: Snapshot, incoming: Pod) -> dict[str, int]:
    """Score for a ScheduleAnyway hostname constraint (maxSkew 1), counting each node's pods the
    plain way: weight ln(nodes + 2) per matching pod, rounded half away from zero; nodes without the
    label are left out of the weight and score 0."""
    weight = math.log(sum(1 for info in snapshot.nodes() if HOSTNAME in info.node.labels) + 2)
    raw: dict[str, int] = {}
    for info in snapshot.nodes():
        if HOSTNAME not in info.node.labels:
            raw[info.name] = 0
            continue
        matching = sum(
            1
            for p in info.pods
            if p.pod.namespace == incoming.namespace
            and p.pod.metadata.deletion_timestamp is None
            and "foo" in p.pod.labels
        )
        value = matching * weight
        raw[info.name] = int(value) + (1 if value - int(value) >= 0.5 else 0)
    return raw


@settings(max_examples=60, deadline=None)
@given(operations)
def test_hostname_scores_kept_across_cycles_equal_a_fresh_count(ops: list[tuple[str, int]]) -> None:
    snapshot = build_snapshot([node(f"n{i}", **{HOSTNAME: f"n{i}"}) for i in range(6)], [])
    soft = {**hard(HOSTNAME), "whenUnsatisfiable": "ScheduleAnyway"}
    incoming = pod("p", labels={"foo": ""}, spread=[soft])
    plugin = plugin_for(snapshot)

    def relabel(labels: dict[str, str], target: str, number: int) -> None:
        if number % 2:  # the hostname label comes and goes: such a node scores 0
            labels.pop(HOSTNAME, None)
        else:
            labels[HOSTNAME] = target

    def check() -> None:
        state = CycleState()
        nodes = snapshot.nodes()
        assert plugin.pre_score(state, incoming, nodes).is_success
        got = {info.name: plugin.score(state, incoming, info)[0] for info in nodes}
        assert got == fresh_hostname_scores(snapshot, incoming)
        assert plugin.score_nodes(state, nodes) == list(got.values())  # the fast path's column

    apply_operations(snapshot, ops, relabel, lambda name, _number: node(name, **{HOSTNAME: name}), check)


def test_a_hostname_score_of_a_what_if_node_counts_that_nodes_own_pods() -> None:
    snapshot = build_snapshot(web_nodes(), spread_cluster())
    soft = {**hard(HOSTNAME), "whenUnsatisfiable": "ScheduleAnyway", "labelSelector": {"matchLabels": {"app": "web"}}}
    incoming = pod("web-new", labels={"app": "web"}, spread=[soft])
    plugin = plugin_for(snapshot)
    state = CycleState()
    assert plugin.pre_score(state, incoming, snapshot.nodes()).is_success
    on_a = plugin.score(state, incoming, snapshot.node_infos["node-a"])[0]
    clone = snapshot.node_infos["node-a"].clone()
    clone.remove_pod("default/w1")  # a NodeInfo other than the snapshot's: not the kept counts
    assert plugin.score(state, incoming, clone)[0] < on_a
