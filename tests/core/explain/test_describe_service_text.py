"""`kubectl describe service` as kubectl v1.34 prints it. The first cases are kubectl's own
(k8s.io/kubectl/pkg/describe/describe_test.go at kubernetes-1.34.5, TestDescribeService) on the
service's and its EndpointSlices' manifests; then a service of a scenario run, whose endpoints the
API does not serve. tests/web/kubeapi/test_describers_vs_kubectl.py compares with the real kubectl."""

from textwrap import dedent
from typing import Any

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.workloads import Service
from scheduler_core.explain.describe_service_text import describe_service, endpoints_text, service_text
from scheduler_core.simulation.simulation import Simulation


def bar(tcp_target: int | str = 9527, ingress: list[Any] | None = None, **spec: Any) -> dict[str, Any]:
    """kubectl's test service foo/bar: a LoadBalancer with one port, and these fields."""
    port = {"name": "port-tcp", "port": 8080, "protocol": "TCP", "targetPort": tcp_target, "nodePort": 31111}
    base = {
        "type": "LoadBalancer",
        "ports": [port],
        "selector": {"blah": "heh"},
        "clusterIP": "1.2.3.4",
        "ipFamilies": ["IPv4"],
        "loadBalancerIP": "5.6.7.8",
        "sessionAffinity": "None",
        "externalTrafficPolicy": "Local",
        "healthCheckNodePort": 32222,
    }
    status = {"loadBalancer": {"ingress": ingress}} if ingress else {}
    return {"metadata": {"name": "bar", "namespace": "foo"}, "spec": base | spec, "status": status}


def endpoint_slice(addresses: list[tuple[str, bool | None]], protocol: str = "TCP") -> dict[str, Any]:
    endpoints = [
        {"addresses": [address], **({} if ready is None else {"conditions": {"ready": ready}})}
        for address, ready in addresses
    ]
    return {"endpoints": endpoints, "ports": [{"name": "port-tcp", "port": 9527, "protocol": protocol}]}


def text(rest: str) -> str:
    lines = [
        "Name:                     bar",
        "Namespace:                foo",
        "Labels:                   <none>",
        "Annotations:              <none>",
        "Selector:                 blah=heh",
        "Type:                     LoadBalancer",
    ]
    return "\n".join(lines) + "\n" + dedent(rest).lstrip("\n")


def test_kubectls_load_balancer_with_a_vip_ingress_and_ready_endpoints() -> None:
    service = bar(ingress=[{"ip": "5.6.7.8", "ipMode": "VIP"}], internalTrafficPolicy="Cluster")
    slices = [endpoint_slice([("10.244.0.1", True), ("10.244.0.2", True), ("10.244.0.3", True)])]
    assert describe_service(service, slices, [], 0) == text(
        rest="""
        IP Families:              IPv4
        IP:                       1.2.3.4
        IPs:                      <none>
        Desired LoadBalancer IP:  5.6.7.8
        LoadBalancer Ingress:     5.6.7.8 (VIP)
        Port:                     port-tcp  8080/TCP
        TargetPort:               9527/TCP
        NodePort:                 port-tcp  31111/TCP
        Endpoints:                10.244.0.1:9527,10.244.0.2:9527,10.244.0.3:9527
        Session Affinity:         None
        External Traffic Policy:  Local
        Internal Traffic Policy:  Cluster
        HealthCheck NodePort:     32222
        Events:                   <none>
        """
    )


