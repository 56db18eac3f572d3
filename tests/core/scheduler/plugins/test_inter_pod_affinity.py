"""InterPodAffinity beyond upstream's tables: preemption's AddPod/RemovePod seen through Filter,
namespaceSelector, matchLabelKeys, plugin args, and the cross-cycle count caches agreeing with a
fresh walk of the cluster."""

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import parse_object
from scheduler_core.api.types import LabelSelector, LabelSelectorRequirement, Node, Pod, PodAffinity
from scheduler_core.scheduler.framework import Code, CycleState, NodeScore
from scheduler_core.scheduler.plugins.inter_pod_affinity.plugin import (
    ERR_REASON_AFFINITY_RULES_NOT_MATCH,
    ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
    ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
    PRE_FILTER_KEY,
    InterPodAffinity,
)
from scheduler_core.scheduler.runtime import Handle
from scheduler_core.scheduler.schedule_one import Scheduler
from scheduler_core.scheduler.snapshot import PodInfo, Snapshot, build_snapshot

HOSTNAME = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"


def make_node(name: str, zone: str = "z1", **labels: str) -> Node:
    manifest = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": {HOSTNAME: name, ZONE: zone, **labels}},
    }
    node = parse_object(manifest)
    assert isinstance(node, Node)
    return node


def term(topology_key: str = HOSTNAME, **fields: Any) -> dict[str, Any]:
    return {"topologyKey": topology_key, **fields}


def make_pod(
    name: str,
    labels: Mapping[str, str] | None = None,
    *,
    namespace: str = "default",
    node: str = "",
    affinity: list[dict[str, Any]] | None = None,
    anti_affinity: list[dict[str, Any]] | None = None,
    preferred_affinity: list[tuple[int, dict[str, Any]]] | None = None,
    preferred_anti_affinity: list[tuple[int, dict[str, Any]]] | None = None,
) -> Pod:
    spec: dict[str, Any] = {"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10"}]}
    if node:
        spec["nodeName"] = node
    pod_affinity: dict[str, Any] = {}
    for kind, required, preferred in (
        ("podAffinity", affinity, preferred_affinity),
        ("podAntiAffinity", anti_affinity, preferred_anti_affinity),
    ):
        rules: dict[str, Any] = {}
        if required:
            rules["requiredDuringSchedulingIgnoredDuringExecution"] = required
        if preferred:
            rules["preferredDuringSchedulingIgnoredDuringExecution"] = [
                {"weight": weight, "podAffinityTerm": t} for weight, t in preferred
            ]
        if rules:
            pod_affinity[kind] = rules
    if pod_affinity:
        spec["affinity"] = pod_affinity
    manifest = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace, "labels": dict(labels or {})},
        "spec": spec,
    }
    pod = parse_object(manifest)
    assert isinstance(pod, Pod)
    return pod


def plugin_for(
    nodes: list[Node],
    pods: list[Pod],
    namespaces: Mapping[str, Mapping[str, str]] | None = None,
    **args: Any,
) -> tuple[InterPodAffinity, Snapshot]:
    snapshot = build_snapshot(nodes, pods, namespaces)
    return InterPodAffinity({"hardPodAffinityWeight": 1, **args}, Handle(snapshot=snapshot)), snapshot


def filter_verdicts(plugin: InterPodAffinity, snapshot: Snapshot, pod: Pod, state: CycleState) -> dict[str, str]:
    """Node -> "ok" or the rejection reason, as the framework would see them (Skip lets every node pass)."""
    verdicts = {}
    for info in snapshot.nodes():
        if state.get(PRE_FILTER_KEY) is None:
            verdicts[info.name] = "ok"  # PreFilter skipped: Filter does not run
            continue
        status = plugin.filter(state, pod, info)
        verdicts[info.name] = "ok" if status.is_success else status.reasons[0]
    return verdicts


def pre_filtered(plugin: InterPodAffinity, snapshot: Snapshot, pod: Pod) -> CycleState:
    state = CycleState()
    _, status = plugin.pre_filter(state, pod, snapshot.nodes())
    assert status.code in (Code.Success, Code.Skip), status
    return state


