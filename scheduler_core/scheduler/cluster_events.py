"""Cluster events and queueing hints (kube-scheduler framework: ClusterEvent, QueueingHint).

A plugin that rejected a pod says which cluster changes could make the pod schedulable again
(EventsToRegister), each with a QueueingHint function that looks at the old and new object and
answers Queue or QueueSkip for that pod. The scheduling queue asks only the plugins that rejected
the pod (queue.py); this module holds the vocabulary they share and the two functions that turn a
pod or node update into its events (framework/events.go: PodSchedulingPropertiesChange and
NodeSchedulingPropertiesChange).
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import IntEnum, IntFlag, StrEnum
from typing import Any, Protocol, runtime_checkable

from scheduler_core.api.types import Node, Pod
from scheduler_core.scheduler.resources import pod_requests


class ActionType(IntFlag):
    """What happened to an object; update actions say which part of it changed."""

    ADD = 1 << 0
    DELETE = 1 << 1
    UPDATE_NODE_ALLOCATABLE = 1 << 2
    UPDATE_NODE_LABEL = 1 << 3
    UPDATE_NODE_TAINT = 1 << 4
    UPDATE_NODE_CONDITION = 1 << 5
    UPDATE_NODE_ANNOTATION = 1 << 6
    UPDATE_POD_LABEL = 1 << 7
    UPDATE_POD_SCALE_DOWN = 1 << 8
    UPDATE_POD_TOLERATIONS = 1 << 9
    UPDATE_POD_SCHEDULING_GATES_ELIMINATED = 1 << 10
    UPDATE_POD_GENERATED_RESOURCE_CLAIM = 1 << 11
    UPDATE_POD_OTHER = 1 << 12  # any other pod change: matches only plugins registering a general Update
    ALL = (1 << 13) - 1
    UPDATE = ALL & ~(ADD | DELETE)


# Upstream's names of the actions, for event labels ("NodeAdd", "AssignedPodDelete").
_ACTION_NAMES = {
    ActionType.ADD: "Add",
    ActionType.DELETE: "Delete",
    ActionType.UPDATE_NODE_ALLOCATABLE: "UpdateNodeAllocatable",
    ActionType.UPDATE_NODE_LABEL: "UpdateNodeLabel",
    ActionType.UPDATE_NODE_TAINT: "UpdateNodeTaint",
    ActionType.UPDATE_NODE_CONDITION: "UpdateNodeCondition",
    ActionType.UPDATE_NODE_ANNOTATION: "UpdateNodeAnnotation",
    ActionType.UPDATE_POD_LABEL: "UpdatePodLabel",
    ActionType.UPDATE_POD_SCALE_DOWN: "UpdatePodScaleDown",
    ActionType.UPDATE_POD_TOLERATIONS: "UpdatePodToleration",
    ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED: "UpdatePodSchedulingGatesEliminated",
    ActionType.UPDATE_POD_GENERATED_RESOURCE_CLAIM: "UpdatePodGeneratedResourceClaim",
    ActionType.UPDATE_POD_OTHER: "Update",
    ActionType.ALL: "All",
    ActionType.UPDATE: "Update",
}


def action_name(action: ActionType) -> str:
    """Upstream's name of an action; a combination names each of its parts, joined by "|"."""
    if action in _ACTION_NAMES:
        return _ACTION_NAMES[action]
    names = [_ACTION_NAMES[part] for part in (ActionType.ADD, ActionType.DELETE) if part & action]
    updates = action & ActionType.UPDATE
    if updates == ActionType.UPDATE:
        names.append("Update")
    elif updates:
        names += [name for part, name in _ACTION_NAMES.items() if part.bit_count() == 1 and part & updates]
    return "|".join(names)


