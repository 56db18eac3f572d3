"""`kubectl describe poddisruptionbudget` as kubectl v1.34 prints it (describePodDisruptionBudgetV1
in k8s.io/kubectl/pkg/describe): the budget, its selector and status, and its events, from the
budget as the API serves it. Ages count from `now + epoch` on kubectl's clock, as a pod's do
(describe_pod_text.py)."""

from scheduler_core.api.manifest_writer import timestamps_from
from scheduler_core.api.object_manifest import object_manifest
from scheduler_core.api.types import PodDisruptionBudget
from scheduler_core.explain.describe_manifest import (
    LEVEL_2,
    Manifest,
    field_map,
    formatted_selector,
    int_or_string,
    object_events,
)
from scheduler_core.explain.describe_pod_text import EventFields, describe_events, escape_terminal
from scheduler_core.explain.tabwriter import tabbed
from scheduler_core.store.cluster import Cluster


def pod_disruption_budget_text(cluster: Cluster, pdb: PodDisruptionBudget, now: float, epoch: float = 0.0) -> str:
    with timestamps_from(epoch):
        manifest = object_manifest(pdb)
        events = object_events(cluster, "PodDisruptionBudget", field_map(manifest, "metadata"))
    return describe_pod_disruption_budget(manifest, events, now + epoch)


def describe_pod_disruption_budget(pdb: Manifest, events: list[EventFields], clock: float) -> str:
    meta, spec, status = field_map(pdb, "metadata"), field_map(pdb, "spec"), field_map(pdb, "status")
    lines = [f"Name:\t{meta.get('name', '')}", f"Namespace:\t{meta.get('namespace', '')}"]
    # minAvailable wins when a budget has both (validation allows only one)
    if spec.get("minAvailable") is not None:
        lines.append(f"Min available:\t{int_or_string(spec['minAvailable'])}")
    elif spec.get("maxUnavailable") is not None:
        lines.append(f"Max unavailable:\t{int_or_string(spec['maxUnavailable'])}")
    lines += [
        f"Selector:\t{formatted_selector(spec)}" if spec.get("selector") is not None else "Selector:\t<unset>",
        "Status:",
        f"{LEVEL_2}Allowed disruptions:\t{status.get('disruptionsAllowed', 0)}",
        f"{LEVEL_2}Current:\t{status.get('currentHealthy', 0)}",
        f"{LEVEL_2}Desired:\t{status.get('desiredHealthy', 0)}",
        f"{LEVEL_2}Total:\t{status.get('expectedPods', 0)}",
        *describe_events(events, clock),
    ]
    return tabbed(escape_terminal("\n".join(lines) + "\n"))
