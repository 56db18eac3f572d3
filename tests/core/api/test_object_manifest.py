"""Objects as Kubernetes manifests: every object of every scenario's final state, written and read
back by the engine's own parser, is the object it was; and a few objects in exact Kubernetes shape."""

import functools
import json
import math
from dataclasses import fields, is_dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from scheduler_core.admission.service_account import token_volume_source
from scheduler_core.api.manifest_writer import dump_yaml
from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.node_conditions import node_conditions
from scheduler_core.api.object_manifest import object_manifest, objects_manifests
from scheduler_core.api.pod_conditions import WRITTEN_POD_CONDITIONS, conditions_of
from scheduler_core.api.types import (
    Container,
    ContainerImage,
    Namespace,
    Node,
    NodeSpec,
    NodeStatus,
    ObjectMeta,
    Pod,
    PodDisruptionBudget,
    PodDisruptionBudgetStatus,
    Taint,
)
from scheduler_core.api.workloads import (
    CronJob,
    CronJobStatus,
    DaemonSet,
    DaemonSetStatus,
    Deployment,
    DeploymentStatus,
    HorizontalPodAutoscaler,
    HorizontalPodAutoscalerStatus,
    Job,
    JobReference,
    JobStatus,
    MetricStatus,
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeClaimStatus,
    ReplicaSet,
    ReplicaSetStatus,
    ResourceQuota,
    StatefulSet,
    StatefulSetStatus,
)
from scheduler_core.controllers.base import SimulationOptions
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import Cluster

DATA = Path(__file__).parents[1] / "data"
SCENARIOS = sorted(DATA.glob("*.yaml"))
# Times are written to the microsecond parse_timestamp reads: a simulated time such as
# 0.1 + 0.2 (0.30000000000000004 s) reads back as 0.3 s.
TIME_TOLERANCE = 1e-6


def final_cluster(text: str) -> Cluster:
    simulation = Simulation(load_manifests(text), seed=0, options=SimulationOptions(max_events=20000))
    simulation.run_to_end(3600.0)
    return simulation.cluster


def stored_objects(cluster: Cluster) -> list[Any]:
    return [obj for kind in cluster.kinds() for obj in cluster.objects(kind)]


@functools.cache
def scenario_objects(scenario: Path) -> tuple[Any, ...]:
    """Every object of the scenario's final state (seed 0, to 3600 s at most)."""
    return tuple(stored_objects(final_cluster(scenario.read_text())))


# ---------------------------------------------------------------------------- round trip


def as_read_back(obj: Any) -> Any:
    """The object as the parser reads its manifest: equal to it but for the differences named here."""
    match obj:
        case Pod():
            # The parser reads of the conditions Ready (into `ready`) and the ones others write
            # (PodScheduled, DisruptionTarget); the Ready condition's transition time it does not
            # read. conditions_of shows PodScheduled=True for every pod the kubelet ran (the
            # kubelet writes it) and SchedulingGated for a gated pod (the API server writes it),
            # written or not: the parser reads them as written.
            written = tuple(c for c in conditions_of(obj) if c.type in WRITTEN_POD_CONDITIONS)
            return replace(obj, status=replace(obj.status, ready_changed=None, conditions=written))
        case Deployment() | ReplicaSet() | StatefulSet() | DaemonSet():
            # The parser reads no workload status, nor metadata.generation (an object read from a
            # manifest is a new one: generation 1).
            return replace(obj, status=type(obj.status)(), generation=1)
        case Job() | CronJob() | HorizontalPodAutoscaler() | PersistentVolumeClaim():
            return replace(obj, status=type(obj.status)())  # status not read
        case PersistentVolume():
            return replace(obj, phase="Available")  # status.phase not read
        case ResourceQuota():
            return replace(obj, used={})  # status.used not read: the quota controller counts it again
        case PodDisruptionBudget():
            # Counts and observedGeneration read, conditions not; generation 1, as for the workloads.
            return replace(obj, status=replace(obj.status, conditions=()), generation=1)
        case Node():
            # Written as the API shows them: the kubelet's four conditions, those not stored yet as it
            # posted them at the node's creation; the parser reads them all.
            return replace(obj, status=replace(obj.status, conditions=node_conditions(obj)))
    return obj


