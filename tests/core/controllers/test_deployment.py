"""The Deployment controller: ReplicaSets and revisions, RollingUpdate (checked at every change of the
store), Recreate, proportional scaling, rollout undo, pause and resume, revision history, event texts,
determinism, and the worked examples of seed text 003 (rolling update, Recreate, blue-green, quota)."""

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.object_manifest import object_manifest
from scheduler_core.api.types import Pod
from scheduler_core.api.workloads import Deployment, ReplicaSet, Service
from scheduler_core.controllers import deployment_util as util
from scheduler_core.controllers.deployment import DeploymentController
from scheduler_core.controllers.endpoints import service_endpoints
from scheduler_core.controllers.kubelet import Kubelet
from scheduler_core.controllers.naming import template_hash
from scheduler_core.controllers.replicaset import ReplicaSetController
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import Change

DATA = Path(__file__).parent.parent / "data"
HASH = re.compile(r"[bcdfghjklmnpqrstvwxz2456789]+")


def simulation(name: str, *, seed: int = 0, text: str | None = None) -> Simulation:
    return Simulation(load_manifests(text if text is not None else (DATA / name).read_text()), seed=seed)


def simulate(name: str, *, until: float | None = None, seed: int = 0, text: str | None = None) -> Simulation:
    sim = simulation(name, seed=seed, text=text)
    sim.run_to_end(until)
    return sim


def scaling(sim: Simulation, deployment: str = "web") -> list[tuple[float, str]]:
    return [
        (e.time, e.message)
        for e in sim.cluster.events
        if e.reason == "ScalingReplicaSet" and e.object == f"Deployment/default/{deployment}"
    ]


def replica_sets(sim: Simulation, deployment: str = "web") -> list:
    found = [
        rs
        for rs in sim.cluster.objects(ReplicaSet)
        if (ref := rs.metadata.controller_ref()) is not None and ref.name == deployment
    ]
    return sorted(found, key=lambda rs: int(rs.metadata.annotations[util.REVISION_ANNOTATION]))


def live_pods(sim: Simulation, app: str = "web") -> list[Pod]:
    return [
        p
        for p in sim.cluster.objects(Pod)
        if p.metadata.labels.get("app") == app
        and p.metadata.deletion_timestamp is None
        and p.status.phase not in ("Succeeded", "Failed")
    ]


def watch(sim: Simulation, check: Callable[[Change], None]) -> None:
    """Run `check` after every change of the store, once the controllers have seen it."""
    sim.cluster.watch(check)


# ---------------------------------------------------------------------------- helpers of deployment/util


@pytest.mark.parametrize(
    ("surge", "unavailable", "replicas", "expected"),
    [
        ("25%", "25%", 10, (3, 2)),  # surge rounds up, unavailability down
        ("25%", "25%", 4, (1, 1)),
        ("25%", "25%", 1, (1, 0)),
        (1, 0, 3, (1, 0)),
        ("0%", "1%", 10, (0, 1)),  # both resolve to 0: unavailability becomes 1
        (0, "10%", 5, (0, 1)),
        (2, 2, 3, (2, 2)),
        ("50%", "100%", 3, (2, 3)),
    ],
)
def test_resolve_fenceposts(surge, unavailable, replicas, expected):
    assert util.resolve_fenceposts(surge, unavailable, replicas) == expected


def test_revision_helpers():
    assert util.round_half_away(2.5) == 3 and util.round_half_away(-2.5) == -3 and util.round_half_away(2.49) == 2
    annotations = {util.REVISION_ANNOTATION: "2", util.REVISION_HISTORY_ANNOTATION: "1"}
    sim = simulate("deploy_rollback.yaml", until=5)
    d = sim.cluster.get(Deployment, "default/web")
    assert util.set_new_replica_set_annotations(d, annotations, "5", True, 2000)
    assert annotations[util.REVISION_ANNOTATION] == "5" and annotations[util.REVISION_HISTORY_ANNOTATION] == "1,2"
    assert annotations["kubernetes.io/change-cause"] == "create"  # copied from the deployment
    assert util.DESIRED_REPLICAS_ANNOTATION not in annotations  # only set when the ReplicaSet is created


