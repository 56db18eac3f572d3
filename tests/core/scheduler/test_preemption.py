"""Preemption verdicts, ported in spirit from upstream's default_preemption_test.go (TestPostFilter,
TestDryRunPreemption, TestSelectBestCandidate, TestPodEligibleToPreemptOthers, TestPreempt) at
kubernetes/kubernetes 008b3652, plus the nominated-pods filtering and whole scheduling attempts."""

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import parse_object
from scheduler_core.api.pod_conditions import (
    DISRUPTION_TARGET,
    EVICTION_BY_EVICTION_API,
    PREEMPTION_BY_SCHEDULER,
    with_condition,
)
from scheduler_core.api.types import Node, Pod, PodDisruptionBudget, PodDisruptionBudgetStatus
from scheduler_core.scheduler.config import PluginRef, PluginSet, Profile
from scheduler_core.scheduler.framework import SUCCESS, Code, CycleState, PreFilterResult, Status, error
from scheduler_core.scheduler.plugins.default_preemption import DefaultPreemption
from scheduler_core.scheduler.preemption import (
    PREEMPTION_OUTCOME_KEY,
    Evaluator,
    PreemptionOutcome,
    more_important_pod,
)
from scheduler_core.scheduler.registry import DEFAULT_REGISTRY
from scheduler_core.scheduler.runtime import Handle, PluginFactory
from scheduler_core.scheduler.schedule_one import Scheduler
from scheduler_core.scheduler.snapshot import NodeInfo, PodInfo, build_snapshot

LOW, MID, HIGH, VERY_HIGH, NEG = 0, 100, 1000, 10000, -100
SMALL = {"cpu": "100m", "memory": "100"}
MEDIUM = {"cpu": "200m", "memory": "200"}
LARGE = {"cpu": "300m", "memory": "300"}
VERY_LARGE = {"cpu": "500m", "memory": "500"}
ONE_POD = {"pods": "1"}


# ---------------------------------------------------------------------------- manifests


def node(
    name: str, capacity: Mapping[str, str] = VERY_LARGE, labels: Mapping[str, str] | None = None, **spec: Any
) -> Node:
    """st.MakeNode().Capacity(...): capacity is allocatable too, with 32 pods unless given."""
    resources = {"pods": "32", **capacity}
    manifest: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": dict(labels or {})},
        "status": {"capacity": resources, "allocatable": resources},
    }
    if spec:
        manifest["spec"] = spec
    result = parse_object(manifest)
    assert isinstance(result, Node)
    return result