def assert_same(expected: Any, actual: Any, path: str) -> None:
    """Field by field, so a difference names its path; times within the microsecond written."""
    if is_dataclass(expected) and not isinstance(expected, type):
        assert type(actual) is type(expected), path
        for field in fields(expected):
            if field.compare:
                assert_same(getattr(expected, field.name), getattr(actual, field.name), f"{path}.{field.name}")
    elif isinstance(expected, dict) or hasattr(expected, "items"):
        assert dict(actual).keys() == dict(expected).keys(), path
        for key, value in expected.items():
            assert_same(value, actual[key], f"{path}[{key}]")
    elif isinstance(expected, tuple | list):
        assert len(actual) == len(expected), path
        for index, (left, right) in enumerate(zip(expected, actual, strict=True)):
            assert_same(left, right, f"{path}[{index}]")
    elif isinstance(expected, float) and not isinstance(actual, bool):
        assert isinstance(actual, float | int) and math.isclose(expected, actual, abs_tol=TIME_TOLERANCE), (
            f"{path}: {expected!r} != {actual!r}"
        )
    else:
        assert expected == actual, f"{path}: {expected!r} != {actual!r}"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda path: path.stem)
def test_every_object_of_the_final_state_reads_back_as_it_was(scenario: Path) -> None:
    objects = scenario_objects(scenario)
    assert objects
    assert_round_trip(objects)


def assert_round_trip(objects: Any, *, as_yaml: bool = False) -> None:
    document = {"apiVersion": "v1", "kind": "List", "items": objects_manifests(objects)}
    text = dump_yaml(document) if as_yaml else json.dumps(document)
    read = {(m.kind, m.object.metadata.key): m.object for m in load_manifests(text)}
    assert len(read) == len(objects)
    for obj in objects:
        key = (obj.kind, obj.metadata.key)
        assert_same(as_read_back(obj), read[key], f"{obj.kind} {obj.metadata.key}")


def test_the_scenarios_hold_every_kind_the_round_trip_should_see() -> None:
    kinds = {obj.kind for scenario in SCENARIOS for obj in scenario_objects(scenario)}
    expected = {
        "Pod", "Node", "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "CronJob",
        "HorizontalPodAutoscaler", "Service", "Ingress", "PersistentVolume", "PersistentVolumeClaim",
        "StorageClass", "ResourceQuota", "LimitRange", "PodDisruptionBudget", "PriorityClass",
    }  # fmt: skip
    assert expected <= kinds


def test_a_terminating_pod_reads_back_with_the_api_deletion_time() -> None:
    meta = ObjectMeta("web", "default", uid="u", deletion_timestamp=40.0, deletion_grace_period_seconds=30)
    pod = Pod(meta, spec=replace(Pod(meta).spec, containers=(Container("c", "nginx"),), node_name="n1"))
    manifest = object_manifest(pod)
    assert manifest["metadata"]["deletionTimestamp"] == "1970-01-01T00:01:10Z"
    assert manifest["metadata"]["deletionGracePeriodSeconds"] == 30
    (read,) = load_manifests(json.dumps(manifest))
    assert read.object.metadata.deletion_timestamp == 40.0  # the parser takes the grace period off again


