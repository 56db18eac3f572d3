"""`kubectl describe` of PodDisruptionBudgets, ReplicaSets, Services, DaemonSets and StatefulSets
from the real kubectl v1.34.5 against the API, and the describers' text on the engine's own run of
the same scenario: the same text, byte for byte (aged on kubectl's clock as
test_describe_pod_vs_kubectl.py ages a pod's)."""

import time
from collections.abc import Callable
from typing import Any

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import PodDisruptionBudget
from scheduler_core.api.workloads import DaemonSet, ReplicaSet, Service, StatefulSet
from scheduler_core.explain.describe_daemon_set_text import daemon_set_text
from scheduler_core.explain.describe_pod_disruption_budget_text import pod_disruption_budget_text
from scheduler_core.explain.describe_replica_set_text import replica_set_text
from scheduler_core.explain.describe_service_text import service_text
from scheduler_core.explain.describe_stateful_set_text import stateful_set_text
from scheduler_core.kubeapi.objects import ApiSnapshot, base_version, snapshot_of
from scheduler_core.kubectl.console import run
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import Change, Cluster
from scheduler_core.store.events import Event
from tests.servers import DaphneServer
from tests.web.kubeapi.conftest import SCENARIO, ApiScenario, kubectl
from tests.web.kubeapi.test_console_vs_kubectl import words
from tests.web.kubeapi.test_describe_pod_vs_kubectl import CLOCK_STEP, Described, served

Text = Callable[[Cluster, Any, float, float], str]
TEXTS: dict[str, tuple[type, Text]] = {
    "poddisruptionbudget": (PodDisruptionBudget, pod_disruption_budget_text),
    "replicaset": (ReplicaSet, replica_set_text),
    "service": (Service, service_text),
    "daemonset": (DaemonSet, daemon_set_text),
    "statefulset": (StatefulSet, stateful_set_text),
}

# What the conftest's SCENARIO (a Deployment's ReplicaSet, a PodDisruptionBudget, a DaemonSet)
# lacks: a StatefulSet with claim templates behind a headless Service, a partitioned one, a
# NodePort Service with named ports, a budget by maxUnavailable percentage and one without a
# selector, a bare ReplicaSet with annotations, a DaemonSet on some nodes with tolerations.
WORKLOADS = """\
apiVersion: playground/v1
kind: Scenario
title: "kubectl describe of workloads against the playground"
---
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a, zone: a, disk: ssd}}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, labels: {kubernetes.io/hostname: node-b, zone: b}}
spec: {taints: [{key: dedicated, value: infra, effect: NoSchedule}]}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local-path}
provisioner: rancher.io/local-path
volumeBindingMode: WaitForFirstConsumer
reclaimPolicy: Delete
---
apiVersion: v1
kind: Service
metadata: {name: db, labels: {app: db}}
spec:
  clusterIP: None
  selector: {app: db}
  ports: [{name: sql, port: 5432}]
---
apiVersion: v1
kind: Service
metadata: {name: front, annotations: {team: web}}
spec:
  type: NodePort
  selector: {app: front, tier: web}
  ports:
  - {name: http, port: 80, targetPort: http, nodePort: 30080}
  - {name: metrics, port: 9090, targetPort: 9090, protocol: TCP}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, labels: {app: db}}
spec:
  serviceName: db
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}, annotations: {backup: nightly}}
    spec:
      containers:
      - name: postgres
        image: postgres:16
        ports: [{containerPort: 5432, name: sql}]
        resources: {requests: {cpu: 250m, memory: 512Mi}}
        volumeMounts: [{name: data, mountPath: /var/lib/postgresql}]
  volumeClaimTemplates:
  - metadata: {name: data, labels: {app: db}}
    spec:
      accessModes: [ReadWriteOnce]
      storageClassName: local-path
      resources: {requests: {storage: 1Gi}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: cache}
spec:
  serviceName: cache
  replicas: 1
  podManagementPolicy: Parallel
  updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 1, maxUnavailable: 50%}}
  selector: {matchExpressions: [{key: app, operator: In, values: [cache]}]}
  template:
    metadata: {labels: {app: cache}}
    spec:
      nodeSelector: {zone: a}
      containers: [{name: redis, image: redis:7}]
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: front, labels: {app: front}, annotations: {owner: web-team}}
spec:
  replicas: 2
  selector: {matchLabels: {app: front, tier: web}}
  template:
    metadata: {labels: {app: front, tier: web}}
    spec:
      containers:
      - {name: nginx, image: nginx:1.27, ports: [{containerPort: 8080, name: http}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: logs, labels: {app: logs}}
spec:
  selector: {matchLabels: {app: logs}}
  template:
    metadata: {labels: {app: logs}}
    spec:
      nodeSelector: {disk: ssd}
      tolerations: [{key: dedicated, operator: Exists, effect: NoSchedule}]
      containers: [{name: shipper, image: shipper:2, resources: {limits: {cpu: 200m, memory: 128Mi}}}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: db-pdb}
spec:
  maxUnavailable: 50%
  selector: {matchLabels: {app: db}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: front-pdb}
spec:
  minAvailable: 1
  selector: {matchExpressions: [{key: tier, operator: In, values: [web, api]}]}
"""


