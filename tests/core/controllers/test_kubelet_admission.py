"""The kubelet refuses a pod bound to its node that does not fit there (pkg/kubelet/lifecycle/
predicate.go and kubelet.go rejectPod at v1.34; the Kubernetes docs, "Assigning Pods to Nodes",
nodeName: "the Pod will fail and its reason will indicate why, for example OutOfmemory or OutOfcpu")."""

import pytest

from scheduler_core.api.types import Pod
from tests.core.controllers.node_health_helpers import find, simulate

NODE = """apiVersion: v1
kind: Node
metadata: {name: kube-01, labels: {disk: hdd}}
spec: {taints: [TAINTS]}
status: {capacity: {cpu: "1", memory: 1Gi, pods: "PODS", example.com/gpu: "1"}}
"""


def cluster(*pods: str, taints: str = "", max_pods: int = 110) -> str:
    return "\n---\n".join([NODE.replace("TAINTS", taints).replace("PODS", str(max_pods)), *pods])


def pinned(name: str, spec: str = "", requests: str = "", labels: str = "{}") -> str:
    resources = f"\n    resources: {{requests: {requests}}}" if requests else ""
    return f"""apiVersion: v1
kind: Pod
metadata: {{name: {name}, labels: {labels}}}
spec:
  nodeName: kube-01{spec}
  containers:
  - name: c
    image: nginx{resources}"""


def outcome(text: str) -> dict[str, tuple[str, str, str]]:
    """Pod name -> (phase, status reason, status message) once the pods have been looked at."""
    sim = simulate(text, until=5.0)
    return {pod.name: (pod.status.phase, pod.status.reason, pod.status.message) for pod in sim.cluster.objects(Pod)}


def test_a_pod_pinned_to_a_node_too_small_for_it_fails_with_out_of_cpu():
    sim = simulate(cluster(pinned("nginx", requests='{cpu: "2"}')), until=5.0)
    pod = sim.cluster.get(Pod, "default/nginx")
    assert pod is not None
    message = "Node didn't have enough resource: cpu, requested: 2000, used: 0, capacity: 1000"
    assert (pod.status.phase, pod.status.reason) == ("Failed", "OutOfcpu")
    assert pod.status.message == "Pod was rejected: " + message
    (event,) = find(sim, "OutOfcpu")
    assert (event.time, event.type, event.object, event.message) == (1.0, "Warning", "Pod/default/nginx", message)
    assert not find(sim, "Started") and pod.status.start_time is None


def test_the_kubelet_counts_the_pods_it_admitted_before():
    found = outcome(cluster(pinned("first", requests="{cpu: 600m}"), pinned("second", requests="{cpu: 600m}")))
    assert found["first"][0] == "Running"
    assert found["second"] == (
        "Failed",
        "OutOfcpu",
        "Pod was rejected: Node didn't have enough resource: cpu, requested: 600, used: 600, capacity: 1000",
    )


@pytest.mark.parametrize(
    ("text", "reason", "message"),
    [
        (
            cluster(pinned("a"), pinned("b"), max_pods=1),
            "OutOfpods",
            "Node didn't have enough resource: pods, requested: 1, used: 1, capacity: 1",
        ),
        (
            cluster(pinned("a", requests="{memory: 2Gi}"), pinned("b")),
            "OutOfmemory",
            "Node didn't have enough resource: memory, requested: 2147483648, used: 0, capacity: 1073741824",
        ),
        (
            cluster(pinned("a", requests="{example.com/gpu: 2}"), pinned("b")),
            "OutOfexample.com/gpu",
            "Node didn't have enough resource: example.com/gpu, requested: 2, used: 0, capacity: 1",
        ),
        (
            cluster(pinned("a", spec="\n  nodeSelector: {disk: ssd}"), pinned("b")),
            "NodeAffinity",
            "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector",
        ),
        (
            cluster(pinned("a", labels="{kubernetes.io/os: windows}"), pinned("b")),
            "PodOSSelectorNodeLabelDoesNotMatch",
            "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label",
        ),
    ],
    ids=["pods", "memory", "extended resource", "node selector", "os label"],
)
def test_each_check_names_the_rejection(text, reason, message):
    found = outcome(text)
    rejected = {name: value for name, value in found.items() if value[0] == "Failed"}
    assert len(rejected) == 1
    ((_, got_reason, got_message),) = rejected.values()
    assert (got_reason, got_message) == (reason, "Pod was rejected: " + message)


