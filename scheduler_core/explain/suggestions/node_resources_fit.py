"""NodeResourcesFit's fixes: the request lowered to what a node has left, or a new node with the capacity."""

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from scheduler_core.api.manifest_writer import taint_manifest
from scheduler_core.api.quantity import format_quantity
from scheduler_core.api.types import CPU, PODS, Node, ObjectMeta, Pod, ResourceRequirements
from scheduler_core.explain.inputs import SchedulingInputs
from scheduler_core.explain.suggestions.candidates import (
    ADD_NODE,
    HOSTNAME_LABEL,
    LOWER_REQUEST,
    MEBIBYTE,
    SCOPE_NEW,
    SCOPE_POD,
    Candidate,
    PodChange,
    Rejection,
    pod_target,
)
from scheduler_core.scheduler.plugins.node_resources_fit import TOO_MANY_PODS
from scheduler_core.scheduler.resources import is_pod_level_resource, pod_requests
from scheduler_core.scheduler.snapshot import NodeInfo


def candidates(rejection: Rejection) -> list[Candidate]:
    inputs, pod, nodes, reasons = rejection.inputs, rejection.pod, rejection.nodes, rejection.reasons
    requests = pod_requests(pod)
    candidates: list[Candidate] = []
    # Lower one request to what a node short of only that resource has left, the most generous first.
    short_of: dict[str, list[NodeInfo]] = {}
    for info in nodes:
        names = reasons[info.name]
        if len(names) == 1 and names[0].startswith("Insufficient "):
            short_of.setdefault(names[0].removeprefix("Insufficient "), []).append(info)
    for resource, infos in short_of.items():
        left = sorted(
            {
                _round_down(resource, info.allocatable.get(resource, 0) - info.requested.get(resource, 0))
                for info in infos
            },
            reverse=True,
        )
        for amount in left:
            if amount <= 0 or amount >= requests.get(resource, 0):
                continue
            lowered = _lower_request(pod, resource, amount)
            if lowered is None:
                continue
            change, action, snippet = lowered
            candidates.append(
                Candidate(
                    LOWER_REQUEST, action, snippet, pod_target(pod), SCOPE_POD, f"lower:{resource}", pod_change=change
                )
            )
    # A new node like the roomiest rejected one, with enough of everything the pod asks for.
    template = _roomiest(nodes, reasons, requests)
    if template is not None:
        candidates.append(_add_node_candidate(inputs, pod, template, requests))
    return candidates


def _round_down(resource: str, amount: int) -> int:
    """What is left, in a unit people write: whole MiB of memory and storage (CPU stays in millicores)."""
    in_bytes = resource in ("memory", "ephemeral-storage") or resource.startswith("hugepages-")
    if in_bytes and amount >= MEBIBYTE:
        return amount - amount % MEBIBYTE
    return amount


def _lower_request(pod: Pod, resource: str, target: int) -> tuple[PodChange, str, Any] | None:
    """(change, sentence, YAML) bringing the pod's effective request of the resource down to ``target``:
    the pod-level request when there is one, else the container asking the most."""
    current = pod_requests(pod).get(resource, 0)
    cut = current - target
    if cut <= 0:
        return None
    pod_level = pod.spec.resources
    if pod_level is not None and resource in pod_level.requests and is_pod_level_resource(resource):
        amount = pod_level.requests[resource] - cut
        if amount <= 0:
            return None

        def change_pod_level(p: Pod) -> Pod:
            resources = p.spec.resources or ResourceRequirements()
            requests = {**resources.requests, resource: amount}
            return replace(p, spec=replace(p.spec, resources=replace(resources, requests=requests)))

        if pod_requests(change_pod_level(pod)).get(resource, 0) > target:
            return None
        was = format_quantity(resource, pod_level.requests[resource])
        now = format_quantity(resource, amount)
        action = f"Lower the pod's {resource} request from {was} to {now}"
        return change_pod_level, action, {"spec": {"resources": {"requests": {resource: now}}}}

    containers = pod.spec.containers
    asking = [(c.resources.requests.get(resource, 0), i) for i, c in enumerate(containers)]
    if not asking:
        return None
    most, index = max(asking, key=lambda item: (item[0], -item[1]))
    amount = most - cut
    if amount <= 0:
        return None
    name = containers[index].name

    def change(p: Pod) -> Pod:
        updated = list(p.spec.containers)
        for i, container in enumerate(updated):
            if container.name == name:
                requests = {**container.resources.requests, resource: amount}
                updated[i] = replace(container, resources=replace(container.resources, requests=requests))
        return replace(p, spec=replace(p.spec, containers=tuple(updated)))

    if pod_requests(change(pod)).get(resource, 0) > target:
        return None  # an init container or the overhead keeps it higher
    was, now = format_quantity(resource, most), format_quantity(resource, amount)
    who = "the pod's" if len(containers) == 1 else f"container {name}'s"
    action = f"Lower {who} {resource} request from {was} to {now} (what a node has left)"
    snippet = {"spec": {"containers": [{"name": name, "resources": {"requests": {resource: now}}}]}}
    return change, action, snippet