def pod(
    name: str,
    *,
    priority: int | None = None,
    requests: Mapping[str, str] | None = None,
    on: str = "",
    start: int | None = None,
    labels: Mapping[str, str] | None = None,
    policy: str | None = None,
    nominated: str = "",
    terminating: bool = False,
    **spec_fields: Any,
) -> Pod:
    container: dict[str, Any] = {"name": "c", "image": "pause"}
    if requests:
        container["resources"] = {"requests": dict(requests)}
    spec: dict[str, Any] = {"containers": [container], **spec_fields}
    if priority is not None:
        spec["priority"] = priority
    if on:
        spec["nodeName"] = on
    if policy:
        spec["preemptionPolicy"] = policy
    status: dict[str, Any] = {}
    if start is not None:
        status["startTime"] = f"1970-01-01T00:00:{start:02d}Z"
    if nominated:
        status["nominatedNodeName"] = nominated
    metadata: dict[str, Any] = {
        "name": name,
        "namespace": "default",
        "uid": f"uid-{name}",
        "labels": dict(labels or {}),
    }
    if terminating:
        metadata["deletionTimestamp"] = "1970-01-01T00:01:00Z"
    result = parse_object({"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec, "status": status})
    assert isinstance(result, Pod)
    return result


def pdb(name: str, match_labels: Mapping[str, str], allowed: int, disrupted: Sequence[str] = ()) -> PodDisruptionBudget:
    """The status is the disruption controller's work, so it is set here rather than parsed."""
    manifest = {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"selector": {"matchLabels": dict(match_labels)}},
    }
    result = parse_object(manifest)
    assert isinstance(result, PodDisruptionBudget)
    status = PodDisruptionBudgetStatus(disruptions_allowed=allowed, disrupted_pods=dict.fromkeys(disrupted, 0.0))
    return replace(result, status=status)


# ---------------------------------------------------------------------------- frameworks


class _Inert:
    """Stands in for a default plugin that has not landed in the registry yet: takes part in nothing."""

    def __init__(self, name: str) -> None:
        self.name = name


class _RemoveErrorPlugin:
    """Upstream's TestPlugin: its AddPod/RemovePod fail on nodes labelled error=true."""

    name = "test-plugin"

    def pre_filter(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[PreFilterResult | None, Status]:
        return None, SUCCESS

    def add_pod(self, state: CycleState, pod_to_schedule: Pod, pod_info_to_add: PodInfo, node: NodeInfo) -> Status:
        if node.node.labels.get("error") == "true":
            return error(f"failed to add pod: {pod_to_schedule.name}")
        return SUCCESS

    def remove_pod(
        self, state: CycleState, pod_to_schedule: Pod, pod_info_to_remove: PodInfo, node: NodeInfo
    ) -> Status:
        if node.node.labels.get("error") == "true":
            return error(f"failed to remove pod: {pod_to_schedule.name}")
        return SUCCESS


class _NeedsCompanyPlugin:
    """A Filter that passes only where some pod already runs, as pod affinity may."""

    name = "NeedsCompany"

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        return SUCCESS if node.pods else Status(Code.Unschedulable, ("node(s) had no company",))


REGISTRY: dict[str, PluginFactory] = {
    **DEFAULT_REGISTRY,
    "test-plugin": lambda args, handle: _RemoveErrorPlugin(),
    "NeedsCompany": lambda args, handle: _NeedsCompanyPlugin(),
}


def _inert(name: str) -> PluginFactory:
    def factory(args: Mapping[str, Any], handle: Handle) -> Any:
        return _Inert(name)

    return factory


for _pending in ("PodTopologySpread", "InterPodAffinity"):
    REGISTRY.setdefault(_pending, _inert(_pending))


def scheduler(
    nodes: Sequence[Node],
    pods: Sequence[Pod] = (),
    *,
    plugins: Sequence[str] | None = None,
    pdbs: Sequence[PodDisruptionBudget] = (),
    args: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> Scheduler:
    """The default profile, or (like upstream's unit tests) a profile of just the plugins named."""
    from scheduler_core.scheduler.config import SchedulerConfiguration

    profile = Profile(plugin_args={"DefaultPreemption": dict(args)} if args else {})
    if plugins is not None:
        refs = ("PrioritySort", *plugins, "DefaultPreemption", "DefaultBinder")
        profile = Profile(
            multi_point=PluginSet(tuple(PluginRef(name) for name in refs)), plugin_args=profile.plugin_args
        )
    handle = Handle(snapshot=build_snapshot(nodes, pods), pdbs=list(pdbs))
    return Scheduler(SchedulerConfiguration(profiles=(profile,)), registry=REGISTRY, seed=seed, handle=handle)


def preemption_of(sched: Scheduler) -> DefaultPreemption:
    plugin = sched.frameworks["default-scheduler"].plugin("DefaultPreemption")
    assert isinstance(plugin, DefaultPreemption)
    return plugin


def pre_filtered_state(sched: Scheduler, preemptor: Pod) -> CycleState:
    state = CycleState()
    _, status, _ = sched.frameworks["default-scheduler"].run_pre_filter(state, preemptor, sched.snapshot.nodes())
    assert status.is_success, status
    return state


def unschedulable_everywhere(*names: str) -> dict[str, Status]:
    return {name: Status(Code.Unschedulable) for name in names}


# ---------------------------------------------------------------------------- PostFilter (TestPostFilter)

POST_FILTER_CASES = [
    pytest.param(
        pod("p", priority=HIGH),
        [pod("p1", on="node1")],
        [node("node1", ONE_POD)],
        unschedulable_everywhere("node1"),
        (),
        ("node1", Code.Success, ""),
        id="pod with higher priority can be made schedulable",
    ),
    pytest.param(
        pod("p"),
        [pod("p1", on="node1")],
        [node("node1", ONE_POD)],
        unschedulable_everywhere("node1"),
        (),
        (
            "",
            Code.Unschedulable,
            "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
        ),
        id="pod with tied priority is still unschedulable",
    ),
    pytest.param(
        pod("p", priority=HIGH),
        [pod("p1", on="node1")],
        [node("node1", ONE_POD)],
        {"node1": Status(Code.UnschedulableAndUnresolvable)},
        (),
        ("", Code.Unschedulable, "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."),
        id="preemption respects an UnschedulableAndUnresolvable node status",
    ),
    pytest.param(
        pod("p", priority=HIGH),
        [pod("p1", on="node1")],
        [node("node1", ONE_POD)],
        {},
        (),
        ("", Code.Unschedulable, "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."),
        id="a node with no status counts as UnschedulableAndUnresolvable",
    ),
    pytest.param(
        pod("p", priority=MID),
        [pod("p1", priority=HIGH, on="node1"), pod("p2", priority=LOW, on="node2")],
        [node("node1", ONE_POD), node("node2", ONE_POD)],
        unschedulable_everywhere("node1", "node2"),
        (),
        ("node2", Code.Success, ""),
        id="pod can be made schedulable on one node",
    ),
    pytest.param(
        pod("p", priority=VERY_HIGH),
        [
            pod("p1", priority=HIGH, on="node1", labels={"pdb": "non-violating"}),
            pod("p2", priority=LOW, on="node1", labels={"pdb": "violating"}),
            pod("p3", priority=MID, on="node2", labels={"pdb": "violating"}),
        ],
        [node("node1", ONE_POD), node("node2", ONE_POD)],
        unschedulable_everywhere("node1", "node2"),
        (pdb("violating-pdb", {"pdb": "violating"}, 0), pdb("non-violating-pdb", {"pdb": "non-violating"}, 2**31 - 1)),
        ("node2", Code.Success, ""),
        id="pod can be made schedulable on minHighestPriority node",
    ),
    pytest.param(
        pod("p", priority=HIGH, requests=LARGE),
        [pod("p1", on="node1"), pod("p2", on="node2")],
        [node("node1", {"cpu": "200m", "memory": "400"}), node("node2", {"cpu": "200m", "memory": "400"})],
        unschedulable_everywhere("node1", "node2"),
        (),
        ("", Code.Unschedulable, "preemption: 0/2 nodes are available: 2 Insufficient cpu."),
        id="no candidate nodes found, not enough resource after removing low priority pods",
    ),
    pytest.param(
        pod("p", priority=HIGH, requests=LARGE),
        [pod("p1", priority=HIGH, on="node1"), pod("p2", on="node2"), pod("p3", priority=HIGH, on="node3")],
        [node("node1", ONE_POD), node("node2", {"cpu": "200m", "memory": "400"}), node("node3", ONE_POD)],
        unschedulable_everywhere("node1", "node2", "node3"),
        (),
        (
            "",
            Code.Unschedulable,
            "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod.",
        ),
        id="no candidate nodes found with mixed reasons",
    ),
    pytest.param(
        pod("p", priority=HIGH, requests=LARGE),
        [pod("p1", on="node1"), pod("p2", on="node2")],
        [node(f"node{i}", {"cpu": "200m", "memory": "400"}) for i in range(1, 5)],
        {**unschedulable_everywhere("node1", "node2"), "node4": Status(Code.UnschedulableAndUnresolvable)},
        (),
        (
            "",
            Code.Unschedulable,
            "preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling.",
        ),
        id="unresolvable and absent nodes are not helpful, the others lack cpu",
    ),
]


@pytest.mark.parametrize(("preemptor", "pods", "nodes", "statuses", "pdbs", "expected"), POST_FILTER_CASES)
def test_post_filter_nominates_or_explains(
    preemptor: Pod,
    pods: list[Pod],
    nodes: list[Node],
    statuses: dict[str, Status],
    pdbs: tuple[PodDisruptionBudget, ...],
    expected: tuple[str | None, Code, str],
) -> None:
    sched = scheduler(nodes, pods, plugins=["NodeResourcesFit"], pdbs=pdbs)
    state = pre_filtered_state(sched, preemptor)
    nominated, status = preemption_of(sched).post_filter(state, preemptor, statuses)
    assert (nominated, status.code, status.message) == expected


def test_an_error_on_the_only_node_is_reported_with_the_prefix() -> None:
    preemptor = pod("p", priority=HIGH, requests=LARGE)
    sched = scheduler(
        [node("node1", LARGE, labels={"error": "true"})],
        [pod("p1", on="node1")],
        plugins=["NodeResourcesFit", "test-plugin"],
    )
    nominated, status = preemption_of(sched).post_filter(
        pre_filtered_state(sched, preemptor), preemptor, unschedulable_everywhere("node1")
    )
    assert nominated is None
    assert status.code is Code.Error
    assert status.message == 'preemption: running RemovePod on PreFilter plugin "test-plugin": failed to remove pod: p'


def test_an_error_on_one_node_does_not_stop_a_candidate_elsewhere() -> None:
    preemptor = pod("p", priority=HIGH, requests=LARGE)
    sched = scheduler(
        [node("node1", LARGE, labels={"error": "true"}), node("node2", LARGE)],
        [pod("p1", on="node1"), pod("p2", on="node2", requests=MEDIUM)],
        plugins=["NodeResourcesFit", "test-plugin"],
    )
    state = pre_filtered_state(sched, preemptor)
    nominated, status = preemption_of(sched).post_filter(state, preemptor, unschedulable_everywhere("node1", "node2"))
    assert (nominated, status.code) == ("node2", Code.Success)
    outcome = state.get(PREEMPTION_OUTCOME_KEY)
    assert isinstance(outcome, PreemptionOutcome)
    assert (outcome.node_name, [v.name for v in outcome.victims]) == ("node2", ["p2"])


# ---------------------------------------------------------------------------- DryRunPreemption


def _labelled_node(spec: str) -> Node:
    """Upstream's "name/zone/region" node names: the parts become hostname, zone and region labels."""
    parts = spec.split("/")
    return node(parts[0], labels=dict(zip(("hostname", "zone", "region"), parts, strict=False)))


def _candidates(
    preemptor: Pod,
    pods: list[Pod],
    node_names: Sequence[str],
    *,
    pdbs: Sequence[PodDisruptionBudget] = (),
    args: Mapping[str, Any] | None = None,
    offset: int = 0,
    plugins: Sequence[str] = ("NodeResourcesFit",),
) -> dict[str, tuple[list[str], int]]:
    sched = scheduler([_labelled_node(name) for name in node_names], pods, plugins=plugins, args=args)
    evaluator = preemption_of(sched).evaluator
    nodes = sorted(sched.snapshot.nodes(), key=lambda n: n.name)
    found, _, _ = evaluator.dry_run_preemption(
        pre_filtered_state(sched, preemptor),
        preemptor,
        nodes,
        pdbs,
        offset,
        evaluator.calculate_num_candidates(len(nodes)),
    )
    return {c.name: (sorted(v.name for v in c.victims), c.num_pdb_violations) for c in found}


DRY_RUN_CASES = [
    pytest.param(
        pod("p", priority=HIGH, requests=LARGE),
        [pod("p1", on="node1", priority=MID, requests=LARGE), pod("p2", on="node2", priority=MID, requests=LARGE)],
        ["node1", "node2"],
        {},
        {"node1": (["p1"], 0), "node2": (["p2"], 0)},
        id="a pod that fits on both nodes when lower priority pods are preempted",
    ),
    pytest.param(
        pod("p", priority=LOW, requests=LARGE),
        [pod("p1", on="node1", priority=MID, requests=LARGE), pod("p2", on="node2", priority=MID, requests=LARGE)],
        ["node1", "node2"],
        {},
        {},
        id="no preemption when the pods running are of higher priority",
    ),
    pytest.param(
        pod("p", priority=HIGH, requests=LARGE),
        [
            pod("p1.1", on="node1", priority=LOW, requests=SMALL),
            pod("p1.2", on="node1", priority=MID, requests=LARGE),
            pod("p2", on="node2", priority=MID, requests=LARGE),
        ],
        ["node1", "node2"],
        {},
        {"node1": (["p1.2"], 0), "node2": (["p2"], 0)},
        id="medium priority pod is preempted, but lower priority one stays as it is small",
    ),
    pytest.param(
        pod("p", priority=HIGH, requests=LARGE),
        [
            pod("p1.1", on="node1", priority=MID, requests=SMALL),
            pod("p1.2", on="node1", priority=LOW, requests=SMALL),
            pod("p1.3", on="node1", priority=MID, requests=MEDIUM),
            pod("p1.4", on="node1", priority=HIGH, requests=SMALL),
            pod("p2", on="node2", priority=HIGH, requests=LARGE),
        ],
        ["node1", "node2"],
        {},
        {"node1": (["p1.2", "p1.3"], 0)},
        id="mixed priority pods are preempted",
    ),
    pytest.param(
        pod("p", priority=HIGH, requests=LARGE),
        [
            pod("p1.1", on="node1", priority=LOW, requests=SMALL, start=5),
            pod("p1.2", on="node1", priority=LOW, requests=SMALL, start=4),
            pod("p1.3", on="node1", priority=MID, requests=MEDIUM, start=3),
            pod("p1.4", on="node1", priority=HIGH, requests=SMALL, start=2),
            pod("p2", on="node2", priority=HIGH, requests=LARGE, start=1),
        ],
        ["node1", "node2"],
        {},
        {"node1": (["p1.1", "p1.3"], 0)},
        id="mixed priority pods are preempted, the later started one when priorities are equal",
    ),
]


@pytest.mark.parametrize(("preemptor", "pods", "node_names", "args", "expected"), DRY_RUN_CASES)
def test_dry_run_finds_the_minimal_victims_per_node(
    preemptor: Pod,
    pods: list[Pod],
    node_names: list[str],
    args: dict[str, Any],
    expected: dict[str, tuple[list[str], int]],
) -> None:
    assert _candidates(preemptor, pods, node_names, args=args) == expected


FOO_EXISTS = {"matchExpressions": [{"key": "foo", "operator": "Exists"}]}


def _spread(*keys: str) -> list[dict[str, Any]]:
    return [
        {"maxSkew": 1, "topologyKey": key, "whenUnsatisfiable": "DoNotSchedule", "labelSelector": FOO_EXISTS}
        for key in keys
    ]


def test_dry_run_resolves_a_topology_spread_failure_through_the_prefilter_extensions() -> None:
    """PodTopologySpread's PreFilter state follows each removal and reprieve (RemovePod/AddPod)."""
    foo = {"foo": ""}
    preemptor = pod("p", priority=HIGH, labels=foo, topologySpreadConstraints=_spread("zone", "hostname"))
    pods = [
        pod("pod-a1", on="node-a", priority=MID, labels=foo),
        pod("pod-a2", on="node-a", priority=LOW, labels=foo),
        pod("pod-b1", on="node-b", priority=LOW, labels=foo),
        pod("pod-x1", on="node-x", priority=HIGH, labels=foo),
        pod("pod-x2", on="node-x", priority=HIGH, labels=foo),
    ]
    found = _candidates(
        preemptor, pods, ["node-a/zone1", "node-b/zone1", "node-x/zone2"], plugins=["PodTopologySpread"]
    )
    assert found == {"node-a": (["pod-a2"], 0), "node-b": (["pod-b1"], 0)}


def test_preemption_for_topology_spread_constraints_picks_node_b() -> None:
    foo = {"foo": ""}
    preemptor = pod("p", priority=HIGH, labels=foo, topologySpreadConstraints=_spread("zone", "hostname"))
    pods = [
        pod("p-a1", on="node-a", priority=HIGH, labels=foo),
        pod("p-a2", on="node-a", priority=HIGH, labels=foo),
        pod("p-b1", on="node-b", priority=LOW, labels=foo),
        pod("p-x1", on="node-x", priority=HIGH, labels=foo),
        pod("p-x2", on="node-x", priority=HIGH, labels=foo),
    ]
    nodes = [_labelled_node(n) for n in ("node-a/zone1", "node-b/zone1", "node-x/zone2")]
    sched = scheduler(nodes, pods, plugins=["PodTopologySpread"])
    state = pre_filtered_state(sched, preemptor)
    nominated, status = preemption_of(sched).post_filter(
        state, preemptor, unschedulable_everywhere("node-a", "node-b", "node-x")
    )
    assert (nominated, status.code) == ("node-b", Code.Success)
    outcome = state.get(PREEMPTION_OUTCOME_KEY)
    assert isinstance(outcome, PreemptionOutcome) and [v.name for v in outcome.victims] == ["p-b1"]


def test_dry_run_preempts_the_pod_whose_anti_affinity_blocks() -> None:
    anti_affinity = {
        "podAntiAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": FOO_EXISTS, "topologyKey": "hostname"}]
        }
    }
    preemptor = pod("p", priority=HIGH, requests=SMALL, labels={"foo": ""})
    pods = [
        pod("p1.1", on="node1", priority=LOW, requests=SMALL, labels={"foo": ""}, affinity=anti_affinity),
        pod("p1.2", on="node1", priority=MID, requests=SMALL),
        pod("p1.3", on="node1", priority=HIGH, requests=SMALL),
        pod("p2", on="node2", priority=HIGH, requests=SMALL),
    ]
    found = _candidates(preemptor, pods, ["node1", "node2"], plugins=["NodeResourcesFit", "InterPodAffinity"])
    assert found == {"node1": (["p1.1"], 0)}