def test_kubectls_named_target_port_with_more_endpoints_than_shown() -> None:
    service = bar("targetPort", ingress=[{"ip": "5.6.7.8"}], internalTrafficPolicy="Local")
    slices = [
        endpoint_slice([("10.244.0.1", True), ("10.244.0.2", True)], "UDP"),
        endpoint_slice([("10.244.0.3", False), ("10.244.0.4", True), ("10.244.0.5", True)], "UDP"),
    ]
    assert describe_service(service, slices, [], 0) == text(
        rest="""
        IP Families:              IPv4
        IP:                       1.2.3.4
        IPs:                      <none>
        Desired LoadBalancer IP:  5.6.7.8
        LoadBalancer Ingress:     5.6.7.8
        Port:                     port-tcp  8080/TCP
        TargetPort:               targetPort/TCP
        NodePort:                 port-tcp  31111/TCP
        Endpoints:                10.244.0.1:9527,10.244.0.2:9527,10.244.0.4:9527 + 1 more...
        Session Affinity:         None
        External Traffic Policy:  Local
        Internal Traffic Policy:  Local
        HealthCheck NodePort:     32222
        Events:                   <none>
        """
    )


@pytest.mark.parametrize(
    ("spec", "slices", "lines"),
    [
        # test-ready-field-empty: no ready condition counts as ready
        (
            {"internalTrafficPolicy": "Cluster"},
            [endpoint_slice([("10.244.0.1", None)])],
            ["Endpoints:                10.244.0.1:9527\n", "Internal Traffic Policy:  Cluster\n"],
        ),
        # test-ServiceIPFamilyPolicy+ClusterIPs
        (
            {"ipFamilyPolicy": "SingleStack", "clusterIPs": ["1.2.3.4"]},
            [],
            [
                "IP Family Policy:         SingleStack\n",
                "IPs:                      1.2.3.4\n",
                "Endpoints:                <none>\n",
            ],
        ),
        # test-TrafficDistribution
        ({"trafficDistribution": "PreferClose"}, [], ["Traffic Distribution:     PreferClose\n"]),
    ],
    ids=["ready-field-empty", "ip-family-policy", "traffic-distribution"],
)
def test_kubectls_other_cases(spec: dict[str, Any], slices: list[Any], lines: list[str]) -> None:
    printed = describe_service(bar("targetPort", **spec), slices, [], 0)
    assert all(line in printed for line in lines), printed


def test_a_headless_services_slice_without_ports_lists_bare_addresses() -> None:
    slices = [{"endpoints": [{"addresses": ["10.0.0.1"]}, {"addresses": ["fd00::1"]}]}]
    assert endpoints_text(slices, "") == "10.0.0.1,fd00::1"
    slices = [{"endpoints": [{"addresses": ["fd00::1"]}], "ports": [{"name": "", "port": 80}]}]
    assert endpoints_text(slices, "") == "[fd00::1]:80"


SCENARIO = """\
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Service
metadata: {name: front, labels: {app: front, tier: web}, annotations: {team: web}}
spec:
  type: NodePort
  selector: {app: front}
  ports:
  - {name: http, port: 80, targetPort: http, nodePort: 30080}
  - {port: 9090, protocol: UDP}
"""


def test_a_scenarios_service_as_the_api_serves_it() -> None:
    simulation = Simulation(load_manifests(SCENARIO))
    for _ in simulation.stream():
        pass
    service = simulation.cluster.get(Service, "default/front")
    assert service is not None
    printed = service_text(simulation.cluster, service, simulation.now)
    assert printed == (
        "Name:                     front\n"
        "Namespace:                default\n"
        "Labels:                   app=front\n"
        "                          tier=web\n"
        "Annotations:              team: web\n"
        "Selector:                 app=front\n"
        "Type:                     NodePort\n"
        "IP Families:              <none>\n"
        "IP:                       \n"
        "IPs:                      <none>\n"
        "Port:                     http  80/TCP\n"
        "TargetPort:               http/TCP\n"
        "NodePort:                 http  30080/TCP\n"
        "Endpoints:                <none>\n"
        "Port:                     <unset>  9090/UDP\n"
        "TargetPort:               0/UDP\n"
        "Endpoints:                <none>\n"
        "Session Affinity:         None\n"
        "External Traffic Policy:  Cluster\n"
        "Events:                   <none>\n"
    )
