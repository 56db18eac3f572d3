"""The gallery scenarios show what their descriptions say (checked on the engine's simulation)."""

from collections import Counter

import pytest

from playground.management.commands.load_gallery import GALLERY_DIR, split_gallery_file
from playground.scenarios import export_document
from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Node, Pod
from scheduler_core.simulation.simulation import Simulation

pytestmark = pytest.mark.django_db


def simulate_gallery(name: str) -> Simulation:
    from playground.scenarios import create_scenario

    header, nodes, workload = split_gallery_file((GALLERY_DIR / f"{name}.yaml").read_text())
    scenario, _ = create_scenario(header["title"], nodes=nodes, workload_yaml=workload)
    simulation = Simulation(load_manifests(export_document(scenario)))
    simulation.run_to_end(until=600)
    return simulation


def test_topology_spread_puts_three_pods_in_each_zone_and_at_most_two_on_a_node():
    simulation = simulate_gallery("045-topology-spread")
    pods = [pod for pod in simulation.cluster.objects(Pod) if pod.labels.get("app") == "nginx"]
    assert len(pods) == 6 and all(pod.spec.node_name for pod in pods)
    per_node = Counter(pod.spec.node_name for pod in pods)
    per_zone = Counter(name.rsplit("-", 1)[0] for name in per_node.elements())
    assert per_zone == {"node-a": 3, "node-b": 3}
    assert max(per_node.values()) - min(per_node.values()) <= 1


def test_node_affinity_example_lands_on_worker2():
    simulation = simulate_gallery("010-node-affinity")
    assert simulation.cluster.get(Pod, "default/nginx-node-affinity-test").spec.node_name == "worker2"


def test_gpu_example_keeps_ordinary_pods_off_the_tainted_node():
    simulation = simulate_gallery("020-gpu-taints")
    assert simulation.cluster.get(Pod, "default/web").spec.node_name != "worker3"
    assert simulation.cluster.get(Pod, "default/pytorch2").spec.node_name == "worker3"


def test_canary_deployments_end_with_half_the_ingress_traffic_on_two_canary_pods():
    from scheduler_core.explain.traffic import ingress_traffic

    simulation = simulate_gallery("185-canary-deployments")
    canary = [pod for pod in simulation.cluster.objects(Pod) if pod.labels.get("version") == "v2"]
    assert len(canary) == 2 and all(pod.status.ready for pod in canary)
    report = ingress_traffic(simulation.cluster, host="app.example.com", requests=1000)
    assert 400 <= report.backends["shop-canary"] <= 600 and report.failed == {}  # canary-weight 50
    always = ingress_traffic(simulation.cluster, host="app.example.com", headers={"X-Canary": "always"})
    assert always.backends == {"shop-canary": 100}


def test_load_balancer_node_down_ends_with_worker1_back_and_every_request_served():
    from scheduler_core.explain.traffic import service_traffic

    simulation = simulate_gallery("105-load-balancer-node-down")
    assert simulation.cluster.get(Node, "worker1").status.ready
    for service in ("web-lb", "web-np"):
        report = service_traffic(simulation.cluster, "default", service, requests=300)
        assert report.failed == {} and sorted(report.nodes) == ["worker1", "worker2", "worker3"]


def test_blue_green_ends_with_the_service_on_green_only():
    from scheduler_core.explain.traffic import service_traffic

    simulation = simulate_gallery("070-blue-green")
    report = service_traffic(simulation.cluster, "default", "web", requests=300)
    assert report.served == 300 and all(pod.startswith("web-green-") for pod in report.pods)


def test_a_pod_pinned_with_node_name_fails_with_out_of_cpu_and_the_scheduled_one_waits():
    simulation = simulate_gallery("035-nodename-outofcpu")
    pinned = simulation.cluster.get(Pod, "default/nginx-pinned")
    scheduled = simulation.cluster.get(Pod, "default/nginx-scheduled")
    assert (pinned.status.phase, pinned.status.reason) == ("Failed", "OutOfcpu")
    assert (scheduled.status.phase, scheduled.spec.node_name) == ("Pending", "")
    reasons = {(event.object, event.reason) for event in simulation.cluster.events}
    assert {("Pod/default/nginx-pinned", "OutOfcpu"), ("Pod/default/nginx-scheduled", "FailedScheduling")} <= reasons


def test_the_drain_waits_for_its_budget_and_finishes():
    simulation = simulate_gallery("081-drain-waits-then-finishes")
    drained = [(event.time, event.message) for event in simulation.cluster.events if event.reason == "Drained"]
    assert drained == [(50.0, "node/worker1 drained")]
    web = [pod for pod in simulation.cluster.objects(Pod) if pod.labels.get("app") == "web"]
    assert len(web) == 3 and {pod.spec.node_name for pod in web} == {"worker2"}


def test_the_deployment_over_its_quota_carries_replica_failure_and_has_no_pod():
    from scheduler_core.api.conditions import REPLICA_FAILURE, condition_of_type
    from scheduler_core.api.workloads import Deployment, ReplicaSet

    simulation = simulate_gallery("122-quota-deployment")
    (replica_set,) = simulation.cluster.objects(ReplicaSet)
    deployment = simulation.cluster.get(Deployment, "default/deployment-over-quota")
    for status in (replica_set.status, deployment.status):
        failure = condition_of_type(status.conditions, REPLICA_FAILURE)
        assert failure is not None and (failure.status, failure.reason) == ("True", "FailedCreate")
    assert simulation.cluster.objects(Pod) == []
