"""The disruption controller: PodDisruptionBudget status from the pods and their controllers."""

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import LabelSelector, LabelSelectorRequirement, PodDisruptionBudget
from scheduler_core.controllers.disruption import scaled, selector_text
from scheduler_core.simulation.simulation import Simulation
from tests.core.controllers.node_health_helpers import DATA, NODE, events, find, simulate


def deployment(name: str, replicas: int, probe: str = "") -> str:
    return f"""
apiVersion: apps/v1
kind: Deployment
metadata: {{name: {name}}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}}}}}
    spec:
      containers: [{{name: app, image: app{probe}}}]
"""


def budget(rule: str, app: str = "web", name: str = "web-pdb") -> str:
    return f"""
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {{name: {name}}}
spec:
  {rule}
  selector: {{matchLabels: {{app: {app}}}}}
"""


def status(sim, name: str = "web-pdb") -> tuple[int, int, int, int]:
    s = sim.cluster.get(PodDisruptionBudget, f"default/{name}").status
    return s.expected_pods, s.desired_healthy, s.current_healthy, s.disruptions_allowed


def scenario(*documents: str) -> str:
    return "\n---\n".join([NODE.format(name="worker1"), *documents])


def test_an_integer_min_available_counts_the_matching_pods():
    sim = simulate(scenario(deployment("web", 3), budget("minAvailable: 2")), until=5)
    assert status(sim) == (3, 2, 3, 1)


def test_pods_count_as_healthy_only_once_ready():
    probe = ", readinessProbe: {initialDelaySeconds: 20}"
    sim = simulate(scenario(deployment("web", 3, probe), budget("minAvailable: 2")), until=10)
    assert status(sim) == (3, 2, 0, 0)
    sim = simulate(scenario(deployment("web", 3, probe), budget("minAvailable: 2")), until=30)
    assert status(sim) == (3, 2, 3, 1)


def test_percentages_are_taken_of_the_deployments_scale_rounding_up():
    sim = simulate(scenario(deployment("web", 3), budget('minAvailable: "50%"')), until=5)
    assert status(sim) == (3, 2, 3, 1)
    sim = simulate(scenario(deployment("web", 3), budget('maxUnavailable: "50%"')), until=5)
    assert status(sim) == (3, 1, 3, 2)
    sim = simulate(scenario(deployment("web", 4), budget("maxUnavailable: 1")), until=5)
    assert status(sim) == (4, 3, 4, 1)


def test_the_expected_count_is_the_scale_even_before_the_pods_exist():
    # Scaled to 5 at 40 s: until the new pods are ready, the budget sees 5 expected and 3 healthy.
    manifests = scenario(
        deployment("web", 3, ", readinessProbe: {initialDelaySeconds: 30}"),
        budget('minAvailable: "60%"'),
        "apiVersion: playground/v1\nkind: Action\nspec: {at: 40s, op: scale, target: Deployment/web, replicas: 5}\n",
    )
    sim = simulate(manifests, until=50)
    assert status(sim) == (5, 3, 3, 0)


def test_a_budget_without_pods_says_so_once():
    sim = simulate(scenario(budget("minAvailable: 1")), until=5)
    assert events(sim, "PodDisruptionBudget/default/web-pdb", "NoPods") == [(0.0, "NoPods", "No matching pods found")]
    assert status(sim) == (0, 1, 0, 0)


def test_unmanaged_pods_with_a_percentage_are_reported_and_allow_nothing():
    bare = "apiVersion: v1\nkind: Pod\nmetadata: {name: lone, labels: {app: web}}\nspec: {containers: [{name: app}]}\n"
    sim = simulate(scenario(bare, budget('maxUnavailable: "50%"')), until=5)
    ((_, _, message),) = events(sim, "PodDisruptionBudget/default/web-pdb", "UnmanagedPods")
    assert message == (
        "Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{app: web,},"
        "MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged. As a result, the status of the "
        "PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please "
        'set ".spec.minAvailable" field of the PDB to an integer value.'
    )
    assert status(sim) == (0, 0, 1, 0)
    # An integer minAvailable counts bare pods fine.
    sim = simulate(scenario(bare, budget("minAvailable: 0")), until=5)
    assert status(sim) == (1, 0, 1, 1)


