"""A preview's computation: where the scheduler puts a scenario's pods at time 0, within bounds.

Free of Django, so that a big scenario's preview runs in a process of its own (playground/
preview.py's sandboxes): a two-minute simulation of 5,000 nodes in the server's process held the
interpreter lock half the time, and every page answered two to four times slower meanwhile.
"""

import contextlib
import os
import pickle
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

from playground.budgets import MOST_SCALED_PODS, budget_scale, declared_pods
from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.qos import qos_class
from scheduler_core.api.types import Pod
from scheduler_core.controllers.base import SimulationOptions
from scheduler_core.explain.kubectl_resources import pod_requests_and_limits
from scheduler_core.scheduler.resources import requested_by_node
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.simulation.state import owner_of
from scheduler_core.store.cluster import SimulationLimitError

PENDING_SHOWN = 100  # pending pods listed on the board; the rest are counted


@dataclass(frozen=True, slots=True)
class Limits:
    """A preview's bounds for a scenario of up to `base_pods` pods and nodes; a bigger one gets them
    in proportion (budgets.budget_scale), up to `most_scale` times."""

    max_events: int
    max_objects: int
    max_cpu_seconds: float
    base_pods: int
    most_scale: float
    events_per_pod: int
    run_limits: str  # what a run would do instead, for the message of a stopped preview


@dataclass(slots=True)
class PodView:
    key: str
    name: str
    namespace: str
    phase: str
    qos: str
    owner: str
    # What `kubectl describe node` counts the pod for (explain/kubectl_resources.py): the node detail
    # describes its node at the scenario's state from these. Pods of one template share the dicts.
    requests: Mapping[str, int] = field(default_factory=dict)
    limits: Mapping[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class NodeUsage:
    # What the pods holding resources here request (scheduler_core.scheduler.resources).
    cpu: int = 0  # millicores
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
        return sum(len(usage.pod_views) for usage in self.usage.values()) + len(self.pending)

    @property
    def pending_shown(self) -> list[tuple[PodView, str]]:
        return self.pending[:PENDING_SHOWN]

    @property
    def pending_more(self) -> int:
        return max(0, len(self.pending) - PENDING_SHOWN)


def compute(document: str, limits: Limits) -> tuple[Preview, float]:
    """The preview of a cluster document, and the CPU seconds it took."""
    started = time.thread_time()
    result = _simulate(document, limits)
    return result, time.thread_time() - started


def compute_keeping_parse(document: str, limits: Limits) -> tuple[Preview, float, bytes | None]:
    """`compute`, and the manifests as parsed, pickled before the simulation takes them over (for
    the run of this version to come: playground/parsed_versions.py); None if it does not load."""
    started = time.thread_time()
    parsed: list[bytes] = []
    result = _simulate(document, limits, parsed)
    return result, time.thread_time() - started, parsed[0] if parsed else None


def _simulate(document: str, limits: Limits, parsed: list[bytes] | None = None) -> Preview:
    result = Preview()
    try:
        manifests = load_manifests(document, source="scenario")
        if parsed is not None:
            parsed.append(pickle.dumps(manifests, protocol=pickle.HIGHEST_PROTOCOL))
        declared = declared_pods(manifests)
        within = declared <= MOST_SCALED_PODS  # past the scenario limit: the base bounds
        options = SimulationOptions(
            max_events=max(limits.max_events, limits.events_per_pod * declared if within else 0),
            max_objects=max(limits.max_objects, 2 * declared if within else 0),
            max_cpu_seconds=round(
                limits.max_cpu_seconds * budget_scale(manifests, limits.base_pods, limits.most_scale), 1
            ),
        )
        simulation = Simulation(manifests, options=options)
        simulation.run_to_end(until=0.0)
    except ManifestError as error:
        result.error = str(error)
        return result
    except SimulationLimitError as error:
        result.stopped = f"{error} (the preview's limit). A run goes on up to its own {limits.run_limits}."
        return result
    failures: dict[str, str] = {}
    for event in simulation.cluster.events:
        if event.reason == "FailedScheduling":
            failures[event.object] = event.message
    pods = simulation.cluster.objects(Pod)
    for node_name, requested in requested_by_node(pods).items():
        usage = result.usage.setdefault(node_name, NodeUsage())
        usage.cpu, usage.memory, usage.pods = requested.cpu, requested.memory, requested.pods
    amounts = _SharedAmounts()
    for pod in sorted(pods, key=lambda p: (p.namespace, p.name)):
        view = PodView(pod.key, pod.name, pod.namespace, pod.status.phase, qos_class(pod), owner_of(pod) or "")
        view.requests, view.limits = amounts.of(pod)
        if pod.spec.node_name:  # a finished pod is shown on its node, and holds nothing there
            result.usage.setdefault(pod.spec.node_name, NodeUsage()).pod_views.append(view)
        else:
            result.pending.append((view, failures.get(f"Pod/{pod.namespace}/{pod.name}", "waiting to be scheduled")))
    return result


class _SharedAmounts:
    """Each distinct resource list once: 50,000 pods of a few templates hold a few dicts, in memory
    and in the pickle a sandbox sends back."""

    def __init__(self) -> None:
        self._known: dict[tuple[tuple[str, int], ...], Mapping[str, int]] = {}

    def of(self, pod: Pod) -> tuple[Mapping[str, int], Mapping[str, int]]:
        requests, limits = pod_requests_and_limits(pod)
        return self._shared(requests), self._shared(limits)

    def _shared(self, amounts: dict[str, int]) -> Mapping[str, int]:
        return self._known.setdefault(tuple(sorted(amounts.items())), amounts)


STARTED = "started"  # a sandbox's receipt for a job, before it computes


def serve(connection: Connection, nice: int) -> None:
    """A sandbox process's loop: (document, limits) in, STARTED, then (preview, CPU seconds, the
    pickled parse) or the error's name out, until the server closes its end (or ends: the process is a daemon). The
    receipt tells a sandbox that died of this document from one that was dead before it came."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    while True:
        try:
            document, limits = connection.recv()
        except (EOFError, OSError):
            return
        connection.send(STARTED)
        try:
            answer: object = compute_keeping_parse(document, limits)
        except Exception as error:  # an engine bug: the board says so, the sandbox lives on
            answer = f"{type(error).__name__}: {error}"[:500]
        connection.send(answer)
