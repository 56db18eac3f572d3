"""`kubectl describe service` as kubectl v1.34 prints it (describeService and buildIngressString in
k8s.io/kubectl/pkg/describe): the service, its addresses, each port, its policies and its events,
from the service as the API serves it (describe_manifest.py).

kubectl lists a port's endpoints from the discovery.k8s.io EndpointSlices labelled with the
service's name (formatEndpointSlices); the API serves none (the engine keeps no pod IPs), so on
the console every port's Endpoints line reads <none>, as kubectl prints it against the API."""

from scheduler_core.api.manifest_writer import timestamps_from
from scheduler_core.api.object_manifest import object_manifest
from scheduler_core.api.workloads import Service
from scheduler_core.explain.describe_manifest import (
    Manifest,
    field_list,
    field_map,
    format_labels,
    label_pairs,
    object_events,
)
from scheduler_core.explain.describe_meta import described_annotations
from scheduler_core.explain.describe_pod_text import EventFields, describe_events, escape_terminal
from scheduler_core.explain.describe_text import annotation_lines, listed
from scheduler_core.explain.tabwriter import tabbed
from scheduler_core.store.cluster import Cluster

MAX_ENDPOINTS = 3  # formatEndpointSlices lists three, then counts the rest


def service_text(cluster: Cluster, service: Service, now: float, epoch: float = 0.0) -> str:
    with timestamps_from(epoch):
        manifest = object_manifest(service)
        events = object_events(cluster, "Service", field_map(manifest, "metadata"))
    return describe_service(manifest, [], events, now + epoch)


def describe_service(service: Manifest, slices: list[Manifest], events: list[EventFields], clock: float) -> str:
    """describeService of a service and its EndpointSlices, as the API serves them."""
    meta, spec = field_map(service, "metadata"), field_map(service, "spec")
    lines = [
        f"Name:\t{meta.get('name', '')}",
        f"Namespace:\t{meta.get('namespace', '')}",
        *listed("Labels", label_pairs(field_map(meta, "labels"))),
        *annotation_lines("Annotations", described_annotations(field_map(meta, "annotations"))),
        f"Selector:\t{format_labels(field_map(spec, 'selector'))}",
        f"Type:\t{spec.get('type', '')}",
        *_address_lines(spec, field_map(field_map(service, "status"), "loadBalancer")),
        *(line for port in field_list(spec, "ports") for line in port_lines(port, slices)),
        *_policy_lines(spec),
        *describe_events(events, clock),
    ]
    return tabbed(escape_terminal("\n".join(lines) + "\n"))


def _address_lines(spec: Manifest, load_balancer: Manifest) -> list[str]:
    lines = []
    if spec.get("ipFamilyPolicy") is not None:
        lines.append(f"IP Family Policy:\t{spec['ipFamilyPolicy']}")
    lines.append(f"IP Families:\t{','.join(field_list(spec, 'ipFamilies')) or '<none>'}")
    lines.append(f"IP:\t{spec.get('clusterIP', '')}")
    lines.append(f"IPs:\t{','.join(field_list(spec, 'clusterIPs')) or '<none>'}")
    if field_list(spec, "externalIPs"):
        lines.append(f"External IPs:\t{','.join(field_list(spec, 'externalIPs'))}")
    if spec.get("loadBalancerIP"):
        lines.append(f"Desired LoadBalancer IP:\t{spec['loadBalancerIP']}")
    if spec.get("externalName"):
        lines.append(f"External Name:\t{spec['externalName']}")
    if field_list(load_balancer, "ingress"):
        lines.append(f"LoadBalancer Ingress:\t{ingress_text(field_list(load_balancer, 'ingress'))}")
    return lines


def ingress_text(ingress: list[Manifest]) -> str:
    """buildIngressString: each IP (with its mode), else its hostname."""
    texts = []
    for point in ingress:
        if point.get("ip"):
            mode = f" ({point['ipMode']})" if point.get("ipMode") is not None else ""
            texts.append(f"{point['ip']}{mode}")
        else:
            texts.append(str(point.get("hostname", "")))
    return ", ".join(texts)


def port_lines(port: Manifest, slices: list[Manifest]) -> list[str]:
    """A port: its name (<unset> for none), number, target and node port, and endpoints."""
    name, protocol = port.get("name") or "<unset>", port.get("protocol", "")
    # an absent targetPort is intstr's zero value, the number 0
    target = port.get("targetPort", 0)
    lines = [f"Port:\t{name}\t{port.get('port', 0)}/{protocol}", f"TargetPort:\t{target}/{protocol}"]
    if port.get("nodePort"):
        lines.append(f"NodePort:\t{name}\t{port['nodePort']}/{protocol}")
    lines.append(f"Endpoints:\t{endpoints_text(slices, str(port.get('name', '')))}")
    return lines


def endpoints_text(slices: list[Manifest], port_name: str) -> str:
    """formatEndpointSlices: the ready endpoints' addresses (with the slice port of the service
    port's name; a slice without ports, as a headless service's, gives bare addresses), three at
    most then `+ N more...`; an endpoint without a ready condition counts as ready."""
    if not slices:
        return "<none>"
    shown: list[str] = []
    more, count = False, 0
    for piece in slices:
        ports = field_list(piece, "ports")
        targets = [None] if not ports else [p.get("port", 0) for p in ports if p.get("name", "") == port_name]
        for number in targets:
            for endpoint in field_list(piece, "endpoints"):
                if len(shown) == MAX_ENDPOINTS:
                    more = True  # set before the readiness check, as kubectl does
                if field_map(endpoint, "conditions").get("ready", True) is False:
                    continue
                if not more:
                    address = str(field_list(endpoint, "addresses")[0])
                    shown.append(address if number is None else _host_port(address, number))
                count += 1
    text = ",".join(shown)
    return f"{text} + {count - MAX_ENDPOINTS} more..." if more else text


def _host_port(host: str, port: object) -> str:
    """net.JoinHostPort: an IPv6 address in brackets."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _policy_lines(spec: Manifest) -> list[str]:
    lines = [f"Session Affinity:\t{spec.get('sessionAffinity', '')}"]
    if spec.get("externalTrafficPolicy"):
        lines.append(f"External Traffic Policy:\t{spec['externalTrafficPolicy']}")
    if spec.get("internalTrafficPolicy") is not None:
        lines.append(f"Internal Traffic Policy:\t{spec['internalTrafficPolicy']}")
    if spec.get("healthCheckNodePort"):
        lines.append(f"HealthCheck NodePort:\t{spec['healthCheckNodePort']}")
    if field_list(spec, "loadBalancerSourceRanges"):
        lines.append(f"LoadBalancer Source Ranges:\t{','.join(field_list(spec, 'loadBalancerSourceRanges'))}")
    if spec.get("trafficDistribution") is not None:
        lines.append(f"Traffic Distribution:\t{spec['trafficDistribution']}")
    return lines