RICH = """
apiVersion: v1
kind: Pod
metadata: {name: rich, namespace: shop, labels: {app: rich}, annotations: {note: "1"}}
spec:
  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}, {name: scratch}]
  initContainers:
  - {name: setup, image: busybox, resources: {requests: {cpu: 100m}}}
  - {name: proxy, image: envoy, restartPolicy: Always}
  containers:
  - name: app
    image: app:2
    ports: [{containerPort: 8080, hostPort: 80, hostIP: 10.0.0.1, protocol: UDP, name: web}]
    resources: {limits: {cpu: 1500m, memory: 2G, example.com/gpu: "1"}, requests: {cpu: 250m, memory: 1Gi}}
    readinessProbe: {initialDelaySeconds: 5, periodSeconds: 3, successThreshold: 2, failureThreshold: 4}
  restartPolicy: OnFailure
  terminationGracePeriodSeconds: 0
  nodeSelector: {disk: ssd, zone: a}
  hostNetwork: true
  nodeName: n1
  schedulerName: other
  priority: 100
  priorityClassName: high
  preemptionPolicy: Never
  overhead: {cpu: 10m, memory: 32Mi}
  resources: {limits: {cpu: "2"}}
  schedulingGates: [{name: wait}]
  resourceClaims: [{name: gpu}]
  tolerations:
  - {operator: Exists}
  - {key: k, operator: Equal, value: v, effect: NoExecute, tolerationSeconds: 60}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions: [{key: n, operator: Gt, values: ["3"]}]
          matchFields: [{key: metadata.name, operator: In, values: [n1]}]
      preferredDuringSchedulingIgnoredDuringExecution:
      - {weight: 5, preference: {matchExpressions: [{key: zone, operator: Exists}]}}
    podAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 7
        podAffinityTerm:
          topologyKey: zone
          labelSelector: {matchLabels: {app: db}}
          namespaces: [data]
          namespaceSelector: {matchExpressions: [{key: team, operator: In, values: [a, b]}]}
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {topologyKey: kubernetes.io/hostname, labelSelector: {}, matchLabelKeys: [app], mismatchLabelKeys: [tier]}
  topologySpreadConstraints:
  - maxSkew: 2
    topologyKey: zone
    whenUnsatisfiable: DoNotSchedule
    labelSelector: {matchLabels: {app: rich}}
    minDomains: 3
    nodeAffinityPolicy: Ignore
    nodeTaintsPolicy: Honor
    matchLabelKeys: [pod-template-hash]
status:
  phase: Failed
  reason: Evicted
  message: gone
  nominatedNodeName: n2
  startTime: "2024-01-02T15:04:05.123Z"
  conditions:
  - {type: DisruptionTarget, status: "True", reason: TerminationByKubelet, lastTransitionTime: "2024-01-02T15:05:00Z"}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 0
  selector: {matchExpressions: [{key: app, operator: In, values: [db]}]}
  template: {metadata: {labels: {app: db}}, spec: {containers: [{name: db}]}}
  serviceName: db
  podManagementPolicy: Parallel
  updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 1, maxUnavailable: 50%}}
  ordinals: {start: 5}
  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete, whenScaled: Retain}
  minReadySeconds: 3
  revisionHistoryLimit: 0
  volumeClaimTemplates:
  - metadata: {name: data, labels: {a: b}}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1500M}}, storageClassName: ""}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: old}
spec:
  replicas: 0
  paused: true
  minReadySeconds: 4
  strategy: {type: Recreate}
  selector: {matchLabels: {app: old}}
  template: {metadata: {labels: {app: old}}, spec: {containers: [{name: c}]}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 0, maxSurge: 10%}}
  template: {metadata: {labels: {app: agent}}, spec: {containers: [{name: c}]}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "0 3 * * *"
  timeZone: Europe/Paris
  startingDeadlineSeconds: 200
  concurrencyPolicy: Forbid
  suspend: true
  successfulJobsHistoryLimit: 0
  jobTemplate:
    metadata: {labels: {kind: nightly}, annotations: {a: b}}
    spec:
      parallelism: 3
      completionMode: Indexed
      completions: 3
      activeDeadlineSeconds: 100
      ttlSecondsAfterFinished: 0
      template: {spec: {restartPolicy: OnFailure, containers: [{name: c}]}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: queue}
spec:
  parallelism: 2
  template: {spec: {restartPolicy: Never, containers: [{name: c}]}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: StatefulSet, name: db}
  minReplicas: 2
  maxReplicas: 9
  metrics:
  - {type: Resource, resource: {name: memory, target: {type: AverageValue, averageValue: 300Mi}}}
  - {type: Resource, resource: {name: cpu, target: {type: AverageValue, averageValue: 250m}}}
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 60
      selectPolicy: Min
      tolerance: 0.05
      policies: [{type: Pods, value: 1, periodSeconds: 30}]
---
apiVersion: v1
kind: Service
metadata: {name: edge}
spec:
  type: NodePort
  externalTrafficPolicy: Local
  sessionAffinity: ClientIP
  clusterIP: 10.0.0.10
  selector: {}
  ports: [{name: http, port: 80, targetPort: http, nodePort: 30080, protocol: TCP}]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: edge}
spec:
  defaultBackend: {service: {name: edge, port: {number: 80}}}
  tls: [{hosts: [a.example.com, b.example.com], secretName: tls}]
  rules:
  - host: a.example.com
    http: {paths: [{path: /api, pathType: Exact, backend: {service: {name: edge, port: {name: http}}}}]}
  - {host: b.example.com}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce, ReadOnlyMany]
  persistentVolumeReclaimPolicy: Delete
  claimRef: {namespace: shop, name: data}
  hostPath: {path: /data}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: shop}
spec: {accessModes: [ReadWriteOnce], volumeMode: Block, volumeName: pv, resources: {requests: {storage: 10Gi}}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast, annotations: {storageclass.kubernetes.io/is-default-class: "true"}}
provisioner: example.com/fast
volumeBindingMode: WaitForFirstConsumer
reclaimPolicy: Retain
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
globalDefault: true
preemptionPolicy: Never
description: important
---
apiVersion: v1
kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - type: Container
    max: {cpu: "2"}
    min: {memory: 1Mi}
    default: {cpu: 500m}
    defaultRequest: {cpu: 100m}
    maxLimitRequestRatio: {cpu: "2.5", memory: 3}
  - {type: PersistentVolumeClaim, max: {storage: 5Gi}}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: quota}
spec:
  hard: {requests.cpu: 1500m, limits.memory: 4Gi, pods: "20", count/deployments.apps: "3", requests.storage: 100G}
  scopes: [NotTerminating]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: pdb}
spec: {maxUnavailable: 25%, selector: {matchLabels: {app: rich}}}
status:
  disruptionsAllowed: 1
  currentHealthy: 2
  desiredHealthy: 1
  expectedPods: 2
  disruptedPods: {rich: "2024-01-02T15:04:05Z"}
  observedGeneration: 3
---
apiVersion: v1
kind: Node
metadata: {name: n1}
spec:
  unschedulable: true
  taints: [{key: a, effect: NoExecute, timeAdded: "2024-01-02T15:04:05Z"}, {key: b, value: c, effect: PreferNoSchedule}]
status:
  capacity: {cpu: 3500m, memory: 1000000000, pods: "10", example.com/gpu: "2", ephemeral-storage: 100Gi}
  allocatable: {cpu: "3", memory: 900M, pods: "10"}
  conditions: [{type: Ready, status: "False"}]
"""


