"""`kubectl describe pod` as kubectl v1.34 prints it. The first cases are kubectl's own tests
(staging/src/k8s.io/kubectl/pkg/describe/describe_test.go at kubernetes-1.34.5: TestDescribePod,
TestDescribePodServiceAccount, TestDescribePodEphemeralContainers, TestDescribePodNode,
TestDescribePodTolerations, TestDescribePodVolumes, TestDescribeTopologySpreadConstraints,
TestDescribePodPriority, TestDescribePodRuntimeClass, TestPodDescribeResultsSorted,
TestDescribeResources, TestDescribeContainerPorts, TestDescribeContainers, TestDescribeEvents,
TestDescribeTerminalEscape, TestDescribeSeccompProfile, TestDescribeProjectedVolumesOptionalSecret)
on the pods' manifests; then pods of scenario runs. tests/web/kubeapi/test_describe_pod_vs_kubectl.py
compares the text with the real kubectl's against the API."""

import random
from datetime import UTC, datetime
from typing import Any

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Pod
from scheduler_core.explain.describe_pod_text import (
    EventFields,
    containers_lines,
    describe_pod_manifest,
    pod_text,
    ports_text,
    resource_lines,
)
from scheduler_core.explain.go_sort import go_sorted
from scheduler_core.explain.tabwriter import tabbed
from scheduler_core.simulation.simulation import Simulation
from tests.core.controllers.node_health_helpers import DATA

CLOCK = datetime(2026, 3, 1, tzinfo=UTC).timestamp()  # kubectl's "now" in the manifest cases
YEAR = 365 * 24 * 3600


def described(pod: dict[str, Any], events: list[EventFields] | None = None) -> str:
    return describe_pod_manifest(pod, [] if events is None else events, CLOCK)


def bar(**spec: Any) -> dict[str, Any]:
    """kubectl's test pod foo/bar with this spec."""
    return {"metadata": {"name": "bar", "namespace": "foo"}, "spec": spec}


# ---------------------------------------------------------------------------- kubectl's own cases


@pytest.mark.parametrize(
    ("phase", "wanted"),
    [
        ("Running", ["Status:", "Terminating (lasts 10y)", "Termination Grace Period", "1234s"]),
        ("Pending", ["Terminating (lasts 10y)", "Termination Grace Period", "1234s"]),
        ("Succeeded", ["Status:       Succeeded\n"]),
        ("Failed", ["Failed"]),
    ],
)
def test_describe_pod_terminating_unless_it_ended(phase: str, wanted: list[str]) -> None:
    deleted = datetime.fromtimestamp(CLOCK - 10 * YEAR - 3 * 24 * 3600, UTC).isoformat().replace("+00:00", "Z")
    pod = {
        "metadata": {
            "name": "pod1",
            "namespace": "ns1",
            "deletionTimestamp": deleted,
            "deletionGracePeriodSeconds": 1234,
        },
        "spec": {"readinessGates": [{"conditionType": "condition1"}, {"conditionType": "condition2"}]},
        "status": {"phase": phase, "conditions": [{"type": "condition1", "status": "True"}]},
    }
    text = described(pod)
    assert all(want in text for want in wanted), text
    assert ("Terminating" in text) == (phase in ("Running", "Pending"))
    # Readiness Gates: each gate's condition, <none> for a condition the pod does not have.
    assert "Readiness Gates:\n  Type         Status\n  condition1   True \n  condition2   <none> \n" in text


def test_describe_pod_service_account() -> None:
    assert "Service Account:  fooaccount\n" in described(bar(serviceAccountName="fooaccount"))


def test_describe_pod_ephemeral_containers() -> None:
    pod = bar(ephemeralContainers=[{"name": "debugger", "image": "busybox"}])
    pod["status"] = {
        "ephemeralContainerStatuses": [
            {"name": "debugger", "state": {"running": {"startedAt": "2026-02-28T23:59:00Z"}}, "ready": False}
        ]
    }
    text = described(pod)
    assert "Ephemeral Containers:\n  debugger:\n" in text
    assert "    Image:          busybox\n" in text
    assert "      Started:      Sat, 28 Feb 2026 23:59:00 +0000\n" in text