def test_a_percentage_over_daemonset_pods_cannot_be_computed_and_fails_safe():
    daemonset = """
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template: {metadata: {labels: {app: agent}}, spec: {containers: [{name: agent}]}}
"""
    sim = simulate(scenario(daemonset, budget('minAvailable: "50%"', app="agent")), until=5)
    assert events(sim, "PodDisruptionBudget/default/web-pdb", "CalculateExpectedPodCountFailed") == [
        (
            0.0,
            "CalculateExpectedPodCountFailed",
            "Failed to calculate the number of expected pods: daemonsets.apps does not implement the scale subresource",
        )
    ]
    assert status(sim)[3] == 0
    assert allowed_condition(sim) == (
        "False",
        "SyncFailed",
        "daemonsets.apps does not implement the scale subresource",
        0.0,
    )


def allowed_condition(sim, name: str = "web-pdb") -> tuple:
    (condition,) = sim.cluster.get(PodDisruptionBudget, f"default/{name}").status.conditions
    assert condition.type == "DisruptionAllowed"
    return condition.status, condition.reason, condition.message, condition.last_transition_time


def test_disruption_allowed_follows_the_budget_and_the_evictions_that_spend_it():
    """UpdateDisruptionAllowedCondition: True (SufficientPods) while a disruption is allowed,
    False (InsufficientPods) once none is: not ready yet, then spent by the drain's eviction at
    40 s, then True again when the replacement is ready."""
    probe = ", readinessProbe: {initialDelaySeconds: 20}"
    sim = simulate(scenario(deployment("web", 3, probe), budget("minAvailable: 2")), until=10)
    assert allowed_condition(sim) == ("False", "InsufficientPods", "", 0.0)
    sim = simulate(scenario(deployment("web", 3, probe), budget("minAvailable: 2")), until=30)
    assert allowed_condition(sim) == ("True", "SufficientPods", "", 21.0)
    drained = simulate("drain_pdb_waits.yaml")
    first_eviction = find(drained, "Killing")[0]
    at_eviction = Simulation(load_manifests((DATA / "drain_pdb_waits.yaml").read_text())).cluster_at_event(
        first_eviction.seq
    )
    (spent,) = at_eviction.get(PodDisruptionBudget, "default/web-pdb").status.conditions
    assert (spent.status, spent.reason, spent.last_transition_time) == ("False", "InsufficientPods", 40.0)
    assert allowed_condition(drained)[:2] == ("True", "SufficientPods")


def test_a_pod_two_budgets_select_gets_a_warning():
    sim = simulate(
        scenario(deployment("web", 1), budget("minAvailable: 1", name="a"), budget("minAvailable: 1", name="b")),
        until=5,
    )
    (event,) = find(sim, "MultiplePodDisruptionBudgets")
    pod = event.object.split("/")[-1]
    assert event.message == f'Pod "default"/"{pod}" matches multiple PodDisruptionBudgets.  Chose "a" arbitrarily.'


def test_an_eviction_recorded_in_disrupted_pods_is_dropped_once_the_pod_is_deleted():
    sim = simulate("drain_pdb_waits.yaml", until=41)
    pdb = sim.cluster.get(PodDisruptionBudget, "default/web-pdb")
    assert pdb.status.disrupted_pods == {}
    assert (pdb.status.current_healthy, pdb.status.disruptions_allowed) == (2, 0)


def test_helpers():
    assert scaled("50%", 3) == 2
    assert scaled("34%", 3) == 2
    assert scaled(4, 10) == 4
    selector = LabelSelector({"app": "web"}, (LabelSelectorRequirement("tier", "In", ("a", "b")),))
    assert selector_text(selector) == (
        "&LabelSelector{MatchLabels:map[string]string{app: web,},MatchExpressions:[]LabelSelectorRequirement"
        "{LabelSelectorRequirement{Key:tier,Operator:In,Values:[a b],},},}"
    )