WEB = {"matchLabels": {"app": "web"}}


# ---------------------------------------------------------------------------- AddPod / RemovePod


def test_adding_a_matching_pod_in_a_what_if_makes_the_incoming_anti_affinity_reject_its_node() -> None:
    plugin, snapshot = plugin_for([make_node("n1"), make_node("n2")], [])
    incoming = make_pod("p", {"app": "web"}, anti_affinity=[term(labelSelector=WEB)])
    state = pre_filtered(plugin, snapshot, incoming)
    assert filter_verdicts(plugin, snapshot, incoming, state) == {"n1": "ok", "n2": "ok"}

    what_if = state.clone()
    n1 = snapshot.get("n1")
    assert n1 is not None
    web = PodInfo(make_pod("web-1", {"app": "web"}, node="n1"))
    assert plugin.add_pod(what_if, incoming, web, n1).is_success
    assert filter_verdicts(plugin, snapshot, incoming, what_if) == {
        "n1": ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
        "n2": "ok",
    }
    assert plugin.filter(what_if, incoming, n1).code is Code.Unschedulable
    # The state it was cloned from is untouched.
    assert filter_verdicts(plugin, snapshot, incoming, state) == {"n1": "ok", "n2": "ok"}

    assert plugin.remove_pod(what_if, incoming, web, n1).is_success
    assert filter_verdicts(plugin, snapshot, incoming, what_if) == {"n1": "ok", "n2": "ok"}


def test_removing_an_existing_pods_anti_affinity_in_a_what_if_frees_its_node() -> None:
    guard = make_pod("guard", {"app": "db"}, node="n1", anti_affinity=[term(labelSelector=WEB)])
    plugin, snapshot = plugin_for([make_node("n1"), make_node("n2")], [guard])
    incoming = make_pod("p", {"app": "web"})
    state = pre_filtered(plugin, snapshot, incoming)
    assert filter_verdicts(plugin, snapshot, incoming, state) == {
        "n1": ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
        "n2": "ok",
    }
    n1 = snapshot.get("n1")
    assert n1 is not None
    guard_info = n1.pods[0]
    what_if = state.clone()
    assert plugin.remove_pod(what_if, incoming, guard_info, n1).is_success
    assert filter_verdicts(plugin, snapshot, incoming, what_if) == {"n1": "ok", "n2": "ok"}
    # Adding it back on the other node moves the rejection there.
    n2 = snapshot.get("n2")
    assert n2 is not None
    assert plugin.add_pod(what_if, incoming, guard_info, n2).is_success
    assert filter_verdicts(plugin, snapshot, incoming, what_if) == {
        "n1": "ok",
        "n2": ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
    }


def test_a_pod_added_in_a_what_if_satisfies_required_affinity_in_its_zone_only() -> None:
    plugin, snapshot = plugin_for([make_node("a1", "za"), make_node("a2", "za"), make_node("b1", "zb")], [])
    # The incoming pod does not match its own term, so "first pod of the group" does not apply.
    incoming = make_pod("p", {"app": "frontend"}, affinity=[term(ZONE, labelSelector=WEB)])
    state = pre_filtered(plugin, snapshot, incoming)
    reject = ERR_REASON_AFFINITY_RULES_NOT_MATCH
    assert filter_verdicts(plugin, snapshot, incoming, state) == {"a1": reject, "a2": reject, "b1": reject}
    a1 = snapshot.get("a1")
    assert a1 is not None
    assert plugin.filter(state, incoming, a1).code is Code.UnschedulableAndUnresolvable

    what_if = state.clone()
    assert plugin.add_pod(what_if, incoming, PodInfo(make_pod("web", {"app": "web"}, node="a1")), a1).is_success
    assert filter_verdicts(plugin, snapshot, incoming, what_if) == {"a1": "ok", "a2": "ok", "b1": reject}


