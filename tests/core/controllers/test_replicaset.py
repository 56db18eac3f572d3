"""The ReplicaSet controller: pods created and deleted to match replicas, upstream's deletion ranking,
FailedCreate with the workqueue's backoff, status with minReadySeconds, adoption and release, and the
deletion of a ReplicaSet's pods after it."""

import re
from collections.abc import Callable
from dataclasses import replace
from types import MappingProxyType

import yaml

from scheduler_core.api.conditions import REPLICA_FAILURE, condition_of_type
from scheduler_core.api.manifests import load_manifests, parse_object
from scheduler_core.api.types import LabelSelector, ObjectMeta, OwnerReference, Pod, PodSpec, PodStatus
from scheduler_core.api.workloads import Deployment, ReplicaSet
from scheduler_core.controllers.pod_deletion import (
    deletion_cost,
    rank_pods_for_deletion,
    ranks_by_related_pods_on_same_node,
)
from scheduler_core.controllers.replicaset import slow_start_batch
from scheduler_core.simulation.simulation import Simulation
from tests.core.controllers.node_health_helpers import simulate as simulate_file

NODE = """apiVersion: v1
kind: Node
metadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}}}}}
status: {{capacity: {{cpu: "{cpu}", memory: 16Gi, pods: "110"}}}}
"""


def replica_set(replicas: int = 3, *, extra_spec: str = "", template_extra: str = "", name: str = "frontend") -> str:
    return f"""apiVersion: apps/v1
kind: ReplicaSet
metadata: {{name: {name}}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{tier: {name}}}}}{extra_spec}
  template:
    metadata: {{labels: {{tier: {name}}}}}
    spec:
      terminationGracePeriodSeconds: 5{template_extra}
      containers: [{{name: php, image: "php:8", resources: {{requests: {{cpu: 100m}}}}}}]
"""


def action(spec: str) -> str:
    return f"apiVersion: playground/v1\nkind: Action\nspec: {{{spec}}}\n"


def simulate(*documents: str, until: float | None = None, seed: int = 0) -> Simulation:
    sim = Simulation(load_manifests("---\n".join(documents)), seed=seed)
    sim.run_to_end(until)
    return sim


def pods_of(sim: Simulation, owner: str = "frontend", *, active_only: bool = True) -> list[Pod]:
    pods = [
        p
        for p in sim.cluster.objects(Pod)
        if (ref := p.metadata.controller_ref()) is not None and ref.kind == "ReplicaSet" and ref.name == owner
    ]
    if active_only:
        pods = [p for p in pods if p.metadata.deletion_timestamp is None]
    return sorted(pods, key=lambda p: p.name)


def events(sim: Simulation, reason: str, obj: str = "ReplicaSet/default/frontend") -> list[tuple[float, str]]:
    return [(e.time, e.message) for e in sim.cluster.events if e.reason == reason and e.object == obj]


# ---------------------------------------------------------------------------- creation


def test_pods_are_created_with_generated_names_owner_references_and_the_templates_labels():
    sim = simulate(NODE.format(name="worker1", cpu=4), replica_set(3))
    rs = sim.cluster.get(ReplicaSet, "default/frontend")
    pods = pods_of(sim)
    assert len(pods) == 3
    for pod in pods:
        assert re.fullmatch(r"frontend-[bcdfghjklmnpqrstvwxz2456789]{5}", pod.name)
        assert pod.metadata.generate_name == "frontend-"
        assert dict(pod.metadata.labels) == {"tier": "frontend"}
        (ref,) = pod.metadata.owner_references
        assert (ref.kind, ref.name, ref.uid, ref.api_version, ref.controller) == (
            "ReplicaSet",
            "frontend",
            rs.metadata.uid,
            "apps/v1",
            True,
        )
    created = events(sim, "SuccessfulCreate")
    assert [message for _, message in created] == [f"Created pod: {pod.name}" for pod in _by_creation(sim, pods)]
    assert {e.source for e in sim.cluster.events if e.reason == "SuccessfulCreate"} == {"replicaset-controller"}
    assert rs.status.replicas == rs.status.ready_replicas == rs.status.available_replicas == 3
    assert rs.status.fully_labeled_replicas == 3 and rs.status.observed_generation == rs.generation