def test_every_field_the_parsers_read_is_written_back() -> None:
    """Fields no scenario's final state has: read from a manifest, written, and read again."""
    objects = [manifest.object for manifest in load_manifests(RICH)]
    assert_round_trip(objects)
    assert_round_trip(objects, as_yaml=True)  # quoted where YAML would read a timestamp or a number
    assert {obj.kind for obj in objects} >= {"Pod", "StatefulSet", "CronJob", "HorizontalPodAutoscaler", "Node"}


def test_times_read_from_a_manifest_print_as_they_were_written() -> None:
    rich = object_manifest(load_manifests(RICH)[0].object)
    assert rich["status"]["startTime"] == "2024-01-02T15:04:05.123Z"
    assert rich["status"]["containerStatuses"][0]["state"]["terminated"]["finishedAt"] == "2024-01-02T15:05:00Z"


def test_a_namespace_round_trips_too() -> None:
    namespace = Namespace(ObjectMeta("shop", uid="u", labels={"team": "a"}, creation_timestamp=1.5))
    assert object_manifest(namespace) == {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {
            "name": "shop",
            "uid": "u",
            "creationTimestamp": "1970-01-01T00:00:01.5Z",
            "labels": {"team": "a"},
        },
        "spec": {"finalizers": ["kubernetes"]},
        "status": {"phase": "Active"},
    }
    (read,) = load_manifests(json.dumps(object_manifest(namespace)))
    assert read.object == namespace


def test_objects_come_in_kind_namespace_name_order() -> None:
    nodes = [Node(ObjectMeta("b")), Node(ObjectMeta("a"))]
    pods = [Pod(ObjectMeta("z", "a")), Pod(ObjectMeta("a", "b"))]
    order = [
        (m["kind"], m["metadata"].get("namespace"), m["metadata"]["name"]) for m in objects_manifests(pods + nodes)
    ]
    assert order == [("Node", None, "a"), ("Node", None, "b"), ("Pod", "a", "z"), ("Pod", "b", "a")]


def test_an_unknown_class_is_refused() -> None:
    with pytest.raises(TypeError, match="no manifest for ObjectMeta"):
        object_manifest(ObjectMeta("x"))  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- exact shapes

CLUSTER = """
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {zone: a}}
status: {capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
spec:
  unschedulable: true
  taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
status:
  capacity: {cpu: "4", memory: 8Gi, pods: "110"}
  images: [{names: [nginx:1.27], sizeBytes: 70000000}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        resources: {requests: {cpu: 500m, memory: 256Mi}, limits: {memory: 256Mi}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
---
apiVersion: v1
kind: Pod
metadata: {name: big}
spec:
  containers:
  - {name: c, image: busybox, resources: {requests: {cpu: "8"}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: hello}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: hello, image: busybox}]
"""


@pytest.fixture(scope="module")
def cluster() -> Cluster:
    return final_cluster(CLUSTER)


def only(cluster: Cluster, kind: type, prefix: str) -> Any:
    (found,) = [obj for obj in cluster.objects(kind) if obj.metadata.name.startswith(prefix)]
    return found


