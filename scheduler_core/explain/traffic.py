"""Synthetic request streams: how a Service or an Ingress spreads requests over pods and nodes.

Pure functions of the object store and a seed: nothing here changes the cluster or draws from the
run's random generator (each stream has its own generator, seeded from the run's seed and the
stream's target), so the same cluster and seed always give the same split. The web app calls
`traffic_state(cluster, seed)` for the cluster at a given instant; `simulate -o json` does not
include it (its state only gains the optional "services" list of endpoints, see state.py).

How each path is modelled:

- ClusterIP (and a headless Service's DNS answers): kube-proxy picks one of the Service's usable
  endpoints at random for every connection (iptables' statistic match, nftables' numgen), so
  requests split evenly across the ready pods. Usable endpoints are the ready ones, or the
  serving terminating ones when none is ready (pkg/proxy/topology.go CategorizeEndpoints).
- NodePort: every node opens the port. Clients spread their requests over the node addresses in
  turn (or use the one `node` given). With externalTrafficPolicy Cluster the receiving node
  forwards to any endpoint of the cluster; with Local only to endpoints on that node, and drops
  the request when it has none. A request sent to a node that is down fails: its clients must
  switch to another node's address.
- LoadBalancer: the cloud load balancer sends each connection to a random node that passes its
  health check: a Ready node, not labelled node.kubernetes.io/exclude-from-external-load-balancers,
  and, with externalTrafficPolicy Local, one with a usable local endpoint. Then as NodePort.
- Ingress (ingress-nginx): the host picks the server (exact host, then a *.wildcard host, then
  rules without host), the longest matching path its location (Exact before Prefix), and nginx
  sends the request round-robin to the ready endpoints of the backend Service. A canary Ingress
  (nginx.ingress.kubernetes.io/canary: "true") with the same host and path takes requests by
  header (canary-by-header, with canary-by-header-value or -pattern, or the values always/never),
  then by cookie (canary-by-cookie: always/never), then by weight (canary-weight out of
  canary-weight-total, default 100), as ingress-nginx's balancer.lua decides. A backend without
  ready endpoints sends its traffic to the other one; with neither, 503. nginx retries a failed
  connection on the next endpoint (proxy-next-upstream-tries 3).

A node going down: its pods stay ready endpoints until the node lifecycle controller marks them
NotReady, and kube-proxy keeps sending them their share, which times out; once they are marked
NotReady the endpoints drop them and every request lands on the remaining pods. Requests sent to
the down node's own address (NodePort) fail throughout.

Not modelled: ports (all Service and container ports are assumed to line up), session affinity,
topology-aware routing, internalTrafficPolicy, ingress classes (one ingress-nginx serves all
Ingresses), rewrite and TLS annotations.
"""

import random
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scheduler_core.api.types import Node
from scheduler_core.api.workloads import Ingress, IngressPath, Service
from scheduler_core.controllers.endpoints import Endpoint, compute_endpoints
from scheduler_core.store.cluster import Cluster

CANARY = "nginx.ingress.kubernetes.io/canary"
CANARY_BY_HEADER = "nginx.ingress.kubernetes.io/canary-by-header"
CANARY_BY_HEADER_VALUE = "nginx.ingress.kubernetes.io/canary-by-header-value"
CANARY_BY_HEADER_PATTERN = "nginx.ingress.kubernetes.io/canary-by-header-pattern"
CANARY_BY_COOKIE = "nginx.ingress.kubernetes.io/canary-by-cookie"
CANARY_WEIGHT = "nginx.ingress.kubernetes.io/canary-weight"
CANARY_WEIGHT_TOTAL = "nginx.ingress.kubernetes.io/canary-weight-total"
EXCLUDE_FROM_LOAD_BALANCERS = "node.kubernetes.io/exclude-from-external-load-balancers"
DEFAULT_WEIGHT_TOTAL = 100
NGINX_UPSTREAM_TRIES = 3

VIA_CLUSTER_IP = "ClusterIP"
VIA_NODE_PORT = "NodePort"
VIA_LOAD_BALANCER = "LoadBalancer"

