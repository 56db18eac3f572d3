"""Workload status fields as the v1.34 controllers write them (docs/upstream/workload-status.md):
StatefulSet and DaemonSet observedGeneration, the StatefulSet's collisionCount, the DaemonSet's
numberUnavailable, the HPA's currentMetrics, the PodDisruptionBudget's observedGeneration (and the
eviction API that reads it), and a CronJob's active references. Job status: test_job_status.py."""

from dataclasses import replace

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.object_manifest import object_manifest
from scheduler_core.api.types import Pod, PodDisruptionBudget
from scheduler_core.api.workloads import CronJob, DaemonSet, HorizontalPodAutoscaler, Job, StatefulSet
from scheduler_core.controllers.eviction import BUDGET_NOT_PROCESSED_CAUSE, VIOLATES_BUDGET, EvictionResult, evict
from scheduler_core.controllers.naming import template_hash
from scheduler_core.controllers.statefulset import Revision, StatefulSetController
from scheduler_core.simulation.simulation import Simulation
from tests.core.controllers.node_health_helpers import DATA, NODE, simulate
from tests.core.controllers.test_drain import pdb


def stored[T](sim: Simulation, kind: type[T], key: str) -> T:
    found = sim.cluster.get(kind, key)  # type: ignore[type-var]
    assert found is not None
    return found


# ---------------------------------------------------------------------------- StatefulSet


def test_a_statefulset_observes_the_generation_of_its_scale():
    """updateStatefulSet: status.observedGeneration is the generation the sync worked on; the scale
    at 30s makes generation 2, observed by the sync the scale wakes."""
    before = stored(simulate("sts_scale_down.yaml", until=29), StatefulSet, "default/web")
    assert (before.generation, before.status.observed_generation) == (1, 1)
    after = stored(simulate("sts_scale_down.yaml", until=30.5), StatefulSet, "default/web")
    assert (after.generation, after.status.observed_generation) == (2, 2)


def test_each_spec_change_of_a_rolling_update_is_observed():
    """set-image at 20s (generation 2), the partition lowered by an apply at 40s (generation 3)."""
    observed = [
        stored(simulate("sts_rolling_update.yaml", until=until), StatefulSet, "default/web").status.observed_generation
        for until in (19, 21, 39, 40.5, None)
    ]
    assert observed == [1, 2, 2, 3, 3]


def test_every_statefulset_status_carries_a_collision_count_of_zero():
    """updateStatefulSet sets status.collisionCount on every write, 0 included: the API shows it."""
    ss = stored(simulate("sts_rolling_update.yaml"), StatefulSet, "default/web")
    assert ss.status.collision_count == 0
    status = object_manifest(ss)["status"]
    assert list(status) == [
        "observedGeneration",
        "replicas",
        "readyReplicas",
        "currentReplicas",
        "updatedReplicas",
        "currentRevision",
        "updateRevision",
        "collisionCount",
        "availableReplicas",
    ]
    assert (status["observedGeneration"], status["collisionCount"]) == (3, 0)


def test_a_revision_name_taken_by_another_template_bumps_the_collision_count():
    """CreateControllerRevision: when "<set>-<hash>" names a revision of another template, the
    collision count goes up and the new revision is named with the hash of the template and that
    count. Revisions live in the controller here, so the squatter is put in its history by hand at
    10s (upstream's tests create the ControllerRevision); the set-image at 20s meets it."""
    sim = Simulation(load_manifests((DATA / "sts_rolling_update.yaml").read_text()))
    names: list[str] = []

    def squat() -> None:
        ss = stored(sim, StatefulSet, "default/web")
        (container,) = ss.spec.template.spec.containers
        image = replace(container, image="nginx:1.27")  # what the set-image at 20s writes
        template = replace(ss.spec.template, spec=replace(ss.spec.template.spec, containers=(image,)))
        names.extend((f"web-{template_hash(template)}", f"web-{template_hash(template, 1)}"))
        controller = sim.controller("statefulset")
        assert isinstance(controller, StatefulSetController)
        other = replace(ss.spec.template, labels={"other": "x"})
        controller._revisions[ss.metadata.uid].insert(0, Revision(names[0], 0, other))

    sim.after(10.0, squat)
    sim.run_to_end(25)
    ss = stored(sim, StatefulSet, "default/web")
    assert ss.status.collision_count == 1
    assert ss.status.update_revision == names[1]
    assert object_manifest(ss)["status"]["collisionCount"] == 1


# ---------------------------------------------------------------------------- DaemonSet


def test_a_daemonset_counts_unavailable_nodes_and_observes_its_generation():
    """TestNumberReadyStatus and TestObservedGeneration (daemon_controller_test.go): pods not Ready
    yet count as unavailable on their nodes; each sync records the generation it saw."""
    starting = stored(simulate("ds_rolling_update.yaml", until=0.5), DaemonSet, "default/agent").status
    assert (starting.number_ready, starting.number_available, starting.number_unavailable) == (0, 0, 3)
    assert starting.observed_generation == 1
    ready = stored(simulate("ds_rolling_update.yaml", until=2), DaemonSet, "default/agent").status
    assert (ready.number_ready, ready.number_unavailable) == (3, 0)
    rolled = stored(simulate("ds_rolling_update.yaml", until=30.5), DaemonSet, "default/agent")
    assert (rolled.generation, rolled.status.observed_generation) == (2, 2)  # set-image at 30s