def test_a_running_pod_has_the_kubelets_conditions_and_a_running_container(cluster: Cluster) -> None:
    pod = only(cluster, Pod, "web-")
    manifest = object_manifest(pod)
    replica_set = only(cluster, ReplicaSet, "web-")
    assert manifest["metadata"] == {
        "name": pod.metadata.name,
        "generateName": f"{replica_set.metadata.name}-",
        "namespace": "default",
        "uid": pod.metadata.uid,
        "creationTimestamp": "1970-01-01T00:00:00Z",
        "labels": {"app": "web", "pod-template-hash": replica_set.metadata.labels["pod-template-hash"]},
        "ownerReferences": [
            {
                "apiVersion": "apps/v1",
                "kind": "ReplicaSet",
                "name": replica_set.metadata.name,
                "uid": replica_set.metadata.uid,
                "controller": True,
                "blockOwnerDeletion": True,
            }
        ],
    }
    # As a v1.34 API server stores it: the ServiceAccount plugin's account and token volume, the
    # defaults of SetDefaults_Pod, SetDefaults_PodSpec and SetDefaults_Container, the Priority and
    # DefaultTolerationSeconds plugins' fields; in k8s.io/api's field order.
    token = pod.spec.volumes[0].name
    assert token.startswith("kube-api-access-") and len(token) == len("kube-api-access-") + 5
    spec = manifest["spec"]
    assert spec.pop("volumes") == [{"name": token, **token_volume_source()}]
    assert spec == {
        "containers": [
            {
                "name": "nginx",
                "image": "nginx:1.27",
                "resources": {"limits": {"memory": "256Mi"}, "requests": {"cpu": "500m", "memory": "256Mi"}},
                "volumeMounts": [
                    {"name": token, "readOnly": True, "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"}
                ],
                "terminationMessagePath": "/dev/termination-log",
                "terminationMessagePolicy": "File",
                "imagePullPolicy": "IfNotPresent",
            }
        ],
        "restartPolicy": "Always",
        "terminationGracePeriodSeconds": 30,
        "dnsPolicy": "ClusterFirst",
        "serviceAccountName": "default",
        "serviceAccount": "default",
        "nodeName": "n1",
        "securityContext": {},
        "schedulerName": "default-scheduler",
        "tolerations": [
            {"key": key, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}
            for key in ("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable")
        ],
        "priority": 0,
        "enableServiceLinks": True,
        "preemptionPolicy": "PreemptLowerPriority",
    }
    assert manifest["status"] == {
        "phase": "Running",
        "conditions": [
            {"type": "PodReadyToStartContainers", "status": "True", "lastTransitionTime": "1970-01-01T00:00:01Z"},
            {"type": "Initialized", "status": "True", "lastTransitionTime": "1970-01-01T00:00:01Z"},
            {"type": "Ready", "status": "True", "lastTransitionTime": "1970-01-01T00:00:01Z"},
            {"type": "ContainersReady", "status": "True", "lastTransitionTime": "1970-01-01T00:00:01Z"},
            {"type": "PodScheduled", "status": "True", "lastTransitionTime": "1970-01-01T00:00:00Z"},
        ],
        "startTime": "1970-01-01T00:00:01Z",
        "containerStatuses": [
            {
                "name": "nginx",
                "state": {"running": {"startedAt": "1970-01-01T00:00:01Z"}},
                "lastState": {},
                "ready": True,
                "restartCount": 0,
                "image": "nginx:1.27",
                "imageID": "",
                "started": True,
            }
        ],
        "qosClass": "Burstable",
    }


def test_a_pending_pod_says_why_the_scheduler_left_it(cluster: Cluster) -> None:
    pod = only(cluster, Pod, "big")
    failures = [e for e in cluster.events if e.reason == "FailedScheduling" and e.object.endswith("/big")]
    manifest = object_manifest(pod)
    assert "nodeName" not in manifest["spec"]
    assert manifest["status"] == {
        "phase": "Pending",
        "conditions": [
            {
                "type": "PodScheduled",
                "status": "False",
                "lastTransitionTime": "1970-01-01T00:00:00Z",
                "reason": "Unschedulable",
                "message": failures[-1].message,
            }
        ],
        "qosClass": "Burstable",
    }
    assert failures[-1].message.startswith("0/2 nodes are available:")


def test_a_deployment_with_its_conditions(cluster: Cluster) -> None:
    deployment = only(cluster, Deployment, "web")
    manifest = object_manifest(deployment)
    assert manifest["apiVersion"] == "apps/v1"
    assert manifest["metadata"]["generation"] == 1
    spec = dict(manifest["spec"])
    assert spec.pop("template")["metadata"] == {"labels": {"app": "web"}}
    assert spec == {
        "replicas": 1,
        "selector": {"matchLabels": {"app": "web"}},
        "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}},
        "revisionHistoryLimit": 10,
        "progressDeadlineSeconds": 600,
    }
    replica_set = only(cluster, ReplicaSet, "web-")
    assert manifest["status"] == {
        "observedGeneration": 1,
        "replicas": 1,
        "updatedReplicas": 1,
        "readyReplicas": 1,
        "availableReplicas": 1,
        "conditions": [
            {
                "type": "Available",
                "status": "True",
                "lastUpdateTime": "1970-01-01T00:00:01Z",
                "lastTransitionTime": "1970-01-01T00:00:01Z",
                "reason": "MinimumReplicasAvailable",
                "message": "Deployment has minimum availability.",
            },
            {
                "type": "Progressing",
                "status": "True",
                "lastUpdateTime": "1970-01-01T00:00:01Z",
                "lastTransitionTime": "1970-01-01T00:00:00Z",
                "reason": "NewReplicaSetAvailable",
                "message": f'ReplicaSet "{replica_set.metadata.name}" has successfully progressed.',
            },
        ],
    }


