"""The admission chain a simulated API server runs on every create, in upstream's order.

Each admission function takes the object and the cluster and returns the object (possibly changed)
or raises AdmissionError with the API server's message.
"""

from collections.abc import Callable
from typing import Any

from scheduler_core.admission.priority import admit_priority
from scheduler_core.api.types import Pod, PriorityClass
from scheduler_core.cluster import Cluster

Admission = Callable[[Any, Cluster], Any]


def priority(obj: Any, cluster: Cluster) -> Any:
    if not isinstance(obj, Pod):
        return obj
    classes: dict[str, PriorityClass] = {pc.metadata.name: pc for pc in cluster.objects("PriorityClass")}
    return admit_priority(obj, classes)


def default_chain() -> list[Admission]:
    return [priority]


def install(cluster: Cluster, chain: list[Admission] | None = None) -> None:
    for admit in chain if chain is not None else default_chain():
        cluster.admission.append(_bound(admit, cluster))


def _bound(admit: Admission, cluster: Cluster) -> Callable[[Any], Any]:
    def run(obj: Any) -> Any:
        return admit(obj, cluster)

    return run
