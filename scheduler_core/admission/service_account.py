"""The ServiceAccount admission plugin (plugin/pkg/admission/serviceaccount, v1.34), mutating: a pod
that names no service account gets `default`, and unless it (or its account) turns automounting
off, a projected volume `kube-api-access-<suffix>` with the account's token, the cluster's CA and
the pod's namespace, mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in every
init container and container that has nothing mounted there yet.

The engine keeps no ServiceAccount objects: every account a pod names exists, and automounts (as
`default` does). The volume's suffix is upstream's random one made repeatable: read off the run's
seed and the pod's namespace and name (api/generated_names.seeded_suffix), so a run's replay names
it the same without drawing from the run's generator. A mirror pod is left as it is.
"""

from dataclasses import replace
from typing import Any

from scheduler_core.api.generated_names import seeded_suffix
from scheduler_core.api.pod_defaults import DEFAULTED_POD_DETAILS
from scheduler_core.api.types import (
    DEFAULT_SERVICE_ACCOUNT,
    Container,
    Pod,
    PodDetails,
    Volume,
    VolumeMount,
)

TOKEN_VOLUME_PREFIX = "kube-api-access-"  # ServiceAccountVolumeName + "-"
TOKEN_MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount"  # DefaultAPITokenMountPath
MIRROR_ANNOTATION = "kubernetes.io/config.mirror"
# serviceaccount.WarnOnlyBoundTokenExpirationSeconds: an hour and seven seconds.
TOKEN_EXPIRATION_SECONDS = 3607
PROJECTED_DEFAULT_MODE = 0o644
NAMESPACE_FIELD = {"apiVersion": "v1", "fieldPath": "metadata.namespace"}


def token_volume_source() -> dict[str, Any]:
    """TokenVolumeSource(): the token, kube-root-ca.crt's ca.crt and the namespace, projected."""
    return {
        "projected": {
            "sources": [
                {"serviceAccountToken": {"expirationSeconds": TOKEN_EXPIRATION_SECONDS, "path": "token"}},
                {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
                {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": NAMESPACE_FIELD}]}},
            ],
            "defaultMode": PROJECTED_DEFAULT_MODE,
        }
    }


# One source for every pod's volume: nobody changes a stored object's data in place (the API
# writes a copy of it).
TOKEN_VOLUME_SOURCE = token_volume_source()
# The details of a pod that declares none, once named: shared by such pods.
_DEFAULTED_NAMED = replace(DEFAULTED_POD_DETAILS, service_account_name=DEFAULT_SERVICE_ACCOUNT)


def admit_service_account(pod: Pod, seed: int) -> Pod:
    if MIRROR_ANNOTATION in pod.metadata.annotations:
        return pod
    spec = pod.spec
    details = _named(spec.details)
    if details.automount_service_account_token is False:
        return pod if details is spec.details else replace(pod, spec=replace(spec, details=details))
    existing = next((volume.name for volume in spec.volumes if volume.name.startswith(TOKEN_VOLUME_PREFIX)), None)
    name = existing or TOKEN_VOLUME_PREFIX + seeded_suffix(seed, pod.namespace, pod.name)
    mount = VolumeMount(name, TOKEN_MOUNT_PATH, read_only=True)
    init_containers = tuple(_mounted(container, mount) for container in spec.init_containers)
    containers = tuple(_mounted(container, mount) for container in spec.containers)
    needs_volume = any(
        new is not old
        for new, old in zip((*init_containers, *containers), (*spec.init_containers, *spec.containers), strict=True)
    )
    volumes = spec.volumes
    if existing is None and needs_volume:
        volumes = (*volumes, Volume(name, source=TOKEN_VOLUME_SOURCE))
    spec = replace(spec, details=details, init_containers=init_containers, containers=containers, volumes=volumes)
    return replace(pod, spec=spec)


def _named(details: PodDetails) -> PodDetails:
    """The pod's service account, `default` when it names none."""
    if details.service_account_name:
        return details
    if details == DEFAULTED_POD_DETAILS:
        return _DEFAULTED_NAMED
    return replace(details, service_account_name=DEFAULT_SERVICE_ACCOUNT)


def _mounted(container: Container, mount: VolumeMount) -> Container:
    """The container with the token mounted, unless something is mounted at its path already."""
    mounts = container.details.volume_mounts
    if any(existing.mount_path == TOKEN_MOUNT_PATH for existing in mounts):
        return container
    return replace(container, details=replace(container.details, volume_mounts=(*mounts, mount)))
