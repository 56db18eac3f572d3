"""Frames that make disruptions visible in a run: PodDisruptionBudget status (the drain's gauge) and
the taint eviction countdown of pods tolerating a NoExecute taint for tolerationSeconds.

A scheduled eviction is not an object in the store, so the ChangeRecorder never sees it change;
EvictionCountdowns asks the engine for the schedule once an instant has settled instead and
re-sends the frame of every pod whose due time appeared, moved or was called off.
"""

from collections.abc import Callable, Sequence
from typing import Any

from scheduler_core.api.types import Pod, PodDisruptionBudget
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import Change
from scheduler_core.store.events import Event

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
    """Gives each pod frame "evictAt": the simulated second its taint eviction is due, or None.

    The schedule is read when an instant has settled (the engine has no other moment to ask): pod
    frames are stamped with the schedule of the instant they are sent at, and a pod whose due time
    appeared, moved or was called off without a change of its own gets a frame of its own.
    """

    def __init__(self, simulation: Simulation | None, pod_frame: Callable[[Pod], dict[str, Any]]) -> None:
        self._simulation = simulation
        self._pod_frame = pod_frame
        self._sent: dict[str, float] = {}  # the schedule as the frames so far told it

    def placed(self, window: Sequence[Change | Event]) -> dict[int, list[dict[str, Any]]]:
        """The frames of the pods whose due time the frames have not told yet and that do not change in
        `window` (what the engine did since the last frame; the store is as its last instant left
        it), by the index of the item they go with: the last change of the pod's node in the window
        (a taint landing or going starts or calls off the countdown), else the window's last item;
        with an empty window, index 0. A pod that changes in the window is told by its own frame."""
        if self._simulation is None:
            return {}
        schedule = self._simulation.scheduled_evictions()
        if schedule == self._sent:
            return {}
        moved = {key for key in schedule.keys() | self._sent.keys() if schedule.get(key) != self._sent.get(key)}
        self._sent = schedule
        last_change: dict[tuple[str, str], int] = {}
        for index, item in enumerate(window):
            if isinstance(item, Change) and item.kind in ("Pod", "Node"):
                last_change[(item.kind, item.key)] = index
        cluster = self._simulation.cluster
        placed: dict[int, list[dict[str, Any]]] = {}
        for key in sorted(moved):
            pod = cluster.get(Pod, key)
            if pod is None or ("Pod", key) in last_change:
                continue
            index = last_change.get(("Node", pod.spec.node_name), max(len(window) - 1, 0))
            placed.setdefault(index, []).append(self._pod_frame(pod))
        return placed

    def stamp(self, pending: dict[tuple[str, str], dict[str, Any]]) -> None:
        """Completes the frames about to be sent (keyed ("Pod", key) as the recorder keeps them)."""
        if self._simulation is None:
            return
        schedule = self._simulation.scheduled_evictions()
        for (kind, key), frame in pending.items():
            if kind == "Pod" and frame["op"] == "pod":
                frame["evictAt"] = schedule.get(key)
