"""Where the scheduler puts the scenario's pods at time 0: what the node board shows inside each
node, with the resources they request. Computed by the engine's simulation, cached per version."""

from collections import OrderedDict
from dataclasses import dataclass, field
from threading import Lock

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.qos import qos_class
from scheduler_core.cluster import SimulationLimitError
from scheduler_core.errors import ManifestError
from scheduler_core.scheduler.resources import pod_requests
from scheduler_core.simulation import Simulation

CACHE_SIZE = 64


@dataclass(slots=True)
class PodView:
    key: str
    name: str
    namespace: str
    phase: str
    qos: str
    owner: str


@dataclass(slots=True)
class NodeUsage:
    cpu: int = 0  # millicores requested
    memory: int = 0
    pods: int = 0
    pod_views: list[PodView] = field(default_factory=list)


@dataclass(slots=True)
class Preview:
    usage: dict[str, NodeUsage] = field(default_factory=dict)
    pending: list[tuple[PodView, str]] = field(default_factory=list)  # (pod, why)
    error: str = ""


_cache: "OrderedDict[str, Preview]" = OrderedDict()
_lock = Lock()


def preview(cache_key: str, document: str) -> Preview:
    with _lock:
        if cache_key in _cache:
            _cache.move_to_end(cache_key)
            return _cache[cache_key]
    result = _compute(document)
    with _lock:
        _cache[cache_key] = result
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return result


def _compute(document: str) -> Preview:
    result = Preview()
    try:
        simulation = Simulation(load_manifests(document, source="scenario"))
        simulation.run_to_end(until=0.0)
    except ManifestError as error:
        result.error = str(error)
        return result
    except SimulationLimitError as error:
        result.error = str(error)
        return result
    failures: dict[str, str] = {}
    for event in simulation.cluster.events:
        if event.reason == "FailedScheduling":
            failures[event.object] = event.message
    for pod in sorted(simulation.cluster.objects("Pod"), key=lambda p: (p.namespace, p.name)):
        owner = pod.metadata.controller_ref()
        view = PodView(
            pod.key,
            pod.name,
            pod.namespace,
            pod.status.phase,
            qos_class(pod),
            f"{owner.kind}/{owner.name}" if owner else "",
        )
        if pod.spec.node_name:
            usage = result.usage.setdefault(pod.spec.node_name, NodeUsage())
            requests = pod_requests(pod)
            usage.cpu += requests.get("cpu", 0)
            usage.memory += requests.get("memory", 0)
            usage.pods += 1
            usage.pod_views.append(view)
        else:
            result.pending.append((view, failures.get(f"Pod/{pod.namespace}/{pod.name}", "waiting to be scheduled")))
    return result
