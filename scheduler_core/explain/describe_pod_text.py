"""`kubectl describe pod` as kubectl v1.34 prints it (k8s.io/kubectl/pkg/describe describePod and
what it calls: describeContainers, describeStatus, describeVolumes, printLabelsMultiline,
printPodTolerationsMultiline, describeTopologySpreadConstraints, DescribeEvents), aligned by its
tabwriter.

kubectl describes the pod the API returns, so this reads the same manifest the API serves
(api/object_manifest.py, timestamps from `epoch` as kubeapi's ApiSnapshot writes them) and prints
what kubectl prints of it: the service account, probes, command, environment, mounts and volumes
as a cluster serves them; a field the engine has no value for is absent there, and prints as
kubectl prints it absent (no hostIP: `Node: worker1/`; no pod IP: `IP:` empty and `IPs: <none>`; a
container status without containerID or imageID: those lines empty; a probe declared without a
handler: `unknown delay=0s timeout=1s ...`).

The events are the ones `kubectl describe` finds for the pod (its name, namespace and UID), each
row as the API serves it (kubeapi/objects.py event_manifest: the scheduler's with an eventTime and
a series, the others with first and last timestamps and a count), in the API's order, then sorted
as DescribeEvents sorts them: by lastTimestamp, which the scheduler's events do not have, so they
come first. Repeats are counted over the pod's own events (as describe_node's are), which is the
API's count unless more than 4,096 other objects' events came between two of them.

Ages count from `now` (simulated seconds) as kubectl counts them from its clock: `now + epoch`.
Times print in UTC, as describe_text.rfc1123z prints them (kubectl prints them in its machine's
zone: the same text where that zone is UTC).
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from math import ceil
from typing import Any
from urllib.parse import quote

from scheduler_core.api.manifest_writer import format_timestamp, timestamps_from
from scheduler_core.api.object_manifest import object_manifest
from scheduler_core.api.quantity import parse_quantity
from scheduler_core.api.types import LabelSelector, LabelSelectorRequirement, Pod
from scheduler_core.explain.describe_meta import described_annotations
from scheduler_core.explain.describe_text import INDENT, annotation_lines, event_lines, listed, rfc1123z
from scheduler_core.explain.go_sort import go_sorted
from scheduler_core.explain.object_events import DescribedEvent
from scheduler_core.explain.selector_text import format_label_selector
from scheduler_core.explain.tabwriter import tabbed
from scheduler_core.store.cluster import Cluster
from scheduler_core.store.event_correlation import (
    SCHEDULER_SOURCES,
    EventCorrelator,
    EventRow,
    event_rows,
    human_duration,
)
from scheduler_core.store.events import object_ref

Manifest = Mapping[str, Any]
LEVEL_1, LEVEL_2, LEVEL_3 = INDENT, INDENT * 2, INDENT * 3
UNKNOWN_AGE = "<unknown>"  # translateTimestampSince of Go's zero time
TERMINAL_PHASES = ("Failed", "Succeeded")
QOS_RESOURCES = ("cpu", "memory")
MIRROR_ANNOTATION = "kubernetes.io/config.mirror"


@dataclass(frozen=True, slots=True)
class EventFields:
    """The fields of a core/v1 Event that DescribeEvents reads. Times are Unix seconds, None where
    the API leaves them empty (Go's zero time)."""

    type: str
    reason: str
    message: str
    source_component: str = ""  # source.component
    reporting_controller: str = ""  # reportingComponent
    event_time: float | None = None  # an events.k8s.io reporter's
    first_timestamp: float | None = None  # a client-go recorder's, as are the next two
    last_timestamp: float | None = None
    count: int = 0
    series: tuple[int, float | None] | None = None  # series.count, series.lastObservedTime


def pod_text(cluster: Cluster, pod: Pod, now: float, epoch: float = 0.0) -> str:
    """`kubectl describe pod NAME` of the pod at simulated time `now`, with simulated second 0 at
    Unix second `epoch` (the API's timestamps)."""
    with timestamps_from(epoch):
        manifest = object_manifest(pod)
        events = pod_events(cluster, pod)
    return describe_pod_manifest(manifest, events, now + epoch)


def pod_events(cluster: Cluster, pod: Pod) -> list[EventFields]:
    """The pod's events as the API lists them for kubectl's field selector (involvedObject name,
    namespace and uid), in its order (by name: the pod's name and the row's first seq). Times are
    written as the API writes them: call inside timestamps_from(epoch)."""
    ref = object_ref("Pod", pod.namespace, pod.name)
    # a mirror pod's events are its static pod's, named by the annotation (PodDescriber)
    uid = pod.metadata.annotations.get(MIRROR_ANNOTATION, pod.metadata.uid)
    own = [event for event in cluster.events if event.object == ref and (event.uid == uid or not uid)]
    correlator = EventCorrelator()
    rows = event_rows([(event, correlator.observe(event)) for event in own])
    return [_event_fields(row) for row in sorted(rows, key=lambda row: row.first.seq)]


def _event_fields(row: EventRow) -> EventFields:
    """The row as kubeapi's event_manifest serves it: the scheduler's through events.k8s.io (an
    eventTime, a series from the second, no source or timestamps), the others through client-go's
    recorder (first and last timestamps, a count)."""
    first, last, source = _api_time(row.first.time), _api_time(row.last.time), row.first.source
    if source in SCHEDULER_SOURCES:
        series = (row.count, last) if row.count > 1 else None
        return EventFields(row.first.type, row.first.reason, row.message, "", source, event_time=first, series=series)
    return EventFields(
        row.first.type,
        row.first.reason,
        row.message,
        source,
        source,
        first_timestamp=first,
        last_timestamp=last,
        count=row.count,
    )


def _api_time(seconds: float) -> float | None:
    """A simulated time as kubectl reads it back from the API's text (to the microsecond)."""
    return _seconds(format_timestamp(seconds))


def describe_pod_manifest(pod: Manifest, events: list[EventFields] | None, clock: float) -> str:
    """describePod of a pod manifest (as the API serves it), with its events (None: not shown) and
    kubectl's clock `clock` (Unix seconds) for ages."""
    meta, spec, status = _map(pod, "metadata"), _map(pod, "spec"), _map(pod, "status")
    lines = [
        f"Name:\t{meta.get('name', '')}",
        f"Namespace:\t{meta.get('namespace', '')}",
        *_scheduling_lines(spec),
        *_node_lines(spec, status),
        *listed("Labels", _pairs(_map(meta, "labels"))),
        *annotation_lines("Annotations", described_annotations(_map(meta, "annotations"))),
        *_status_lines(meta, status, clock),
        *_seccomp_lines(_map(spec, "securityContext"), ""),
        f"IP:\t{status.get('podIP', '')}",
        *_ip_lines(_list(status, "podIPs")),
        *_controller_lines(meta),
        *_nominated_lines(status),
        *_pod_resources_lines(spec),
        *_all_containers_lines(pod, spec, status),
        *_readiness_gate_lines(spec, status),
        *_condition_lines(status),
        *volume_lines(_list(spec, "volumes")),
        f"QoS Class:\t{status.get('qosClass') or compute_qos(spec)}",
        *listed("Node-Selectors", _pairs(_map(spec, "nodeSelector"))),
        *listed("Tolerations", tolerations_text(_list(spec, "tolerations"))),
        *spread_constraint_lines(_list(spec, "topologySpreadConstraints")),
        *(describe_events(events, clock) if events is not None else []),
    ]
    return tabbed(escape_terminal("\n".join(lines) + "\n"))


# ---------------------------------------------------------------------------- small readers


def _map(parent: Manifest, key: str) -> Manifest:
    value = parent.get(key)
    return value if isinstance(value, Mapping) else {}


def _list(parent: Manifest, key: str) -> list[Any]:
    value = parent.get(key)
    return value if isinstance(value, list) else []


def _pairs(mapping: Manifest) -> list[str]:
    """A map's `key=value` lines, by key (printLabelsMultiline)."""
    return [f"{key}={value}" for key, value in sorted(mapping.items())]


def _seconds(text: object) -> float | None:
    """A metav1.Time (or MicroTime) as Unix seconds; None for Go's zero time (absent or null)."""
    if not isinstance(text, str) or not text:
        return None
    return datetime.fromisoformat(text).timestamp()


def _time(text: object) -> str:
    """A time as describe prints it (RFC 1123 with a numeric zone), Go's zero time when absent."""
    return rfc1123z(_seconds(text))


def since(seconds: float | None, clock: float) -> str:
    """translateTimestampSince: the age at `clock`, <unknown> for Go's zero time."""
    return UNKNOWN_AGE if seconds is None else human_duration(clock - seconds)


def _bool(value: object) -> str:
    """printBool."""
    return "True" if value is True else "False"


def escape_terminal(text: str) -> str:
    """printers.WriteEscaped: an escape or carriage return in a value cannot act on the terminal."""
    return text.replace("\x1b", "^[").replace("\r", "\\r")


# ---------------------------------------------------------------------------- the pod's lines


def _scheduling_lines(spec: Manifest) -> list[str]:
    lines = []
    if spec.get("priority") is not None:
        lines.append(f"Priority:\t{spec['priority']}")
    if spec.get("priorityClassName"):
        lines.append(f"Priority Class Name:\t{spec['priorityClassName']}")
    if spec.get("runtimeClassName"):
        lines.append(f"Runtime Class Name:\t{spec['runtimeClassName']}")
    if spec.get("serviceAccountName"):
        lines.append(f"Service Account:\t{spec['serviceAccountName']}")
    return lines


def _node_lines(spec: Manifest, status: Manifest) -> list[str]:
    node = spec.get("nodeName", "")
    lines = [f"Node:\t{node}/{status.get('hostIP', '')}" if node else "Node:\t<none>"]
    if status.get("startTime"):
        lines.append(f"Start Time:\t{_time(status['startTime'])}")
    return lines


def _status_lines(meta: Manifest, status: Manifest, clock: float) -> list[str]:
    phase = status.get("phase", "")
    if meta.get("deletionTimestamp") and phase not in TERMINAL_PHASES:
        # the API's deletionTimestamp is when the grace period ends: still ahead while it runs,
        # which kubectl prints as <invalid>
        lines = [
            f"Status:\tTerminating (lasts {since(_seconds(meta['deletionTimestamp']), clock)})",
            f"Termination Grace Period:\t{meta.get('deletionGracePeriodSeconds', 0)}s",
        ]
    else:
        lines = [f"Status:\t{phase}"]
    if status.get("reason"):
        lines.append(f"Reason:\t{status['reason']}")
    if status.get("message"):
        lines.append(f"Message:\t{status['message']}")
    return lines


def _seccomp_lines(security_context: Manifest, indent: str) -> list[str]:
    """The pod's (indent "") or a container's (LEVEL_2) seccomp profile; a container's localhost
    profile one level further in."""
    profile = security_context.get("seccompProfile")
    if not isinstance(profile, Mapping):
        return []
    lines = [f"{indent}SeccompProfile:\t{profile.get('type', '')}"]
    if profile.get("type") == "Localhost":
        inner = indent + INDENT if indent else ""
        lines.append(f"{inner}LocalhostProfile:\t{profile.get('localhostProfile', '')}")
    return lines


def _ip_lines(ips: list[Any]) -> list[str]:
    if not ips:
        return ["IPs:\t<none>"]
    return ["IPs:", *(f"{LEVEL_1}IP:\t{ip.get('ip', '')}" for ip in ips)]


def _controller_lines(meta: Manifest) -> list[str]:
    """printController: the owner reference marked controller."""
    for ref in _list(meta, "ownerReferences"):
        if ref.get("controller") is True:
            return [f"Controlled By:\t{ref.get('kind', '')}/{ref.get('name', '')}"]
    return []


def _nominated_lines(status: Manifest) -> list[str]:
    nominated = status.get("nominatedNodeName")
    return [f"NominatedNodeName:\t{nominated}"] if nominated else []


def _pod_resources_lines(spec: Manifest) -> list[str]:
    """Pod-level resources, when the pod sets them."""
    if not isinstance(spec.get("resources"), Mapping):
        return []
    return ["Resources:", *resource_lines(spec["resources"], LEVEL_1)]


def _readiness_gate_lines(spec: Manifest, status: Manifest) -> list[str]:
    gates = _list(spec, "readinessGates")
    if not gates:
        return []
    conditions = _list(status, "conditions")
    lines = ["Readiness Gates:", f"{LEVEL_1}Type\tStatus"]
    for gate in gates:
        wanted = gate.get("conditionType", "")
        found = next((c.get("status", "") for c in conditions if c.get("type") == wanted), "<none>")
        lines.append(f"{LEVEL_1}{wanted} \t{found} ")
    return lines


def _condition_lines(status: Manifest) -> list[str]:
    conditions = _list(status, "conditions")
    if not conditions:
        return []
    rows = (f"{LEVEL_1}{c.get('type', '')} \t{c.get('status', '')} " for c in conditions)
    return ["Conditions:", f"{LEVEL_1}Type\tStatus", *rows]


def compute_qos(spec: Manifest) -> str:
    """ComputePodQOS, for a pod whose status carries no qosClass: only CPU and memory count;
    Guaranteed when every container limits both and requests equal limits, BestEffort when none
    asks for either; pod-level resources, when set, decide alone."""
    pod_level = spec.get("resources")
    if isinstance(pod_level, Mapping):
        requirements, limits_required = [pod_level], isinstance(pod_level.get("limits"), Mapping)
    else:
        containers = [*_list(spec, "containers"), *_list(spec, "initContainers")]
        requirements, limits_required = [_map(container, "resources") for container in containers], True
    requests: dict[str, Fraction] = {}
    limits: dict[str, Fraction] = {}
    guaranteed = True
    for resources in requirements:
        _add_positive(requests, _map(resources, "requests"))
        _add_positive(limits, _map(resources, "limits"))
        limited = {name for name, amount in _map(resources, "limits").items() if _positive(name, amount)}
        if limits_required and not limited >= set(QOS_RESOURCES):
            guaranteed = False
    if not requests and not limits:
        return "BestEffort"
    equal = all(limits.get(name) == amount for name, amount in requests.items())
    return "Guaranteed" if guaranteed and equal and len(requests) == len(limits) else "Burstable"


def _positive(name: str, amount: object) -> bool:
    return name in QOS_RESOURCES and parse_quantity(str(amount)) > 0


def _add_positive(total: dict[str, Fraction], amounts: Manifest) -> None:
    for name, amount in amounts.items():
        if _positive(name, amount):
            total[name] = total.get(name, Fraction(0)) + parse_quantity(str(amount))


def tolerations_text(tolerations: list[Any]) -> list[str]:
    """printTolerationsMultilineWithIndent's lines, by key (Go's sort.Slice, unstable)."""
    ordered = go_sorted(tolerations, lambda a, b: str(a.get("key", "")) < str(b.get("key", "")))
    return [toleration_line(toleration) for toleration in ordered]


def toleration_line(toleration: Manifest) -> str:
    """key, =value, :effect, op=Exists when it matches any value, and `for Ns` for
    tolerationSeconds."""
    key, value, effect = (str(toleration.get(field, "")) for field in ("key", "value", "effect"))
    text = key + (f"={value}" if value else "") + (f":{effect}" if effect else "")
    if toleration.get("operator") == "Exists" and not value:
        text += " op=Exists" if key or effect else "op=Exists"
    if toleration.get("tolerationSeconds") is not None:
        text += f" for {toleration['tolerationSeconds']}s"
    return text


def spread_constraint_lines(constraints: list[Any]) -> list[str]:
    """describeTopologySpreadConstraints: by topology key, the rest under the first's value."""
    if not constraints:
        return []
    ordered = go_sorted(constraints, lambda a, b: str(a.get("topologyKey", "")) < str(b.get("topologyKey", "")))
    texts = [_spread_constraint(constraint) for constraint in ordered]
    return [f"Topology Spread Constraints:\t{texts[0]}", *(f"\t{text}" for text in texts[1:])]


def _spread_constraint(constraint: Manifest) -> str:
    text = (
        f"{constraint.get('topologyKey', '')}:{constraint.get('whenUnsatisfiable', '')} "
        f"when max skew {constraint.get('maxSkew', 0)} is exceeded"
    )
    if isinstance(constraint.get("labelSelector"), Mapping):
        text += f" for selector {format_label_selector(_label_selector(constraint['labelSelector']))}"
    return text


def _label_selector(selector: Manifest) -> LabelSelector:
    expressions = tuple(
        LabelSelectorRequirement(e.get("key", ""), e.get("operator", ""), tuple(e.get("values") or ()))
        for e in _list(selector, "matchExpressions")
    )
    return LabelSelector(dict(_map(selector, "matchLabels")), expressions)


# ---------------------------------------------------------------------------- containers


def _all_containers_lines(pod: Manifest, spec: Manifest, status: Manifest) -> list[str]:
    lines = []
    if _list(spec, "initContainers"):
        lines += containers_lines(
            "Init Containers", _list(spec, "initContainers"), _list(status, "initContainerStatuses"), pod
        )
    lines += containers_lines("Containers", _list(spec, "containers"), _list(status, "containerStatuses"), pod)
    if _list(spec, "ephemeralContainers"):
        lines += containers_lines(
            "Ephemeral Containers", _list(spec, "ephemeralContainers"), _list(status, "ephemeralContainerStatuses"), pod
        )
    return lines


def containers_lines(
    title: str, containers: list[Any], statuses: list[Any], pod: Manifest, space: str = ""
) -> list[str]:
    """describeContainers: each container with its status when the kubelet reported one. A pod
    template's (DescribePodTemplate) come with `space` before the title and their names one space
    further in, and with no pod to resolve an environment variable's field against (`pod` {})."""
    by_name = {status.get("name"): status for status in statuses}
    lines = [f"{space}{title}:{'' if containers else ' <none>'}"]
    for container in containers:
        status = by_name.get(container.get("name"))
        lines += _basic_lines(container, status, " " if space else "")
        lines += _command_lines(container)
        if status is not None:
            lines += _state_lines(status)
        lines += resource_lines(_map(container, "resources"), LEVEL_2)
        lines += _probe_lines(container)
        if _list(container, "envFrom"):
            lines += _env_from_lines(container)
        lines += _env_lines(container, pod)
        lines += _mount_lines(container)
    return lines


def _basic_lines(container: Manifest, status: Manifest | None, name_indent: str) -> list[str]:
    ports = _list(container, "ports")
    lines = [f"{LEVEL_1}{name_indent}{container.get('name', '')}:"]
    if status is not None:
        lines.append(f"{LEVEL_2}Container ID:\t{status.get('containerID', '')}")
    lines.append(f"{LEVEL_2}Image:\t{container.get('image', '')}")
    if status is not None:
        lines.append(f"{LEVEL_2}Image ID:\t{status.get('imageID', '')}")
    lines.append(_ports_line("Port", ports_text(ports, "containerPort")))
    lines.append(_ports_line("Host Port", ports_text(ports, "hostPort")))
    lines += _seccomp_lines(_map(container, "securityContext"), LEVEL_2)
    return lines


def ports_text(ports: list[Any], field: str) -> str:
    """describeContainerPorts (containerPort) and describeContainerHostPorts (hostPort):
    `8080/TCP (http)`, joined by commas."""
    texts = []
    for port in ports:
        text = f"{port.get(field, 0)}/{port.get('protocol', '')}"
        texts.append(f"{text} ({port['name']})" if port.get("name") else text)
    return ", ".join(texts)


def _ports_line(title: str, text: str) -> str:
    """`Ports:` when there are several (a comma in the text), else `Port:`, <none> for none."""
    if "," in text:
        return f"{LEVEL_2}{title}s:\t{text}"
    return f"{LEVEL_2}{title}:\t{text or '<none>'}"


def _command_lines(container: Manifest) -> list[str]:
    lines = []
    for key, title in (("command", "Command"), ("args", "Args")):
        words = _list(container, key)
        if words:
            lines.append(f"{LEVEL_2}{title}:")
            lines += [f"{LEVEL_3}{part}" for word in words for part in str(word).split("\n")]
    return lines


def _state_lines(status: Manifest) -> list[str]:
    """describeContainerState: State, Last State when the last one terminated, Ready, restarts."""
    lines = state_lines("State", _map(status, "state"))
    last = _map(status, "lastState")
    if isinstance(last.get("terminated"), Mapping):
        lines += state_lines("Last State", last)
    lines.append(f"{LEVEL_2}Ready:\t{_bool(status.get('ready'))}")
    lines.append(f"{LEVEL_2}Restart Count:\t{status.get('restartCount', 0)}")
    return lines


def state_lines(title: str, state: Manifest) -> list[str]:
    """describeStatus: running, else waiting, else terminated, else (no state) waiting."""
    if isinstance(state.get("running"), Mapping):
        return [f"{LEVEL_2}{title}:\tRunning", f"{LEVEL_3}Started:\t{_time(state['running'].get('startedAt'))}"]
    if isinstance(state.get("waiting"), Mapping):
        reason = state["waiting"].get("reason")
        return [f"{LEVEL_2}{title}:\tWaiting", *([f"{LEVEL_3}Reason:\t{reason}"] if reason else [])]
    if isinstance(state.get("terminated"), Mapping):
        return _terminated_lines(title, state["terminated"])
    return [f"{LEVEL_2}{title}:\tWaiting"]


def _terminated_lines(title: str, terminated: Manifest) -> list[str]:
    lines = [f"{LEVEL_2}{title}:\tTerminated"]
    if terminated.get("reason"):
        lines.append(f"{LEVEL_3}Reason:\t{terminated['reason']}")
    if terminated.get("message"):
        lines.append(f"{LEVEL_3}Message:\t{terminated['message']}")
    lines.append(f"{LEVEL_3}Exit Code:\t{terminated.get('exitCode', 0)}")
    if terminated.get("signal", 0) > 0:
        lines.append(f"{LEVEL_3}Signal:\t{terminated['signal']}")
    lines.append(f"{LEVEL_3}Started:\t{_time(terminated.get('startedAt'))}")
    lines.append(f"{LEVEL_3}Finished:\t{_time(terminated.get('finishedAt'))}")
    return lines


def resource_lines(resources: Manifest, level: str) -> list[str]:
    """describeResources: Limits then Requests, each by resource name."""
    lines = []
    for key, title in (("limits", "Limits"), ("requests", "Requests")):
        amounts = _map(resources, key)
        if amounts:
            lines.append(f"{level}{title}:")
            lines += [f"{level}{INDENT}{name}:\t{amount}" for name, amount in sorted(amounts.items())]
    return lines


def _probe_lines(container: Manifest) -> list[str]:
    lines = []
    for key, title in (("livenessProbe", "Liveness"), ("readinessProbe", "Readiness"), ("startupProbe", "Startup")):
        if isinstance(container.get(key), Mapping):
            lines.append(f"{LEVEL_2}{title}:\t{probe_text(container[key])}")
    return lines


def probe_text(probe: Manifest) -> str:
    """DescribeProbe: the handler, then its timings as the object has them (0 where absent)."""
    attributes = (
        f"delay={probe.get('initialDelaySeconds', 0)}s timeout={probe.get('timeoutSeconds', 0)}s "
        f"period={probe.get('periodSeconds', 0)}s #success={probe.get('successThreshold', 0)} "
        f"#failure={probe.get('failureThreshold', 0)}"
    )
    if isinstance(probe.get("exec"), Mapping):
        return f"exec [{' '.join(str(word) for word in _list(probe['exec'], 'command'))}] {attributes}"
    if isinstance(probe.get("httpGet"), Mapping):
        return f"http-get {_http_url(probe['httpGet'])} {attributes}"
    if isinstance(probe.get("tcpSocket"), Mapping):
        socket = probe["tcpSocket"]
        return f"tcp-socket {socket.get('host', '')}:{socket.get('port', '')} {attributes}"
    if isinstance(probe.get("grpc"), Mapping):
        grpc = probe["grpc"]
        return f"grpc <pod>:{grpc.get('port', 0)} {grpc.get('service', '')} {attributes}"
    return f"unknown {attributes}"


def _http_url(action: Manifest) -> str:
    """net/url's String of the probe's scheme (lower case), host:port and path (escaped as a path)."""
    host, port = str(action.get("host", "")), str(action.get("port", ""))
    if port:
        host = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    scheme = str(action.get("scheme", "")).lower()
    path = quote(str(action.get("path", "")), safe="/$&+,:;=@")
    text = f"{scheme}:" if scheme else ""
    if scheme or host:
        text += f"//{host}" if host or path else host
    if path and not path.startswith("/") and host:
        text += "/"
    return text + path


def _env_from_lines(container: Manifest) -> list[str]:
    lines = [f"{LEVEL_2}Environment Variables from:"]
    for source in _list(container, "envFrom"):
        kind, ref = "", {}
        if isinstance(source.get("configMapRef"), Mapping):
            kind, ref = "ConfigMap", source["configMapRef"]
        elif isinstance(source.get("secretRef"), Mapping):
            kind, ref = "Secret", source["secretRef"]
        optional = "true" if ref.get("optional") is True else "false"
        prefix = source.get("prefix", "")
        described = f"{kind} with prefix '{prefix}'" if prefix else kind
        lines.append(f"{LEVEL_3}{ref.get('name', '')}\t{described}\tOptional: {optional}")
    return lines


def _env_lines(container: Manifest, pod: Manifest) -> list[str]:
    variables = _list(container, "env")
    none = "" if variables else "\t<none>"
    lines = [f"{LEVEL_2}Environment:{none}"]
    for variable in variables:
        name, source = variable.get("name", ""), variable.get("valueFrom")
        if not isinstance(source, Mapping):
            parts = str(variable.get("value", "")).split("\n")
            lines += [f"{LEVEL_3}{name}:\t{parts[0]}", *(f"{LEVEL_3}\t{part}" for part in parts[1:])]
        elif line := _env_source_line(name, source, container, pod):
            lines.append(line)
    return lines


def _env_source_line(name: str, source: Manifest, container: Manifest, pod: Manifest) -> str:
    if isinstance(source.get("fieldRef"), Mapping):
        ref = source["fieldRef"]
        value = field_path_value(pod, str(ref.get("fieldPath", "")))
        return f"{LEVEL_3}{name}:\t{value} ({ref.get('apiVersion', '')}:{ref.get('fieldPath', '')})"
    if isinstance(source.get("resourceFieldRef"), Mapping):
        ref = source["resourceFieldRef"]
        resource = str(ref.get("resource", ""))
        value = container_resource_value(container, resource, str(ref.get("divisor", "") or "1"))
        if value == "0" and resource in ("limits.cpu", "limits.memory"):
            value = "node allocatable"
        return f"{LEVEL_3}{name}:\t{value} ({resource})"
    for key, words in (("secretKeyRef", "in secret"), ("configMapKeyRef", "of config map")):
        if isinstance(source.get(key), Mapping):
            ref = source[key]
            optional = "true" if ref.get("optional") is True else "false"
            return (
                f"{LEVEL_3}{name}:\t<set to the key '{ref.get('key', '')}' {words} '{ref.get('name', '')}'>"
                f"\tOptional: {optional}"
            )
    return ""


def field_path_value(pod: Manifest, path: str) -> str:
    """EnvValueRetriever: kubectl's scheme converts no field label of a pod but the two every kind
    has, so only the pod's name and namespace resolve; any other field prints empty."""
    if path in ("metadata.name", "metadata.namespace"):
        return str(_map(pod, "metadata").get(path.removeprefix("metadata."), ""))
    return ""


def container_resource_value(container: Manifest, resource: str, divisor: str) -> str:
    """ExtractContainerResourceValue: the container's limit or request in units of the divisor,
    rounded up (CPU counted in millicores)."""
    kind, _, name = resource.partition(".")
    amount = parse_quantity(str(_map(_map(container, "resources"), kind).get(name, "0")))
    per = parse_quantity(divisor)
    if not per:
        return ""
    if name == "cpu":
        return str(ceil(ceil(amount * 1000) / ceil(per * 1000)))
    return str(ceil(ceil(amount) / ceil(per)))


def _mount_lines(container: Manifest) -> list[str]:
    mounts = _list(container, "volumeMounts")
    none = "" if mounts else "\t<none>"
    lines = [f"{LEVEL_2}Mounts:{none}"]
    for mount in go_sorted(mounts, lambda a, b: str(a.get("mountPath", "")) < str(b.get("mountPath", ""))):
        flags = ["ro" if mount.get("readOnly") is True else "rw"]
        if mount.get("subPath"):
            flags.append(f'path="{mount["subPath"]}"')
        lines.append(f"{LEVEL_3}{mount.get('mountPath', '')} from {mount.get('name', '')} ({','.join(flags)})")
    devices = _list(container, "volumeDevices")
    if devices:
        lines.append(f"{LEVEL_2}Devices:{none}")
        for device in go_sorted(devices, lambda a, b: str(a.get("devicePath", "")) < str(b.get("devicePath", ""))):
            lines.append(f"{LEVEL_3}{device.get('devicePath', '')} from {device.get('name', '')}")
    return lines


# ---------------------------------------------------------------------------- volumes


def volume_lines(volumes: list[Any], space: str = "") -> list[str]:
    """describeVolumes: each volume's source as kubectl words it; a source this port does not
    know as `<unknown>`. A pod template's come with `space` before the title and their names one
    space further in."""
    if not volumes:
        return [f"{space}Volumes:\t<none>"]
    lines = [f"{space}Volumes:"]
    name_indent = " " if space else ""
    for volume in volumes:
        lines.append(f"{LEVEL_1}{name_indent}{volume.get('name', '')}:")
        lines += _volume_source_lines(volume)
    return lines


def _volume_source_lines(volume: Manifest) -> list[str]:
    for key, describe in VOLUME_SOURCES.items():
        if isinstance(volume.get(key), Mapping):
            return describe(volume[key])
    return [f"{LEVEL_1}<unknown>"]


def _optional(source: Manifest) -> str:
    return "true" if source.get("optional") is True else "false"


def _host_path(source: Manifest) -> list[str]:
    kind = source.get("type")
    return [
        f"{LEVEL_2}Type:\tHostPath (bare host directory volume)",
        f"{LEVEL_2}Path:\t{source.get('path', '')}",
        f"{LEVEL_2}HostPathType:\t{kind if kind is not None else '<none>'}",
    ]


def _empty_dir(source: Manifest) -> list[str]:
    limit = source.get("sizeLimit")
    limited = limit is not None and parse_quantity(str(limit)) > 0
    return [
        f"{LEVEL_2}Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)",
        f"{LEVEL_2}Medium:\t{source.get('medium', '')}",
        f"{LEVEL_2}SizeLimit:\t{limit if limited else '<unset>'}",
    ]


def _secret(source: Manifest) -> list[str]:
    return [
        f"{LEVEL_2}Type:\tSecret (a volume populated by a Secret)",
        f"{LEVEL_2}SecretName:\t{source.get('secretName', '')}",
        f"{LEVEL_2}Optional:\t{_optional(source)}",
    ]


def _config_map(source: Manifest) -> list[str]:
    return [
        f"{LEVEL_2}Type:\tConfigMap (a volume populated by a ConfigMap)",
        f"{LEVEL_2}Name:\t{source.get('name', '')}",
        f"{LEVEL_2}Optional:\t{_optional(source)}",
    ]


def _claim(source: Manifest) -> list[str]:
    return [
        f"{LEVEL_2}Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)",
        f"{LEVEL_2}ClaimName:\t{source.get('claimName', '')}",
        f"{LEVEL_2}ReadOnly:\t{'true' if source.get('readOnly') is True else 'false'}",
    ]


def _downward_api(source: Manifest) -> list[str]:
    lines = [f"{LEVEL_2}Type:\tDownwardAPI (a volume populated by information about the pod)", f"{LEVEL_2}Items:"]
    for item in _list(source, "items"):
        for key, field in (("fieldRef", "fieldPath"), ("resourceFieldRef", "resource")):
            if isinstance(item.get(key), Mapping):
                lines.append(f"{LEVEL_3}{item[key].get(field, '')} -> {item.get('path', '')}")
    return lines


def _projected(source: Manifest) -> list[str]:
    lines = [f"{LEVEL_2}Type:\tProjected (a volume that contains injected data from multiple sources)"]
    for projection in _list(source, "sources"):
        if isinstance(projection.get("secret"), Mapping):
            secret = projection["secret"]
            lines += [f"{LEVEL_2}SecretName:\t{secret.get('name', '')}", f"{LEVEL_2}Optional:\t{_optional(secret)}"]
        elif isinstance(projection.get("downwardAPI"), Mapping):
            lines.append(f"{LEVEL_2}DownwardAPI:\ttrue")
        elif isinstance(projection.get("configMap"), Mapping):
            config_map = projection["configMap"]
            lines += [
                f"{LEVEL_2}ConfigMapName:\t{config_map.get('name', '')}",
                f"{LEVEL_2}Optional:\t{_optional(config_map)}",
            ]
        elif isinstance(projection.get("serviceAccountToken"), Mapping):
            seconds = projection["serviceAccountToken"].get("expirationSeconds", 0)
            lines.append(f"{LEVEL_2}TokenExpirationSeconds:\t{seconds}")
    return lines


def _image(source: Manifest) -> list[str]:
    return [
        f"{LEVEL_2}Type:\tImage (a container image or OCI artifact)",
        f"{LEVEL_2}Reference:\t{source.get('reference', '')}",
        f"{LEVEL_2}PullPolicy:\t{source.get('pullPolicy', '')}",
    ]


# In describeVolumes' order of checks (a valid volume has one source).
VOLUME_SOURCES: dict[str, Callable[[Manifest], list[str]]] = {
    "hostPath": _host_path,
    "emptyDir": _empty_dir,
    "secret": _secret,
    "configMap": _config_map,
    "persistentVolumeClaim": _claim,
    "downwardAPI": _downward_api,
    "projected": _projected,
    "image": _image,
}


# ---------------------------------------------------------------------------- events


def describe_events(events: Iterable[EventFields], clock: float) -> list[str]:
    """DescribeEvents: sorted by lastTimestamp (Go's unstable sort; the events without one first),
    each aged at `clock`, its source the component or else the reporting controller."""
    ordered = go_sorted(list(events), _earlier)
    rows = [
        DescribedEvent(
            event.type,
            event.reason,
            event_age(event, clock),
            event.source_component or event.reporting_controller,
            event.message.strip(),
        )
        for event in ordered
    ]
    return event_lines(rows)


def _earlier(a: EventFields, b: EventFields) -> bool:
    """LastTimestamp.Before: Go's zero time is before every other."""
    if b.last_timestamp is None:
        return False
    return a.last_timestamp is None or a.last_timestamp < b.last_timestamp


def event_age(event: EventFields, clock: float) -> str:
    """The Age cell: since the first time (eventTime, else firstTimestamp), or for repeats since
    the last one with the count: "5s (x3 over 2m)"."""
    first = since(event.event_time if event.event_time is not None else event.first_timestamp, clock)
    if event.series is not None:
        count, last_observed = event.series
        return f"{since(last_observed, clock)} (x{count} over {first})"
    if event.count > 1:
        return f"{since(event.last_timestamp, clock)} (x{event.count} over {first})"
    return first
