"""Running scenarios for the disruption and node health controllers' tests."""

from pathlib import Path

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Pod
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.events import Event

DATA = Path(__file__).parent.parent / "data"
NODE = """
apiVersion: v1
kind: Node
metadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}}}}}
status: {{capacity: {{cpu: "4", memory: 8Gi, pods: "110"}}}}
"""


def simulate(source: str, until: float | None = None, seed: int = 0) -> Simulation:
    """A scenario file from tests/core/data, or YAML text, run to its end (or `until`)."""
    text = (DATA / source).read_text() if source.endswith(".yaml") else source
    simulation = Simulation(load_manifests(text), seed=seed)
    simulation.run_to_end(until)
    return simulation


def events(sim: Simulation, obj: str, *reasons: str) -> list[tuple[float, str, str]]:
    return [(e.time, e.reason, e.message) for e in sim.cluster.events if e.object == obj and e.reason in reasons]


def find(sim: Simulation, reason: str) -> list[Event]:
    return [e for e in sim.cluster.events if e.reason == reason]


def pods_of(sim: Simulation, app: str) -> list:
    return sorted((p for p in sim.cluster.objects(Pod) if p.labels.get("app") == app), key=lambda p: p.name)