# ---------------------------------------------------------------------------- creation


def test_a_deployment_runs_its_pods_through_a_replica_set_named_by_its_template_hash():
    sim = simulate("deploy_rolling_surge1.yaml", until=5)
    (rs,) = replica_sets(sim)
    hash_value = rs.metadata.labels[util.POD_TEMPLATE_HASH_LABEL]
    assert HASH.fullmatch(hash_value) and rs.metadata.name == f"web-{hash_value}"
    assert rs.spec.selector.match_labels == {"app": "web", "pod-template-hash": hash_value}
    assert rs.spec.template.labels == {"app": "web", "pod-template-hash": hash_value}
    assert dict(rs.metadata.annotations) == {
        "deployment.kubernetes.io/revision": "1",
        "deployment.kubernetes.io/desired-replicas": "3",
        "deployment.kubernetes.io/max-replicas": "4",
    }
    ref = rs.metadata.controller_ref()
    d = sim.cluster.get(Deployment, "default/web")
    assert (ref.kind, ref.name, ref.uid, ref.api_version) == ("Deployment", "web", d.metadata.uid, "apps/v1")
    assert d.metadata.annotations[util.REVISION_ANNOTATION] == "1"
    assert scaling(sim) == [(0.0, f"Scaled up replica set web-{hash_value} from 0 to 3")]
    assert {e.source for e in sim.cluster.events if e.reason == "ScalingReplicaSet"} == {"deployment-controller"}
    assert all(p.metadata.labels[util.POD_TEMPLATE_HASH_LABEL] == hash_value for p in live_pods(sim))
    status = d.status
    assert (status.replicas, status.updated_replicas, status.ready_replicas, status.available_replicas) == (3, 3, 3, 3)
    assert status.unavailable_replicas == 0 and status.observed_generation == d.generation
    conditions = sim.controller("deployment").conditions("default/web")
    assert (conditions["Available"].status, conditions["Available"].reason) == ("True", "MinimumReplicasAvailable")
    assert conditions["Progressing"].reason == "NewReplicaSetAvailable"
    assert conditions["Progressing"].message == f'ReplicaSet "web-{hash_value}" has successfully progressed.'
    # The stored object carries them (status.conditions), as the controller last wrote them.
    assert d.status.conditions == tuple(conditions.values())
    assert [(c.type, c.status, c.reason) for c in d.status.conditions] == [
        ("Available", "True", "MinimumReplicasAvailable"),
        ("Progressing", "True", "NewReplicaSetAvailable"),
    ]


STUCK = """
apiVersion: v1
kind: Node
metadata: {name: worker1}
status: {capacity: {cpu: "2", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  progressDeadlineSeconds: 30
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: app, image: nginx, resources: {requests: {cpu: "%s"}}}]
"""


def test_a_stuck_rollout_is_reported_once_its_progress_deadline_passes():
    """progress.go: one pod of two cannot be placed; 30 s after the last progress (the first pod
    available at 1 s) and a second against skew, Progressing turns False with
    ProgressDeadlineExceeded. Nothing else happens meanwhile, yet the run goes on to write it."""
    sim = simulate("deploy_progress_deadline.yaml")
    d = sim.cluster.get(Deployment, "default/web")
    (rs,) = replica_sets(sim)
    progressing = next(c for c in d.status.conditions if c.type == "Progressing")
    assert (progressing.status, progressing.reason, progressing.message) == (
        "False",
        "ProgressDeadlineExceeded",
        f'ReplicaSet "{rs.metadata.name}" has timed out progressing.',
    )
    assert progressing.last_transition_time == pytest.approx(31.005)  # the requeue's 5 ms rate limit
    available = next(c for c in d.status.conditions if c.type == "Available")
    assert (available.status, available.reason) == ("False", "MinimumReplicasUnavailable")
    assert sim.now == pytest.approx(31.005)


def test_a_rollout_that_completes_leaves_its_deadline_nothing_to_do():
    sim = simulate("", text=STUCK % "500m")
    d = sim.cluster.get(Deployment, "default/web")
    assert [c.reason for c in d.status.conditions] == ["MinimumReplicasAvailable", "NewReplicaSetAvailable"]
    assert sim.now == 1.0  # the pods started at 1 s; the deadline's timer does not hold the run


