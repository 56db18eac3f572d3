"""The StatefulSet controller in the simulated cluster (scenarios under tests/core/data/sts_*.yaml)."""

from pathlib import Path

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Pod
from scheduler_core.api.volumes import ANN_SELECTED_NODE
from scheduler_core.api.workloads import PersistentVolume, PersistentVolumeClaim, StatefulSet
from scheduler_core.controllers.base import delete_pod
from scheduler_core.controllers.registry import default_controllers
from scheduler_core.controllers.statefulset import (
    POD_INDEX_LABEL,
    POD_NAME_LABEL,
    REVISION_LABEL,
    StatefulSetController,
    parent_and_ordinal,
    pod_dns_name,
    stateful_pod_dns_names,
)
from scheduler_core.simulation.simulation import Simulation

DATA = Path(__file__).parent.parent / "data"

NODE = """apiVersion: v1
kind: Node
metadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}}}}}
status: {{capacity: {{cpu: "4", memory: 8Gi, pods: "110"}}}}
"""


def statefulset(
    name: str = "web",
    replicas: int = 3,
    *,
    extra_spec: str = "",
    claims: str = "",
    probe: str = "",
    grace: int = 5,
    image: str = "nginx:1.27",
) -> str:
    return f"""apiVersion: apps/v1
kind: StatefulSet
metadata: {{name: {name}}}
spec:
  selector: {{matchLabels: {{app: {name}}}}}
  serviceName: {name}
  replicas: {replicas}
{extra_spec}  template:
    metadata: {{labels: {{app: {name}}}}}
    spec:
      terminationGracePeriodSeconds: {grace}
      containers:
        - {{name: app, image: "{image}", resources: {{requests: {{cpu: 100m}}}}{probe}}}
{claims}"""


def action(at: str, op: str, target: str, extra: str = "") -> str:
    return f"""apiVersion: playground/v1
kind: Action
spec: {{at: {at}, op: {op}, target: {target}{extra}}}
"""


def simulate(source: str, seed: int = 0, until: float | None = None) -> Simulation:
    text = (DATA / source).read_text() if source.endswith(".yaml") else source
    simulation = Simulation(load_manifests(text), seed=seed)
    simulation.run_to_end(until)
    return simulation


def events(sim: Simulation, obj: str, *reasons: str) -> list[tuple[float, str, str]]:
    return [(e.time, e.reason, e.message) for e in sim.cluster.events if e.object == obj and e.reason in reasons]


def first(sim: Simulation, obj: str, reason: str) -> float:
    return next(e.time for e in sim.cluster.events if e.object == obj and e.reason == reason)


def docs(*parts: str) -> str:
    return "---\n".join(parts)


def controller(sim: Simulation) -> StatefulSetController:
    found = sim.controller("statefulset")
    assert isinstance(found, StatefulSetController)
    return found


# ---------------------------------------------------------------------------- identity


def test_the_controller_is_registered_among_the_workload_controllers():
    names = [factory.__name__ for factory in default_controllers()]
    assert "StatefulSetController" in names
    assert names.index("StatefulSetController") < names.index("DaemonSetController")
    assert names.index("PersistentVolumeController") < names.index("SchedulerController")


@pytest.mark.parametrize(
    ("name", "expected"),
    [("web-0", ("web", 0)), ("my-db-12", ("my-db", 12)), ("web", ("", -1)), ("web-x", ("", -1)), ("-3", ("", 3))],
)
def test_parent_and_ordinal_follow_the_name_pattern(name, expected):
    assert parent_and_ordinal(name) == expected


def test_pods_are_named_by_ordinal_and_labelled_with_their_identity():
    sim = simulate("sts_ordered_local_pv.yaml")
    pods = {pod.name: pod for pod in sim.cluster.objects(Pod)}
    assert sorted(pods) == ["web-0", "web-1", "web-2"]
    revision = sim.cluster.get(StatefulSet, "default/web").status.update_revision
    for ordinal in range(3):
        labels = pods[f"web-{ordinal}"].labels
        assert labels[POD_NAME_LABEL] == f"web-{ordinal}"
        assert labels[POD_INDEX_LABEL] == str(ordinal)
        assert labels[REVISION_LABEL] == revision
        assert revision.startswith("web-")
        owner = pods[f"web-{ordinal}"].metadata.controller_ref()
        assert owner is not None and (owner.kind, owner.name, owner.api_version) == ("StatefulSet", "web", "apps/v1")
        # the claim template's volume, then the ServiceAccount admission plugin's token volume
        (claim, token) = pods[f"web-{ordinal}"].spec.volumes
        assert (claim.name, claim.persistent_volume_claim) == ("www", f"www-web-{ordinal}")
        assert token.name.startswith("kube-api-access-") and not token.persistent_volume_claim