def _by_creation(sim: Simulation, pods: list[Pod]) -> list[Pod]:
    order = [e.message.removeprefix("Created pod: ") for e in sim.cluster.events if e.reason == "SuccessfulCreate"]
    return sorted(pods, key=lambda p: order.index(p.name))


def test_slow_start_batches_double_and_stop_after_a_batch_with_a_failure():
    calls: list[int] = []

    def ok() -> str | None:
        calls.append(1)
        return None

    assert slow_start_batch(10, 1, ok) == (10, None)
    assert len(calls) == 10
    outcomes = iter([None, None, None, "boom", None, None, None, None])
    attempted: list[int] = []

    def flaky() -> str | None:
        attempted.append(1)
        return next(outcomes)

    # Batches of 1, 2, then 4 (whose first attempt fails): 7 attempts, 6 successes, no batch of 8.
    assert slow_start_batch(20, 1, flaky) == (6, "boom")
    assert len(attempted) == 7


# ---------------------------------------------------------------------------- deletion ranking


def test_scaling_down_deletes_unscheduled_pods_before_scheduled_ones():
    # Room for 3 pods of 1500m on the node: the fourth stays Pending, unscheduled, and goes first.
    template = "\n      nodeSelector: {kubernetes.io/hostname: worker1}"
    rs = replica_set(4, template_extra=template).replace("cpu: 100m", "cpu: 1200m")
    sim = simulate(
        NODE.format(name="worker1", cpu=4), rs, action("at: 10s, op: scale, target: ReplicaSet/frontend, replicas: 3")
    )
    (deleted,) = events(sim, "SuccessfulDelete")
    assert deleted[0] == 10.0
    remaining = pods_of(sim)
    assert len(remaining) == 3 and all(p.spec.node_name == "worker1" for p in remaining)
    assert sim.cluster.get(Pod, "default/" + deleted[1].removeprefix("Deleted pod: ")) is None


def test_scaling_down_deletes_the_most_recently_ready_pods_first():
    # Two pods ready at 1 s, two more at 11 s: scaling to 2 at 20 s deletes the two ready for 9 s,
    # not those ready for 19 s (a lower log2 bucket of readiness). Same again with pods added at 100 s.
    scales = [(10, 4), (20, 2), (100, 4), (200, 2)]
    sim = simulate(
        NODE.format(name="worker1", cpu=8),
        replica_set(2, template_extra="\n      nodeName: worker1"),
        *(action(f"at: {t}s, op: scale, target: ReplicaSet/frontend, replicas: {n}") for t, n in scales),
    )
    created = [m.removeprefix("Created pod: ") for _, m in events(sim, "SuccessfulCreate")]
    deleted = [(t, m.removeprefix("Deleted pod: ")) for t, m in events(sim, "SuccessfulDelete")]
    assert len(created) == 6
    originals, at_10, at_100 = created[:2], created[2:4], created[4:]
    assert sorted(name for t, name in deleted if t == 20.0) == sorted(at_10)
    assert sorted(name for t, name in deleted if t == 200.0) == sorted(at_100)
    assert sorted(p.name for p in pods_of(sim)) == sorted(originals)


def test_not_ready_pods_are_deleted_before_ready_ones():
    rs = replica_set(2, template_extra="\n      nodeName: worker1")
    apply_probe = action(
        "at: 10s, op: apply, manifest: {apiVersion: apps/v1, kind: ReplicaSet, metadata: {name: frontend}, "
        "spec: {replicas: 4, selector: {matchLabels: {tier: frontend}}, template: {metadata: {labels: "
        "{tier: frontend}}, spec: {nodeName: worker1, terminationGracePeriodSeconds: 5, containers: "
        '[{name: php, image: "php:8", readinessProbe: {initialDelaySeconds: 30}}]}}}}'
    )
    sim = simulate(
        NODE.format(name="worker1", cpu=8),
        rs,
        apply_probe,
        action("at: 20s, op: scale, target: ReplicaSet/frontend, replicas: 2"),
    )
    created = [m.removeprefix("Created pod: ") for _, m in events(sim, "SuccessfulCreate")]
    deleted = [m.removeprefix("Deleted pod: ") for t, m in events(sim, "SuccessfulDelete") if t == 20.0]
    # The pods made at 10 s run but are not ready until 41 s: they go, the two ready ones stay.
    assert sorted(deleted) == sorted(created[2:])
    assert all(p.status.ready for p in pods_of(sim))


