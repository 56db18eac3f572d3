"""A small simulated cluster in the API's view, shared by the kubeapi tests."""

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.kubeapi.objects import ApiSnapshot, base_version, snapshot_of
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import Change
from scheduler_core.store.events import Event

CLUSTER = """
apiVersion: v1
kind: Node
metadata: {name: worker1, labels: {zone: a}}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: worker2, labels: {zone: b}}
spec: {unschedulable: true}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: nginx, image: "nginx:1.27", resources: {requests: {cpu: 100m}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: tool, namespace: ops, labels: {app: tool}}
spec: {containers: [{name: sh, image: busybox}]}
"""


@pytest.fixture(scope="module")
def snapshot() -> ApiSnapshot:
    simulation = Simulation(load_manifests(CLUSTER))
    journal = [item for item in simulation.stream() if isinstance(item, Change | Event)]
    base = base_version(simulation.cluster.resource_version, journal)
    return snapshot_of(simulation.cluster, journal, base, now=simulation.now + 30, epoch=1_000_000)