def test_ordinals_start_shifts_the_names():
    sim = simulate(docs(NODE.format(name="node-a"), statefulset(replicas=2, extra_spec="  ordinals: {start: 5}\n")))
    assert sorted(pod.name for pod in sim.cluster.objects(Pod)) == ["web-5", "web-6"]


# ---------------------------------------------------------------------------- OrderedReady


def test_ordered_ready_creates_one_pod_at_a_time_each_after_the_previous_is_ready():
    sim = simulate("sts_ordered_local_pv.yaml")
    created = events(sim, "StatefulSet/default/web", "SuccessfulCreate")
    assert created == [
        (0.0, "SuccessfulCreate", "create Claim www-web-0 Pod web-0 in StatefulSet web success"),
        (0.0, "SuccessfulCreate", "create Pod web-0 in StatefulSet web successful"),
        (7.0, "SuccessfulCreate", "create Claim www-web-1 Pod web-1 in StatefulSet web success"),
        (7.0, "SuccessfulCreate", "create Pod web-1 in StatefulSet web successful"),
        (14.0, "SuccessfulCreate", "create Claim www-web-2 Pod web-2 in StatefulSet web success"),
        (14.0, "SuccessfulCreate", "create Pod web-2 in StatefulSet web successful"),
        (70.0, "SuccessfulCreate", "create Pod web-1 in StatefulSet web successful"),  # the deleted web-1, again
    ]
    # web-0 starts at 2 s (1 s for its volume to bind, 1 s to start), is Ready 5 s later: web-1 follows then.
    assert first(sim, "Pod/default/web-0", "Started") == 2.0
    assert first(sim, "Pod/default/web-1", "Started") == 9.0


def test_scale_down_removes_the_highest_ordinal_first_one_at_a_time():
    sim = simulate("sts_scale_down.yaml")
    assert events(sim, "StatefulSet/default/web", "SuccessfulDelete") == [
        (30.0, "SuccessfulDelete", "delete Pod web-2 in StatefulSet web successful"),
        (40.0, "SuccessfulDelete", "delete Pod web-1 in StatefulSet web successful"),  # once web-2 is gone
    ]
    assert [pod.name for pod in sim.cluster.objects(Pod)] == ["web-0"]
    # Retain (the default): the claims of the removed pods stay, bound.
    claims = {claim.metadata.name: claim.status.phase for claim in sim.cluster.objects(PersistentVolumeClaim)}
    assert claims == {"data-web-0": "Bound", "data-web-1": "Bound", "data-web-2": "Bound"}
    status = sim.cluster.get(StatefulSet, "default/web").status
    assert (status.replicas, status.ready_replicas, status.available_replicas) == (1, 1, 1)


def test_scaling_up_again_reuses_the_claims_of_the_removed_ordinals():
    sim = simulate(
        docs(
            (DATA / "sts_scale_down.yaml").read_text(),
            action("60s", "scale", "StatefulSet/web", ", replicas: 3"),
        )
    )
    assert sorted(pod.name for pod in sim.cluster.objects(Pod)) == ["web-0", "web-1", "web-2"]
    created = [m for t, _, m in events(sim, "StatefulSet/default/web", "SuccessfulCreate") if t >= 60]
    assert created == [
        "create Pod web-1 in StatefulSet web successful",
        "create Pod web-2 in StatefulSet web successful",
    ]  # no "create Claim": data-web-1 and data-web-2 are still there
    assert len(sim.cluster.objects(PersistentVolume)) == 3


