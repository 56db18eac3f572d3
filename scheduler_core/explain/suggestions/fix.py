"""A verified fix, and the change it makes applied to scheduling inputs or to manifests."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scheduler_core.api.manifests import Manifest
from scheduler_core.api.types import Node, Pod
from scheduler_core.api.workloads import PersistentVolume
from scheduler_core.explain.inputs import SchedulingInputs
from scheduler_core.explain.suggestions.candidates import NodeChange, PodChange


@dataclass(frozen=True, slots=True)
class Fix:
    """One change that makes the pod schedulable, as verified: the pod then fits on ``feasible_nodes``
    and the scheduler picks ``selected``."""

    kind: str
    description: str  # a plain-language sentence
    yaml: str  # the change, as the YAML to write into the object
    target: str  # the object changed: "Pod shop/big", "Node worker-1", "new Node worker-5"
    feasible_nodes: tuple[str, ...]
    selected: str
    command: str = ""  # the kubectl command doing it, for changes to nodes
    pod_change: PodChange | None = field(default=None, compare=False, repr=False)
    node_changes: Mapping[str, NodeChange] = field(default_factory=dict, compare=False, repr=False)
    added_nodes: tuple[Node, ...] = field(default=(), compare=False, repr=False)
    added_volumes: tuple[PersistentVolume, ...] = field(default=(), compare=False, repr=False)

    def as_dict(self) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "kind": self.kind,
            "description": self.description,
            "target": self.target,
            "yaml": self.yaml,
        }
        if self.command:
            entry["command"] = self.command
        entry["feasibleNodes"] = list(self.feasible_nodes)
        entry["selected"] = self.selected
        return entry

    def apply(self, inputs: SchedulingInputs) -> SchedulingInputs:
        """A copy of the inputs with the change made; the inputs themselves stay as they are."""
        return apply_changes(inputs, self.pod_change, self.node_changes, self.added_nodes, self.added_volumes)

    def apply_to_manifests(self, manifests: Sequence[Manifest], pod_key: str) -> list[Manifest]:
        """The files with the change made (for explain): the pod and nodes replaced, new objects appended."""
        changed: list[Manifest] = []
        for manifest in manifests:
            obj = manifest.object
            if self.pod_change is not None and isinstance(obj, Pod) and obj.key == pod_key:
                manifest = replace(manifest, object=self.pod_change(obj))
            elif isinstance(obj, Node) and obj.name in self.node_changes:
                manifest = replace(manifest, object=self.node_changes[obj.name](obj))
            changed.append(manifest)
        for node in self.added_nodes:
            changed.append(Manifest(node.kind, node, f"Node {node.name}", 0, "fix"))
        for volume in self.added_volumes:
            changed.append(Manifest(volume.kind, volume, f"PersistentVolume {volume.metadata.name}", 0, "fix"))
        return changed


def apply_changes(
    inputs: SchedulingInputs,
    pod_change: PodChange | None,
    node_changes: Mapping[str, NodeChange],
    added_nodes: Iterable[Node],
    added_volumes: Iterable[PersistentVolume],
) -> SchedulingInputs:
    nodes = [node_changes[node.name](node) if node.name in node_changes else node for node in inputs.nodes]
    return replace(
        inputs,
        pod=pod_change(inputs.pod) if pod_change is not None else inputs.pod,
        nodes=[*nodes, *added_nodes],
        bound=list(inputs.bound),
        pending=list(inputs.pending),
        volumes=[*inputs.volumes, *added_volumes],
    )