# ---------------------------------------------------------------------------- rolling update


def rolling_invariant(sim: Simulation, replicas: int, surge: int, unavailable: int) -> dict[str, int]:
    """At every change: active pods <= replicas + maxSurge; once all are up, available >= replicas - maxUnavailable."""
    seen = {"most": 0, "fewest_ready": replicas, "checks": 0}
    state = {"up": False}

    def check(change: Change) -> None:
        if change.kind not in ("Pod", "ReplicaSet"):
            return
        pods = live_pods(sim)
        ready = sum(1 for p in pods if p.status.ready)
        assert len(pods) <= replicas + surge, f"{len(pods)} pods at t={sim.now}"
        if ready == replicas:
            state["up"] = True
        if state["up"]:
            assert ready >= replicas - unavailable, f"{ready} ready at t={sim.now}"
            seen["fewest_ready"] = min(seen["fewest_ready"], ready)
        seen["most"] = max(seen["most"], len(pods))
        seen["checks"] += 1

    watch(sim, check)
    return seen


def test_rolling_update_with_max_surge_1_and_max_unavailable_0():
    sim = simulation("deploy_rolling_surge1.yaml")
    seen = rolling_invariant(sim, replicas=3, surge=1, unavailable=0)
    sim.run_to_end()
    old, new = replica_sets(sim)
    o, n = old.metadata.name, new.metadata.name
    assert scaling(sim) == [
        (0.0, f"Scaled up replica set {o} from 0 to 3"),
        (10.0, f"Scaled up replica set {n} from 0 to 1"),
        (11.0, f"Scaled down replica set {o} from 3 to 2"),
        (11.0, f"Scaled up replica set {n} from 1 to 2"),
        (12.0, f"Scaled down replica set {o} from 2 to 1"),
        (12.0, f"Scaled up replica set {n} from 2 to 3"),
        (13.0, f"Scaled down replica set {o} from 1 to 0"),
    ]
    assert seen["most"] == 4 and seen["fewest_ready"] == 3 and seen["checks"] > 40
    assert (old.spec.replicas, new.spec.replicas) == (0, 3)
    assert {p.spec.containers[0].image for p in live_pods(sim)} == {"nginx:1.26"}
    assert new.metadata.annotations[util.REVISION_ANNOTATION] == "2"


def test_rolling_update_25_percent_on_10_replicas_keeps_13_pods_at_most_and_8_available_at_least():
    sim = simulation("deploy_rolling_percent.yaml")
    seen = rolling_invariant(sim, replicas=10, surge=3, unavailable=2)
    sim.run_to_end()
    old, new = replica_sets(sim)
    o, n = old.metadata.name, new.metadata.name
    assert scaling(sim)[:4] == [
        (0.0, f"Scaled up replica set {o} from 0 to 10"),
        (10.0, f"Scaled up replica set {n} from 0 to 3"),
        (10.0, f"Scaled down replica set {o} from 10 to 8"),
        (10.0, f"Scaled up replica set {n} from 3 to 5"),
    ]
    assert seen["most"] == 13 and seen["fewest_ready"] == 8
    assert new.metadata.annotations[util.MAX_REPLICAS_ANNOTATION] == "13"
    assert (old.spec.replicas, new.spec.replicas, len(live_pods(sim))) == (0, 10, 10)
    d = sim.cluster.get(Deployment, "default/web")
    assert util.deployment_complete(d, d.status)


def test_old_pods_on_the_busiest_node_go_first():
    # The ReplicaSet ranks its pods with the pods of every ReplicaSet of the deployment: an old pod on a
    # node with more of the deployment's pods ("doubled up") is deleted before one on an emptier node.
    sim = simulation("deploy_rolling_surge1.yaml")
    checked: list[tuple[int, int]] = []

    def check(change: Change) -> None:
        if change.kind != "Pod" or change.old is None or change.new is None:
            return
        if change.old.metadata.deletion_timestamp is not None or change.new.metadata.deletion_timestamp is None:
            return
        image = change.new.spec.containers[0].image
        pods = live_pods(sim)

        def crowd(node: str) -> int:
            return sum(1 for p in pods if p.spec.node_name == node)

        doomed = crowd(change.new.spec.node_name) + 1
        others = [crowd(p.spec.node_name) for p in pods if p.spec.containers[0].image == image]
        checked.append((doomed, max(others, default=0)))

    watch(sim, check)
    sim.run_to_end()
    assert len(checked) == 3
    assert all(doomed >= other for doomed, other in checked)


