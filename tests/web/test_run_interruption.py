"""A run whose executor dies (a server or worker restart) is noticed as interrupted by whoever looks
next, and resuming it stores exactly the events that were missing: the result is the run as if
nothing had happened."""

from datetime import timedelta

import pytest
from channels.testing import WebsocketCommunicator
from django.urls import reverse
from django.utils import timezone

from playground.asgi import application
from playground.change_deltas import expand
from playground.models import Run, RunEvent
from playground.runs import FIRST_BATCH_SIZE, check_interrupted, execute, resume_run
from playground.scenarios import create_scenario, snapshot
from tests.manifests import deployment_yaml

pytestmark = pytest.mark.django_db

# Forty replicas give a few hundred events: several batches, so a crash can land between two.
WORKLOAD = deployment_yaml(replicas=40)


class ProcessDied(BaseException):
    """Stands for the process being killed: not an Exception, so nothing in the run catches it."""


def crashing_publisher(after_batches: int):
    batches = []

    def publish(slug, run_id, events):
        batches.append(events)
        if len(batches) == after_batches:
            raise ProcessDied

    return publish


def interrupted_run(scenario, after_batches: int = 1) -> Run:
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=3)
    with pytest.raises(ProcessDied):
        execute(run, publish=crashing_publisher(after_batches=after_batches))
    run.refresh_from_db()
    assert run.status == Run.Status.RUNNING  # as a dead process leaves it
    return run


def age_heartbeat(run: Run, seconds: float = 3600) -> Run:
    Run.objects.filter(pk=run.pk).update(heartbeat_at=timezone.now() - timedelta(seconds=seconds))
    run.refresh_from_db()
    return run


def payloads(run: Run) -> list[tuple[int, dict]]:
    return list(RunEvent.objects.filter(run=run).order_by("seq").values_list("seq", "payload"))


def test_a_run_with_a_fresh_heartbeat_is_left_running():
    scenario, _ = create_scenario("alive", workload_yaml=WORKLOAD)
    run = interrupted_run(scenario)
    assert check_interrupted(run).status == Run.Status.RUNNING


def test_a_silent_run_is_marked_interrupted_with_how_far_it_got():
    scenario, _ = create_scenario("dead", workload_yaml=WORKLOAD)
    run = age_heartbeat(interrupted_run(scenario))
    stored = RunEvent.objects.filter(run=run).count()
    assert stored == FIRST_BATCH_SIZE
    run = check_interrupted(run)
    assert run.status == Run.Status.INTERRUPTED
    assert run.error == f"interrupted after event {stored}: the process executing it stopped"


def test_resuming_stores_only_the_missing_events_and_ends_as_an_uninterrupted_run():
    scenario, _ = create_scenario("resume", workload_yaml=WORKLOAD)
    run = check_interrupted(age_heartbeat(interrupted_run(scenario)))
    published: list[dict] = []
    assert resume_run(run, background=False) is True  # background=False: executes here and now
    run.refresh_from_db()
    assert run.status == Run.Status.FINISHED

    reference = Run.objects.create(scenario=scenario, version=run.version, seed=run.seed)
    execute(reference, publish=lambda slug, run_id, events: published.extend(events))
    assert payloads(run) == payloads(reference)
    assert [seq for seq, _ in payloads(run)] == list(range(1, len(published) + 1))


def test_only_an_interrupted_run_can_be_resumed_and_only_once():
    scenario, _ = create_scenario("once", workload_yaml=WORKLOAD)
    run = interrupted_run(scenario)
    assert resume_run(run, background=False) is False  # still running: nothing to resume
    run = check_interrupted(age_heartbeat(run))
    Run.objects.filter(pk=run.pk).update(status=Run.Status.QUEUED)  # another viewer resumed it first
    assert resume_run(run, background=False) is False


def test_a_replay_that_differs_from_the_stored_events_fails_the_run_instead_of_mixing_them():
    scenario, _ = create_scenario("diverged", workload_yaml=WORKLOAD)
    run = check_interrupted(age_heartbeat(interrupted_run(scenario)))
    last = RunEvent.objects.filter(run=run).order_by("-seq").first()
    last.payload = {**last.payload, "event": {**last.payload["event"], "message": "something else"}}
    last.save()  # as if the engine had changed between the crash and the resume
    resume_run(run, background=False)
    run.refresh_from_db()
    assert run.status == Run.Status.FAILED
    assert "cannot be resumed" in run.error
    assert RunEvent.objects.filter(run=run).count() == FIRST_BATCH_SIZE  # nothing appended


