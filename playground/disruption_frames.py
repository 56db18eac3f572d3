"""Frames that make disruptions visible in a run: PodDisruptionBudget status (the drain's gauge) and
the taint eviction countdown of pods tolerating a NoExecute taint for tolerationSeconds.

A scheduled eviction is not an object in the store, so the ChangeRecorder never sees it change;
EvictionCountdowns asks the engine for the schedule at each event instead and re-sends the frame
of every pod whose due time appeared, moved or was called off.
"""

from collections.abc import Callable
from typing import Any

from scheduler_core.api.types import Pod, PodDisruptionBudget
from scheduler_core.simulation import Simulation

BUDGET_KIND = "PodDisruptionBudget"


def budget_frame(pdb: PodDisruptionBudget) -> dict[str, Any]:
    """A budget as the player's workloads map holds it ("workload" op, kind PodDisruptionBudget)."""
    spec, status = pdb.spec, pdb.status
    return {
        "op": "workload",
        "kind": BUDGET_KIND,
        "key": pdb.metadata.key,
        "name": pdb.metadata.name,
        "minAvailable": spec.min_available,
        "maxUnavailable": spec.max_unavailable,
        "currentHealthy": status.current_healthy,
        "desiredHealthy": status.desired_healthy,
        "disruptionsAllowed": status.disruptions_allowed,
        "expectedPods": status.expected_pods,
    }


class EvictionCountdowns:
    """Gives each pod frame "evictAt": the simulated second its taint eviction is due, or None."""

    def __init__(self, simulation: Simulation | None, pod_frame: Callable[[Pod], dict[str, Any]]) -> None:
        self._simulation = simulation
        self._pod_frame = pod_frame
        self._sent: dict[str, float] = {}  # the schedule as the frames so far told it

    def pending(self) -> bool:
        """Whether the schedule changed since the frames last told it (a frame is due even if no
        object changed: a NoExecute countdown started or was called off)."""
        return self._simulation is not None and self._simulation.scheduled_evictions() != self._sent

    def stamp(self, pending: dict[tuple[str, str], dict[str, Any]]) -> None:
        """Completes the frames about to be sent (keyed ("Pod", key) as the recorder keeps them)."""
        if self._simulation is None:
            return
        schedule = self._simulation.scheduled_evictions()
        if schedule != self._sent:
            cluster = self._simulation.cluster
            moved = [key for key in schedule.keys() | self._sent.keys() if schedule.get(key) != self._sent.get(key)]
            for key in sorted(moved):
                if ("Pod", key) not in pending and (pod := cluster.get("Pod", key)) is not None:
                    pending[("Pod", key)] = self._pod_frame(pod)
            self._sent = schedule
        for (kind, key), frame in pending.items():
            if kind == "Pod" and frame["op"] == "pod":
                frame["evictAt"] = schedule.get(key)