# ---------------------------------------------------------------------------- Recreate


def test_recreate_never_runs_both_versions_and_waits_for_old_pods_to_be_gone():
    sim = simulation("deploy_recreate.yaml")
    overlaps: list[float] = []

    def check(change: Change) -> None:
        if change.kind == "Pod" and change.old is None:
            images = {p.spec.containers[0].image for p in sim.cluster.objects(Pod)}
            if len(images) > 1:
                overlaps.append(sim.now)

    watch(sim, check)
    sim.run_to_end()
    old, new = replica_sets(sim)
    assert overlaps == []
    assert scaling(sim) == [
        (0.0, f"Scaled up replica set {old.metadata.name} from 0 to 3"),
        (10.0, f"Scaled down replica set {old.metadata.name} from 3 to 0"),
        # The old pods terminate for their 5 s grace period; only then the new ReplicaSet appears.
        (15.0, f"Scaled up replica set {new.metadata.name} from 0 to 3"),
    ]
    assert new.metadata.creation_timestamp == 15.0
    assert {p.spec.containers[0].image for p in live_pods(sim)} == {"nginx:1.26"}
    assert old.metadata.annotations[util.MAX_REPLICAS_ANNOTATION] == "3"  # no surge with Recreate


# ---------------------------------------------------------------------------- proportional scaling


def test_scaling_mid_rollout_is_proportional():
    sim = simulate("deploy_proportional.yaml", until=60)
    old, new = replica_sets(sim, "nginx-deployment")
    o, n = old.metadata.name, new.metadata.name
    assert scaling(sim, "nginx-deployment") == [
        (0.0, f"Scaled up replica set {o} from 0 to 10"),
        (10.0, f"Scaled up replica set {n} from 0 to 3"),
        (10.0, f"Scaled down replica set {o} from 10 to 8"),
        (10.0, f"Scaled up replica set {n} from 3 to 5"),
        # 15 + maxSurge 3 = 18 allowed, 13 there: 5 more, 3 to the larger (old) and 2 to the new one.
        (30.0, f"Scaled up replica set {o} from 8 to 11"),
        (30.0, f"Scaled up replica set {n} from 5 to 7"),
    ]
    for rs in (old, new):
        assert rs.metadata.annotations[util.DESIRED_REPLICAS_ANNOTATION] == "15"
        assert rs.metadata.annotations[util.MAX_REPLICAS_ANNOTATION] == "18"


# ---------------------------------------------------------------------------- rollback


def test_rollout_undo_goes_back_to_the_previous_revision_or_the_one_asked_for():
    sim = simulate("deploy_rollback.yaml")
    rollbacks = [(e.time, e.type, e.reason, e.message) for e in sim.cluster.events if "Rollback" in e.reason]
    assert rollbacks == [
        (50.0, "Normal", "DeploymentRollback", 'Rolled back deployment "web" to revision 2'),
        (70.0, "Normal", "DeploymentRollback", 'Rolled back deployment "web" to revision 1'),
        (90.0, "Warning", "DeploymentRollbackRevisionNotFound", "Unable to find the revision to rollback to."),
        (
            100.0,
            "Warning",
            "DeploymentRollbackTemplateUnchanged",
            'The rollback revision contains the same template as current deployment "web"',
        ),
    ]
    by_image = {rs.spec.template.spec.containers[0].image: rs for rs in replica_sets(sim)}
    assert len(by_image) == 3  # a rollback reuses the old ReplicaSet
    revisions = {
        image: (
            rs.metadata.annotations[util.REVISION_ANNOTATION],
            rs.metadata.annotations.get(util.REVISION_HISTORY_ANNOTATION),
        )
        for image, rs in by_image.items()
    }
    assert revisions == {"nginx:1.25": ("5", "1"), "nginx:1.26": ("4", "2"), "nginx:1.27": ("3", None)}
    d = sim.cluster.get(Deployment, "default/web")
    assert d.spec.template.spec.containers[0].image == "nginx:1.25"
    assert util.POD_TEMPLATE_HASH_LABEL not in d.spec.template.labels
    assert util.ROLLBACK_TO_ANNOTATION not in d.metadata.annotations
    assert d.metadata.annotations[util.REVISION_ANNOTATION] == "5"
    assert {p.spec.containers[0].image for p in live_pods(sim)} == {"nginx:1.25"}
    # After the undo at 50 s the rollout goes to the ReplicaSet of revision 2 like any other.
    assert (50.0, f"Scaled up replica set {by_image['nginx:1.26'].metadata.name} from 0 to 1") in scaling(sim)


