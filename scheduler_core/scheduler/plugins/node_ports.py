"""NodePorts: a hostPort can be used once per node, per protocol and host IP (0.0.0.0 covers all)."""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.cluster_events import (
    NODE_ADD,
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    EventResource,
    QueueingHint,
)
from scheduler_core.scheduler.framework import SKIP, SUCCESS, CycleState, PreFilterResult, Status, unschedulable
from scheduler_core.scheduler.snapshot import DEFAULT_BIND_ALL_HOST_IP, NodeInfo

NAME = "NodePorts"
PRE_FILTER_KEY = "PreFilter" + NAME
ERR_REASON = "node(s) didn't have free ports for the requested pod ports"

HostPort = tuple[str, str, int]  # (host IP, protocol, port)


def pod_host_ports(pod: Pod) -> list[HostPort]:
    """The ports a pod wants on its node: its sidecars' and then its containers' hostPorts."""
    containers = tuple(c for c in pod.spec.init_containers if c.restart_policy == "Always") + pod.spec.containers
    return [
        (port.host_ip or DEFAULT_BIND_ALL_HOST_IP, port.protocol or "TCP", port.host_port)
        for container in containers
        for port in container.ports
        if port.host_port > 0
    ]


def conflicts(used: Mapping[HostPort, int], wanted: HostPort) -> bool:
    ip, protocol, port = wanted
    if ip == DEFAULT_BIND_ALL_HOST_IP:
        return any(p == port and proto == protocol for (_, proto, p) in used)
    return (DEFAULT_BIND_ALL_HOST_IP, protocol, port) in used or (ip, protocol, port) in used


def ports_fit(wanted: Iterable[HostPort], used: Mapping[HostPort, int]) -> bool:
    """fitsPorts: none of the wanted ports conflicts with the ports in use."""
    return not used or not any(conflicts(used, port) for port in wanted)


def fits(pod: Pod, node: NodeInfo) -> bool:
    """nodeports.Fits: none of the pod's host ports is taken on the node."""
    return ports_fit(pod_host_ports(pod), node.used_ports)


class NodePorts:
    name = NAME

    def pre_filter(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[PreFilterResult | None, Status]:
        ports = pod_host_ports(pod)
        if not ports:
            return None, SKIP
        state.write(PRE_FILTER_KEY, ports)
        return None, SUCCESS

    def filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        wanted: list[HostPort] = state.read(PRE_FILTER_KEY)
        return SUCCESS if ports_fit(wanted, node.used_ports) else unschedulable(ERR_REASON)

    def events_to_register(self) -> list[ClusterEventWithHint]:
        # Container ports are immutable, so of pod events only a deletion can free a port. A node
        # added has all its ports free: no hint. Queueing hints on: no node updates (preCheck only).
        return [
            ClusterEventWithHint(
                ClusterEvent(EventResource.POD, ActionType.DELETE), self.is_schedulable_after_pod_deleted
            ),
            ClusterEventWithHint(NODE_ADD),
        ]

    def is_schedulable_after_pod_deleted(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        """Queue when the deleted pod was on a node (or nominated to one) and held a host port
        this pod wants."""
        if not isinstance(old, Pod):
            return QueueingHint.QUEUE  # upstream's hint errors on other objects, and an error queues
        if not old.spec.node_name and not old.status.nominated_node_name:
            return QueueingHint.QUEUE_SKIP  # an unscheduled pod held no port
        released = pod_host_ports(old)
        if not released or ports_fit(pod_host_ports(pod), dict.fromkeys(released, 1)):
            return QueueingHint.QUEUE_SKIP
        return QueueingHint.QUEUE