def test_describe_pod_node() -> None:
    pod = bar(nodeName="all-in-one")
    pod["status"] = {"hostIP": "127.0.0.1", "nominatedNodeName": "nodeA"}
    text = described(pod)
    assert "Node:               all-in-one/127.0.0.1\n" in text
    assert "NominatedNodeName:  nodeA\n" in text


def test_describe_pod_tolerations() -> None:
    tolerations = [
        {"operator": "Exists"},
        {"effect": "NoSchedule", "operator": "Exists"},
        {"key": "key0", "operator": "Exists"},
        {"key": "key1", "value": "value1"},
        {"key": "key2", "operator": "Equal", "value": "value2", "effect": "NoSchedule"},
        {"key": "key3", "value": "value3", "effect": "NoExecute", "tolerationSeconds": 300},
        {"key": "key4", "effect": "NoExecute", "tolerationSeconds": 60},
    ]
    text = described(bar(tolerations=tolerations))
    for want in (
        "  op=Exists\n",
        ":NoSchedule op=Exists\n",
        "key0 op=Exists\n",
        "key1=value1\n",
        "key2=value2:NoSchedule\n",
        "key3=value3:NoExecute for 300s\n",
        "key4:NoExecute for 60s\n",
        "Tolerations:",
    ):
        assert want in text, text


def test_describe_pod_volumes_whole_text() -> None:
    pod = bar(volumes=[{"name": "image", "image": {"reference": "image", "pullPolicy": "IfNotPresent"}}])
    assert described(pod) == (
        "Name:         bar\n"
        "Namespace:    foo\n"
        "Node:         <none>\n"
        "Labels:       <none>\n"
        "Annotations:  <none>\n"
        "Status:       \n"
        "IP:           \n"
        "IPs:          <none>\n"
        "Containers: <none>\n"
        "Volumes:\n"
        "  image:\n"
        "    Type:        Image (a container image or OCI artifact)\n"
        "    Reference:   image\n"
        "    PullPolicy:  IfNotPresent\n"
        "QoS Class:       BestEffort\n"
        "Node-Selectors:  <none>\n"
        "Tolerations:     <none>\n"
        "Events:          <none>\n"
    )


def test_describe_topology_spread_constraints() -> None:
    constraints = [
        {
            "maxSkew": 3,
            "topologyKey": "topology.kubernetes.io/test1",
            "whenUnsatisfiable": "DoNotSchedule",
            "labelSelector": {"matchLabels": {"key1": "val1", "key2": "val2"}},
        },
        {"maxSkew": 1, "topologyKey": "topology.kubernetes.io/test2", "whenUnsatisfiable": "ScheduleAnyway"},
    ]
    text = described(bar(topologySpreadConstraints=constraints[::-1]))  # printed by topology key
    assert (
        "Topology Spread Constraints:  topology.kubernetes.io/test1:DoNotSchedule when max skew 3 is exceeded "
        "for selector key1=val1,key2=val2\n"
        "                              topology.kubernetes.io/test2:ScheduleAnyway when max skew 1 is exceeded\n"
    ) in text


def test_describe_pod_priority() -> None:
    text = described({"metadata": {"name": "bar"}, "spec": {"priorityClassName": "high-priority", "priority": 1000}})
    assert "Priority:             1000\nPriority Class Name:  high-priority\n" in text


@pytest.mark.parametrize(("runtime_class", "shown"), [("test1", True), ("", False), (None, False)])
def test_describe_pod_runtime_class(runtime_class: str | None, shown: bool) -> None:
    spec = {} if runtime_class is None else {"runtimeClassName": runtime_class}
    text = described({"metadata": {"name": "bar"}, "spec": spec})
    assert ("Runtime Class Name:  test1\n" in text) == shown
    assert ("Runtime Class Name" in text) == shown