SAME_APP = [
    pod("p1.1", on="node1", priority=MID, requests=MEDIUM, labels={"app": "foo"}),
    pod("p1.2", on="node1", priority=MID, requests=MEDIUM, labels={"app": "foo"}),
]


@pytest.mark.parametrize(
    ("pods", "budget", "expected"),
    [
        pytest.param(
            SAME_APP, pdb("b", {"app": "foo"}, 1), (["p1.1", "p1.2"], 1), id="preemption with violation of same pdb"
        ),
        pytest.param(
            SAME_APP,
            pdb("b", {"app": "foo"}, 1, disrupted=["p2"]),
            (["p1.1", "p1.2"], 1),
            id="a disruptedPods entry for another pod changes nothing",
        ),
        pytest.param(
            SAME_APP,
            pdb("b", {"app": "foo"}, 1, disrupted=["p1.2"]),
            (["p1.1", "p1.2"], 0),
            id="a victim already in disruptedPods spends no budget",
        ),
        pytest.param(
            [*SAME_APP, pod("p1.3", on="node1", priority=MID, requests=MEDIUM, labels={"app": "foo"})],
            pdb("b", {"app": "foo"}, 1, disrupted=["p1.3"]),
            (["p1.1", "p1.2", "p1.3"], 1),
            id="the victim in disruptedPods is non-violating, the budget still runs out for the others",
        ),
    ],
)
def test_dry_run_counts_pdb_violations(
    pods: list[Pod], budget: PodDisruptionBudget, expected: tuple[list[str], int]
) -> None:
    preemptor = pod("p", priority=HIGH, requests=VERY_LARGE)
    assert _candidates(preemptor, pods, ["node1"], pdbs=[budget]) == {"node1": expected}


