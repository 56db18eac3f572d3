"""`kubectl describe pod` from the real kubectl v1.34.5 against the API, and describe_pod_text's on
the engine's own run of the same scenario: the same text, byte for byte.

Both read the same run (the server's seed, 0). kubectl ages what it prints by its own clock, the
API's timestamps being simulated seconds from the run's epoch (a whole Unix second, read here off
a pod's creationTimestamp); so the engine's text is taken at each moment kubectl may have read its
clock, between just before the command and just after it, and kubectl's must be one of them.
"""

import json
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Pod
from scheduler_core.explain.describe_pod_text import pod_text
from scheduler_core.simulation.simulation import Simulation
from tests.servers import DaphneServer
from tests.web.kubeapi.conftest import SCENARIO, ApiScenario, kubectl, new_api_scenario

CLOCK_STEP = 0.01  # seconds between the moments tried: finer than any two ages' changes

# What SCENARIO (Deployment, DaemonSet, a bare pod) lacks: a priority class, init containers (one
# a sidecar), ports, limits, probes of every handler, a command and args, environment (values,
# each kind of valueFrom, envFrom), mounts and volumes of every source kubectl describes (a claim,
# configMap, emptyDir, secret, hostPath, downwardAPI, projected), service accounts (named, a
# Job template's, one not automounted), spread constraints, pod-level resources, a pod pending for
# good, one that waited (FailedScheduling x4, then Scheduled: the scheduler's events, without a
# lastTimestamp, ahead of the kubelet's), a failed pod and a Job's.
DESCRIBED = """\
apiVersion: playground/v1
kind: Scenario
title: "kubectl describe pod against the playground"
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a, zone: a, disk: ssd}}
spec: {taints: [{key: dedicated, value: batch, effect: NoSchedule}]}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, labels: {kubernetes.io/hostname: node-b, zone: b}}
status: {capacity: {cpu: "2", memory: 8Gi, pods: "110"}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local-path}
provisioner: rancher.io/local-path
volumeBindingMode: WaitForFirstConsumer
reclaimPolicy: Delete
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: local-path
  resources: {requests: {storage: 1Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: batch-1, labels: {app: batch, tier: backend}, annotations: {team: data}}
spec:
  serviceAccountName: batch-runner
  priorityClassName: high
  nodeSelector: {disk: ssd}
  tolerations:
  - {key: dedicated, operator: Equal, value: batch, effect: NoSchedule}
  - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 60}
  initContainers:
  - name: setup
    image: busybox:1.36
    command: [sh, -c, "echo ready > /work/flag"]
    resources: {requests: {cpu: 50m}}
    volumeMounts: [{name: work, mountPath: /work}]
  containers:
  - name: worker
    image: worker:2.1
    command: [/bin/worker]
    args: [--queue, batch, --verbose]
    ports: [{containerPort: 8080, name: http}, {containerPort: 9090, hostPort: 9090, protocol: UDP}]
    envFrom:
    - configMapRef: {name: worker-config}
    - {prefix: DB_, secretRef: {name: db-credentials, optional: true}}
    env:
    - {name: MODE, value: batch}
    - {name: POD_NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
    - {name: CPU_LIMIT, valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: 1m}}}
    - {name: LOG_LEVEL, valueFrom: {configMapKeyRef: {name: worker-config, key: log-level}}}
    - {name: TOKEN, valueFrom: {secretKeyRef: {name: api-token, key: token, optional: false}}}
    resources: {requests: {cpu: 500m, memory: 256Mi}, limits: {cpu: "1", memory: 512Mi}}
    livenessProbe: {exec: {command: [cat, /tmp/healthy]}, initialDelaySeconds: 10}
    readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 5, failureThreshold: 2}
    startupProbe: {tcpSocket: {port: http}, periodSeconds: 2, failureThreshold: 30}
    volumeMounts:
    - {name: data, mountPath: /data}
    - {name: config, mountPath: /etc/worker, readOnly: true}
    - {name: work, mountPath: /work, subPath: batch}
  volumes:
  - name: data
    persistentVolumeClaim: {claimName: data}
  - name: config
    configMap: {name: worker-config}
  - name: work
    emptyDir: {sizeLimit: 1Gi}
  - name: creds
    secret: {secretName: db-credentials}
  - name: logs
    hostPath: {path: /var/log, type: Directory}
  - name: info
    downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: batch}}}
  - maxSkew: 2
    topologyKey: kubernetes.io/hostname
    whenUnsatisfiable: DoNotSchedule
    labelSelector: {matchExpressions: [{key: tier, operator: In, values: [backend, api]}]}
---
apiVersion: v1
kind: Pod
metadata: {name: filler}
spec:
  nodeSelector: {zone: b}
  containers:
  - {name: app, image: nginx, resources: {requests: {cpu: 500m}}}
---
apiVersion: v1
kind: Pod
metadata: {name: big}
spec:
  containers:
  - {name: app, image: nginx, resources: {requests: {cpu: "3"}}}
---
apiVersion: v1
kind: Pod
metadata: {name: stuck, labels: {app: stuck}}
spec:
  nodeSelector: {gpu: "true"}
  containers:
  - {name: main, image: cuda:12, resources: {requests: {cpu: "1", memory: 1Gi}, limits: {cpu: "1", memory: 1Gi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: with-sidecar}
spec:
  nodeSelector: {zone: b}
  resources: {requests: {cpu: 200m, memory: 128Mi}, limits: {cpu: 200m, memory: 128Mi}}
  initContainers:
  - name: log
    image: log:1
    restartPolicy: Always
    readinessProbe:
      httpGet: {host: 10.0.0.1, port: 8443, scheme: HTTPS, path: /health, httpHeaders: [{name: X-Probe, value: "1"}]}
  containers:
  - name: main
    image: main:1
    livenessProbe: {grpc: {port: 9000}, timeoutSeconds: 3}
---
apiVersion: v1
kind: Pod
metadata: {name: crashed, annotations: {playground.k8s.io/exit-code: "3", playground.k8s.io/run-seconds: "2"}}
spec:
  nodeSelector: {zone: b}
  restartPolicy: Never
  automountServiceAccountToken: false
  containers:
  - {name: main, image: main:1, resources: {requests: {cpu: 100m}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: once}
spec:
  template:
    metadata: {labels: {app: once}}
    spec:
      serviceAccountName: job-runner
      restartPolicy: Never
      nodeSelector: {zone: b}
      containers:
      - {name: task, image: task:1, env: [{name: GREETING, value: "hello\\nworld"}]}
      volumes:
      - name: bundle
        projected:
          sources:
          - serviceAccountToken: {path: token, audience: vault}
          - secret: {name: bundle-secret}
          - configMap: {name: bundle-config, optional: true}
---
apiVersion: playground/v1
kind: Action
spec: {at: 30s, op: delete, target: Pod/filler}
---
apiVersion: playground/v1
kind: Action
spec:
  at: 120s
  op: apply
  manifest:
    apiVersion: v1
    kind: Node
    metadata: {name: node-c, labels: {kubernetes.io/hostname: node-c, zone: c}}
    status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


@dataclass(frozen=True, slots=True)
class Described:
    """A scenario served by the API, the engine's run of it, and the API's epoch."""

    api: ApiScenario
    simulation: Simulation
    epoch: float

    def pod(self, prefix: str) -> Pod:
        """The pod of that name, or the first whose name starts with it (a controller's)."""
        pods = sorted(self.simulation.cluster.objects(Pod), key=lambda pod: pod.name)
        return next(pod for pod in pods if pod.name == prefix or pod.name.startswith(f"{prefix}-"))


def served(server: DaphneServer, folder: Path, text: str) -> Described:
    api = new_api_scenario(server, folder, text)
    simulation = Simulation(load_manifests(text.split("---\n", 1)[1]))
    for _ in simulation.stream():
        pass
    listed = json.loads(kubectl(api.view_kubeconfig, "get", "pods", "-A", "-o", "json").stdout)["items"]
    first = listed[0]["metadata"]
    pod = simulation.cluster.get(Pod, f"{first['namespace']}/{first['name']}")
    assert pod is not None
    created = datetime.fromisoformat(first["creationTimestamp"]).timestamp()
    return Described(api, simulation, float(round(created - pod.metadata.creation_timestamp)))


@pytest.fixture(scope="module")
def kubectl_scenario(api_server: DaphneServer, tmp_path_factory: pytest.TempPathFactory) -> Described:
    return served(api_server, tmp_path_factory.mktemp("describe-kubectl"), SCENARIO)


@pytest.fixture(scope="module")
def described_scenario(api_server: DaphneServer, tmp_path_factory: pytest.TempPathFactory) -> Described:
    return served(api_server, tmp_path_factory.mktemp("describe-pods"), DESCRIBED)


def assert_same_as_kubectl(scenario: Described, pod: Pod) -> None:
    before = time.time()
    real = kubectl(scenario.api.view_kubeconfig, "describe", "pod", "-n", pod.namespace, pod.name).stdout
    after = time.time()
    moments = [before + step * CLOCK_STEP for step in range(int((after - before) / CLOCK_STEP) + 2)]
    texts = {pod_text(scenario.simulation.cluster, pod, moment - scenario.epoch, scenario.epoch) for moment in moments}
    if real not in texts:  # the closest, for the diff pytest shows
        assert real.splitlines(keepends=True) == min(texts).splitlines(keepends=True)


@pytest.mark.parametrize(
    ("name", "namespace"),
    [("toolbox", "default"), ("web", "default"), ("node-agent", "kube-system")],
)
def test_pods_of_the_kubectl_scenario(kubectl_scenario: Described, name: str, namespace: str) -> None:
    """A bare pod with a nodeSelector, a Deployment's (Controlled By: ReplicaSet/...), a
    DaemonSet's (its tolerations)."""
    pod = kubectl_scenario.pod(name)
    assert pod.namespace == namespace
    assert_same_as_kubectl(kubectl_scenario, pod)


@pytest.mark.parametrize("name", ["batch-1", "big", "stuck", "with-sidecar", "crashed", "once"])
def test_pods_of_every_kind_of_state(described_scenario: Described, name: str) -> None:
    assert_same_as_kubectl(described_scenario, described_scenario.pod(name))


def test_what_the_api_serves_and_leaves_out_shows_as_on_a_cluster(described_scenario: Described) -> None:
    """The service account, the probes' handlers with SetDefaults_Probe's timeout, the environment
    and the mounts (the ServiceAccount plugin's token among them) as a cluster shows them; no host
    IP, pod IP, container or image ID (the engine has none), which kubectl shows absent."""
    pod = described_scenario.pod("batch-1")
    token = next(volume.name for volume in pod.spec.volumes if volume.name.startswith("kube-api-access-"))
    real = kubectl(described_scenario.api.view_kubeconfig, "describe", "pod", pod.name).stdout
    for line in (
        "Service Account:      batch-runner\n",
        "Node:                 node-a/\n",
        "IP:                   \n",
        "IPs:                  <none>\n",
        "    Container ID:  \n",
        "    Image ID:      \n",
        "    Liveness:   exec [cat /tmp/healthy] delay=10s timeout=1s period=10s #success=1 #failure=3\n",
        "    Readiness:  http-get http://:8080/ready delay=0s timeout=1s period=5s #success=1 #failure=2\n",
        "    Startup:    tcp-socket :http delay=0s timeout=1s period=2s #success=1 #failure=30\n",
        "      POD_NAME:   batch-1 (v1:metadata.name)\n",
        "      CPU_LIMIT:  1000 (limits.cpu)\n",
        f"      /var/run/secrets/kubernetes.io/serviceaccount from {token} (ro)\n",
        '      /work from work (rw,path="batch")\n',
        f"  {token}:\n",
        "    TokenExpirationSeconds:   3607\n",
    ):
        assert line in real
    once = described_scenario.pod("once")
    real = kubectl(described_scenario.api.view_kubeconfig, "describe", "pod", once.name).stdout
    assert "Service Account:  job-runner\n" in real  # the Job's template names it
    assert "      GREETING:  hello\n                 world\n" in real
    crashed = kubectl(described_scenario.api.view_kubeconfig, "describe", "pod", "crashed").stdout
    # automountServiceAccountToken: false, so no token; the account is still named
    assert "Service Account:  default\n" in crashed
    assert "    Mounts:       <none>\n" in crashed and "Volumes:                      <none>\n" in crashed