def kubelet_event(message: str, when: datetime) -> EventFields:
    seconds = when.timestamp()
    return EventFields("Normal", "", message, "kubelet", first_timestamp=seconds, last_timestamp=seconds, count=1)


def test_pod_describe_results_sorted_by_last_timestamp() -> None:
    events = [
        kubelet_event("Item 1", datetime(2014, 1, 15, tzinfo=UTC)),
        kubelet_event("Item 2", datetime(1987, 6, 17, tzinfo=UTC)),
        kubelet_event("Item 3", datetime(2002, 12, 25, tzinfo=UTC)),
    ]
    text = described(bar(), events)
    messages = [line.split()[-1] for line in text.splitlines() if "Item" in line]
    assert messages == ["2", "3", "1"]  # "Item 2" (1987), "Item 3" (2002), "Item 1" (2014)


@pytest.mark.parametrize(
    ("resources", "counts"),
    [
        ({}, {}),
        (
            {"requests": {"cpu": "1k", "memory": "100Mi"}, "limits": {"cpu": "1k", "memory": "100Mi"}},
            {"cpu": 2, "memory": 2, "Requests": 1, "Limits": 1, "1k": 2, "100Mi": 2},
        ),
        ({"limits": {"cpu": "1k", "memory": "100Mi"}}, {"cpu": 1, "memory": 1, "Limits": 1, "1k": 1, "100Mi": 1}),
        ({"requests": {"cpu": "1k", "memory": "100Mi"}}, {"cpu": 1, "memory": 1, "Requests": 1, "1k": 1, "100Mi": 1}),
    ],
)
def test_describe_resources(resources: dict[str, Any], counts: dict[str, int]) -> None:
    output = "\n".join(resource_lines(resources, "  "))
    assert {key: output.count(key) for key in counts} == counts
    assert bool(output) == bool(counts)


@pytest.mark.parametrize(
    ("ports", "container", "host"),
    [
        ([], "", ""),
        (
            [{"name": "web", "containerPort": 8080, "hostPort": 8080, "protocol": "TCP"}],
            "8080/TCP (web)",
            "8080/TCP (web)",
        ),
        ([{"containerPort": 8080, "hostPort": 8080, "protocol": "TCP"}], "8080/TCP", "8080/TCP"),
        (
            [
                {"name": "controller", "containerPort": 9093, "hostPort": 9093, "protocol": "TCP"},
                {"containerPort": 9092, "protocol": "TCP"},
                {"name": "interbroker", "containerPort": 9094, "hostPort": 9094, "protocol": "TCP"},
            ],
            "9093/TCP (controller), 9092/TCP, 9094/TCP (interbroker)",
            "9093/TCP (controller), 0/TCP, 9094/TCP (interbroker)",
        ),
    ],
)
def test_describe_container_ports(ports: list[dict[str, Any]], container: str, host: str) -> None:
    assert (ports_text(ports, "containerPort"), ports_text(ports, "hostPort")) == (container, host)


NOW_TEXT = "2026-02-28T23:59:00Z"
RUNNING = {"running": {"startedAt": NOW_TEXT}}


