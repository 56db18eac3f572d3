"""Where the scheduler puts the scenario's pods at time 0: what the node board shows inside each
node, with the resources they request. Computed by the engine's simulation, cached by content (a
rename, or a fork of the same content, asks for the same preview).

A preview is computed off the request, by a small pool of daemon threads (daemons, so a preview
never holds up the process' exit on SIGTERM; concurrent.futures joins its workers at exit): at most
WORKERS at once, at most QUEUE_SIZE waiting, each once however many ask for it at the same time
(later askers wait on the same job). A request waits for it briefly (WAIT_SECONDS); after that
the board renders without pods and fetches itself again (templates/scenario.html, "placing").
Each simulation is bounded (events, objects, CPU seconds): past a bound the board says which one
instead of pods. The workers run at a lower priority (NICE) than the requests they serve.
"""

import contextlib
import hashlib
import logging
import os
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field

from playground.runs import MOST_SCALED_PODS, RUN_LIMITS, budget_scale, declared_pods
from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.qos import qos_class
from scheduler_core.cluster import SimulationLimitError
from scheduler_core.controllers.base import SimulationOptions
from scheduler_core.errors import ManifestError
from scheduler_core.scheduler.resources import pod_requests
from scheduler_core.simulation import Simulation

logger = logging.getLogger(__name__)

# A preview's bounds, for a scenario of up to PODS_IN_BASE_BUDGET pods and nodes; a bigger one gets
# them in proportion (runs.budget_scale): 5,000 nodes and 50,000 pods are two minutes of CPU.
MAX_EVENTS = 20_000
MAX_OBJECTS = 20_000
MAX_CPU_SECONDS = 5.0
PODS_IN_BASE_BUDGET = 3_000
MAX_BUDGET_SCALE = 30.0
EVENTS_PER_POD = 4  # created and scheduled, a ReplicaSet's and the scheduler's: t=0 only
WORKERS = 2
QUEUE_SIZE = 32  # previews waiting for a worker; past it a board asks again later
# How long a request waits for a preview being computed (the gallery's take well under it); then
# the board renders without pods. A save of a large scenario costs this much more at most.
WAIT_SECONDS = 0.5
CACHE_SIZE = 64
CACHE_PODS = 100_000  # pods held by all cached previews together (what the cache costs in memory)
NICE = 10  # the workers' scheduling priority (0 normal, 19 lowest)
PENDING_SHOWN = 100  # pending pods listed on the board; the rest are counted


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
    error: str = ""  # the workload does not load
    stopped: str = ""  # the simulation reached one of the preview's bounds: which one
    ready: bool = True  # False: still being computed (the board shows a placeholder)
    queue_full: bool = False  # not even queued: every worker busy and the queue full

    @property
    def pods(self) -> int:
        return sum(usage.pods for usage in self.usage.values()) + len(self.pending)

    @property
    def pending_shown(self) -> list[tuple[PodView, str]]:
        return self.pending[:PENDING_SHOWN]

    @property
    def pending_more(self) -> int:
        return max(0, len(self.pending) - PENDING_SHOWN)


@dataclass(slots=True)
class _Job:
    key: str
    document: str
    done: threading.Event = field(default_factory=threading.Event)
    result: Preview | None = None


_cache: "OrderedDict[str, Preview]" = OrderedDict()
_cached_pods = 0
_jobs: dict[str, _Job] = {}  # queued or being computed, by key
_queue: deque[_Job] = deque()
_lock = threading.Lock()
_work = threading.Condition(_lock)
_workers: list[threading.Thread] = []
computations = 0  # previews computed by this process (how tests see that nothing ran twice)


def preview(document: str, wait: float = WAIT_SECONDS) -> Preview:
    """The cached preview of the cluster document, or the one computed within `wait` seconds, or a
    placeholder (ready=False)."""
    cache_key = hashlib.sha256(document.encode()).hexdigest()
    with _lock:
        cached = _cache.get(cache_key)
        if cached is not None:
            _cache.move_to_end(cache_key)
            return cached
        job = _jobs.get(cache_key)
        if job is None:  # else: already queued or being computed, this request waits on that job
            if len(_queue) >= QUEUE_SIZE:
                return Preview(ready=False, queue_full=True)
            job = _Job(cache_key, document)
            _jobs[cache_key] = job
            _queue.append(job)
            _start_workers()
            _work.notify()
    if job.done.wait(wait) and job.result is not None:
        return job.result
    return Preview(ready=False)


def cached(document: str) -> Preview | None:
    """The document's preview if it is already computed (nothing is started)."""
    with _lock:
        return _cache.get(hashlib.sha256(document.encode()).hexdigest())


def _start_workers() -> None:
    """Called with the lock held: the pool starts with the first preview (and replaces a dead worker)."""
    _workers[:] = [thread for thread in _workers if thread.is_alive()]
    while len(_workers) < WORKERS:
        thread = threading.Thread(target=_work_loop, name=f"preview-{len(_workers) + 1}", daemon=True)
        _workers.append(thread)
        thread.start()


def _work_loop() -> None:
    global computations
    # A preview gives way to the requests (Linux schedules threads apart, each with its own nice value).
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)
    while True:
        with _lock:
            while not _queue:
                _work.wait()
            job = _queue.popleft()
            computations += 1
        started = time.thread_time()
        try:
            result = _compute(job.document)
        except Exception as error:  # an engine bug: the board says so, the worker lives on
            logger.exception("preview %s failed", job.key[:12])
            result = Preview(error=f"internal error: {type(error).__name__}")
        outcome = result.stopped or ("does not load" if result.error else f"{result.pods} pods")
        logger.info("preview %s computed in %.1f s of CPU: %s", job.key[:12], time.thread_time() - started, outcome)
        with _lock:
            _store(job.key, result)
            del _jobs[job.key]
        job.result = result
        job.done.set()


def _store(key: str, result: Preview) -> None:
    """Called with the lock held. Least recently used previews go first, past CACHE_SIZE or CACHE_PODS."""
    global _cached_pods
    _cache[key] = result
    _cached_pods += result.pods
    while len(_cache) > CACHE_SIZE or (_cached_pods > CACHE_PODS and len(_cache) > 1):
        _old_key, old = _cache.popitem(last=False)
        _cached_pods -= old.pods


def _compute(document: str) -> Preview:
    result = Preview()
    try:
        manifests = load_manifests(document, source="scenario")
        declared = declared_pods(manifests)
        within = declared <= MOST_SCALED_PODS  # past the scenario limit: the base bounds
        options = SimulationOptions(
            max_events=max(MAX_EVENTS, EVENTS_PER_POD * declared if within else 0),
            max_objects=max(MAX_OBJECTS, 2 * declared if within else 0),
            max_cpu_seconds=MAX_CPU_SECONDS * budget_scale(manifests, PODS_IN_BASE_BUDGET, MAX_BUDGET_SCALE),
        )
        simulation = Simulation(manifests, options=options)
        simulation.run_to_end(until=0.0)
    except ManifestError as error:
        result.error = str(error)
        return result
    except SimulationLimitError as error:
        result.stopped = f"{error} (the preview's limit). A run goes on up to its own {RUN_LIMITS}."
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
