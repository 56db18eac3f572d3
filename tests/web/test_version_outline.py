"""A version's outline (the Act form's targets, its traffic kinds) is worked out from one parse and
kept (playground/version_outline.py); pressing Run parses the version once, and the run simulates
those manifests instead of parsing it again."""

import pytest
from django.urls import reverse

from playground import runs, version_outline
from playground.models import Run
from playground.scenarios import create_scenario, snapshot
from playground.version_outline import outline
from scheduler_core.api import manifests as manifests_module
from tests.web.stored_events import events_with_reason

pytestmark = pytest.mark.django_db

NODES = [{"name": "worker1", "cpu": "4", "memory": "16Gi"}, {"name": "worker2", "cpu": "4", "memory": "16Gi"}]
WORKLOAD = (
    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 2\n"
    "  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n"
    "    spec: {containers: [{name: c, image: nginx}]}\n---\n"
    "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {selector: {app: web}}\n"
)


@pytest.fixture
def parses(monkeypatch) -> list[int]:
    """Counts every parse of a scenario document, wherever it is imported from."""
    calls: list[int] = []
    original = manifests_module.load_manifests

    def counted(text, *args, **kwargs):
        if kwargs.get("source") == "scenario":
            calls.append(len(text))
        return original(text, *args, **kwargs)

    for module in (manifests_module, runs, version_outline):
        monkeypatch.setattr(module, "load_manifests", counted)
    from playground.views import running

    monkeypatch.setattr(running, "load_manifests", counted)
    return calls


def test_an_outline_names_the_targets_and_the_traffic_kinds_and_is_parsed_once(parses):
    scenario, _ = create_scenario("outline", nodes=NODES, workload_yaml=WORKLOAD)
    version = snapshot(scenario)
    found = outline(version)
    assert found.act_targets == ("Node/worker1", "Node/worker2", "Deployment/default/web")
    assert found.traffic_kinds == {"Service"}
    assert outline(version) is found
    assert len(parses) == 1


def test_a_version_that_does_not_load_has_an_empty_outline():
    scenario, _ = create_scenario("broken", nodes=NODES)
    version = snapshot(scenario)
    version.document = "kind: ["  # as an older engine may have saved what this one refuses
    found = outline(version)
    assert found.act_targets == () and found.traffic_kinds == frozenset()


def test_pressing_run_parses_the_version_once_and_the_run_simulates_it(client, parses):
    scenario, _ = create_scenario("one parse", nodes=NODES, workload_yaml=WORKLOAD)
    response = client.post(reverse("start-run", args=[scenario.slug]), headers={"HX-Request": "true"})
    assert response.status_code == 201
    html = response.content.decode()
    assert 'id="traffic"' in html  # the Act form (its targets) is for editors only
    run = Run.objects.get(scenario=scenario)
    assert run.status == Run.Status.FINISHED and len(events_with_reason(run, "Scheduled")) == 2
    assert len(parses) == 1, parses
    # The same version again: its outline is kept, the run still parses (a run takes its manifests over).
    client.post(reverse("start-run", args=[scenario.slug]), headers={"HX-Request": "true"})
    assert len(parses) == 2
