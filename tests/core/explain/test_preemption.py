"""The explanation's preemption report: the real Evaluator's candidates, victims and deciding
criterion for a pod that does not fit, or the reason preemption could not help."""

from dataclasses import dataclass

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.explain.explain import explain
from scheduler_core.explain.preemption import CHOSEN, NOT_HELPFUL, RULED_OUT
from scheduler_core.scheduler.preemption import (
    FEWEST_PDB_VIOLATIONS,
    FEWEST_VICTIMS,
    FIRST_IN_ORDER,
    LATEST_START_TIME,
    LOWEST_HIGHEST_VICTIM_PRIORITY,
    ONLY_CANDIDATE,
    SMALLEST_PRIORITY_SUM,
)

CLASSES = """
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: urgent}
value: 1000
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: mid}
value: 100
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: 10
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: lowest}
value: -2147483648
"""


def node(name: str, cpu: str = "4", taint: str = "") -> str:
    taints = f"spec: {{taints: [{{key: {taint}, effect: NoSchedule}}]}}\n" if taint else ""
    return (
        f"apiVersion: v1\nkind: Node\nmetadata: {{name: {name}}}\n{taints}"
        f'status: {{capacity: {{cpu: "{cpu}", memory: 32Gi, pods: "110"}}}}\n'
    )


def pod(name: str, cpu: str, *, on: str = "", priority: str = "", start: str = "", app: str = "") -> str:
    lines = [f"apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}{f', labels: {{app: {app}}}' if app else ''}}}"]
    spec = [f"containers: [{{name: c, image: pause, resources: {{requests: {{cpu: {cpu}}}}}}}]"]
    if on:
        spec.append(f"nodeName: {on}")
    if priority:
        spec.append(f"priorityClassName: {priority}")
    lines.append("spec: {" + ", ".join(spec) + "}")
    if start:
        lines.append(f'status: {{startTime: "2026-01-01T00:{start}:00Z"}}')
    return "\n".join(lines) + "\n"


def budget(app: str, allowed: int) -> str:
    return (
        f"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {{name: {app}-pdb}}\n"
        f"spec: {{minAvailable: 1, selector: {{matchLabels: {{app: {app}}}}}}}\n"
        f"status: {{disruptionsAllowed: {allowed}}}\n"
    )


def explained(*documents: str, preemptor: str = "default/preemptor"):
    return explain(load_manifests("---\n".join([CLASSES, *documents])), preemptor, fixes=False)


@dataclass(frozen=True)
class Case:
    documents: tuple[str, ...]
    chosen: str
    criterion: str


CRITERIA = [
    pytest.param(
        Case(
            (
                node("n1"),
                node("n2"),
                pod("guarded", "3", on="n1", priority="low", app="guarded"),
                pod("free", "3", on="n2", priority="low", app="free"),
                budget("guarded", 0),
                pod("preemptor", "2", priority="urgent"),
            ),
            "n2",
            FEWEST_PDB_VIOLATIONS,
        ),
        id="a node whose victims a PodDisruptionBudget protects loses to one where none does",
    ),
    pytest.param(
        Case(
            (
                node("n1"),
                node("n2"),
                pod("mid-1", "3", on="n1", priority="mid"),
                pod("low-2", "3", on="n2", priority="low"),
                pod("preemptor", "2", priority="urgent"),
            ),
            "n2",
            LOWEST_HIGHEST_VICTIM_PRIORITY,
        ),
        id="the node whose most important victim has the lower priority wins",
    ),
    pytest.param(
        Case(
            (
                node("n1"),
                node("n2"),
                pod("mid-1", "2", on="n1", priority="mid"),
                pod("low-1", "2", on="n1", priority="low"),
                pod("mid-2", "2", on="n2", priority="mid"),
                pod("mid-2b", "2", on="n2", priority="mid"),
                pod("preemptor", "4", priority="urgent"),
            ),
            "n1",
            SMALLEST_PRIORITY_SUM,
        ),
        id="with the same most important victim the smaller sum of victim priorities wins",
    ),
    pytest.param(
        Case(
            (
                node("n1"),
                node("n2"),
                pod("mid-1", "4", on="n1", priority="mid"),
                pod("mid-2", "2", on="n2", priority="mid"),
                # Shifted by 2^31 this priority adds 0: both nodes' sums are equal.
                pod("lowest-2", "2", on="n2", priority="lowest"),
                pod("preemptor", "4", priority="urgent"),
            ),
            "n1",
            FEWEST_VICTIMS,
        ),
        id="with equal shifted sums the node with fewer victims wins",
    ),
    pytest.param(
        Case(
            (
                node("n1"),
                node("n2"),
                pod("older", "3", on="n1", priority="low", start="00"),
                pod("younger", "3", on="n2", priority="low", start="05"),
                pod("preemptor", "2", priority="urgent"),
            ),
            "n2",
            LATEST_START_TIME,
        ),
        id="with everything else equal the node whose victims started last wins",
    ),
    pytest.param(
        Case(
            (
                node("n1", taint="dedicated"),
                node("n2"),
                pod("low-1", "3", on="n1", priority="low"),
                pod("low-2", "3", on="n2", priority="low"),
                pod("preemptor", "2", priority="urgent"),
            ),
            "n2",
            ONLY_CANDIDATE,
        ),
        id="a single candidate is chosen without any tie-break",
    ),
]


@pytest.mark.parametrize("case", CRITERIA)
def test_the_report_names_the_criterion_that_chose_the_node(case: Case) -> None:
    report = explained(*case.documents).preemption
    assert report is not None and report.eligible
    assert (report.chosen, report.criterion) == (case.chosen, case.criterion)
    assert report.message == ""
    chosen = report.chosen_node
    assert chosen is not None and chosen.outcome == CHOSEN and chosen.victims


