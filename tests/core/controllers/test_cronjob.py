"""The CronJob controller: schedules, concurrency policies, deadlines, history limits."""

import itertools
import json
from pathlib import Path

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Pod
from scheduler_core.api.workloads import CronJob, Job
from scheduler_core.cli import main
from scheduler_core.controllers.cronjob import job_name, rfc1123z, rfc3339
from scheduler_core.simulation.simulation import Simulation

DATA = Path(__file__).parent.parent / "data"
EVERY_MINUTE = "cron_every_minute.yaml"
NODE = """apiVersion: v1
kind: Node
metadata: {name: worker1}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


def simulate(source: str, until: float, seed: int = 0) -> Simulation:
    text = (DATA / source).read_text() if source.endswith(".yaml") else source
    simulation = Simulation(load_manifests(text), seed=seed)
    simulation.run_to_end(until)
    return simulation


def cron_events(sim: Simulation, name: str) -> list[tuple[float, str, str]]:
    return [(e.time, e.reason, e.message) for e in sim.cluster.events if e.object == f"CronJob/default/{name}"]


def job_names(sim: Simulation) -> list[str]:
    return sorted(job.metadata.name for job in sim.cluster.objects(Job))


def test_job_names_are_the_scheduled_minute_since_the_unix_epoch():
    sim = simulate(EVERY_MINUTE, until=61)
    cron_job = sim.cluster.get(CronJob, "default/cronjob-example")
    # 2026-01-01T00:01:00Z is 1767225660 s after the Unix epoch: minute 29453761.
    assert job_name(cron_job, 60.0) == "cronjob-example-29453761"
    assert job_names(sim) == ["cronjob-example-29453761"]
    assert rfc1123z(120.0) == "Thu, 01 Jan 2026 00:02:00 +0000"
    assert rfc3339(60.0, None) == "2026-01-01T00:01:00Z"
    assert rfc3339(86400.0, "Asia/Seoul") == "2026-01-02T09:00:00+09:00"


def test_every_minute_for_ten_minutes_keeps_the_three_newest_successful_jobs():
    sim = simulate(EVERY_MINUTE, until=600)
    events = cron_events(sim, "cronjob-example")
    created = [(time, message) for time, reason, message in events if reason == "SuccessfulCreate"]
    # Jobs start 100 ms after each scheduled minute (nextScheduleDelta).
    assert created == [(60 * m + 0.1, f"Created job cronjob-example-{29453760 + m}") for m in range(1, 10)]
    saw = [(time, message) for time, reason, message in events if reason == "SawCompletedJob"]
    assert saw[0] == (67.1, "Saw completed job: cronjob-example-29453761, condition: Complete")
    assert len(saw) == 9
    deleted = [(time, message) for time, reason, message in events if reason == "SuccessfulDelete"]
    # The fourth success makes the oldest one go (successfulJobsHistoryLimit 3), in the same sync.
    assert deleted[0] == (247.1, "Deleted job cronjob-example-29453761")
    assert len(deleted) == 6
    assert job_names(sim) == [f"cronjob-example-{29453760 + m}" for m in (7, 8, 9)]
    # Deleted Jobs took their pods with them; the kept ones keep their Succeeded pod.
    pods = sorted(pod.labels["job-name"] for pod in sim.cluster.objects(Pod))
    assert pods == job_names(sim)
    status = sim.cluster.get(CronJob, "default/cronjob-example").status
    assert (status.active, status.last_schedule_time, status.last_successful_time) == ((), 540.0, 547.1)


def test_jobs_are_made_from_the_job_template():
    sim = simulate("cron_time_zone.yaml", until=86400 + 30)
    (job,) = sim.cluster.objects(Job)
    assert job.metadata.name == "report-29455200"  # 2026-01-02T00:00:00Z
    assert job.metadata.creation_timestamp == 86400.1
    assert dict(job.metadata.labels) == {"team": "reports"}
    assert dict(job.metadata.annotations) == {
        "owner": "data-team",
        "batch.kubernetes.io/cronjob-scheduled-timestamp": "2026-01-02T09:00:00+09:00",
    }
    ref = job.metadata.controller_ref()
    assert (ref.kind, ref.name, ref.api_version) == ("CronJob", "report", "batch/v1")
    assert [(c.type, c.status) for c in job.status.conditions] == [("SuccessCriteriaMet", "True"), ("Complete", "True")]


def test_a_cronjob_keeps_the_run_alive_so_a_scenario_needs_until():
    # Its requeues are real timers: without `until` the run would never end on its own. Reading the
    # event stream lazily shows it still going after three hours of simulated time.
    sim = Simulation(load_manifests((DATA / EVERY_MINUTE).read_text()))
    late = next(itertools.dropwhile(lambda event: event.time < 3 * 3600, sim.run()))
    assert late.time >= 3 * 3600
    assert sim.now < 3 * 3600 + 60
    # With `until` it stops there.
    assert simulate(EVERY_MINUTE, until=90).now == 90


def test_simulate_cli_with_until(capsys):
    assert main(["simulate", "-f", str(DATA / EVERY_MINUTE), "--until", "10m", "-o", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["time"] == 600.0
    assert len(report["pods"]) == 3
    assert {pod["owner"] for pod in report["pods"]} == {f"Job/cronjob-example-{29453760 + m}" for m in (7, 8, 9)}


def test_forbid_skips_while_a_job_runs_and_replace_replaces_it():
    sim = simulate("cron_concurrency.yaml", until=300)
    forbid = [(t, r, m) for t, r, m in cron_events(sim, "forbid") if r != "SawCompletedJob"]
    assert forbid[:4] == [
        (60.1, "SuccessfulCreate", "Created job forbid-29453761"),
        (
            120.1,
            "JobAlreadyActive",
            "Not starting job because prior execution is running and concurrency policy is Forbid",
        ),
        # Without startingDeadlineSeconds the skipped 00:02 run starts as soon as the first ends.
        (152.1, "SuccessfulCreate", "Created job forbid-29453762"),
        (180.1, "JobAlreadyActive", forbid[3][2]),
    ]
    replace = cron_events(sim, "replace")
    assert replace[:4] == [
        (60.1, "SuccessfulCreate", "Created job replace-29453761"),
        (120.1, "SuccessfulDelete", "Deleted job replace-29453761"),
        (120.1, "SuccessfulCreate", "Created job replace-29453762"),
        (180.1, "SuccessfulDelete", "Deleted job replace-29453762"),
    ]
    # The replaced Job's pod is killed with it (the garbage collector's graceful delete).
    (killed,) = [e for e in sim.cluster.events if e.reason == "Killing" and e.time == 120.1]
    assert killed.object.startswith("Pod/default/replace-29453761-")
    assert sim.cluster.get(Job, "default/replace-29453761") is None
    for name in ("replace", "forbid"):
        (active,) = sim.cluster.get(CronJob, f"default/{name}").status.active
        assert active.name == f"{name}-29453764"
        assert active.uid == sim.cluster.get(Job, f"default/{name}-29453764").metadata.uid  # getRef's uid


def test_a_resumed_cronjob_starts_a_missed_run_unless_its_starting_deadline_passed():
    sim = simulate("cron_suspend_deadline.yaml", until=200)
    assert [(t, m) for t, r, m in cron_events(sim, "late") if r == "SuccessfulCreate"] == [
        (150.0, "Created job late-29453762"),  # the 00:02 run, 30s late, when resumed
        (180.1, "Created job late-29453763"),
    ]
    assert [(t, m) for t, r, m in cron_events(sim, "strict") if r == "SuccessfulCreate"] == [
        (180.1, "Created job strict-29453763"),  # 00:02 was more than 10s ago: skipped
    ]


def test_failed_jobs_history_limit():
    sim = simulate(
        NODE
        + """---