class EventResource(StrEnum):
    """The kind of object an event is about. ASSIGNED_POD and UNSCHEDULED_POD describe incoming
    pod events only; plugins register POD, which matches both."""

    POD = "Pod"
    ASSIGNED_POD = "AssignedPod"
    UNSCHEDULED_POD = "UnschedulablePod"
    NODE = "Node"
    PERSISTENT_VOLUME = "PersistentVolume"
    PERSISTENT_VOLUME_CLAIM = "PersistentVolumeClaim"
    CSI_NODE = "storage.k8s.io/CSINode"
    CSI_DRIVER = "storage.k8s.io/CSIDriver"
    CSI_STORAGE_CAPACITY = "storage.k8s.io/CSIStorageCapacity"
    VOLUME_ATTACHMENT = "storage.k8s.io/VolumeAttachment"
    STORAGE_CLASS = "storage.k8s.io/StorageClass"
    RESOURCE_CLAIM = "resource.k8s.io/ResourceClaim"
    RESOURCE_SLICE = "resource.k8s.io/ResourceSlice"
    DEVICE_CLASS = "resource.k8s.io/DeviceClass"
    WILDCARD = "*"

    def matches(self, incoming: "EventResource") -> bool:
        if self is EventResource.WILDCARD or self is incoming:
            return True
        return self is EventResource.POD and incoming in (EventResource.ASSIGNED_POD, EventResource.UNSCHEDULED_POD)


@dataclass(frozen=True, slots=True)
class ClusterEvent:
    resource: EventResource
    action: ActionType
    custom_label: str = ""

    @property
    def label(self) -> str:
        if self.custom_label:
            return self.custom_label
        return f"{self.resource.value}{action_name(self.action)}"

    @property
    def is_wildcard(self) -> bool:
        return self.resource is EventResource.WILDCARD and self.action == ActionType.ALL

    def matches(self, incoming: "ClusterEvent") -> bool:
        """A registered event matches an incoming one of its resource sharing an action bit. (v1.34
        sends a generic Update for a pod change no specific action names, matched only by
        registrations of every update action; UPDATE_POD_OTHER, a bit only those include, does
        the same.)"""
        return self.is_wildcard or (self.resource.matches(incoming.resource) and bool(self.action & incoming.action))


class QueueingHint(IntEnum):
    QUEUE_SKIP = 0
    QUEUE = 1


# hint(pod, old object, new object): could this change make this pod schedulable?
QueueingHintFn = Callable[[Pod, Any, Any], QueueingHint]


@dataclass(frozen=True, slots=True)
class ClusterEventWithHint:
    event: ClusterEvent
    hint: QueueingHintFn | None = None  # None: always Queue (defaultQueueingHintFn)


@runtime_checkable
class EnqueueExtensions(Protocol):
    """A plugin that says which events may make the pods it rejected schedulable."""

    def events_to_register(self) -> list[ClusterEventWithHint]: ...


NODE_ADD = ClusterEvent(EventResource.NODE, ActionType.ADD)
NODE_DELETE = ClusterEvent(EventResource.NODE, ActionType.DELETE)
ASSIGNED_POD_ADD = ClusterEvent(EventResource.ASSIGNED_POD, ActionType.ADD)
ASSIGNED_POD_DELETE = ClusterEvent(EventResource.ASSIGNED_POD, ActionType.DELETE)
UNSCHEDULABLE_TIMEOUT = ClusterEvent(EventResource.WILDCARD, ActionType.ALL, "UnschedulableTimeout")


def always_queue(pod: Pod, old: Any, new: Any) -> QueueingHint:
    """defaultQueueingHintFn: a registration without its own hint always queues."""
    return QueueingHint.QUEUE


# A plugin that does not say which events it cares about cares about every event of every kind.
# (UnrollWildCardResource of v1.34: every resource but VolumeAttachment and ResourceSlice.)
WILDCARD_REGISTRATIONS: tuple[ClusterEventWithHint, ...] = tuple(
    ClusterEventWithHint(ClusterEvent(resource, ActionType.ALL))
    for resource in (
        EventResource.POD,
        EventResource.NODE,
        EventResource.PERSISTENT_VOLUME,
        EventResource.PERSISTENT_VOLUME_CLAIM,
        EventResource.CSI_NODE,
        EventResource.CSI_DRIVER,
        EventResource.CSI_STORAGE_CAPACITY,
        EventResource.STORAGE_CLASS,
        EventResource.RESOURCE_CLAIM,
        EventResource.DEVICE_CLASS,
    )
)


