"""VolumeBinding's fix: a PersistentVolume for the claim, usable from the node."""

from scheduler_core.api.manifest_writer import node_selector_requirement_manifest
from scheduler_core.api.quantity import format_quantity
from scheduler_core.api.types import NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, ObjectMeta
from scheduler_core.api.volumes import claim_class
from scheduler_core.api.workloads import PersistentVolume, PersistentVolumeClaim, PersistentVolumeSpec
from scheduler_core.explain.suggestions.candidates import ADD_VOLUME, HOSTNAME_LABEL, SCOPE_NEW, Candidate, Rejection
from scheduler_core.scheduler.plugins.volume_binding import ERR_REASON_BIND_CONFLICT


def candidates(rejection: Rejection) -> list[Candidate]:
    inputs, pod, nodes, reasons = rejection.inputs, rejection.pod, rejection.nodes, rejection.reasons
    claims = {claim.metadata.key: claim for claim in inputs.claims}
    unbound: list[PersistentVolumeClaim] = []
    for volume in pod.spec.volumes:
        claim = (
            claims.get(f"{pod.namespace}/{volume.persistent_volume_claim}") if volume.persistent_volume_claim else None
        )
        if claim is not None and not claim.spec.volume_name:
            unbound.append(claim)
    if len(unbound) != 1:
        return []  # several claims to satisfy at once: more than one change
    claim = unbound[0]
    taken = {volume.metadata.name for volume in inputs.volumes}
    name = _new_volume_name(claim.metadata.name, taken)
    candidates: list[Candidate] = []
    for info in nodes:
        hostname = info.node.labels.get(HOSTNAME_LABEL)
        if ERR_REASON_BIND_CONFLICT not in reasons[info.name] or hostname is None:
            continue
        requirement = NodeSelectorRequirement(HOSTNAME_LABEL, "In", (hostname,))
        new_volume = PersistentVolume(
            metadata=ObjectMeta(name=name),
            spec=PersistentVolumeSpec(
                storage=claim.spec.storage,
                access_modes=claim.spec.access_modes,
                storage_class_name=claim_class(claim),
                node_affinity=NodeSelector((NodeSelectorTerm(match_expressions=(requirement,)),)),
            ),
        )
        manifest = {
            "apiVersion": "v1",
            "kind": "PersistentVolume",
            "metadata": {"name": name},
            "spec": {
                "capacity": {"storage": format_quantity("storage", claim.spec.storage)},
                "accessModes": list(claim.spec.access_modes),
                "storageClassName": claim_class(claim),
                "local": {"path": f"/mnt/{name}"},
                "nodeAffinity": {
                    "required": {
                        "nodeSelectorTerms": [{"matchExpressions": [node_selector_requirement_manifest(requirement)]}]
                    }
                },
            },
        }
        candidates.append(
            Candidate(
                ADD_VOLUME,
                f"Create a PersistentVolume {name} on node {info.name} for the claim {claim.metadata.name} "
                f"({format_quantity('storage', claim.spec.storage)}, class {claim_class(claim) or 'none'})",
                manifest,
                f"new PersistentVolume {name}",
                SCOPE_NEW,
                f"volume:{claim.metadata.key}",
                added_volumes=(new_volume,),
            )
        )
    return candidates


def _new_volume_name(claim: str, taken: set[str]) -> str:
    name, number = f"{claim}-pv", 2
    while name in taken:
        name, number = f"{claim}-pv-{number}", number + 1
    return name