FIVE_NODES = ["node1", "node2", "node3", "node4", "node5"]
LIMIT_TO_TWO = {"minCandidateNodesPercentage": 40, "minCandidateNodesAbsolute": 1}


def _one_per_node(priorities: Sequence[int], labelled: Sequence[int] = ()) -> list[Pod]:
    return [
        pod(f"p{i}", on=f"node{i}", priority=priority, requests=LARGE, labels={"app": "foo"} if i in labelled else None)
        for i, priority in enumerate(priorities, start=1)
    ]


@pytest.mark.parametrize(
    ("pods", "args", "offset", "pdbs", "expected"),
    [
        pytest.param(
            _one_per_node([MID] * 5),
            LIMIT_TO_TWO,
            4,
            (),
            {"node1": (["p1"], 0), "node5": (["p5"], 0)},
            id="all nodes are possible candidates, but the args limit them to 2",
        ),
        pytest.param(
            _one_per_node([MID, VERY_HIGH, MID, MID, VERY_HIGH]),
            LIMIT_TO_TWO,
            4,
            (),
            {"node1": (["p1"], 0), "node3": (["p3"], 0)},
            id="some nodes are not possible candidates, the args limit them to 2",
        ),
        pytest.param(
            _one_per_node([MID] * 5), LIMIT_TO_TWO, 1, (), {"node2": (["p2"], 0), "node3": (["p3"], 0)}, id="offset 1"
        ),
        pytest.param(
            _one_per_node([MID] * 5),
            LIMIT_TO_TWO,
            3,
            (),
            {"node4": (["p4"], 0), "node5": (["p5"], 0)},
            id="offset wraps",
        ),
        pytest.param(
            _one_per_node([MID] * 5, labelled=[1, 2, 5]),
            {"minCandidateNodesPercentage": 40, "minCandidateNodesAbsolute": 2},
            4,
            (pdb("b", {"app": "foo"}, 0),),
            {"node1": (["p1"], 1), "node3": (["p3"], 0), "node5": (["p5"], 1)},
            id="looks past numCandidates until a non-PDB-violating node is found",
        ),
    ],
)
def test_dry_run_stops_after_enough_candidates_from_the_offset(
    pods: list[Pod],
    args: dict[str, int],
    offset: int,
    pdbs: tuple[PodDisruptionBudget, ...],
    expected: dict[str, tuple[list[str], int]],
) -> None:
    preemptor = pod("p", priority=HIGH, requests=LARGE)
    assert _candidates(preemptor, pods, FIVE_NODES, pdbs=pdbs, args=args, offset=offset) == expected


