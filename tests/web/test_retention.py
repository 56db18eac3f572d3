"""Runs do not pile up (playground/retention.py): a scenario keeps its newest runs, every run someone
opened by its address, and every run still going; the rest go with their events when a run ends."""

import pytest
from django.core.management import call_command
from django.test import Client

from playground.models import Run, RunEvent
from playground.runs import execute
from playground.scenarios import create_scenario, snapshot

pytestmark = pytest.mark.django_db

NODES = [{"name": "n1", "capacity": {"cpu": "4", "memory": "8Gi", "pods": "10"}}]
WORKLOAD = (
    "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\n"
    "spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]}\n"
)


def run_once(scenario) -> Run:
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    execute(run, publish=lambda *_: None)
    return run


def test_a_scenario_keeps_its_newest_runs_and_their_events_only(settings):
    settings.RUNS_KEPT_PER_SCENARIO = 3
    scenario, _ = create_scenario("kept", nodes=NODES, workload_yaml=WORKLOAD)
    other, _ = create_scenario("other", nodes=NODES, workload_yaml=WORKLOAD)
    elsewhere = run_once(other)
    made = [run_once(scenario) for _ in range(5)]
    assert list(scenario.runs.order_by("pk").values_list("pk", flat=True)) == [run.pk for run in made[-3:]]
    assert not RunEvent.objects.filter(run_id__in=[run.pk for run in made[:2]]).exists()
    assert RunEvent.objects.filter(run=made[-1]).exists()
    assert Run.objects.filter(pk=elsewhere.pk).exists()  # another scenario's runs are its own


def test_a_run_opened_by_its_address_and_a_running_one_are_kept(settings):
    settings.RUNS_KEPT_PER_SCENARIO = 1
    scenario, _ = create_scenario("linked", nodes=NODES, workload_yaml=WORKLOAD)
    shared = run_once(scenario)
    page = Client().get(f"/s/{scenario.slug}?run={shared.pk}&at=1")
    assert page.status_code == 200
    going = Run.objects.create(scenario=scenario, version=snapshot(scenario), status=Run.Status.RUNNING)
    for _ in range(3):
        newest = run_once(scenario)
    kept = set(scenario.runs.values_list("pk", flat=True))
    assert kept == {shared.pk, going.pk, newest.pk}


def test_prune_runs_deletes_what_the_policy_does_not_keep(settings):
    settings.RUNS_KEPT_PER_SCENARIO = 50
    scenario, _ = create_scenario("many", nodes=NODES, workload_yaml=WORKLOAD)
    for _ in range(4):
        run_once(scenario)
    settings.RUNS_KEPT_PER_SCENARIO = 2
    call_command("prune_runs")
    assert scenario.runs.count() == 2


def test_runs_past_the_scenarios_event_budget_go_but_the_newest_stays(settings):
    settings.RUNS_KEPT_PER_SCENARIO = 20
    scenario, _ = create_scenario("budget", nodes=NODES, workload_yaml=WORKLOAD)
    first = run_once(scenario)
    per_run = first.events.count()
    settings.EVENTS_KEPT_PER_SCENARIO = 2 * per_run  # two runs' worth
    made = [first, *(run_once(scenario) for _ in range(3))]
    assert list(scenario.runs.order_by("pk").values_list("pk", flat=True)) == [run.pk for run in made[-2:]]
    settings.EVENTS_KEPT_PER_SCENARIO = 1  # less than one run: the newest finished one stays anyway
    newest = run_once(scenario)
    assert list(scenario.runs.values_list("pk", flat=True)) == [newest.pk]
    assert RunEvent.objects.filter(run=newest).count() == per_run


def test_a_linked_run_counts_toward_the_budget_but_is_never_deleted(settings):
    scenario, _ = create_scenario("linked budget", nodes=NODES, workload_yaml=WORKLOAD)
    shared = run_once(scenario)
    Run.objects.filter(pk=shared.pk).update(linked=True)
    settings.EVENTS_KEPT_PER_SCENARIO = shared.events.count()
    older = run_once(scenario)
    newest = run_once(scenario)
    kept = set(scenario.runs.values_list("pk", flat=True))
    assert kept == {shared.pk, newest.pk} and older.pk not in kept
