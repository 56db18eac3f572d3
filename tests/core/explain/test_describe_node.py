"""`kubectl describe node` at a moment of a run (issue #16, item 7). The expected blocks are those of
kubectl's own tests (staging/src/k8s.io/kubectl/pkg/describe/describe_test.go: TestDescribeNode,
TestDescribeNodeWithSidecar, TestPrintLabelsMultiline), then what scenario runs show."""

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Node, Pod
from scheduler_core.explain.describe_node import describe_node, node_roles
from scheduler_core.explain.describe_node_text import node_text
from scheduler_core.explain.kubectl_resources import pod_requests_and_limits
from scheduler_core.explain.tabwriter import tabbed
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import Cluster
from tests.core.controllers.node_health_helpers import simulate

# kubectl's test node "bar": 8 CPUs and 24Gi, of which 4 and 12Gi allocatable, 2Gi of 2Mi huge pages.
BAR = """
apiVersion: v1
kind: Node
metadata: {name: bar}
spec: {unschedulable: true}
status:
  capacity: {hugepages-2Mi: 4Gi, cpu: "8", memory: 24Gi, hugepages-1Gi: "0", pods: "110"}
  allocatable: {hugepages-2Mi: 2Gi, cpu: "4", memory: 12Gi, hugepages-1Gi: "0", pods: "110"}
"""
POD_WITH_RESOURCES = """
---
apiVersion: v1
kind: Pod
metadata: {name: pod-with-resources, namespace: foo}
spec:
  nodeName: bar
  {init}
  containers:
  - name: cpu-mem
    image: "image:latest"
    resources: {requests: {cpu: "1", memory: 1Gi}, limits: {cpu: "2", memory: 2Gi}}
  - name: hugepages
    image: "image:latest"
    resources: {requests: {hugepages-2Mi: 512Mi}, limits: {hugepages-2Mi: 512Mi}}
"""
SIDECARS = """initContainers:
  - {name: init-container-1, restartPolicy: Always, resources: {requests: {cpu: "1", memory: 1Gi}}}
  - {name: init-container-2, resources: {requests: {cpu: "1", memory: 1Gi}}}"""


def run(text: str, until: float = 30) -> Simulation:
    simulation = Simulation(load_manifests(text))
    simulation.run_to_end(until)
    return simulation


def described_text(simulation: Simulation, name: str) -> str:
    return node_text(describe_node(simulation.cluster, simulation.cluster.get(Node, name), simulation.now))


def test_kubectls_describe_node_allocated_resources():
    text = described_text(run(BAR + POD_WITH_RESOURCES.replace("{init}", "")), "bar")
    assert "Unschedulable:      true\n" in text
    assert (
        "Allocated resources:\n"
        "  (Total limits may be over 100 percent, i.e., overcommitted.)\n"
        "  Resource           Requests     Limits\n"
        "  --------           --------     ------\n"
        "  cpu                1 (25%)      2 (50%)\n"
        "  memory             1Gi (8%)     2Gi (16%)\n"
        "  ephemeral-storage  0 (0%)       0 (0%)\n"
        "  hugepages-1Gi      0 (0%)       0 (0%)\n"
        "  hugepages-2Mi      512Mi (25%)  512Mi (25%)\n"
    ) in text


def test_kubectls_describe_node_with_a_sidecar_counts_it_with_the_containers():
    text = described_text(run(BAR + POD_WITH_RESOURCES.replace("{init}", SIDECARS)), "bar")
    assert (
        "  cpu                2 (50%)      2 (50%)\n"
        "  memory             2Gi (16%)    2Gi (16%)\n"
        "  ephemeral-storage  0 (0%)       0 (0%)\n"
        "  hugepages-1Gi      0 (0%)       0 (0%)\n"
        "  hugepages-2Mi      512Mi (25%)  512Mi (25%)\n"
    ) in text