def test_a_job_that_completed(cluster: Cluster) -> None:
    manifest = object_manifest(only(cluster, Job, "hello"))
    assert manifest["spec"]["parallelism"] == 1
    assert manifest["spec"]["completions"] == 1
    assert manifest["spec"]["backoffLimit"] == 6
    assert manifest["spec"]["completionMode"] == "NonIndexed"
    assert manifest["spec"]["suspend"] is False
    done = {"lastProbeTime": "1970-01-01T00:00:07Z", "lastTransitionTime": "1970-01-01T00:00:07Z"}
    reached = {"reason": "CompletionsReached", "message": "Reached expected number of succeeded pods"}
    assert manifest["status"] == {
        "conditions": [
            {"type": "SuccessCriteriaMet", "status": "True", **done, **reached},
            {"type": "Complete", "status": "True", **done, **reached},
        ],
        "startTime": "1970-01-01T00:00:00Z",
        "completionTime": "1970-01-01T00:00:07Z",
        "succeeded": 1,
        "terminating": 0,  # pointers every sync sets: written at 0 too
        "ready": 0,
    }
    assert list(manifest["status"])[-3:] == ["succeeded", "terminating", "ready"]  # JobStatus's order
    pod = object_manifest(only(cluster, Pod, "hello-"))
    assert pod["status"]["containerStatuses"][0]["state"] == {
        "terminated": {
            "exitCode": 0,
            "reason": "Completed",
            "startedAt": "1970-01-01T00:00:01Z",
            "finishedAt": "1970-01-01T00:00:06Z",
        }
    }


def test_a_cordoned_node_with_a_taint(cluster: Cluster) -> None:
    node = only(cluster, Node, "n2")
    at_creation = {"lastHeartbeatTime": "1970-01-01T00:00:00Z", "lastTransitionTime": "1970-01-01T00:00:00Z"}
    assert object_manifest(node) == {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": "n2", "uid": node.metadata.uid, "creationTimestamp": "1970-01-01T00:00:00Z"},
        "spec": {"unschedulable": True, "taints": [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]},
        "status": {
            "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"},
            "allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"},
            # The kubelet's conditions as it posted them when the node was created (in its setters' order).
            "conditions": [
                {"type": kind, "status": status, **at_creation, "reason": reason, "message": f"kubelet {message}"}
                for kind, status, reason, message in (
                    ("MemoryPressure", "False", "KubeletHasSufficientMemory", "has sufficient memory available"),
                    ("DiskPressure", "False", "KubeletHasNoDiskPressure", "has no disk pressure"),
                    ("PIDPressure", "False", "KubeletHasSufficientPID", "has sufficient PID available"),
                    ("Ready", "True", "KubeletReady", "is posting ready status"),
                )
            ],
            "images": [{"names": ["nginx:1.27"], "sizeBytes": 70000000}],
        },
    }


def test_a_node_not_ready_says_its_kubelet_stopped_posting() -> None:
    taint = Taint("node.kubernetes.io/unreachable", "NoExecute", time_added=42.25)
    node = Node(
        ObjectMeta("n1", uid="u"),
        NodeSpec(taints=(taint,)),
        NodeStatus(capacity={"cpu": 1500}, allocatable={"cpu": 1500}, images=(ContainerImage(("a",)),), ready=False),
    )
    manifest = object_manifest(node)
    at_creation = {"lastHeartbeatTime": "1970-01-01T00:00:00Z", "lastTransitionTime": "1970-01-01T00:00:00Z"}
    assert manifest["spec"] == {
        "taints": [
            {"key": "node.kubernetes.io/unreachable", "effect": "NoExecute", "timeAdded": "1970-01-01T00:00:42.25Z"}
        ]
    }
    assert manifest["status"] == {
        "capacity": {"cpu": "1500m"},
        "allocatable": {"cpu": "1500m"},
        "conditions": [
            {"type": "MemoryPressure", "status": "False", **at_creation, "reason": "KubeletHasSufficientMemory",
             "message": "kubelet has sufficient memory available"},
            {"type": "DiskPressure", "status": "False", **at_creation, "reason": "KubeletHasNoDiskPressure",
             "message": "kubelet has no disk pressure"},
            {"type": "PIDPressure", "status": "False", **at_creation, "reason": "KubeletHasSufficientPID",
             "message": "kubelet has sufficient PID available"},
            # `ready` False without a Ready condition written: the node lifecycle controller's Unknown.
            {"type": "Ready", "status": "Unknown", "lastHeartbeatTime": "1970-01-01T00:00:00Z",
             "reason": "NodeStatusUnknown", "message": "Kubelet stopped posting node status."},
        ],
        "images": [{"names": ["a"]}],
    }  # fmt: skip


