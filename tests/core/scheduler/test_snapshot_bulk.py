"""A snapshot built whole (Snapshot.add_pods, one NodeInfo.add_pods per node) holds what adding
its pods one by one holds: the pods in order, the aggregates, the host ports, the affinity lists."""

from scheduler_core.api.manifests import load_manifests
from scheduler_core.explain.explain import collect
from scheduler_core.scheduler.snapshot import PodInfo, Snapshot

NODES = """
apiVersion: v1
kind: Node
metadata: {name: a}
status: {capacity: {cpu: "8", memory: 16Gi, pods: "20"}}
---
apiVersion: v1
kind: Node
metadata: {name: b}
status: {capacity: {cpu: "8", memory: 16Gi, pods: "20"}}
"""


def pod(name: str, node: str, extra: str = "") -> str:
    return (
        f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, labels: {{app: {name[:3]}}}}}\n"
        f"spec:\n  nodeName: {node}\n  containers:\n  - name: c\n    image: nginx\n"
        f"    resources: {{requests: {{cpu: 250m, memory: 64Mi}}}}\n{extra}"
    )


PORT = "    ports: [{containerPort: 80, hostPort: 8080}]\n"
ANTI = (
    "  affinity:\n    podAntiAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
    "      - labelSelector: {matchLabels: {app: web}}\n        topologyKey: kubernetes.io/hostname\n"
)
PREFERRED = (
    "  affinity:\n    podAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution:\n"
    "      - weight: 5\n        podAffinityTerm:\n          labelSelector: {matchLabels: {app: web}}\n"
    "          topologyKey: kubernetes.io/hostname\n"
)
BEST_EFFORT = (
    "---\napiVersion: v1\nkind: Pod\nmetadata: {name: bare}\n"
    "spec:\n  nodeName: a\n  containers: [{name: c, image: x}]\n"
)


def snapshots() -> tuple[Snapshot, Snapshot]:
    text = NODES + pod("web-1", "a", PORT) + pod("web-2", "b", PORT + ANTI) + pod("api-1", "a", PREFERRED)
    text += pod("api-2", "a", PORT) + pod("web-3", "a", ANTI) + BEST_EFFORT
    cluster = collect(load_manifests(text))
    one_by_one, whole = Snapshot(), Snapshot()
    for snapshot in (one_by_one, whole):
        for node in cluster.nodes:
            snapshot.add_node(node)
    infos = [PodInfo(p) for p, _ in cluster.pods]
    for info in infos:
        one_by_one.add_pod(info.pod, info)
    whole.add_pods(infos)
    return one_by_one, whole


def test_a_snapshot_built_whole_is_the_one_built_pod_by_pod():
    one_by_one, whole = snapshots()
    for name in ("a", "b"):
        expected, got = one_by_one.node_infos[name], whole.node_infos[name]
        assert [i.pod.name for i in got.pods] == [i.pod.name for i in expected.pods]
        assert got.pods_with_affinity == expected.pods_with_affinity
        assert got.pods_with_required_anti_affinity == expected.pods_with_required_anti_affinity
        assert got.requested == expected.requested
        assert (got.non_zero_cpu, got.non_zero_memory) == (expected.non_zero_cpu, expected.non_zero_memory)
        assert got.used_ports == expected.used_ports
    node_a = whole.node_infos["a"]
    assert node_a.used_ports == {("0.0.0.0", "TCP", 8080): 2}  # web-1 and api-2
    assert [i.pod.name for i in node_a.pods_with_affinity] == ["api-1", "web-3"]
    assert [i.pod.name for i in node_a.pods_with_required_anti_affinity] == ["web-3"]
    assert node_a.non_zero_cpu == 4 * 250 + 100  # the best-effort pod counts as 100m (non-zero defaults)


def test_a_snapshot_built_whole_tells_caches_which_nodes_moved():
    _one_by_one, whole = snapshots()
    changed = whole.changed_since(whole.epoch, 0)
    assert changed is not None and {node.name for node in changed} == {"a", "b"}
