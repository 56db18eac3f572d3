"""Service endpoints, as the EndpointSlice controller publishes them (pkg/controller/endpointslice
and staging/src/k8s.io/endpointslice, kubernetes v1.34): what kube-proxy and ingress controllers
send a Service's traffic to.

For each Service with a selector, every pod of its namespace that the selector matches and that
can be an endpoint (podutil.ShouldPodBeInEndpoints with terminating pods included: not Succeeded
or Failed, and with an IP, which a pod has here once its kubelet started it) is an endpoint
with upstream's three conditions:

- ready: the pod is Ready and not terminating (what traffic normally goes to);
- serving: the pod is Ready, terminating or not;
- terminating: the pod has a deletionTimestamp.

A Service without a selector (or with an empty one, which the API stores as none) has no managed
endpoints. Readiness comes from the pod only, as upstream: when a node goes down its pods stay
ready endpoints until the node lifecycle controller marks them NotReady (see traffic.py for what
requests sent to them meanwhile do).

The endpoints are derived state, kept by this controller and recomputed when a Service or one of
its pods changes; they are not stored as EndpointSlice objects, so they draw nothing from the
run's random generator and add no events (upstream's controller records none on success).
`service_endpoints` computes them from the object store alone, for callers without a simulation.
Not modelled: ports (named targetPorts that a pod lacks), publishNotReadyAddresses, topology hints.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scheduler_core.api.pod_conditions import is_pod_terminal
from scheduler_core.api.types import Pod
from scheduler_core.api.workloads import Service
from scheduler_core.controllers.base import Context, DirtyKeys
from scheduler_core.store.cluster import Change, Cluster, StoredObject

NAME = "endpoints"


@dataclass(frozen=True, slots=True)
class Endpoint:
    pod: str
    namespace: str
    node: str
    ready: bool
    serving: bool
    terminating: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "pod": self.pod,
            "node": self.node,
            "ready": self.ready,
            "serving": self.serving,
            "terminating": self.terminating,
        }


def selects(service: Service, labels: Mapping[str, str]) -> bool:
    """The Service's selector matches these labels (an empty or missing selector matches nothing)."""
    selector = service.spec.selector
    if not selector:
        return False
    return all(labels.get(key) == value for key, value in selector.items())


def can_be_endpoint(pod: Pod) -> bool:
    """ShouldPodBeInEndpoints(pod, includeTerminating=true): not terminal and with an IP."""
    if is_pod_terminal(pod):
        return False
    return bool(pod.spec.node_name) and pod.status.start_time is not None


def endpoint_of(pod: Pod) -> Endpoint:
    terminating = pod.metadata.deletion_timestamp is not None
    return Endpoint(
        pod=pod.name,
        namespace=pod.namespace,
        node=pod.spec.node_name,
        ready=pod.status.ready and not terminating,
        serving=pod.status.ready,
        terminating=terminating,
    )


def compute_endpoints(cluster: Cluster, service: Service) -> tuple[Endpoint, ...]:
    """The Service's endpoints now, ordered by pod name."""
    if not service.spec.selector:
        return ()
    namespace = service.metadata.namespace
    pods = [
        pod
        for pod in cluster.objects(Pod)
        if pod.namespace == namespace and selects(service, pod.labels) and can_be_endpoint(pod)
    ]
    return tuple(endpoint_of(pod) for pod in sorted(pods, key=lambda pod: pod.name))


def service_endpoints(cluster: Cluster, namespace: str, name: str) -> tuple[Endpoint, ...]:
    """The endpoints of Service namespace/name (none when it does not exist)."""
    service = cluster.get(Service, f"{namespace}/{name}")
    if service is None:
        return ()
    return compute_endpoints(cluster, service)


class EndpointsController:
    name = NAME
    watch_kinds = frozenset({"Service", "Pod"})  # the kinds on_change reacts to

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._dirty = DirtyKeys()
        self._endpoints: dict[str, tuple[Endpoint, ...]] = {}
        self._services: dict[str, dict[str, Service]] = {}  # namespace -> its Services by key, in store order

    def on_change(self, change: Change[StoredObject]) -> None:
        if (service_change := change.of(Service)) is not None:
            self._dirty.mark(change.key)
            in_namespace = self._services.setdefault(service_change.latest.metadata.namespace, {})
            if service_change.new is None:
                in_namespace.pop(change.key, None)
            else:
                in_namespace[change.key] = service_change.new
        elif (pod_change := change.of(Pod)) is not None:
            old, new = pod_change.old, pod_change.new
            services = self._services.get(pod_change.latest.namespace)
            if not services:
                return
            for key, service in services.items():
                if (old is not None and selects(service, old.labels)) or (
                    new is not None and selects(service, new.labels)
                ):
                    self._dirty.mark(key)

    def sync(self) -> bool:
        # Endpoints are derived state (nothing in the store changes): they are computed when read,
        # from the Services marked since, which gives the same endpoints as computing them here.
        return False

    def _refresh(self) -> None:
        for key in self._dirty.take():
            service = self.ctx.cluster.get(Service, key)
            if service is None:
                self._endpoints.pop(key, None)
            else:
                self._endpoints[key] = compute_endpoints(self.ctx.cluster, service)

    def endpoints(self, namespace: str, name: str) -> tuple[Endpoint, ...]:
        """The endpoints of Service namespace/name now."""
        self._refresh()
        return self._endpoints.get(f"{namespace}/{name}", ())