def test_a_deleted_pod_comes_back_with_its_name_its_claim_and_on_the_node_of_its_local_volume():
    sim = simulate("sts_ordered_local_pv.yaml", until=65)
    claim = sim.cluster.get(PersistentVolumeClaim, "default/www-web-1")
    node_before = sim.cluster.get(PersistentVolume, claim.spec.volume_name).spec.node_affinity
    assert sim.cluster.get(Pod, "default/web-1").metadata.deletion_timestamp == 60.0

    sim = simulate("sts_ordered_local_pv.yaml")
    again = sim.cluster.get(PersistentVolumeClaim, "default/www-web-1")
    assert again.metadata.uid == claim.metadata.uid  # the same claim, never deleted
    pod = sim.cluster.get(Pod, "default/web-1")
    assert pod.metadata.creation_timestamp == 70.0
    volume = sim.cluster.get(PersistentVolume, again.spec.volume_name)
    assert volume.spec.node_affinity == node_before
    hostname = volume.spec.node_affinity.node_selector_terms[0].match_expressions[0].values[0]
    assert pod.spec.node_name == hostname
    assert events(sim, "Pod/default/web-1", "Scheduled")[-1] == (
        70.0,
        "Scheduled",
        f"Successfully assigned default/web-1 to {hostname}",
    )


def test_a_recreated_pod_waits_for_the_node_of_its_volume():
    """The node holding web-1's volume is cordoned: the new web-1 cannot go anywhere else."""
    base = (DATA / "sts_ordered_local_pv.yaml").read_text()
    sim = simulate(base, until=50)
    node = sim.cluster.get(Pod, "default/web-1").spec.node_name
    sim = simulate(docs(base, action("55s", "cordon", f"Node/{node}")), until=100)
    assert sim.cluster.get(Pod, "default/web-1").spec.node_name == ""
    failed = events(sim, "Pod/default/web-1", "FailedScheduling")
    assert failed[0][0] == 70.0
    assert failed[0][2] == (
        "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) had volume node affinity conflict."
        " no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for"
        " scheduling."
    )
    # web-2 is not touched meanwhile (monotonic: nothing is created or deleted past an unhealthy pod)
    assert sim.cluster.get(Pod, "default/web-2").status.ready


# ---------------------------------------------------------------------------- Parallel


def test_parallel_creates_and_deletes_every_pod_at_once():
    sim = simulate("sts_parallel.yaml")
    created = [(t, m) for t, _, m in events(sim, "StatefulSet/default/web", "SuccessfulCreate")]
    assert created == [
        (0.0, "create Pod web-0 in StatefulSet web successful"),
        (0.0, "create Pod web-1 in StatefulSet web successful"),
        (0.0, "create Pod web-2 in StatefulSet web successful"),
    ]
    deleted = [(t, m) for t, _, m in events(sim, "StatefulSet/default/web", "SuccessfulDelete")]
    assert deleted == [
        (30.0, "delete Pod web-2 in StatefulSet web successful"),
        (30.0, "delete Pod web-1 in StatefulSet web successful"),
        (30.0, "delete Pod web-0 in StatefulSet web successful"),
    ]
    assert sim.cluster.objects(Pod) == []


# ---------------------------------------------------------------------------- updates


def test_rolling_update_with_a_partition_updates_only_the_ordinals_at_or_above_it():
    sim = simulate("sts_rolling_update.yaml", until=30)
    ss = sim.cluster.get(StatefulSet, "default/web")
    pods = {pod.name: pod for pod in sim.cluster.objects(Pod)}
    assert pods["web-2"].spec.containers[0].image == "nginx:1.27"
    assert pods["web-0"].spec.containers[0].image == pods["web-1"].spec.containers[0].image == "nginx:1.26"
    assert pods["web-2"].labels[REVISION_LABEL] == ss.status.update_revision
    assert pods["web-0"].labels[REVISION_LABEL] == ss.status.current_revision != ss.status.update_revision
    assert (ss.status.current_replicas, ss.status.updated_replicas) == (2, 1)


