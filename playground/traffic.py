"""Traffic at one event of a run: how requests to each Service and Ingress route split over pods,
nodes and versions, as the engine's synthetic streams send them (scheduler_core/explain/traffic.py),
shaped for the run panel's stacked bars.

The run is replayed with its seed up to the event the viewer is at (run_replay.replay, as explain_at
does: the cluster exactly as that event left it, even in the middle of an instant). The result
depends only on the version's content, the seed, the event and the request, so it is kept under
those in a small LRU per process: a viewer stepping back and forth, or several viewers of one run,
do not replay it again.
"""

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from playground.models import Run
from playground.run_replay import Replay, replay
from scheduler_core.api.manifests import Manifest
from scheduler_core.api.types import Node, Pod
from scheduler_core.api.workloads import ReplicaSet, Service
from scheduler_core.controllers.endpoints import compute_endpoints
from scheduler_core.controllers.node_lifecycle import NodeLifecycleController
from scheduler_core.explain import traffic as engine
from scheduler_core.store.cluster import Cluster

DEFAULT_REQUESTS = 100
MAX_REQUESTS = 1000  # per stream: the streams then cost less than the replay they follow
CACHE_ENTRIES = 48
LEGEND_ITEMS = 12  # a bar's legend names at most this many pods (or nodes); failures always
MAX_HOST = 253
MAX_PATH = 512
MAX_HEADER_VALUE = 200
VERSION_LABELS = ("version", "app.kubernetes.io/version")
TRAFFIC_KINDS = frozenset({"Service", "Ingress"})


class TrafficQueryError(ValueError):
    """A traffic request the viewer can fix: the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class Probe:
    """An HTTP request of the viewer's choosing, sent through the ingress controller."""

    host: str = ""
    path: str = "/"
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class TrafficQuery:
    seq: int
    requests: int = DEFAULT_REQUESTS
    probe: Probe | None = None


@dataclass(frozen=True, slots=True)
class Share:
    """One segment of a stacked bar: what `count` of the requests went to (or why they failed)."""

    label: str
    count: int
    percent: str  # of the requests sent, for the text
    offset: str  # where the segment starts on the 0-100 bar (SVG geometry, never localized)
    width: str
    fill: str = ""  # an hsl() colour; empty: the CSS class decides (failures)
    detail: str = ""
    failed: bool = False


@dataclass(frozen=True, slots=True)
class Bar:
    """A stacked bar of all the shares, and its legend: every failure and the largest shares, so a
    Service with a hundred pods stays readable; the rest are summed up."""

    shares: tuple[Share, ...]
    legend: tuple[Share, ...]
    more: int = 0  # shares left out of the legend
    more_count: int = 0  # the requests they took
    more_percent: str = ""


@dataclass(frozen=True, slots=True)
class Canary:
    """The canary Ingress that shares a route, and how it picks requests (ingress-nginx annotations)."""

    ingress: str
    service: str
    weight: str  # "10 of 100"
    header: str  # "X-Canary: always/never", "Language: kr", or ""
    cookie: str


@dataclass(frozen=True, slots=True)
class Flow:
    """One stream of requests: to a Service through its entry point, or to one Ingress route."""

    kind: str  # "Service" or "Ingress"
    name: str
    via: str
    requests: int
    served: int
    failures: int
    retried: int
    served_percent: str
    failed_percent: str
    pods: Bar
    versions: Bar
    nodes: Bar
    entry_nodes: Bar
    backends: Bar
    headers: tuple[tuple[str, str], ...] = ()
    canary: Canary | None = None
    probe: bool = False

    @property
    def version_count(self) -> int:
        return sum(1 for share in self.versions.shares if not share.failed)


@dataclass(frozen=True, slots=True)
class DownNode:
    name: str
    still_ready: bool  # the API server still says Ready: the grace period has not ended


@dataclass(frozen=True, slots=True)
class TrafficView:
    seq: int
    time: float
    requests: int
    flows: tuple[Flow, ...]
    down: tuple[DownNode, ...]


def traffic_kinds(manifests: list[Manifest]) -> frozenset[str]:
    """Which of Service and Ingress a scenario version has, from the start or applied later."""
    kinds = set()
    for manifest in manifests:
        kind = manifest.kind
        if kind == "Action":
            applied = manifest.object.args.get("manifest")
            kind = applied.get("kind") if isinstance(applied, Mapping) else None
        if kind in TRAFFIC_KINDS:
            kinds.add(kind)
    return frozenset(kinds)


# ---------------------------------------------------------------------------- computing


_cache: OrderedDict[tuple[Any, ...], TrafficView] = OrderedDict()
_cache_lock = threading.Lock()


def traffic_at(run: Run, query: TrafficQuery) -> TrafficView:
    """The engine's traffic for the cluster as it was at event `query.seq` of the run."""
    key = (run.version.permalink, run.seed, query)
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    view = _compute(run, query)
    with _cache_lock:
        _cache[key] = view
        _cache.move_to_end(key)
        while len(_cache) > CACHE_ENTRIES:
            _cache.popitem(last=False)
    return view