def test_add_pod_accepts_a_bare_pod_holder_and_needs_the_prefilter_state() -> None:
    plugin, snapshot = plugin_for([make_node("n1")], [])
    incoming = make_pod("p", {"app": "web"}, anti_affinity=[term(labelSelector=WEB)])
    n1 = snapshot.get("n1")
    assert n1 is not None

    class Holder:
        def __init__(self, pod: Pod) -> None:
            self.pod = pod

    missing = plugin.add_pod(CycleState(), incoming, Holder(make_pod("w", {"app": "web"})), n1)
    assert missing.code is Code.Error
    assert missing.message == 'error reading "PreFilterInterPodAffinity" from cycleState: not found'
    assert plugin.filter(CycleState(), incoming, n1).message == missing.message

    state = pre_filtered(plugin, snapshot, incoming)
    assert plugin.add_pod(state, incoming, Holder(make_pod("w", {"app": "web"})), n1).is_success
    assert plugin.filter(state, incoming, n1).reasons == (ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,)


# ---------------------------------------------------------------------------- namespaceSelector

TEAMS = {"team-a": {"team": "a"}, "team-b": {"team": "b"}}


def test_incoming_namespace_selector_counts_pods_in_the_selected_namespaces() -> None:
    web_a = make_pod("web", {"app": "web"}, namespace="team-a", node="n1")
    web_b = make_pod("web", {"app": "web"}, namespace="team-b", node="n2")
    plugin, snapshot = plugin_for([make_node("n1"), make_node("n2"), make_node("n3")], [web_a, web_b], TEAMS)
    incoming = make_pod(
        "p",
        {"app": "frontend"},
        namespace="team-c",
        affinity=[term(labelSelector=WEB, namespaceSelector={"matchLabels": {"team": "a"}})],
    )
    state = pre_filtered(plugin, snapshot, incoming)
    reject = ERR_REASON_AFFINITY_RULES_NOT_MATCH
    assert filter_verdicts(plugin, snapshot, incoming, state) == {"n1": "ok", "n2": reject, "n3": reject}


def test_empty_namespace_selector_selects_every_namespace() -> None:
    web = make_pod("web", {"app": "web"}, namespace="elsewhere", node="n1")
    plugin, snapshot = plugin_for([make_node("n1"), make_node("n2")], [web], TEAMS)
    incoming = make_pod("p", {"app": "web"}, anti_affinity=[term(labelSelector=WEB, namespaceSelector={})])
    state = pre_filtered(plugin, snapshot, incoming)
    assert filter_verdicts(plugin, snapshot, incoming, state) == {
        "n1": ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
        "n2": "ok",
    }


def test_incoming_namespace_selector_only_selects_namespaces_the_cluster_knows() -> None:
    # "ghost" has no Namespace object: the lister does not list it, so even a selector every label set
    # matches (team DoesNotExist) does not take it in.
    web = make_pod("web", {"app": "web"}, namespace="ghost", node="n1")
    plugin, snapshot = plugin_for([make_node("n1"), make_node("n2")], [web], TEAMS)
    no_team = {"matchExpressions": [{"key": "team", "operator": "DoesNotExist"}]}
    incoming = make_pod("p", {"app": "web"}, anti_affinity=[term(labelSelector=WEB, namespaceSelector=no_team)])
    state = pre_filtered(plugin, snapshot, incoming)
    assert filter_verdicts(plugin, snapshot, incoming, state) == {"n1": "ok", "n2": "ok"}


def test_existing_pods_namespace_selector_reads_the_incoming_pods_namespace_labels() -> None:
    guard = make_pod(
        "guard",
        {"app": "db"},
        namespace="team-b",
        node="n1",
        anti_affinity=[term(labelSelector=WEB, namespaceSelector={"matchLabels": {"team": "a"}})],
    )
    plugin, snapshot = plugin_for([make_node("n1"), make_node("n2")], [guard], TEAMS)
    from_a = make_pod("p", {"app": "web"}, namespace="team-a")
    from_b = make_pod("p", {"app": "web"}, namespace="team-b")
    state = pre_filtered(plugin, snapshot, from_a)
    assert filter_verdicts(plugin, snapshot, from_a, state) == {
        "n1": ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
        "n2": "ok",
    }
    _, status = plugin.pre_filter(CycleState(), from_b, snapshot.nodes())
    assert status.is_skip  # nothing to check for a pod from team-b


