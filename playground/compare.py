"""Compare: two runs of a scenario side by side, with the engine's diff of placements and balance.

A side is either a stored run, recomputed by simulating its version again with its seed (the engine
is deterministic, so this is the run's final state without reading its events), or the scenario's
current version under a scheduler configuration: a preset or a pasted KubeSchedulerConfiguration.
Each simulation is bounded as a replay is (run_simulations.run_options, run_until) and its outcome
cached per (document, configuration, seed), so reloading a comparison costs nothing.
"""

import hashlib
import logging
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from threading import Lock
from typing import Any

from playground import preview_keys
from playground.models import Run, ScenarioVersion
from playground.run_simulations import configuration_of, run_simulation, run_until
from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import load_manifests
from scheduler_core.explain.compare import Change, Comparison, NodeBalance, Outcome, compare_outcomes, outcome_of
from scheduler_core.scheduler.config import CONFIG_DOCUMENT
from scheduler_core.store.cluster import SimulationLimitError

logger = logging.getLogger(__name__)

CACHE_SIZE = 32
MAX_CONFIG_BYTES = 64 * 1024


@dataclass(frozen=True, slots=True)
class Preset:
    label: str
    yaml: str


# What side B can run the scenario under. "scenario" is the version's own configuration (empty: the
# default profile); "custom" is whatever the user pastes.
BIN_PACKING_YAML = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources:
        - {name: cpu, weight: 1}
        - {name: memory, weight: 1}
"""
SPREAD_HARD_YAML = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: PodTopologySpread
    args:
      # Pods of a Service, ReplicaSet or StatefulSet without constraints of their own get this one.
      defaultingType: List
      defaultConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: DoNotSchedule
"""
PRESETS: dict[str, Preset] = {
    "default": Preset("the default profile", ""),
    "bin-packing": Preset("bin packing (MostAllocated)", BIN_PACKING_YAML),
    "spread-hard": Preset("spread hard (PodTopologySpread DoNotSchedule per zone)", SPREAD_HARD_YAML),
    "custom": Preset("a KubeSchedulerConfiguration of your own", ""),
}
DEFAULT_PRESET = "bin-packing"


@dataclass(frozen=True, slots=True)
class Side:
    """What one column simulates: a version of the scenario, a configuration and a seed."""

    title: str  # "Run 12" or "v5, bin packing (MostAllocated)"
    version: ScenarioVersion
    config_yaml: str
    seed: int
    config_label: str
    run: Run | None = None


@dataclass(frozen=True, slots=True)
class SideProblem:
    """Why a side has no outcome, in the engine's words: which document, field and line."""

    where: str  # "the scheduler configuration" or "the scenario"
    message: str
    document: str = ""
    path: str = ""
    line: int | None = None


@dataclass(frozen=True, slots=True)
class SideResult:
    side: Side
    outcome: Outcome | None
    problem: SideProblem | None


def run_side(run: Run) -> Side:
    version = run.version
    config_label = "its own configuration" if version.scheduler_config_yaml.strip() else "the default profile"
    return Side(f"Run {run.pk}", version, version.scheduler_config_yaml, run.seed, config_label, run)


def version_side(version: ScenarioVersion, preset: str, custom_yaml: str, seed: int, title: str = "") -> Side:
    """The version under a preset ("scenario": its own configuration) or the user's configuration."""
    if preset == "custom":
        config, label = custom_yaml, PRESETS["custom"].label
    elif preset in PRESETS:
        config, label = PRESETS[preset].yaml, PRESETS[preset].label
    else:
        config = version.scheduler_config_yaml
        label = "its own configuration" if config.strip() else PRESETS["default"].label
    return Side(title or f"v{version.number}", version, config, seed, label)


def simulate_side(side: Side) -> SideResult:
    if len(side.config_yaml.encode()) > MAX_CONFIG_BYTES:
        problem = SideProblem("the scheduler configuration", f"larger than {MAX_CONFIG_BYTES // 1024} KiB")
        return SideResult(side, None, problem)
    try:
        outcome = outcome_for(side.version.cluster_document, side.config_yaml, side.seed)
    except ConfigurationError as error:
        return SideResult(side, None, _problem("the scheduler configuration", error.error))
    except ManifestError as error:
        where = "the scheduler configuration" if error.document.startswith(CONFIG_DOCUMENT) else "the scenario"
        return SideResult(side, None, _problem(where, error))
    except SimulationLimitError as error:
        return SideResult(side, None, SideProblem("the run", str(error)))
    except Exception as error:  # an engine bug: the side says so, the page still renders
        logger.exception("compare: simulating %s failed", side.title)
        return SideResult(side, None, SideProblem("the engine", f"internal error: {type(error).__name__}"))
    return SideResult(side, outcome, None)


# Past this much YAML (a cluster document, as previews count it) both sides are simulated off the
# request (playground/offloaded.py): a 5,000-node, 50,000-pod scenario takes minutes.
OFF_THE_REQUEST_BYTES = 64 * 1024


