"""`kubectl describe statefulset` as kubectl v1.34 prints it: kubectl's own case (describe_test.go
at kubernetes-1.34.5, TestDescribeStatefulSet), the claim templates, then a set of a scenario run.
tests/web/kubeapi/test_describers_vs_kubectl.py compares with the real kubectl."""

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.workloads import StatefulSet
from scheduler_core.explain.describe_stateful_set_text import (
    claim_template_lines,
    describe_stateful_set,
    stateful_set_text,
)
from scheduler_core.explain.tabwriter import tabbed
from scheduler_core.simulation.simulation import Simulation

NO_PODS = "0 Running / 0 Waiting / 0 Succeeded / 0 Failed"


def test_kubectls_stateful_set_with_a_partition() -> None:
    stateful_set = {
        "metadata": {"name": "bar", "namespace": "foo"},
        "spec": {
            "replicas": 1,
            "selector": {},
            "template": {"spec": {"containers": [{"image": "mytest-image:latest"}]}},
            "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 2672}},
        },
    }
    printed = describe_stateful_set(stateful_set, NO_PODS, [], 0)
    assert printed.startswith(
        "Name:               bar\n"
        "Namespace:          foo\n"
        "CreationTimestamp:  Mon, 01 Jan 0001 00:00:00 +0000\n"
        "Selector:           \n"  # an empty selector selects everything: labels.Everything() prints empty
        "Labels:             <none>\n"
        "Annotations:        <none>\n"
        "Replicas:           1 desired | 0 total\n"
        "Update Strategy:    RollingUpdate\n"
        "  Partition:        2672\n"
        f"Pods Status:        {NO_PODS}\n"
        "Pod Template:\n"
    ), printed
    assert "    Image:         mytest-image:latest\n" in printed
    assert printed.endswith("Volume Claims:     <none>\nEvents:            <none>\n")


def test_claim_templates_print_annotations_as_labels() -> None:
    claims = [
        {
            "metadata": {
                "name": "data",
                "labels": {"b": "2", "a": "1"},
                "annotations": {"volume.beta.kubernetes.io/storage-class": "old"},
            },
            "spec": {"accessModes": ["ReadWriteOnce", "ReadOnlyMany"], "storageClassName": "new"},
        }
    ]
    assert tabbed("\n".join(claim_template_lines(claims)) + "\n") == (
        "Volume Claims:\n"
        "  Name:          data\n"
        "  StorageClass:  old\n"
        "  Labels:        a=1\n"
        "                 b=2\n"
        "  Annotations:   volume.beta.kubernetes.io/storage-class=old\n"
        "  Capacity:      <default>\n"
        "  Access Modes:  [ReadWriteOnce ReadOnlyMany]\n"
    )


SCENARIO = """\
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local-path}
provisioner: rancher.io/local-path
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
      - {name: postgres, image: "postgres:16", volumeMounts: [{name: data, mountPath: /var/lib/postgresql}]}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], storageClassName: local-path, resources: {requests: {storage: 1Gi}}}
"""


def test_a_scenarios_stateful_set_with_its_claims_and_events() -> None:
    simulation = Simulation(load_manifests(SCENARIO))
    for _ in simulation.stream():
        pass
    stateful_set = simulation.cluster.get(StatefulSet, "default/db")
    assert stateful_set is not None
    printed = stateful_set_text(simulation.cluster, stateful_set, simulation.now, epoch=1_700_000_000)
    assert printed.startswith(
        "Name:               db\n"
        "Namespace:          default\n"
        "CreationTimestamp:  Tue, 14 Nov 2023 22:13:20 +0000\n"
        "Selector:           app=db\n"
        "Labels:             <none>\n"
        "Annotations:        <none>\n"
        "Replicas:           2 desired | 2 total\n"
        "Update Strategy:    RollingUpdate\n"
        "  Partition:        0\n"
        "Pods Status:        2 Running / 0 Waiting / 0 Succeeded / 0 Failed\n"
    ), printed
    assert (
        "Volume Claims:\n"
        "  Name:          data\n"
        "  StorageClass:  local-path\n"
        "  Labels:        <none>\n"
        "  Annotations:   <none>\n"
        "  Capacity:      1Gi\n"
        "  Access Modes:  [ReadWriteOnce]\n"
        "Events:\n"
    ) in printed
    assert "create Claim data-db-0 Pod db-0 in StatefulSet db success\n" in printed
    assert "create Pod db-1 in StatefulSet db successful\n" in printed
