"""A run's simulation built from a scenario version: its bounds (events, objects, CPU, scaled with the
pods it declares) and its scheduler configuration. Runs, replays and comparisons all start here."""

from playground.budgets import budget_scale, declared_pods
from scheduler_core.api.manifests import Manifest
from scheduler_core.api.timeline import Action
from scheduler_core.controllers.base import SimulationOptions
from scheduler_core.scheduler.config import SchedulerConfiguration, parse_configuration
from scheduler_core.simulation.simulation import Simulation

# A run's event cap grows with what it simulates: a pod's life is about five events (created,
# scheduled, pulled, created, started) and a rollout or a drain replaces each pod, so a 50,000-pod
# rollout is hundreds of thousands of events. MIN for small scenarios (timelines, CronJobs), MAX
# to bound storage (about 200 bytes an event, see README "Limits").
MIN_RUN_EVENTS = 20_000


EVENTS_PER_POD = 20


MAX_RUN_EVENTS = 2_000_000


MAX_RUN_CPU_SECONDS = 120.0  # the engine's own CPU time for one run, in its thread or worker


# A replay inside a request (explain, traffic, each side of a comparison) holds the thread that
# every sync view shares, so it gets less: a run heavier than that can still be watched, not replayed.
MAX_REPLAY_CPU_SECONDS = 30.0


# Those budgets are for a scenario of up to this many pods and nodes; a bigger one gets them in
# proportion (the engine's cost is about linear in the pods: 2 to 4 ms a pod at 5,000 nodes with a
# zone spread, so 50,000 pods are minutes of CPU, as they are for a real scheduler), up to
# MAX_BUDGET_SCALE times (playground/budgets.py).
PODS_IN_BASE_BUDGET = 30_000


MAX_BUDGET_SCALE = 5.0


RUN_LIMITS = (
    f"limits ({MIN_RUN_EVENTS:,} events or {EVENTS_PER_POD} a pod, up to {MAX_RUN_EVENTS:,}; "
    f"{MAX_RUN_CPU_SECONDS:g} s of CPU time, in proportion past {PODS_IN_BASE_BUDGET:,} pods)"
)


DEFAULT_UNTIL_SECONDS = 3600.0  # a run stops after one simulated hour (CronJobs and HPAs never settle)
# ... or this long after its last timeline action, when that comes later (a write through the
# Kubernetes API lands at the API clock's moment, which follows the wall clock past the hour).
ACTION_TAIL_SECONDS = 600.0


def run_until(simulation: Simulation) -> float:
    """Where a run of this simulation stops: the same for the run, its replays and comparisons."""
    last = max(
        (manifest.object.at for manifest in simulation.manifests if isinstance(manifest.object, Action)), default=0.0
    )
    return max(DEFAULT_UNTIL_SECONDS, last + ACTION_TAIL_SECONDS)


def run_options(manifests: list[Manifest], *, replay: bool = False) -> SimulationOptions:
    """A run's bounds; a replay in a request has a smaller CPU budget (the bounds only abort: a
    replay that finishes gives the run's events)."""
    cpu = MAX_REPLAY_CPU_SECONDS if replay else MAX_RUN_CPU_SECONDS
    scale = budget_scale(manifests, PODS_IN_BASE_BUDGET, MAX_BUDGET_SCALE)
    return SimulationOptions(max_events=event_cap(manifests), max_cpu_seconds=round(cpu * scale, 2))


def configuration_of(text: str, source: str = "config") -> SchedulerConfiguration | None:
    """A version's scheduler configuration, parsed; None for none (the default profile)."""
    return parse_configuration(text, source) if text.strip() else None


def run_simulation(
    manifests: list[Manifest], config: SchedulerConfiguration | None, seed: int, *, replay: bool = False
) -> Simulation:
    """The simulation a run (or a replay of one, or a comparison's side) goes through: its manifests
    under its configuration with its seed, bounded by run_options."""
    return Simulation(manifests, config, seed=seed, options=run_options(manifests, replay=replay))


def event_cap(manifests: list[Manifest]) -> int:
    """The run's event bound: EVENTS_PER_POD for each pod and node it declares, within MIN and MAX."""
    return max(MIN_RUN_EVENTS, min(MAX_RUN_EVENTS, EVENTS_PER_POD * declared_pods(manifests)))
