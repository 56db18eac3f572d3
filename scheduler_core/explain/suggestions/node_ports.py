"""NodePorts' fix: the hostPort moved to one free on every node."""

from dataclasses import replace
from typing import Any

from scheduler_core.api.types import Container, ContainerPort, Pod
from scheduler_core.explain.suggestions.candidates import (
    FREE_HOST_PORT,
    MAX_PORT,
    SCOPE_POD,
    Candidate,
    PodChange,
    Rejection,
    pod_target,
)
from scheduler_core.scheduler.plugins.node_ports import conflicts, pod_host_ports
from scheduler_core.scheduler.snapshot import DEFAULT_BIND_ALL_HOST_IP


def candidates(rejection: Rejection) -> list[Candidate]:
    pod, nodes, snapshot = rejection.pod, rejection.nodes, rejection.snapshot
    wanted = pod_host_ports(pod)
    all_nodes = snapshot.nodes()
    candidates: list[Candidate] = []
    for host_port in dict.fromkeys(wanted):
        if not any(info.used_ports and conflicts(info.used_ports, host_port) for info in nodes):
            continue
        ip, protocol, port = host_port
        own = {p for (_, proto, p) in wanted if proto == protocol}
        free = next(
            (
                candidate
                for candidate in range(port + 1, MAX_PORT + 1)
                if candidate not in own
                and not any(
                    info.used_ports and conflicts(info.used_ports, (ip, protocol, candidate)) for info in all_nodes
                )
            ),
            None,
        )
        if free is None:
            continue
        located = _locate_port(pod, ip, protocol, port)
        if located is None:
            continue
        init, container, entry = located
        snippet_port: dict[str, Any] = {"containerPort": entry.container_port, "hostPort": free}
        if protocol != "TCP":
            snippet_port["protocol"] = protocol
        section = "initContainers" if init else "containers"
        candidates.append(
            Candidate(
                FREE_HOST_PORT,
                f"Change the pod's hostPort {port}/{protocol} to {free}, a port no node uses yet",
                {"spec": {section: [{"name": container.name, "ports": [snippet_port]}]}},
                pod_target(pod),
                SCOPE_POD,
                f"port:{host_port}",
                pod_change=_move_port(init, container.name, ip, protocol, port, free),
            )
        )
    return candidates


def _port_matches(entry: ContainerPort, ip: str, protocol: str, port: int) -> bool:
    return (
        entry.host_port == port
        and (entry.host_ip or DEFAULT_BIND_ALL_HOST_IP) == ip
        and (entry.protocol or "TCP") == protocol
    )


def _locate_port(pod: Pod, ip: str, protocol: str, port: int) -> tuple[bool, Container, ContainerPort] | None:
    sidecars = [(True, c) for c in pod.spec.init_containers if c.restart_policy == "Always"]
    for init, container in [*sidecars, *((False, c) for c in pod.spec.containers)]:
        for entry in container.ports:
            if _port_matches(entry, ip, protocol, port):
                return init, container, entry
    return None


def _move_port(init: bool, name: str, ip: str, protocol: str, port: int, free: int) -> PodChange:
    def move(container: Container) -> Container:
        if container.name != name:
            return container
        ports = tuple(
            replace(entry, host_port=free) if _port_matches(entry, ip, protocol, port) else entry
            for entry in container.ports
        )
        return replace(container, ports=ports)

    def change(pod: Pod) -> Pod:
        if init:
            return replace(pod, spec=replace(pod.spec, init_containers=tuple(map(move, pod.spec.init_containers))))
        return replace(pod, spec=replace(pod.spec, containers=tuple(map(move, pod.spec.containers))))

    return change