def test_lowering_the_partition_updates_the_rest_highest_ordinal_first():
    sim = simulate("sts_rolling_update.yaml")
    deleted = [(t, m) for t, _, m in events(sim, "StatefulSet/default/web", "SuccessfulDelete")]
    assert deleted == [
        (20.0, "delete Pod web-2 in StatefulSet web successful"),
        (40.0, "delete Pod web-1 in StatefulSet web successful"),
        (46.0, "delete Pod web-0 in StatefulSet web successful"),  # web-1 is back and Ready at 46 s
    ]
    ss = sim.cluster.get(StatefulSet, "default/web")
    assert {pod.spec.containers[0].image for pod in sim.cluster.objects(Pod)} == {"nginx:1.27"}
    assert ss.status.current_revision == ss.status.update_revision
    assert (ss.status.current_replicas, ss.status.updated_replicas, ss.status.ready_replicas) == (3, 3, 3)
    assert [revision.number for revision in controller(sim).revisions(ss)] == [1, 2]


def test_on_delete_replaces_a_pod_only_when_it_is_deleted():
    manifests = docs(
        NODE.format(name="node-a"),
        statefulset(extra_spec="  updateStrategy: {type: OnDelete}\n", image="nginx:1.26"),
        action("20s", "set-image", "StatefulSet/web", ", container: app, image: 'nginx:1.27'"),
        action("40s", "delete", "Pod/web-0"),
    )
    sim = simulate(manifests)
    images = {pod.name: pod.spec.containers[0].image for pod in sim.cluster.objects(Pod)}
    assert images == {"web-0": "nginx:1.27", "web-1": "nginx:1.26", "web-2": "nginx:1.26"}
    assert events(sim, "StatefulSet/default/web", "SuccessfulDelete") == []


def test_rolling_back_reuses_the_earlier_revision():
    manifests = docs(
        NODE.format(name="node-a"),
        statefulset(replicas=1, image="nginx:1.26"),
        action("20s", "set-image", "StatefulSet/web", ", container: app, image: 'nginx:1.27'"),
        action("40s", "set-image", "StatefulSet/web", ", container: app, image: 'nginx:1.26'"),
    )
    sim = simulate(manifests)
    ss = sim.cluster.get(StatefulSet, "default/web")
    revisions = controller(sim).revisions(ss)
    assert [r.number for r in revisions] == [2, 3]  # the first revision, renumbered
    assert revisions[-1].template.spec.containers[0].image == "nginx:1.26"
    assert sim.cluster.get(Pod, "default/web-0").labels[REVISION_LABEL] == revisions[-1].name


# ---------------------------------------------------------------------------- claim retention


RETENTION_CLASS = """apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: standard, annotations: {storageclass.kubernetes.io/is-default-class: "true"}}
provisioner: example.com/disk
"""
CLAIM_TEMPLATE = """  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
"""


def test_when_scaled_delete_removes_the_claims_of_removed_pods_once_they_are_gone():
    policy = "  persistentVolumeClaimRetentionPolicy: {whenScaled: Delete}\n"
    manifests = docs(
        NODE.format(name="node-a"),
        RETENTION_CLASS,
        statefulset(extra_spec=policy, claims=CLAIM_TEMPLATE),
        action("20s", "scale", "StatefulSet/web", ", replicas: 1"),
    )
    sim = simulate(manifests, until=22)
    owner = sim.cluster.get(PersistentVolumeClaim, "default/data-web-2").metadata.controller_ref()
    assert owner is not None and (owner.kind, owner.name) == ("Pod", "web-2")  # condemned: owned by its pod
    sim = simulate(manifests)
    assert [claim.metadata.name for claim in sim.cluster.objects(PersistentVolumeClaim)] == ["data-web-0"]
    # The provisioned volumes of the deleted claims are deleted too (reclaimPolicy Delete).
    assert [volume.spec.claim_ref for volume in sim.cluster.objects(PersistentVolume)] == ["default/data-web-0"]


def test_when_deleted_delete_makes_the_set_own_the_claims_and_removes_them_with_it():
    policy = "  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete}\n"
    manifests = docs(
        NODE.format(name="node-a"),
        RETENTION_CLASS,
        statefulset(replicas=2, extra_spec=policy, claims=CLAIM_TEMPLATE),
        action("20s", "delete", "StatefulSet/web"),
    )
    sim = simulate(manifests, until=10)
    for claim in sim.cluster.objects(PersistentVolumeClaim):
        owner = claim.metadata.controller_ref()
        assert owner is not None and (owner.kind, owner.name) == ("StatefulSet", "web")
    sim = simulate(manifests)
    assert sim.cluster.objects(Pod) == []
    assert sim.cluster.objects(PersistentVolumeClaim) == []
    assert sim.cluster.objects(PersistentVolume) == []


