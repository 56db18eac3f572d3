"""Smallest fixes for a Pending pod: every fix returned is applied to the files and explained again
here, from scratch, and must then schedule the pod where the fix says."""

import io
import time
from pathlib import Path
from typing import Any

import pytest

from scheduler_core.api.manifests import Manifest, load_manifests
from scheduler_core.cli import render_explanation
from scheduler_core.explain.explain import explain, explain_in_cluster, inputs_in_cluster
from scheduler_core.explain.suggestions import Fix, suggest_fixes
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import kind_name

DATA = Path(__file__).parents[1] / "data"

SCENARIOS = [
    ("pending_cluster.yaml", "shop/big"),
    ("suggest_taint.yaml", "default/trainer"),
    ("suggest_node_selector.yaml", "default/db"),
    ("suggest_cordoned.yaml", "default/web"),
    ("suggest_unfixable.yaml", "default/heavy"),
    ("suggest_spread.yaml", "default/web-3"),
    ("suggest_host_port.yaml", "default/agent-3"),
    ("suggest_anti_affinity.yaml", "default/cache-3"),
    ("suggest_no_volume.yaml", "default/db"),
    ("suggest_node_affinity.yaml", "default/api"),
    ("suggest_earlier_pods.yaml", "default/second"),
]


def _manifests(name: str) -> list[Manifest]:
    return load_manifests((DATA / name).read_text())


def _fixes(name: str, pod: str) -> list[Fix]:
    explanation = explain(_manifests(name), pod)
    assert explanation.selected is None
    return explanation.fixes


def _reverify(manifests: list[Manifest], pod: str, fix: Fix) -> None:
    """The fix applied to the files, explained again from scratch: the pod now lands where the fix says,
    and the nodes that fit are the ones it names."""
    again = explain(fix.apply_to_manifests(manifests, pod), pod, fixes=False)
    assert again.selected == fix.selected, fix.description
    assert {node.name for node in again.nodes if node.feasible} == set(fix.feasible_nodes), fix.description


@pytest.mark.parametrize(("name", "pod"), SCENARIOS)
def test_every_fix_schedules_the_pod_when_applied_and_explained_again(name, pod):
    manifests = _manifests(name)
    before = explain(manifests, pod).as_dict()
    fixes = explain(manifests, pod).fixes
    assert len(fixes) <= 5
    for fix in fixes:
        _reverify(manifests, pod, fix)
    assert explain(manifests, pod).as_dict() == before  # nothing of the caller's changed


def test_a_blocking_taint_gets_a_toleration_for_exactly_that_taint():
    fixes = _fixes("suggest_taint.yaml", "default/trainer")
    toleration = next(fix for fix in fixes if fix.kind == "add-toleration")
    assert toleration.description == (
        "Add a toleration for dedicated=gpu:NoSchedule to the pod: it then fits on worker3."
    )
    assert toleration.yaml == (
        "spec:\n  tolerations:\n  - key: dedicated\n    operator: Equal\n    value: gpu\n    effect: NoSchedule"
    )
    assert toleration.feasible_nodes == ("worker3",)
    assert toleration.selected == "worker3"
    assert toleration.target == "Pod default/trainer"
    # Written into the file by hand, the snippet does what the fix says.
    text = (DATA / "suggest_taint.yaml").read_text()
    edited = text.replace(
        "  containers: [{name: train,",
        "  tolerations: [{key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}]\n"
        "  containers: [{name: train,",
    )
    assert explain(load_manifests(edited), "default/trainer", fixes=False).selected == "worker3"
    # Removing the taint from the node is offered too, after the pod's own changes.
    kinds = [fix.kind for fix in fixes]
    assert kinds.index("remove-taint") > kinds.index("add-toleration")
    untaint = fixes[kinds.index("remove-taint")]
    assert untaint.command == "kubectl taint nodes worker3 dedicated=gpu:NoSchedule-"


def test_a_request_too_big_for_every_worker_is_lowered_to_what_they_have_left():
    fixes = _fixes("pending_cluster.yaml", "shop/big")
    assert [fix.kind for fix in fixes] == ["lower-request", "add-toleration", "remove-taint", "add-node"]
    lower = fixes[0]
    assert lower.description.startswith("Lower the pod's cpu request from 3 to 2")
    assert "cpu: '2'" in lower.yaml
    assert set(lower.feasible_nodes) == {"worker-1", "worker-2", "worker-3", "worker-4"}
    # The control plane's taint has no value: the toleration uses operator Exists.
    assert "operator: Exists" in fixes[1].yaml
    # A new node like the workers, with the 3 CPUs the pod asks for.
    add = fixes[3]
    assert add.target == "new Node worker-5"
    assert "cpu: '3'" in add.yaml