def test_dry_run_orders_non_violating_candidates_first() -> None:
    preemptor = pod("p", priority=HIGH, requests=LARGE)
    pods = _one_per_node([MID, MID], labelled=[1])
    sched = scheduler([node("node1"), node("node2")], pods, plugins=["NodeResourcesFit"])
    evaluator = preemption_of(sched).evaluator
    found, _, _ = evaluator.dry_run_preemption(
        pre_filtered_state(sched, preemptor), preemptor, sched.snapshot.nodes(), [pdb("b", {"app": "foo"}, 0)], 0, 2
    )
    assert [(c.name, c.num_pdb_violations) for c in found] == [("node2", 0), ("node1", 1)]


# ---------------------------------------------------------------------------- SelectCandidate (TestSelectBestCandidate)

SELECT_CASES = [
    pytest.param(
        ["node1", "node2"],
        [
            pod("p1", on="node1", priority=MID, requests=LARGE, start=0),
            pod("p2", on="node2", priority=MID, requests=LARGE, start=0),
        ],
        {"node1", "node2"},
        id="a pod that fits on both nodes when lower priority pods are preempted",
    ),
    pytest.param(
        ["node1", "node2", "node3"],
        [
            pod("p1.1", on="node1", priority=MID, requests=MEDIUM, start=0),
            pod("p1.2", on="node1", priority=MID, requests=LARGE, start=0),
            pod("p2.1", on="node2", priority=MID, requests=MEDIUM, start=0),
            pod("p2.2", on="node2", priority=LOW, requests=MEDIUM, start=0),
            pod("p3.1", on="node3", priority=LOW, requests=MEDIUM, start=0),
            pod("p3.2", on="node3", priority=LOW, requests=MEDIUM, start=0),
        ],
        {"node3"},
        id="node with min highest priority pod is picked",
    ),
    pytest.param(
        ["node1", "node2", "node3"],
        [
            pod("p1.1", on="node1", priority=MID, requests=MEDIUM, start=0),
            pod("p1.2", on="node1", priority=MID, requests=LARGE, start=0),
            pod("p2.1", on="node2", priority=MID, requests=LARGE, start=0),
            pod("p2.2", on="node2", priority=LOW, requests=MEDIUM, start=0),
            pod("p3.1", on="node3", priority=MID, requests=MEDIUM, start=0),
            pod("p3.2", on="node3", priority=MID, requests=MEDIUM, start=0),
        ],
        {"node2"},
        id="when highest priorities are the same, minimum sum of priorities is picked",
    ),
    pytest.param(
        ["node1", "node2", "node3"],
        [
            pod("p1.1", on="node1", priority=MID, requests=SMALL, start=0),
            pod("p1.2", on="node1", priority=NEG, requests=SMALL, start=0),
            pod("p1.3", on="node1", priority=MID, requests=SMALL, start=0),
            pod("p1.4", on="node1", priority=NEG, requests=SMALL, start=0),
            pod("p2.1", on="node2", priority=MID, requests=LARGE, start=0),
            pod("p2.2", on="node2", priority=NEG, requests=MEDIUM, start=0),
            pod("p3.1", on="node3", priority=MID, requests=MEDIUM, start=0),
            pod("p3.2", on="node3", priority=NEG, requests=SMALL, start=0),
            pod("p3.3", on="node3", priority=LOW, requests=SMALL, start=0),
        ],
        {"node2"},
        id="when highest priority and sum are the same, minimum number of pods is picked",
    ),
    pytest.param(
        ["node1", "node2", "node3"],
        [
            pod("p1.1", on="node1", priority=MID, requests=SMALL, start=0),
            pod("p1.2", on="node1", priority=NEG, requests=SMALL, start=0),
            pod("p1.3", on="node1", priority=NEG, requests=SMALL, start=0),
            pod("p2.1", on="node2", priority=MID, requests=LARGE, start=0),
            pod("p2.2", on="node2", priority=NEG, requests=MEDIUM, start=0),
            pod("p3.1", on="node3", priority=MID, requests=MEDIUM, start=0),
            pod("p3.2", on="node3", priority=NEG, requests=SMALL, start=0),
            pod("p3.3", on="node3", priority=LOW, requests=SMALL, start=0),
        ],
        {"node2"},
        id="sum of adjusted priorities is considered",
    ),
    pytest.param(
        ["node1", "node2", "node3", "node4"],
        [
            pod("p1.1", on="node1", priority=MID, requests=SMALL, start=0),
            pod("p1.2", on="node1", priority=LOW, requests=SMALL, start=0),
            pod("p1.3", on="node1", priority=LOW, requests=SMALL, start=0),
            pod("p2.1", on="node2", priority=HIGH, requests=LARGE, start=0),
            pod("p3.1", on="node3", priority=MID, requests=MEDIUM, start=0),
            pod("p3.2", on="node3", priority=LOW, requests=SMALL, start=0),
            pod("p3.3", on="node3", priority=LOW, requests=SMALL, start=0),
            pod("p3.4", on="node3", priority=LOW, requests=MEDIUM, start=0),
            pod("p4.1", on="node4", priority=MID, requests=MEDIUM, start=0),
            pod("p4.2", on="node4", priority=MID, requests=SMALL, start=0),
            pod("p4.3", on="node4", priority=MID, requests=SMALL, start=0),
            pod("p4.4", on="node4", priority=NEG, requests=SMALL, start=0),
        ],
        {"node1"},
        id="non-overlapping lowest high priority, sum priorities, and number of pods",
    ),
    pytest.param(
        ["node1", "node2", "node3"],
        [
            pod("p1.1", on="node1", priority=MID, requests=MEDIUM, start=2),
            pod("p1.2", on="node1", priority=MID, requests=MEDIUM, start=2),
            pod("p2.1", on="node2", priority=MID, requests=MEDIUM, start=3),
            pod("p2.2", on="node2", priority=MID, requests=MEDIUM, start=3),
            pod("p3.1", on="node3", priority=MID, requests=MEDIUM, start=1),
            pod("p3.2", on="node3", priority=MID, requests=MEDIUM, start=1),
        ],
        {"node2"},
        id="same priority, same number of victims, different start time for each node's pod",
    ),
    pytest.param(
        ["node1", "node2", "node3"],
        [
            pod("p1.1", on="node1", priority=MID, requests=MEDIUM, start=4),
            pod("p1.2", on="node1", priority=MID, requests=MEDIUM, start=2),
            pod("p2.1", on="node2", priority=MID, requests=MEDIUM, start=5),
            pod("p2.2", on="node2", priority=MID, requests=MEDIUM, start=1),
            pod("p3.1", on="node3", priority=MID, requests=MEDIUM, start=3),
            pod("p3.2", on="node3", priority=MID, requests=MEDIUM, start=6),
        ],
        {"node3"},
        id="same priority, same number of victims, different start time for all pods",
    ),
    pytest.param(
        ["node1", "node2", "node3"],
        [
            pod("p1.1", on="node1", priority=LOW, requests=MEDIUM, start=4),
            pod("p1.2", on="node1", priority=MID, requests=MEDIUM, start=2),
            pod("p2.1", on="node2", priority=MID, requests=MEDIUM, start=6),
            pod("p2.2", on="node2", priority=LOW, requests=MEDIUM, start=1),
            pod("p3.1", on="node3", priority=LOW, requests=MEDIUM, start=3),
            pod("p3.2", on="node3", priority=MID, requests=MEDIUM, start=5),
        ],
        {"node2"},
        id="different priority, same number of victims, different start time for all pods",
    ),
]


