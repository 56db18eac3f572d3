"""Synthetic traffic: how a Service or an Ingress splits requests over pods and nodes, and what a
node going down does to it (tutorials 000, part 4, and 001, Ingress)."""

import json
from dataclasses import replace
from pathlib import Path

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Node, Pod
from scheduler_core.api.workloads import Ingress
from scheduler_core.controllers.registry import default_controllers
from scheduler_core.explain import traffic
from scheduler_core.explain.traffic import TrafficError, ingress_traffic, service_traffic, traffic_state
from scheduler_core.simulation.simulation import Simulation

DATA = Path(__file__).parents[1] / "data"


def simulate(name: str = "", text: str | None = None, seed: int = 0) -> Simulation:
    sim = Simulation(load_manifests(text if text is not None else (DATA / name).read_text()), seed=seed)
    sim.run_to_end()
    return sim


def node_of(sim: Simulation, pod: str) -> str:
    return sim.cluster.get(Pod, f"default/{pod}").spec.node_name


def node_goes_down(sim: Simulation, node: str) -> None:
    """What the node's kubelet stopping reporting does: the Node turns NotReady."""
    current = sim.cluster.get(Node, node)
    sim.cluster.update(replace(current, status=replace(current.status, ready=False)))


def pods_marked_not_ready(sim: Simulation, node: str) -> None:
    """What the node lifecycle controller then does to the node's pods (MarkPodsNotReady)."""
    for pod in sim.cluster.objects(Pod):
        if pod.spec.node_name == node:
            sim.cluster.update(replace(pod, status=replace(pod.status, ready=False)))


@pytest.fixture
def spread() -> Simulation:
    return simulate("svc_spread.yaml")


# ---------------------------------------------------------------------------- tutorial 000


def test_a_cluster_ip_splits_requests_evenly_over_the_spread_pods(spread):
    report = service_traffic(spread.cluster, "default", "nginx", requests=300, seed=7)
    assert report.via == "ClusterIP" and report.served == 300 and report.failed == {}
    assert sorted(report.pods) == ["nginx-a", "nginx-b", "nginx-c"]
    assert all(70 <= count <= 130 for count in report.pods.values())
    assert report.nodes == {node_of(spread, pod): count for pod, count in report.pods.items()}


def test_a_load_balancer_spreads_over_every_node_and_every_pod(spread):
    report = service_traffic(spread.cluster, "default", "nginx-lb", requests=300, seed=7)
    assert report.via == "LoadBalancer" and report.served == 300
    assert sorted(report.entry_nodes) == ["worker1", "worker2", "worker3"]
    assert sorted(report.pods) == ["nginx-a", "nginx-b", "nginx-c"]


def test_an_ingress_takes_the_pods_in_turn(spread):
    report = ingress_traffic(spread.cluster, path="/", requests=300, seed=7)
    assert report.pods == {"nginx-a": 100, "nginx-b": 100, "nginx-c": 100}  # nginx's round-robin
    assert report.backends == {"nginx": 300}


def test_every_node_address_of_a_node_port_reaches_all_three_pods(spread):
    report = service_traffic(spread.cluster, "default", "nginx-np", requests=300, seed=7)
    assert report.entry_nodes == {"worker1": 100, "worker2": 100, "worker3": 100}
    for node in ("worker1", "worker2", "worker3"):
        via_one = service_traffic(spread.cluster, "default", "nginx-np", requests=90, seed=7, node=node)
        assert via_one.entry_nodes == {node: 90} and sorted(via_one.pods) == ["nginx-a", "nginx-b", "nginx-c"]