# Why a request failed, as a client would see it.
FAILED_NO_ENDPOINTS = "no endpoints: connection refused"
FAILED_ENDPOINT_UNREACHABLE = "endpoint on a node that is down: timeout"
FAILED_NODE_DOWN = "node address unreachable: the node is down"
FAILED_NO_LOCAL_ENDPOINTS = "no local endpoint on the node: dropped (externalTrafficPolicy Local)"
FAILED_NO_HEALTHY_NODES = "no healthy node behind the load balancer"
FAILED_EXTERNAL_NAME = "ExternalName: a DNS alias, not proxied"
FAILED_NOT_FOUND = "404 Not Found: no Ingress rule matches"
FAILED_SERVICE_UNAVAILABLE = "503 Service Temporarily Unavailable: no ready endpoints"
FAILED_GATEWAY_TIMEOUT = "504 Gateway Time-out: endpoints unreachable"


class TrafficError(ValueError):
    """A stream that cannot be sent: its Service does not exist, or an unknown entry point."""


@dataclass(slots=True)
class TrafficReport:
    """Where `requests` requests went: counts by pod, by node running the pod, by backend Service
    (Ingress), by node that received them (NodePort, LoadBalancer), and failures by reason."""

    target: str
    requests: int
    via: str = ""
    pods: dict[str, int] = field(default_factory=dict)
    nodes: dict[str, int] = field(default_factory=dict)
    backends: dict[str, int] = field(default_factory=dict)
    entry_nodes: dict[str, int] = field(default_factory=dict)
    failed: dict[str, int] = field(default_factory=dict)
    retried: int = 0
    # An Ingress stream: the request sent, the namespace of the Ingress that serves it, its canary.
    host: str = ""
    path: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    namespace: str = ""
    canary: "CanaryRule | None" = None

    @property
    def served(self) -> int:
        return sum(self.pods.values())

    @property
    def failures(self) -> int:
        return sum(self.failed.values())

    def _serve(self, endpoint: Endpoint) -> None:
        _count(self.pods, endpoint.pod)
        _count(self.nodes, endpoint.node)

    def _fail(self, reason: str) -> None:
        _count(self.failed, reason)

    def as_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "via": self.via,
            "requests": self.requests,
            "served": self.served,
            "pods": dict(sorted(self.pods.items())),
            "nodes": dict(sorted(self.nodes.items())),
            "backends": dict(sorted(self.backends.items())),
            "entryNodes": dict(sorted(self.entry_nodes.items())),
            "failed": dict(sorted(self.failed.items())),
            "retried": self.retried,
        }


def _count(counts: dict[str, int], key: str) -> None:
    counts[key] = counts.get(key, 0) + 1


def _generator(seed: int, label: str) -> random.Random:
    """A generator of its own for one stream: the run's generator is never touched."""
    return random.Random(f"traffic/{seed}/{label}")


def _node_up(cluster: Cluster, name: str, down: Collection[str]) -> bool:
    """The node answers: Ready, and not one whose machine is stopped (`down`: a node-down action
    before the node lifecycle controller's grace period has turned it NotReady)."""
    if name in down:
        return False
    node = cluster.get(Node, name)
    return node is not None and bool(node.status.ready)


def _node_labels(cluster: Cluster, name: str) -> Mapping[str, str]:
    node = cluster.get(Node, name)
    return node.labels if node is not None else {}


def usable_endpoints(endpoints: Sequence[Endpoint]) -> list[Endpoint]:
    """The endpoints kube-proxy sends to: the ready ones, else the serving terminating ones."""
    ready = [endpoint for endpoint in endpoints if endpoint.ready]
    if ready:
        return ready
    return [endpoint for endpoint in endpoints if endpoint.serving and endpoint.terminating]


# ---------------------------------------------------------------------------- Services


def default_entry(service: Service) -> str:
    """How outside clients reach a Service of this type (in-cluster clients use its ClusterIP)."""
    if service.spec.type in (VIA_NODE_PORT, VIA_LOAD_BALANCER):
        return service.spec.type
    return VIA_CLUSTER_IP


