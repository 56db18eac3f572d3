"""The board's preview (playground/preview.py) with the real engine, in this process: computed off
the request by daemon threads, once however many ask at the same time, bounded, cached by content."""

import threading
import time
import uuid

import pytest

from playground import preview

NODE = (
    "apiVersion: v1\nkind: Node\nmetadata: {name: worker1}\nstatus: {capacity: {cpu: '4', memory: 16Gi, pods: '110'}}\n"
)


def cluster(replicas: int) -> str:
    """A cluster document of its own (a comment makes it new to the cache)."""
    return (
        f"# {uuid.uuid4()}\n{NODE}---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web}}\nspec:\n"
        f"  replicas: {replicas}\n  selector: {{matchLabels: {{app: web}}}}\n"
        "  template:\n    metadata: {labels: {app: web}}\n"
        "    spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: 10m}}}]}\n"
    )


def finished(document: str, timeout: float = 30.0) -> preview.Preview:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = preview.preview(document, wait=0.2)
        if result.ready:
            return result
        time.sleep(0.1)  # a board asks again after a while (a joiner's ask returns at once)
    raise AssertionError(f"no preview within {timeout:g}s")


def test_a_small_preview_is_there_within_the_requests_wait():
    result = preview.preview(cluster(3))
    assert result.ready
    assert result.usage["worker1"].pods == 3
    assert result.usage["worker1"].cpu == 30


@pytest.fixture
def quick_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Large previews stop after 0.5 s of CPU time, so that the tests of the pool are quick."""
    monkeypatch.setattr(preview, "MAX_CPU_SECONDS", 0.5)


@pytest.mark.usefixtures("quick_budget")
def test_a_request_waits_only_briefly_for_a_large_preview_then_gets_a_placeholder():
    document = cluster(100_000_000)
    started = time.monotonic()
    result = preview.preview(document, wait=0.2)
    waited = time.monotonic() - started
    assert not result.ready and not result.queue_full
    assert waited < 0.5, waited
    finished(document)


@pytest.mark.usefixtures("quick_budget")
def test_the_same_preview_asked_for_at_once_is_computed_once_and_every_asker_gets_it():
    document = cluster(100_000_000)
    before = preview.computations
    answers: list[preview.Preview] = []
    askers = [threading.Thread(target=lambda: answers.append(preview.preview(document, wait=0.1))) for _ in range(6)]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join()
    assert len(answers) == 6 and not any(answer.ready for answer in answers)  # all answered, none waited it out
    result = finished(document)
    assert preview.computations == before + 1
    assert preview.preview(document) is result  # cached: asking again computes nothing
    assert preview.computations == before + 1


def test_a_preview_past_its_event_bound_names_the_limit_instead_of_pods(monkeypatch: pytest.MonkeyPatch):
    # The event bound is what this asks about: on a slow machine the 5 s of CPU would come first.
    monkeypatch.setattr(preview, "MAX_CPU_SECONDS", 120.0)
    result = finished(cluster(100_000_000), timeout=120.0)
    assert result.stopped == (
        "the run produced more than 20000 events (the preview's limit)."
        " A run goes on up to its own limits (20,000 events or 20 a pod, up to 2,000,000;"
        " 120 s of CPU time, in proportion past 30,000 pods)."
    )
    assert result.usage == {} and result.pending == []


def test_a_preview_past_its_cpu_budget_names_the_budget(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(preview, "MAX_CPU_SECONDS", 0.3)
    started = time.monotonic()
    result = finished(cluster(100_000_000))
    assert result.stopped.startswith("the run used more than 0.3 s of CPU time (the preview's limit).")
    assert time.monotonic() - started < 3.0


def test_the_preview_threads_are_daemons_so_they_never_hold_up_the_process_exit():
    finished(cluster(1))
    workers = [thread for thread in threading.enumerate() if thread.name.startswith("preview-")]
    assert len(workers) == preview.WORKERS
    assert all(thread.daemon for thread in workers)


@pytest.mark.usefixtures("quick_budget")
def test_past_a_full_queue_a_board_is_told_to_ask_again_and_nothing_more_is_queued(
    monkeypatch: pytest.MonkeyPatch,
):
    monkeypatch.setattr(preview, "QUEUE_SIZE", 1)
    documents = [cluster(100_000_000) for _ in range(preview.WORKERS + 3)]
    answers = [preview.preview(document, wait=0.1) for document in documents]
    refused = [document for document, answer in zip(documents, answers, strict=True) if answer.queue_full]
    assert refused, "every worker busy and the queue full: the later boards are refused"
    assert len(refused) <= 3
    for document in documents:
        if document not in refused:
            assert finished(document).stopped  # what was taken is computed
    for document in refused:
        assert finished(document).stopped  # and a refused one is taken when asked again


# ---------------------------------------------------------------------------- while an edit's preview computes


@pytest.mark.django_db
def test_an_edit_shows_the_placement_before_it_marked_updating_until_its_own_is_there(
    client, monkeypatch: pytest.MonkeyPatch
):
    from django.urls import reverse

    from playground.scenarios import create_scenario, snapshot

    scenario, secret = create_scenario("Updating", workload_yaml=cluster(3).split("---\n", 1)[1])
    client.get(reverse("claim-edit-link", args=[scenario.slug, secret]))
    before = finished(snapshot(scenario).cluster_document)
    assert before.ready and sum(usage.pods for usage in before.usage.values()) == 3

    release = threading.Event()
    real_compute = preview._compute

    def slow_compute(document: str) -> tuple[preview.Preview, float]:
        release.wait(30)  # the edit's preview takes its time
        return real_compute(document)

    monkeypatch.setattr(preview, "_compute", slow_compute)
    node = scenario.nodes.first()
    started = time.monotonic()
    response = client.post(
        reverse("node-action", args=[scenario.slug, node.pk, "cordon"]),
        {"version": scenario.version},
        headers={"HX-Request": "true"},
    )
    answered = time.monotonic() - started
    page = response.content.decode()
    assert response.status_code == 200
    assert "data-updating" in page and "Updating the pods’ placement for this change" in page
    assert page.count('class="pod ') == 3  # the pods as they were placed before the cordon
    assert answered < preview.WAIT_SECONDS  # it did not wait out the new preview
    release.set()
    deadline = time.monotonic() + 30
    while "data-updating" in (page := client.get(reverse("board", args=[scenario.slug])).content.decode()):
        assert time.monotonic() < deadline, "the edit's own preview never came"
        time.sleep(0.2)
    assert 'data-testid="placing-pods"' not in page
