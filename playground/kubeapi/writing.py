"""A write through a scenario's API, carried out: its timeline Actions appended to the scenario's
workload at the API clock's present moment (a new version, as the Act form makes), a run of it
started that carries the clock on, and the answer taken from that run once it is ready (the
object as the cluster then holds it: its uid, defaults, what controllers did in the same instant),
or the API server's immediate answer if the run takes longer than a client should wait."""

import math
import time
from typing import Any

import yaml
from django.conf import settings

from playground import acting, board, runs
from playground.broadcast import notify_scenario_changed
from playground.kubeapi import live
from playground.models import Run, Scenario
from playground.scenarios import InvalidEdit, StaleEdit, snapshot
from scheduler_core.kubeapi import reads, status
from scheduler_core.kubeapi.resources import BY_KIND
from scheduler_core.kubeapi.write_types import WriteResult

ANSWER_WAIT_SECONDS = 10.0  # how long a write waits for its run before answering without it
POLL_SECONDS = 0.05
EDIT_ATTEMPTS = 3  # a write that meets another one changing the scenario is decided again


def action_documents(actions: list[dict[str, Any]], at: float) -> str:
    documents = [
        {"apiVersion": "playground/v1", "kind": "Action", "spec": {"at": f"{at:.3f}s", **action}} for action in actions
    ]
    return "---\n".join(yaml.safe_dump(document, sort_keys=False) for document in documents)


def carry_out(scenario: Scenario, served: live.Served, result: WriteResult) -> tuple[int, dict[str, Any]]:
    """Appends the write's actions, runs the scenario on, and answers once the run is ready (or
    after ANSWER_WAIT_SECONDS). The run's clock starts when the API first serves it: the time the
    simulation takes is not skipped (a rollout it made is watched from its start). A write whose run
    fails is taken back (the scenario returns to the version before it) and refused."""
    if not result.actions:
        return result.code, result.body
    at = math.floor(served.now * 1000) / 1000  # as the Action's `at` says it (milliseconds), never ahead
    before = scenario.workload_yaml
    updated = _append(scenario, action_documents(result.actions, at))
    notify_scenario_changed(updated.slug, updated.version)
    background = settings.RUNS_IN_BACKGROUND
    version = snapshot(updated)
    run = runs.start_run(updated, served.run.seed, background=background, version=version, api_clock=(at, None))
    outcome = _outcome(run)
    if outcome == Run.Status.FAILED:
        _take_back(updated, before)
        error = Run.objects.filter(pk=run.pk).values_list("error", flat=True).first() or "the run failed"
        why = f"the cluster could not be simulated past this write ({error[:300]}); the write was not kept"
        raise status.ApiError(422, "Invalid", why)
    if outcome != Run.Status.FINISHED:
        return result.code, result.body
    return result.code, _answer(updated, run, result, at)


def _take_back(scenario: Scenario, workload: str) -> None:
    """The scenario back to the workload it had (its version and run before the write come back)."""
    current = Scenario.objects.get(pk=scenario.pk)
    board.set_workload(current, current.version, workload)
    notify_scenario_changed(current.slug, current.version + 1)


class StaleWrite(Exception):
    """The scenario moved on (a write from another process) after this write read it: it must be
    decided again, on what that write made."""


def _append(scenario: Scenario, documents: str) -> Scenario:
    """The version the write was decided on, with its actions; StaleWrite if it moved on meanwhile."""
    workload = acting.append_action(scenario.workload_yaml, documents)
    try:
        return board.set_workload(scenario, scenario.version, workload)
    except StaleEdit:
        raise StaleWrite from None
    except InvalidEdit as problem:
        raise status.ApiError(422, "Invalid", f"the scenario refused the write: {problem}") from None


def _answer(scenario: Scenario, run: Run, result: WriteResult, at: float) -> dict[str, Any]:
    """The written object as the new run holds it right after the write's instant."""
    if result.target is None:
        return result.body
    try:
        served = live.served(scenario)
    except status.ApiError:
        return result.body
    if served.run.pk != run.pk:
        return result.body
    at_write = live.Served(served.run, served.kept, at)
    kind, namespace, name = result.target
    resource = BY_KIND[kind]
    try:
        found = reads.find(live.snapshot_at(at_write), resource, namespace, name)
    except status.ApiError:
        return result.body  # gone within the instant (a pod deleted at once): the immediate answer
    return live.snapshot_at(at_write).manifest(found)


def _outcome(run: Run) -> str:
    """The run's status once it ended, or "" when it did not within ANSWER_WAIT_SECONDS."""
    deadline = time.monotonic() + ANSWER_WAIT_SECONDS
    while time.monotonic() < deadline:
        current = Run.objects.filter(pk=run.pk).values_list("status", flat=True).first()
        if current in (Run.Status.FINISHED, Run.Status.FAILED):
            return str(current)
        time.sleep(POLL_SECONDS)
    return ""