def cached(run: Run, query: TrafficQuery) -> TrafficView | None:
    """The view if it was computed already (nothing is started)."""
    with _cache_lock:
        return _cache.get((run.version.permalink, run.seed, query))


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()


def _compute(run: Run, query: TrafficQuery) -> TrafficView:
    replayed = replay(run, query.seq)
    cluster = replayed.cluster
    down = _unreachable(replayed)
    stopped = frozenset(node.name for node in down)
    reports = engine.traffic_reports(cluster, run.seed, requests=query.requests, down=stopped)
    legend = Legend(cluster, stopped)
    flows = [_service_flow(cluster, legend, report) for report in reports.services]
    flows += [_ingress_flow(cluster, legend, report) for report in reports.ingresses]
    if query.probe is not None:
        probe = query.probe
        report = engine.ingress_traffic(
            cluster,
            host=probe.host,
            path=probe.path,
            headers=dict(probe.headers),
            requests=query.requests,
            seed=run.seed,
            down=stopped,
        )
        flows.append(replace(_ingress_flow(cluster, legend, report), probe=True))
    return TrafficView(query.seq, replayed.time, query.requests, tuple(flows), down)


def _unreachable(replayed: Replay) -> tuple[DownNode, ...]:
    """The nodes a `node-down` stopped. The API server keeps a stopped node Ready until the node
    lifecycle controller's grace period ends, but its address and its pods stop answering at once:
    the engine's traffic is told which (`down`), and the window in which kube-proxy still sends
    the pods their share and those requests time out shows."""
    lifecycle = replayed.simulation.controller("node-lifecycle")
    if not isinstance(lifecycle, NodeLifecycleController):
        return ()
    nodes = sorted(replayed.cluster.objects(Node), key=lambda n: n.name)
    return tuple(
        DownNode(node.name, still_ready=bool(node.status.ready)) for node in nodes if lifecycle.is_stopped(node.name)
    )


def _service_flow(cluster: Cluster, legend: "Legend", report: engine.TrafficReport) -> Flow:
    _, namespace, name = report.target.split("/", 2)
    return _flow(cluster, legend, "Service", f"{namespace}/{name}", namespace, report)


def _ingress_flow(cluster: Cluster, legend: "Legend", report: engine.TrafficReport) -> Flow:
    namespace = report.namespace or "default"  # no route: the 404 of the controller's namespace
    flow = _flow(cluster, legend, "Ingress", f"{report.host or '*'}{report.path}", namespace, report)
    canary = report.canary
    return replace(flow, headers=tuple(sorted(report.headers.items())), canary=_canary(canary) if canary else None)


def _canary(rule: engine.CanaryRule) -> Canary:
    header = ""
    if rule.header:
        value = rule.header_value or (f"matches {rule.header_pattern}" if rule.header_pattern else "always/never")
        header = f"{rule.header}: {value}"
    return Canary(
        ingress=rule.ingress,
        service=rule.service,
        weight=f"{rule.weight} of {rule.weight_total}",
        header=header,
        cookie=f"{rule.cookie}=always/never" if rule.cookie else "",
    )


def _flow(
    cluster: Cluster, legend: "Legend", kind: str, name: str, namespace: str, report: engine.TrafficReport
) -> Flow:
    requests = report.requests
    failures = report.failures
    pods = {pod: cluster.get(Pod, f"{namespace}/{pod}") for pod in report.pods}
    versions = {pod: version_of(pods[pod], pod) for pod in report.pods}
    by_version: dict[str, int] = {}
    for pod_name, count in sorted(report.pods.items()):
        by_version[versions[pod_name]] = by_version.get(versions[pod_name], 0) + count
    failed = [(reason, count, "", "") for reason, count in sorted(report.failed.items())]
    pod_parts = [
        (pod_name, count, legend.version(versions[pod_name]), f"{versions[pod_name]} · on {_node_of(pods[pod_name])}")
        for pod_name, count in sorted(report.pods.items(), key=lambda item: (legend.rank(versions[item[0]]), item[0]))
    ]
    version_parts = [
        (version, count, legend.version(version), "")
        for version, count in sorted(by_version.items(), key=lambda item: legend.rank(item[0]))
    ]
    backends = [
        (service, count, legend.backend(cluster, namespace, service), "")
        for service, count in sorted(report.backends.items())
    ]
    return Flow(
        kind=kind,
        name=name,
        via=report.via,
        requests=requests,
        served=report.served,
        failures=failures,
        retried=report.retried,
        served_percent=_percent(report.served, requests),
        failed_percent=_percent(failures, requests),
        pods=_bar(pod_parts + failed, requests),
        versions=_bar(version_parts + failed, requests),
        nodes=_bar(
            [*_node_parts(legend, report.nodes), *([("failed", failures, "", "")] if failures else [])], requests
        ),
        entry_nodes=_bar(_node_parts(legend, report.entry_nodes), requests),
        backends=_bar(backends, requests),
    )


