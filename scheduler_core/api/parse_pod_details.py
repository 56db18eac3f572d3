"""The parts of a pod spec and its containers that neither the scheduler nor a controller reads:
probes, command and arguments, environment, mounts, volume sources, the service account, DNS
policy and security contexts. Read into PodDetails, ContainerDetails, Probe and Volume.source with
the API server's defaults (api/pod_defaults.py), so that the API writes them back as a cluster shows
them (api/object_manifest.py) and reads them again to equal objects.

A part a manifest leaves out is the dataclass' default, shared (NO_CONTAINER_DETAILS,
NO_POD_DETAILS): the parse of the many pods that declare none of it costs one set lookup.
"""

from scheduler_core.api import quantity
from scheduler_core.api.errors import QuantityError
from scheduler_core.api.fields import Fields
from scheduler_core.api.pod_defaults import (
    DEFAULTED_POD_DETAILS,
    PULL_POLICIES,
    image_pull_policy,
    volume_source_defaults,
)
from scheduler_core.api.types import (
    DNS_CLUSTER_FIRST,
    NO_CONTAINER_DETAILS,
    NO_POD_DETAILS,
    TERMINATION_MESSAGE_PATH,
    TERMINATION_MESSAGE_READ_FILE,
    ConfigMapKeySelector,
    ContainerDetails,
    EnvFromSource,
    EnvVar,
    EnvVarSource,
    ExecAction,
    GRPCAction,
    HTTPGetAction,
    HTTPHeader,
    ObjectFieldSelector,
    PodDetails,
    Probe,
    ProbeHandler,
    ResourceFieldSelector,
    SecretKeySelector,
    TCPSocketAction,
    Volume,
    VolumeMount,
)
from scheduler_core.api.validation import dns_label_problem, subdomain_problem

PROBE_FIELDS = frozenset(
    {
        "exec", "failureThreshold", "grpc", "httpGet", "initialDelaySeconds", "periodSeconds",
        "successThreshold", "tcpSocket", "terminationGracePeriodSeconds", "timeoutSeconds",
    }
)  # fmt: skip
PROBE_HANDLERS = ("exec", "httpGet", "tcpSocket", "grpc")
CONTAINER_DETAIL_FIELDS = frozenset(
    {
        "command", "args", "workingDir", "envFrom", "env", "volumeMounts", "livenessProbe", "startupProbe",
        "terminationMessagePath", "terminationMessagePolicy", "imagePullPolicy", "securityContext",
    }
)  # fmt: skip
POD_DETAIL_FIELDS = frozenset(
    {
        "serviceAccountName", "serviceAccount", "automountServiceAccountToken", "dnsPolicy",
        "enableServiceLinks", "securityContext", "hostname", "subdomain",
    }
)  # fmt: skip
# k8s.io/api/core/v1 VolumeSource: a volume has one of these (none is emptyDir).
VOLUME_SOURCES = frozenset(
    {
        "hostPath", "emptyDir", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "secret", "nfs", "iscsi",
        "glusterfs", "persistentVolumeClaim", "rbd", "flexVolume", "cinder", "cephfs", "flocker", "downwardAPI",
        "fc", "azureFile", "configMap", "vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk",
        "projected", "portworxVolume", "scaleIO", "storageos", "csi", "ephemeral", "image",
    }
)  # fmt: skip
DNS_POLICIES = ("ClusterFirstWithHostNet", DNS_CLUSTER_FIRST, "Default", "None")
TERMINATION_MESSAGE_POLICIES = (TERMINATION_MESSAGE_READ_FILE, "FallbackToLogsOnError")
MOUNT_PROPAGATIONS = ("None", "HostToContainer", "Bidirectional")
RECURSIVE_READ_ONLY = ("Disabled", "IfPossible", "Enabled")
URI_SCHEMES = ("HTTP", "HTTPS")


def _required(fields: Fields, key: str) -> str:
    value = fields.string(key)
    if not value:
        raise fields.error(key, "Required value")
    return value


# ---------------------------------------------------------------------------- probes


def parse_probe(fields: Fields | None) -> Probe | None:
    """A probe with SetDefaults_Probe's defaults (0 counts as unset) and its one handler. A probe
    without a handler is kept (scenarios time readiness with one); the API server would refuse it."""
    if fields is None:
        return None
    fields.reject_unknown(PROBE_FIELDS)
    declared = [key for key in PROBE_HANDLERS if fields.has(key)]
    if len(declared) > 1:
        raise fields.error(declared[1], "Forbidden: may not specify more than 1 handler type")
    grace = fields.integer("terminationGracePeriodSeconds")
    if grace is not None and grace <= 0:
        raise fields.error("terminationGracePeriodSeconds", f"Invalid value: {grace}: must be greater than 0")
    return Probe(
        initial_delay_seconds=fields.int32("initialDelaySeconds", "Probe", 0, minimum=0) or 0,
        period_seconds=fields.int32("periodSeconds", "Probe", 10, minimum=0) or 10,
        success_threshold=fields.int32("successThreshold", "Probe", 1, minimum=0) or 1,
        failure_threshold=fields.int32("failureThreshold", "Probe", 3, minimum=0) or 3,
        timeout_seconds=fields.int32("timeoutSeconds", "Probe", 1, minimum=0) or 1,
        handler=_probe_handler(fields, declared[0]) if declared else None,
        termination_grace_period_seconds=grace,
    )


