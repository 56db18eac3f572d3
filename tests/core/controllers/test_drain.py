"""kubectl drain through the eviction API: cordon, evict, retry on 429 every 5 s, never break a budget."""

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.pod_conditions import DISRUPTION_TARGET, EVICTION_BY_EVICTION_API, condition_of
from scheduler_core.api.types import Node, Pod, PodCondition, PodDisruptionBudget
from scheduler_core.controllers.drain import go_duration
from scheduler_core.controllers.eviction import MULTIPLE_BUDGETS, VIOLATES_BUDGET, evict
from scheduler_core.simulation.simulation import Simulation
from tests.core.controllers.node_health_helpers import DATA, NODE, events, find, pods_of, simulate

REFUSED = "(will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget."


def test_a_budget_holds_the_drain_back_until_replacements_elsewhere_are_ready():
    sim = simulate("drain_pdb_waits.yaml")
    killed = sorted((e.time, e.object) for e in find(sim, "Killing"))
    # One eviction at a time: the second waits for the first replacement's readiness (41 s + 20 s),
    # the third for the second's (66 s + 20 s); each on the next 5 s retry.
    assert [time for time, _ in killed] == [40.0, 65.0, 90.0]
    assert events(sim, "Node/worker1", "Drained") == [(120.0, "Drained", "node/worker1 drained")]
    assert {p.spec.node_name for p in pods_of(sim, "web")} == {"worker2"}
    drained = sim.cluster.get(Node, "worker1")
    assert drained.spec.unschedulable
    assert events(sim, "Node/worker1", "NodeNotSchedulable") == [
        (40.0, "NodeNotSchedulable", "Node worker1 status is now: NodeNotSchedulable")
    ]


def test_refusals_are_shown_as_kubectl_prints_them():
    sim = simulate("drain_pdb_waits.yaml")
    refusals = find(sim, "FailedEviction")
    assert refusals
    first = refusals[0]
    pod = first.object.split("/")[-1]
    assert (first.type, first.source, first.time) == ("Warning", "kubectl", 40.0)
    assert first.message == f'error when evicting pods/"{pod}" -n "default" {REFUSED}'
    # The pod evicted last was refused at every retry from 40 s to 85 s.
    final = max(find(sim, "Killing"), key=lambda e: e.time).object
    assert [e.time for e in refusals if e.object == final] == [40.0 + 5 * i for i in range(10)]


def test_the_drain_never_takes_the_budget_below_its_minimum():
    simulation = Simulation(load_manifests((DATA / "drain_pdb_waits.yaml").read_text()))
    lowest = None
    for event in simulation.run():
        if event.time < 21:  # replicas become ready at 21 s
            continue
        healthy = sum(
            1
            for pod in simulation.cluster.objects(Pod)
            if pod.labels.get("app") == "web" and pod.status.ready and pod.metadata.deletion_timestamp is None
        )
        lowest = healthy if lowest is None else min(lowest, healthy)
    assert lowest == 2


def test_a_drain_that_cannot_finish_gives_up_at_its_timeout():
    sim = simulate("drain_timeout.yaml")
    (db,) = pods_of(sim, "db")
    (failed,) = find(sim, "DrainFailed")
    assert (failed.time, failed.object, failed.type, failed.source) == (40.0, "Node/worker1", "Warning", "kubectl")
    assert failed.message == f'error: error when evicting pods/"{db.name}" -n "default": global timeout reached: 30s'
    assert db.spec.node_name == "worker1" and db.status.phase == "Running" and db.metadata.deletion_timestamp is None
    assert find(sim, "Drained") == []


def test_daemonset_pods_are_left_and_bare_pods_deleted_with_kubectls_warning():
    sim = simulate("drain_timeout.yaml")
    agents = {p.spec.node_name for p in pods_of(sim, "agent")}
    assert agents == {"worker1", "worker2"}
    (warning,) = find(sim, "DrainWarning")
    agent = next(p.name for p in pods_of(sim, "agent") if p.spec.node_name == "worker1")
    assert warning.message == (
        f"Warning: ignoring DaemonSet-managed Pods: default/{agent}; deleting Pods that declare no controller: "
        "default/bare"
    )
    assert sim.cluster.get(Pod, "default/bare") is None
    assert events(sim, "Pod/default/bare", "Killing") == [(10.0, "Killing", "Stopping container app")]


def test_seed_003_cordon_keeps_pods_running_and_drain_moves_them():
    sim = simulate("drain_cordon_then_drain.yaml", until=29)
    placement = sorted(p.spec.node_name for p in pods_of(sim, "web"))
    # Cordoned at 10 s: the two first pods stay on worker1, the third (20 s) lands on worker2.
    assert placement == ["worker1", "worker1", "worker2"]
    sim = simulate("drain_cordon_then_drain.yaml")
    assert sorted(p.spec.node_name for p in pods_of(sim, "web")) == ["worker2"] * 3
    # Without a budget every pod is evicted at once, and kubectl reports the node drained once they are gone.
    assert [e.time for e in find(sim, "Killing")] == [30.0, 30.0]
    assert events(sim, "Node/worker1", "Drained") == [(40.0, "Drained", "node/worker1 drained")]
    assert find(sim, "FailedEviction") == []