def test_a_pod_disruption_budget(cluster: Cluster) -> None:
    pdb = only(cluster, PodDisruptionBudget, "web")
    assert object_manifest(pdb) == {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {
            "name": "web",
            "namespace": "default",
            "uid": pdb.metadata.uid,
            "generation": 1,
            "creationTimestamp": "1970-01-01T00:00:00Z",
        },
        "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "web"}}},
        "status": {
            "observedGeneration": 1,
            "disruptionsAllowed": 0,
            "currentHealthy": 1,
            "desiredHealthy": 1,
            "expectedPods": 1,
            "conditions": [
                {
                    "type": "DisruptionAllowed",
                    "status": "False",
                    "observedGeneration": 1,
                    "lastTransitionTime": "1970-01-01T00:00:00Z",
                    "reason": "InsufficientPods",
                    "message": "",
                }
            ],
        },
    }


def test_disrupted_pods_are_named_with_the_time_they_were_evicted() -> None:
    status = PodDisruptionBudgetStatus(disrupted_pods={"web-2": 3.0, "web-1": 12.5})
    manifest = object_manifest(PodDisruptionBudget(ObjectMeta("web", "default"), status=status))
    assert manifest["status"]["disruptedPods"] == {"web-1": "1970-01-01T00:00:12.5Z", "web-2": "1970-01-01T00:00:03Z"}


def test_statuses_the_api_omits_when_empty() -> None:
    for obj in (
        Deployment(ObjectMeta("d", "default"), spec=_spec_of(Deployment), status=DeploymentStatus()),
        Job(ObjectMeta("j", "default"), spec=_spec_of(Job), status=JobStatus()),
        CronJob(ObjectMeta("c", "default"), spec=_spec_of(CronJob), status=CronJobStatus()),
    ):
        assert object_manifest(obj)["status"] == {}, obj.kind
    assert object_manifest(ReplicaSet(ObjectMeta("r", "default"), _spec_of(ReplicaSet), ReplicaSetStatus()))[
        "status"
    ] == {"replicas": 0}
    assert object_manifest(StatefulSet(ObjectMeta("s", "default"), _spec_of(StatefulSet), StatefulSetStatus()))[
        "status"
    ] == {"replicas": 0, "availableReplicas": 0}
    assert object_manifest(DaemonSet(ObjectMeta("d", "default"), _spec_of(DaemonSet), DaemonSetStatus()))["status"] == {
        "currentNumberScheduled": 0,
        "numberMisscheduled": 0,
        "desiredNumberScheduled": 0,
        "numberReady": 0,
    }
    hpa = object_manifest(HorizontalPodAutoscaler(ObjectMeta("h", "default"), _spec_of(HorizontalPodAutoscaler)))
    assert hpa["status"] == {"desiredReplicas": 0}
    claim = object_manifest(PersistentVolumeClaim(ObjectMeta("c", "default"), status=PersistentVolumeClaimStatus()))
    assert claim["status"] == {"phase": "Pending"}