def test_existing_pods_namespace_selector_sees_an_unknown_namespace_as_unlabelled() -> None:
    no_team = {"matchExpressions": [{"key": "team", "operator": "DoesNotExist"}]}
    guard = make_pod("guard", node="n1", anti_affinity=[term(labelSelector=WEB, namespaceSelector=no_team)])
    plugin, snapshot = plugin_for([make_node("n1"), make_node("n2")], [guard], TEAMS)
    incoming = make_pod("p", {"app": "web"}, namespace="ghost")
    state = pre_filtered(plugin, snapshot, incoming)
    assert filter_verdicts(plugin, snapshot, incoming, state) == {
        "n1": ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
        "n2": "ok",
    }


# ---------------------------------------------------------------------------- matchLabelKeys


def test_match_label_keys_restrict_anti_affinity_to_the_pods_own_version() -> None:
    old = make_pod("web-v1", {"app": "web", "version": "v1"}, node="n1")
    new = make_pod("web-v2", {"app": "web", "version": "v2"}, node="n2")
    plugin, snapshot = plugin_for([make_node("n1"), make_node("n2"), make_node("n3")], [old, new])
    incoming = make_pod(
        "p", {"app": "web", "version": "v2"}, anti_affinity=[term(labelSelector=WEB, matchLabelKeys=["version"])]
    )
    state = pre_filtered(plugin, snapshot, incoming)
    assert filter_verdicts(plugin, snapshot, incoming, state) == {
        "n1": "ok",
        "n2": ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
        "n3": "ok",
    }


def test_mismatch_label_keys_keep_away_from_other_tenants_only() -> None:
    mine = make_pod("mine", {"tenant": "t1"}, node="n1")
    theirs = make_pod("theirs", {"tenant": "t2"}, node="n2")
    plugin, snapshot = plugin_for([make_node("n1"), make_node("n2")], [mine, theirs])
    anything_with_a_tenant = {"matchExpressions": [{"key": "tenant", "operator": "Exists"}]}
    incoming = make_pod(
        "p", {"tenant": "t1"}, anti_affinity=[term(labelSelector=anything_with_a_tenant, mismatchLabelKeys=["tenant"])]
    )
    state = pre_filtered(plugin, snapshot, incoming)
    assert filter_verdicts(plugin, snapshot, incoming, state) == {
        "n1": "ok",
        "n2": ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
    }


def test_match_label_keys_the_pod_lacks_are_ignored() -> None:
    web = make_pod("web", {"app": "web", "version": "v1"}, node="n1")
    plugin, snapshot = plugin_for([make_node("n1"), make_node("n2")], [web])
    incoming = make_pod("p", {"app": "web"}, anti_affinity=[term(labelSelector=WEB, matchLabelKeys=["version"])])
    state = pre_filtered(plugin, snapshot, incoming)
    assert filter_verdicts(plugin, snapshot, incoming, state)["n1"] == ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH


# ---------------------------------------------------------------------------- scoring details


def scores(plugin: InterPodAffinity, snapshot: Snapshot, pod: Pod) -> dict[str, int] | None:
    """Normalized scores, or None when PreScore skips."""
    state = CycleState()
    status = plugin.pre_score(state, pod, snapshot.nodes())
    if status.is_skip:
        return None
    assert status.is_success, status
    entries = []
    for info in snapshot.nodes():
        value, score_status = plugin.score(state, pod, info)
        assert score_status.is_success
        entries.append(NodeScore(info.name, value))
    assert plugin.normalize_score(state, pod, entries).is_success
    return {entry.name: entry.score for entry in entries}


