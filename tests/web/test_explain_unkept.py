"""Explaining a big run this process does not keep (a worker process executed it, the server
restarted, or run_states' LRU dropped it): the request answers at once with a "preparing" panel
that polls, a background replay to the run's end keeps its states, and the poll then gets the
explanation a kept run gives (playground/run_state_builder.py). Real database, real threads."""

import threading
import time
from collections.abc import Iterator

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from playground import run_replay, run_simulations, run_state_builder, run_states
from playground.change_deltas import expand
from playground.models import Run, RunEvent
from playground.runs import execute
from playground.scenarios import create_scenario, snapshot
from tests.web.stored_events import events_with_reason

pytestmark = pytest.mark.django_db

ZONE = "topology.kubernetes.io/zone"
# A run whose replay takes a second or more (7,500 frames), even on a fast machine: longer than the
# requests a test makes while it is under way, however loaded the machine.
SLOW = {"nodes": 30, "pods": 1500}


def big_cluster(nodes: int, pods: int) -> tuple[list[dict], str]:
    """Nodes in 3 zones, 4 cpu / 16Gi / 110 pods each; 4 Deployments totalling `pods`, the first
    spread over the zones."""
    node_list = [
        {
            "name": f"n{index}",
            "labels": {ZONE: f"z{index % 3}"},
            "capacity": {"cpu": "4", "memory": "16Gi", "pods": "110"},
        }
        for index in range(nodes)
    ]
    documents = []
    for index in range(4):
        spread = (
            f"      topologySpreadConstraints: [{{maxSkew: 1, topologyKey: {ZONE}, whenUnsatisfiable: DoNotSchedule,"
            f" labelSelector: {{matchLabels: {{app: d{index}}}}}}}]\n"
            if index == 0
            else ""
        )
        documents.append(
            f"apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: d{index}}}\nspec:\n  replicas: {pods // 4}\n"
            f"  selector: {{matchLabels: {{app: d{index}}}}}\n"
            f"  template:\n    metadata: {{labels: {{app: d{index}}}}}\n"
            f"    spec:\n{spread}      containers: [{{name: c, image: nginx, resources: {{requests: {{cpu: 10m}}}}}}]\n"
        )
    return node_list, "---\n".join(documents)


def executed_run(seed: int = 0, scenario=None, nodes: int = 10, pods: int = 300) -> Run:
    if scenario is None:
        node_list, workload = big_cluster(nodes, pods)
        scenario, _ = create_scenario("big", nodes=node_list, workload_yaml=workload)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=seed)
    execute(run, publish=lambda *_: None)
    run.refresh_from_db()
    assert run.status == Run.Status.FINISHED
    assert run.events.count() > run_state_builder.INLINE_FRAMES  # not one replayed inline
    return run


