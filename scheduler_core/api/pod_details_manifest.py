"""PodDetails, ContainerDetails, probes and volume sources as the API shows them: the inverse of
api/parse_pod_details.py, in k8s.io/api's field order, empty fields left out as Go's omitempty
leaves them out, defaults written (api/pod_defaults.py). api/object_manifest.py places them in a
pod spec and its containers.
"""

from collections.abc import Mapping
from typing import Any

from scheduler_core.api.fields import plain_json
from scheduler_core.api.pod_defaults import image_pull_policy
from scheduler_core.api.types import (
    ConfigMapKeySelector,
    Container,
    EnvFromSource,
    EnvVar,
    EnvVarSource,
    ExecAction,
    GRPCAction,
    HTTPGetAction,
    ObjectFieldSelector,
    PodDetails,
    Probe,
    ProbeHandler,
    ResourceFieldSelector,
    TCPSocketAction,
    Volume,
    VolumeMount,
)

Manifest = dict[str, Any]


def _compact(fields: Mapping[str, Any]) -> Manifest:
    return {key: value for key, value in fields.items() if value is not None}


def _list(items: Any) -> list[Any] | None:
    return list(items) or None


# ---------------------------------------------------------------------------- probes


def probe_manifest(probe: Probe | None) -> Manifest | None:
    if probe is None:
        return None
    handler = {} if probe.handler is None else _handler(probe.handler)
    return _compact(
        {
            **handler,
            "initialDelaySeconds": probe.initial_delay_seconds or None,
            "timeoutSeconds": probe.timeout_seconds,
            "periodSeconds": probe.period_seconds,
            "successThreshold": probe.success_threshold,
            "failureThreshold": probe.failure_threshold,
            "terminationGracePeriodSeconds": probe.termination_grace_period_seconds,
        }
    )


def _handler(handler: ProbeHandler) -> Manifest:
    match handler:
        case ExecAction():
            return {"exec": _compact({"command": _list(handler.command)})}
        case HTTPGetAction():
            headers = _list({"name": header.name, "value": header.value} for header in handler.http_headers)
            action = {
                "path": handler.path,
                "port": handler.port,
                "host": handler.host or None,
                "scheme": handler.scheme,
                "httpHeaders": headers,
            }
            return {"httpGet": _compact(action)}
        case TCPSocketAction():
            return {"tcpSocket": _compact({"port": handler.port, "host": handler.host or None})}
        case GRPCAction():
            return {"grpc": {"port": handler.port, "service": handler.service}}


# ---------------------------------------------------------------------------- environment


def _env_from(source: EnvFromSource) -> Manifest:
    ref = _compact({"name": source.name, "optional": source.optional})
    return _compact({"prefix": source.prefix or None, source.kind: ref})


def _env_var(variable: EnvVar) -> Manifest:
    source = None if variable.value_from is None else _env_source(variable.value_from)
    return _compact({"name": variable.name, "value": variable.value or None, "valueFrom": source})


def _env_source(source: EnvVarSource) -> Manifest:
    match source:
        case ObjectFieldSelector():
            return {"fieldRef": {"apiVersion": source.api_version, "fieldPath": source.field_path}}
        case ResourceFieldSelector():
            ref = {"containerName": source.container_name or None, "resource": source.resource}
            return {"resourceFieldRef": _compact({**ref, "divisor": source.divisor})}
        case ConfigMapKeySelector():
            return {"configMapKeyRef": _key_selector(source.name, source.key, source.optional)}
        case _:
            return {"secretKeyRef": _key_selector(source.name, source.key, source.optional)}


def _key_selector(name: str, key: str, optional: bool | None) -> Manifest:
    return _compact({"name": name or None, "key": key, "optional": optional})


def _volume_mount(mount: VolumeMount) -> Manifest:
    return _compact(
        {
            "name": mount.name,
            "readOnly": mount.read_only or None,
            "recursiveReadOnly": mount.recursive_read_only,
            "mountPath": mount.mount_path,
            "subPath": mount.sub_path or None,
            "mountPropagation": mount.mount_propagation,
            "subPathExpr": mount.sub_path_expr or None,
        }
    )


# ---------------------------------------------------------------------------- containers


def container_head(container: Container) -> Manifest:
    """The fields a container manifest has before its ports: command, args, workingDir."""
    details = container.details
    return _compact(
        {
            "command": _list(details.command),
            "args": _list(details.args),
            "workingDir": details.working_dir or None,
        }
    )


def container_environment(container: Container) -> Manifest:
    """envFrom and env, which come after the ports."""
    details = container.details
    return _compact(
        {
            "envFrom": _list(_env_from(source) for source in details.env_from),
            "env": _list(_env_var(variable) for variable in details.env),
        }
    )


def container_mounts(container: Container) -> list[Manifest] | None:
    return _list(_volume_mount(mount) for mount in container.details.volume_mounts)


def container_tail(container: Container) -> Manifest:
    """What follows the readiness probe: the startup probe, the termination message, the pull
    policy (its default for the image when none was declared) and the security context."""
    details = container.details
    security = details.security_context
    return _compact(
        {
            "startupProbe": probe_manifest(details.startup_probe),
            "terminationMessagePath": details.termination_message_path,
            "terminationMessagePolicy": details.termination_message_policy,
            "imagePullPolicy": details.image_pull_policy or image_pull_policy(container.image),
            "securityContext": None if security is None else plain_json(security),
        }
    )


# ---------------------------------------------------------------------------- the pod spec


def volume_manifest(volume: Volume) -> Manifest:
    """A volume with its source; a fresh copy of it, as sources are shared between pods."""
    if volume.source is not None:
        source = plain_json(volume.source)
    elif volume.persistent_volume_claim:
        source = {"persistentVolumeClaim": {"claimName": volume.persistent_volume_claim}}
    else:
        source = {"emptyDir": {}}  # SetDefaults_Volume
    return {"name": volume.name, **source}


def service_account_fields(details: PodDetails) -> Manifest:
    """serviceAccountName, serviceAccount (the deprecated alias the v1 conversion fills in with
    it) and automountServiceAccountToken."""
    account = details.service_account_name or None
    return _compact(
        {
            "serviceAccountName": account,
            "serviceAccount": account,
            "automountServiceAccountToken": details.automount_service_account_token,
        }
    )


def host_fields(details: PodDetails) -> Manifest:
    """securityContext (always: SetDefaults_PodSpec makes it {}), hostname, subdomain."""
    return _compact(
        {
            "securityContext": plain_json(details.security_context),
            "hostname": details.hostname or None,
            "subdomain": details.subdomain or None,
        }
    )
