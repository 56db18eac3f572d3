"""A plugin's window filters give each node the verdict its Filter gives, first rejection first:
PodTopologySpread and InterPodAffinity on random clusters, after PreFilter and after preemption's
what-ifs (AddPod / RemovePod), and without a PreFilter state."""

from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scheduler_core.api.manifests import parse_object
from scheduler_core.api.types import Node, Pod
from scheduler_core.scheduler.framework import Code, CycleState, Status
from scheduler_core.scheduler.plugins.inter_pod_affinity.plugin import InterPodAffinity
from scheduler_core.scheduler.plugins.pod_topology_spread.plugin import PodTopologySpread
from scheduler_core.scheduler.runtime import Handle
from scheduler_core.scheduler.snapshot import PodInfo, Snapshot, build_snapshot
from scheduler_core.scheduler.window_filter import (
    reject_all,
    reject_at_most,
    reject_missing,
    reject_missing_or_above,
    reject_unless,
)

ZONE = "zone"
RACK = "rack"
HOSTNAME = "kubernetes.io/hostname"
APPS = ("web", "db", "cache")


class LabelDomains:
    """NodeDomains read straight from the snapshot's node labels."""

    def __init__(self, snapshot: Snapshot) -> None:
        self._labels = [info.node.labels for info in snapshot.nodes()]

    def values(self, key: str) -> Sequence[str | None]:
        return [labels.get(key) for labels in self._labels]

    def pairs(self, key: str) -> Sequence[tuple[str, str] | None]:
        return [None if (value := labels.get(key)) is None else (key, value) for labels in self._labels]

    def labels(self) -> Sequence[Mapping[str, str]]:
        return self._labels


def tagged(status: Status) -> Status:
    return status.with_plugin("Tagged")


def filter_verdicts(plugin: Any, state: CycleState, pod: Pod, snapshot: Snapshot) -> list[tuple[Code, str] | None]:
    verdicts: list[tuple[Code, str] | None] = []
    for info in snapshot.nodes():
        status = plugin.filter(state, pod, info)
        verdicts.append(None if status.is_success else (status.code, status.message))
    return verdicts


def window_verdicts(plugin: Any, state: CycleState, snapshot: Snapshot, window: int) -> list[tuple[Code, str] | None]:
    """Every node, a window at a time, through the plugin's window filters."""
    filters = plugin.window_filters(state, LabelDomains(snapshot), tagged)
    count = len(snapshot.nodes())
    verdicts: list[tuple[Code, str] | None] = []
    for low in range(0, count, window):
        slots = list(range(low, min(low + window, count)))
        statuses: list[Status | None] = [None] * len(slots)
        for window_filter in filters:
            window_filter(slots, statuses)
        for status in statuses:
            assert status is None or status.plugin == "Tagged"
            verdicts.append(None if status is None else (status.code, status.message))
    return verdicts


# ---------------------------------------------------------------------------- random clusters


@st.composite
def nodes(draw: Any) -> list[Node]:
    count = draw(st.integers(1, 9))
    found = []
    for index in range(count):
        labels = {HOSTNAME: f"n{index}"}
        if draw(st.integers(0, 5)):  # a few nodes lack the zone
            labels[ZONE] = draw(st.sampled_from(("a", "b", "c")))
        if draw(st.booleans()):
            labels[RACK] = draw(st.sampled_from(("r1", "r2")))
        manifest = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"n{index}", "labels": labels}}
        found.append(parse_object(manifest))
    return found


def selector(app: str) -> dict[str, Any]:
    return {"matchLabels": {"app": app}}


def term(draw: Any) -> dict[str, Any]:
    return {
        "topologyKey": draw(st.sampled_from((ZONE, RACK, HOSTNAME))),
        "labelSelector": selector(draw(st.sampled_from(APPS))),
    }


@st.composite
def pod_spec(draw: Any, *, spread: bool) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "c", "image": "pause"}]}
    if spread and draw(st.booleans()):
        spec["topologySpreadConstraints"] = [
            {
                "maxSkew": draw(st.integers(1, 2)),
                "topologyKey": draw(st.sampled_from((ZONE, RACK, HOSTNAME))),
                "whenUnsatisfiable": "DoNotSchedule",
                "labelSelector": selector(draw(st.sampled_from(APPS))),
                **({"minDomains": draw(st.integers(1, 4))} if draw(st.booleans()) else {}),
            }
            for _ in range(draw(st.integers(1, 2)))
        ]
    affinity: dict[str, Any] = {}
    for kind in ("podAffinity", "podAntiAffinity"):
        if draw(st.integers(0, 2)) == 0:
            terms = [term(draw) for _ in range(draw(st.integers(1, 2)))]
            affinity[kind] = {"requiredDuringSchedulingIgnoredDuringExecution": terms}
    if affinity:
        spec["affinity"] = affinity
    return spec


def make_pod(name: str, app: str, spec: dict[str, Any], node: str = "") -> Pod:
    body = dict(spec, nodeName=node) if node else spec
    manifest = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "labels": {"app": app}},
        "spec": body,
    }
    pod = parse_object(manifest)
    assert isinstance(pod, Pod)
    return pod


@st.composite
def clusters(draw: Any) -> tuple[Snapshot, Pod, list[Pod]]:
    """A snapshot, an incoming pod, and pods for what-ifs (placed on the snapshot's nodes)."""
    found_nodes = draw(nodes())
    names = [node.name for node in found_nodes]
    existing = [
        make_pod(f"p{i}", draw(st.sampled_from(APPS)), draw(pod_spec(spread=False)), draw(st.sampled_from(names)))
        for i in range(draw(st.integers(0, 12)))
    ]
    incoming = make_pod("incoming", draw(st.sampled_from(APPS)), draw(pod_spec(spread=True)))
    extra = [
        make_pod(f"x{i}", draw(st.sampled_from(APPS)), {"containers": [{"name": "c", "image": "pause"}]}, name)
        for i, name in enumerate(draw(st.lists(st.sampled_from(names), max_size=3)))
    ]
    return build_snapshot(found_nodes, existing), incoming, extra


