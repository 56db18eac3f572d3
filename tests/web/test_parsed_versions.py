"""A big version's preview sends its parse back (playground/parsed_versions.py): the run pressed after
it loads those manifests instead of parsing the document again, each run gets objects of its own, a
run from them is the run from a fresh parse event for event, and what is kept stays bounded."""

import time

import pytest
from django.urls import reverse

from playground import parsed_versions, preview, runs
from playground.models import Run
from playground.scenarios import create_scenario, snapshot
from playground.views import running
from scheduler_core.api.manifests import load_manifests
from scheduler_core.simulation.simulation import Simulation
from tests.web.test_preview_sandbox import DEPLOYMENT, big_document

pytestmark = pytest.mark.django_db


def events_of(manifests) -> list[dict]:
    simulation = Simulation(manifests, seed=3)
    simulation.run_to_end(until=60.0)
    return [event.as_dict() for event in simulation.cluster.events]


def test_a_sandboxed_preview_keeps_its_parse_and_each_load_is_fresh_objects():
    parsed_versions.forget_all()
    document = big_document(replicas=40, name="kept")
    assert preview.preview(document, wait=120).ready
    first, second = parsed_versions.manifests_of(document), parsed_versions.manifests_of(document)
    assert first is not None and second is not None
    assert first is not second and first[0].object is not second[0].object  # a run takes its own over
    assert events_of(first) == events_of(load_manifests(document, source="scenario"))
    assert parsed_versions.manifests_of(document + "\n# edited\n") is None  # another document: parse it


def test_a_small_documents_preview_keeps_nothing():
    parsed_versions.forget_all()
    small = DEPLOYMENT.format(name="small", replicas=2)
    assert preview.preview(small, wait=30).ready
    assert parsed_versions.manifests_of(small) is None and parsed_versions.kept_bytes() == 0


def test_what_is_kept_stays_within_its_bound(monkeypatch):
    parsed_versions.forget_all()
    monkeypatch.setattr(parsed_versions, "MAX_BYTES", 1000)
    for index in range(10):
        parsed_versions.keep(f"key-{index}", b"x" * 300)
    assert parsed_versions.kept_bytes() <= 1000
    parsed_versions.keep("too big", b"x" * 2000)
    assert parsed_versions.kept_bytes() <= 1000


def test_run_pressed_after_the_preview_does_not_parse_and_runs_the_same(client, monkeypatch):
    parsed_versions.forget_all()
    nodes = [
        {"name": f"node-{i}", "cpu": "4", "memory": "16Gi", "labels": {"topology.kubernetes.io/zone": f"z{i % 3}"}}
        for i in range(400)
    ]
    scenario, _ = create_scenario("parsed", nodes=nodes, workload_yaml=DEPLOYMENT.format(name="web", replicas=30))
    document = snapshot(scenario).cluster_document
    assert len(document) > preview.SANDBOX_BYTES
    deadline = time.monotonic() + 120
    while parsed_versions.manifests_of(document) is None and time.monotonic() < deadline:
        client.get(reverse("board", args=[scenario.slug]))  # as the page asks for its preview
        time.sleep(0.2)
    parses: list[int] = []
    original = load_manifests

    def counted(text, *args, **kwargs):
        parses.append(len(text))
        return original(text, *args, **kwargs)

    monkeypatch.setattr(running, "load_manifests", counted)
    monkeypatch.setattr(runs, "load_manifests", counted)
    response = client.post(reverse("start-run", args=[scenario.slug]), {"seed": 3}, headers={"HX-Request": "true"})
    assert response.status_code == 201
    assert parses == []
    run = Run.objects.get(scenario=scenario)
    assert run.status == Run.Status.FINISHED
    stored = [row.payload["event"] for row in run.events.order_by("seq") if row.payload.get("event")]
    monkeypatch.undo()
    fresh = Run.objects.create(scenario=scenario, version=run.version, seed=3)
    runs.execute(fresh)  # parses the document itself
    again = [row.payload["event"] for row in fresh.events.order_by("seq") if row.payload.get("event")]
    assert stored == again and len(stored) > 60
