"""NodePorts: a hostPort can be used once per node, per protocol and host IP (0.0.0.0 covers all)."""

from collections.abc import Sequence

from scheduler_core.api.types import Pod
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


def conflicts(used: dict[HostPort, int], wanted: HostPort) -> bool:
    ip, protocol, port = wanted
    if ip == DEFAULT_BIND_ALL_HOST_IP:
        return any(p == port and proto == protocol for (_, proto, p) in used)
    return (DEFAULT_BIND_ALL_HOST_IP, protocol, port) in used or (ip, protocol, port) in used


def fits(pod: Pod, node: NodeInfo) -> bool:
    """nodeports.Fits: none of the pod's host ports is taken on the node."""
    return not node.used_ports or not any(conflicts(node.used_ports, port) for port in pod_host_ports(pod))


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
        if node.used_ports and any(conflicts(node.used_ports, port) for port in wanted):
            return unschedulable(ERR_REASON)
        return SUCCESS