def service_traffic(
    cluster: Cluster,
    namespace: str,
    name: str,
    *,
    requests: int = 100,
    seed: int = 0,
    via: str | None = None,
    node: str | None = None,
    down: Collection[str] = (),
) -> TrafficReport:
    """Send `requests` requests to Service namespace/name through its ClusterIP, a NodePort (of
    every node in turn, or of `node`) or its LoadBalancer; `via` defaults to the Service's type.
    `down`: nodes whose machine is stopped though the API may still call them Ready."""
    service = cluster.get(Service, f"{namespace}/{name}")
    if service is None:
        raise TrafficError(f'services "{name}" not found')
    entry = via or default_entry(service)
    if entry not in (VIA_CLUSTER_IP, VIA_NODE_PORT, VIA_LOAD_BALANCER):
        raise TrafficError(f"unknown entry point {entry!r}: use ClusterIP, NodePort or LoadBalancer")
    if entry != VIA_CLUSTER_IP and service.spec.type not in (VIA_NODE_PORT, VIA_LOAD_BALANCER):
        raise TrafficError(f"Service {namespace}/{name} is of type {service.spec.type}: it has no {entry}")
    if entry == VIA_NODE_PORT and node is not None and cluster.get(Node, node) is None:
        raise TrafficError(f'nodes "{node}" not found')
    report = TrafficReport(target=f"Service/{namespace}/{name}", requests=max(requests, 0), via=entry)
    if service.spec.type == "ExternalName":
        report.failed[FAILED_EXTERNAL_NAME] = report.requests
        return report
    rng = _generator(seed, f"{report.target}/{entry}/{node or ''}")
    endpoints = compute_endpoints(cluster, service)
    local = service.spec.external_traffic_policy == "Local"
    if entry == VIA_CLUSTER_IP:
        usable = usable_endpoints(endpoints)
        for _ in range(report.requests):
            _proxy(cluster, report, rng, usable, FAILED_NO_ENDPOINTS, down)
        return report

    nodes = sorted(n.name for n in cluster.objects(Node))
    if entry == VIA_NODE_PORT:
        targets = [node] if node is not None else nodes
        for index in range(report.requests):
            if not targets:
                report._fail(FAILED_NODE_DOWN)
                continue
            _via_node(cluster, report, rng, endpoints, targets[index % len(targets)], local, down)
        return report

    healthy = [
        name
        for name in nodes
        if _node_up(cluster, name, down)
        and EXCLUDE_FROM_LOAD_BALANCERS not in _node_labels(cluster, name)
        and (not local or usable_endpoints([e for e in endpoints if e.node == name]))
    ]
    for _ in range(report.requests):
        if not healthy:
            report._fail(FAILED_NO_HEALTHY_NODES)
            continue
        _via_node(cluster, report, rng, endpoints, healthy[rng.randrange(len(healthy))], local, down)
    return report


def _via_node(
    cluster: Cluster,
    report: TrafficReport,
    rng: random.Random,
    endpoints: Sequence[Endpoint],
    entry: str,
    local: bool,
    down: Collection[str],
) -> None:
    _count(report.entry_nodes, entry)
    if not _node_up(cluster, entry, down):
        report._fail(FAILED_NODE_DOWN)
        return
    if local:
        local_endpoints = usable_endpoints([e for e in endpoints if e.node == entry])
        _proxy(cluster, report, rng, local_endpoints, FAILED_NO_LOCAL_ENDPOINTS, down)
    else:
        _proxy(cluster, report, rng, usable_endpoints(endpoints), FAILED_NO_ENDPOINTS, down)


def _proxy(
    cluster: Cluster,
    report: TrafficReport,
    rng: random.Random,
    usable: Sequence[Endpoint],
    empty_reason: str,
    down: Collection[str],
) -> None:
    """kube-proxy: one random usable endpoint; a pod on a node that is down never answers."""
    if not usable:
        report._fail(empty_reason)
        return
    endpoint = usable[rng.randrange(len(usable))]
    if _node_up(cluster, endpoint.node, down):
        report._serve(endpoint)
    else:
        report._fail(FAILED_ENDPOINT_UNREACHABLE)


# ---------------------------------------------------------------------------- Ingress