def test_complete_ties_fall_to_the_first_candidate_in_dry_run_order() -> None:
    report = explained(
        node("n1"),
        node("n2"),
        pod("low-1", "3", on="n1", priority="low", start="00"),
        pod("low-2", "3", on="n2", priority="low", start="00"),
        pod("preemptor", "2", priority="urgent"),
    ).preemption
    assert report is not None
    assert report.criterion == FIRST_IN_ORDER
    assert {node.name for node in report.candidates} == {"n1", "n2"}


def test_victims_are_listed_lowest_priority_first_and_more_important_pods_are_reprieved() -> None:
    report = explained(
        node("n1"),
        pod("keep", "1", on="n1", priority="mid", start="00"),
        pod("mid-young", "1", on="n1", priority="mid", start="09"),
        pod("low-old", "1", on="n1", priority="low", start="01"),
        pod("low-young", "1", on="n1", priority="low", start="08"),
        pod("preemptor", "3", priority="urgent"),
    ).preemption
    assert report is not None and report.chosen == "n1"
    (chosen,) = report.candidates
    # Three must go; the oldest mid-priority pod is added back first and still lets the pod fit.
    assert [victim.pod for victim in chosen.victims] == ["default/low-young", "default/low-old", "default/mid-young"]
    assert [victim.priority for victim in chosen.victims] == [10, 10, 100]
    assert chosen.victims[0].started == "2026-01-01T00:08:00Z"
    assert report.as_dict()["nodes"][0]["pdbViolations"] == 0


def test_a_candidate_that_violates_a_budget_counts_its_violations() -> None:
    report = explained(
        node("n1"),
        pod("guarded", "3", on="n1", priority="low", app="guarded"),
        budget("guarded", 0),
        pod("preemptor", "2", priority="urgent"),
    ).preemption
    assert report is not None and report.chosen == "n1"
    assert report.candidates[0].pdb_violations == 1


def test_when_no_node_has_lower_priority_pods_it_gives_upstreams_message_and_each_nodes_reason() -> None:
    explanation = explained(
        node("n1"),
        node("n2"),
        node("n3", taint="dedicated"),
        pod("peer-1", "3", on="n1", priority="urgent"),
        pod("peer-2", "3", on="n2", priority="urgent"),
        pod("preemptor", "2", priority="urgent"),
    )
    report = explanation.preemption
    assert report is not None and report.eligible and report.chosen is None
    # Upstream sorts the "count reason" strings, so 1 comes before 2.
    assert report.message == (
        "preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, "
        "2 No preemption victims found for incoming pod."
    )
    assert report.message in explanation.message  # the FailedScheduling text carries it too
    outcomes = {node.name: (node.outcome, node.reasons) for node in report.nodes}
    assert outcomes == {
        "n1": (RULED_OUT, ["No preemption victims found for incoming pod"]),
        "n2": (RULED_OUT, ["No preemption victims found for incoming pod"]),
        "n3": (NOT_HELPFUL, ["Preemption is not helpful for scheduling"]),
    }


def test_a_pod_with_preemption_policy_never_is_not_eligible() -> None:
    never = pod("preemptor", "2", priority="urgent").replace("spec: {", "spec: {preemptionPolicy: Never, ", 1)
    report = explained(node("n1"), pod("low-1", "3", on="n1", priority="low"), never).preemption
    assert report is not None and not report.eligible
    assert report.message == "preemption: not eligible due to preemptionPolicy=Never."
    assert report.nodes == []


def test_a_pod_that_fits_has_no_preemption_report() -> None:
    assert explained(node("n1"), pod("preemptor", "1", priority="urgent")).preemption is None


def test_explaining_changes_nothing_the_dry_run_evicts_no_one() -> None:
    documents = (
        node("n1"),
        pod("low-1", "3", on="n1", priority="low"),
        pod("preemptor", "2", priority="urgent"),
    )
    first = explained(*documents)
    assert first.preemption is not None and first.preemption.chosen == "n1"
    # Still bound and reported as the victim on a second look: nothing was evicted.
    assert explained(*documents).as_dict() == first.as_dict()
    assert first.as_dict()["preemption"]["nodes"][0]["victims"][0]["pod"] == "default/low-1"


VICTIM_STILL_TERMINATING = """
apiVersion: v1
kind: Node
metadata: {name: node-1}
status: {capacity: {cpu: "4", memory: 32Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: low, deletionTimestamp: "2024-01-01T00:00:00Z"}
spec: {nodeName: node-1, containers: [{name: c, image: pause, resources: {requests: {cpu: "3"}}}]}
status:
  phase: Running
  conditions:
  - {type: DisruptionTarget, status: "True", reason: %s, message: "m"}
---
apiVersion: v1
kind: Pod
metadata: {name: urgent}
spec: {priority: 1000, containers: [{name: c, image: pause, resources: {requests: {cpu: "3"}}}]}
status: {nominatedNodeName: node-1}
"""


def test_a_pasted_victim_still_terminating_makes_the_nominated_pod_wait():
    """podEligibleToPreemptOthers reads the victim's DisruptionTarget condition as pasted: a
    preemption victim blocks a second preemption; a pod evicted for another reason does not."""
    waiting = explain(load_manifests(VICTIM_STILL_TERMINATING % "PreemptionByScheduler"), "default/urgent").preemption
    assert (waiting.eligible, waiting.message) == (
        False,
        "preemption: not eligible due to a terminating pod on the nominated node.",
    )
    evicted = explain(load_manifests(VICTIM_STILL_TERMINATING % "EvictionByEvictionAPI"), "default/urgent").preemption
    assert evicted.eligible
