"""Which of a controller's pods go first when it scales down: controller_utils.go ActivePodsWithRanks.

The order, smallest (deleted first) to largest:
 1. unassigned before assigned;
 2. Pending before Unknown before Running;
 3. not ready before ready;
 4. lower controller.kubernetes.io/pod-deletion-cost before higher;
 5. more related pods on the same node ("doubled up") before fewer;
 6. both ready: ready for less time before more, compared on a log2 scale of the time since (LogarithmicScaleDown,
    on since v1.22), pods in the same bucket ordered by UID;
 7. more container restarts before fewer (the engine does not count restarts: always equal);
 8. newer before older, on the same log2 scale of age, same bucket by UID.

Timestamps are compared at the API's one-second precision (metav1.Time), so pods created in the same
second tie on age. Ties that survive every rule keep their input order.
"""

import math
import re
from collections.abc import Iterable, Mapping
from functools import cmp_to_key

from scheduler_core.api.pod_conditions import is_pod_terminal, ready_changed_at
from scheduler_core.api.types import Pod

POD_DELETION_COST_ANNOTATION = "controller.kubernetes.io/pod-deletion-cost"
_PHASE_ORDINAL = {"Pending": 0, "Unknown": 1, "Running": 2}
_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1
_INTEGER = re.compile(r"-?[0-9]{1,10}")  # int32 has at most 10 digits (and int() refuses 4,300+)


def api_seconds(timestamp: float) -> int:
    """metav1.Time keeps whole seconds."""
    return math.floor(timestamp + 1e-9)


def deletion_cost(annotations: Mapping[str, str]) -> int:
    """getDeletionCostFromPodAnnotations: an int32, 0 when absent or invalid ("+1" and "007" are invalid)."""
    value = annotations.get(POD_DELETION_COST_ANNOTATION)
    if value is None or not value:
        return 0
    first = value[0]
    if not (first == "-" or value == "0" or "1" <= first <= "9"):
        return 0
    if _INTEGER.fullmatch(value) is None:
        return 0
    cost = int(value)
    return cost if _INT32_MIN <= cost <= _INT32_MAX else 0


def _log_rank(timestamp: int, now: float) -> int:
    elapsed_ns = (now - timestamp) * 1e9
    return int(math.log2(elapsed_ns)) if elapsed_ns > 0 else -1


def ranks_by_related_pods_on_same_node(pods: Iterable[Pod], related: Iterable[Pod]) -> list[int]:
    """getPodsRankedByRelatedPodsOnSameNode: for each pod, how many active related pods share its node."""
    per_node: dict[str, int] = {}
    for pod in related:
        if not is_pod_terminal(pod) and pod.metadata.deletion_timestamp is None:
            per_node[pod.spec.node_name] = per_node.get(pod.spec.node_name, 0) + 1
    return [per_node.get(pod.spec.node_name, 0) for pod in pods]


def rank_pods_for_deletion(pods: list[Pod], ranks: list[int], now: float) -> list[Pod]:
    """The pods, first-to-delete first."""
    ranked = list(zip(pods, ranks, strict=True))

    def ready_time(pod: Pod) -> int | None:
        if not pod.status.ready:
            return None
        since = ready_changed_at(pod)
        return None if since is None else api_seconds(since)

    def less(a: tuple[Pod, int], b: tuple[Pod, int]) -> bool:
        pa, ra = a
        pb, rb = b
        node_a, node_b = pa.spec.node_name, pb.spec.node_name
        if node_a != node_b and (not node_a or not node_b):
            return not node_a
        phase_a, phase_b = _PHASE_ORDINAL.get(pa.status.phase, 0), _PHASE_ORDINAL.get(pb.status.phase, 0)
        if phase_a != phase_b:
            return phase_a < phase_b
        if pa.status.ready != pb.status.ready:
            return not pa.status.ready
        cost_a, cost_b = deletion_cost(pa.metadata.annotations), deletion_cost(pb.metadata.annotations)
        if cost_a != cost_b:
            return cost_a < cost_b
        if ra != rb:
            return ra > rb
        if pa.status.ready and pb.status.ready:
            ta, tb = ready_time(pa), ready_time(pb)
            if ta != tb:
                if ta is None or tb is None:  # a zero time sorts as the latest
                    return ta is None
                diff = _log_rank(ta, now) - _log_rank(tb, now)
                if diff == 0:
                    return pa.metadata.uid < pb.metadata.uid
                return diff < 0
        ca, cb = api_seconds(pa.metadata.creation_timestamp), api_seconds(pb.metadata.creation_timestamp)
        if ca != cb:
            diff = _log_rank(ca, now) - _log_rank(cb, now)
            if diff == 0:
                return pa.metadata.uid < pb.metadata.uid
            return diff < 0
        return False

    def compare(a: tuple[Pod, int], b: tuple[Pod, int]) -> int:
        if less(a, b):
            return -1
        if less(b, a):
            return 1
        return 0

    ranked.sort(key=cmp_to_key(compare))
    return [pod for pod, _ in ranked]
