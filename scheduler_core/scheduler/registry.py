"""The in-tree plugin registry: upstream plugin name -> factory(args, handle)."""

from collections.abc import Mapping
from typing import Any

from scheduler_core.scheduler.plugins.default_binder import DefaultBinder
from scheduler_core.scheduler.plugins.default_preemption import DefaultPreemption
from scheduler_core.scheduler.plugins.dynamic_resources import DynamicResources
from scheduler_core.scheduler.plugins.image_locality import ImageLocality
from scheduler_core.scheduler.plugins.inter_pod_affinity.plugin import InterPodAffinity
from scheduler_core.scheduler.plugins.node_affinity import NodeAffinity
from scheduler_core.scheduler.plugins.node_name import NodeName
from scheduler_core.scheduler.plugins.node_ports import NodePorts
from scheduler_core.scheduler.plugins.node_resources_balanced_allocation import NodeResourcesBalancedAllocation
from scheduler_core.scheduler.plugins.node_resources_fit import NodeResourcesFit
from scheduler_core.scheduler.plugins.node_unschedulable import NodeUnschedulable
from scheduler_core.scheduler.plugins.node_volume_limits import NodeVolumeLimits
from scheduler_core.scheduler.plugins.pod_topology_spread.plugin import PodTopologySpread
from scheduler_core.scheduler.plugins.priority_sort import PrioritySort
from scheduler_core.scheduler.plugins.scheduling_gates import SchedulingGates
from scheduler_core.scheduler.plugins.taint_toleration import TaintToleration
from scheduler_core.scheduler.plugins.volume_binding import VolumeBinding
from scheduler_core.scheduler.plugins.volume_restrictions import VolumeRestrictions
from scheduler_core.scheduler.plugins.volume_zone import VolumeZone
from scheduler_core.scheduler.runtime import Handle, PluginFactory


def _without_args(plugin_class: type) -> PluginFactory:
    def factory(args: Mapping[str, Any], handle: Handle) -> Any:
        return plugin_class()

    return factory


DEFAULT_REGISTRY: dict[str, PluginFactory] = {
    "SchedulingGates": SchedulingGates,
    "PrioritySort": _without_args(PrioritySort),
    "NodeUnschedulable": _without_args(NodeUnschedulable),
    "NodeName": _without_args(NodeName),
    "TaintToleration": _without_args(TaintToleration),
    "NodeAffinity": NodeAffinity,
    "NodePorts": _without_args(NodePorts),
    "NodeResourcesFit": NodeResourcesFit,
    "VolumeRestrictions": VolumeRestrictions,
    "NodeVolumeLimits": NodeVolumeLimits,
    "VolumeBinding": VolumeBinding,
    "VolumeZone": VolumeZone,
    "DynamicResources": DynamicResources,
    "PodTopologySpread": PodTopologySpread,
    "InterPodAffinity": InterPodAffinity,
    "DefaultPreemption": DefaultPreemption,
    "NodeResourcesBalancedAllocation": NodeResourcesBalancedAllocation,
    "ImageLocality": ImageLocality,
    "DefaultBinder": _without_args(DefaultBinder),
}