def test_what_the_kubelet_does_not_refuse():
    # A NoSchedule taint is the scheduler's business: a pod bound by its author still runs. An
    # extended resource the node does not advertise is left out of the check (cluster-level).
    text = cluster(
        pinned("tainted"),
        pinned("cluster-resource", requests="{example.org/license: 1}"),
        taints="{key: x, effect: NoSchedule}",
    )
    assert {name: value[0] for name, value in outcome(text).items()} == {
        "tainted": "Running",
        "cluster-resource": "Running",
    }


def test_a_host_port_taken_on_the_node_rejects_the_second_pod():
    port = "\n    ports: [{containerPort: 80, hostPort: 8080}]"
    first = pinned("first").replace("image: nginx", "image: nginx" + port)
    second = pinned("second").replace("image: nginx", "image: nginx" + port)
    found = outcome(cluster(first, second))
    assert found["first"][0] == "Running"
    assert found["second"][1:] == (
        "NodePorts",
        "Pod was rejected: Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports",
    )


def test_a_replicaset_replaces_a_rejected_pod_as_upstream_does():
    """A Failed pod is not active: the ReplicaSet creates another, which the kubelet rejects too
    (upstream does the same; only the run's bounds stop it)."""
    deployment = """apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeName: kube-01
      containers: [{name: c, image: nginx, resources: {requests: {cpu: "2"}}}]"""
    sim = simulate(cluster(deployment), until=3.0)
    assert [e.time for e in find(sim, "OutOfcpu")] == [1.0, 2.0, 3.0]
    phases = sorted(pod.status.phase for pod in sim.cluster.objects(Pod))
    assert phases == ["Failed", "Failed", "Failed", "Pending"]


def test_an_untolerated_no_execute_taint_is_refused_by_the_kubelet_itself():
    """In a run the taint eviction controller deletes such a pod first; the kubelet's own check
    (only NoExecute taints) still stands, as upstream's predicate admit handler has it."""
    from scheduler_core.api.manifests import load_manifests
    from scheduler_core.api.types import Node
    from scheduler_core.controllers.kubelet_admission import Rejection, admit
    from scheduler_core.scheduler.snapshot import PodInfoCache

    objects = [m.object for m in load_manifests(cluster(pinned("a"), taints="{key: dedicated, effect: NoExecute}"))]
    node = next(o for o in objects if isinstance(o, Node))
    pod = next(o for o in objects if isinstance(o, Pod))
    assert admit(pod, node, [], PodInfoCache()) == Rejection(
        "TaintToleration", "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate"
    )


def test_a_pod_is_admitted_when_its_kubelet_receives_it_so_the_later_one_is_refused():
    """The scheduler placed 'scheduled' at 0 s (it starts only at 10 s); 'pinned' arrives at 2 s with
    nodeName: the kubelet admitted 'scheduled' on receipt, so it refuses 'pinned', as upstream."""
    scheduled = pinned("scheduled", requests="{cpu: 800m}").replace("  nodeName: kube-01\n", "")
    scheduled = scheduled.replace("labels: {}}", "labels: {}, annotations: {playground.k8s.io/startup-seconds: '10'}}")
    later = pinned("pinned", requests="{cpu: 800m}").replace("\n", "\n    ")
    action = f"apiVersion: playground/v1\nkind: Action\nspec:\n  at: 2s\n  op: apply\n  manifest:\n    {later}"
    sim = simulate(cluster(scheduled, action), until=20.0)
    phases = {pod.name: (pod.status.phase, pod.status.reason) for pod in sim.cluster.objects(Pod)}
    assert phases == {"scheduled": ("Running", ""), "pinned": ("Failed", "OutOfcpu")}
    assert [e.time for e in find(sim, "OutOfcpu")] == [3.0]
