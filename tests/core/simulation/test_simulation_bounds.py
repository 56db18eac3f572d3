"""The bounds a run stops at (SimulationOptions): CPU seconds and objects. A bound only aborts: a
run within it produces the same events as one without it."""

import time

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.controllers.base import SimulationOptions
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import SimulationLimitError

NODES = "".join(
    f"---\napiVersion: v1\nkind: Node\nmetadata: {{name: n{index}, labels: {{zone: z{index % 3}}}}}\n"
    "status: {capacity: {cpu: '64', memory: 256Gi, pods: '500'}}\n"
    for index in range(20)
)


def _cluster(replicas: int) -> str:
    return (
        NODES + "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n"
        f"  replicas: {replicas}\n  selector: {{matchLabels: {{app: web}}}}\n"
        "  template:\n    metadata: {labels: {app: web}}\n"
        "    spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: 10m}}}]}\n"
    )


def _events(text: str, options: SimulationOptions | None = None) -> list[dict[str, object]]:
    simulation = Simulation(load_manifests(text), seed=1, options=options)
    return [event.as_dict() for event in simulation.run(until=120.0)]


def test_a_run_over_its_cpu_budget_stops_with_a_limit_error_that_names_the_budget():
    simulation = Simulation(load_manifests(_cluster(5_000)), options=SimulationOptions(max_cpu_seconds=0.2))
    started = time.thread_time()
    with pytest.raises(SimulationLimitError, match=r"the run used more than 0\.2 s of CPU time"):
        simulation.run_to_end()
    spent = time.thread_time() - started
    # The budget is looked at every 10 ms of the run: it stops soon after, not at the run's end.
    assert spent < 0.6, spent


def test_a_run_within_its_cpu_budget_gives_the_same_events_as_without_one():
    text = _cluster(60)
    unbounded = _events(text)
    assert len(unbounded) > 200  # scheduled, created, started: a run with something to lose
    assert _events(text, SimulationOptions(max_cpu_seconds=60.0)) == unbounded


def test_the_engine_counts_its_own_cpu_time_not_its_callers():
    """A run stored batch by batch (the web app's) is not charged for the storing."""
    simulation = Simulation(load_manifests(_cluster(20)), options=SimulationOptions(max_cpu_seconds=0.5))
    callers = 0.0
    for _instant in simulation.run_instants(until=60.0):
        started = time.thread_time()
        while time.thread_time() - started < 0.05:  # the caller's work between instants
            pass
        callers += time.thread_time() - started
    assert callers > 0.5  # the caller alone spent more than the budget, and the run still finished
    assert 0 < simulation.cpu_seconds < 0.5


def test_a_run_over_its_object_bound_stops_with_a_limit_error_that_names_the_bound():
    with pytest.raises(SimulationLimitError, match="the cluster holds more than 100 objects"):
        Simulation(load_manifests(_cluster(500)), options=SimulationOptions(max_objects=100)).run_to_end()


def test_a_run_within_its_object_bound_gives_the_same_events_as_without_one():
    text = _cluster(60)
    assert _events(text, SimulationOptions(max_objects=100)) == _events(text)