TWO_PODS_AND_A_FINISHED_ONE = """
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {node-role.kubernetes.io/control-plane: "", kubernetes.io/role: infra, zone: a}}
spec:
  taints: [{key: b, effect: NoSchedule}, {key: a, value: x, effect: NoSchedule}, {key: c, effect: NoExecute}]
status: {capacity: {cpu: "2", memory: 4Gi, pods: "110", example.com/gpu: "4"}}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: shop}
spec:
  nodeName: n1
  tolerations: [{operator: Exists}]
  containers:
  - name: c
    image: nginx
    resources:
      requests: {cpu: 100m, memory: 300Mi, example.com/gpu: "1"}
      limits: {cpu: 500m, example.com/gpu: "1"}
---
apiVersion: v1
kind: Pod
metadata: {name: api, namespace: default}
spec:
  nodeName: n1
  tolerations: [{operator: Exists}]
  containers: [{name: c, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata: {name: done, namespace: default, annotations: {playground.k8s.io/run-seconds: "2"}}
spec:
  nodeName: n1
  restartPolicy: Never
  tolerations: [{operator: Exists}]
  containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]
  """


def test_the_non_terminated_pods_with_their_shares_of_allocatable():
    simulation = run(TWO_PODS_AND_A_FINISHED_ONE, until=60)
    assert simulation.cluster.get(Pod, "default/done").status.phase == "Succeeded"
    described = describe_node(simulation.cluster, simulation.cluster.get(Node, "n1"), simulation.now)
    # As the API lists them, by namespace then name; the finished pod is not counted.
    assert [(row.namespace, row.name) for row in described.pods] == [("default", "api"), ("shop", "web")]
    web = described.pods[1]
    assert (web.cpu_requests, web.cpu_limits, web.memory_requests, web.memory_limits) == (
        "100m (5%)",
        "500m (25%)",
        "300Mi (7%)",
        "0 (0%)",
    )
    assert web.age == f"{simulation.now:g}s"  # created at 0 s; the run has nothing more to do after 3 s
    text = node_text(described)
    assert "Non-terminated Pods:  (2 in total)\n" in text
    # An extended resource is totalled without a share.
    assert "  ephemeral-storage  0 (0%)      0 (0%)\n  example.com/gpu    1           1\n" in text


def test_roles_labels_and_taints_as_kubectl_orders_them():
    simulation = run(TWO_PODS_AND_A_FINISHED_ONE)
    described = describe_node(simulation.cluster, simulation.cluster.get(Node, "n1"), simulation.now)
    assert described.roles == ["control-plane", "infra"]
    assert described.taints == ["c:NoExecute", "a=x:NoSchedule", "b:NoSchedule"]  # by effect, then key
    text = node_text(described)
    assert "Roles:              control-plane,infra\n" in text
    assert (
        "Labels:             kubernetes.io/role=infra\n"
        "                    node-role.kubernetes.io/control-plane=\n"
        "                    zone=a\n"
    ) in text
    assert node_roles({"kubernetes.io/hostname": "n1", "node-role.kubernetes.io/": ""}) == []


TITLE = "Annotations:        "
MORE = " " * len(TITLE)  # a line after the first: the column of the first's value


@pytest.mark.parametrize(
    ("annotations", "printed"),
    [
        ({"col1": "asd", "COL2": "zxc"}, f"{TITLE}COL2: zxc\n{MORE}col1: asd\n"),
        ({"MaxLenAnnotation": "a" * 122}, f"{TITLE}MaxLenAnnotation: {'a' * 122}\n"),
        ({"MaxLenAnnotation": "a" * 123}, f"{TITLE}MaxLenAnnotation:\n{MORE}  {'a' * 123}\n"),
        ({"MaxLenAnnotation": "a" * 244}, f"{TITLE}MaxLenAnnotation:\n{MORE}  {'a' * 138}...\n"),
        ({"key": "value\nwith\nnewlines\n"}, f"{TITLE}key:\n{MORE}  value\n{MORE}  with\n{MORE}  newlines\n"),
        ({}, f"{TITLE}<none>\n"),
    ],
)
def test_annotations_as_kubectls_print_labels_multiline_test(annotations, printed):
    simulation = run(BAR)
    node = simulation.cluster.get(Node, "bar")
    node = type(node)(node.metadata.__class__(node.name, annotations=annotations), node.spec, node.status)
    assert printed in node_text(describe_node(simulation.cluster, node, simulation.now))


