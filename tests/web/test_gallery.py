import pytest
from django.core.management import call_command

from playground.models import Run, Scenario
from playground.runs import execute
from playground.scenarios import snapshot

pytestmark = pytest.mark.django_db


def test_every_gallery_scenario_loads_and_runs_to_the_end():
    call_command("load_gallery")
    scenarios = list(Scenario.objects.exclude(gallery_key=""))
    assert len(scenarios) >= 19
    for scenario in scenarios:
        assert scenario.description, scenario.gallery_key
        run = Run.objects.create(scenario=scenario, version=snapshot(scenario))
        execute(run, publish=lambda *args: None)
        run.refresh_from_db()
        assert run.status == Run.Status.FINISHED, (scenario.gallery_key, run.error)
        assert run.events.count() > 1, scenario.gallery_key