def test_lowered_request_is_written_in_quantity_notation():
    fixes = _fixes("suggest_taint.yaml", "default/trainer")
    lower = next(fix for fix in fixes if fix.kind == "lower-request")
    assert lower.description.startswith("Lower the pod's cpu request from 1 to 100m")
    assert lower.yaml.endswith("cpu: 100m")


def test_a_typo_in_a_node_selector_value_is_corrected_or_relaxed_or_labelled():
    fixes = _fixes("suggest_node_selector.yaml", "default/db")
    assert [fix.kind for fix in fixes] == ["change-node-selector", "relax-node-selector", "label-node"]
    change, relax, label = fixes
    assert change.yaml == "spec:\n  nodeSelector:\n    disktype: ssd"  # ssd, the likelier typo fix than hdd
    assert change.selected == "fast-1"
    assert relax.yaml == "spec:\n  nodeSelector: {}"
    assert set(relax.feasible_nodes) == {"fast-1", "slow-1", "plain-1"}
    assert label.command == "kubectl label nodes fast-1 disktype=sdd --overwrite"
    text = (DATA / "suggest_node_selector.yaml").read_text().replace("disktype: sdd", "disktype: ssd")
    assert explain(load_manifests(text), "default/db", fixes=False).selected == "fast-1"


def test_required_node_affinity_is_widened_before_it_is_dropped():
    fixes = _fixes("suggest_node_affinity.yaml", "default/api")
    kinds = [fix.kind for fix in fixes]
    assert kinds[:2] == ["relax-affinity-term", "relax-affinity-term"]
    assert fixes[0].description.startswith("Add us-east1 to the values of the pod's node affinity requirement")
    assert fixes[1].description.startswith("Remove the requirement aws.ec2.region In")
    assert "requiredDuringSchedulingIgnoredDuringExecution: null" in fixes[1].yaml


def test_the_only_node_cordoned_is_uncordoned():
    fixes = _fixes("suggest_cordoned.yaml", "default/web")
    assert [(fix.kind, fix.selected, fix.command) for fix in fixes] == [("uncordon", "solo", "kubectl uncordon solo")]
    assert fixes[0].description == "Uncordon node solo (it is marked unschedulable): it then fits on solo."


def test_a_pod_no_single_change_can_fix_gets_no_fix_at_all():
    explanation = explain(_manifests("suggest_unfixable.yaml"), "default/heavy")
    assert explanation.selected is None
    assert explanation.fixes == []
    assert explanation.as_dict()["fixes"] == []
    out = io.StringIO()
    render_explanation(explanation, out)
    assert "Smallest fixes: none found" in out.getvalue()


def test_spread_is_relaxed_by_one_skew_or_made_a_preference():
    fixes = _fixes("suggest_spread.yaml", "default/web-3")
    assert [fix.kind for fix in fixes[:2]] == ["relax-spread", "relax-spread"]
    assert "maxSkew: 3" in fixes[0].yaml
    assert "whenUnsatisfiable: ScheduleAnyway" in fixes[1].yaml
    assert "add-toleration" in [fix.kind for fix in fixes]


def test_a_taken_host_port_moves_to_one_free_everywhere():
    (fix,) = _fixes("suggest_host_port.yaml", "default/agent-3")
    assert fix.kind == "free-host-port"
    assert "hostPort: 8082" in fix.yaml  # 8081 is taken on n1
    assert set(fix.feasible_nodes) == {"n1", "n2"}


def test_required_anti_affinity_is_made_preferred():
    (fix,) = _fixes("suggest_anti_affinity.yaml", "default/cache-3")
    assert fix.kind == "relax-affinity-term"
    assert "preferredDuringSchedulingIgnoredDuringExecution" in fix.yaml
    assert "weight: 100" in fix.yaml


def test_a_claim_without_a_volume_gets_one_on_a_node():
    (fix,) = _fixes("suggest_no_volume.yaml", "default/db")
    assert fix.kind == "add-volume"
    assert "claim data" in fix.description
    assert fix.selected == "node-a"
    assert "storageClassName: local" in fix.yaml


def test_a_change_to_a_node_replays_the_earlier_pods():
    # "first" takes worker-1 before "second" is considered; uncordoning worker-2 may move "first".
    fixes = _fixes("suggest_earlier_pods.yaml", "default/second")
    assert "uncordon" in [fix.kind for fix in fixes]


def test_a_schedulable_pod_has_no_fixes():
    explanation = explain(_manifests("seed_node_affinity.yaml"), "default/nginx-node-affinity-test")
    assert explanation.selected == "worker2"
    assert explanation.fixes == []
    assert "fixes" not in explanation.as_dict()