@pytest.mark.parametrize(
    ("container", "status", "wanted"),
    [
        (
            {},
            {"state": RUNNING, "ready": True, "restartCount": 7},
            ["test", "State", "Running", "Ready", "True", "Restart Count", "7", "Image", "image", "Started"],
        ),
        (
            {},
            {"state": {"waiting": {"reason": "potato"}}, "ready": True, "restartCount": 7},
            ["State:          Waiting\n      Reason:       potato\n"],
        ),
        (
            {},
            {
                "state": {
                    "terminated": {"startedAt": NOW_TEXT, "finishedAt": NOW_TEXT, "reason": "potato", "exitCode": 2}
                },
                "ready": True,
                "restartCount": 7,
            },
            ["Terminated", "Reason:       potato", "Exit Code:    2", "Started", "Finished"],
        ),
        (
            {},
            {
                "state": RUNNING,
                "lastState": {
                    "terminated": {"startedAt": NOW_TEXT, "finishedAt": NOW_TEXT, "reason": "crashing", "exitCode": 3}
                },
                "ready": True,
                "restartCount": 7,
            },
            ["Last State:     Terminated\n      Reason:       crashing\n      Exit Code:    3\n"],
        ),
        ({}, {"ready": True, "restartCount": 7}, ["State:          Waiting\n    Ready:          True\n"]),
        (
            {"env": [{"name": "envname", "value": "xyz"}], "envFrom": [{"configMapRef": {"name": "a123"}}]},
            {},
            ["envname", "xyz", "a123\tConfigMap\tOptional: false"],
        ),
        (
            {
                "env": [{"name": "envname", "value": "xyz"}],
                "envFrom": [{"prefix": "p_", "configMapRef": {"name": "a123"}}],
            },
            {},
            ["a123\tConfigMap with prefix 'p_'\tOptional: false"],
        ),
        ({"envFrom": [{"configMapRef": {"name": "a123", "optional": True}}]}, {}, ["a123\tConfigMap\tOptional: true"]),
        ({"envFrom": [{"secretRef": {"name": "a123", "optional": True}}]}, {}, ["a123\tSecret\tOptional: true"]),
        (
            {"envFrom": [{"prefix": "p_", "secretRef": {"name": "a123"}}]},
            {},
            ["a123\tSecret with prefix 'p_'\tOptional: false"],
        ),
        ({"command": ["sleep", "1000"]}, {}, ["Command:\n      sleep\n      1000\n"]),
        ({"command": ["sleep", "1000\n2000"]}, {}, ["1000\n      2000"]),
        ({"args": ["time", "1000"]}, {}, ["Args:\n      time\n      1000\n"]),
        ({"args": ["time", "1000\n2000"]}, {}, ["1000\n      2000"]),
        (
            {"resources": {"limits": {"cpu": "1k", "memory": "4G", "storage": "20G"}}},
            {},
            ["cpu", "1k", "memory", "4G", "storage", "20G"],
        ),
        ({"volumeMounts": [{"name": "mounted-volume", "mountPath": "/opt/"}]}, {}, ["/opt/ from mounted-volume (rw)"]),
        (
            {"volumeMounts": [{"name": "mounted-volume", "mountPath": "/opt/", "readOnly": True}]},
            {},
            ["Mounts", "/opt/ from mounted-volume (ro)"],
        ),
        (
            {"volumeMounts": [{"name": "mounted-volume", "mountPath": "/opt/", "subPath": "foo"}]},
            {},
            ['/opt/ from mounted-volume (rw,path="foo")'],
        ),
        (
            {"volumeDevices": [{"name": "volume-device", "devicePath": "/dev/xvda"}]},
            {},
            ["Devices:\t<none>", "/dev/xvda from volume-device"],
        ),
    ],
)
def test_describe_containers(container: dict[str, Any], status: dict[str, Any], wanted: list[str]) -> None:
    """Each output as kubectl's PrefixWriter writes it (tabs kept), but for the tabbed blocks
    checked after alignment."""
    container = {"name": "test", "image": "image", **container}
    statuses = [{"name": "test", **status}] if status else []
    pod = {"spec": {"containers": [container]}, "status": {"containerStatuses": statuses}}
    raw = "\n".join(containers_lines("Containers", [container], statuses, pod)) + "\n"
    output = raw + tabbed(raw)
    for want in wanted:
        assert want in output, output


def test_a_container_without_its_status_has_no_state_nor_ids() -> None:
    """The kubelet has not reported it (a pod not bound yet): no Container ID, Image ID, State,
    Ready or Restart Count."""
    container = {"name": "test", "image": "image"}
    text = tabbed("\n".join(containers_lines("Containers", [container], [], {})) + "\n")
    assert text == (
        "Containers:\n"
        "  test:\n"
        "    Image:        image\n"
        "    Port:         <none>\n"
        "    Host Port:    <none>\n"
        "    Environment:  <none>\n"
        "    Mounts:       <none>\n"
    )


