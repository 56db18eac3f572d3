"""The Job controller: completions and parallelism, backoff, deadlines, Indexed Jobs, suspend, TTL."""

import re
from pathlib import Path

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Pod
from scheduler_core.api.workloads import Job
from scheduler_core.controllers.base import delete_pod
from scheduler_core.controllers.job import JOB_COMPLETION_INDEX as INDEX
from scheduler_core.controllers.job import pod_generate_name_with_index
from scheduler_core.simulation.simulation import Simulation

DATA = Path(__file__).parent.parent / "data"
NODE = """apiVersion: v1
kind: Node
metadata: {name: worker1}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


def true_conditions(job: Job) -> tuple[str, ...]:
    return tuple(condition.type for condition in job.status.conditions if condition.status == "True")


def simulate(source: str, seed: int = 0, until: float | None = None) -> Simulation:
    text = (DATA / source).read_text() if source.endswith(".yaml") else source
    simulation = Simulation(load_manifests(text), seed=seed)
    simulation.run_to_end(until)
    return simulation


def timeline(sim: Simulation, obj: str) -> list[tuple[float, str]]:
    return [(e.time, e.reason) for e in sim.cluster.events if e.object == obj]


def job_pods(sim: Simulation, job: str) -> list:
    pods = [p for p in sim.cluster.objects(Pod) if p.labels.get("batch.kubernetes.io/job-name") == job]
    return sorted(pods, key=lambda p: (p.metadata.creation_timestamp, p.name))


def test_the_seed_hello_world_job_completes_and_its_pod_stays_succeeded():
    sim = simulate("job_hello.yaml")
    events = [e for e in sim.cluster.events if e.object == "Job/default/job-hello-world"]
    (pod,) = job_pods(sim, "job-hello-world")
    assert [(e.time, e.type, e.reason, e.message, e.source) for e in events] == [
        (0.0, "Normal", "SuccessfulCreate", f"Created pod: {pod.name}", "job-controller"),
        # The pod exits 0 at 6s; pod events reach the controller batched by 1s (syncJobBatchPeriod).
        (7.0, "Normal", "Completed", "Job completed", "job-controller"),
    ]
    assert re.fullmatch(r"job-hello-world-[bcdfghjklmnpqrstvwxz2456789]{5}", pod.name)
    assert pod.status.phase == "Succeeded"
    job = sim.cluster.get(Job, "default/job-hello-world")
    assert true_conditions(job) == ("SuccessCriteriaMet", "Complete")
    assert (job.status.active, job.status.succeeded, job.status.failed) == (0, 1, 0)
    assert (job.status.start_time, job.status.completion_time) == (0.0, 7.0)
    uid = job.metadata.uid
    assert {k: pod.labels[k] for k in pod.labels if k != "app"} == {
        "batch.kubernetes.io/controller-uid": uid,
        "batch.kubernetes.io/job-name": "job-hello-world",
        "controller-uid": uid,
        "job-name": "job-hello-world",
    }
    ref = pod.metadata.controller_ref()
    assert (ref.kind, ref.name, ref.uid, ref.api_version) == ("Job", "job-hello-world", uid, "batch/v1")


def test_completions_and_parallelism_timeline():
    sim = simulate("job_parallel.yaml")
    assert timeline(sim, "Job/default/batch") == [
        (0.0, "SuccessfulCreate"),
        (0.0, "SuccessfulCreate"),
        (12.0, "SuccessfulCreate"),  # both finish at 11s (1s start-up + 10s run), seen at 12s
        (12.0, "SuccessfulCreate"),
        (24.0, "SuccessfulCreate"),  # only one completion is left
        (36.0, "Completed"),
    ]
    pods = job_pods(sim, "batch")
    assert [p.status.phase for p in pods] == ["Succeeded"] * 5
    # Never more than two at once: each wave starts after the previous one ended.
    starts = sorted(p.status.start_time for p in pods)
    assert starts == [1.0, 1.0, 13.0, 13.0, 25.0]
    job = sim.cluster.get(Job, "default/batch")
    assert (job.status.succeeded, job.status.completion_time) == (5, 36.0)


def test_a_parallel_job_without_completions_is_a_work_queue():
    sim = simulate(
        NODE
        + """---
apiVersion: batch/v1
kind: Job
metadata: {name: queue}
spec:
  parallelism: 3
  template:
    metadata: {annotations: {playground.k8s.io/run-seconds: "10"}}
    spec:
      restartPolicy: Never
      containers: [{name: work, image: busybox}]