def _roomiest(
    nodes: list[NodeInfo], reasons: Mapping[str, tuple[str, ...]], requests: Mapping[str, int]
) -> NodeInfo | None:
    """The rejected node with the most of what the pod lacks, as the model of a new one."""
    short = [info for info in nodes if reasons[info.name]]
    if not short:
        return None
    first = reasons[short[0].name][0]
    resource = PODS if first == TOO_MANY_PODS else first.removeprefix("Insufficient ")
    return max(short, key=lambda info: info.allocatable.get(resource, 0))  # max keeps the first of equals


def _new_node_name(template: str, taken: set[str]) -> str:
    """worker-4 after worker-1..worker-4 becomes worker-5; any other name gets a -2, -3, ... suffix."""
    numbered = re.fullmatch(r"(.*?)(\d+)", template)
    if numbered:
        prefix, digits = numbered.groups()
        highest = max(
            (int(m.group(1)) for name in taken if (m := re.fullmatch(re.escape(prefix) + r"(\d+)", name))),
            default=int(digits),
        )
        number = highest + 1
        while (name := f"{prefix}{number:0{len(digits)}d}") in taken:
            number += 1
        return name
    number = 2
    while f"{template}-{number}" in taken:
        number += 1
    return f"{template}-{number}"


def _round_up(resource: str, amount: int) -> int:
    """A capacity people buy: whole CPUs, whole GiB."""
    unit = 1000 if resource == CPU else 2**30 if resource in ("memory", "ephemeral-storage") else 1
    return -(-amount // unit) * unit


def _add_node_candidate(
    inputs: SchedulingInputs, pod: Pod, template: NodeInfo, requests: Mapping[str, int]
) -> Candidate:
    model = template.node
    name = _new_node_name(model.name, {node.name for node in inputs.nodes})
    allocatable = dict(model.status.allocatable)
    grown: dict[str, str] = {}
    for resource, amount in requests.items():
        if amount > allocatable.get(resource, 0):
            allocatable[resource] = _round_up(resource, amount)
            grown[resource] = format_quantity(resource, allocatable[resource])
    if allocatable.get(PODS, 0) < 1:
        allocatable[PODS] = 110  # the kubelet's default
    capacity = {**model.status.capacity, **allocatable}
    labels = {k: (name if k == HOSTNAME_LABEL and v == model.name else v) for k, v in model.labels.items()}
    node = Node(
        metadata=ObjectMeta(name=name, labels=labels),
        spec=replace(model.spec, unschedulable=False),
        status=replace(model.status, capacity=capacity, allocatable=allocatable, images=()),
    )
    extra = f" but with {', '.join(f'{k} {v}' for k, v in grown.items())}" if grown else ""
    status: dict[str, Any] = {"capacity": {k: format_quantity(k, v) for k, v in allocatable.items()}}
    metadata: dict[str, Any] = {"name": name}
    if labels:
        metadata["labels"] = dict(labels)
    manifest: dict[str, Any] = {"apiVersion": "v1", "kind": "Node", "metadata": metadata}
    if node.spec.taints:
        manifest["spec"] = {"taints": [taint_manifest(t) for t in node.spec.taints]}
    manifest["status"] = status
    return Candidate(
        ADD_NODE,
        f"Add a node {name} like {model.name}{extra} (a new machine joining the cluster)",
        manifest,
        f"new Node {name}",
        SCOPE_NEW,
        "add-node",
        added_nodes=(node,),
    )