@dataclass(frozen=True, slots=True)
class Route:
    """Where an Ingress sends a host and path: the Ingress, its rule's host and path, the Service."""

    ingress: Ingress
    host: str
    path: str
    service: str


def is_canary(ingress: Ingress) -> bool:
    return ingress.metadata.annotations.get(CANARY, "").lower() == "true"


def _path_matches(rule: IngressPath, path: str) -> bool:
    if rule.path_type == "Exact":
        return path == rule.path
    if rule.path_type == "ImplementationSpecific":
        return path.startswith(rule.path)  # an nginx prefix location: /foo also matches /foobar
    prefix = rule.path.rstrip("/")  # Prefix: whole path elements, a trailing slash ignored
    return prefix == "" or path == prefix or path.startswith(prefix + "/")


def _host_matches(rule_host: str, host: str) -> bool:
    if rule_host.startswith("*."):
        suffix = rule_host[1:]
        return host.endswith(suffix) and "." not in host[: -len(suffix)] and len(host) > len(suffix)
    return rule_host == host


def _ordered(ingresses: Sequence[Ingress]) -> list[Ingress]:
    """Older Ingresses win conflicts, as ingress-nginx orders them."""
    return sorted(ingresses, key=lambda i: (i.metadata.creation_timestamp, i.metadata.namespace, i.metadata.name))


def route(ingresses: Sequence[Ingress], host: str, path: str) -> Route | None:
    """The rule that serves host and path: the server for the host (exact host, then wildcard,
    then rules without a host), then its longest matching path (Exact first on a tie); else the
    oldest Ingress's defaultBackend; None means the controller's 404."""
    host = host.lower()
    rules = [(ingress, rule) for ingress in _ordered(ingresses) for rule in ingress.spec.rules]
    server = [(i, r) for i, r in rules if r.host and not r.host.startswith("*.") and r.host.lower() == host]
    if not server:
        server = [(i, r) for i, r in rules if r.host.startswith("*.") and _host_matches(r.host.lower(), host)]
    if not server:
        server = [(i, r) for i, r in rules if not r.host]
    best: tuple[tuple[int, int], Route] | None = None
    for ingress, rule in server:
        for rule_path in rule.paths:
            if not _path_matches(rule_path, path):
                continue
            rank = (len(rule_path.path), 1 if rule_path.path_type == "Exact" else 0)
            if best is None or rank > best[0]:
                best = (rank, Route(ingress, rule.host, rule_path.path, rule_path.service_name))
    if best is not None:
        return best[1]
    for ingress in _ordered(ingresses):
        if ingress.spec.default_backend_service:
            return Route(ingress, "", "", ingress.spec.default_backend_service)
    return None


def canary_for(canaries: Sequence[Ingress], main: Route) -> Route | None:
    """The canary Ingress for the same host and path as the main route (the oldest, as
    ingress-nginx supports one alternative backend per location)."""
    for ingress in _ordered(canaries):
        if ingress.metadata.namespace != main.ingress.metadata.namespace:
            continue
        for rule in ingress.spec.rules:
            if rule.host.lower() != main.host.lower():
                continue
            for rule_path in rule.paths:
                if rule_path.path == main.path:
                    return Route(ingress, rule.host, rule_path.path, rule_path.service_name)
    return None


def _header(headers: Mapping[str, str], name: str) -> str | None:
    """nginx's $http_<name>: header names compare case-insensitively, with - and _ alike."""
    wanted = name.lower().replace("_", "-")
    for key, value in headers.items():
        if key.lower().replace("_", "-") == wanted:
            return value
    return None


def _int_annotation(annotations: Mapping[str, str], key: str, default: int) -> int:
    try:
        return int(annotations.get(key, default))
    except ValueError:
        return default