"""
    )
    assert sim.cluster.get(Job, "default/queue").spec.completions is None
    assert timeline(sim, "Job/default/queue") == [(0.0, "SuccessfulCreate")] * 3 + [(12.0, "Completed")]
    assert sim.cluster.get(Job, "default/queue").status.succeeded == 3


def test_backoff_limit_counts_failed_pods_and_recreations_back_off():
    sim = simulate("job_backoff.yaml")
    events = [e for e in sim.cluster.events if e.object == "Job/default/flaky"]
    assert [(e.time, e.type, e.reason) for e in events] == [
        (0.0, "Normal", "SuccessfulCreate"),
        (16.0, "Normal", "SuccessfulCreate"),  # the first pod failed at 6s: 10s backoff
        (42.0, "Normal", "SuccessfulCreate"),  # the second failed at 22s: 20s backoff
        (49.0, "Warning", "BackoffLimitExceeded"),  # the third failure (at 48s) exceeds backoffLimit 2
    ]
    assert events[-1].message == "Job has reached the specified backoff limit"
    job = sim.cluster.get(Job, "default/flaky")
    assert true_conditions(job) == ("FailureTarget", "Failed")
    # Both with the reason and message of the event, FailureTarget at the failure, Failed once no
    # pod is terminating (here at once).
    assert [(c.reason, c.message, c.last_transition_time) for c in job.status.conditions] == [
        ("BackoffLimitExceeded", "Job has reached the specified backoff limit", 49.0)
    ] * 2
    assert (job.status.active, job.status.succeeded, job.status.failed) == (0, 0, 3)
    assert job.status.completion_time is None
    # Failed pods stay until the Job is deleted.
    assert [p.status.phase for p in job_pods(sim, "flaky")] == ["Failed"] * 3


def test_backoff_limit_zero_fails_on_the_first_exit_code():
    sim = simulate(
        NODE
        + """---
apiVersion: batch/v1
kind: Job
metadata: {name: once}
spec:
  backoffLimit: 0
  completions: 3
  template:
    metadata: {annotations: {playground.k8s.io/exit-code: "2"}}
    spec:
      restartPolicy: Never
      containers: [{name: work, image: busybox}]
"""
    )
    assert timeline(sim, "Job/default/once") == [(0.0, "SuccessfulCreate"), (7.0, "BackoffLimitExceeded")]


def test_indexed_job_pods_carry_their_completion_index():
    sim = simulate("job_indexed.yaml")
    pods = job_pods(sim, "render")
    by_index = {p.metadata.annotations["batch.kubernetes.io/job-completion-index"]: p for p in pods}
    assert sorted(by_index) == ["0", "1", "2"]
    for index, pod in by_index.items():
        assert re.fullmatch(rf"render-{index}-[bcdfghjklmnpqrstvwxz2456789]{{5}}", pod.name)
        assert pod.labels["batch.kubernetes.io/job-completion-index"] == index
        assert pod.metadata.generate_name == f"render-{index}-"
    job = sim.cluster.get(Job, "default/render")
    assert (job.status.succeeded, true_conditions(job)) == (3, ("SuccessCriteriaMet", "Complete"))
    assert timeline(sim, "Job/default/render")[-1] == (7.0, "Completed")


_SHARDS = (
    NODE
    + """---
apiVersion: batch/v1
kind: Job
metadata: {name: shards}
spec:
  completionMode: Indexed
  completions: 2
  parallelism: 2
  template:
    spec:
      restartPolicy: Never
      containers: [{name: work, image: busybox}]
