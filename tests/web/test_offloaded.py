"""Answers that need a long replay come off the request (playground/offloaded.py): the traffic view
of a big run and the explanation of a pod in a big run still under way answer "preparing" at once,
then, when the panel asks again, what the inline replay gives. Real database, real threads."""

import threading
import time
from collections.abc import Iterator

import pytest
from django.db import connection
from django.test import Client

from playground import compare, offloaded, run_replay, run_state_builder, run_states, runs, traffic
from playground.models import Run
from playground.ratelimit import DEFAULT_LIMITS
from playground.scenarios import create_scenario, snapshot
from tests.web.test_compare import HTMX, THREE_PODS, ZONED_NODES, compare_url, diff_rows
from tests.web.test_explain_unkept import executed_run, explain_url, last_scheduled, poll
from tests.web.test_traffic import NODE_DOWN, Flows, gallery_run, last_seq, panel

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def nothing_known(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    offloaded.forget_all()
    traffic.clear_cache()
    run_states.clear()
    yield
    deadline = time.monotonic() + 60
    while offloaded._jobs and time.monotonic() < deadline:
        time.sleep(0.05)
    offloaded.forget_all()
    traffic.clear_cache()
    run_states.clear()


def held_back(monkeypatch: pytest.MonkeyPatch, module, name: str) -> threading.Event:
    """`module.name` waits for the returned event before it computes: the first answer is "preparing".
    It also checks that the computation, off the request, never opened a database connection."""
    release = threading.Event()
    real = getattr(module, name)

    def waiting(*args, **kwargs):
        release.wait(30)
        answer = real(*args, **kwargs)
        if threading.current_thread().name.startswith("offloaded"):  # not a short replay in the request
            assert connection.connection is None, "the worker touched the database"
        return answer

    monkeypatch.setattr(module, name, waiting)
    return release


def test_a_long_traffic_replay_answers_preparing_then_the_inline_answer(client: Client, monkeypatch):
    run = gallery_run(NODE_DOWN)
    seq = last_seq(run)
    status, inline = panel(client, run, seq=seq)  # short enough to be replayed in the request
    assert status == 200
    traffic.clear_cache()
    monkeypatch.setattr(run_state_builder, "INLINE_FRAMES", 1)  # as a run of 50,000 pods would be
    release = held_back(monkeypatch, traffic, "traffic_at")
    status, waiting = panel(client, run, seq=seq)
    assert status == 202 and 'data-testid="preparing-traffic"' in waiting
    assert f"seq={seq}" in waiting  # the panel asks again for the same event
    assert panel(client, run, seq=seq)[0] == 202  # a poll joins the replay under way
    release.set()
    deadline = time.monotonic() + 30
    while (answer := panel(client, run, seq=seq))[0] == 202 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert answer[0] == 200
    assert Flows(answer[1]).flows == Flows(inline).flows and Flows(inline).flows
    assert offloaded.computed >= 1
    computed = offloaded.computed
    assert panel(client, run, seq=seq)[0] == 200 and offloaded.computed == computed  # kept, not again


def test_a_pod_of_a_long_run_under_way_is_explained_off_the_request(client: Client, monkeypatch):
    run = executed_run()
    pod, seq = last_scheduled(run)
    url = explain_url(run)
    run_states.clear()
    Run.objects.filter(pk=run.pk).update(status=Run.Status.RUNNING)  # still under way: nothing kept
    release = held_back(monkeypatch, run_replay, "explain_at")
    waiting = client.get(url, {"pod": pod, "seq": seq})
    assert waiting.status_code == 202 and 'data-testid="preparing-run"' in waiting.content.decode()
    release.set()
    answer = poll(client, url, {"pod": pod, "seq": seq})
    assert answer.status_code == 200 and "kube-scheduler picks" in answer.content.decode()
    early_pod, early_seq = last_scheduled(run, first=True)
    assert early_seq <= run_state_builder.INLINE_FRAMES
    assert client.get(url, {"pod": early_pod, "seq": early_seq}).status_code == 200  # short: inline


def test_a_full_queue_tells_the_panel_to_come_back(monkeypatch):
    monkeypatch.setattr(offloaded, "QUEUE_SIZE", 0)
    assert offloaded.answer(("test", 1), lambda: 1) == offloaded.Pending(queue_full=True)


def test_an_error_of_the_computation_is_said_once_then_computed_anew():
    calls = []

    def failing():
        calls.append(1)
        raise ValueError("a limit")

    for attempt in (1, 2):
        with pytest.raises(ValueError, match="a limit"):
            deadline = time.monotonic() + 10
            while offloaded.answer(("failing",), failing, wait=1) == offloaded.Pending():
                assert time.monotonic() < deadline
        assert len(calls) == attempt


def test_a_big_scenarios_comparison_is_simulated_off_the_request(client: Client, monkeypatch):
    scenario, _ = create_scenario("pack", nodes=ZONED_NODES, workload_yaml=THREE_PODS)
    inline = client.get(compare_url(scenario, config="bin-packing"), headers=HTMX)
    assert inline.status_code == 200
    monkeypatch.setattr(compare, "OFF_THE_REQUEST_BYTES", 0)  # as a scenario of 50,000 pods is
    release = held_back(monkeypatch, compare, "simulate_both")
    waiting = client.get(compare_url(scenario, config="bin-packing"), headers=HTMX)
    assert waiting.status_code == 202 and 'data-testid="simulating-sides"' in waiting.content.decode()
    assert "config=bin-packing" in waiting.content.decode()  # the poll asks for the same comparison
    burst = DEFAULT_LIMITS["run"].burst
    for _ in range(burst + 2):  # polls of the comparison under way cost no run (it was refused at 10)
        assert client.get(compare_url(scenario, config="bin-packing"), headers=HTMX).status_code == 202
    release.set()
    deadline = time.monotonic() + 30
    while (answer := client.get(compare_url(scenario, config="bin-packing"), headers=HTMX)).status_code == 202:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert answer.status_code == 200 and diff_rows(answer.content.decode()) == diff_rows(inline.content.decode())


def test_a_newer_ask_of_the_same_group_supersedes_one_still_waiting(monkeypatch):
    """A playing run's traffic asks for a new event every second: only the newest waits for a replay."""
    release = threading.Event()
    ran: list[str] = []

    def compute(name: str):
        def run() -> str:
            release.wait(30)
            ran.append(name)
            return name

        return run

    group = ("traffic", 7)
    assert offloaded.answer(("t", 1), compute("first"), wait=0, supersedes=group) == offloaded.Pending()
    time.sleep(0.2)  # the worker took the first: under way, it is not dropped
    assert offloaded.answer(("t", 2), compute("second"), wait=0, supersedes=group) == offloaded.Pending()
    assert offloaded.answer(("t", 3), compute("third"), wait=0, supersedes=group) == offloaded.Pending()
    release.set()
    deadline = time.monotonic() + 10
    while offloaded.answer(("t", 3), compute("third"), wait=0.2, supersedes=group) == offloaded.Pending():
        assert time.monotonic() < deadline
    assert ran == ["first", "third"]  # the second waited, and was superseded
    assert offloaded.answer(("t", 1), compute("first")) == "first"


def test_prepare_runs_before_the_work_is_queued_and_never_for_a_poll():
    prepared: list[int] = []
    release = threading.Event()

    def compute() -> int:
        release.wait(30)
        return 1

    for _ in range(3):
        assert (
            offloaded.answer(("prepared",), compute, wait=0, prepare=lambda: prepared.append(1)) == offloaded.Pending()
        )
    assert prepared == [1]
    release.set()


def test_sides_sharing_a_simulation_keep_their_own_titles(client: Client):
    """A run and the version it ran, with the same seed and configuration, are one simulation: the
    shared result shows each request's own sides (its titles and links)."""
    scenario, _ = create_scenario("pack", nodes=ZONED_NODES, workload_yaml=THREE_PODS)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    runs.execute(run, publish=lambda *_: None)
    compare.OFF_THE_REQUEST_BYTES, saved = 0, compare.OFF_THE_REQUEST_BYTES
    try:
        html = ""
        for query in ({"b": str(run.pk)}, {"config": "scenario"}):
            deadline = time.monotonic() + 30
            while (answer := client.get(compare_url(scenario, **query), headers=HTMX)).status_code == 202:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            html = answer.content.decode()
            assert (f"Run {run.pk}" in html) == ("b" in query)
    finally:
        compare.OFF_THE_REQUEST_BYTES = saved
    assert "open the run" not in html