def test_normalization_truncates_like_go() -> None:
    # Raw scores 0, 29 and 100 per node: 100 * (29 / 100) is 28.999... in float64, so 28.
    nodes = [make_node("n1", "z1"), make_node("n2", "z2"), make_node("n3", "z3")]
    pods = [make_pod("a", {"app": "a"}, node="n2"), make_pod("b", {"app": "b"}, node="n3")]
    plugin, snapshot = plugin_for(nodes, pods)
    incoming = make_pod(
        "p",
        preferred_affinity=[(29, term(ZONE, labelSelector={"matchLabels": {"app": "a"}}))],
        preferred_anti_affinity=[],
    )
    assert scores(plugin, snapshot, incoming) == {"n1": 0, "n2": 100, "n3": 0}
    incoming = make_pod(
        "p",
        preferred_affinity=[
            (29, term(ZONE, labelSelector={"matchLabels": {"app": "a"}})),
            (100, term(ZONE, labelSelector={"matchLabels": {"app": "b"}})),
        ],
    )
    assert scores(plugin, snapshot, incoming) == {"n1": 0, "n2": 28, "n3": 100}


def test_weights_that_cancel_still_count_as_a_contribution() -> None:
    pods = [make_pod("a", {"app": "a"}, node="n1")]
    plugin, snapshot = plugin_for([make_node("n1"), make_node("n2")], pods)
    a = {"matchLabels": {"app": "a"}}
    incoming = make_pod(
        "p", preferred_affinity=[(5, term(labelSelector=a))], preferred_anti_affinity=[(5, term(labelSelector=a))]
    )
    assert scores(plugin, snapshot, incoming) == {"n1": 0, "n2": 0}  # not skipped
    unrelated = make_pod("p", preferred_affinity=[(5, term(labelSelector={"matchLabels": {"app": "x"}}))])
    assert scores(plugin, snapshot, unrelated) is None


def test_existing_required_affinity_scores_by_hard_pod_affinity_weight_and_zero_turns_it_off() -> None:
    follower = make_pod("f", {"app": "f"}, node="n1", affinity=[term(labelSelector=WEB)])
    nodes = [make_node("n1"), make_node("n2")]
    incoming = make_pod("p", {"app": "web"})
    plugin, snapshot = plugin_for(nodes, [follower], hardPodAffinityWeight=7)
    assert scores(plugin, snapshot, incoming) == {"n1": 100, "n2": 0}
    plugin, snapshot = plugin_for(nodes, [follower], hardPodAffinityWeight=0)
    assert scores(plugin, snapshot, incoming) is None


def test_ignoring_existing_pods_preferred_terms_skips_pods_without_preferences_only() -> None:
    fan = make_pod("fan", {"app": "fan"}, node="n1", preferred_affinity=[(10, term(labelSelector=WEB))])
    nodes = [make_node("n1"), make_node("n2")]
    plugin, snapshot = plugin_for(nodes, [fan], ignorePreferredTermsOfExistingPods=True)
    assert scores(plugin, snapshot, make_pod("p", {"app": "web"})) is None
    # With preferences of its own, the existing pods' preferences count again (symmetry).
    own = make_pod("p", {"app": "web"}, preferred_affinity=[(1, term(labelSelector={"matchLabels": {"app": "x"}}))])
    assert scores(plugin, snapshot, own) == {"n1": 100, "n2": 0}


def test_args_out_of_range_are_refused() -> None:
    with pytest.raises(ManifestError, match=r"Invalid value: 101: not in valid range \[0-100\]"):
        InterPodAffinity({"hardPodAffinityWeight": 101})
    with pytest.raises(ManifestError, match="must be a boolean"):
        InterPodAffinity({"ignorePreferredTermsOfExistingPods": "yes"})
    assert InterPodAffinity({}).hard_pod_affinity_weight == 1


def with_selector(pod: Pod, selector: LabelSelector) -> Pod:
    """The pod with every pod (anti-)affinity term's labelSelector replaced, bypassing the manifest parser."""
    affinity = pod.spec.affinity
    assert affinity is not None

    def swap(rules: PodAffinity | None) -> PodAffinity | None:
        if rules is None:
            return None
        return PodAffinity(
            tuple(replace(t, label_selector=selector) for t in rules.required),
            tuple(
                replace(w, pod_affinity_term=replace(w.pod_affinity_term, label_selector=selector))
                for w in rules.preferred
            ),
        )

    new_affinity = replace(
        affinity, pod_affinity=swap(affinity.pod_affinity), pod_anti_affinity=swap(affinity.pod_anti_affinity)
    )
    return replace(pod, spec=replace(pod.spec, affinity=new_affinity))