def simulated_off_the_request(*sides: Side) -> bool:
    return any(preview_keys.of_version(side.version).length > OFF_THE_REQUEST_BYTES for side in sides)


def sides_key(a: Side, b: Side) -> tuple[Any, ...]:
    """What a comparison's result depends on: each side's version, configuration and seed."""

    def part(side: Side) -> tuple[Any, ...]:
        config = hashlib.sha256(side.config_yaml.encode()).hexdigest()
        return (side.version.pk, side.version.permalink, config, side.seed)

    return ("compare", part(a), part(b))


def simulate_both(a: Side, b: Side) -> tuple[SideResult, SideResult, Comparison | None]:
    first, second = simulate_side(a), simulate_side(b)
    return first, second, compare_sides(first, second)


def compare_sides(a: SideResult, b: SideResult) -> Comparison | None:
    if a.outcome is None or b.outcome is None:
        return None
    return compare_outcomes(a.outcome, b.outcome)


# ---------------------------------------------------------------------------- simulating


class ConfigurationError(Exception):
    """parse_configuration refused the text (kept apart from the scenario's own ManifestErrors)."""

    def __init__(self, error: ManifestError) -> None:
        super().__init__(str(error))
        self.error = error


_cache: "OrderedDict[str, Outcome]" = OrderedDict()
_lock = Lock()


def outcome_for(document: str, config_yaml: str, seed: int) -> Outcome:
    """The final state of the document simulated under the configuration with the seed, bounded as
    a run is. Raises ConfigurationError, ManifestError or SimulationLimitError."""
    key = hashlib.sha256(f"{seed}\0{config_yaml}\0{document}".encode()).hexdigest()
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    try:
        config = configuration_of(config_yaml, source="configuration")
    except ManifestError as error:
        raise ConfigurationError(error) from None
    manifests = load_manifests(document, source="scenario")
    simulation = run_simulation(manifests, config, seed, replay=True)
    simulation.run_to_end(until=run_until(simulation))
    outcome = outcome_of(simulation)
    with _lock:
        _cache[key] = outcome
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return outcome


def _problem(where: str, error: ManifestError) -> SideProblem:
    """The engine's error names the document, the field and the line (a plugin's args too)."""
    return SideProblem(where, error.message, error.document, error.path, error.line)


# ---------------------------------------------------------------------------- for the template


def result_context(a: SideResult, b: SideResult, comparison: Comparison | None) -> dict[str, Any]:
    """What compare.html#compare-result renders: the two columns, the diff, the summary."""
    columns = [
        {"letter": letter, "result": result, "nodes": node_rows(result.outcome) if result.outcome else []}
        for letter, result in (("A", a), ("B", b))
    ]
    context: dict[str, Any] = {"compared": True, "columns": columns, "comparison": comparison}
    if comparison is not None:
        context["changes"] = [(change, comparison.count(change)) for change in Change if comparison.count(change)]
        context["unchanged"] = [pod for pod in comparison.pods if pod.change in (Change.SAME, Change.STILL_PENDING)]
        context["summary"] = summary_rows(comparison.a, comparison.b)
    return context


def summary_rows(a: Outcome, b: Outcome) -> list[tuple[str, str, str]]:
    """(figure, A, B) for the summary table."""

    def spread(outcome: Outcome) -> str:
        value = outcome.balance.zone_spread
        return "no zones" if value is None else str(value)

    def percent(value: float) -> str:
        return f"{100 * value:.1f} pt"

    return [
        ("pods scheduled", str(a.balance.scheduled), str(b.balance.scheduled)),
        ("pods Pending", str(len(a.balance.pending)), str(len(b.balance.pending))),
        ("nodes used (DaemonSet pods aside)", str(a.balance.nodes_used), str(b.balance.nodes_used)),
        (
            "std dev of the nodes' requested cpu share",
            percent(a.balance.cpu_share_stddev),
            percent(b.balance.cpu_share_stddev),
        ),
        (
            "std dev of the nodes' requested memory share",
            percent(a.balance.memory_share_stddev),
            percent(b.balance.memory_share_stddev),
        ),
        ("pods per zone, max - min", spread(a), spread(b)),
        ("simulated time at the end", f"{a.time:g} s", f"{b.time:g} s"),
    ]


def node_rows(outcome: Outcome) -> list[dict[str, Any]]:
    """Each node's requested share of allocatable cpu and memory as bars (bar.svg's shape)."""
    return [
        {
            "node": node,
            "bars": [_bar("cpu", node.cpu_share, node), _bar("memory", node.memory_share, node)],
        }
        for node in outcome.balance.nodes
    ]


def _bar(name: str, share: float, node: NodeBalance) -> Mapping[str, Any]:
    from scheduler_core.api.quantity import format_bytes, format_milli_cpu

    if name == "cpu":
        text = f"{format_milli_cpu(node.cpu_requested)} / {format_milli_cpu(node.cpu_allocatable)}"
    else:
        text = f"{format_bytes(node.memory_requested)} / {format_bytes(node.memory_allocatable)}"
    return {"name": name, "percent": min(100, round(100 * share)), "share": round(100 * share), "text": text}