@pytest.fixture(scope="module")
def kubectl_scenario(api_server: DaphneServer, tmp_path_factory: pytest.TempPathFactory) -> Described:
    return served(api_server, tmp_path_factory.mktemp("describers-kubectl"), SCENARIO)


@pytest.fixture(scope="module")
def workloads_scenario(api_server: DaphneServer, tmp_path_factory: pytest.TempPathFactory) -> Described:
    return served(api_server, tmp_path_factory.mktemp("describers-workloads"), WORKLOADS)


def assert_same_as_kubectl(scenario: Described, resource: str, namespace: str, name: str) -> None:
    kind, text = TEXTS[resource]
    # the object of that name, or a controller's by its name's prefix (a Deployment's ReplicaSet)
    objects = sorted(scenario.simulation.cluster.objects(kind), key=lambda o: o.metadata.name)
    obj = next(o for o in objects if o.metadata.name == name or o.metadata.name.startswith(f"{name}-"))
    assert obj.metadata.namespace == namespace
    before = time.time()
    real = kubectl(scenario.api.view_kubeconfig, "describe", resource, "-n", namespace, obj.metadata.name).stdout
    after = time.time()
    moments = [before + step * CLOCK_STEP for step in range(int((after - before) / CLOCK_STEP) + 2)]
    cluster = scenario.simulation.cluster
    texts = {text(cluster, obj, moment - scenario.epoch, scenario.epoch) for moment in moments}
    if real not in texts:  # the closest, for the diff pytest shows
        assert real.splitlines(keepends=True) == min(texts).splitlines(keepends=True)


@pytest.mark.parametrize(
    ("resource", "namespace", "name"),
    [
        ("poddisruptionbudget", "default", "web-pdb"),
        ("replicaset", "default", "web"),
        ("daemonset", "kube-system", "node-agent"),
    ],
)
def test_objects_of_the_kubectl_scenario(kubectl_scenario: Described, resource: str, namespace: str, name: str) -> None:
    assert_same_as_kubectl(kubectl_scenario, resource, namespace, name)


@pytest.mark.parametrize(
    ("resource", "name"),
    [
        ("poddisruptionbudget", "db-pdb"),
        ("poddisruptionbudget", "front-pdb"),
        ("replicaset", "front"),
        ("service", "db"),
        ("service", "front"),
        ("daemonset", "logs"),
        ("statefulset", "db"),
        ("statefulset", "cache"),
    ],
)
def test_objects_of_every_kind(workloads_scenario: Described, resource: str, name: str) -> None:
    assert_same_as_kubectl(workloads_scenario, resource, "default", name)


@pytest.fixture(scope="module")
def engine_view() -> ApiSnapshot:
    """The conftest's scenario simulated here with the server's seed (0), as the console reads it."""
    simulation = Simulation(load_manifests(SCENARIO.split("---\n", 1)[1]))
    journal = [item for item in simulation.stream() if isinstance(item, Change | Event)]
    base = base_version(simulation.cluster.resource_version, journal)
    return snapshot_of(simulation.cluster, journal, base, now=simulation.now)


CONSOLE_COMMANDS = [
    "describe pdb web-pdb",
    "describe rs",
    "describe ds -n kube-system",
    "describe replicasets -l app=web",
]


@pytest.mark.parametrize("command", CONSOLE_COMMANDS)
def test_the_console_describes_as_kubectl(api_scenario: ApiScenario, engine_view: ApiSnapshot, command: str) -> None:
    """Through the console's own lookup (short names, every object of a type): the same lines and
    words, ages aside (each counts them on its own clock)."""
    real = kubectl(api_scenario.view_kubeconfig, *command.split())
    ours = run(command, engine_view, may_write=False)
    assert words(ours.stdout) == words(real.stdout)
    assert ours.stderr == real.stderr