def assert_window_filters_agree(plugin: Any, snapshot: Snapshot, incoming: Pod, extra: list[Pod], window: int) -> int:
    """Compare after PreFilter and after each what-if; returns how many comparisons ran."""
    state = CycleState()
    _, status = plugin.pre_filter(state, incoming, snapshot.nodes())
    if status.code is Code.Skip:
        return 0
    assert status.is_success, status
    compared = 0
    removed: set[str] = set()
    for what_if in [None, *extra]:
        if what_if is not None:
            # Alternately add the what-if pod, or remove a pod already on its node (each once).
            info = snapshot.get(what_if.spec.node_name)
            assert info is not None
            present = [pod_info for pod_info in info.pods if pod_info.pod.name not in removed]
            if compared % 2 == 1 and present:
                removed.add(present[0].pod.name)
                assert plugin.remove_pod(state, incoming, present[0], info).is_success
            else:
                assert plugin.add_pod(state, incoming, PodInfo(what_if), info).is_success
        assert window_verdicts(plugin, state, snapshot, window) == filter_verdicts(plugin, state, incoming, snapshot)
        compared += 1
    return compared


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusters(), st.integers(1, 4))
def test_pod_topology_spread_window_filters_give_filters_verdicts(cluster, window):
    snapshot, incoming, extra = cluster
    plugin = PodTopologySpread({"defaultingType": "List"}, Handle(snapshot=snapshot))
    assert_window_filters_agree(plugin, snapshot, incoming, extra, window)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusters(), st.integers(1, 4))
def test_inter_pod_affinity_window_filters_give_filters_verdicts(cluster, window):
    snapshot, incoming, extra = cluster
    plugin = InterPodAffinity({}, Handle(snapshot=snapshot))
    assert_window_filters_agree(plugin, snapshot, incoming, extra, window)


def test_the_random_clusters_reach_every_kind_of_rejection():
    """The equivalence above means something only if the clusters make each plugin reject in
    each of its ways: count the messages seen over a fixed sample."""
    seen: set[str] = set()

    @settings(max_examples=400, deadline=None, database=None, derandomize=True)
    @given(clusters())
    def collect(cluster):
        snapshot, incoming, _ = cluster
        for plugin in (
            PodTopologySpread({"defaultingType": "List"}, Handle(snapshot=snapshot)),
            InterPodAffinity({}, Handle(snapshot=snapshot)),
        ):
            state = CycleState()
            _, status = plugin.pre_filter(state, incoming, snapshot.nodes())
            if status.is_success:
                seen.update(message for _, message in filter(None, filter_verdicts(plugin, state, incoming, snapshot)))

    collect()
    assert seen >= {
        "node(s) didn't match pod topology spread constraints (missing required label)",
        "node(s) didn't match pod topology spread constraints",
        "node(s) didn't match pod affinity rules",
        "node(s) didn't match pod anti-affinity rules",
        "node(s) didn't satisfy existing pods anti-affinity rules",
    }


def test_without_a_pre_filter_state_every_node_gets_the_filters_error():
    manifest = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n0", "labels": {ZONE: "a"}}}
    snapshot = build_snapshot([parse_object(manifest)], [])
    pod = make_pod("p", "web", {"containers": [{"name": "c", "image": "pause"}]})
    for plugin in (
        PodTopologySpread({"defaultingType": "List"}, Handle(snapshot=snapshot)),
        InterPodAffinity({}, Handle(snapshot=snapshot)),
    ):
        verdicts = window_verdicts(plugin, CycleState(), snapshot, 1)
        assert verdicts == filter_verdicts(plugin, CycleState(), pod, snapshot)
        assert verdicts[0] is not None and verdicts[0][0] is Code.Error


# ---------------------------------------------------------------------------- the building blocks

REJECTED = Status(Code.Unschedulable, ("rejected",))
MISSING = Status(Code.UnschedulableAndUnresolvable, ("missing",))


def run(window_filter: Any, slots: list[int], before: list[Status | None] | None = None) -> list[Status | None]:
    statuses = list(before) if before is not None else [None] * len(slots)
    window_filter(slots, statuses)
    return statuses


def test_a_window_filter_keeps_an_earlier_verdict_and_reads_only_its_slots():
    domains = ["a", None, "b", "a"]
    counts = {"a": 3, "b": 1}
    earlier = Status(Code.Unschedulable, ("earlier",))
    assert run(reject_missing_or_above(domains, counts, 2, MISSING, REJECTED), [3, 1, 2], [earlier, None, None]) == [
        earlier,
        MISSING,
        None,
    ]
    assert run(reject_missing_or_above(domains, counts, 2, None, REJECTED), [1, 0]) == [None, REJECTED]
    assert run(reject_at_most(domains, counts, 1, REJECTED), [0, 1, 2]) == [None, REJECTED, REJECTED]
    assert run(reject_missing(domains, MISSING), [1, 2]) == [MISSING, None]
    assert run(reject_all(REJECTED), [2, 3], [earlier, None]) == [earlier, REJECTED]
    labels = [{"k": "1"}, {}, {"k": "2"}]
    assert run(reject_unless(labels, lambda found: found.get("k") == "2", REJECTED), [0, 1, 2]) == [
        REJECTED,
        REJECTED,
        None,
    ]