def test_the_default_retain_policy_keeps_claims_when_the_set_is_deleted():
    manifests = docs(
        NODE.format(name="node-a"),
        RETENTION_CLASS,
        statefulset(replicas=2, claims=CLAIM_TEMPLATE),
        action("20s", "delete", "StatefulSet/web"),
    )
    sim = simulate(manifests)
    assert sim.cluster.objects(Pod) == []
    assert sorted(c.metadata.name for c in sim.cluster.objects(PersistentVolumeClaim)) == [
        "data-web-0",
        "data-web-1",
    ]
    assert all(not c.metadata.owner_references for c in sim.cluster.objects(PersistentVolumeClaim))


def test_a_refused_claim_keeps_the_pod_from_being_created_and_is_retried_with_backoff():
    sim = simulate("sts_claim_quota.yaml", until=5)
    refused = (
        'persistentvolumeclaims "data-web-1" is forbidden: exceeded quota: claims, requested:'
        " persistentvolumeclaims=1, used: persistentvolumeclaims=1, limited: persistentvolumeclaims=1"
    )
    failures = events(sim, "StatefulSet/default/web", "FailedCreate")
    assert failures[:2] == [
        (1.0, "FailedCreate", f"create Claim data-web-1 for Pod web-1 in StatefulSet web failed error: {refused}"),
        (
            1.0,
            "FailedCreate",
            f"create Pod web-1 in StatefulSet web failed error: failed to create PVC data-web-1: {refused}",
        ),
    ]
    assert sorted({t for t, _, _ in failures}) == [1.0, 1.005, 1.015, 1.035, 1.075, 1.155, 1.315, 1.635, 2.275, 3.555]
    assert [pod.name for pod in sim.cluster.objects(Pod)] == ["web-0"]


# ---------------------------------------------------------------------------- dynamic provisioning


def test_wait_for_first_consumer_claims_are_provisioned_on_the_pods_node():
    sim = simulate("sts_seed_claims.yaml")
    for ordinal in range(3):
        claim = sim.cluster.get(PersistentVolumeClaim, f"default/data-db-{ordinal}")
        pod = sim.cluster.get(Pod, f"default/db-{ordinal}")
        assert claim.metadata.annotations[ANN_SELECTED_NODE] == pod.spec.node_name
        volume = sim.cluster.get(PersistentVolume, claim.spec.volume_name)
        assert volume.metadata.name == f"pvc-{claim.metadata.uid}"
        assert volume.spec.node_affinity.node_selector_terms[0].match_expressions[0].values == (pod.spec.node_name,)
    assert [
        (e.reason, e.message) for e in sim.cluster.events if e.object == "PersistentVolumeClaim/default/data-db-0"
    ] == [
        ("WaitForFirstConsumer", "waiting for first consumer to be created before binding"),
        (
            "ExternalProvisioning",
            "Waiting for a volume to be created either by the external provisioner 'rancher.io/local-path' or"
            " manually by the system administrator. If volume creation is delayed, please verify that the"
            " provisioner is running and correctly registered.",
        ),
        ("Provisioning", 'External provisioner is provisioning volume for claim "default/data-db-0"'),
        (
            "ProvisioningSucceeded",
            "Successfully provisioned volume "
            + sim.cluster.get(PersistentVolumeClaim, "default/data-db-0").spec.volume_name,
        ),
    ]


# ---------------------------------------------------------------------------- headless service DNS


def test_the_headless_service_gives_ready_pods_stable_dns_names():
    sim = simulate("sts_seed_vs_replicaset.yaml", until=30)
    ss = sim.cluster.get(StatefulSet, "default/web")
    assert stateful_pod_dns_names(sim.cluster, ss) == {
        f"web-{i}": f"web-{i}.nginx.default.svc.cluster.local" for i in range(3)
    }
    assert pod_dns_name("web-0", "nginx", "default", "example.org") == "web-0.nginx.default.svc.example.org"


