"""The rows of the policy, networking and storage kinds upstream's printers.go prints (Kubernetes
v1.34.1): printNamespace, printPriorityClass, printPodDisruptionBudget, printService, printIngress,
printPersistentVolume, printPersistentVolumeClaim, printStorageClass and printResourceQuota; and
the default table's row (rest.NewDefaultTableConvertor) of a kind without a printer (LimitRange).
Every row is wide, as the API server prints it."""

import math
from collections.abc import Mapping, Sequence

from scheduler_core.api.manifest_writer import format_timestamp
from scheduler_core.api.quantity import format_quantity
from scheduler_core.api.types import IntOrString, Namespace, ObjectMeta, PodDisruptionBudget, PriorityClass
from scheduler_core.api.workloads import (
    Ingress,
    IngressRule,
    PersistentVolume,
    PersistentVolumeClaim,
    ResourceQuota,
    Service,
    ServicePort,
    StorageClass,
)
from scheduler_core.kubeapi.printers_common import NONE, UNKNOWN, UNSET, Cell, age, format_labels

BETA_STORAGE_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class"
DEFAULT_CLASS_ANNOTATIONS = (
    "storageclass.kubernetes.io/is-default-class",
    "storageclass.beta.kubernetes.io/is-default-class",
)
# GetAccessModesAsString's order, whatever the object's.
ACCESS_MODES = (
    ("ReadWriteOnce", "RWO"),
    ("ReadOnlyMany", "ROX"),
    ("ReadWriteMany", "RWX"),
    ("ReadWriteOncePod", "RWOP"),
)
MAX_HOSTS = 3  # formatHosts lists three and counts the rest


def namespace_cells(namespace: Namespace, now: float) -> list[Cell]:
    phase = "Active" if namespace.metadata.deletion_timestamp is None else "Terminating"  # as object_manifest
    return [namespace.metadata.name, phase, age(namespace.metadata.creation_timestamp, now)]


def priority_class_cells(priority_class: PriorityClass, now: float) -> list[Cell]:
    return [
        priority_class.metadata.name,
        priority_class.value,
        priority_class.global_default,
        age(priority_class.metadata.creation_timestamp, now),
        priority_class.preemption_policy,
    ]


def pod_disruption_budget_cells(pdb: PodDisruptionBudget, now: float) -> list[Cell]:
    return [
        pdb.metadata.name,
        _int_or_string(pdb.spec.min_available),
        _int_or_string(pdb.spec.max_unavailable),
        pdb.status.disruptions_allowed,
        age(pdb.metadata.creation_timestamp, now),
    ]


def _int_or_string(value: IntOrString | None) -> str:
    return "N/A" if value is None else str(value)


# ---------------------------------------------------------------------------- networking


def service_cells(service: Service, now: float) -> list[Cell]:
    """printService. The engine allocates no cluster IP (a headless service's is "None") and keeps
    neither externalIPs, a load balancer's status nor an ExternalName's name."""
    spec = service.spec
    return [
        service.metadata.name,
        spec.type,
        spec.cluster_ip or NONE,
        _external_ip(spec.type),
        service_ports(spec.ports) or NONE,
        age(service.metadata.creation_timestamp, now),
        format_labels(spec.selector),
    ]


def _external_ip(service_type: str) -> str:
    """getServiceExternalIP with no externalIPs and no load-balancer ingress."""
    return {"ClusterIP": NONE, "NodePort": NONE, "LoadBalancer": "<pending>", "ExternalName": ""}.get(
        service_type, UNKNOWN
    )


def service_ports(ports: Sequence[ServicePort]) -> str:
    """makePortString: "80/TCP", "80:30080/TCP" with a node port, joined by commas."""
    return ",".join(_service_port(port) for port in ports)


def _service_port(port: ServicePort) -> str:
    if port.node_port:
        return f"{port.port}:{port.node_port}/{port.protocol}"
    return f"{port.port}/{port.protocol}"


def ingress_cells(ingress: Ingress, now: float) -> list[Cell]:
    """printIngress. The engine keeps no load-balancer status: ADDRESS is empty."""
    spec = ingress.spec
    return [
        ingress.metadata.name,
        spec.ingress_class_name or NONE,
        ingress_hosts(spec.rules),
        "",  # status.loadBalancer's addresses
        "80, 443" if spec.tls_hosts else "80",
        age(ingress.metadata.creation_timestamp, now),
    ]


