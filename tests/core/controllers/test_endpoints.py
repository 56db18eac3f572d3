"""Service endpoints, as the EndpointSlice controller publishes them: which pods a Service sends to."""

import json
from dataclasses import replace
from pathlib import Path

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Node
from scheduler_core.cli import main
from scheduler_core.controllers.endpoints import Endpoint, service_endpoints
from scheduler_core.simulation.simulation import Simulation

DATA = Path(__file__).parent.parent / "data"

NODE = """apiVersion: v1
kind: Node
metadata: {name: worker1, labels: {kubernetes.io/hostname: worker1}}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
"""
SERVICE = """---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, ports: [{port: 80}]}
"""


def pod(name: str, extra: str = "", labels: str = "{app: web}", namespace: str = "default") -> str:
    return (
        f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: {namespace}, labels: {labels}}}\n"
        f"spec: {{containers: [{{name: app, image: app{extra}}}]}}\n"
    )


def action(spec: str) -> str:
    return f"---\napiVersion: playground/v1\nkind: Action\nspec: {{{spec}}}\n"


def simulate(text: str, until: float | None = None) -> Simulation:
    sim = Simulation(load_manifests(text))
    sim.run_to_end(until)
    return sim


def endpoints(sim: Simulation, name: str = "web") -> tuple[Endpoint, ...]:
    computed = service_endpoints(sim.cluster, "default", name)
    assert sim.controller("endpoints").endpoints("default", name) == computed  # the controller agrees
    return computed


def summary(sim: Simulation, name: str = "web") -> list[tuple[str, bool, bool, bool]]:
    return [(e.pod, e.ready, e.serving, e.terminating) for e in endpoints(sim, name)]


def test_a_service_sends_to_the_running_pods_its_selector_matches_one_per_node():
    sim = Simulation(load_manifests((DATA / "svc_spread.yaml").read_text()))
    sim.run_to_end()
    found = endpoints(sim, "nginx")
    assert [e.pod for e in found] == ["nginx-a", "nginx-b", "nginx-c"]
    assert sorted(e.node for e in found) == ["worker1", "worker2", "worker3"]
    assert all(e.ready and e.serving and not e.terminating for e in found)
    assert endpoints(sim, "nginx-lb") == endpoints(sim, "nginx-np") == found


def test_a_pod_is_an_endpoint_once_started_and_ready_once_its_probe_passes():
    probe = ", readinessProbe: {initialDelaySeconds: 5, periodSeconds: 10}"
    text = NODE + SERVICE + pod("web-1") + pod("web-2", probe)
    assert summary(simulate(text, until=0.5)) == []  # bound but not started: no IP yet
    assert summary(simulate(text, until=2)) == [("web-1", True, True, False), ("web-2", False, False, False)]
    assert summary(simulate(text, until=6)) == [("web-1", True, True, False), ("web-2", True, True, False)]


def test_a_terminating_pod_stays_serving_but_not_ready_until_it_is_gone():
    text = NODE + SERVICE + pod("web-1") + pod("web-2") + action("at: 10s, op: delete, target: Pod/web-2")
    assert summary(simulate(text, until=20)) == [("web-1", True, True, False), ("web-2", False, True, True)]
    assert summary(simulate(text)) == [("web-1", True, True, False)]


def test_services_without_a_selector_have_no_managed_endpoints():
    text = (
        NODE
        + pod("web-1")
        + (
            "---\napiVersion: v1\nkind: Service\nmetadata: {name: external}\nspec: {ports: [{port: 80}]}\n"
            "---\napiVersion: v1\nkind: Service\nmetadata: {name: empty}\nspec: {selector: {}, ports: [{port: 80}]}\n"
        )
    )
    sim = simulate(text)
    assert endpoints(sim, "external") == endpoints(sim, "empty") == ()


def test_only_pods_of_the_services_namespace_with_every_selector_label_count():
    text = (
        NODE
        + SERVICE
        + pod("web-1")
        + pod("web-2", namespace="other")
        + pod("web-3", labels="{app: web, tier: front}")
        + pod("api-1", labels="{app: api}")
    )
    assert [e.pod for e in endpoints(simulate(text))] == ["web-1", "web-3"]


def test_finished_pods_are_not_endpoints():
    done = (
        "---\napiVersion: v1\nkind: Pod\nmetadata: {name: web-job, labels: {app: web}}\n"
        "spec: {restartPolicy: Never, containers: [{name: app, image: app}]}\n"
    )
    assert [e.pod for e in endpoints(simulate(NODE + SERVICE + pod("web-1") + done))] == ["web-1"]


def test_endpoints_follow_label_changes_and_services_created_later():
    text = (
        NODE
        + pod("web-1")
        + pod("web-2")
        + action(
            "at: 5s, op: apply, manifest: {apiVersion: v1, kind: Service, metadata: {name: web}, "
            "spec: {selector: {app: web}, ports: [{port: 80}]}}"
        )
        + action("at: 10s, op: unlabel, target: Pod/web-2, keys: [app]")
    )
    assert [e.pod for e in endpoints(simulate(text, until=6))] == ["web-1", "web-2"]
    assert [e.pod for e in endpoints(simulate(text))] == ["web-1"]


def test_readiness_comes_from_the_pod_even_when_its_node_is_down():
    # Upstream's controller reads the pod's Ready condition only: a dead node's pods stay ready
    # endpoints until the node lifecycle controller marks them NotReady.
    sim = simulate(NODE + SERVICE + pod("web-1"))
    node = sim.cluster.get(Node, "worker1")
    sim.cluster.update(replace(node, status=replace(node.status, ready=False)))
    assert summary(sim) == [("web-1", True, True, False)]


def test_the_simulate_state_lists_services_with_their_endpoints(capsys):
    assert main(["simulate", "-f", str(DATA / "svc_spread.yaml"), "-o", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(s["name"], s["type"]) for s in report["services"]] == [
        ("nginx", "ClusterIP"),
        ("nginx-lb", "LoadBalancer"),
        ("nginx-np", "NodePort"),
    ]
    assert report["services"][0]["endpoints"][0] == {
        "pod": "nginx-a",
        "node": report["pods"][0]["node"],
        "ready": True,
        "serving": True,
        "terminating": False,
    }


def test_the_state_has_no_services_key_without_services(capsys):
    assert main(["simulate", "-f", str(DATA / "sim_basic.yaml"), "-o", "json"]) == 0
    assert "services" not in json.loads(capsys.readouterr().out)