def test_same_input_gives_the_same_fixes():
    first = explain(_manifests("pending_cluster.yaml"), "shop/big", seed=3).as_dict()
    second = explain(_manifests("pending_cluster.yaml"), "shop/big", seed=3).as_dict()
    assert first["fixes"] == second["fixes"]


def test_the_table_lists_the_fixes_under_the_message():
    out = io.StringIO()
    render_explanation(explain(_manifests("suggest_taint.yaml"), "default/trainer"), out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Pod default/trainer stays Pending")
    assert lines[1] == "Smallest fixes:"
    assert any(line.startswith("  2. Add a toleration for dedicated=gpu:NoSchedule") for line in lines)
    assert "       $ kubectl taint nodes worker3 dedicated=gpu:NoSchedule-" in lines


class _Patched:
    """A cluster as seen through a fix: the explain_in_cluster reads (get, objects, events) only."""

    def __init__(self, cluster: Any, pod_key: str, fix: Fix) -> None:
        self.cluster, self.pod_key, self.fix = cluster, pod_key, fix
        self.events = cluster.events

    def get(self, kind: type | str, key: str) -> Any:
        kind = kind if isinstance(kind, str) else kind_name(kind)
        obj = self.cluster.get(kind, key)
        if kind == "Pod" and key == self.pod_key and self.fix.pod_change is not None:
            return self.fix.pod_change(obj)
        return obj

    def objects(self, kind: type | str) -> list[Any]:
        kind = kind if isinstance(kind, str) else kind_name(kind)
        objects = self.cluster.objects(kind)
        if kind == "Node":
            changes = self.fix.node_changes
            objects = [changes[o.name](o) if o.name in changes else o for o in objects] + list(self.fix.added_nodes)
        if kind == "PersistentVolume":
            objects += list(self.fix.added_volumes)
        if kind == "Pod":
            objects = [self.get("Pod", o.key) for o in objects]
        return objects


def test_explain_in_cluster_suggests_fixes_without_touching_the_simulation():
    simulation = Simulation(_manifests("pending_cluster.yaml"))
    simulation.run_to_end(30.0)
    cluster = simulation.cluster
    before = {kind: list(cluster.objects(kind)) for kind in ("Node", "Pod")}
    explanation = explain_in_cluster(cluster, "shop/big")
    assert explanation.selected is None
    assert [fix.kind for fix in explanation.fixes] == ["lower-request", "add-toleration", "remove-taint", "add-node"]
    assert {kind: list(cluster.objects(kind)) for kind in ("Node", "Pod")} == before
    for fix in explanation.fixes:
        again = explain_in_cluster(_Patched(cluster, "shop/big", fix), "shop/big", fixes=False)
        assert again.selected == fix.selected
    # The same fixes straight from the inputs.
    direct = suggest_fixes(inputs_in_cluster(cluster, "shop/big"))
    assert [fix.as_dict() for fix in direct] == [fix.as_dict() for fix in explanation.fixes]


def _big_cluster(nodes: int) -> str:
    docs = []
    for i in range(nodes):
        taint = "\nspec: {taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}" if i % 10 == 0 else ""
        docs.append(
            f"apiVersion: v1\nkind: Node\nmetadata: {{name: node-{i:03d}, labels: {{kubernetes.io/hostname: "
            f"node-{i:03d}, topology.kubernetes.io/zone: zone-{i % 3}, disktype: {'ssd' if i % 2 else 'hdd'}}}}}"
            f'{taint}\nstatus: {{capacity: {{cpu: "4", memory: 16Gi, pods: "110"}}}}'
        )
        for j in range(10):
            docs.append(
                f"apiVersion: v1\nkind: Pod\nmetadata: {{name: p-{i}-{j}, labels: {{app: a{j % 3}}}}}\n"
                f"spec: {{nodeName: node-{i:03d}, containers: [{{name: c, image: nginx, "
                f"resources: {{requests: {{cpu: 250m, memory: 1Gi}}}}}}]}}"
            )
    docs.append(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: target}\nspec:\n  nodeSelector: {disktype: sdd}\n"
        '  containers: [{name: c, image: nginx, resources: {requests: {cpu: "1"}}}]'
    )
    return "\n---\n".join(docs)


def test_fixes_for_a_hundred_nodes_stay_fast():
    manifests = load_manifests(_big_cluster(100))
    start = time.perf_counter()
    explanation = explain(manifests, "default/target")
    elapsed = time.perf_counter() - start
    assert explanation.fixes
    assert explanation.fixes[0].kind == "change-node-selector"
    assert elapsed < 5.0  # about 0.1 s on a laptop; generous for slow CI machines