def _pod(name: str, *, node: str = "n1", phase: str = "Running", ready: bool = True, created: float = 0.0, **kw) -> Pod:
    annotations = kw.get("annotations", {})
    return Pod(
        metadata=ObjectMeta(
            name, "default", uid=kw.get("uid", name), annotations=annotations, creation_timestamp=created
        ),
        spec=PodSpec(node_name=node),
        status=PodStatus(phase=phase, ready=ready, ready_changed=kw.get("ready_changed")),
    )


def test_deletion_ranking_follows_upstream_order():
    now = 1000.0
    unassigned = _pod("unassigned", node="", phase="Pending", ready=False)
    pending = _pod("pending", phase="Pending", ready=False)
    not_ready = _pod("not-ready", ready=False)
    cheap = _pod("cheap", annotations={"controller.kubernetes.io/pod-deletion-cost": "-5"}, ready_changed=10.0)
    doubled = _pod("doubled", node="n2", ready_changed=10.0)
    young = _pod("young", node="n3", created=900.0, ready_changed=901.0)
    old = _pod("old", node="n4", created=0.0, ready_changed=10.0)
    pods = [old, young, doubled, cheap, not_ready, pending, unassigned]
    related = [*pods, _pod("sibling", node="n2")]
    ranks = ranks_by_related_pods_on_same_node(pods, related)
    ranked = rank_pods_for_deletion(pods, ranks, now)
    assert [p.name for p in ranked] == ["unassigned", "pending", "not-ready", "cheap", "doubled", "young", "old"]


def test_ready_times_in_the_same_log2_bucket_fall_back_to_uid():
    now = 1000.0
    a = _pod("a", uid="b-uid", created=0.0, ready_changed=800.0)
    b = _pod("b", uid="a-uid", created=0.0, ready_changed=790.0)
    # Ready 200 s and 210 s ago: the same power-of-two bucket of nanoseconds, so the lower uid goes first.
    ranked = rank_pods_for_deletion([a, b], [0, 0], now)
    assert [p.name for p in ranked] == ["b", "a"]


def test_pod_deletion_cost_accepts_only_canonical_int32():
    def cost(value: str) -> int:
        return deletion_cost({"controller.kubernetes.io/pod-deletion-cost": value})

    assert [cost(v) for v in ("10", "-3", "0", "+1", "007", "1_0", "abc", "2147483648", "")] == [
        10,
        -3,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
    ]


# ---------------------------------------------------------------------------- failures


def test_a_refused_pod_is_a_failed_create_retried_with_backoff_until_it_is_allowed():
    rs = replica_set(2, template_extra="\n      priorityClassName: high")
    priority_class = action(
        "at: 3s, op: apply, manifest: {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, "
        "metadata: {name: high}, value: 1000}"
    )
    sim = simulate(NODE.format(name="worker1", cpu=4), rs, priority_class)
    failures = events(sim, "FailedCreate")
    assert all(
        re.fullmatch(r'Error creating: pods "frontend-" is forbidden: no PriorityClass with name high was found', m)
        for _, m in failures
    )
    assert {e.type for e in sim.cluster.events if e.reason == "FailedCreate"} == {"Warning"}
    # The first failure at once (and once more when the failure becomes known), then 5 ms doubling.
    assert [t for t, _ in failures] == [0.0, 0.0, 0.005, 0.025, 0.065, 0.145, 0.305, 0.625, 1.265, 2.545]
    created = events(sim, "SuccessfulCreate")
    assert [t for t, _ in created] == [5.105, 5.105]
    assert all(p.spec.priority == 1000 for p in pods_of(sim))


# ---------------------------------------------------------------------------- status


def test_available_replicas_wait_for_min_ready_seconds():
    rs = replica_set(3, extra_spec="\n  minReadySeconds: 10")
    sim = Simulation(load_manifests("---\n".join([NODE.format(name="worker1", cpu=4), rs])))
    sim.run_to_end(5)
    status = sim.cluster.get(ReplicaSet, "default/frontend").status
    assert (status.replicas, status.ready_replicas, status.available_replicas) == (3, 3, 0)
    sim = Simulation(load_manifests("---\n".join([NODE.format(name="worker1", cpu=4), rs])))
    sim.run_to_end()
    status = sim.cluster.get(ReplicaSet, "default/frontend").status
    assert (status.replicas, status.ready_replicas, status.available_replicas) == (3, 3, 3)
    assert sim.now == 11.0  # ready at 1 s, available at 11 s