def _node_parts(legend: "Legend", counts: Mapping[str, int]) -> list[tuple[str, int, str, str]]:
    return [(node, count, legend.node(node), legend.node_note(node)) for node, count in sorted(counts.items())]


def _node_of(pod: Pod | None) -> str:
    return pod.spec.node_name if pod is not None and pod.spec.node_name else "?"


def version_of(pod: Pod | None, name: str) -> str:
    """What a viewer calls the pod's version: its version label, else the ReplicaSet (one per pod
    template, named with its pod-template-hash) or the StatefulSet revision it comes from."""
    if pod is None:
        return name
    labelled = _labelled_version(pod.labels)
    if labelled:
        return labelled
    owner = pod.metadata.controller_ref()
    if owner is not None and owner.kind == "ReplicaSet":
        return owner.name
    if pod.labels.get("controller-revision-hash"):
        return pod.labels["controller-revision-hash"]
    return f"{owner.kind}/{owner.name}" if owner is not None else "bare pod"


def _labelled_version(labels: Mapping[str, str]) -> str:
    return next((labels[label] for label in VERSION_LABELS if labels.get(label)), "")


# Categorical colours, far apart and none of them red (red means failed requests); nodes muted.
VERSION_COLOURS = (
    "hsl(212 70% 52%)",
    "hsl(32 90% 52%)",
    "hsl(145 55% 40%)",
    "hsl(275 55% 58%)",
    "hsl(185 65% 40%)",
    "hsl(48 85% 48%)",
    "hsl(315 55% 55%)",
    "hsl(90 50% 45%)",
)
NODE_COLOURS = tuple(f"hsl({hue} 22% {light}%)" for hue in (215, 190, 250, 165) for light in (42, 62))
MIXED = "hsl(220 8% 60%)"  # a backend whose pods run several versions


class Legend:
    """Colours and notes that mean the same in every bar of the panel. Versions are ranked by age
    (a ReplicaSet counts while it exists, even with no pods left), so a version keeps its colour
    while newer ones come and go; nodes by name."""

    def __init__(self, cluster: Cluster, down: Iterable[str] = ()) -> None:
        self.down = frozenset(down)
        ages: dict[str, float] = {}
        for replica_set in cluster.objects(ReplicaSet):
            version = _labelled_version(replica_set.spec.template.labels) or replica_set.metadata.name
            ages[version] = min(
                ages.get(version, replica_set.metadata.creation_timestamp), replica_set.metadata.creation_timestamp
            )
        for pod in cluster.objects(Pod):
            version = version_of(pod, pod.name)
            ages[version] = min(ages.get(version, pod.metadata.creation_timestamp), pod.metadata.creation_timestamp)
        self._ranks = {version: rank for rank, version in enumerate(sorted(ages, key=lambda v: (ages[v], v)))}
        self._nodes = {node: rank for rank, node in enumerate(sorted(n.name for n in cluster.objects(Node)))}

    def rank(self, version: str) -> int:
        return self._ranks.get(version, len(self._ranks))

    def version(self, version: str) -> str:
        return VERSION_COLOURS[self.rank(version) % len(VERSION_COLOURS)]

    def node(self, node: str) -> str:
        return NODE_COLOURS[self._nodes.get(node, len(self._nodes)) % len(NODE_COLOURS)]

    def node_note(self, node: str) -> str:
        return "down" if node in self.down else ""

    def backend(self, cluster: Cluster, namespace: str, name: str) -> str:
        """An Ingress backend takes its pods' version's colour (stable, canary), if they share one."""
        service = cluster.get(Service, f"{namespace}/{name}")
        endpoints = compute_endpoints(cluster, service) if service is not None else ()
        versions = {version_of(cluster.get(Pod, f"{namespace}/{e.pod}"), e.pod) for e in endpoints if e.ready}
        return self.version(versions.pop()) if len(versions) == 1 else MIXED


def _percent(count: int, total: int) -> str:
    if not total:
        return "0%"
    value = round(100 * count / total, 1)
    return f"{value:g}%"


def _bar(parts: Iterable[tuple[str, int, str, str]], requests: int) -> Bar:
    shares = []
    offset = 0.0
    for label, count, fill, detail in parts:
        width = 100 * count / requests if requests else 0.0
        shares.append(
            Share(
                label=label,
                count=count,
                percent=_percent(count, requests),
                offset=f"{offset:.3f}",
                width=f"{width:.3f}",
                fill=fill,
                detail=detail,
                failed=not fill,
            )
        )
        offset += width
    served = [share for share in shares if not share.failed]
    if len(served) <= LEGEND_ITEMS:
        return Bar(tuple(shares), tuple(shares))
    largest = set(map(id, sorted(served, key=lambda share: -share.count)[:LEGEND_ITEMS]))
    legend = tuple(share for share in shares if share.failed or id(share) in largest)
    left_out = [share for share in served if id(share) not in largest]
    more_count = sum(share.count for share in left_out)
    return Bar(tuple(shares), legend, len(left_out), more_count, _percent(more_count, requests))