def wait_idle(timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while run_state_builder.busy() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not run_state_builder.busy(), "the replays did not end"


@pytest.fixture(autouse=True)
def nothing_kept(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # A request does not wait for the replay it starts, so that a fast machine's (these runs replay
    # in a fraction of a second) cannot finish inside that wait: every first answer is "preparing".
    run_states.clear()
    run_state_builder.clear_failures()
    yield
    wait_idle()
    run_states.clear()
    run_state_builder.clear_failures()


def explain_url(run: Run) -> str:
    return reverse("explain-pod", args=[run.scenario.slug, run.pk])


def last_scheduled(run: Run, first: bool = False) -> tuple[str, int]:
    event = events_with_reason(run, "Scheduled")[0 if first else -1]
    assert event is not None
    return event.payload["event"]["object"].removeprefix("Pod/"), event.seq


def poll(client: Client, url: str, query: dict, timeout: float = 60):
    """What the panel's poll gets once it stops preparing."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = client.get(url, query)
        if answer.status_code != 202:
            return answer
        time.sleep(0.1)
    raise AssertionError("still preparing")


def test_an_unkept_run_answers_preparing_at_once_then_what_a_kept_run_answers(client: Client):
    run = executed_run(**SLOW)
    pod, seq = last_scheduled(run)
    url = explain_url(run)
    early_pod, early_seq = last_scheduled(run, first=True)
    early = {"pod": early_pod, "seq": early_seq, "node": "n1"}  # "why not here", at an early event
    late = {"pod": pod, "seq": seq}
    kept_answers = [client.get(url, query).content.decode() for query in (early, late)]  # kept here
    assert "Why not" in kept_answers[0] and "kube-scheduler picks" in kept_answers[1]

    run_states.clear()  # as where a worker process executed it, or after a restart
    started = time.monotonic()
    first = client.get(url, late)
    assert time.monotonic() - started < 1.0
    assert first.status_code == 202
    page = first.content.decode()
    assert 'role="status"' in page and 'data-testid="preparing-run"' in page
    assert f"replaying {run.events.count():,} events" in page
    assert 'hx-trigger="load delay:1s"' in page and 'hx-target="#explain-slot"' in page
    assert f"seq={seq}" in page and "pod=" in page  # the poll asks the same question again

    assert poll(client, url, late).content.decode() == kept_answers[1]
    started = time.monotonic()
    assert client.get(url, early).content.decode() == kept_answers[0]  # from the kept states now
    assert time.monotonic() - started < 0.5
    assert run_states.finished_run(run_replay.state_key(run)) is not None


def test_a_request_waits_for_the_replay_it_starts_no_longer_than_its_wait(client: Client, monkeypatch):
    run = executed_run()
    pod, seq = last_scheduled(run)
    expected = client.get(explain_url(run), {"pod": pod, "seq": seq}).content.decode()
    run_states.clear()
    monkeypatch.setattr(run_state_builder, "WAIT_SECONDS", 0.3)
    started = time.monotonic()
    first = client.get(explain_url(run), {"pod": pod, "seq": seq})
    assert time.monotonic() - started < 0.3 + 0.5
    if first.status_code == 200:  # the replay was done within the wait: the explanation at once
        assert first.content.decode() == expected
    else:
        assert first.status_code == 202 and 'data-testid="preparing-run"' in first.content.decode()


def test_two_requests_for_one_run_start_one_replay(client: Client):
    run = executed_run(**SLOW)
    pod, seq = last_scheduled(run)
    run_states.clear()
    before = run_state_builder.replays
    answers = [client.get(explain_url(run), {"pod": pod, "seq": seq}) for _ in range(2)]
    assert [answer.status_code for answer in answers] == [202, 202]
    assert run_state_builder.busy() == 1
    assert poll(client, explain_url(run), {"pod": pod, "seq": seq}).status_code == 200
    assert run_state_builder.replays == before + 1


def test_a_flood_of_explanations_of_many_runs_queues_a_bounded_number(client: Client, monkeypatch: pytest.MonkeyPatch):
    slow = executed_run(**SLOW)  # the worker's first, busy while the others come
    first = executed_run(seed=0)
    many = [slow, first, *(executed_run(seed=seed, scenario=first.scenario) for seed in (1, 2))]
    questions = [(explain_url(run), dict(zip(("pod", "seq"), last_scheduled(run), strict=True))) for run in many]
    run_states.clear()
    monkeypatch.setattr(run_state_builder, "QUEUE_SIZE", 1)
    monkeypatch.setattr(run_state_builder, "WAIT_SECONDS", 0.0)
    # The worker holds the first replay until every request is in: a fast machine replays these
    # runs in a tenth of a second, and would otherwise free the queue between two requests.
    release = threading.Event()
    replay = run_state_builder._replay

    def held_replay(job):
        release.wait(30)
        return replay(job)

    monkeypatch.setattr(run_state_builder, "_replay", held_replay)
    before = run_state_builder.replays
    answers = [client.get(url, query) for url, query in questions]
    release.set()
    assert [answer.status_code for answer in answers] == [202] * len(answers)
    # At most one replay under way and one waiting (one only, if the worker had not taken the first
    # yet); the others were told to come back, nothing queued for them.
    assert run_state_builder.busy() <= run_state_builder.WORKERS + 1
    pages = [answer.content.decode() for answer in answers]
    refused = [page for page in pages if "every replay worker is busy" in page]
    assert len(refused) >= len(many) - 2 and all('hx-trigger="load delay:3s"' in page for page in refused)
    wait_idle()
    assert run_state_builder.replays - before == len(many) - len(refused)
    for url, query in questions:  # each poll comes back until its run's turn
        assert poll(client, url, query).status_code == 200
    assert run_state_builder.replays - before <= len(many) + 2  # no replay without a request waiting on it


@pytest.mark.django_db(transaction=True)  # the asking threads read the run with their own connections
def test_concurrent_requests_from_threads_share_one_replay():
    run = executed_run(**SLOW)
    run_states.clear()
    before = run_state_builder.replays
    states: list[run_state_builder.State] = []
    gate = threading.Barrier(4)

    def ask() -> None:
        try:
            gate.wait()
            states.append(run_state_builder.state(Run.objects.select_related("version").get(pk=run.pk), wait=0.0))
        finally:
            connection.close()

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(state.preparing for state in states)
    wait_idle()
    assert run_state_builder.replays == before + 1
    assert run_state_builder.state(run).kept is not None


def test_a_run_deleted_meanwhile_says_so(client: Client):
    run = executed_run()
    pod, seq = last_scheduled(run)
    url = explain_url(run)
    run_states.clear()
    assert client.get(url, {"pod": pod, "seq": seq}).status_code in (200, 202)  # prepared already, or not
    Run.objects.filter(pk=run.pk).delete()
    gone = client.get(url, {"pod": pod, "seq": seq})
    assert gone.status_code == 404
    page = gone.content.decode()
    assert f"Run {run.pk} no longer exists" in page and 'class="explain"' in page  # a panel, not a page
    assert "Traceback" not in page


def test_a_replay_past_its_cpu_budget_says_so_and_is_not_started_again(client: Client, monkeypatch: pytest.MonkeyPatch):
    run = executed_run()
    pod, seq = last_scheduled(run)
    run_states.clear()
    monkeypatch.setattr(run_simulations, "MAX_RUN_CPU_SECONDS", 0.01)
    before = run_state_builder.replays
    answer = poll(client, explain_url(run), {"pod": pod, "seq": seq})
    assert answer.status_code == 422
    assert (
        "replaying this run to explain it stopped: the run used more than 0.01 s of CPU time" in answer.content.decode()
    )
    again = client.get(explain_url(run), {"pod": pod, "seq": seq})
    assert again.status_code == 422 and run_state_builder.replays == before + 1


def test_a_replay_that_differs_from_the_stored_run_says_so(client: Client):
    run = executed_run()
    pod, seq = last_scheduled(run)
    last = run.events.order_by("-seq").first()
    assert last is not None
    RunEvent.objects.filter(pk=last.pk).update(payload={**last.payload, "time": last.payload["time"] + 1})
    run_states.clear()
    answer = poll(client, explain_url(run), {"pod": pod, "seq": seq})
    assert answer.status_code == 422
    assert "replaying it gives different events than those stored" in answer.content.decode()
    assert run_states.finished_run(run_replay.state_key(run)) is None  # nothing kept of a diverging replay


def test_a_run_stored_whole_before_change_deltas_is_still_explained(client: Client):
    run = executed_run()
    stored = list(run.events.order_by("seq"))
    for row, whole in zip(stored, expand(row.payload for row in stored), strict=True):
        row.payload = whole  # as runs were stored before change deltas
    RunEvent.objects.bulk_update(stored, ["payload"])
    assert any(change["op"] == "pod" and change["ready"] for row in stored for change in row.payload["changes"])
    pod, seq = last_scheduled(run)
    run_states.clear()
    answer = poll(client, explain_url(run), {"pod": pod, "seq": seq})
    assert answer.status_code == 200 and "kube-scheduler picks" in answer.content.decode()