# ---------------------------------------------------------------------------- pause and resume


def test_a_paused_deployment_scales_but_does_not_roll_out_until_resumed():
    sim = simulate("deploy_pause.yaml", until=19)
    (rs,) = replica_sets(sim)
    assert rs.spec.template.spec.containers[0].image == "nginx:1.25" and rs.spec.replicas == 5
    conditions = sim.controller("deployment").conditions("default/web")
    assert (conditions["Progressing"].status, conditions["Progressing"].reason) == ("Unknown", "DeploymentPaused")
    failed = [(e.time, e.message) for e in sim.cluster.events if e.reason == "FailedAction"]
    assert failed == [
        (13.0, 'pause: deployments.apps "web" is already paused'),
        (
            14.0,
            "rollout-undo: you cannot rollback a paused deployment; "
            "resume it first with 'kubectl rollout resume' and try again",
        ),
    ]
    sim = simulate("deploy_pause.yaml")
    old, new = replica_sets(sim)
    assert scaling(sim)[1] == (12.0, f"Scaled up replica set {old.metadata.name} from 3 to 5")
    assert scaling(sim)[2] == (20.0, f"Scaled up replica set {new.metadata.name} from 0 to 2")
    assert (old.spec.replicas, new.spec.replicas) == (0, 5)
    assert {p.spec.containers[0].image for p in live_pods(sim)} == {"nginx:1.26"}


# ---------------------------------------------------------------------------- history and deletion


def test_revision_history_limit_keeps_the_newest_old_replica_sets():
    sim = simulate("deploy_history.yaml", until=50)
    kept = [
        (rs.metadata.annotations[util.REVISION_ANNOTATION], rs.spec.template.spec.containers[0].image)
        for rs in replica_sets(sim)
    ]
    assert kept == [("3", "nginx:3"), ("4", "nginx:4"), ("5", "nginx:5")]


def test_deleting_a_deployment_deletes_its_replica_sets_and_their_pods():
    sim = simulate("deploy_history.yaml")
    assert sim.cluster.objects(Deployment) == []
    assert sim.cluster.objects(ReplicaSet) == []
    assert sim.cluster.objects(Pod) == []


# ---------------------------------------------------------------------------- determinism


def test_same_seed_same_events_and_another_seed_other_names():
    first = [e.as_dict() for e in simulate("deploy_rolling_percent.yaml", seed=7).cluster.events]
    second = [e.as_dict() for e in simulate("deploy_rolling_percent.yaml", seed=7).cluster.events]
    assert first == second and len(first) > 100
    other = [e.as_dict() for e in simulate("deploy_rolling_percent.yaml", seed=8).cluster.events]
    assert [e["message"] for e in other if e["reason"] == "ScalingReplicaSet"] == [
        e["message"] for e in first if e["reason"] == "ScalingReplicaSet"
    ]  # the hash comes from the template, not the seed
    assert [e["message"] for e in other if e["reason"] == "SuccessfulCreate"] != [
        e["message"] for e in first if e["reason"] == "SuccessfulCreate"
    ]


# ---------------------------------------------------------------------------- seed 003