def test_the_resume_endpoint_answers_409_unless_interrupted(client):
    scenario, _ = create_scenario("http", workload_yaml=WORKLOAD)
    run = interrupted_run(scenario)
    url = reverse("resume-run", args=[scenario.slug, run.pk])
    refused = client.post(url, headers={"HX-Request": "true"})
    assert refused.status_code == 409
    assert refused.content.decode() == f"run {run.pk} is running, not interrupted"
    age_heartbeat(run)
    page = client.get(reverse("scenario", args=[scenario.slug]) + f"?run={run.pk}").content.decode()
    resume_form = page.split('<form data-player="resume"')[1].split(">")[0]
    assert "hidden" not in resume_form and "Resume run" in page  # the viewer is offered to resume
    accepted = client.post(url, {}, follow=False)  # a plain form post comes back to the run
    assert accepted.status_code == 302 and accepted["Location"].endswith(f"?run={run.pk}")


@pytest.mark.django_db(transaction=True)
async def test_a_viewer_asking_for_a_dead_run_hears_it_was_interrupted():
    from asgiref.sync import sync_to_async

    scenario, _ = await sync_to_async(create_scenario)("socket", workload_yaml=WORKLOAD)
    run = await sync_to_async(lambda: age_heartbeat(interrupted_run(scenario)))()
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1")]
    communicator = WebsocketCommunicator(application, f"/ws/scenarios/{scenario.slug}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"type": "resume", "run": run.pk, "after": FIRST_BATCH_SIZE})
    status = await communicator.receive_json_from(timeout=5)
    assert status["type"] == "run.status" and status["status"] == "interrupted"
    assert "the process executing it stopped" in status["error"]
    await communicator.disconnect()


def test_a_run_taken_for_dead_while_its_executor_lives_is_marked_running_again(monkeypatch):
    scenario, _ = create_scenario("alive after all", workload_yaml=WORKLOAD)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    statuses: list[str] = []
    told = lambda slug, run_id, status, error="": statuses.append(status)  # noqa: E731
    monkeypatch.setattr("playground.runs.send_run_status", told)

    def publish(slug, run_id, events):
        if events[0]["seq"] == 1:  # a viewer saw no heartbeat for too long (a long stall) and said so
            Run.objects.filter(pk=run_id).update(status=Run.Status.INTERRUPTED, error="interrupted after event 0")

    execute(run, publish=publish)
    run.refresh_from_db()
    assert run.status == Run.Status.FINISHED and run.error == ""
    assert statuses == [Run.Status.RUNNING, Run.Status.RUNNING, Run.Status.FINISHED]  # started, revived, done
    assert RunEvent.objects.filter(run=run).count() > FIRST_BATCH_SIZE


def test_a_run_stored_whole_before_change_deltas_resumes_where_it_stopped():
    scenario, _ = create_scenario("whole", workload_yaml=WORKLOAD)
    run = check_interrupted(age_heartbeat(interrupted_run(scenario, after_batches=2)))
    stored = list(RunEvent.objects.filter(run=run).order_by("seq"))
    # Stopped at a frame with a delta: the frame the replay is checked against differs when whole.
    last = max(row.seq for row in stored if any(change["op"].endswith("~") for change in row.payload["changes"]))
    RunEvent.objects.filter(run=run, seq__gt=last).delete()
    stored = stored[:last]
    for row, whole in zip(stored, expand(row.payload for row in stored), strict=True):
        row.payload = whole
    RunEvent.objects.bulk_update(stored, ["payload"])
    assert resume_run(run, background=False) is True
    run.refresh_from_db()
    assert run.status == Run.Status.FINISHED, run.error
    reference = Run.objects.create(scenario=scenario, version=run.version, seed=run.seed)
    execute(reference, publish=lambda *_: None)
    assert list(expand(p for _, p in payloads(run))) == list(expand(p for _, p in payloads(reference)))
