"""A workload's pod template as `kubectl describe` shows it (DescribePodTemplate in
k8s.io/kubectl/pkg/describe): its labels and annotations, service account, each container's image,
ports and resources, its volumes, topology spread constraints, priority class, node selector and
tolerations.

The fields above are the page's; the text (describe_pod_template_text.py) prints the containers
and volumes from the template as the API serves it (`spec`), with their commands, probes,
environment and mounts, as it prints a pod's (describe_pod_text.py). The engine defaults a
container's requests to its limits in a template as the API server does in a pod.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scheduler_core.api.object_manifest import pod_spec_manifest
from scheduler_core.api.quantity import format_quantity
from scheduler_core.api.types import Container, ContainerPort, Toleration, TopologySpreadConstraint
from scheduler_core.api.workloads import PodTemplateSpec
from scheduler_core.explain.describe_meta import Annotation, described_annotations, sorted_labels
from scheduler_core.explain.selector_text import format_label_selector


@dataclass(frozen=True, slots=True)
class TemplateContainer:
    name: str
    image: str
    ports: list[str]  # "80/TCP", as describeContainerPorts
    host_ports: list[str]  # "0/TCP" for a port without a host port
    limits: list[tuple[str, str]]  # by resource name
    requests: list[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class TemplateVolume:
    name: str
    claim_name: str  # "" for a source the engine does not keep


@dataclass(frozen=True, slots=True)
class PodTemplateDescription:
    labels: list[tuple[str, str]]
    annotations: list[Annotation]
    init_containers: list[TemplateContainer]
    containers: list[TemplateContainer]
    volumes: list[TemplateVolume]
    topology_spread_constraints: list[str]  # "zone:DoNotSchedule when max skew 1 is exceeded for selector app=web"
    priority_class_name: str
    node_selectors: list[tuple[str, str]]
    tolerations: list[str]  # "key=value:NoSchedule for 300s", by key
    service_account: str = ""
    spec: Mapping[str, Any] = field(default_factory=dict)  # the template's spec as the API serves it


def pod_template_description(template: PodTemplateSpec) -> PodTemplateDescription:
    spec = template.spec
    return PodTemplateDescription(
        labels=sorted_labels(template.labels),
        annotations=described_annotations(template.annotations),
        init_containers=[_container(container) for container in spec.init_containers],
        containers=[_container(container) for container in spec.containers],
        volumes=[TemplateVolume(volume.name, volume.persistent_volume_claim) for volume in spec.volumes],
        topology_spread_constraints=[
            _spread_constraint(constraint)
            for constraint in sorted(spec.topology_spread_constraints, key=lambda c: c.topology_key)
        ],
        priority_class_name=spec.priority_class_name,
        node_selectors=sorted_labels(spec.node_selector),
        tolerations=[toleration_text(t) for t in sorted(spec.tolerations, key=lambda t: t.key)],
        service_account=spec.details.service_account_name,
        spec=pod_spec_manifest(spec),
    )


def _container(container: Container) -> TemplateContainer:
    return TemplateContainer(
        name=container.name,
        image=container.image,
        ports=[_port(port, port.container_port) for port in container.ports],
        host_ports=[_port(port, port.host_port) for port in container.ports],
        limits=_amounts(container.resources.limits),
        requests=_amounts(container.resources.requests),
    )


def _port(port: ContainerPort, number: int) -> str:
    return f"{number}/{port.protocol}"


def _amounts(amounts: Mapping[str, int]) -> list[tuple[str, str]]:
    return [(name, format_quantity(name, amount)) for name, amount in sorted(amounts.items())]


def _spread_constraint(constraint: TopologySpreadConstraint) -> str:
    text = f"{constraint.topology_key}:{constraint.when_unsatisfiable} when max skew {constraint.max_skew} is exceeded"
    if constraint.label_selector is not None:
        text += f" for selector {format_label_selector(constraint.label_selector)}"
    return text


def toleration_text(toleration: Toleration) -> str:
    """printTolerationsMultilineWithIndent's line: key, =value, :effect, op=Exists when it matches
    any value, and for how long a NoExecute taint is tolerated."""
    text = toleration.key
    if toleration.value:
        text += f"={toleration.value}"
    if toleration.effect:
        text += f":{toleration.effect}"
    if toleration.operator == "Exists" and not toleration.value:
        text += " op=Exists" if toleration.key or toleration.effect else "op=Exists"
    if toleration.toleration_seconds is not None:
        text += f" for {toleration.toleration_seconds}s"
    return text