def routes_to_canary(
    canary: Ingress, headers: Mapping[str, str], cookies: Mapping[str, str], rng: random.Random
) -> bool:
    """balancer.lua route_to_alternative_balancer: header, then cookie, then weight."""
    annotations = canary.metadata.annotations
    header_name = annotations.get(CANARY_BY_HEADER, "")
    sent = _header(headers, header_name) if header_name else None
    if sent is not None:
        wanted = annotations.get(CANARY_BY_HEADER_VALUE, "")
        pattern = annotations.get(CANARY_BY_HEADER_PATTERN, "")
        if wanted:
            if sent == wanted:
                return True
        elif pattern:
            try:
                if re.search(pattern, sent):
                    return True
            except re.error:
                return False
        elif sent == "always":
            return True
        elif sent == "never":
            return False
    cookie_name = annotations.get(CANARY_BY_COOKIE, "")
    cookie = cookies.get(cookie_name) if cookie_name else None
    if cookie == "always":
        return True
    if cookie == "never":
        return False
    rule = canary_rule(Route(canary, "", "", ""))
    return rng.randint(1, rule.weight_total) <= rule.weight


@dataclass(frozen=True, slots=True)
class CanaryRule:
    """How a canary Ingress picks requests (ingress-nginx annotations), as routes_to_canary reads them."""

    ingress: str
    service: str
    weight: int
    weight_total: int
    header: str = ""  # canary-by-header: its name
    header_value: str = ""  # canary-by-header-value, else
    header_pattern: str = ""  # canary-by-header-pattern, else "always"/"never"
    cookie: str = ""  # canary-by-cookie: its name ("always"/"never")


def canary_rule(canary: Route) -> CanaryRule:
    annotations = canary.ingress.metadata.annotations
    return CanaryRule(
        ingress=canary.ingress.metadata.name,
        service=canary.service,
        weight=_int_annotation(annotations, CANARY_WEIGHT, 0),
        weight_total=max(_int_annotation(annotations, CANARY_WEIGHT_TOTAL, DEFAULT_WEIGHT_TOTAL), DEFAULT_WEIGHT_TOTAL),
        header=annotations.get(CANARY_BY_HEADER, ""),
        header_value=annotations.get(CANARY_BY_HEADER_VALUE, ""),
        header_pattern=annotations.get(CANARY_BY_HEADER_PATTERN, ""),
        cookie=annotations.get(CANARY_BY_COOKIE, ""),
    )


class _RoundRobin:
    """nginx's round-robin over one backend's ready endpoints, from a seeded starting point."""

    def __init__(self, endpoints: Sequence[Endpoint], rng: random.Random) -> None:
        self.endpoints = list(endpoints)
        self.next = rng.randrange(len(self.endpoints)) if self.endpoints else 0

    def pick(self) -> Endpoint:
        endpoint = self.endpoints[self.next % len(self.endpoints)]
        self.next += 1
        return endpoint


def ingress_traffic(
    cluster: Cluster,
    *,
    host: str = "",
    path: str = "/",
    requests: int = 100,
    seed: int = 0,
    headers: Mapping[str, str] | None = None,
    cookies: Mapping[str, str] | None = None,
    down: Collection[str] = (),
) -> TrafficReport:
    """Send `requests` HTTP requests for host and path (with these headers and cookies) through
    the ingress controller. `down` as for service_traffic."""
    headers = headers or {}
    cookies = cookies or {}
    every = cluster.objects(Ingress)
    mains = [i for i in every if not is_canary(i)]
    canaries = [i for i in every if is_canary(i)]
    label = f"Ingress/{host or '*'}{path}"
    report = TrafficReport(
        target=label, requests=max(requests, 0), via="Ingress", host=host, path=path, headers=dict(headers)
    )
    main = route(mains, host, path)
    if main is None:
        report.failed[FAILED_NOT_FOUND] = report.requests
        return report
    canary = canary_for(canaries, main)
    report.namespace = main.ingress.metadata.namespace
    report.canary = canary_rule(canary) if canary else None
    extras = "".join(f"/{k}={v}" for k, v in sorted(headers.items())) + "".join(
        f"/cookie:{k}={v}" for k, v in sorted(cookies.items())
    )
    rng = _generator(seed, label + extras)
    namespace = main.ingress.metadata.namespace
    balancers: dict[str, _RoundRobin] = {}
    for backend in [main] + ([canary] if canary else []):
        ready = [e for e in _service_endpoints(cluster, namespace, backend.service) if e.ready]
        if ready:
            balancers[backend.service] = _RoundRobin(ready, rng)
    for _ in range(report.requests):
        chosen: Route | None = main if main.service in balancers else None
        # A primary without ready endpoints has no balancer: its traffic goes to the canary.
        if (
            canary is not None
            and canary.service in balancers
            and (chosen is None or routes_to_canary(canary.ingress, headers, cookies, rng))
        ):
            chosen = canary
        if chosen is None:
            report._fail(FAILED_SERVICE_UNAVAILABLE)
            continue
        _count(report.backends, chosen.service)
        _upstream(cluster, report, balancers[chosen.service], down)
    return report


