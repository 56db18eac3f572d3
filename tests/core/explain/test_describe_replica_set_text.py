"""`kubectl describe replicaset` as kubectl v1.34 prints it (describeReplicaSet; kubectl's
describe_test.go at kubernetes-1.34.5 has no case of its own): a Deployment's set of a scenario
run, and the Conditions table. tests/web/kubeapi/test_describers_vs_kubectl.py compares with the
real kubectl."""

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.workloads import ReplicaSet
from scheduler_core.explain.describe_replica_set_text import describe_replica_set, replica_set_text
from scheduler_core.simulation.simulation import Simulation

SCENARIO = """\
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
status: {capacity: {cpu: "1", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: "nginx:1.27", resources: {requests: {cpu: 400m}}}]
"""


def test_a_deployments_replica_set_counts_its_pods_by_phase() -> None:
    simulation = Simulation(load_manifests(SCENARIO))
    for _ in simulation.stream():
        pass
    replica_set = next(iter(simulation.cluster.objects(ReplicaSet)))
    printed = replica_set_text(simulation.cluster, replica_set, simulation.now)
    hash_ = replica_set.metadata.labels["pod-template-hash"]
    head = (
        f"Name:           {replica_set.metadata.name}\n"
        "Namespace:      default\n"
        f"Selector:       app=web,pod-template-hash={hash_}\n"
        "Labels:         app=web\n"
        f"                pod-template-hash={hash_}\n"
        "Annotations:    deployment.kubernetes.io/desired-replicas: 3\n"
        "                deployment.kubernetes.io/max-replicas: 4\n"
        "                deployment.kubernetes.io/revision: 1\n"
        "Controlled By:  Deployment/web\n"
        "Replicas:       3 current / 3 desired\n"
        # two fit the node's one CPU, the third waits for room
        "Pods Status:    2 Running / 1 Waiting / 0 Succeeded / 0 Failed\n"
        "Pod Template:\n"
        "  Labels:  app=web\n"
        f"           pod-template-hash={hash_}\n"
        "  Containers:\n"
        "   nginx:\n"
    )
    assert printed.startswith(head), printed
    assert "Events:\n  Type    Reason            Age" in printed
    assert printed.count("SuccessfulCreate") == 3


def test_the_conditions_table() -> None:
    replica_set = {
        "metadata": {"name": "rs", "namespace": "ns"},
        "spec": {"replicas": 2, "selector": {"matchLabels": {"a": "b"}}, "template": {}},
        "status": {
            "replicas": 1,
            "conditions": [{"type": "ReplicaFailure", "status": "True", "reason": "FailedCreate"}],
        },
    }
    printed = describe_replica_set(replica_set, "0 Running / 0 Waiting / 0 Succeeded / 0 Failed", [], 0)
    assert (
        "Conditions:\n"
        "  Type             Status  Reason\n"
        "  ----             ------  ------\n"
        "  ReplicaFailure   True    FailedCreate\n"
        "Events:            <none>\n"
    ) in printed
    assert "Replicas:     1 current / 2 desired\n" in printed