@pytest.mark.parametrize(("node_names", "pods", "expected"), SELECT_CASES)
def test_select_candidate_picks_the_cheapest_node(node_names: list[str], pods: list[Pod], expected: set[str]) -> None:
    requests = LARGE if len(node_names) == 2 else VERY_LARGE
    preemptor = pod("p", priority=VERY_HIGH if len(node_names) == 4 else HIGH, requests=requests)
    sched = scheduler([node(name) for name in node_names], pods, plugins=["NodeResourcesFit"])
    evaluator = preemption_of(sched).evaluator
    nodes = sched.snapshot.nodes()
    found, _, _ = evaluator.dry_run_preemption(
        pre_filtered_state(sched, preemptor), preemptor, nodes, [], 0, evaluator.calculate_num_candidates(len(nodes))
    )
    best = evaluator.select_candidate(found)
    assert best is not None and best.name in expected


def test_ties_everywhere_pick_the_first_candidate_in_dry_run_order() -> None:
    preemptor = pod("p", priority=HIGH, requests=LARGE)
    pods = [pod(f"p{i}", on=f"node{i}", priority=MID, requests=LARGE, start=0) for i in (1, 2, 3)]
    sched = scheduler([node("node1"), node("node2"), node("node3")], pods, plugins=["NodeResourcesFit"])
    evaluator = preemption_of(sched).evaluator
    found, _, _ = evaluator.dry_run_preemption(
        pre_filtered_state(sched, preemptor), preemptor, sched.snapshot.nodes(), [], 2, 3
    )
    assert [c.name for c in found] == ["node3", "node1", "node2"]
    best = evaluator.select_candidate(found)
    assert best is not None and best.name == "node3"


def test_victims_are_listed_most_important_first() -> None:
    assert more_important_pod(pod("a", priority=MID), pod("b", priority=LOW))
    assert more_important_pod(pod("a", priority=MID, start=1), pod("b", priority=MID, start=2))
    assert more_important_pod(pod("a", priority=MID, start=1), pod("b", priority=MID))  # not started: "now"
    preemptor = pod("p", priority=HIGH, requests=VERY_LARGE)
    pods = [
        pod("v1", on="node1", priority=LOW, requests=SMALL, start=1),
        pod("v2", on="node1", priority=MID, requests=SMALL, start=3),
        pod("v3", on="node1", priority=MID, requests=SMALL, start=2),
    ]
    sched = scheduler([node("node1")], pods, plugins=["NodeResourcesFit"])
    evaluator = preemption_of(sched).evaluator
    found, _, _ = evaluator.dry_run_preemption(
        pre_filtered_state(sched, preemptor), preemptor, sched.snapshot.nodes(), [], 0, 1
    )
    assert [v.name for v in found[0].victims] == ["v3", "v2", "v1"]


# ---------------------------------------------------------------------------- eligibility


