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
        self._images: tuple[Pod, tuple[str, ...]] | None = None  # the last pod's normalized image names

    def _pod_images(self, pod: Pod) -> tuple[str, ...]:
        """The pod's images (init containers first), normalized once per pod rather than per node."""
        known = self._images
        if known is not None and known[0] is pod:
            return known[1]
        images = tuple(normalized_image_name(c.image) for c in pod.spec.init_containers + pod.spec.containers)
        self._images = (pod, images)
        return images

    def score(self, state: CycleState, pod: Pod, node: NodeInfo) -> tuple[int, Status]:
        images = self._pod_images(pod)
        sizes = node.image_sizes
        total = 0
        if sizes:
            snapshot = self.handle.snapshot
            total_nodes = len(snapshot)
            for image in images:
                size = sizes.get(image)
                if size is not None:
                    spread = snapshot.image_num_nodes(image) / total_nodes
                    total += int(size * spread)
        return calculate_priority(total, len(images)), SUCCESS
