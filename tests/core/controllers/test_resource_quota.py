"""The resource quota controller (status.used) and the quota scenarios of seed text 003."""

from pathlib import Path

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Pod
from scheduler_core.api.workloads import Deployment, ReplicaSet, ResourceQuota
from scheduler_core.simulation.simulation import Simulation

DATA = Path(__file__).parent.parent / "data"
MI = 2**20


def simulate(source: str, until: float | None = None) -> Simulation:
    text = (DATA / source).read_text() if source.endswith(".yaml") else source
    simulation = Simulation(load_manifests(text))
    simulation.run_to_end(until)
    return simulation


def events(sim: Simulation, obj: str, *reasons: str) -> list[tuple[float, str, str]]:
    return [(e.time, e.reason, e.message) for e in sim.cluster.events if e.object == obj and e.reason in reasons]


def test_the_fourth_pod_over_limits_cpu_is_refused_with_upstreams_text():
    sim = simulate("quota_seed_limits.yaml", until=5)
    assert events(sim, "Pod/default/pod-4", "FailedCreate") == [
        (
            0.0,
            "FailedCreate",
            'pods "pod-4" is forbidden: exceeded quota: resource-quota-example, requested: limits.cpu=500m, '
            "used: limits.cpu=1500m, limited: limits.cpu=1500m",
        )
    ]
    assert [pod.name for pod in sim.cluster.objects(Pod)] == ["pod-1", "pod-2", "pod-3"]


def test_a_pod_that_states_no_resources_is_refused_by_a_compute_quota():
    sim = simulate("quota_seed_limits.yaml", until=5)
    ((_, _, message),) = events(sim, "Pod/default/no-resources", "FailedCreate")
    assert message == (
        'pods "no-resources" is forbidden: failed quota: resource-quota-example: must specify limits.cpu for: nginx; '
        "limits.memory for: nginx; requests.cpu for: nginx; requests.memory for: nginx"
    )


def test_status_used_follows_the_namespace_and_a_deleted_pod_frees_its_share():
    sim = simulate("quota_seed_limits.yaml", until=5)
    quota = sim.cluster.get(ResourceQuota, "default/resource-quota-example")
    assert dict(quota.used) == {
        "requests.cpu": 750,
        "requests.memory": 300 * MI,
        "limits.cpu": 1500,
        "limits.memory": 600 * MI,
    }
    sim = simulate("quota_seed_limits.yaml")
    # pod-1 is deleted at 10 s and gone at 40 s (its grace period); pod-4 is admitted at 60 s.
    assert sorted(pod.name for pod in sim.cluster.objects(Pod)) == ["pod-2", "pod-3", "pod-4"]
    assert sim.cluster.get(ResourceQuota, "default/resource-quota-example").used["limits.cpu"] == 1500


def test_a_terminating_pod_is_charged_until_it_is_gone():
    sim = simulate("quota_seed_limits.yaml", until=20)
    assert sim.cluster.get(ResourceQuota, "default/resource-quota-example").used["limits.cpu"] == 1500
    sim = simulate("quota_seed_limits.yaml", until=45)
    assert sim.cluster.get(ResourceQuota, "default/resource-quota-example").used["limits.cpu"] == 1000


def test_the_deployment_over_quota_exists_but_its_replicaset_reports_the_refusal():
    sim = simulate("quota_deployment_failed_create.yaml", until=1)
    assert sim.cluster.get(Deployment, "default/deployment-over-quota") is not None
    (replica_set,) = sim.cluster.objects(ReplicaSet)
    assert sim.cluster.objects(Pod) == []
    failures = events(sim, f"ReplicaSet/default/{replica_set.metadata.name}", "FailedCreate")
    assert failures
    _, _, message = failures[0]
    prefix = f'Error creating: pods "{replica_set.metadata.name}-'
    assert message.startswith(prefix)
    assert message.split('" is forbidden: ', 1)[1] == (
        "exceeded quota: memory-quota, requested: limits.memory=3000Mi,requests.memory=128Mi, "
        "used: limits.memory=0,requests.memory=0, limited: limits.memory=100Mi,requests.memory=100Mi"
    )
    assert dict(sim.cluster.get(ResourceQuota, "default/memory-quota").used) == {
        "requests.memory": 0,
        "limits.memory": 0,
    }


def test_the_quota_counts_objects_created_after_it_and_before_it():
    manifests = """
apiVersion: v1
kind: Node
metadata: {name: worker1}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: early}
spec: {containers: [{name: app}]}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: counts}
spec: {hard: {pods: "5", count/pods: "5", count/resourcequotas: "2", resourcequotas: "2"}}
---
apiVersion: v1
kind: Pod
metadata: {name: late}
spec: {containers: [{name: app}]}
"""
    sim = simulate(manifests, until=1)
    assert dict(sim.cluster.get(ResourceQuota, "default/counts").used) == {
        "pods": 2,
        "count/pods": 2,
        "count/resourcequotas": 1,
        "resourcequotas": 1,
    }


def test_a_quota_freed_by_a_finished_pod_lets_the_replicasets_next_retry_create_the_pod():
    """Issue #16, item 3: the ReplicaSet's backoff retry past a minute is idle, but the Job's pod
    ending (201 s) changes the store, so the run goes on to that retry and the pod is created."""
    from tests.core.controllers.node_health_helpers import find, pods_of, simulate

    sim = simulate("quota_freed_wakes_a_retry.yaml")
    refusals = [e.time for e in find(sim, "FailedCreate") if e.object.startswith("ReplicaSet/")]
    assert refusals and max(refusals) < 201.0
    web = pods_of(sim, "web")
    assert len(web) == 3 and all(pod.status.phase == "Running" for pod in web)
    created_last = max(e.time for e in find(sim, "Scheduled") if "web-" in e.object)
    assert created_last == pytest.approx(333.8, abs=0.1)