def test_invalid_selector_values_fail_prefilter_with_upstreams_message() -> None:
    plugin, snapshot = plugin_for([make_node("n1")], [])
    bad = LabelSelector(match_expressions=(LabelSelectorRequirement("app", "In", ("ok", "-bad-")),))
    incoming = with_selector(
        make_pod("p", anti_affinity=[term(labelSelector=WEB)], preferred_affinity=[(1, term(labelSelector=WEB))]), bad
    )
    _, status = plugin.pre_filter(CycleState(), incoming, snapshot.nodes())
    assert status.code is Code.UnschedulableAndUnresolvable
    assert status.message.startswith(
        'parsing pod: [requiredAntiAffinityTerms: values[1][app]: Invalid value: "-bad-": a valid label must'
    )
    assert ", preferredAffinityTerms: values[1][app]" in status.message
    assert status.message.endswith("]")


# ---------------------------------------------------------------------------- caches


def test_counts_follow_pods_bound_and_removed_between_cycles() -> None:
    plugin, snapshot = plugin_for([make_node("n1"), make_node("n2"), make_node("n3")], [])
    incoming = make_pod("p", {"app": "web"}, anti_affinity=[term(labelSelector=WEB)])
    for step, node in enumerate(("n1", "n2")):
        verdicts = filter_verdicts(plugin, snapshot, incoming, pre_filtered(plugin, snapshot, incoming))
        assert [name for name, verdict in verdicts.items() if verdict != "ok"] == ["n1", "n2"][:step]
        snapshot.add_pod(make_pod(f"web-{step}", {"app": "web"}, node=node, anti_affinity=[term(labelSelector=WEB)]))
    verdicts = filter_verdicts(plugin, snapshot, incoming, pre_filtered(plugin, snapshot, incoming))
    assert verdicts["n1"] == ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH
    snapshot.remove_pod(make_pod("web-0", {"app": "web"}, node="n1"))
    verdicts = filter_verdicts(plugin, snapshot, incoming, pre_filtered(plugin, snapshot, incoming))
    assert verdicts == {"n1": "ok", "n2": ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH, "n3": "ok"}


def test_counts_follow_node_label_changes() -> None:
    web = make_pod("web", {"app": "web"}, node="n1")
    plugin, snapshot = plugin_for([make_node("n1", "za"), make_node("n2", "zb")], [web])
    incoming = make_pod("p", {"app": "web"}, anti_affinity=[term(ZONE, labelSelector=WEB)])
    verdicts = filter_verdicts(plugin, snapshot, incoming, pre_filtered(plugin, snapshot, incoming))
    assert verdicts == {"n1": ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH, "n2": "ok"}
    snapshot.update_node(make_node("n1", "zb"))
    verdicts = filter_verdicts(plugin, snapshot, incoming, pre_filtered(plugin, snapshot, incoming))
    assert verdicts == {"n1": ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH, "n2": ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH}


LABELS = st.fixed_dictionaries({"app": st.sampled_from(("web", "db")), "tier": st.sampled_from(("a", "b"))})
SELECTORS = st.sampled_from(
    (
        {"matchLabels": {"app": "web"}},
        {"matchLabels": {"app": "db"}},
        {"matchExpressions": [{"key": "tier", "operator": "In", "values": ["a"]}]},
        {},
    )
)
TERMS = st.builds(term, st.sampled_from((HOSTNAME, ZONE, "rack")), labelSelector=SELECTORS)


@st.composite
def pod_spec(draw: Any) -> dict[str, Any]:
    return {
        "labels": draw(LABELS),
        "namespace": draw(st.sampled_from(("default", "other"))),
        "affinity": draw(st.lists(TERMS, max_size=2)),
        "anti_affinity": draw(st.lists(TERMS, max_size=1)),
        "preferred_affinity": draw(st.lists(st.tuples(st.integers(1, 100), TERMS), max_size=2)),
        "preferred_anti_affinity": draw(st.lists(st.tuples(st.integers(1, 100), TERMS), max_size=1)),
    }


STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("add"), pod_spec(), st.integers(0, 5)),
        st.tuples(st.just("remove"), st.integers(0, 50)),
        st.tuples(st.just("relabel"), st.integers(0, 5), st.sampled_from(("za", "zb"))),
        st.tuples(st.just("schedule"), pod_spec()),
    ),
    min_size=1,
    max_size=25,
)


def _outcome(plugin: InterPodAffinity, snapshot: Snapshot, pod: Pod, *, copied_nodes: bool = False) -> tuple[Any, ...]:
    state = CycleState()
    nodes = list(snapshot.nodes()) if copied_nodes else snapshot.nodes()
    _, status = plugin.pre_filter(state, pod, nodes)
    verdicts = tuple(sorted(filter_verdicts(plugin, snapshot, pod, state).items())) if status.is_success else ()
    return status.code, verdicts, scores(plugin, snapshot, pod)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(STEPS)
def test_a_long_lived_plugin_agrees_with_a_fresh_one_after_any_cluster_changes(steps: list[Any]) -> None:
    nodes = [make_node(f"n{i}", "za" if i % 2 else "zb", rack=f"r{i % 3}") for i in range(6)]
    warm, snapshot = plugin_for(nodes, [])
    bound: list[Pod] = []
    for number, step in enumerate(steps):
        if step[0] == "add":
            pod = make_pod(f"e{number}", node=f"n{step[2]}", **step[1])
            snapshot.add_pod(pod)
            bound.append(pod)
        elif step[0] == "remove" and bound:
            snapshot.remove_pod(bound.pop(step[1] % len(bound)))
        elif step[0] == "relabel":
            snapshot.update_node(make_node(f"n{step[1]}", step[2], rack=f"r{step[1] % 3}"))
        elif step[0] == "schedule":
            incoming = make_pod(f"p{number}", **step[1])
            fresh = InterPodAffinity({"hardPodAffinityWeight": 1}, Handle(snapshot=snapshot))
            expected = _outcome(fresh, snapshot, incoming)
            assert _outcome(warm, snapshot, incoming) == expected
            assert _outcome(warm, snapshot, incoming, copied_nodes=True) == expected


# ---------------------------------------------------------------------------- with preemption


def _prioritized(pod: Pod, priority: int) -> Pod:
    return replace(pod, spec=replace(pod.spec, priority=priority))


def _schedulable_node(name: str) -> Node:
    node = make_node(name)
    capacity = {"cpu": 4000, "memory": 8 * 2**30, "pods": 110}
    return replace(node, status=replace(node.status, capacity=capacity, allocatable=capacity))


def test_preemption_evicts_the_pod_the_incoming_anti_affinity_objects_to() -> None:
    web = _prioritized(make_pod("web", {"app": "web"}, node="n1"), 0)
    scheduler = Scheduler(handle=Handle(snapshot=build_snapshot([_schedulable_node("n1")], [web])))
    incoming = _prioritized(make_pod("p", {"app": "api"}, anti_affinity=[term(labelSelector=WEB)]), 100)
    result = scheduler.schedule_pod(incoming)
    assert result.selected is None
    assert "node(s) didn't match pod anti-affinity rules" in result.message
    # RemovePod took the victim out of the counts in the what-if, so n1 fits once web is gone.
    assert result.nominated_node == "n1"
    assert [victim.name for victim in result.victims] == ["web"]


def test_preemption_does_not_try_to_satisfy_required_affinity() -> None:
    web = _prioritized(make_pod("web", {"app": "web"}, node="n1"), 0)
    scheduler = Scheduler(handle=Handle(snapshot=build_snapshot([_schedulable_node("n1")], [web])))
    incoming = _prioritized(
        make_pod("p", {"app": "api"}, affinity=[term(labelSelector={"matchLabels": {"app": "db"}})]), 100
    )
    result = scheduler.schedule_pod(incoming)
    assert result.selected is None
    assert "node(s) didn't match pod affinity rules" in result.message
    assert not result.nominated_node  # UnschedulableAndUnresolvable: preemption cannot help