# ---------------------------------------------------------------------------- ownership


def test_an_orphan_pod_that_matches_is_adopted_and_counted():
    orphan = """apiVersion: v1
kind: Pod
metadata: {name: stray, labels: {tier: frontend}}
spec:
  containers: [{name: php, image: "php:8"}]
"""
    sim = simulate(NODE.format(name="worker1", cpu=4), orphan, replica_set(3))
    names = [p.name for p in pods_of(sim)]
    assert "stray" in names and len(names) == 3
    assert len(events(sim, "SuccessfulCreate")) == 2


def test_a_pod_relabelled_out_of_the_selector_is_released_and_replaced():
    sim = Simulation(load_manifests("---\n".join([NODE.format(name="worker1", cpu=4), replica_set(2)])))
    sim.run_to_end(5)
    victim = pods_of(sim)[0].name
    text = "---\n".join(
        [
            NODE.format(name="worker1", cpu=4),
            replica_set(2),
            action(f"at: 10s, op: label, target: Pod/{victim}, labels: {{tier: debug}}"),
        ]
    )
    sim = Simulation(load_manifests(text))
    sim.run_to_end()
    released = sim.cluster.get(Pod, f"default/{victim}")
    assert released is not None and released.metadata.owner_references == ()
    assert len(pods_of(sim)) == 2 and victim not in [p.name for p in pods_of(sim)]
    assert [t for t, _ in events(sim, "SuccessfulCreate")] == [0.0, 0.0, 10.0]


def test_deleting_a_replica_set_deletes_its_pods_after_it():
    sim = simulate(
        NODE.format(name="worker1", cpu=4), replica_set(3), action("at: 10s, op: delete, target: ReplicaSet/frontend")
    )
    assert sim.cluster.get(ReplicaSet, "default/frontend") is None
    assert sim.cluster.objects(Pod) == []
    assert sim.now == 15.0  # the pods' 5 s grace period
    assert not events(sim, "SuccessfulDelete")  # the garbage collector records no events


# ---------------------------------------------------------------------------- seed 001


def test_seed_001_replica_set_creates_and_deletes_its_pods_together():
    # "A ReplicaSet's pods get random names, are created at the same time, and scaling to 0 deletes
    # them at the same time" (the StatefulSet side is tests for the StatefulSet controller).
    sim = simulate(
        NODE.format(name="worker1", cpu=4),
        replica_set(3),
        action("at: 60s, op: scale, target: ReplicaSet/frontend, replicas: 0"),
    )
    assert [t for t, _ in events(sim, "SuccessfulCreate")] == [0.0, 0.0, 0.0]
    assert [t for t, _ in events(sim, "SuccessfulDelete")] == [60.0, 60.0, 60.0]
    assert sim.cluster.objects(Pod) == []


# ---------------------------------------------------------------------------- the claim index
# A sync claims the pods the controller filed as they changed (claimable or stray); these are the
# changes that refile pods other than the pod's own update.


def at_five_seconds(*documents: str, change: Callable[[Simulation], None]) -> Simulation:
    """The documents' run, with `change` made to its cluster at 5 s, to the end."""
    sim = Simulation(load_manifests("---\n".join(documents)))
    sim.after(5.0, lambda: change(sim), label="test change")
    sim.run_to_end()
    return sim


def test_a_selector_changed_under_a_replica_set_releases_the_pods_it_no_longer_selects():
    before: set[str] = set()

    def reselect(sim: Simulation) -> None:
        before.update(p.name for p in pods_of(sim))
        rs = sim.cluster.get(ReplicaSet, "default/frontend")
        labels = {"tier": "frontend", "track": "stable"}
        template = replace(rs.spec.template, labels=labels)
        selector = LabelSelector(match_labels=MappingProxyType(labels))
        sim.cluster.update(replace(rs, spec=replace(rs.spec, selector=selector, template=template)))

    sim = at_five_seconds(NODE.format(name="worker1", cpu=4), replica_set(2), change=reselect)
    assert len(before) == 2
    assert all(sim.cluster.get(Pod, f"default/{name}").metadata.owner_references == () for name in before)
    after = pods_of(sim)
    assert len(after) == 2 and not before & {p.name for p in after}
    assert sim.cluster.get(ReplicaSet, "default/frontend").status.replicas == 2


