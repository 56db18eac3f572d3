import pytest
from django.urls import reverse

from playground.models import Scenario

pytestmark = pytest.mark.django_db

NODES = """apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: ip-10-0-1-12
    labels: {kubernetes.io/hostname: ip-10-0-1-12, topology.kubernetes.io/zone: eu-west-1a}
    managedFields: [{manager: kubelet}]
  spec:
    taints: [{key: node-role.kubernetes.io/control-plane, effect: NoSchedule}]
  status:
    capacity: {cpu: "4", memory: 16Gi, pods: "110"}
    allocatable: {cpu: 3920m, memory: 15Gi, pods: "110"}
    conditions: [{type: Ready, status: "True"}]
- apiVersion: v1
  kind: Node
  metadata: {name: ip-10-0-2-7, labels: {kubernetes.io/hostname: ip-10-0-2-7}}
  status: {allocatable: {cpu: "2", memory: 8Gi, pods: "58"}}
"""

PODS = """apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: coredns-1, namespace: kube-system, labels: {k8s-app: kube-dns}, uid: abc, resourceVersion: "42"}
  spec:
    nodeName: ip-10-0-2-7
    priorityClassName: system-cluster-critical
    containers: [{name: coredns, image: coredns:1.11, resources: {requests: {cpu: 100m, memory: 70Mi}},
                  volumeMounts: [{name: config, mountPath: /etc/coredns}]}]
    volumes: [{name: config, configMap: {name: coredns}}]
  status: {phase: Running, podIP: 10.0.2.8}
- apiVersion: v1
  kind: Pod
  metadata: {name: done, namespace: default}
  spec: {nodeName: ip-10-0-2-7, containers: [{name: c, image: busybox}]}
  status: {phase: Succeeded}
"""


@pytest.fixture
def editable(client):
    client.post(reverse("new-scenario"))
    return Scenario.objects.get()


def test_kubectl_output_becomes_the_board_and_bound_pods_the_workload(client, editable):
    url = reverse("import-cluster", args=[editable.slug])
    data = {"version": editable.version, "nodes_yaml": NODES, "pods_yaml": PODS}
    response = client.post(url, data, headers={"HX-Request": "true"})
    assert response.status_code == 200, response.content[:500]
    names = [node.name for node in editable.nodes.all()]
    assert names == ["ip-10-0-1-12", "ip-10-0-2-7"]
    control_plane = editable.nodes.get(name="ip-10-0-1-12")
    assert control_plane.capacity == {"cpu": "3920m", "memory": "15Gi", "pods": "110"}  # allocatable is what fits
    assert control_plane.taints == [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]
    editable.refresh_from_db()
    assert "coredns-1" in editable.workload_yaml
    assert "done" not in editable.workload_yaml  # finished pods are left out
    assert "volumes" not in editable.workload_yaml and "priorityClassName" not in editable.workload_yaml
    assert b"coredns-1" in response.content  # placed on its node on the board


def test_a_broken_paste_names_the_field_and_keeps_the_board(client, editable):
    url = reverse("import-cluster", args=[editable.slug])
    bad = NODES.replace('cpu: "2"', "cpu: two")
    response = client.post(url, {"version": editable.version, "nodes_yaml": bad}, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert b"status.allocatable.cpu" in response.content
    assert [node.name for node in editable.nodes.all()] == ["worker1", "worker2", "worker3"]