def test_new_status_fields_come_in_the_apis_order() -> None:
    """Each status as k8s.io/api orders its fields, the pointers set by every sync written at 0."""
    stateful_set = StatefulSet(
        ObjectMeta("s", "default"),
        _spec_of(StatefulSet),
        StatefulSetStatus(observed_generation=2, replicas=1, current_revision="s-1", collision_count=0),
    )
    assert object_manifest(stateful_set)["status"] == {
        "observedGeneration": 2,
        "replicas": 1,
        "currentRevision": "s-1",
        "collisionCount": 0,
        "availableReplicas": 0,
    }
    daemon_set = DaemonSet(
        ObjectMeta("d", "default"),
        _spec_of(DaemonSet),
        DaemonSetStatus(desired_number_scheduled=2, number_unavailable=2, observed_generation=3),
    )
    assert list(object_manifest(daemon_set)["status"].items()) == [
        ("currentNumberScheduled", 0),
        ("numberMisscheduled", 0),
        ("desiredNumberScheduled", 2),
        ("numberReady", 0),
        ("observedGeneration", 3),
        ("numberUnavailable", 2),
    ]
    job = Job(
        ObjectMeta("j", "default"),
        _spec_of(Job),
        JobStatus(active=2, ready=1, terminating=0, completed_indexes="0,2-4"),
    )
    assert list(object_manifest(job)["status"].items()) == [
        ("active", 2),
        ("terminating", 0),
        ("completedIndexes", "0,2-4"),
        ("ready", 1),
    ]
    cron_job = CronJob(ObjectMeta("c", "shop"), _spec_of(CronJob), CronJobStatus(active=(JobReference("c-1", "u-1"),)))
    assert object_manifest(cron_job)["status"]["active"] == [
        {"kind": "Job", "namespace": "shop", "name": "c-1", "uid": "u-1", "apiVersion": "batch/v1"}
    ]


def test_a_failed_metric_is_an_empty_entry_and_memory_is_written_in_decimal_units() -> None:
    """MetricStatus's zero value for a metric that could not be computed; averageValue as
    resource.NewMilliQuantity(..., DecimalSI) writes it."""
    status = HorizontalPodAutoscalerStatus(
        current_metrics=(MetricStatus(), MetricStatus("memory", average_value=300_000_000), MetricStatus("cpu", 1500))
    )
    manifest = object_manifest(
        HorizontalPodAutoscaler(ObjectMeta("h", "default"), _spec_of(HorizontalPodAutoscaler), status)
    )
    assert manifest["status"]["currentMetrics"] == [
        {"type": ""},
        {"type": "Resource", "resource": {"name": "memory", "current": {"averageValue": "300M"}}},
        {"type": "Resource", "resource": {"name": "cpu", "current": {"averageValue": "1500m"}}},
    ]


def test_a_budgets_observed_generation_is_read_back() -> None:
    (budget,) = [m.object for m in load_manifests(RICH) if isinstance(m.object, PodDisruptionBudget)]
    assert (budget.generation, budget.status.observed_generation) == (1, 3)
    assert object_manifest(budget)["status"]["observedGeneration"] == 3


def test_an_hpa_reports_the_utilization_it_measured() -> None:
    spec = _spec_of(HorizontalPodAutoscaler)
    measured = MetricStatus("cpu", average_value=475, average_utilization=95)
    status = HorizontalPodAutoscalerStatus(
        current_replicas=2, desired_replicas=3, current_metrics=(measured,), last_scale_time=30.0
    )
    manifest = object_manifest(HorizontalPodAutoscaler(ObjectMeta("h", "default"), spec, status))
    assert manifest["spec"] == {
        "scaleTargetRef": {"kind": "Deployment", "name": "web", "apiVersion": "apps/v1"},
        "minReplicas": 1,
        "maxReplicas": 5,
        "metrics": [
            {
                "type": "Resource",
                "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}},
            }
        ],
    }
    assert manifest["status"] == {
        "lastScaleTime": "1970-01-01T00:00:30Z",
        "currentReplicas": 2,
        "desiredReplicas": 3,
        "currentMetrics": [
            {
                "type": "Resource",
                "resource": {"name": "cpu", "current": {"averageValue": "475m", "averageUtilization": 95}},
            }
        ],
    }


def _spec_of(kind: type) -> Any:
    """A minimal spec of the kind, read from a manifest (its defaults as the parser sets them)."""
    template = "{metadata: {labels: {app: a}}, spec: {containers: [{name: c}]}}"
    workload = f"{{selector: {{matchLabels: {{app: a}}}}, template: {template}}}"
    job = "{template: {spec: {restartPolicy: Never, containers: [{name: c}]}}}"
    specs = {
        "Deployment": ("apps/v1", workload),
        "ReplicaSet": ("apps/v1", workload),
        "StatefulSet": ("apps/v1", workload),
        "DaemonSet": ("apps/v1", workload),
        "Job": ("batch/v1", job),
        "CronJob": ("batch/v1", f"{{schedule: '* * * * *', jobTemplate: {{spec: {job}}}}}"),
        "HorizontalPodAutoscaler": (
            "autoscaling/v2",
            "{scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, maxReplicas: 5}",
        ),
    }
    api_version, spec = specs[kind.kind]
    (manifest,) = load_manifests(f"apiVersion: {api_version}\nkind: {kind.kind}\nmetadata: {{name: x}}\nspec: {spec}\n")
    return manifest.object.spec