# --------------------------------------------------------------------------- pod and node updates


def pod_scheduling_properties_change(new: Pod, old: Pod) -> list[ClusterEvent]:
    """The events an update of a pod stands for, as an assigned pod or as the unscheduled pod itself."""
    resource = EventResource.ASSIGNED_POD if new.spec.node_name else EventResource.UNSCHEDULED_POD
    actions = []
    if new.metadata.labels != old.metadata.labels:
        actions.append(ActionType.UPDATE_POD_LABEL)
    if new.spec is not old.spec and _requests_scaled_down(new, old):
        actions.append(ActionType.UPDATE_POD_SCALE_DOWN)
    if not new.spec.scheduling_gates and old.spec.scheduling_gates:
        actions.append(ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED)
    # Tolerations can be added, never changed or removed, so a different count means an addition.
    if len(new.spec.tolerations) != len(old.spec.tolerations):
        actions.append(ActionType.UPDATE_POD_TOLERATIONS)
    if not actions:
        actions.append(ActionType.UPDATE_POD_OTHER)
    return [ClusterEvent(resource, action) for action in actions]


def _requests_scaled_down(new: Pod, old: Pod) -> bool:
    """A request shrank or went away (an in-place resize down)."""
    before, after = pod_requests(old), pod_requests(new)
    return any(name not in after or after[name] < amount for name, amount in before.items())


def node_scheduling_properties_change(new: Node, old: Node) -> list[ClusterEvent]:
    """The events an update of a node stands for, in upstream's order."""
    actions = []
    # A node made schedulable again counts as a taint update (there is no action of its own).
    if new.spec.unschedulable != old.spec.unschedulable and not new.spec.unschedulable:
        actions.append(ActionType.UPDATE_NODE_TAINT)
    if new.status.allocatable != old.status.allocatable:
        actions.append(ActionType.UPDATE_NODE_ALLOCATABLE)
    if new.metadata.labels != old.metadata.labels:
        actions.append(ActionType.UPDATE_NODE_LABEL)
    if new.spec.taints != old.spec.taints:
        actions.append(ActionType.UPDATE_NODE_TAINT)
    if new.status.condition_statuses() != old.status.condition_statuses():
        actions.append(ActionType.UPDATE_NODE_CONDITION)
    if new.metadata.annotations != old.metadata.annotations:
        actions.append(ActionType.UPDATE_NODE_ANNOTATION)
    return [ClusterEvent(EventResource.NODE, action) for action in actions]


# --------------------------------------------------------------------------- the hint map


@dataclass(frozen=True, slots=True)
class PluginHint:
    plugin: str
    hint: QueueingHintFn


QueueingHintMap = Mapping[ClusterEvent, tuple[PluginHint, ...]]

_NODE_TAINT_UPDATE = ClusterEvent(EventResource.NODE, ActionType.UPDATE_NODE_TAINT)


def build_queueing_hint_map(plugins: Mapping[str, Any]) -> dict[ClusterEvent, tuple[PluginHint, ...]]:
    """buildQueueingHintMap over the plugins that can reject a pod, by name. A plugin without
    events_to_register is registered for everything; one that registers Node/Add without
    Node/UpdateNodeTaint also gets the latter (upstream's mitigation for kubernetes#109437)."""
    hints: dict[ClusterEvent, list[PluginHint]] = {}
    for name, plugin in plugins.items():
        registrations = (
            plugin.events_to_register() if isinstance(plugin, EnqueueExtensions) else list(WILDCARD_REGISTRATIONS)
        )
        node_added = node_taint_updated = False
        for registration in registrations:
            event = registration.event
            if event.resource is EventResource.NODE:
                node_added = node_added or bool(event.action & ActionType.ADD)
                node_taint_updated = node_taint_updated or bool(event.action & ActionType.UPDATE_NODE_TAINT)
            hints.setdefault(event, []).append(PluginHint(name, registration.hint or always_queue))
        if node_added and not node_taint_updated:
            hints.setdefault(_NODE_TAINT_UPDATE, []).append(PluginHint(name, always_queue))
    return {event: tuple(entries) for event, entries in hints.items()}
