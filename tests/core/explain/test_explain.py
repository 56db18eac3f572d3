from pathlib import Path

import pytest

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import load_manifests
from scheduler_core.explain.explain import explain

DATA = Path(__file__).parents[1] / "data"


def _explain(name: str, pod: str, **kwargs):
    return explain(load_manifests((DATA / name).read_text()), pod, **kwargs)


def test_seed_node_affinity_example_lands_on_worker2_for_the_heavier_preference():
    result = _explain("seed_node_affinity.yaml", "default/nginx-node-affinity-test")
    assert result.selected == "worker2"
    nodes = {node.name: node for node in result.nodes}
    assert not nodes["worker3"].feasible
    assert nodes["worker3"].plugin == "NodeAffinity"
    assert nodes["worker3"].reasons == ["node(s) didn't match Pod's node affinity/selector"]
    # NodeAffinity's raw scores are 1 (ssd) and 10 (infi); normalized to the best: 10 and 100.
    assert nodes["worker1"].scores["NodeAffinity"] == 10
    assert nodes["worker2"].scores["NodeAffinity"] == 100
    assert nodes["worker2"].total - nodes["worker1"].total == 2 * (100 - 10)


def test_pending_pod_gets_upstreams_message_with_sorted_reason_counts():
    result = _explain("pending_cluster.yaml", "shop/big")
    assert result.selected is None
    assert result.message.startswith(
        "0/5 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, "
        "4 Insufficient cpu."
    )
    verdicts = {node.name: (node.plugin, node.reasons) for node in result.nodes}
    assert verdicts["worker-1"] == ("NodeResourcesFit", ["Insufficient cpu"])
    assert verdicts["control-plane"][0] == "TaintToleration"


def test_unknown_pod_is_a_clear_error():
    with pytest.raises(ManifestError, match="no Pod default/ghost"):
        _explain("pending_cluster.yaml", "default/ghost")


def test_same_input_and_seed_explain_identically():
    first = _explain("seed_node_affinity.yaml", "default/nginx-node-affinity-test", seed=7).as_dict()
    second = _explain("seed_node_affinity.yaml", "default/nginx-node-affinity-test", seed=7).as_dict()
    assert first == second


def test_an_earlier_high_priority_pod_preempts_the_youngest_low_priority_pods_first():
    result = _explain("preemption_cluster.yaml", "default/latecomer")
    (urgent,) = result.earlier_pods
    assert urgent["pod"] == "default/urgent"
    assert urgent["node"] == "node-1"
    # Three victims free 2.7 CPU; the oldest pod (low-0) is the most important and survives.
    assert sorted(urgent["preempted"]) == ["default/low-1", "default/low-2", "default/low-3"]
    # The latecomer (priority 0) finds node-1 holding low-0 (0.9) and urgent (3): 0.1 CPU left.
    assert result.selected is None
    assert result.message.startswith("0/1 nodes are available: 1 Insufficient cpu.")
    assert result.message.endswith(
        "no new claims to deallocate, preemption: 0/1 nodes are available:"
        " 1 No preemption victims found for incoming pod."
    )


def test_explain_reads_claims_volumes_and_classes_for_volume_binding():
    result = _explain("explain_local_volume.yaml", "default/db")
    assert result.selected == "node-a"
    node_b = next(node for node in result.nodes if node.name == "node-b")
    assert (node_b.plugin, node_b.reasons) == (
        "VolumeBinding",
        ["node(s) didn't find available persistent volumes to bind"],
    )