def test_seed_003_rolling_update_max_surge_2_max_unavailable_2():
    # replicas 3, maxSurge 2, maxUnavailable 2: never more than 5 pods, never fewer than 1 available.
    sim = simulation("deploy_seed_rolling.yaml")
    pods_seen: list[int] = []
    ready_seen: list[int] = []

    def check(change: Change) -> None:
        if change.kind == "Pod" and sim.now >= 20:
            pods = live_pods(sim, "nginx")
            pods_seen.append(len(pods))
            ready_seen.append(sum(1 for p in pods if p.status.ready))

    watch(sim, check)
    sim.run_to_end()
    old, new = replica_sets(sim, "nginx")
    o, n = old.metadata.name, new.metadata.name
    assert scaling(sim, "nginx") == [
        (0.0, f"Scaled up replica set {o} from 0 to 3"),
        (20.0, f"Scaled up replica set {n} from 0 to 2"),
        (20.0, f"Scaled down replica set {o} from 3 to 1"),
        (20.0, f"Scaled up replica set {n} from 2 to 3"),
        (26.0, f"Scaled down replica set {o} from 1 to 0"),
    ]
    assert max(pods_seen) == 5 and min(ready_seen) == 1
    assert {p.spec.containers[0].image for p in live_pods(sim, "nginx")} == {"nginx:1.26"}


def test_seed_003_recreate_deletes_every_old_pod_before_creating_new_ones():
    sim = simulation("deploy_recreate.yaml")
    counts: list[tuple[float, int, int]] = []

    def check(change: Change) -> None:
        if change.kind == "Pod":
            pods = sim.cluster.objects(Pod)
            old = sum(1 for p in pods if p.spec.containers[0].image == "nginx:1.25")
            counts.append((sim.now, old, len(pods) - old))

    watch(sim, check)
    sim.run_to_end()
    assert all(old == 0 or new == 0 for _, old, new in counts)
    assert any(t > 10 and old == new == 0 for t, old, new in counts)  # the downtime the text warns of


def test_seed_003_blue_green_switches_the_service_selector_and_keeps_both_versions():
    sim = simulate("deploy_seed_blue_green.yaml", until=29)
    service = sim.cluster.get(Service, "default/web")
    assert dict(service.spec.selector) == {"app": "web", "version": "blue"}
    blue = sorted(e.pod for e in service_endpoints(sim.cluster, "default", "web"))
    assert len(blue) == 3 and all(name.startswith("web-blue-") for name in blue)
    assert len(live_pods(sim)) == 6  # green runs beside blue, not serving yet

    sim = simulate("deploy_seed_blue_green.yaml")
    service = sim.cluster.get(Service, "default/web")
    assert dict(service.spec.selector) == {"app": "web", "version": "green"}
    green = sorted(e.pod for e in service_endpoints(sim.cluster, "default", "web"))
    assert len(green) == 3 and all(name.startswith("web-green-") for name in green)
    for name in ("web-blue", "web-green"):
        d = sim.cluster.get(Deployment, f"default/{name}")
        assert d.status.available_replicas == 3 and d.generation == 1
    assert sorted(p.name for p in live_pods(sim)) == sorted([*blue, *green])  # nobody restarted
    assert not [e for e in sim.cluster.events if e.reason in ("SuccessfulDelete", "Killing")]


def test_seed_003_a_deployment_over_quota_is_created_but_its_replica_set_cannot_create_pods():
    sim = simulate("deploy_seed_quota.yaml")
    d = sim.cluster.get(Deployment, "default/deployment-over-quota")
    assert d is not None and d.status.replicas == 0 and d.status.unavailable_replicas == 1
    (rs,) = replica_sets(sim, "deployment-over-quota")
    assert rs.spec.replicas == 1 and rs.status.replicas == 0
    assert sim.cluster.objects(Pod) == []
    failures = [e for e in sim.cluster.events if e.reason == "FailedCreate"]
    assert failures and {e.object for e in failures} == {f"ReplicaSet/default/{rs.metadata.name}"}
    assert all(e.type == "Warning" and e.source == "replicaset-controller" for e in failures)
    assert re.fullmatch(
        rf'Error creating: pods "{rs.metadata.name}-\w{{5}}" is forbidden: exceeded quota: resource-quota-example, .*',
        failures[0].message,
    )
    assert not [e for e in sim.cluster.events if e.object.startswith("Deployment/") and e.type == "Warning"]


