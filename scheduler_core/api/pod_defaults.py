"""The API server's defaulting of pods and pod templates (k8s.io/kubernetes pkg/apis/core/v1
defaults.go and zz_generated.defaults.go at v1.34) where the dataclasses' own defaults do not
already give it.

SetDefaults_PodSpec, SetDefaults_Container and SetDefaults_Probe apply to a pod template as to a
pod: their values are the defaults of PodSpec, PodDetails, ContainerDetails and Probe (restartPolicy
Always, dnsPolicy ClusterFirst, securityContext {}, terminationGracePeriodSeconds 30, schedulerName
default-scheduler, terminationMessagePath /dev/termination-log, File, a probe's timeout 1 s...), so
a template that declares none of them is the template with them. What depends on the object is
here: a container's imagePullPolicy (its image's tag), a volume source's defaults, and
SetDefaults_Pod, which only a pod gets (enableServiceLinks, a host network pod's host ports).
"""

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from scheduler_core.api.types import NO_POD_DETAILS, Container, ContainerPort, Pod, PodDetails, PodSpec

PULL_ALWAYS, PULL_IF_NOT_PRESENT, PULL_NEVER = "Always", "IfNotPresent", "Never"
PULL_POLICIES = (PULL_ALWAYS, PULL_NEVER, PULL_IF_NOT_PRESENT)

# The distribution/reference grammar ParseNormalizedNamed reads an image with: an optional domain,
# lowercase path components, a tag, a digest.
_DOMAIN_PART = r"(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
_DOMAIN = rf"{_DOMAIN_PART}(?:\.{_DOMAIN_PART})*(?::[0-9]+)?"
_PATH_PART = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
_DIGEST = r"[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}"
_REFERENCE = re.compile(
    rf"^(?:{_DOMAIN}/)?{_PATH_PART}(?:/{_PATH_PART})*(?::(?P<tag>[\w][\w.-]{{0,127}}))?(?:@(?P<digest>{_DIGEST}))?$"
)
_HEX_IDENTIFIER = re.compile(r"^[a-f0-9]{64}$")
MAX_IMAGE_NAME_LENGTH = 255

# The modes the API server gives a secret, configMap, downwardAPI or projected volume's files
# (0644), and a projected token's lifetime (an hour), when the manifest names none.
DEFAULT_MODE = 0o644
DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600
_MODE_DEFAULTED = ("secret", "configMap", "downwardAPI", "projected")


def image_tag(image: str) -> str:
    """parsers.ParseImageName's tag: the image's, "latest" when it names neither a tag nor a
    digest, "" when it has only a digest or does not parse (a repository in capitals, a bare
    64-character hex identifier, a name over 255 characters)."""
    match = _REFERENCE.match(image)
    if match is None or _HEX_IDENTIFIER.match(image):
        return ""
    end = match.start("tag") - 1 if match["tag"] else match.start("digest") - 1 if match["digest"] else len(image)
    if end > MAX_IMAGE_NAME_LENGTH:
        return ""
    return match["tag"] or ("" if match["digest"] else "latest")


def image_pull_policy(image: str) -> str:
    """SetDefaults_Container: Always for a :latest (or untagged) image, IfNotPresent otherwise."""
    return PULL_ALWAYS if image_tag(image) == "latest" else PULL_IF_NOT_PRESENT


# ---------------------------------------------------------------------------- volumes


def volume_source_defaults(kind: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """The source `body` of a volume of that kind with SetDefaults_*VolumeSource's defaults (and
    those of the field selectors and token projections inside it). `body` is plain JSON data."""
    source = {key: value for key, value in body.items() if value is not None}  # null is unset
    if kind in _MODE_DEFAULTED:
        source.setdefault("defaultMode", DEFAULT_MODE)
    if kind == "hostPath":
        source.setdefault("type", "")  # HostPathUnset
    elif kind == "downwardAPI" and isinstance(source.get("items"), list):
        source["items"] = _downward_items(source["items"])
    elif kind == "projected" and isinstance(source.get("sources"), list):
        source["sources"] = [_projection(item) for item in source["sources"]]
    elif kind == "ephemeral":
        source = _ephemeral(source)
    return source


def _downward_items(items: list[Any]) -> list[Any]:
    return [_field_ref_defaults(item) for item in items]


def _field_ref_defaults(item: Any) -> Any:
    if not isinstance(item, Mapping) or not isinstance(item.get("fieldRef"), Mapping):
        return item
    return {**item, "fieldRef": {"apiVersion": "v1", **item["fieldRef"]}}


def _projection(item: Any) -> Any:
    if not isinstance(item, Mapping):
        return item
    projection = dict(item)
    downward = projection.get("downwardAPI")
    if isinstance(downward, Mapping) and isinstance(downward.get("items"), list):
        projection["downwardAPI"] = {**downward, "items": _downward_items(downward["items"])}
    if isinstance(projection.get("serviceAccountToken"), Mapping):
        token = projection["serviceAccountToken"]
        seconds = token.get("expirationSeconds")
        projection["serviceAccountToken"] = {
            **token,
            "expirationSeconds": DEFAULT_TOKEN_EXPIRATION_SECONDS if seconds is None else seconds,
        }
    return projection


def _ephemeral(source: dict[str, Any]) -> dict[str, Any]:
    """A generic ephemeral volume's claim template: SetDefaults_PersistentVolumeClaimSpec."""
    template = source.get("volumeClaimTemplate")
    if not isinstance(template, Mapping) or not isinstance(template.get("spec"), Mapping):
        return source
    spec = {**template["spec"], "volumeMode": template["spec"].get("volumeMode") or "Filesystem"}
    return {**source, "volumeClaimTemplate": {**template, "spec": spec}}


# ---------------------------------------------------------------------------- SetDefaults_Pod

# The details of a pod that declares none, once SetDefaults_Pod defaulted them: shared by such pods.
DEFAULTED_POD_DETAILS = replace(NO_POD_DETAILS, enable_service_links=True)


def default_pod(pod: Pod) -> Pod:
    """SetDefaults_Pod's defaults that a template does not get: enableServiceLinks true, and on the
    host's network each container port's hostPort its containerPort. (Requests defaulted to limits
    are the parser's, for templates too.)"""
    spec = default_pod_spec(pod.spec)
    return pod if spec is pod.spec else replace(pod, spec=spec)


def default_pod_spec(spec: PodSpec) -> PodSpec:
    """default_pod's spec: `spec` itself when it has them already."""
    details = _service_linked(spec.details)
    containers, init_containers = spec.containers, spec.init_containers
    if spec.host_network:
        containers = _host_network_ports(containers)
        init_containers = _host_network_ports(init_containers)
    if details is spec.details and containers is spec.containers and init_containers is spec.init_containers:
        return spec
    return replace(spec, details=details, containers=containers, init_containers=init_containers)


def _service_linked(details: PodDetails) -> PodDetails:
    if details.enable_service_links is not None:
        return details
    return DEFAULTED_POD_DETAILS if details == NO_POD_DETAILS else replace(details, enable_service_links=True)


def _host_network_ports(containers: tuple[Container, ...]) -> tuple[Container, ...]:
    if not any(port.host_port == 0 for container in containers for port in container.ports):
        return containers
    return tuple(replace(container, ports=_host_ports(container.ports)) for container in containers)


def _host_ports(ports: tuple[ContainerPort, ...]) -> tuple[ContainerPort, ...]:
    return tuple(port if port.host_port else replace(port, host_port=port.container_port) for port in ports)