@pytest.mark.parametrize(
    ("preemptor", "pods", "disruption_reason", "nominated_status", "expected"),
    [
        pytest.param(
            pod("p", priority=HIGH, nominated="node1"),
            [pod("p1", priority=LOW, on="node1", terminating=True)],
            PREEMPTION_BY_SCHEDULER,
            Status(Code.UnschedulableAndUnresolvable, ("node(s) had untolerated taint {foo: bar}",)),
            (True, ""),
            id="a nominated node that became hopeless allows preempting again",
        ),
        pytest.param(pod("p", priority=HIGH), [], "", None, (True, ""), id="pod without nominated node"),
        pytest.param(
            pod("p", priority=HIGH, policy="Never"),
            [],
            "",
            None,
            (False, "not eligible due to preemptionPolicy=Never."),
            id="pod with preemptionPolicy Never",
        ),
        pytest.param(
            pod("p", priority=HIGH, nominated="node1"),
            [pod("p1", priority=LOW, on="node1", terminating=True)],
            PREEMPTION_BY_SCHEDULER,
            None,
            (False, "not eligible due to a terminating pod on the nominated node."),
            id="a victim of the earlier preemption still terminating on the nominated node",
        ),
        pytest.param(
            pod("p", priority=HIGH, nominated="node1"),
            [pod("p1", priority=LOW, on="node1", terminating=True)],
            EVICTION_BY_EVICTION_API,
            None,
            (True, ""),
            id="pods terminating for another reason do not block",
        ),
        pytest.param(
            pod("p", priority=HIGH, nominated="node1"),
            [pod("p1", priority=HIGH, on="node1", terminating=True)],
            PREEMPTION_BY_SCHEDULER,
            None,
            (True, ""),
            id="a terminating pod it could not preempt does not block",
        ),
    ],
)
def test_pod_eligible_to_preempt_others(
    preemptor: Pod,
    pods: list[Pod],
    disruption_reason: str,
    nominated_status: Status | None,
    expected: tuple[bool, str],
) -> None:
    if disruption_reason:  # DisruptionTarget=True with this reason, as its deleter wrote it
        pods = [
            replace(p, status=with_condition(p.status, DISRUPTION_TARGET, True, 0.0, disruption_reason)) for p in pods
        ]
    sched = scheduler([node("node1")], pods, plugins=[])
    assert preemption_of(sched).evaluator.pod_eligible_to_preempt_others(preemptor, nominated_status) == expected


# ---------------------------------------------------------------------------- candidate count and offset


@pytest.mark.parametrize(
    ("nodes", "percentage", "absolute", "expected"),
    [(10, 10, 100, 10), (1000, 10, 100, 100), (1000, 40, 100, 400), (1000, 10, 150, 150), (5, 40, 1, 2), (5, 0, 3, 3)],
)
def test_number_of_candidates(nodes: int, percentage: int, absolute: int, expected: int) -> None:
    evaluator = Evaluator("DefaultPreemption", Handle(), percentage, absolute)
    assert evaluator.calculate_num_candidates(nodes) == expected


def test_offset_comes_from_the_scheduler_generator() -> None:
    first = scheduler([node("node1")], seed=7)
    second = scheduler([node("node1")], seed=7)
    draws = [preemption_of(s).evaluator.get_offset_and_num_candidates(1000) for s in (first, second)]
    assert draws[0] == draws[1]
    assert first.handle.rng is first.rng


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"minCandidateNodesPercentage": 101}, "not in valid range [0, 100]"),
        ({"minCandidateNodesAbsolute": -1}, "not in valid range [0, inf)"),
        ({"minCandidateNodesPercentage": 0, "minCandidateNodesAbsolute": 0}, "cannot be zero at the same time"),
    ],
)
def test_invalid_args_are_refused(args: dict[str, int], message: str) -> None:
    with pytest.raises(ManifestError, match=message.replace("[", r"\[").replace(")", r"\)")):
        DefaultPreemption(args, Handle())


# ---------------------------------------------------------------------------- nominated pods


def test_a_higher_priority_nominated_pod_keeps_its_room() -> None:
    sched = scheduler([node("node1", {"cpu": "1", "memory": "1Gi"})], plugins=["NodeResourcesFit"])
    sched.handle.nominator.add(pod("waiting", priority=MID, requests={"cpu": "800m"}), "node1")
    result = sched.schedule_pod(pod("p", priority=LOW, requests={"cpu": "500m"}))
    assert result.selected is None
    assert result.message.startswith("0/1 nodes are available: 1 Insufficient cpu.")


def test_a_lower_priority_nominated_pod_does_not_count() -> None:
    sched = scheduler([node("node1", {"cpu": "1", "memory": "1Gi"})], plugins=["NodeResourcesFit"])
    sched.handle.nominator.add(pod("waiting", priority=LOW, requests={"cpu": "800m"}), "node1")
    assert sched.schedule_pod(pod("p", priority=MID, requests={"cpu": "500m"})).selected == "node1"


def test_the_pod_itself_is_not_counted_as_nominated() -> None:
    sched = scheduler([node("node1", {"cpu": "1", "memory": "1Gi"})], plugins=["NodeResourcesFit"])
    me = pod("p", priority=MID, requests={"cpu": "800m"}, nominated="node1")
    sched.handle.nominator.add(me)
    assert sched.schedule_pod(me).selected == "node1"


def test_filters_must_also_pass_without_the_nominated_pods() -> None:
    sched = scheduler([node("node1")], plugins=["NeedsCompany"])
    sched.handle.nominator.add(pod("waiting", priority=MID), "node1")
    result = sched.schedule_pod(pod("p", priority=LOW))
    assert result.selected is None
    assert result.diagnosis.node_statuses["node1"].reasons == ("node(s) had no company",)


def test_no_node_is_cloned_when_nothing_is_nominated(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: NodeInfo) -> NodeInfo:
        raise AssertionError("cloned a NodeInfo")

    sched = scheduler([node("node1"), node("node2")], [pod("a", on="node1", requests=SMALL)])
    monkeypatch.setattr(NodeInfo, "clone", refuse)
    assert sched.schedule_pod(pod("p", requests=SMALL)).selected is not None
    assert sched.schedule_pod(pod("q", requests=SMALL, nominated="node2")).selected == "node2"


# ---------------------------------------------------------------------------- whole attempts (default profile)