def test_a_daemonset_status_in_the_apis_order():
    daemon_set = stored(simulate("ds_rolling_update.yaml", until=0.5), DaemonSet, "default/agent")
    status = object_manifest(daemon_set)["status"]
    assert status == {
        "currentNumberScheduled": 3,
        "numberMisscheduled": 0,
        "desiredNumberScheduled": 3,
        "numberReady": 0,
        "observedGeneration": 1,
        "updatedNumberScheduled": 3,
        "numberUnavailable": 3,
    }
    assert list(status)[3:5] == ["numberReady", "observedGeneration"]


# ---------------------------------------------------------------------------- HorizontalPodAutoscaler


def test_an_hpa_writes_one_current_metric_per_spec_metric():
    """setStatus: currentMetrics holds what each metric measured (averageValue and, for a
    Utilization target, averageUtilization); a metric that failed is upstream's empty entry, and
    desiredReplicas stays what it was (setCurrentReplicasAndMetricsInStatus)."""
    first = stored(simulate("hpa_scale_up.yaml", until=16), HorizontalPodAutoscaler, "default/web")
    assert object_manifest(first)["status"]["currentMetrics"] == [{"type": ""}]  # no Ready pod measured yet
    assert (first.status.current_replicas, first.status.desired_replicas) == (3, 0)
    scaled = stored(simulate("hpa_scale_up.yaml", until=31), HorizontalPodAutoscaler, "default/web")
    assert object_manifest(scaled)["status"]["currentMetrics"] == [
        {
            "type": "Resource",
            "resource": {"name": "cpu", "current": {"averageValue": "100m", "averageUtilization": 100}},
        }
    ]
    assert (scaled.status.desired_replicas, scaled.status.last_scale_time) == (6, 30.0)
    assert scaled.status.current_utilization == 100
    assert "observedGeneration" not in object_manifest(scaled)["status"]  # upstream never writes it


# ---------------------------------------------------------------------------- PodDisruptionBudget


EVICTABLE = (
    NODE.format(name="worker1")
    + """---
apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web}}
spec: {nodeName: worker1, containers: [{name: app}]}
"""
)
BUDGET_CHANGED = (
    NODE.format(name="worker1")
    + """---
apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web}}
spec: {nodeName: worker1, containers: [{name: app}]}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: keep}
spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
---
apiVersion: playground/v1
kind: Action
spec:
  at: 10s
  op: apply
  manifest:
    apiVersion: policy/v1
    kind: PodDisruptionBudget
    metadata: {name: keep}
    spec: {minAvailable: 0, selector: {matchLabels: {app: web}}}
"""
)


def test_a_budget_observes_the_generation_of_its_spec_and_so_does_its_condition():
    """updatePdbStatus writes observedGeneration = generation, and UpdateDisruptionAllowedCondition
    gives the DisruptionAllowed condition the same; a spec change makes generation 2."""
    first = stored(simulate(BUDGET_CHANGED, until=5), PodDisruptionBudget, "default/keep")
    (allowed,) = first.status.conditions
    assert (first.generation, first.status.observed_generation, allowed.observed_generation) == (1, 1, 1)
    changed = stored(simulate(BUDGET_CHANGED), PodDisruptionBudget, "default/keep")
    (allowed,) = changed.status.conditions
    assert (changed.generation, changed.status.observed_generation, allowed.observed_generation) == (2, 2, 2)
    assert (allowed.status, allowed.reason) == ("True", "SufficientPods")
    manifest = object_manifest(changed)
    assert (manifest["metadata"]["generation"], manifest["status"]["observedGeneration"]) == (2, 2)
    assert next(iter(manifest["status"])) == "observedGeneration"
    assert list(manifest["status"]["conditions"][0])[:3] == ["type", "status", "observedGeneration"]


def test_the_eviction_api_waits_for_the_budgets_new_spec_to_be_observed():
    """checkAndDecrement: while status.observedGeneration is behind the budget's generation, 429
    with "still being processed"; once the disruption controller has synced, the eviction goes.
    At 5s the budget's generation moves on and the eviction comes in the same instant, before the
    controller's sync; a second one at 6s."""
    sim = Simulation(load_manifests(EVICTABLE + "---" + pdb("spare", "minAvailable: 0")))
    results: list[EvictionResult] = []

    def bump_then_evict() -> None:
        budget = stored(sim, PodDisruptionBudget, "default/spare")
        sim.cluster.update(replace(budget, generation=2))  # a spec change the controller has not synced
        results.append(evict(sim, "default", "web"))
        assert stored(sim, Pod, "default/web").metadata.deletion_timestamp is None  # refused: the pod stays

    sim.after(5.0, bump_then_evict)
    sim.after(6.0, lambda: results.append(evict(sim, "default", "web")))
    sim.run_to_end(7)
    refused, evicted = results
    assert (refused.code, refused.message, refused.cause) == (
        429,
        VIOLATES_BUDGET,
        BUDGET_NOT_PROCESSED_CAUSE.format("spare"),
    )
    assert evicted.ok
    assert stored(sim, PodDisruptionBudget, "default/spare").status.observed_generation == 2


# ---------------------------------------------------------------------------- CronJob


def test_a_cronjobs_active_list_references_its_jobs_by_name_and_uid():
    """getRef: each entry of status.active is an ObjectReference to the Job (kind, namespace,
    name, uid, apiVersion); the engine keeps no resourceVersion to add."""
    sim = simulate("cron_concurrency.yaml", until=130)
    cron_job = stored(sim, CronJob, "default/forbid")
    (active,) = object_manifest(cron_job)["status"]["active"]
    job = stored(sim, Job, "default/forbid-29453761")
    assert active == {
        "kind": "Job",
        "namespace": "default",
        "name": "forbid-29453761",
        "uid": job.metadata.uid,
        "apiVersion": "batch/v1",
    }