apiVersion: batch/v1
kind: CronJob
metadata: {name: broken}
spec:
  schedule: "* * * * *"
  jobTemplate:
    spec:
      backoffLimit: 0
      template:
        metadata: {annotations: {playground.k8s.io/exit-code: "1"}}
        spec:
          restartPolicy: Never
          containers: [{name: work, image: busybox}]
""",
        until=200,
    )
    saw = [m for t, r, m in cron_events(sim, "broken") if r == "SawCompletedJob"]
    assert saw[0] == "Saw completed job: broken-29453761, condition: Failed"
    deleted = [(t, m) for t, r, m in cron_events(sim, "broken") if r == "SuccessfulDelete"]
    assert deleted == [(127.1, "Deleted job broken-29453761"), (187.1, "Deleted job broken-29453762")]
    assert job_names(sim) == ["broken-29453763"]  # failedJobsHistoryLimit defaults to 1
    assert sim.cluster.get(CronJob, "default/broken").status.last_successful_time is None


def test_deleting_a_cronjob_deletes_its_jobs_and_their_pods():
    sim = simulate(
        (DATA / EVERY_MINUTE).read_text()
        + """---
apiVersion: playground/v1
kind: Action
spec: {at: 200s, op: delete, target: CronJob/cronjob-example}
""",
        until=400,
    )
    assert sim.cluster.objects(CronJob) == []
    assert sim.cluster.objects(Job) == []
    assert sim.cluster.objects(Pod) == []


def test_a_deleted_active_job_is_reported_missing():
    sim = simulate(
        (DATA / "cron_concurrency.yaml").read_text()
        + """---
apiVersion: playground/v1
kind: Action
spec: {at: 90s, op: delete, target: Job/forbid-29453761}
""",
        until=130,
    )
    events = cron_events(sim, "forbid")
    assert (90.0, "MissingJob", "Active job went missing: forbid-29453761") in events
    assert (120.1, "SuccessfulCreate", "Created job forbid-29453762") in events  # no longer blocked


def test_same_scenario_and_seed_replay_event_for_event():
    first = [e.as_dict() for e in simulate("cron_concurrency.yaml", until=400, seed=3).cluster.events]
    second = [e.as_dict() for e in simulate("cron_concurrency.yaml", until=400, seed=3).cluster.events]
    assert first == second