def _probe_handler(probe: Fields, key: str) -> ProbeHandler:
    fields = probe.object(key)
    assert fields is not None
    if key == "exec":
        fields.reject_unknown({"command"})
        return ExecAction(fields.strings("command"))
    if key == "httpGet":
        fields.reject_unknown({"path", "port", "host", "scheme", "httpHeaders"})
        headers = []
        for header in fields.objects("httpHeaders"):
            header.reject_unknown({"name", "value"})
            headers.append(HTTPHeader(_required(header, "name"), header.string("value")))
        return HTTPGetAction(
            port=_port(fields),
            path=fields.string("path") or "/",
            host=fields.string("host"),
            scheme=fields.one_of("scheme", URI_SCHEMES, default="HTTP") or "HTTP",
            http_headers=tuple(headers),
        )
    if key == "tcpSocket":
        fields.reject_unknown({"port", "host"})
        return TCPSocketAction(port=_port(fields), host=fields.string("host"))
    fields.reject_unknown({"port", "service"})
    port = fields.int32("port", "GRPCAction")
    if port is None or not 1 <= port <= 65535:
        raise fields.error("port", "Invalid value: must be between 1 and 65535, inclusive")
    return GRPCAction(port=port, service=fields.string("service"))


def _port(fields: Fields) -> int | str:
    """A probe's port: a number (1-65535) or the name of one of the container's ports."""
    port = fields.int_or_name("port")
    if port is None or port == "":
        raise fields.error("port", "Required value")
    if isinstance(port, int) and not 1 <= port <= 65535:
        raise fields.error("port", f"Invalid value: {port}: must be between 1 and 65535, inclusive")
    return port


# ---------------------------------------------------------------------------- environment


def _env_from(fields: Fields) -> EnvFromSource:
    fields.reject_unknown({"prefix", "configMapRef", "secretRef"})
    kinds = [key for key in ("configMapRef", "secretRef") if fields.has(key)]
    if len(kinds) != 1:
        problem = "may not have more than one field specified at a time" if kinds else "must specify one of: "
        raise fields.error_here(problem + ("" if kinds else "`configMapRef` or `secretRef`"))
    ref = fields.object(kinds[0])
    assert ref is not None
    ref.reject_unknown({"name", "optional"})
    return EnvFromSource(kinds[0], ref.string("name"), ref.optional_boolean("optional"), fields.string("prefix"))


def _env_var(fields: Fields) -> EnvVar:
    fields.reject_unknown({"name", "value", "valueFrom"})
    name = _required(fields, "name")
    source = fields.object("valueFrom")
    value_from = None if source is None else _env_var_source(source)
    if value_from is not None and fields.string("value"):
        raise fields.error("valueFrom", "Invalid value: may not be specified when `value` is not empty")
    return EnvVar(name, fields.string("value"), value_from)


def _env_var_source(fields: Fields) -> EnvVarSource:
    fields.reject_unknown({"fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef"})
    kinds = [key for key in ("fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef") if fields.has(key)]
    if len(kinds) != 1:
        problem = "may not have more than one field specified at a time" if kinds else "must specify one of: "
        fields_named = "" if kinds else "`fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"
        raise fields.error_here(f"Invalid value: {problem}{fields_named}")
    ref = fields.object(kinds[0])
    assert ref is not None
    if kinds[0] == "fieldRef":
        ref.reject_unknown({"apiVersion", "fieldPath"})
        return ObjectFieldSelector(_required(ref, "fieldPath"), ref.string("apiVersion") or "v1")
    if kinds[0] == "resourceFieldRef":
        ref.reject_unknown({"containerName", "resource", "divisor"})
        return ResourceFieldSelector(_required(ref, "resource"), ref.string("containerName"), _divisor(ref))
    ref.reject_unknown({"name", "key", "optional"})
    selector = ConfigMapKeySelector if kinds[0] == "configMapKeyRef" else SecretKeySelector
    return selector(ref.string("name"), _required(ref, "key"), ref.optional_boolean("optional"))


def _divisor(fields: Fields) -> str:
    raw = fields.data.get("divisor")
    if raw is None:
        return "0"
    try:
        quantity.parse_quantity(raw)
    except QuantityError as error:
        raise fields.error("divisor", f'invalid quantity "{raw}": {error}') from None
    return str(raw)


# ---------------------------------------------------------------------------- containers


