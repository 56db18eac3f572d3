"""A Job's status as the v1.34 Job controller writes it: ready, terminating and completedIndexes.

The sync cases come from upstream's TestControllerSyncJob (pkg/controller/job/job_controller_test.go),
as v1.34 runs them (JobPodReplacementPolicy GA: terminating pods are counted, and the terminal
condition waits for them); the interval format from indexed_job_utils_test.go's
TestCalculateSucceededIndexes."""

from dataclasses import dataclass

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.object_manifest import object_manifest
from scheduler_core.api.types import Container, ObjectMeta, Pod, PodSpec, PodStatus
from scheduler_core.api.workloads import Job
from scheduler_core.controllers.controller_kit import controller_ref
from scheduler_core.controllers.job import JOB_COMPLETION_INDEX, JobController
from scheduler_core.controllers.job_indexes import format_indexes, index_intervals
from scheduler_core.simulation.simulation import Simulation
from tests.core.controllers.test_job import DATA, shards, simulate, true_conditions

# ---------------------------------------------------------------------------- the interval format


@pytest.mark.parametrize(
    ("indexes", "text"),
    [
        ({1}, "1"),  # one index
        ({5, 10}, "5,10"),  # two separate
        ({2, 3, 5, 6, 7}, "2,3,5-7"),  # two intervals: a pair stays apart, three or more compress
        ({0, 2, 3, 4, 5}, "0,2-5"),  # one index and one interval
        ({0, 1, 2, 4}, "0-2,4"),  # out of range (completions 5): what stays in range
        ({0, 4, 5, 10, 11, 12} | {2, 7, 8}, "0,2,4,5,7,8,10-12"),  # prev and new separate
        ({3, 4, 6} | {2, 7, 8}, "2-4,6-8"),  # prev between new
        ({2, 7, 8} | {3, 4, 6}, "2-4,6-8"),  # new between prev
        ({2, 3, 4, 5, 6, 7} | {0, 3, 5, 9}, "0,2-7,9"),  # new within prev
        ({1, 3, 4, 5, 7}, "1,3-5,7"),  # the API's own example (JobStatus.completedIndexes)
        (set(), ""),
    ],
)
def test_completed_indexes_are_written_as_upstream_compresses_them(indexes: set[int], text: str) -> None:
    assert format_indexes(indexes) == text


def test_intervals_are_increasing_runs_of_consecutive_indexes() -> None:
    assert index_intervals([7, 5, 2, 3, 6, 3]) == [(2, 3), (5, 7)]


# ---------------------------------------------------------------------------- one sync, upstream's cases


@dataclass(frozen=True)
class SyncCase:
    """A Job and its pods before one sync (a TestControllerSyncJob row)."""

    parallelism: int
    completions: int
    backoff_limit: int = 6
    indexed: bool = False
    running: int = 0
    ready: int = 0  # of the running pods
    failed: int = 0
    terminating: int = 0
    pods_with_indexes: tuple[tuple[str, str], ...] = ()  # (completion index, phase)


def _job_manifest(case: SyncCase) -> str:
    mode = "Indexed" if case.indexed else "NonIndexed"
    return f"""apiVersion: batch/v1
kind: Job
metadata: {{name: job}}
spec:
  parallelism: {case.parallelism}
  completions: {case.completions}
  backoffLimit: {case.backoff_limit}
  completionMode: {mode}
  template:
    spec:
      restartPolicy: Never
      containers: [{{name: c, image: busybox}}]
"""


def _pod(job: Job, name: str, phase: str, *, ready: bool = False, index: str = "", deleted: bool = False) -> Pod:
    annotations = {JOB_COMPLETION_INDEX: index} if index else {}
    metadata = ObjectMeta(
        name,
        "default",
        annotations=annotations,
        owner_references=(controller_ref("Job", "batch/v1", job),),
        deletion_timestamp=0.0 if deleted else None,
    )
    spec = PodSpec(containers=(Container("c", "busybox"),), restart_policy="Never", node_name="n1")
    return Pod(metadata, spec, PodStatus(phase=phase, ready=ready))


def _case_pods(job: Job, case: SyncCase) -> list[Pod]:
    pods = [_pod(job, f"running-{i}", "Running", ready=i < case.ready) for i in range(case.running)]
    pods += [_pod(job, f"failed-{i}", "Failed") for i in range(case.failed)]
    pods += [_pod(job, f"terminating-{i}", "Running", deleted=True) for i in range(case.terminating)]
    pods += [_pod(job, f"indexed-{i}", phase, index=ix) for i, (ix, phase) in enumerate(case.pods_with_indexes)]
    return pods


def sync_once(case: SyncCase) -> Job:
    """The Job after one sync of the Job controller alone (no scheduler, no kubelet)."""
    sim = Simulation([], controllers=[JobController])  # never run: the objects are stored by hand
    (controller,) = sim.controllers
    assert isinstance(controller, JobController)
    job = sim.cluster.create(load_manifests(_job_manifest(case))[0].object)
    for pod in _case_pods(job, case):
        sim.cluster.create(pod)
    controller.sync()
    synced: Job = sim.cluster.get(Job, "default/job")
    return synced