def test_no_dns_names_without_a_headless_governing_service():
    sim = simulate(docs(NODE.format(name="node-a"), statefulset(replicas=1)))
    assert stateful_pod_dns_names(sim.cluster, sim.cluster.get(StatefulSet, "default/web")) == {}


def test_a_pod_that_is_not_ready_has_no_dns_record_yet():
    sim = simulate("sts_seed_vs_replicaset.yaml", until=8)  # web-0 Ready at 6 s, web-1 created then
    ss = sim.cluster.get(StatefulSet, "default/web")
    assert stateful_pod_dns_names(sim.cluster, ss) == {"web-0": "web-0.nginx.default.svc.cluster.local"}


# ---------------------------------------------------------------------------- minReadySeconds


def test_min_ready_seconds_delays_the_next_ordinal_until_the_pod_is_available():
    sim = simulate(docs(NODE.format(name="node-a"), statefulset(replicas=2, extra_spec="  minReadySeconds: 10\n")))
    created = [(t, m) for t, _, m in events(sim, "StatefulSet/default/web", "SuccessfulCreate")]
    # web-0 is Ready at 1 s and available after 11 s. The set is requeued minReadySeconds after each
    # sync that finds pods unavailable (at 10 s, then 20 s); the requeue 11 s after the pod became
    # ready does not replace the earlier one (AddAfter keeps the earliest time), as upstream's queue.
    assert created == [
        (0.0, "create Pod web-0 in StatefulSet web successful"),
        (20.0, "create Pod web-1 in StatefulSet web successful"),
    ]
    assert sim.cluster.get(StatefulSet, "default/web").status.available_replicas == 2


# ---------------------------------------------------------------------------- determinism


def test_same_scenario_and_seed_replay_event_for_event():
    for name in ("sts_ordered_local_pv.yaml", "sts_seed_claims.yaml", "sts_rolling_update.yaml"):
        first_run = [e.as_dict() for e in simulate(name, seed=7).cluster.events]
        second_run = [e.as_dict() for e in simulate(name, seed=7).cluster.events]
        assert first_run == second_run


# ---------------------------------------------------------------------------- seed 001: StatefulSet vs ReplicaSet


def _owned_by(pod: Pod, kind: str) -> bool:
    owner = pod.metadata.controller_ref()
    return owner is not None and owner.kind == kind


def test_seed_replicaset_pods_get_random_names_statefulset_pods_ordinal_names():
    sim = simulate("sts_seed_vs_replicaset.yaml", until=30)
    pods = sim.cluster.objects(Pod)
    rs_names = sorted(p.name for p in pods if _owned_by(p, "ReplicaSet"))
    sts_names = sorted(p.name for p in pods if _owned_by(p, "StatefulSet"))
    assert sts_names == ["web-0", "web-1", "web-2"]
    assert len(rs_names) == 3
    assert all(name.startswith("web-rs-") and len(name) == len("web-rs-") + 5 for name in rs_names)


def test_seed_replicaset_creates_its_pods_together_statefulset_one_after_the_other():
    sim = simulate("sts_seed_vs_replicaset.yaml")
    rs_created = {t for t, _, _ in events(sim, "ReplicaSet/default/web-rs", "SuccessfulCreate")}
    assert rs_created == {0.0}
    sts_created = [t for t, _, _ in events(sim, "StatefulSet/default/web", "SuccessfulCreate")]
    assert sts_created == [0.0, 6.0, 12.0]  # each after the previous one is Ready (5 s after it starts)


def test_seed_a_recreated_replicaset_pod_gets_a_new_name_a_statefulset_pod_the_same():
    sim = Simulation(load_manifests((DATA / "sts_seed_vs_replicaset.yaml").read_text()), seed=0)
    deleted: dict[str, str] = {}

    def delete_one_of_each() -> None:
        pods = sorted(sim.cluster.objects(Pod), key=lambda p: p.name)
        rs_pod = next(p for p in pods if _owned_by(p, "ReplicaSet"))
        deleted["rs"] = rs_pod.name
        delete_pod(sim, rs_pod)
        delete_pod(sim, sim.cluster.get(Pod, "default/web-1"))

    sim.after(30, delete_one_of_each, label="delete")
    sim.run_to_end(until=50)
    names = {p.name for p in sim.cluster.objects(Pod)}
    assert deleted["rs"] not in names and len([n for n in names if n.startswith("web-rs-")]) == 3
    assert {"web-0", "web-1", "web-2"} <= names
    assert sim.cluster.get(Pod, "default/web-1").metadata.creation_timestamp == 35.0  # after its 5 s grace


