"""Export gives what `kubectl apply -f` takes (the Kubernetes objects, Node capacity and allocatable
as they are); the playground's own documents (the timeline's Actions, the scheduler
configuration) come in a download of their own; export -> import gives the same nodes."""

import pytest
import yaml
from django.urls import reverse

from playground import importing
from playground.models import Node, Scenario
from playground.scenarios import create_scenario, export_document, export_kubernetes, export_timeline
from scheduler_core.api.manifests import load_manifests
from tests.web.kubectl_output import nodes_yaml, pods_yaml

pytestmark = pytest.mark.django_db

WORKLOAD = """# the web tier
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]}
---
apiVersion: playground/v1
kind: Action
spec: {at: 60s, op: cordon, target: Node/worker1}
--- {apiVersion: v1, kind: Pod, metadata: {name: lone}, spec: {containers: [{name: c, image: busybox}]}}
"""
CONFIG = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles: [{schedulerName: default-scheduler}]
"""


@pytest.fixture
def scenario() -> Scenario:
    nodes = [
        {
            "name": "big",
            "labels": {"kubernetes.io/hostname": "big", "zone": "a"},
            "taints": [{"key": "gpu", "value": "yes", "effect": "NoSchedule"}],
            "capacity": {"cpu": "8", "memory": "32817148Ki", "pods": "58"},
            "allocatable": {"cpu": "7910m", "memory": "31482236Ki", "pods": "58"},
            "unschedulable": True,
        },
        {"name": "small", "labels": {"kubernetes.io/hostname": "small"}, "taints": [], "capacity": {"cpu": "2"}},
    ]
    created, _ = create_scenario("export", nodes=nodes, workload_yaml=WORKLOAD, scheduler_config_yaml=CONFIG)
    return created


def test_the_default_export_is_kubernetes_objects_only(client, scenario):
    response = client.get(reverse("export", args=[scenario.slug]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{scenario.slug}.yaml"'
    text = response.content.decode()
    documents = [doc for doc in yaml.safe_load_all(text) if doc]
    assert [(doc["apiVersion"], doc["kind"]) for doc in documents] == [
        ("v1", "Node"), ("v1", "Node"), ("apps/v1", "Deployment"), ("v1", "Pod"),
    ]  # fmt: skip
    assert "playground/v1" not in text and "KubeSchedulerConfiguration" not in text
    assert "# the web tier" in text  # the workload as written
    assert len(load_manifests(text)) == 4  # and the engine takes it too


def test_the_timeline_comes_in_a_download_of_its_own(client, scenario):
    response = client.get(reverse("export", args=[scenario.slug]), {"part": "timeline"})
    assert response["Content-Disposition"] == f'attachment; filename="{scenario.slug}.playground.yaml"'
    documents = [doc for doc in yaml.safe_load_all(response.content.decode()) if doc]
    assert [doc["kind"] for doc in documents] == ["Action", "KubeSchedulerConfiguration"]
    whole = client.get(reverse("export", args=[scenario.slug]), {"part": "all"})
    assert whole.content.decode() == export_document(scenario)


def test_both_parts_hold_the_whole_scenario(scenario):
    whole = {yaml.safe_dump(doc) for doc in yaml.safe_load_all(export_document(scenario)) if doc}
    parts = export_kubernetes(scenario) + "---\n" + export_timeline(scenario)
    assert {yaml.safe_dump(doc) for doc in yaml.safe_load_all(parts) if doc} == whole


def test_nodes_are_written_with_capacity_and_allocatable_as_they_are(scenario):
    nodes = [doc for doc in yaml.safe_load_all(export_kubernetes(scenario)) if doc and doc["kind"] == "Node"]
    assert nodes[0]["status"] == {
        "capacity": {"cpu": "8", "memory": "32817148Ki", "pods": "58"},
        "allocatable": {"cpu": "7910m", "memory": "31482236Ki", "pods": "58"},
    }
    assert nodes[1]["status"] == {"capacity": {"cpu": "2"}}  # allocatable: the same
    engine = {m.object.metadata.name: m.object for m in load_manifests(export_kubernetes(scenario)) if m.kind == "Node"}
    assert engine["big"].status.allocatable != engine["big"].status.capacity  # the engine schedules on allocatable


def _node_view(node: Node) -> tuple:
    return (node.name, node.labels, node.taints, node.capacity, node.allocatable, node.unschedulable)


def test_export_then_import_gives_the_same_nodes(client, scenario):
    client.post(reverse("new-scenario"))
    target = Scenario.objects.exclude(pk=scenario.pk).get()
    exported = client.get(reverse("export", args=[scenario.slug])).content.decode()
    url = reverse("import-cluster", args=[target.slug])
    response = client.post(url, {"version": target.version, "nodes_yaml": exported}, headers={"HX-Request": "true"})
    assert response.status_code == 200, response.content[:600]
    assert [_node_view(n) for n in target.nodes.all()] == [_node_view(n) for n in scenario.nodes.all()]


def test_a_real_cluster_survives_import_export_import():
    first = importing.import_cluster(nodes_yaml(12))
    created, _ = create_scenario("real", nodes=first.nodes)
    again = importing.import_cluster(export_kubernetes(created))
    assert again.nodes == first.nodes


def test_board_edits_keep_allocatable_coherent(scenario):
    from playground import board

    big = scenario.nodes.get(name="big")
    scenario = board.clone_node(scenario, scenario.version, big.pk)
    clone = scenario.nodes.exclude(pk=big.pk).get(name__startswith="big")
    assert clone.allocatable == big.allocatable and clone.capacity == big.capacity
    scenario = board.set_capacity(scenario, scenario.version, big.pk, {"cpu": "6"})
    big.refresh_from_db()
    assert big.capacity["cpu"] == "6" and big.allocatable["cpu"] == "6"  # the edit is what pods fit into
    assert big.allocatable["memory"] == "31482236Ki"
    scenario = board.set_capacity(scenario, scenario.version, big.pk, {"memory": "31482236Ki"})
    big.refresh_from_db()
    assert big.allocatable == {}  # the same as capacity again


def test_an_imported_workload_larger_than_a_typed_one_stays_editable():
    from playground import board
    from playground.scenarios import MAX_WORKLOAD_BYTES, InvalidEdit

    imported = importing.import_cluster(nodes_yaml(10), pods_yaml(800, 10))
    assert len(imported.workload_yaml) > MAX_WORKLOAD_BYTES
    created, _ = create_scenario("big", nodes=imported.nodes, workload_yaml=imported.workload_yaml)
    edited = imported.workload_yaml.replace("cpu: 250m", "cpu: 200m", 1)
    created = board.set_workload(created, created.version, edited)
    assert created.workload_yaml == edited
    typed, _ = create_scenario("typed")
    with pytest.raises(InvalidEdit, match="larger than 256 KiB"):
        board.set_workload(typed, typed.version, edited)