def test_a_grace_period_argument_overrides_the_pods_own():
    manifests = (
        NODE.format(name="worker1")
        + """---
apiVersion: v1
kind: Pod
metadata: {name: slow}
spec: {nodeName: worker1, terminationGracePeriodSeconds: 600, containers: [{name: app}]}
---
apiVersion: playground/v1
kind: Action
spec: {at: 10s, op: drain, target: Node/worker1, gracePeriodSeconds: 3}
"""
    )
    sim = simulate(manifests)
    assert events(sim, "Node/worker1", "Drained") == [(13.0, "Drained", "node/worker1 drained")]


def test_draining_a_missing_node_fails_visibly():
    manifests = NODE.format(name="worker1") + "---\napiVersion: playground/v1\nkind: Action\n"
    manifests += "spec: {at: 1s, op: drain, target: Node/ghost}\n"
    (event,) = find(simulate(manifests), "FailedAction")
    assert event.message == 'drain: nodes "ghost" not found'


def eviction_cluster(extra: str) -> Simulation:
    manifests = (
        NODE.format(name="worker1")
        + """---
apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web}}
spec: {nodeName: worker1, containers: [{name: app}]}
---
"""
        + extra
    )
    sim = Simulation(load_manifests(manifests))
    sim.run_to_end(5)
    return sim


def pdb(name: str, rule: str) -> str:
    return f"""
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {{name: {name}}}
spec: {{{rule}, selector: {{matchLabels: {{app: web}}}}}}
"""


def test_the_eviction_api_refuses_with_429_and_the_budgets_numbers():
    sim = eviction_cluster(pdb("keep", "minAvailable: 1"))
    result = evict(sim, "default", "web")
    assert (result.code, result.message) == (429, VIOLATES_BUDGET)
    assert result.cause == "The disruption budget keep needs 1 healthy pods and has 1 currently"
    assert sim.cluster.get(Pod, "default/web").metadata.deletion_timestamp is None


def test_the_eviction_api_spends_the_budget_and_notes_the_pod():
    sim = eviction_cluster(pdb("spare", "minAvailable: 0"))
    assert evict(sim, "default", "web").ok
    status = sim.cluster.get(PodDisruptionBudget, "default/spare").status
    assert status.disruptions_allowed == 0
    assert status.disrupted_pods == {"web": sim.now}
    assert sim.cluster.get(Pod, "default/web").metadata.deletion_timestamp == sim.now


def test_the_eviction_api_with_two_budgets_or_none():
    sim = eviction_cluster(pdb("a", "minAvailable: 0") + "---" + pdb("b", "minAvailable: 0"))
    result = evict(sim, "default", "web")
    assert (result.code, result.message) == (500, MULTIPLE_BUDGETS)
    sim = eviction_cluster("")
    assert evict(sim, "default", "web").ok
    assert evict(sim, "default", "nothing").code == 404


def test_go_durations():
    assert [go_duration(s) for s in (30, 60, 90, 3600, 5400, 0.5, 0)] == [
        "30s",
        "1m0s",
        "1m30s",
        "1h0m0s",
        "1h30m0s",
        "500ms",
        "0s",
    ]


# ---------------------------------------------------------------------------- a retry is work left


def test_a_drain_waiting_for_a_budget_goes_on_after_the_last_other_change():
    """Issue #16, item 3: the replacement turns Ready at 41 s and nothing else is due but the drain's
    retry; the run goes on to it, evicts the last pod and finishes the drain."""
    for until in (None, 600.0):
        sim = simulate("drain_pdb_waits_past_the_last_change.yaml", until=until)
        refused = [e.time for e in find(sim, "FailedEviction")]
        assert refused == [30.0, 35.0, 40.0]
        assert [e.time for e in find(sim, "Killing")] == [30.0, 45.0]
        assert events(sim, "Node/worker1", "Drained") == [(50.0, "Drained", "node/worker1 drained")]
        assert {pod.spec.node_name for pod in pods_of(sim, "web")} == {"worker2"}


def test_a_drain_no_change_can_satisfy_still_lets_the_run_end():
    """minAvailable 3 of 3: no eviction is ever allowed and nothing else changes; the retries are
    idle, so the run ends with the drain pending, as before (kubectl would wait forever)."""
    story = (DATA / "drain_pdb_waits_past_the_last_change.yaml").read_text()
    text = story.replace("minAvailable: 2", "minAvailable: 3")
    sim = simulate(text)
    assert not find(sim, "Drained") and not find(sim, "Killing")
    assert sim.now == 30.0
    assert {pod.spec.node_name for pod in pods_of(sim, "web")} >= {"worker1"}


def test_an_evicted_pod_terminates_as_a_target_of_the_eviction_api():
    """addConditionAndDeletePod: DisruptionTarget=True (EvictionByEvictionAPI) before the deletion."""
    sim = simulate("drain_pdb_waits.yaml")
    first = find(sim, "Killing")[0]
    cluster = Simulation(load_manifests((DATA / "drain_pdb_waits.yaml").read_text())).cluster_at_event(first.seq)
    evicted = cluster.get(Pod, first.object.removeprefix("Pod/"))
    assert evicted.metadata.deletion_timestamp == 40.0
    assert condition_of(evicted.status, DISRUPTION_TARGET) == PodCondition(
        DISRUPTION_TARGET, "True", EVICTION_BY_EVICTION_API, "Eviction API: evicting", 40.0
    )