def _service_endpoints(cluster: Cluster, namespace: str, name: str) -> tuple[Endpoint, ...]:
    service = cluster.get(Service, f"{namespace}/{name}")
    return compute_endpoints(cluster, service) if service is not None else ()


def _upstream(cluster: Cluster, report: TrafficReport, balancer: _RoundRobin, down: Collection[str]) -> None:
    """proxy_pass with proxy_next_upstream error timeout: a dead endpoint is retried on the next."""
    tries = min(NGINX_UPSTREAM_TRIES, len(balancer.endpoints))
    for attempt in range(tries):
        endpoint = balancer.pick()
        if _node_up(cluster, endpoint.node, down):
            if attempt:
                report.retried += 1
            report._serve(endpoint)
            return
    report._fail(FAILED_GATEWAY_TIMEOUT)


# ---------------------------------------------------------------------------- the web app's view


@dataclass(frozen=True, slots=True)
class TrafficReports:
    services: tuple[TrafficReport, ...]
    ingresses: tuple[TrafficReport, ...]  # each route, and each with its canary header sent


def traffic_reports(cluster: Cluster, seed: int, requests: int = 100, down: Collection[str] = ()) -> TrafficReports:
    """Every Service with a selector and every Ingress route, each sent `requests` requests:
    what the web app shows beside the cluster at one instant. `down` as for service_traffic."""
    services = []
    for service in sorted(cluster.objects(Service), key=lambda s: (s.metadata.namespace, s.metadata.name)):
        if not service.spec.selector:
            continue
        namespace, name = service.metadata.namespace, service.metadata.name
        services.append(service_traffic(cluster, namespace, name, requests=requests, seed=seed, down=down))
    ingresses = []
    seen: set[tuple[str, str]] = set()
    every = _ordered(cluster.objects(Ingress))
    for ingress in (i for i in every if not is_canary(i)):
        for rule in ingress.spec.rules:
            for rule_path in rule.paths:
                if (rule.host, rule_path.path) in seen:
                    continue
                seen.add((rule.host, rule_path.path))
                probe = rule_path.path if rule_path.path.startswith("/") else "/" + rule_path.path
                report = ingress_traffic(cluster, host=rule.host, path=probe, requests=requests, seed=seed, down=down)
                report.path = rule_path.path  # reported under the rule's own path
                ingresses.append(report)
                for canary in every:
                    header = canary.metadata.annotations.get(CANARY_BY_HEADER, "") if is_canary(canary) else ""
                    if not header or not any(
                        r.host == rule.host and any(p.path == rule_path.path for p in r.paths)
                        for r in canary.spec.rules
                    ):
                        continue
                    value = canary.metadata.annotations.get(CANARY_BY_HEADER_VALUE) or "always"
                    with_header = ingress_traffic(
                        cluster,
                        host=rule.host,
                        path=probe,
                        requests=requests,
                        seed=seed,
                        headers={header: value},
                        down=down,
                    )
                    with_header.path = rule_path.path
                    ingresses.append(with_header)
    return TrafficReports(tuple(services), tuple(ingresses))


def traffic_state(cluster: Cluster, seed: int, requests: int = 100) -> dict[str, Any]:
    """traffic_reports as JSON: each Ingress entry with its host, path and the headers sent."""
    reports = traffic_reports(cluster, seed, requests)
    ingresses = []
    for report in reports.ingresses:
        sent = {"headers": report.headers} if report.headers else {}
        ingresses.append({"host": report.host, "path": report.path, **sent, **report.as_dict()})
    return {"services": [report.as_dict() for report in reports.services], "ingresses": ingresses}