def test_describe_events_of_both_reporters() -> None:
    """An event of client-go's recorder (count 1) and one of events.k8s.io's (a series of 1)."""
    at = datetime(2014, 1, 15, tzinfo=UTC).timestamp()
    events = [
        EventFields("Normal", "", "Item 1", "kubelet", first_timestamp=at, last_timestamp=at, count=1),
        EventFields("Normal", "", "Item 1", "kubelet", event_time=at, series=(1, at)),
    ]
    text = described(bar(), events)
    assert "Events:\n  Type    Reason  Age                From     Message\n" in text
    # The series comes first: it has no lastTimestamp.
    assert (
        "  Normal          12y (x1 over 12y)  kubelet  Item 1\n  Normal          12y                kubelet  Item 1\n"
        in text
    )
    assert "Events:          <none>\n" in described(bar(), [])
    assert "Events:" not in describe_pod_manifest(bar(), None, CLOCK)  # ShowEvents false


def test_describe_terminal_escape() -> None:
    pod = {"metadata": {"name": "mycm", "namespace": "foo", "annotations": {"annotation1": "terminal escape: \x1b"}}}
    text = described(pod)
    assert "\x1b" not in text and "annotation1: terminal escape: ^[\n" in text


@pytest.mark.parametrize(
    ("spec", "wanted"),
    [
        (
            {"securityContext": {"seccompProfile": {"type": "Localhost", "localhostProfile": "lauseafoodpod"}}},
            "SeccompProfile:    Localhost\nLocalhostProfile:  lauseafoodpod\n",
        ),
        ({"securityContext": {"seccompProfile": {"type": "RuntimeDefault"}}}, "SeccompProfile:  RuntimeDefault\n"),
        (
            {
                "containers": [
                    {
                        "name": "c",
                        "securityContext": {
                            "seccompProfile": {"type": "Localhost", "localhostProfile": "tikkamasalaconatiner"}
                        },
                    }
                ]
            },
            "    SeccompProfile:      Localhost\n      LocalhostProfile:  tikkamasalaconatiner\n",
        ),
        (
            {"containers": [{"name": "c", "securityContext": {"seccompProfile": {"type": "Unconfined"}}}]},
            "    SeccompProfile:  Unconfined\n",
        ),
        (
            {
                "ephemeralContainers": [
                    {
                        "name": "e",
                        "securityContext": {
                            "seccompProfile": {"type": "Localhost", "localhostProfile": "dropshotephemeral"}
                        },
                    }
                ]
            },
            "      LocalhostProfile:  dropshotephemeral\n",
        ),
    ],
)
def test_describe_seccomp_profile(spec: dict[str, Any], wanted: str) -> None:
    text = described({"metadata": {}, "spec": spec})
    assert wanted in text, text


def test_describe_projected_volumes_optional_secret() -> None:
    volume = {
        "name": "optional-secret",
        "projected": {"sources": [{"secret": {"name": "optional-secret", "optional": True}}]},
    }
    assert "SecretName:  optional-secret\n    Optional:    true" in described(bar(volumes=[volume]))


# ---------------------------------------------------------------------------- the rest of the port


def test_volumes_of_a_claim_and_of_an_unknown_source() -> None:
    """The engine serves a claim's volume with its claim, any other with its name alone."""
    volumes = [{"name": "data", "persistentVolumeClaim": {"claimName": "data-0"}}, {"name": "cache"}]
    assert (
        "Volumes:\n"
        "  data:\n"
        "    Type:       PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n"
        "    ClaimName:  data-0\n"
        "    ReadOnly:   false\n"
        "  cache:\n"
        "  <unknown>\n"
        "QoS Class:"
    ) in described(bar(volumes=volumes))


