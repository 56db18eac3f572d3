"""A run and every replay of it have a CPU budget (playground/runs.py run_options): a run past its
budget fails saying so; an explanation or traffic view past a replay's budget answers 422 saying so;
within the budget a replay gives the run's own events."""

import time

import pytest
from django.urls import reverse

from playground import run_replay, run_simulations, run_state_builder, run_states
from playground.models import Run
from playground.runs import execute
from playground.scenarios import create_scenario, snapshot
from scheduler_core.store.event_correlation import recorded
from tests.web.stored_events import events_with_reason

pytestmark = pytest.mark.django_db

NODES = [{"name": f"n{index}", "capacity": {"cpu": "64", "memory": "256Gi", "pods": "500"}} for index in range(10)]
WORKLOAD = (
    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 300\n"
    "  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n"
    "    spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: 10m}}}]}\n"
    "---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: [{port: 80}]\n"
)


def finished_run() -> Run:
    scenario, _ = create_scenario("bounded", nodes=NODES, workload_yaml=WORKLOAD)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    execute(run, publish=lambda *_: None)
    run.refresh_from_db()
    assert run.status == Run.Status.FINISHED
    return run


def test_a_run_past_its_cpu_budget_fails_naming_the_budget(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(run_simulations, "MAX_RUN_CPU_SECONDS", 0.01)
    scenario, _ = create_scenario("heavy", nodes=NODES, workload_yaml=WORKLOAD)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    execute(run, publish=lambda *_: None)
    run.refresh_from_db()
    assert run.status == Run.Status.FAILED
    assert run.error == "the run used more than 0.01 s of CPU time"


def test_an_explanation_past_the_replays_cpu_budget_answers_422_naming_it(client, monkeypatch: pytest.MonkeyPatch):
    run = finished_run()
    pod = events_with_reason(run, "Scheduled")[-1].payload["event"]["object"]
    seq = run.events.count() - 1
    url = reverse("explain-pod", args=[run.scenario.slug, run.pk])
    assert client.get(url, {"pod": pod.removeprefix("Pod/"), "seq": seq}).status_code == 200  # within it

    monkeypatch.setattr(run_simulations, "MAX_REPLAY_CPU_SECONDS", 0.01)
    # A replay inside the request, as for any run this short (a longer one: tests/web/test_explain_unkept.py).
    monkeypatch.setattr(run_state_builder, "INLINE_FRAMES", 10**9)
    # Executed in this process, the run is kept (playground/run_states.py): no replay, no budget.
    assert client.get(url, {"pod": pod.removeprefix("Pod/"), "seq": seq}).status_code == 200
    run_states.clear()  # as where another process executed it: the explanation replays the run
    answer = client.get(url, {"pod": pod.removeprefix("Pod/"), "seq": seq})
    assert answer.status_code == 422
    assert "the run used more than 0.01 s of CPU time (a replay&#x27;s limit)" in answer.content.decode()


def test_a_traffic_view_past_the_replays_cpu_budget_answers_422_naming_it(client, monkeypatch: pytest.MonkeyPatch):
    run = finished_run()
    url = reverse("run-traffic", args=[run.scenario.slug, run.pk])
    seq = run.events.count() - 1

    def settled():
        """The view's answer once its replay is done: the replay is off the request, and on a loaded
        machine it outlasts the request's wait (202, "preparing"); the page polls, as this does."""
        deadline = time.monotonic() + 30
        answer = client.get(url, {"seq": seq})
        while answer.status_code == 202 and time.monotonic() < deadline:
            time.sleep(0.1)
            answer = client.get(url, {"seq": seq})
        return answer

    monkeypatch.setattr(run_simulations, "MAX_REPLAY_CPU_SECONDS", 0.01)
    answer = settled()
    assert answer.status_code == 422
    assert "the run used more than 0.01 s of CPU time" in answer.content.decode()
    monkeypatch.undo()
    assert settled().status_code == 200  # within the budget (nothing kept of the refusal)


def test_a_replay_within_its_budget_stops_at_the_runs_own_event():
    run = finished_run()
    stored = run.events.get(seq=40).payload["event"]
    replayed = run_replay.replay(run, 40)
    assert replayed.simulation.options.max_cpu_seconds == run_simulations.MAX_REPLAY_CPU_SECONDS
    assert replayed.cluster.events[-1].as_dict() == recorded(stored)  # the same events, up to it and none after