# ---------------------------------------------------------------------------- cost


class _Binder:
    """A stand-in scheduler that binds every new pod round-robin, to keep the scheduler out of the count."""

    name = "binder"

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.pending: list[str] = []
        self.bound = 0

    def on_change(self, change: Change) -> None:
        pod = change.new
        if change.kind == "Pod" and pod is not None and not pod.spec.node_name and change.old is None:
            self.pending.append(change.key)

    def sync(self) -> bool:
        pending, self.pending = self.pending, []
        for key in pending:
            pod = self.ctx.cluster.get(Pod, key)
            if pod is not None and not pod.spec.node_name:
                self.bound += 1
                spec = replace(pod.spec, node_name=f"node-{self.bound % 20}")
                self.ctx.cluster.update(replace(pod, spec=spec))
        return bool(pending)


def test_reconciling_never_lists_every_pod_or_replica_set():
    # 30 deployments of 5 replicas roll at once; the controllers find pods and ReplicaSets through the
    # indexes they keep from the watch, never by listing the whole store.
    nodes = [
        f"apiVersion: v1\nkind: Node\nmetadata: {{name: node-{i}}}\nstatus: {{capacity: {{cpu: '8', pods: '110'}}}}\n"
        for i in range(20)
    ]
    deployments = [
        f"apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: app-{j}}}\nspec:\n  replicas: 5\n"
        f"  selector: {{matchLabels: {{app: app-{j}}}}}\n  template:\n    metadata: {{labels: {{app: app-{j}}}}}\n"
        f"    spec: {{containers: [{{name: c, image: 'img:1'}}]}}\n---\n"
        f"apiVersion: playground/v1\nkind: Action\n"
        f"spec: {{at: 10s, op: set-image, target: Deployment/app-{j}, image: 'img:2'}}\n"
        for j in range(30)
    ]
    sim = Simulation(
        load_manifests("---\n".join(nodes + deployments)),
        controllers=[DeploymentController, ReplicaSetController, _Binder, Kubelet],
    )
    listed: list[str] = []
    objects, items = sim.cluster.objects, sim.cluster.items

    def counting_objects(kind: str):
        listed.append(kind)
        return objects(kind)

    def counting_items(kind: str):
        listed.append(kind)
        return items(kind)

    sim.cluster.objects = counting_objects  # type: ignore[method-assign]
    sim.cluster.items = counting_items  # type: ignore[method-assign]
    sim.run_to_end()
    assert "Pod" not in listed and "ReplicaSet" not in listed and "Deployment" not in listed
    assert sum(1 for p in objects("Pod") if p.spec.containers[0].image == "img:2") == 150


COLLIDING = """apiVersion: v1
kind: Node
metadata: {name: worker1}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: nginx}]}
"""


def test_a_taken_replica_set_name_bumps_the_collision_count_and_the_hash():
    """getNewReplicaSet: the name "<deployment>-<hash>" is taken by a ReplicaSet this Deployment
    does not own with another template, so status.collisionCount goes to 1 (written at once) and
    the next sync names its ReplicaSet with the hash of the template and that count."""
    (deployment,) = [m.object for m in load_manifests(COLLIDING) if isinstance(m.object, Deployment)]
    taken = f"web-{template_hash(deployment.spec.template)}"
    squatter = f"""apiVersion: apps/v1
kind: ReplicaSet
metadata: {{name: {taken}}}
spec:
  replicas: 0
  selector: {{matchLabels: {{app: other}}}}
  template:
    metadata: {{labels: {{app: other}}}}
    spec: {{containers: [{{name: app, image: busybox}}]}}
"""
    sim = simulate("", text=COLLIDING + "---\n" + squatter, until=30)
    web = sim.cluster.get(Deployment, "default/web")
    assert web.status.collision_count == 1
    names = sorted(rs.metadata.name for rs in sim.cluster.objects(ReplicaSet))
    assert names == sorted([taken, f"web-{template_hash(deployment.spec.template, 1)}"])
    assert object_manifest(web)["status"]["collisionCount"] == 1
