"""kubectl drain's pod filters (k8s.io/kubectl/pkg/drain filters.go), as the console checks them
before it hands the drain to the engine: the engine's drain (controllers/drain.py) runs as with
`--ignore-daemonsets --delete-emptydir-data --force`, so a drain typed without one of those flags,
on a node holding such pods, is refused here with kubectl's texts (the node stays cordoned)."""

from scheduler_core.api.pod_conditions import is_pod_terminal
from scheduler_core.api.types import Pod
from scheduler_core.api.workloads import DaemonSet
from scheduler_core.store.cluster import Cluster

MIRROR_POD_ANNOTATION = "kubernetes.io/config.mirror"
DAEMONSET_FATAL = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"
LOCAL_STORAGE_FATAL = "Pods with local storage (use --delete-emptydir-data to override)"
UNMANAGED_FATAL = "cannot delete Pods that declare no controller (use --force to override)"


def has_local_storage(pod: Pod) -> bool:
    """An emptyDir volume (a claim is not local)."""
    return any(
        not volume.persistent_volume_claim and (volume.source is None or "emptyDir" in volume.source)
        for volume in pod.spec.volumes
    )


def drain_filters(
    cluster: Cluster, node: str, *, ignore_daemonsets: bool, delete_emptydir_data: bool, force: bool
) -> tuple[list[Pod], list[str]]:
    """The pods a drain evicts, and the fatal errors ("cannot delete ...: ns/a, ns/b") in kubectl's order."""
    pods = sorted(
        (pod for pod in cluster.objects(Pod) if pod.spec.node_name == node),
        key=lambda pod: (pod.metadata.namespace, pod.metadata.name),
    )
    evicted: list[Pod] = []
    fatal: dict[str, list[str]] = {}
    for pod in pods:
        name = f"{pod.metadata.namespace}/{pod.metadata.name}"
        finished = is_pod_terminal(pod)
        ref = pod.metadata.controller_ref()
        daemon = ref.name if ref is not None and ref.kind == "DaemonSet" and not finished else ""
        if daemon and cluster.get(DaemonSet, f"{pod.metadata.namespace}/{daemon}") is None and not force:
            fatal.setdefault(f'daemonsets.apps "{daemon}" not found', []).append(name)  # an orphan: --force
            continue
        if daemon and cluster.get(DaemonSet, f"{pod.metadata.namespace}/{daemon}") is not None:
            if not ignore_daemonsets:
                fatal.setdefault(DAEMONSET_FATAL, []).append(name)
            continue
        if MIRROR_POD_ANNOTATION in pod.metadata.annotations:
            continue
        if not finished and has_local_storage(pod) and not delete_emptydir_data:
            fatal.setdefault(LOCAL_STORAGE_FATAL, []).append(name)
            continue
        if ref is None and not finished and not force:
            fatal.setdefault(UNMANAGED_FATAL, []).append(name)
            continue
        evicted.append(pod)
    # kubectl builds them from a Go map (no set order): here in the order the filters run.
    return evicted, [_error(message, pods) for message, pods in fatal.items()]


def _error(message: str, pods: list[str]) -> str:
    """PodDeleteList.errors as kubectl v1.34 words them: "cannot delete " before every message, its
    own "cannot delete Pods that declare no controller" too (a later kubectl says it once)."""
    return f"cannot delete {message}: {', '.join(pods)}"