def ingress_hosts(rules: Sequence[IngressRule]) -> str:
    """formatHosts: the rules' hosts, three at most and then "+ N more..." (N counts rules), "*" for none."""
    hosts: list[str] = []
    more = False
    for rule in rules:
        more = more or len(hosts) == MAX_HOSTS
        if not more and rule.host:
            hosts.append(rule.host)
    if not hosts:
        return "*"
    listed = ",".join(hosts)
    return f"{listed} + {len(rules) - MAX_HOSTS} more..." if more else listed


# ---------------------------------------------------------------------------- storage


def access_modes(modes: Sequence[str]) -> str:
    """GetAccessModesAsString: RWO, ROX, RWX, RWOP, in that order."""
    return ",".join(short for mode, short in ACCESS_MODES if mode in modes)


def persistent_volume_cells(volume: PersistentVolume, now: float) -> list[Cell]:
    """printPersistentVolume. The engine keeps no volumeAttributesClassName, status.reason nor
    volumeMode of a volume."""
    spec, meta = volume.spec, volume.metadata
    return [
        meta.name,
        format_quantity("storage", spec.storage),
        access_modes(spec.access_modes),
        spec.reclaim_policy,
        "Terminating" if meta.deletion_timestamp is not None else volume.phase,
        spec.claim_ref,  # namespace/name, as upstream joins claimRef's
        meta.annotations.get(BETA_STORAGE_CLASS_ANNOTATION, spec.storage_class_name),
        UNSET,  # spec.volumeAttributesClassName
        "",  # status.reason
        age(meta.creation_timestamp, now),
        UNSET,  # spec.volumeMode
    ]


def persistent_volume_claim_cells(claim: PersistentVolumeClaim, now: float) -> list[Cell]:
    """printPersistentVolumeClaim. The engine keeps no status.accessModes (the claim's manifest has
    none, so ACCESS MODES is empty) nor volumeAttributesClassName."""
    spec, meta = claim.spec, claim.metadata
    bound = bool(spec.volume_name)  # capacity and access modes print once bound
    return [
        meta.name,
        "Terminating" if meta.deletion_timestamp is not None else claim.status.phase,
        spec.volume_name,
        format_quantity("storage", claim.status.capacity) if bound else "",
        "",  # status.accessModes
        meta.annotations.get(BETA_STORAGE_CLASS_ANNOTATION, spec.storage_class_name or ""),
        UNSET,  # spec.volumeAttributesClassName
        age(meta.creation_timestamp, now),
        spec.volume_mode or UNSET,
    ]


def storage_class_cells(storage_class: StorageClass, now: float) -> list[Cell]:
    """printStorageClass. The engine keeps no allowVolumeExpansion: false, as upstream prints it unset."""
    meta = storage_class.metadata
    default = storage_class.is_default or any(meta.annotations.get(key) == "true" for key in DEFAULT_CLASS_ANNOTATIONS)
    return [
        f"{meta.name} (default)" if default else meta.name,
        storage_class.provisioner,
        storage_class.reclaim_policy,
        storage_class.volume_binding_mode,
        False,  # allowVolumeExpansion
        age(meta.creation_timestamp, now),
    ]


# ---------------------------------------------------------------------------- policy


def resource_quota_cells(quota: ResourceQuota, now: float) -> list[Cell]:
    """printResourceQuota: "name: used/hard" for each resource of status.hard in name order, those
    named limits.* under LIMIT, the others under REQUEST."""
    requests, limits = quota_usage(quota.hard, quota.used)
    return [quota.metadata.name, requests, limits, age(quota.metadata.creation_timestamp, now)]


def quota_usage(hard: Mapping[str, int], used: Mapping[str, int]) -> tuple[str, str]:
    requests: list[str] = []
    limits: list[str] = []
    for name in sorted(hard):
        usage = f"{name}: {format_quantity(name, used.get(name, 0))}/{format_quantity(name, hard[name])}"
        (limits if name.startswith("limits.") else requests).append(usage)
    return ", ".join(requests), ", ".join(limits)


def default_cells(meta: ObjectMeta) -> list[Cell]:
    """The default table's row: the name and creationTimestamp in RFC 3339 (whole seconds, as Go's
    time.RFC3339 layout writes them)."""
    return [meta.name, format_timestamp(math.floor(meta.creation_timestamp))]
