"""ImageLocality: prefer nodes that already hold the pod's images, weighted by how widely each
image is spread, so one node holding a popular image does not attract every pod (plugins/imagelocality)."""

from collections.abc import Mapping
from typing import Any

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.framework import MAX_NODE_SCORE, SUCCESS, CycleState, Status
from scheduler_core.scheduler.snapshot import NodeInfo

NAME = "ImageLocality"
MB = 1024 * 1024
MIN_THRESHOLD = 23 * MB
MAX_CONTAINER_THRESHOLD = 1000 * MB


def normalized_image_name(name: str) -> str:
    """Images without a tag mean :latest."""
    if name.rfind(":") <= name.rfind("/"):
        return name + ":latest"
    return name


def calculate_priority(sum_scores: int, num_containers: int) -> int:
    max_threshold = MAX_CONTAINER_THRESHOLD * num_containers
    clamped = min(max(sum_scores, MIN_THRESHOLD), max_threshold)
    return MAX_NODE_SCORE * (clamped - MIN_THRESHOLD) // (max_threshold - MIN_THRESHOLD)


class ImageLocality:
    name = NAME

    def __init__(self, args: Mapping[str, Any], handle: Any) -> None:
        self.handle = handle

    def score(self, state: CycleState, pod: Pod, node: NodeInfo) -> tuple[int, Status]:
        snapshot = self.handle.snapshot
        total_nodes = len(snapshot)
        total = 0
        for container in pod.spec.init_containers + pod.spec.containers:
            image = normalized_image_name(container.image)
            size = node.image_sizes.get(image)
            if size is not None:
                spread = snapshot.image_num_nodes(image) / total_nodes
                total += int(size * spread)
        containers = len(pod.spec.init_containers) + len(pod.spec.containers)
        return calculate_priority(total, containers), SUCCESS
