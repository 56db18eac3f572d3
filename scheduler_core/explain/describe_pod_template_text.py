"""The Pod Template section of a workload's `kubectl describe` text (DescribePodTemplate and the
describeContainers, describeVolumes, describeTopologySpreadConstraints it calls), as lines with
kubectl's tabs; the describer's tabwriter aligns them."""

from scheduler_core.explain.describe_pod_template import PodTemplateDescription, TemplateContainer, TemplateVolume
from scheduler_core.explain.describe_text import INDENT, annotation_lines, listed

LEVEL_1, LEVEL_2, LEVEL_3 = INDENT, INDENT * 2, INDENT * 3
CLAIM_SOURCE = "PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)"


def pod_template_lines(template: PodTemplateDescription) -> list[str]:
    lines = ["Pod Template:", *listed(f"{LEVEL_1}Labels", [f"{key}={value}" for key, value in template.labels])]
    if template.annotations:
        lines += annotation_lines(f"{LEVEL_1}Annotations", template.annotations)
    if template.init_containers:
        lines += _containers("Init Containers", template.init_containers)
    lines += _containers("Containers", template.containers)
    lines += _volumes(template.volumes)
    lines += _spread_constraints(template.topology_spread_constraints)
    if template.priority_class_name:
        lines.append(f"{LEVEL_1}Priority Class Name:\t{template.priority_class_name}")
    lines += listed(f"{LEVEL_1}Node-Selectors", [f"{key}={value}" for key, value in template.node_selectors])
    lines += listed(f"{LEVEL_1}Tolerations", template.tolerations)
    return lines


def _containers(title: str, containers: list[TemplateContainer]) -> list[str]:
    lines = [f"{LEVEL_1}{title}:{'' if containers else ' <none>'}"]
    for container in containers:
        lines += [
            f"{LEVEL_1} {container.name}:",  # a name one space further in than its title
            f"{LEVEL_2}Image:\t{container.image}",
            _ports("Port", container.ports),
            _ports("Host Port", container.host_ports),
            *_amounts("Limits", container.limits),
            *_amounts("Requests", container.requests),
            f"{LEVEL_2}Environment:\t<none>",
            f"{LEVEL_2}Mounts:\t<none>",
        ]
    return lines


def _ports(title: str, ports: list[str]) -> str:
    """`Port:` for one port or none, `Ports:` for several."""
    if len(ports) > 1:
        return f"{LEVEL_2}{title}s:\t{', '.join(ports)}"
    return f"{LEVEL_2}{title}:\t{ports[0] if ports else '<none>'}"


def _amounts(title: str, amounts: list[tuple[str, str]]) -> list[str]:
    if not amounts:
        return []
    return [f"{LEVEL_2}{title}:", *(f"{LEVEL_3}{name}:\t{amount}" for name, amount in amounts)]


def _volumes(volumes: list[TemplateVolume]) -> list[str]:
    if not volumes:
        return [f"{LEVEL_1}Volumes:\t<none>"]
    lines = [f"{LEVEL_1}Volumes:"]
    for volume in volumes:
        lines.append(f"{LEVEL_1} {volume.name}:")
        if volume.claim_name:
            lines += [
                f"{LEVEL_2}Type:\t{CLAIM_SOURCE}",
                f"{LEVEL_2}ClaimName:\t{volume.claim_name}",
                f"{LEVEL_2}ReadOnly:\tfalse",
            ]
        else:
            lines.append(f"{LEVEL_1}<unknown>")
    return lines


def _spread_constraints(constraints: list[str]) -> list[str]:
    """describeTopologySpreadConstraints: nothing without any; further lines keep the title's indent."""
    if not constraints:
        return []
    return [
        f"{LEVEL_1}Topology Spread Constraints:\t{constraints[0]}",
        *(f"{LEVEL_1}\t{constraint}" for constraint in constraints[1:]),
    ]