"""
)


def shards(until: float | None = None) -> Simulation:
    """The Indexed Job above; at 3s the pod of index 1 is deleted (whatever its generated name)."""
    sim = Simulation(load_manifests(_SHARDS))

    def delete_index_1() -> None:
        (pod,) = [p for p in sim.cluster.objects(Pod) if p.labels[INDEX] == "1"]
        sim.deleted = pod.name  # type: ignore[attr-defined]
        delete_pod(sim, pod)

    sim.after(3.0, delete_index_1)
    sim.run_to_end(until)
    return sim


def test_indexed_job_replaces_a_failed_index_with_the_same_index():
    sim = shards()
    names = [p.name for p in job_pods(sim, "shards")]
    # The deleted pod of index 1 counts as failed; its replacement keeps index 1.
    assert [name.rsplit("-", 1)[0] for name in names] == ["shards-0", "shards-1"]
    assert sim.deleted.startswith("shards-1-") and sim.deleted not in names
    job = sim.cluster.get(Job, "default/shards")
    assert (job.status.succeeded, job.status.failed) == (2, 1)
    assert timeline(sim, "Job/default/shards") == [
        (0.0, "SuccessfulCreate"),
        (0.0, "SuccessfulCreate"),
        # The failure (3s) would hold the replacement back 10s, but index 0 succeeds at 6s after
        # it, which resets the backoff record: index 1 is recreated at the next sync.
        (7.0, "SuccessfulCreate"),
        # Both indexes succeed by 13s, but Complete waits until the deleted pod has terminated
        # (30s grace from 3s): the terminal condition is delayed while pods terminate.
        (34.0, "Completed"),
    ]


def test_success_criteria_met_comes_before_complete_while_pods_terminate():
    sim = shards(until=20.0)
    job = sim.cluster.get(Job, "default/shards")
    assert true_conditions(job) == ("SuccessCriteriaMet",)
    assert (job.status.succeeded, job.status.completion_time) == (2, None)


def test_generate_name_with_index_keeps_the_index_when_the_name_is_long():
    assert pod_generate_name_with_index("render", 12) == "render-12-"
    long = "x" * 70
    assert pod_generate_name_with_index(long, 7) == "x" * 55 + "-7-"
    assert len(pod_generate_name_with_index(long, 7)) == 58


def test_active_deadline_fails_the_job_once_its_pod_is_gone():
    sim = simulate("job_deadline.yaml")
    events = [e for e in sim.cluster.events if e.object == "Job/default/slow"]
    assert [(e.time, e.type, e.reason) for e in events] == [
        (0.0, "Normal", "SuccessfulCreate"),
        (20.0, "Normal", "SuccessfulDelete"),  # FailureTarget at the deadline: the active pod is deleted
        (26.0, "Warning", "DeadlineExceeded"),  # Failed once the pod has terminated (5s grace)
    ]
    assert events[-1].message == "Job was active longer than specified deadline"
    job = sim.cluster.get(Job, "default/slow")
    assert true_conditions(job) == ("FailureTarget", "Failed")
    assert (job.status.active, job.status.failed) == (0, 1)


def test_suspend_then_resume_and_ttl_after_finished():
    sim = simulate("job_suspend_ttl.yaml")
    queued = [(e.time, e.reason, e.message) for e in sim.cluster.events if e.object == "Job/default/queued"]
    assert [(time, reason) for time, reason, _ in queued] == [
        (0.0, "Suspended"),
        (20.0, "SuccessfulCreate"),
        (20.0, "Resumed"),
        (27.0, "Completed"),
    ]
    assert queued[0][2] == "Job suspended" and queued[2][2] == "Job resumed"
    job = sim.cluster.get(Job, "default/queued")
    assert job.status.start_time == 20.0  # the deadline clock starts when the Job is resumed
    # Resumed, the Suspended condition stays, False (JobResumed), the completion conditions after it.
    assert [(c.type, c.status, c.reason, c.last_transition_time) for c in job.status.conditions] == [
        ("Suspended", "False", "JobResumed", 20.0),
        ("SuccessCriteriaMet", "True", "CompletionsReached", 27.0),
        ("Complete", "True", "CompletionsReached", 27.0),
    ]
    # "cleanup" completed at 7s; ttlSecondsAfterFinished 30 deletes it, and its pod, at 37s.
    assert timeline(sim, "Job/default/cleanup")[-1] == (7.0, "Completed")
    assert sim.cluster.get(Job, "default/cleanup") is None
    assert job_pods(sim, "cleanup") == []
    before, after = simulate("job_suspend_ttl.yaml", until=36.9), simulate("job_suspend_ttl.yaml", until=37.1)
    assert before.cluster.get(Job, "default/cleanup") is not None
    assert len(job_pods(before, "cleanup")) == 1
    assert after.cluster.get(Job, "default/cleanup") is None
    assert job_pods(after, "cleanup") == []  # a finished pod is removed at once


def test_suspending_a_running_job_deletes_its_active_pods():
    sim = simulate(
        NODE
        + """---
apiVersion: batch/v1
kind: Job
metadata: {name: pausable}
spec:
  parallelism: 2
  completions: 2
  template:
    metadata: {annotations: {playground.k8s.io/run-seconds: "60"}}
    spec:
      restartPolicy: Never
      terminationGracePeriodSeconds: 2
      containers: [{name: work, image: busybox}]
---
apiVersion: playground/v1
kind: Action
spec:
  at: 10s
  op: apply
  manifest:
    apiVersion: batch/v1
    kind: Job
    metadata: {name: pausable}
    spec:
      suspend: true
      parallelism: 2
      completions: 2
      template:
        metadata: {annotations: {playground.k8s.io/run-seconds: "60"}}
        spec:
          restartPolicy: Never
          terminationGracePeriodSeconds: 2
          containers: [{name: work, image: busybox}]
"""
    )
    assert timeline(sim, "Job/default/pausable") == [
        (0.0, "SuccessfulCreate"),
        (0.0, "SuccessfulCreate"),
        (10.0, "SuccessfulDelete"),
        (10.0, "SuccessfulDelete"),
        (10.0, "Suspended"),
    ]
    job = sim.cluster.get(Job, "default/pausable")
    assert job_pods(sim, "pausable") == []
    assert job.status.active == 0
    (suspended,) = job.status.conditions
    assert (suspended.type, suspended.status, suspended.reason, suspended.message, suspended.last_transition_time) == (
        "Suspended",
        "True",
        "JobSuspended",
        "Job suspended",
        10.0,
    )


def test_deleting_a_job_deletes_its_pods():
    sim = simulate(
        NODE
        + """---
apiVersion: batch/v1
kind: Job
metadata: {name: done}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: work, image: busybox}]
---
apiVersion: playground/v1
kind: Action
spec: {at: 30s, op: delete, target: Job/done}
"""
    )
    assert sim.cluster.objects(Job) == []
    assert sim.cluster.objects(Pod) == []  # the finished pod went with its Job (garbage collector)


def test_same_scenario_and_seed_replay_event_for_event():
    for scenario in ("job_backoff.yaml", "job_parallel.yaml"):
        first = [e.as_dict() for e in simulate(scenario, seed=5).cluster.events]
        second = [e.as_dict() for e in simulate(scenario, seed=5).cluster.events]
        assert first == second
