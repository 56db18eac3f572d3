"""The collector's schedule in a server holding big engine state (playground/heap.py): a big heap is
frozen after each full collection, so the next walks only what came since; cycles among frozen
objects are freed by a whole walk, made at a run's end, at a quiet moment, or after a bound."""

import gc
import time
import weakref
from collections.abc import Iterator

import pytest
from channels.testing import HttpCommunicator

from playground import heap
from playground.models import Run
from playground.runs import execute
from playground.scenarios import create_scenario, snapshot
from tests.manifests import deployment_yaml


class Cyclic:
    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The heap policy with a threshold this test process is over (it holds some 100,000 objects)."""
    monkeypatch.setattr(heap, "BIG_HEAP_OBJECTS", 1_000)
    heap.install(janitor=False)
    try:
        yield
    finally:
        heap.uninstall()


def test_a_small_heap_keeps_cpythons_schedule(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(heap, "BIG_HEAP_OBJECTS", 100_000_000)
    heap.install(janitor=False)
    try:
        gc.collect()
        assert gc.get_freeze_count() == 0
        assert heap._state.frozen_estimate == 0
        orphan = Cyclic()
        alive = weakref.ref(orphan)
        del orphan
        gc.collect()
        assert alive() is None
    finally:
        heap.uninstall()


def test_a_big_heap_is_frozen_and_the_next_collection_walks_only_what_came_since(installed):
    gc.collect()  # a whole collection: what it leaves is frozen
    frozen = gc.get_freeze_count()
    assert frozen >= heap._state.frozen_after_walk > 1_000
    assert heap._state.frozen_estimate == heap._state.frozen_after_walk

    newer = [Cyclic() for _ in range(5_000)]
    gc.collect()  # walks the 5,000 and what else came since, then freezes them too
    assert heap._state.frozen_estimate >= heap._state.frozen_after_walk + 5_000
    assert gc.get_freeze_count() >= frozen + 5_000
    del newer


def test_a_frozen_cycle_waits_for_a_whole_walk_and_a_runs_end_makes_one(installed):
    orphan = Cyclic()
    alive = weakref.ref(orphan)
    gc.collect()  # frozen while still referenced
    del orphan
    gc.collect()
    assert alive() is not None, "a frozen cycle is not walked by an ordinary full collection"

    walks = heap._state.whole_walks
    heap.released(walk_now=True)
    assert heap._state.whole_walks == walks + 1
    assert alive() is None
    assert gc.get_freeze_count() > 1_000  # the rest, still big, frozen again after the walk


def test_a_release_waits_for_a_quiet_moment_or_for_its_bound(installed):
    gc.collect()
    now = time.monotonic()
    assert not heap.walk_is_due(now)
    heap.released()
    with heap.busy():
        assert not heap.walk_is_due(time.monotonic() + heap.QUIET_SECONDS + 1)  # a request under way
        assert heap.walk_is_due(time.monotonic() + heap.MAX_DEFER_SECONDS + 1)  # but not for ever
    assert not heap.walk_is_due(time.monotonic())  # the request just ended
    assert heap.walk_is_due(time.monotonic() + heap.QUIET_SECONDS + 0.1)


def test_a_frozen_set_that_doubled_is_walked_when_quiet_only(installed):
    gc.collect()
    grown = [Cyclic() for _ in range(heap._state.frozen_after_walk + 1_000)]
    gc.collect()
    assert heap._state.walk_due_since is not None
    with heap.busy():
        assert not heap.walk_is_due(time.monotonic() + heap.MAX_DEFER_SECONDS + 1)  # growth is not forced
    assert heap.walk_is_due(time.monotonic() + heap.QUIET_SECONDS + 0.1)
    del grown


def test_the_janitor_walks_once_the_server_is_quiet(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(heap, "BIG_HEAP_OBJECTS", 1_000)
    monkeypatch.setattr(heap, "QUIET_SECONDS", 0.05)
    monkeypatch.setattr(heap, "JANITOR_INTERVAL_SECONDS", 0.01)
    heap.install()
    try:
        orphan = Cyclic()
        alive = weakref.ref(orphan)
        gc.collect()
        del orphan
        heap.released()
        deadline = time.monotonic() + 5
        while alive() is not None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert alive() is None
    finally:
        heap.uninstall()


@pytest.mark.django_db
def test_a_run_is_busy_while_it_executes_and_walks_the_heap_at_its_end(installed):
    scenario, _ = create_scenario(
        "heap", workload_yaml="apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: c}]\n"
    )
    gc.collect()  # something frozen, as in a server that holds a big run
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    seen_busy: list[int] = []

    def publish(slug: str, run_id: int, events: list[dict]) -> None:
        seen_busy.append(heap._state.in_flight)

    walks = heap._state.whole_walks
    execute(run, publish=publish)
    run.refresh_from_db()
    assert run.status == Run.Status.FINISHED
    assert seen_busy and min(seen_busy) >= 1
    assert heap._state.in_flight == 0
    assert heap._state.whole_walks == walks + 1


@pytest.mark.django_db(transaction=True)
async def test_an_http_request_is_busy_until_its_handler_returns(installed):
    from playground.asgi import application

    before = heap._state.last_activity
    communicator = HttpCommunicator(application, "GET", "/healthz", headers=[(b"host", b"testserver")])
    response = await communicator.get_response()
    assert response["status"] in (200, 503)
    await communicator.wait()
    assert heap._state.in_flight == 0
    assert heap._state.last_activity > before


@pytest.mark.django_db
def test_a_big_run_freezes_what_the_server_holds_as_it_starts_and_walks_it_at_its_end(monkeypatch):
    from playground import runs

    monkeypatch.setattr(heap, "BIG_HEAP_OBJECTS", 100_000_000)  # a heap too small to freeze itself
    monkeypatch.setattr(runs, "FREEZE_HEAP_FROM_PODS", 3)
    heap.install(janitor=False)
    try:
        scenario, _ = create_scenario("big heap", workload_yaml=deployment_yaml(replicas=3))
        orphan = Cyclic()  # garbage the server held when the run started
        alive = weakref.ref(orphan)
        del orphan
        frozen_during_run: list[int] = []

        def publish(slug: str, run_id: int, events: list[dict]) -> None:
            frozen_during_run.append(gc.get_freeze_count())

        walks = heap._state.whole_walks
        run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
        execute(run, publish=publish)
        assert frozen_during_run[0] > 10_000  # everything there was, from the run's first frame on
        assert heap._state.whole_walks == walks + 1  # the run's end walked it
        assert alive() is None
        assert gc.get_freeze_count() == 0  # a small heap again: nothing stays frozen
    finally:
        heap.uninstall()


@pytest.mark.django_db
def test_a_small_run_leaves_the_collectors_schedule_alone(monkeypatch):
    monkeypatch.setattr(heap, "BIG_HEAP_OBJECTS", 100_000_000)
    heap.install(janitor=False)
    try:
        scenario, _ = create_scenario("small heap", workload_yaml=deployment_yaml(replicas=3))
        walks = heap._state.whole_walks
        execute(Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0))
        assert heap._state.whole_walks == walks
        assert gc.get_freeze_count() == 0
    finally:
        heap.uninstall()


@pytest.mark.django_db
def test_a_run_whose_failure_cannot_be_stored_still_has_its_heap_walked(installed, monkeypatch):
    from playground import run_simulations, runs

    scenario, _ = create_scenario("unstorable", workload_yaml=deployment_yaml(replicas=2))
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    gc.collect()  # something frozen

    def engine_fails(*args, **kwargs):
        raise runs.SimulationLimitError("too big")

    def database_down(*args, **kwargs):
        raise runs.DatabaseError("the database is down")

    monkeypatch.setattr(run_simulations, "Simulation", engine_fails)
    monkeypatch.setattr(runs, "_fail", database_down)
    with pytest.raises(runs.DatabaseError):
        execute(run, publish=lambda *args: None)
    assert heap._state.walk_due_since is not None and heap._state.walk_forced
    assert heap._state.in_flight == 0