@dataclass(frozen=True)
class Expected:
    active: int
    ready: int
    terminating: int = 0
    succeeded: int = 0
    failed: int = 0
    completed_indexes: str = ""
    conditions: tuple[str, ...] = ()


SUCCEEDED, FAILED, RUNNING = "Succeeded", "Failed", "Running"
DONE = ("SuccessCriteriaMet", "Complete")

CASES = {
    "job start": (SyncCase(2, 5), Expected(active=2, ready=0)),
    "correct # of pods": (SyncCase(3, 5, running=3, ready=2), Expected(active=3, ready=2)),
    # One surplus pod is deleted; it was Ready, so ready drops with it, and it is now terminating.
    "count ready pods when too many active pods": (
        SyncCase(2, 5, running=3, ready=3),
        Expected(active=2, ready=2, terminating=1),
    ),
    # A pod deleted before it finished counts as failed (podReplacementPolicy TerminatingOrFailed).
    "turn on PodReplacementPolicy but not set PodReplacementPolicy": (
        SyncCase(1, 1, running=1, failed=1, terminating=1),
        Expected(active=1, ready=0, terminating=1, failed=2),
    ),
    "indexed job completed": (
        SyncCase(
            2, 3, indexed=True, pods_with_indexes=(("0", SUCCEEDED), ("1", FAILED), ("1", SUCCEEDED), ("2", SUCCEEDED))
        ),
        Expected(active=0, ready=0, succeeded=3, failed=1, completed_indexes="0-2", conditions=DONE),
    ),
    "indexed job repeated completed index": (
        SyncCase(2, 3, indexed=True, pods_with_indexes=(("0", SUCCEEDED), ("1", SUCCEEDED), ("1", SUCCEEDED))),
        Expected(active=1, ready=0, succeeded=2, completed_indexes="0,1"),
    ),
    # Failed with index 2 still running: it is deleted and terminating, so Failed waits (FailureTarget).
    "count terminating pods when indexed job fails and PodReplacementPolicy enabled": (
        SyncCase(
            2, 3, backoff_limit=0, indexed=True, pods_with_indexes=(("0", SUCCEEDED), ("1", FAILED), ("2", RUNNING))
        ),
        Expected(
            active=0,
            ready=0,
            terminating=1,
            succeeded=1,
            failed=2,
            completed_indexes="0",
            conditions=("FailureTarget",),
        ),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_sync_writes_upstreams_counts(name: str) -> None:
    case, expected = CASES[name]
    status = sync_once(case).status
    got = Expected(
        active=status.active,
        ready=status.ready or 0,
        terminating=status.terminating or 0,
        succeeded=status.succeeded,
        failed=status.failed,
        completed_indexes=status.completed_indexes,
        conditions=tuple(c.type for c in status.conditions if c.status == "True"),
    )
    assert got == expected
    assert (status.ready, status.terminating) != (None, None)  # set by every sync, 0 included


# ---------------------------------------------------------------------------- scenarios


def test_an_indexed_job_lists_its_completed_indexes_and_ends_with_nothing_ready_or_terminating() -> None:
    running = simulate("job_indexed.yaml", until=3.0).cluster.get(Job, "default/render")
    assert (running.status.active, running.status.ready, running.status.completed_indexes) == (3, 3, "")
    done = simulate("job_indexed.yaml").cluster.get(Job, "default/render")
    assert (done.status.succeeded, done.status.completed_indexes) == (3, "0-2")
    assert (done.status.ready, done.status.terminating) == (0, 0)
    status = object_manifest(done)["status"]
    assert (status["completedIndexes"], status["ready"], status["terminating"]) == ("0-2", 0, 0)
    assert list(status) == [
        "conditions",
        "startTime",
        "completionTime",
        "succeeded",
        "terminating",
        "completedIndexes",
        "ready",
    ]


def test_a_deleted_pod_is_terminating_until_it_is_gone_and_the_job_completes_after() -> None:
    """shards: index 1's pod is deleted at 3s (30s grace); the replacement and index 0 succeed,
    SuccessCriteriaMet waits with the deleted pod still terminating; Complete comes when it is gone."""
    waiting = shards(until=20.0).cluster.get(Job, "default/shards")
    assert true_conditions(waiting) == ("SuccessCriteriaMet",)
    assert (waiting.status.terminating, waiting.status.ready, waiting.status.completed_indexes) == (1, 0, "0,1")
    done = shards().cluster.get(Job, "default/shards")
    assert true_conditions(done) == ("SuccessCriteriaMet", "Complete")
    assert (done.status.terminating, done.status.completed_indexes) == (0, "0,1")


def test_a_non_indexed_job_writes_no_completed_indexes() -> None:
    (written,) = [
        m.object for m in load_manifests((DATA / "job_parallel.yaml").read_text()) if isinstance(m.object, Job)
    ]
    job = simulate("job_parallel.yaml").cluster.get(Job, written.metadata.key)
    assert job.status.completed_indexes == ""
    assert "completedIndexes" not in object_manifest(job)["status"]