@pytest.mark.parametrize(
    ("probe", "printed"),
    [
        (
            {"periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3},
            "unknown delay=0s timeout=0s period=10s #success=1 #failure=3",
        ),
        (
            {"httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"}, "timeoutSeconds": 1, "periodSeconds": 10},
            "http-get http://:8080/healthz delay=0s timeout=1s period=10s #success=0 #failure=0",
        ),
        (
            {"tcpSocket": {"port": "http"}, "initialDelaySeconds": 5},
            "tcp-socket :http delay=5s timeout=0s period=0s #success=0 #failure=0",
        ),
        (
            {"exec": {"command": ["cat", "/tmp/ready"]}},
            "exec [cat /tmp/ready] delay=0s timeout=0s period=0s #success=0 #failure=0",
        ),
        (
            {"grpc": {"port": 9000, "service": "health"}},
            "grpc <pod>:9000 health delay=0s timeout=0s period=0s #success=0 #failure=0",
        ),
    ],
)
def test_probes_as_describe_probe_words_them(probe: dict[str, Any], printed: str) -> None:
    text = described(bar(containers=[{"name": "c", "readinessProbe": probe, "livenessProbe": probe}]))
    assert f"    Liveness:     {printed}\n    Readiness:    {printed}\n" in text


@pytest.mark.parametrize(
    ("spec", "qos"),
    [
        ({"containers": [{"name": "c"}]}, "BestEffort"),
        (
            {
                "containers": [
                    {
                        "name": "c",
                        "resources": {
                            "limits": {"cpu": "1", "memory": "1Gi"},
                            "requests": {"cpu": "1", "memory": "1Gi"},
                        },
                    }
                ]
            },
            "Guaranteed",
        ),
        ({"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}, "Burstable"),
        ({"containers": [{"name": "c", "resources": {"requests": {"example.com/gpu": "1"}}}]}, "BestEffort"),
        ({"resources": {"limits": {"cpu": "1", "memory": "1Gi"}}, "containers": [{"name": "c"}]}, "Burstable"),
        (
            {"resources": {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "1", "memory": "1Gi"}}},
            "Guaranteed",
        ),
    ],
)
def test_the_qos_class_computed_when_the_status_has_none(spec: dict[str, Any], qos: str) -> None:
    assert qos_of(described(bar(**spec))) == qos
    assert qos_of(described({**bar(**spec), "status": {"qosClass": "Burstable"}})) == "Burstable"


def qos_of(text: str) -> str:
    return next(line.split()[-1] for line in text.splitlines() if line.startswith("QoS Class:"))


def test_go_sort_keeps_short_lists_in_order_and_sorts_long_ones() -> None:
    """Up to 12 items an insertion sort (stable); past that pdqsort, which sorts but may reorder
    equal items."""
    items = [(key, index) for index, key in enumerate([3, 1, 2, 1, 3, 0, 2, 1, 0, 3, 2, 1])]
    assert go_sorted(items, lambda a, b: a[0] < b[0]) == sorted(items, key=lambda item: item[0])
    rng = random.Random(7)
    for length in (13, 40, 64, 200):
        values = [rng.randrange(5) for _ in range(length)]
        result = go_sorted(list(enumerate(values)), lambda a, b: a[1] < b[1])
        assert [value for _, value in result] == sorted(values)
        assert sorted(result) == list(enumerate(values))
    assert go_sorted(list(range(100, 0, -1)), lambda a, b: a < b) == list(range(1, 101))


# ---------------------------------------------------------------------------- scenario runs


def simulate(text: str, until: float | None = None) -> Simulation:
    simulation = Simulation(load_manifests(text))
    simulation.run_to_end(until)
    return simulation


def pod_of(simulation: Simulation, key: str) -> Pod:
    pod = simulation.cluster.get(Pod, key)
    assert pod is not None
    return pod


PENDING = """
apiVersion: v1
kind: Node
metadata: {name: small, labels: {kubernetes.io/hostname: small}}
status: {capacity: {cpu: "1", memory: 2Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: big, labels: {app: big}}
spec:
  containers: [{name: app, image: app:1, resources: {requests: {cpu: "2"}}}]
"""


def test_a_pending_pod_with_its_failed_scheduling_events() -> None:
    simulation = simulate(PENDING, until=600)
    pod = pod_of(simulation, "default/big")
    text = pod_text(simulation.cluster, pod, simulation.now)
    token = pod.spec.volumes[0].name  # the ServiceAccount admission plugin's volume
    assert text.startswith(
        "Name:             big\n"
        "Namespace:        default\n"
        "Priority:         0\n"
        "Service Account:  default\n"
        "Node:             <none>\n"
        "Labels:           app=big\n"
        "Annotations:      <none>\n"
        "Status:           Pending\n"
        "IP:               \n"
        "IPs:              <none>\n"
        "Containers:\n"
        "  app:\n"
        "    Image:      app:1\n"
        "    Port:       <none>\n"
        "    Host Port:  <none>\n"
        "    Requests:\n"
        "      cpu:        2\n"
        "    Environment:  <none>\n"
        "    Mounts:\n"
        f"      /var/run/secrets/kubernetes.io/serviceaccount from {token} (ro)\n"
        "Conditions:\n"
        "  Type           Status\n"
        "  PodScheduled   False \n"
        "Volumes:\n"
        f"  {token}:\n"
        "    Type:                    Projected (a volume that contains injected data from multiple sources)\n"
        "    TokenExpirationSeconds:  3607\n"
        "    ConfigMapName:           kube-root-ca.crt\n"
        "    Optional:                false\n"
        "    DownwardAPI:             true\n"
        "QoS Class:                   Burstable\n"
        "Node-Selectors:              <none>\n"
        "Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n"
        "                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s\n"
        "Events:\n"
    )
    (row,) = [line for line in text.splitlines() if "FailedScheduling" in line]
    assert row.split()[:2] == ["Warning", "FailedScheduling"]
    assert "default-scheduler  0/1 nodes are available: 1 Insufficient cpu." in row


DEPLOYMENT = """
apiVersion: v1
kind: Node
metadata: {name: worker1, labels: {kubernetes.io/hostname: worker1, disk: ssd}}
spec: {taints: [{key: dedicated, value: web, effect: NoSchedule}]}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}, annotations: {team: shop}}
    spec:
      nodeSelector: {disk: ssd}
      tolerations: [{key: dedicated, operator: Equal, value: web, effect: NoSchedule}]
      containers:
      - name: nginx
        image: nginx:1.27
        ports: [{containerPort: 80, name: http}]
        resources: {requests: {cpu: 250m, memory: 64Mi}, limits: {cpu: 500m, memory: 128Mi}}
        readinessProbe: {periodSeconds: 5, failureThreshold: 2}
"""


def test_a_running_deployment_pod_with_tolerations_resources_and_a_readiness_probe() -> None:
    simulation = simulate(DEPLOYMENT, until=60)
    (pod,) = simulation.cluster.objects(Pod)
    epoch = datetime(2026, 3, 1, 12, 0, tzinfo=UTC).timestamp()
    text = pod_text(simulation.cluster, pod, simulation.now, epoch)
    replica_set = pod.metadata.controller_ref()
    assert replica_set is not None
    lines = text.splitlines()
    assert lines[:5] == [
        f"Name:             {pod.name}",
        "Namespace:        default",
        "Priority:         0",
        "Service Account:  default",
        "Node:             worker1/",
    ]
    assert lines[5].startswith("Start Time:       Sun, 01 Mar 2026 12:00:")  # simulated seconds after the epoch
    assert f"Controlled By:    ReplicaSet/{replica_set.name}\n" in text
    assert f"Labels:           app=web\n                  pod-template-hash={pod.labels['pod-template-hash']}\n" in text
    assert "Annotations:      team: shop\n" in text
    assert (
        "    Port:           80/TCP (http)\n    Host Port:      0/TCP (http)\n    State:          Running\n"
    ) in text
    assert (
        "    Ready:          True\n"
        "    Restart Count:  0\n"
        "    Limits:\n"
        "      cpu:     500m\n"
        "      memory:  128Mi\n"
        "    Requests:\n"
        "      cpu:        250m\n"
        "      memory:     64Mi\n"
        # a probe declared without a handler (which the API server would refuse): kubectl's
        # `unknown`, with SetDefaults_Probe's timeout
        "    Readiness:    unknown delay=0s timeout=1s period=5s #success=1 #failure=2\n"
        "    Environment:  <none>\n"
        "    Mounts:\n"
        f"      /var/run/secrets/kubernetes.io/serviceaccount from {pod.spec.volumes[0].name} (ro)\n"
    ) in text
    assert (
        "QoS Class:                   Burstable\n"
        "Node-Selectors:              disk=ssd\n"
        "Tolerations:                 dedicated=web:NoSchedule\n"
        "                             node.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n"
        "                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s\n"
        "Events:\n"
    ) in text
    assert [line.split()[1] for line in lines[lines.index("Events:") + 3 :]] == [
        "Scheduled",
        "Pulled",
        "Created",
        "Started",
    ]


PREEMPTION = (DATA / "preemption_nominated_while_victims_terminate.yaml").read_text()


def test_a_terminating_victim_with_the_schedulers_event_first() -> None:
    """Preempted, the latest event, comes first: DescribeEvents sorts by lastTimestamp, which the
    scheduler's events.k8s.io events do not have."""
    run = simulate(PREEMPTION, until=120)
    event = next(e for e in run.cluster.events if e.reason == "Preempted" and e.object == "Pod/default/low-1")
    cluster = Simulation(load_manifests(PREEMPTION)).cluster_at_event(event.seq, until=120)
    victim = cluster.get(Pod, "default/low-1")
    assert victim is not None
    text = pod_text(cluster, victim, event.time + 5)
    # kubectl counts from the API's deletionTimestamp (the request plus the grace period), ahead
    # while the grace period runs: <invalid>.
    assert "Status:                    Terminating (lasts <invalid>)\nTermination Grace Period:  30s\n" in text
    assert "  DisruptionTarget            True \n" in text
    assert text.endswith(
        "Events:\n"
        "  Type    Reason     Age   From               Message\n"
        "  ----    ------     ----  ----               -------\n"
        f"  Normal  Preempted  5s    default-scheduler  {event.message}\n"
        '  Normal  Pulled     13s   kubelet            Container image "pause" already present on machine\n'
        "  Normal  Created    13s   kubelet            Created container: c\n"
        "  Normal  Started    13s   kubelet            Started container c\n"
        "  Normal  Killing    5s    kubelet            Stopping container c\n"
    )


def test_the_nominated_pod_and_a_pods_repeated_failures_on_one_row() -> None:
    run = simulate(PREEMPTION, until=120)
    latecomer = pod_text(run.cluster, pod_of(run, "default/latecomer"), run.now)
    assert "  Warning  FailedScheduling  5s (x4 over 45s)  default-scheduler  0/1 nodes are available" in latecomer
    cluster = Simulation(load_manifests(PREEMPTION)).cluster_at_event(
        next(e.seq for e in run.cluster.events if e.reason == "Killing"), until=120
    )
    nominated = [pod for pod in cluster.objects(Pod) if pod.status.nominated_node_name]
    assert [pod.name for pod in nominated] == ["urgent"]
    assert "NominatedNodeName:    node-1\n" in pod_text(cluster, nominated[0], 10.0)


def test_events_of_an_earlier_pod_of_the_same_name_are_not_its_own() -> None:
    """kubectl asks for the events of the pod's UID."""
    run = simulate(PENDING, until=30)
    pod = pod_of(run, "default/big")
    other = Pod(metadata=type(pod.metadata)(name="big", namespace="default", uid="another-uid"))
    assert "FailedScheduling" in pod_text(run.cluster, pod, run.now)
    assert "Events:          <none>\n" in pod_text(run.cluster, other, run.now)