def _basic_node(name: str) -> Node:
    """scheduler_perf's makeBaseNode: 4 CPU, 32Gi, 110 pods."""
    return node(name, {"cpu": "4", "memory": "32Gi", "pods": "110"})


LOW_POD = {"cpu": "900m", "memory": "500Mi"}
HIGH_POD = {"cpu": "3", "memory": "500Mi"}


def test_a_priority_10_pod_preempts_exactly_three_of_four_low_priority_pods() -> None:
    lows = [pod(f"low-{i}", priority=0, requests=LOW_POD, on="node-0", start=i) for i in range(4)]
    sched = scheduler([_basic_node("node-0")], lows)
    preemptor = pod("high", priority=10, requests=HIGH_POD)

    result = sched.schedule_pod(preemptor)
    assert result.selected is None
    assert result.nominated_node == "node-0"
    assert result.message == "0/1 nodes are available: 1 Insufficient cpu."  # success adds no PostFilter text
    # The oldest pod is the most important one and is reprieved first.
    assert sorted(v.name for v in result.victims) == ["low-1", "low-2", "low-3"]

    applied = sched.apply_preemption(result)
    assert [v.name for v in applied.evicted] == [v.name for v in result.victims]
    assert [message for _, message in applied.events] == ["Preempted by pod uid-high on node node-0"] * 3
    assert applied.preemptor.status.nominated_node_name == "node-0"
    node_info = sched.snapshot.get("node-0")
    assert node_info is not None and [p.pod.name for p in node_info.pods] == ["low-0"]
    assert sched.handle.nominator.node_of(preemptor) == "node-0"

    again = sched.schedule_pod(applied.preemptor)
    assert again.selected == "node-0"
    sched.bind(applied.preemptor, "node-0")
    assert len(sched.handle.nominator) == 0


def test_a_nominated_preemptor_keeps_its_room_from_an_equal_priority_pod() -> None:
    lows = [pod(f"low-{i}", priority=0, requests=LOW_POD, on="node-0", start=i) for i in range(4)]
    sched = scheduler([_basic_node("node-0")], lows)
    sched.apply_preemption(sched.schedule_pod(pod("high", priority=10, requests=HIGH_POD)))
    rival = sched.schedule_pod(pod("rival", priority=10, requests={"cpu": "2", "memory": "500Mi"}))
    assert rival.selected is None
    # Even evicting low-0 would not help: the nominated preemptor's 3 CPUs count in the dry run too.
    assert rival.message == (
        "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are "
        "available: 1 Insufficient cpu."
    )
    assert rival.nominated_node == ""


def test_preemption_policy_never_is_reported() -> None:
    lows = [pod(f"low-{i}", priority=0, requests=LOW_POD, on="node-0") for i in range(4)]
    sched = scheduler([_basic_node("node-0")], lows)
    result = sched.schedule_pod(pod("high", priority=10, requests=HIGH_POD, policy="Never"))
    assert result.selected is None
    assert result.nominated_node is None
    assert result.victims == ()
    assert result.message == (
        "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, "
        "preemption: not eligible due to preemptionPolicy=Never."
    )


def test_the_full_message_when_preemption_is_not_helpful() -> None:
    nodes = [
        node(
            "node-a",
            {"cpu": "4", "memory": "4Gi"},
            taints=[{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}],
        ),
        node("node-b", {"cpu": "2", "memory": "4Gi"}),
        node("node-c", {"cpu": "1", "memory": "4Gi"}),  # smaller than the pod: unresolvable, not helpful
    ]
    pods = [pod("important", priority=HIGH, requests={"cpu": "1"}, on="node-b")]
    sched = scheduler(nodes, pods)
    result = sched.schedule_pod(pod("p", priority=MID, requests={"cpu": "2"}, nominated="node-c"))
    assert result.selected is None
    assert result.nominated_node == ""  # the nomination is cleared
    assert result.message == (
        "0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient cpu. "
        "no new claims to deallocate, preemption: 0/3 nodes are available: "
        "1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling."
    )
    cleared = sched.apply_preemption(result)
    assert cleared.preemptor.status.nominated_node_name == ""
    assert cleared.evicted == []


def test_applying_a_preemption_clears_lower_priority_nominations_on_that_node() -> None:
    lows = [pod(f"low-{i}", priority=0, requests=LOW_POD, on="node-0", start=i) for i in range(4)]
    sched = scheduler([_basic_node("node-0"), _basic_node("node-1")], lows)
    waiting = pod("waiting", priority=5, requests={"cpu": "100m"}, nominated="node-0")
    elsewhere = pod("elsewhere", priority=5, requests={"cpu": "100m"}, nominated="node-1")
    sched.handle.nominator.add(waiting)
    sched.handle.nominator.add(elsewhere)
    # node-1 is full of higher-priority pods so that only node-0 can be chosen
    for i in range(4):
        sched.snapshot.add_pod(pod(f"busy-{i}", priority=20, requests=LOW_POD, on="node-1"))
    result = sched.schedule_pod(pod("high", priority=10, requests=HIGH_POD))
    assert result.nominated_node == "node-0"
    applied = sched.apply_preemption(result)
    assert [(p.name, p.status.nominated_node_name) for p in applied.cleared] == [("waiting", "")]
    assert sched.handle.nominator.node_of(waiting) is None
    assert sched.handle.nominator.node_of(elsewhere) == "node-1"


def test_victims_already_being_deleted_get_no_second_eviction() -> None:
    lows = [
        pod("low-0", priority=0, requests=LOW_POD, on="node-0", start=0),
        pod("low-1", priority=0, requests=LOW_POD, on="node-0", start=1, terminating=True),
        pod("low-2", priority=0, requests=LOW_POD, on="node-0", start=2),
        pod("low-3", priority=0, requests=LOW_POD, on="node-0", start=3),
    ]
    sched = scheduler([_basic_node("node-0")], lows)
    result = sched.schedule_pod(pod("high", priority=10, requests=HIGH_POD))
    applied = sched.apply_preemption(result)
    assert sorted(v.name for v in result.victims) == ["low-1", "low-2", "low-3"]
    assert sorted(v.name for v in applied.evicted) == ["low-2", "low-3"]
    assert len(applied.events) == 2