def test_seed_scale_to_zero_replicaset_all_at_once_statefulset_highest_index_first():
    sim = simulate("sts_seed_vs_replicaset.yaml")
    rs_deleted = {t for t, _, _ in events(sim, "ReplicaSet/default/web-rs", "SuccessfulDelete")}
    assert rs_deleted == {60.0}
    sts_deleted = [(t, m) for t, _, m in events(sim, "StatefulSet/default/web", "SuccessfulDelete")]
    assert sts_deleted == [
        (60.0, "delete Pod web-2 in StatefulSet web successful"),
        (65.0, "delete Pod web-1 in StatefulSet web successful"),
        (70.0, "delete Pod web-0 in StatefulSet web successful"),
    ]
    assert sim.cluster.objects(Pod) == []


def _claims(pod: Pod) -> list[str]:
    """The claims of the pod's volumes (not its other volumes: the service account token's)."""
    return [volume.persistent_volume_claim for volume in pod.spec.volumes if volume.persistent_volume_claim]


def test_seed_replicaset_pods_share_one_claim_statefulset_pods_each_get_their_own():
    sim = simulate("sts_seed_claims.yaml")
    pods = sim.cluster.objects(Pod)
    rs_claims = {claim for p in pods if _owned_by(p, "ReplicaSet") for claim in _claims(p)}
    assert rs_claims == {"shared-data"}
    sts_claims = {p.name: _claims(p) for p in pods if _owned_by(p, "StatefulSet")}
    assert sts_claims == {"db-0": ["data-db-0"], "db-1": ["data-db-1"], "db-2": ["data-db-2"]}


def test_seed_replicaset_pods_cannot_leave_the_node_of_their_claims_volume():
    sim = simulate("sts_seed_claims.yaml")
    rs_pods = [p for p in sim.cluster.objects(Pod) if _owned_by(p, "ReplicaSet")]
    placed = [p for p in rs_pods if p.spec.node_name]
    assert [p.spec.node_name for p in placed] == ["node-a"]  # room for one of them there
    for pod in rs_pods:
        if pod.spec.node_name:
            continue
        last = events(sim, f"Pod/default/{pod.name}", "FailedScheduling")[-1][2]
        assert last.startswith(
            "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had volume node affinity conflict."
        )


def test_seed_statefulset_pods_spread_with_their_volumes_and_come_back_to_them():
    sim = simulate("sts_seed_claims.yaml")
    nodes = {sim.cluster.get(Pod, f"default/db-{i}").spec.node_name for i in range(3)}
    assert nodes == {"node-a", "node-b", "node-c"}  # one pod, and its volume, per node
    # db-2 was deleted at 60 s: it came back with its claim, on its volume's node.
    db2 = sim.cluster.get(Pod, "default/db-2")
    assert db2.metadata.creation_timestamp == 65.0
    claim = sim.cluster.get(PersistentVolumeClaim, "default/data-db-2")
    assert claim.metadata.creation_timestamp == 4.0
    assert db2.spec.node_name == claim.metadata.annotations[ANN_SELECTED_NODE]


def test_ordered_start_waits_until_a_pod_is_available_for_longer_than_min_ready_seconds():
    """OrderedReady: the next ordinal is created once the one before is Running and available, Ready
    for longer than minReadySeconds; the controller looks again minReadySeconds + 1 s after Ready.
    (An engine that counted the instant itself created them at 20 s and 40 s.)"""
    probe = ", readinessProbe: {initialDelaySeconds: 9}"
    workload = statefulset(replicas=3, extra_spec="  minReadySeconds: 10\n", probe=probe)
    sim = simulate(docs(NODE.format(name="node-a"), workload), until=600.0)
    created = [t for t, _, _ in events(sim, "StatefulSet/default/web", "SuccessfulCreate")]
    assert created == [0.0, 30.0, 60.0]
