"""`kubectl describe poddisruptionbudget` as kubectl v1.34 prints it: kubectl's own case
(describe_test.go at kubernetes-1.34.5, TestDescribePodDisruptionBudgetV1), the other spec forms,
then a budget of a scenario run with its events. tests/web/kubeapi/test_describers_vs_kubectl.py
compares with the real kubectl."""

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import PodDisruptionBudget
from scheduler_core.explain.describe_pod_disruption_budget_text import (
    describe_pod_disruption_budget,
    pod_disruption_budget_text,
)
from scheduler_core.simulation.simulation import Simulation


def test_kubectls_budget_by_min_available() -> None:
    pdb = {
        "metadata": {"name": "pdb1", "namespace": "ns1"},
        "spec": {"minAvailable": 22},
        "status": {"disruptionsAllowed": 5},
    }
    assert describe_pod_disruption_budget(pdb, [], 0) == (
        "Name:           pdb1\n"
        "Namespace:      ns1\n"
        "Min available:  22\n"
        "Selector:       <unset>\n"
        "Status:\n"
        "    Allowed disruptions:  5\n"
        "    Current:              0\n"
        "    Desired:              0\n"
        "    Total:                0\n"
        "Events:                   <none>\n"
    )


def test_max_unavailable_and_an_empty_selector() -> None:
    pdb = {"metadata": {"name": "p", "namespace": "n"}, "spec": {"maxUnavailable": "25%", "selector": {}}}
    printed = describe_pod_disruption_budget(pdb, [], 0)
    assert "Max unavailable:  25%\nSelector:         <none>\n" in printed


SCENARIO = """\
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: nginx, image: nginx}]}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web-pdb}
spec:
  minAvailable: 2
  selector: {matchExpressions: [{key: app, operator: In, values: [web, api]}]}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: lonely}
spec:
  maxUnavailable: 1
  selector: {matchLabels: {app: nothing}}
"""


def settled() -> Simulation:
    simulation = Simulation(load_manifests(SCENARIO))
    for _ in simulation.stream():
        pass
    return simulation


def test_a_scenarios_budget_with_its_healthy_pods() -> None:
    simulation = settled()
    pdb = simulation.cluster.get(PodDisruptionBudget, "default/web-pdb")
    assert pdb is not None
    assert pod_disruption_budget_text(simulation.cluster, pdb, simulation.now) == (
        "Name:           web-pdb\n"
        "Namespace:      default\n"
        "Min available:  2\n"
        "Selector:       app in (api,web)\n"
        "Status:\n"
        "    Allowed disruptions:  1\n"
        "    Current:              3\n"
        "    Desired:              2\n"
        "    Total:                3\n"
        "Events:                   <none>\n"
    )


def test_a_budget_over_no_pods_shows_the_controllers_events() -> None:
    simulation = settled()
    pdb = simulation.cluster.get(PodDisruptionBudget, "default/lonely")
    assert pdb is not None
    printed = pod_disruption_budget_text(simulation.cluster, pdb, simulation.now)
    assert printed == (
        "Name:             lonely\n"
        "Namespace:        default\n"
        "Max unavailable:  1\n"
        "Selector:         app=nothing\n"
        "Status:\n"
        "    Allowed disruptions:  0\n"
        "    Current:              0\n"
        "    Desired:              0\n"
        "    Total:                0\n"
        "Events:\n"
        "  Type    Reason  Age   From               Message\n"
        "  ----    ------  ----  ----               -------\n"
        "  Normal  NoPods  1s    controllermanager  No matching pods found\n"
    )