def test_a_node_going_down(spread):
    down = node_of(spread, "nginx-b")
    lost = "nginx-b"
    node_goes_down(spread, down)
    # Until its pods are marked NotReady, kube-proxy still sends them their third: those time out.
    before = service_traffic(spread.cluster, "default", "nginx", requests=300, seed=7)
    assert set(before.failed) == {traffic.FAILED_ENDPOINT_UNREACHABLE}
    assert 70 <= before.failures <= 130 and lost not in before.pods
    # ingress-nginx retries a dead endpoint on the next one: no request fails, some are slower.
    through_ingress = ingress_traffic(spread.cluster, requests=300, seed=7)
    assert through_ingress.failed == {} and through_ingress.retried > 0
    assert lost not in through_ingress.pods and set(through_ingress.pods.values()) == {150}

    pods_marked_not_ready(spread, down)
    after = service_traffic(spread.cluster, "default", "nginx", requests=300, seed=7)
    assert after.failed == {} and sorted(after.pods) == sorted({"nginx-a", "nginx-b", "nginx-c"} - {lost})

    # NodePort: "the other two nodes still answer, but a client of the dead node's address must
    # switch to another address".
    node_port = service_traffic(spread.cluster, "default", "nginx-np", requests=300, seed=7)
    assert node_port.failed == {traffic.FAILED_NODE_DOWN: 100} and node_port.served == 200
    assert service_traffic(spread.cluster, "default", "nginx-np", requests=50, node=down).served == 0
    others = [n for n in ("worker1", "worker2", "worker3") if n != down]
    assert service_traffic(spread.cluster, "default", "nginx-np", requests=50, node=others[0]).served == 50
    # The load balancer's health checks take the dead node out: nothing is lost.
    balanced = service_traffic(spread.cluster, "default", "nginx-lb", requests=300, seed=7)
    assert balanced.failed == {} and down not in balanced.entry_nodes


def test_a_node_named_down_answers_nothing_while_the_api_still_calls_it_ready(spread):
    """A node-down action stops the machine at once; the API keeps it Ready through the grace
    period. Told which nodes are down, traffic is what a NotReady node gives, the store untouched."""
    down = node_of(spread, "nginx-b")
    told = service_traffic(spread.cluster, "default", "nginx", requests=300, seed=7, down={down})
    through_ingress = ingress_traffic(spread.cluster, requests=300, seed=7, down={down})
    node_port = service_traffic(spread.cluster, "default", "nginx-np", requests=300, seed=7, down={down})
    assert spread.cluster.get(Node, down).status.ready  # nothing written
    node_goes_down(spread, down)
    assert told.as_dict() == service_traffic(spread.cluster, "default", "nginx", requests=300, seed=7).as_dict()
    assert through_ingress.as_dict() == ingress_traffic(spread.cluster, requests=300, seed=7).as_dict()
    assert node_port.failed[traffic.FAILED_NODE_DOWN] == 100  # its own address answers nothing


def test_the_tutorials_deployment_is_spread_and_served_the_same_way():
    if "deployment" not in [factory.name for factory in default_controllers()]:
        pytest.skip("needs the Deployment and ReplicaSet controllers")
    sim = simulate("svc_spread_deployment.yaml")
    report = service_traffic(sim.cluster, "default", "nginx", requests=300)
    assert len(report.pods) == 3 and sorted(report.nodes) == ["worker1", "worker2", "worker3"]


def test_external_traffic_policy_local_keeps_requests_on_the_node_they_reach():
    text = (
        (DATA / "svc_spread.yaml")
        .read_text()
        .replace("  type: LoadBalancer\n", "  type: LoadBalancer\n  externalTrafficPolicy: Local\n")
    )
    text = text.replace("  type: NodePort\n", "  type: NodePort\n  externalTrafficPolicy: Local\n")
    sim = simulate(text=text)
    pods_marked_not_ready(sim, node_of(sim, "nginx-c"))  # a node without a ready pod
    empty = node_of(sim, "nginx-c")
    node_port = service_traffic(sim.cluster, "default", "nginx-np", requests=300)
    assert node_port.failed == {traffic.FAILED_NO_LOCAL_ENDPOINTS: 100}
    for node, count in node_port.nodes.items():
        assert node_port.entry_nodes[node] == count  # each node served only its own pod
    balanced = service_traffic(sim.cluster, "default", "nginx-lb", requests=300)
    assert balanced.failed == {} and empty not in balanced.entry_nodes and balanced.served == 300