def _volume_mount(fields: Fields) -> VolumeMount:
    fields.reject_unknown(
        {"name", "readOnly", "recursiveReadOnly", "mountPath", "subPath", "mountPropagation", "subPathExpr"}
    )
    return VolumeMount(
        name=_required(fields, "name"),
        mount_path=_required(fields, "mountPath"),
        read_only=fields.boolean("readOnly"),
        sub_path=fields.string("subPath"),
        sub_path_expr=fields.string("subPathExpr"),
        mount_propagation=fields.one_of("mountPropagation", MOUNT_PROPAGATIONS),
        recursive_read_only=fields.one_of("recursiveReadOnly", RECURSIVE_READ_ONLY),
    )


def parse_container_details(fields: Fields, image: str) -> ContainerDetails:
    """The container's ContainerDetails; an imagePullPolicy that is the image's default is kept as
    that default ("") so that the manifest the API writes reads back to the same object."""
    if CONTAINER_DETAIL_FIELDS.isdisjoint(fields.data):
        return NO_CONTAINER_DETAILS
    pull_policy = fields.one_of("imagePullPolicy", PULL_POLICIES, default="") or ""
    details = ContainerDetails(
        command=fields.strings("command"),
        args=fields.strings("args"),
        working_dir=fields.string("workingDir"),
        env_from=tuple(_env_from(item) for item in fields.objects("envFrom")),
        env=tuple(_env_var(item) for item in fields.objects("env")),
        volume_mounts=tuple(_volume_mount(item) for item in fields.objects("volumeMounts")),
        liveness_probe=parse_probe(fields.object("livenessProbe")),
        startup_probe=parse_probe(fields.object("startupProbe")),
        termination_message_path=fields.string("terminationMessagePath") or TERMINATION_MESSAGE_PATH,
        termination_message_policy=fields.one_of(
            "terminationMessagePolicy", TERMINATION_MESSAGE_POLICIES, default=TERMINATION_MESSAGE_READ_FILE
        )
        or TERMINATION_MESSAGE_READ_FILE,
        image_pull_policy="" if pull_policy == image_pull_policy(image) else pull_policy,
        security_context=fields.plain_object("securityContext"),
    )
    return NO_CONTAINER_DETAILS if details == NO_CONTAINER_DETAILS else details


# ---------------------------------------------------------------------------- pod spec


def parse_pod_details(fields: Fields, *, pod: bool) -> PodDetails:
    """The pod spec's PodDetails: a pod's with SetDefaults_Pod's enableServiceLinks, a template's
    without. serviceAccount, the deprecated alias, names the account when serviceAccountName does
    not (the v1 conversion's rule)."""
    undeclared = DEFAULTED_POD_DETAILS if pod else NO_POD_DETAILS
    if POD_DETAIL_FIELDS.isdisjoint(fields.data):
        return undeclared
    account = fields.string("serviceAccountName") or fields.string("serviceAccount")
    key = "serviceAccountName" if fields.string("serviceAccountName") else "serviceAccount"
    if account and (problem := subdomain_problem(account)):
        raise fields.error(key, f'Invalid value: "{account[:80]}": {problem}')
    for name_key in ("hostname", "subdomain"):
        value = fields.string(name_key)
        if value and (problem := dns_label_problem(value)):
            raise fields.error(name_key, f'Invalid value: "{value[:80]}": {problem}')
    details = PodDetails(
        service_account_name=account,
        automount_service_account_token=fields.optional_boolean("automountServiceAccountToken"),
        dns_policy=fields.one_of("dnsPolicy", DNS_POLICIES, default=DNS_CLUSTER_FIRST) or DNS_CLUSTER_FIRST,
        enable_service_links=fields.boolean("enableServiceLinks", True) if pod else _declared_links(fields),
        security_context=fields.plain_object("securityContext") or {},
        hostname=fields.string("hostname"),
        subdomain=fields.string("subdomain"),
    )
    return undeclared if details == undeclared else details


def _declared_links(fields: Fields) -> bool | None:
    return fields.optional_boolean("enableServiceLinks")


def parse_volume(fields: Fields) -> Volume:
    """A volume: its claim's name for the scheduler, and its source as declared with upstream's
    defaults, None where that is the default a Volume stands for (a bare claim, emptyDir {})."""
    fields.reject_unknown(VOLUME_SOURCES | {"name"})
    declared = [key for key, value in fields.data.items() if key != "name" and value is not None]
    if len(declared) > 1:
        raise fields.error(declared[1], "Forbidden: may not specify more than 1 volume type")
    name = _required(fields, "name")
    kind = declared[0] if declared else "emptyDir"
    claim = ""
    body = fields.plain_object(kind) or {}
    if kind == "persistentVolumeClaim":
        claim_fields = fields.object(kind)
        assert claim_fields is not None
        claim_fields.reject_unknown({"claimName", "readOnly"})
        claim = _required(claim_fields, "claimName")
        body = {"claimName": claim, **({"readOnly": True} if claim_fields.boolean("readOnly") else {})}
    source = {kind: volume_source_defaults(kind, body)}
    implied = {"persistentVolumeClaim": {"claimName": claim}} if claim else {"emptyDir": {}}
    return Volume(name=name, persistent_volume_claim=claim, source=None if source == implied else source)