def test_a_node_under_memory_pressure_says_so_with_the_kubelets_reason():
    simulation = simulate("node_memory_pressure.yaml", until=30)
    described = describe_node(simulation.cluster, simulation.cluster.get(Node, "worker1"), simulation.now)
    pressure = described.conditions[0]
    assert (pressure.type, pressure.status, pressure.reason) == (
        "MemoryPressure",
        "True",
        "KubeletHasInsufficientMemory",
    )
    assert described.taints == ["node.kubernetes.io/memory-pressure:NoSchedule"]
    assert [(e.type, e.reason, e.age, e.source) for e in described.events] == [
        ("Normal", "NodeHasInsufficientMemory", "20s", "kubelet")
    ]
    text = node_text(described)
    assert (
        "  MemoryPressure   True    Thu, 01 Jan 1970 00:00:10 +0000   Thu, 01 Jan 1970 00:00:10 +0000"
        "   KubeletHasInsufficientMemory   kubelet has insufficient memory available\n"
    ) in text
    # The besteffort pod evicted (Failed) is gone from the list; the other two remain.
    assert [row.name for row in described.pods] == ["burstable", "guaranteed"]


def test_a_downed_node_is_unknown_since_the_controller_noticed():
    simulation = simulate("node_down_deployment.yaml", until=120)
    described = describe_node(simulation.cluster, simulation.cluster.get(Node, "worker1"), simulation.now)
    assert {(c.status, c.reason, c.message) for c in described.conditions} == {
        ("Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status.")
    }
    assert {c.last_transition_time for c in described.conditions} == {80.0}  # down at 30 s, 50 s of grace
    assert [(e.reason, e.age, e.source) for e in described.events] == [("NodeNotReady", "40s", "node-controller")]
    assert "Ready            Unknown   Thu, 01 Jan 1970 00:00:00 +0000   Thu, 01 Jan 1970 00:01:20 +0000" in (
        node_text(described)
    )


def test_a_nodes_events_by_last_seen_with_their_ages():
    simulation = simulate("node_up_cancels_eviction.yaml", until=400)
    described = describe_node(simulation.cluster, simulation.cluster.get(Node, "worker1"), simulation.now)
    assert [e.reason for e in described.events] == [
        "NodeNotReady",
        "Starting",
        "NodeAllocatableEnforced",
        "NodeHasSufficientMemory",
        "NodeHasNoDiskPressure",
        "NodeHasSufficientPID",
        "NodeReady",
    ]
    assert described.as_dict()["events"][-1] == {
        "type": "Normal",
        "reason": "NodeReady",
        "age": "2m40s",  # at 200 s; the run ends at 360 s
        "from": "kubelet",
        "message": "Node worker1 status is now: NodeReady",
    }


def test_only_the_nodes_own_pods_are_read(monkeypatch):
    simulation = simulate("node_down_deployment.yaml", until=60)

    def no_scan(self, kind):  # type: ignore[no-untyped-def]
        raise AssertionError(f"scanned every {kind}")

    monkeypatch.setattr(Cluster, "objects", no_scan)
    described = describe_node(simulation.cluster, simulation.cluster.get(Node, "worker2"), simulation.now)
    assert len(described.pods) == 1


def test_kubectls_pod_requests_and_limits_leave_out_pod_level_resources_and_add_overhead():
    (manifest,) = load_manifests("""
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  overhead: {cpu: 50m, memory: 10Mi}
  resources: {requests: {cpu: "3"}}
  containers: [{name: c, image: x, resources: {requests: {cpu: 100m}, limits: {memory: 1Gi}}}]
""")
    requests, limits = pod_requests_and_limits(manifest.object)
    # The API server defaults the memory request to its limit.
    assert requests == {"cpu": 150, "memory": 2**30 + 10 * 2**20}
    assert limits == {"memory": 2**30 + 10 * 2**20}  # overhead only where a limit is set


def test_the_tabwriter_pads_column_blocks_and_leaves_last_cells_alone():
    assert tabbed("a:\tx\nlonger:\ty\nheading\n  k\tv\tlast cell\n") == (
        "a:       x\nlonger:  y\nheading\n  k  v  last cell\n"
    )