def test_a_service_without_ready_endpoints_refuses_connections():
    text = (DATA / "svc_spread.yaml").read_text()
    text = text.replace(
        "metadata: {name: nginx}\nspec:\n  selector: {app: nginx}",
        "metadata: {name: nginx}\nspec:\n  selector: {app: none}",
    )
    sim = simulate(text=text)
    assert service_traffic(sim.cluster, "default", "nginx", requests=10).failed == {traffic.FAILED_NO_ENDPOINTS: 10}
    assert ingress_traffic(sim.cluster, requests=10).failed == {traffic.FAILED_SERVICE_UNAVAILABLE: 10}


def test_unknown_services_and_entry_points_are_refused(spread):
    with pytest.raises(TrafficError, match='services "nope" not found'):
        service_traffic(spread.cluster, "default", "nope")
    with pytest.raises(TrafficError, match="it has no NodePort"):
        service_traffic(spread.cluster, "default", "nginx", via="NodePort")


# ---------------------------------------------------------------------------- tutorial 001


def test_ingress_paths_send_each_path_to_its_own_service():
    sim = simulate("svc_ingress_paths.yaml")
    customer = ingress_traffic(sim.cluster, host="shop.example.com", path="/customer", requests=100)
    order = ingress_traffic(sim.cluster, host="shop.example.com", path="/order/42", requests=90)
    assert customer.backends == {"svc-customer": 100} and customer.pods == {"customer-1": 50, "customer-2": 50}
    assert order.backends == {"svc-order": 90} and order.pods == {"order-1": 30, "order-2": 30, "order-3": 30}


def test_prefix_paths_match_whole_path_elements_and_hosts_must_match():
    sim = simulate("svc_ingress_paths.yaml")
    assert ingress_traffic(sim.cluster, host="shop.example.com", path="/customers", requests=5).failed == {
        traffic.FAILED_NOT_FOUND: 5
    }
    assert ingress_traffic(sim.cluster, host="other.example.com", path="/customer", requests=5).failed == {
        traffic.FAILED_NOT_FOUND: 5
    }


def test_host_and_path_precedence():
    sim = simulate("svc_ingress_paths.yaml")
    ingresses = sim.cluster.objects(Ingress)
    assert traffic.route(ingresses, "SHOP.example.com", "/order").service == "svc-order"
    exact = (
        "---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: more}\nspec:\n  rules:\n"
        "  - host: '*.example.com'\n    http:\n      paths:\n"
        "      - {path: /order, pathType: Exact, backend: {service: {name: svc-customer, port: {number: 80}}}}\n"
        "  - http:\n      paths:\n"
        "      - {path: /, pathType: Prefix, backend: {service: {name: svc-order, port: {number: 80}}}}\n"
    )
    more = simulate(text=(DATA / "svc_ingress_paths.yaml").read_text() + exact).cluster.objects(Ingress)
    assert traffic.route(more, "shop.example.com", "/order").service == "svc-order"  # exact host wins
    assert traffic.route(more, "a.example.com", "/order").service == "svc-customer"  # wildcard
    assert traffic.route(more, "a.example.com", "/order/1") is None  # Exact only
    assert traffic.route(more, "a.b.example.com", "/x").service == "svc-order"  # wildcards cover one label
    assert traffic.route(more, "", "/anything").service == "svc-order"


def test_a_canary_ingress_takes_its_weight_of_the_traffic():
    sim = simulate("svc_ingress_canary.yaml")
    report = ingress_traffic(sim.cluster, host="app.example.com", path="/", requests=1000, seed=1)
    assert set(report.backends) == {"svc-v1", "svc-v2"} and 70 <= report.backends["svc-v2"] <= 130
    assert report.pods["app-v2-1"] == report.backends["svc-v2"]
    assert report.as_dict() == ingress_traffic(sim.cluster, host="app.example.com", requests=1000, seed=1).as_dict()


