"""The Pod Template section of a workload's `kubectl describe` text (DescribePodTemplate and the
describeContainers, describeVolumes, describeTopologySpreadConstraints it calls), as lines with
kubectl's tabs; the describer's tabwriter aligns them. The containers and volumes are printed from
the template as the API serves it, as a pod's are (describe_pod_text.py), with no pod to resolve
an environment variable's field against (kubectl passes none)."""

from collections.abc import Mapping
from typing import Any

from scheduler_core.explain.describe_pod_template import PodTemplateDescription
from scheduler_core.explain.describe_pod_text import containers_lines, volume_lines
from scheduler_core.explain.describe_text import INDENT, annotation_lines, listed

LEVEL_1 = INDENT


def pod_template_lines(template: PodTemplateDescription) -> list[str]:
    spec = template.spec
    lines = ["Pod Template:", *listed(f"{LEVEL_1}Labels", [f"{key}={value}" for key, value in template.labels])]
    if template.annotations:
        lines += annotation_lines(f"{LEVEL_1}Annotations", template.annotations)
    if template.service_account:
        lines.append(f"{LEVEL_1}Service Account:\t{template.service_account}")
    if _items(spec, "initContainers"):
        lines += containers_lines("Init Containers", _items(spec, "initContainers"), [], {}, LEVEL_1)
    lines += containers_lines("Containers", _items(spec, "containers"), [], {}, LEVEL_1)
    lines += volume_lines(_items(spec, "volumes"), LEVEL_1)
    lines += _spread_constraints(template.topology_spread_constraints)
    if template.priority_class_name:
        lines.append(f"{LEVEL_1}Priority Class Name:\t{template.priority_class_name}")
    lines += listed(f"{LEVEL_1}Node-Selectors", [f"{key}={value}" for key, value in template.node_selectors])
    lines += listed(f"{LEVEL_1}Tolerations", template.tolerations)
    return lines


def _items(spec: Mapping[str, Any], key: str) -> list[Any]:
    value = spec.get(key)
    return value if isinstance(value, list) else []


def _spread_constraints(constraints: list[str]) -> list[str]:
    """describeTopologySpreadConstraints: nothing without any; further lines keep the title's indent."""
    if not constraints:
        return []
    return [
        f"{LEVEL_1}Topology Spread Constraints:\t{constraints[0]}",
        *(f"{LEVEL_1}\t{constraint}" for constraint in constraints[1:]),
    ]