def test_pods_owned_before_their_replica_set_appears_are_claimed_when_it_does():
    sim = Simulation(load_manifests(NODE.format(name="worker1", cpu=4)))
    rs = parse_object(yaml.safe_load(replica_set(3)))
    rs = replace(rs, metadata=replace(rs.metadata, uid="rs-uid-1"))
    owner = OwnerReference(kind="ReplicaSet", name="frontend", uid="rs-uid-1", api_version="apps/v1", controller=True)
    for name in ("early-a", "early-b"):
        metadata = ObjectMeta(name=name, labels={"tier": "frontend"}, owner_references=(owner,))
        sim.cluster.create(Pod(metadata=metadata, spec=rs.spec.template.spec))
    sim.cluster.create(rs)
    sim.run_to_end()
    names = [p.name for p in pods_of(sim)]
    assert len(names) == 3 and {"early-a", "early-b"} <= set(names)
    assert len(events(sim, "SuccessfulCreate")) == 1
    assert sim.cluster.get(ReplicaSet, "default/frontend").status.replicas == 3


def test_a_finished_pod_leaves_the_claim_and_is_replaced():
    finished: list[str] = []

    def finish(sim: Simulation) -> None:
        done = pods_of(sim)[0]
        finished.append(done.name)
        sim.cluster.update(replace(done, status=replace(done.status, phase="Succeeded")))

    sim = at_five_seconds(NODE.format(name="worker1", cpu=4), replica_set(2), change=finish)
    active = [p for p in pods_of(sim) if p.status.phase not in ("Succeeded", "Failed")]
    assert len(active) == 2 and finished[0] not in [p.name for p in active]
    assert [t for t, _ in events(sim, "SuccessfulCreate")] == [0.0, 0.0, 5.0]
    assert sim.cluster.get(ReplicaSet, "default/frontend").status.replicas == 2


def test_a_template_label_added_under_a_replica_set_leaves_its_pods_not_fully_labeled():
    def relabel_template(sim: Simulation) -> None:
        rs = sim.cluster.get(ReplicaSet, "default/frontend")
        template = replace(rs.spec.template, labels={"tier": "frontend", "track": "canary"})
        sim.cluster.update(replace(rs, spec=replace(rs.spec, template=template)))

    sim = at_five_seconds(NODE.format(name="worker1", cpu=4), replica_set(2), change=relabel_template)
    status = sim.cluster.get(ReplicaSet, "default/frontend").status
    assert (status.replicas, status.fully_labeled_replicas, status.ready_replicas) == (2, 0, 2)
    assert len(events(sim, "SuccessfulCreate")) == 2  # the pods stay: the selector still selects them


def test_replica_failure_is_set_while_pods_cannot_be_created_and_removed_once_they_can():
    """calculateStatus (pkg/controller/replicaset/replica_set_utils.go): a failed manageReplicas
    sets ReplicaFailure True, FailedCreate, with the create's error, once; a sync that succeeds
    removes it. The Deployment carries its new ReplicaSet's failure (getReplicaFailures), updated
    when it last transitioned."""
    sim = simulate_file("quota_freed_wakes_a_retry.yaml", until=300)
    (rs,) = sim.cluster.objects(ReplicaSet)
    failure = condition_of_type(rs.status.conditions, REPLICA_FAILURE)
    assert failure is not None and (failure.status, failure.reason) == ("True", "FailedCreate")
    assert failure.message.startswith(f'pods "{rs.metadata.name}-') and "exceeded quota" in failure.message
    assert failure.last_transition_time == 10.0
    deployment = sim.cluster.get(Deployment, "default/web")
    carried = condition_of_type(deployment.status.conditions, REPLICA_FAILURE)
    assert carried is not None and (carried.reason, carried.message) == (failure.reason, failure.message)
    assert carried.last_update_time == carried.last_transition_time == 10.0

    sim = simulate_file("quota_freed_wakes_a_retry.yaml")  # the Job's pod ends, the retry creates the third pod
    (rs,) = sim.cluster.objects(ReplicaSet)
    assert condition_of_type(rs.status.conditions, REPLICA_FAILURE) is None
    deployment = sim.cluster.get(Deployment, "default/web")
    assert condition_of_type(deployment.status.conditions, REPLICA_FAILURE) is None