def test_an_ingress_report_names_the_route_namespace_and_its_canary_rule():
    sim = simulate("svc_ingress_canary.yaml")
    report = ingress_traffic(sim.cluster, host="app.example.com", requests=10, headers={"Language": "kr"})
    assert (report.host, report.path, report.headers, report.namespace) == (
        "app.example.com",
        "/",
        {"Language": "kr"},
        "default",
    )
    rule = report.canary
    assert rule is not None and rule.service == "svc-v2" and rule.header == "Language"
    assert (rule.weight, rule.weight_total) == (10, 100) and rule.header_value == "kr"
    missing = ingress_traffic(sim.cluster, host="nowhere.example.com", requests=5)
    assert missing.failed == {traffic.FAILED_NOT_FOUND: 5} and missing.namespace == "" and missing.canary is None


def test_a_canary_by_header_takes_every_request_with_the_header_value():
    sim = simulate("svc_ingress_canary.yaml")
    korean = ingress_traffic(sim.cluster, host="app.example.com", requests=200, headers={"Language": "kr"})
    assert korean.backends == {"svc-v2": 200}
    english = ingress_traffic(sim.cluster, host="app.example.com", requests=1000, headers={"language": "en"})
    assert 70 <= english.backends["svc-v2"] <= 130  # another value falls through to the weight


def test_always_and_never_header_values_without_a_header_value_annotation():
    text = (
        (DATA / "svc_ingress_canary.yaml")
        .read_text()
        .replace("    nginx.ingress.kubernetes.io/canary-by-header-value: kr\n", "")
    )
    sim = simulate(text=text)
    always = ingress_traffic(sim.cluster, host="app.example.com", requests=50, headers={"Language": "always"})
    never = ingress_traffic(sim.cluster, host="app.example.com", requests=50, headers={"Language": "never"})
    assert always.backends == {"svc-v2": 50} and never.backends == {"svc-v1": 50}


def test_weights_zero_and_hundred_and_a_primary_without_endpoints():
    base = (DATA / "svc_ingress_canary.yaml").read_text()
    for weight, expected in (("0", {"svc-v1": 100}), ("100", {"svc-v2": 100})):
        sim = simulate(text=base.replace('canary-weight: "10"', f'canary-weight: "{weight}"'))
        assert ingress_traffic(sim.cluster, host="app.example.com", requests=100).backends == expected
    no_v1 = simulate(text=base.replace("labels: {app: web, version: v1}}", "labels: {app: web, version: old}}"))
    assert ingress_traffic(no_v1.cluster, host="app.example.com", requests=100).backends == {"svc-v2": 100}


# ---------------------------------------------------------------------------- the web app's view


def test_traffic_state_covers_every_service_and_route_and_is_deterministic():
    sim = simulate("svc_ingress_canary.yaml", seed=4)
    rng_state = sim.rng.getstate()
    version = sim.cluster.resource_version
    state = traffic_state(sim.cluster, sim.seed)
    assert [s["target"] for s in state["services"]] == ["Service/default/svc-v1", "Service/default/svc-v2"]
    assert [(i["host"], i["path"], i.get("headers")) for i in state["ingresses"]] == [
        ("app.example.com", "/", None),
        ("app.example.com", "/", {"Language": "kr"}),
    ]
    assert state["ingresses"][1]["backends"] == {"svc-v2": 100}
    assert json.loads(json.dumps(state)) == traffic_state(sim.cluster, 4)
    assert sim.rng.getstate() == rng_state and sim.cluster.resource_version == version  # read-only
    assert traffic_state(sim.cluster, 5) != state  # another seed, another random split
