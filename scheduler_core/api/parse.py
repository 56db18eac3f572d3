"""Manifests (YAML mappings) to the engine's objects, with upstream's defaulting.

Defaulting that the API server applies before the scheduler ever sees an object is applied here
too: container requests default to limits, tolerations' operator to Equal, a pod's namespace to
"default", a node's allocatable to its capacity.
"""

from collections.abc import Callable, Mapping
from datetime import datetime

from scheduler_core.api.fields import Fields
from scheduler_core.api.parse_pod_details import parse_container_details, parse_pod_details, parse_probe, parse_volume
from scheduler_core.api.pod_conditions import WRITTEN_POD_CONDITIONS
from scheduler_core.api.pod_defaults import default_pod_spec
from scheduler_core.api.types import (
    Affinity,
    Container,
    ContainerImage,
    ContainerPort,
    LabelSelector,
    LabelSelectorRequirement,
    Namespace,
    Node,
    NodeAffinity,
    NodeCondition,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    NodeSpec,
    NodeStatus,
    ObjectMeta,
    OwnerReference,
    Pod,
    PodAffinity,
    PodAffinityTerm,
    PodCondition,
    PodDisruptionBudget,
    PodDisruptionBudgetSpec,
    PodDisruptionBudgetStatus,
    PodSpec,
    PodStatus,
    PreferredSchedulingTerm,
    PriorityClass,
    ResourceRequirements,
    Taint,
    Toleration,
    TopologySpreadConstraint,
    WeightedPodAffinityTerm,
)
from scheduler_core.api.validation import (
    API_VALIDATION,
    container_resource_name_problem,
    dns_label_problem,
    label_value_problem,
    node_resource_name_problem,
    qualified_name_problem,
    subdomain_problem,
)

META_FIELDS = frozenset(
    {
        "name", "namespace", "labels", "annotations", "uid", "generateName", "ownerReferences",
        "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "resourceVersion",
        "generation", "finalizers", "managedFields", "selfLink",
    }
)  # fmt: skip
POD_SPEC_FIELDS = frozenset(
    {
        "activeDeadlineSeconds", "affinity", "automountServiceAccountToken", "containers", "dnsConfig",
        "dnsPolicy", "enableServiceLinks", "ephemeralContainers", "hostAliases", "hostIPC", "hostNetwork",
        "hostPID", "hostUsers", "hostname", "hostnameOverride", "imagePullSecrets", "initContainers",
        "nodeName", "nodeSelector", "os", "overhead", "preemptionPolicy", "priority", "priorityClassName",
        "readinessGates", "resourceClaims", "resources", "restartPolicy", "runtimeClassName", "schedulerName",
        "schedulingGates", "securityContext", "serviceAccount", "serviceAccountName", "setHostnameAsFQDN",
        "shareProcessNamespace", "subdomain", "terminationGracePeriodSeconds", "tolerations",
        "topologySpreadConstraints", "volumes",
    }
)  # fmt: skip
CONTAINER_FIELDS = frozenset(
    {
        "args", "command", "env", "envFrom", "image", "imagePullPolicy", "lifecycle", "livenessProbe", "name",
        "ports", "readinessProbe", "resizePolicy", "resources", "restartPolicy", "restartPolicyRules",
        "securityContext", "startupProbe", "stdin", "stdinOnce", "terminationMessagePath",
        "terminationMessagePolicy", "tty", "volumeDevices", "volumeMounts", "workingDir",
    }
)  # fmt: skip
POD_STATUS_FIELDS = frozenset(
    {
        "phase", "nominatedNodeName", "startTime", "conditions", "containerStatuses", "initContainerStatuses",
        "ephemeralContainerStatuses", "hostIP", "hostIPs", "podIP", "podIPs", "qosClass", "message", "reason",
        "resize", "resourceClaimStatuses", "observedGeneration", "extendedResourceClaimStatus",
    }
)  # fmt: skip
NODE_SPEC_FIELDS = frozenset(
    {"unschedulable", "taints", "podCIDR", "podCIDRs", "providerID", "configSource", "externalID"}
)
NODE_STATUS_FIELDS = frozenset(
    {
        "capacity", "allocatable", "images", "conditions", "addresses", "daemonEndpoints", "nodeInfo", "phase",
        "volumesAttached", "volumesInUse", "config", "features", "runtimeHandlers", "declaredFeatures",
    }
)  # fmt: skip
SELECTOR_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")
NODE_SELECTOR_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")
TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
DEFAULT_NAMESPACE = "default"


# ---------------------------------------------------------------------------- metadata


def parse_timestamp(fields: Fields, key: str) -> float | None:
    raw = fields.data.get(key)
    if raw is None:
        return None
    if isinstance(raw, datetime):  # YAML 1.1 turns unquoted timestamps into datetimes
        return raw.timestamp()
    if not isinstance(raw, str):
        raise fields.error(key, "must be an RFC 3339 timestamp string")
    try:
        return datetime.fromisoformat(raw).timestamp()
    except ValueError:
        raise fields.error(key, f'invalid timestamp "{raw}": must be RFC 3339 (2024-01-02T15:04:05Z)') from None


def parse_labels(fields: Fields, key: str) -> dict[str, str]:
    labels = fields.string_map(key)
    container = fields.object(key)
    for name, value in labels.items():
        assert container is not None
        problem = qualified_name_problem(name)
        if problem:
            raise container.error(name, f'invalid label key "{name[:80]}": {problem}')
        problem = label_value_problem(value)
        if problem:
            raise container.error(name, f'invalid label value "{value[:80]}": {problem}')
    return labels


def parse_metadata(parent: Fields, *, namespaced: bool, name_required: bool = True) -> ObjectMeta:
    fields = parent.object("metadata")
    if fields is None:
        if name_required:
            raise parent.error("metadata", "Required value: metadata.name is required")
        fields = Fields({}, parent.path_of("metadata"), parent.document, parent.line)
    fields.reject_unknown(META_FIELDS)
    name = fields.string("name")
    if name_required and not name and not fields.string("generateName"):
        raise fields.error_here("name or generateName is required")
    if name:
        problem = subdomain_problem(name)
        if problem:
            raise fields.error("name", f'invalid name "{name[:80]}": {problem}')
    namespace = ""
    if namespaced:
        namespace = fields.string("namespace") or DEFAULT_NAMESPACE
        problem = dns_label_problem(namespace)
        if problem:
            raise fields.error("namespace", f'invalid namespace "{namespace[:80]}": {problem}')
    elif fields.has("namespace"):
        namespace = ""  # cluster-scoped objects ignore a namespace, as the API server does
    owners = tuple(
        OwnerReference(
            kind=owner.string("kind"),
            name=owner.string("name"),
            uid=owner.string("uid"),
            api_version=owner.string("apiVersion"),
            controller=owner.boolean("controller"),
        )
        for owner in fields.objects("ownerReferences")
    )
    # The API's deletionTimestamp is when the object goes for good: the request plus its grace
    # period. The engine keeps the request's time (ObjectMeta.deletion_timestamp).
    deletion = parse_timestamp(fields, "deletionTimestamp")
    grace = fields.integer("deletionGracePeriodSeconds", None, minimum=0)
    if deletion is not None and grace:
        deletion -= grace
    return ObjectMeta(
        name=name,
        namespace=namespace,
        uid=fields.string("uid"),
        labels=parse_labels(fields, "labels"),
        annotations=fields.string_map("annotations"),
        owner_references=owners,
        creation_timestamp=parse_timestamp(fields, "creationTimestamp") or 0.0,
        deletion_timestamp=deletion,
        deletion_grace_period_seconds=grace,
        generate_name=fields.string("generateName"),
    )


# ---------------------------------------------------------------------------- selectors


def parse_label_selector(fields: Fields | None) -> LabelSelector | None:
    if fields is None:
        return None
    fields.reject_unknown({"matchLabels", "matchExpressions"})
    match_labels = parse_labels(fields, "matchLabels")
    expressions = []
    for expression in fields.objects("matchExpressions"):
        expression.reject_unknown({"key", "operator", "values"})
        key = _required_str(expression, "key")
        operator = expression.one_of("operator", SELECTOR_OPERATORS)
        if operator is None:
            raise expression.error("operator", "Required value")
        values = expression.strings("values")
        _check_operator_values(expression, operator, values)
        expressions.append(LabelSelectorRequirement(key, operator, values))
    return LabelSelector(match_labels, tuple(expressions))


def _check_operator_values(fields: Fields, operator: str, values: tuple[str, ...]) -> None:
    if operator in ("In", "NotIn") and not values:
        raise fields.error("values", "Required value: must be specified when `operator` is 'In' or 'NotIn'")
    if operator in ("Exists", "DoesNotExist") and values:
        raise fields.error("values", "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
    if operator in ("Gt", "Lt"):
        if len(values) != 1:
            raise fields.error(
                "values", "Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"
            )
        try:
            int(values[0])
        except ValueError:
            raise fields.error("values", f'Invalid value: "{values[0]}": must be an integer for Gt and Lt') from None


def parse_node_selector_term(fields: Fields) -> NodeSelectorTerm:
    fields.reject_unknown({"matchExpressions", "matchFields"})
    return NodeSelectorTerm(
        match_expressions=tuple(_node_requirement(item, is_field=False) for item in fields.objects("matchExpressions")),
        match_fields=tuple(_node_requirement(item, is_field=True) for item in fields.objects("matchFields")),
    )


def _node_requirement(fields: Fields, *, is_field: bool) -> NodeSelectorRequirement:
    fields.reject_unknown({"key", "operator", "values"})
    key = _required_str(fields, "key")
    if not is_field:
        problem = qualified_name_problem(key)
        if problem:
            raise fields.error("key", f'Invalid value: "{key[:80]}": {problem}')
    operator = fields.one_of("operator", NODE_SELECTOR_OPERATORS)
    if operator is None:
        raise fields.error("operator", "Required value")
    values = fields.strings("values")
    _check_operator_values(fields, operator, values)
    if is_field:
        if key != "metadata.name":
            raise fields.error("key", f'Invalid value: "{key}": only "metadata.name" is supported in matchFields')
        if operator not in ("In", "NotIn") or len(values) != 1:
            raise fields.error("values", "must have exactly one value with operator In or NotIn for matchFields")
    return NodeSelectorRequirement(key, operator, values)


# ---------------------------------------------------------------------------- affinity


def parse_affinity(fields: Fields | None) -> Affinity | None:
    if fields is None:
        return None
    fields.reject_unknown({"nodeAffinity", "podAffinity", "podAntiAffinity"})
    return Affinity(
        node_affinity=_node_affinity(fields.object("nodeAffinity")),
        pod_affinity=_pod_affinity(fields.object("podAffinity")),
        pod_anti_affinity=_pod_affinity(fields.object("podAntiAffinity")),
    )


def _node_affinity(fields: Fields | None) -> NodeAffinity | None:
    if fields is None:
        return None
    required_key = "requiredDuringSchedulingIgnoredDuringExecution"
    preferred_key = "preferredDuringSchedulingIgnoredDuringExecution"
    fields.reject_unknown({required_key, preferred_key})
    required = None
    required_fields = fields.object(required_key)
    if required_fields is not None:
        required_fields.reject_unknown({"nodeSelectorTerms"})
        terms = tuple(parse_node_selector_term(term) for term in required_fields.objects("nodeSelectorTerms"))
        if not terms:
            raise required_fields.error(
                "nodeSelectorTerms", "Required value: must have at least one node selector term"
            )
        required = NodeSelector(terms)
    preferred = []
    for item in fields.objects(preferred_key):
        item.reject_unknown({"weight", "preference"})
        weight = _weight(item, "PreferredSchedulingTerm")
        preference = item.object("preference")
        if preference is None:
            raise item.error("preference", "Required value")
        preferred.append(PreferredSchedulingTerm(weight, parse_node_selector_term(preference)))
    return NodeAffinity(required, tuple(preferred))


def _weight(fields: Fields, go_struct: str) -> int:
    weight = fields.int32("weight", go_struct)
    if weight is None:
        raise fields.error("weight", "Required value")
    if not 1 <= weight <= 100:
        raise fields.error("weight", f"Invalid value: {weight}: must be in the range 1-100")
    return weight


def _pod_affinity(fields: Fields | None) -> PodAffinity | None:
    if fields is None:
        return None
    required_key = "requiredDuringSchedulingIgnoredDuringExecution"
    preferred_key = "preferredDuringSchedulingIgnoredDuringExecution"
    fields.reject_unknown({required_key, preferred_key})
    required = tuple(_pod_affinity_term(term) for term in fields.objects(required_key))
    preferred = []
    for item in fields.objects(preferred_key):
        item.reject_unknown({"weight", "podAffinityTerm"})
        weight = _weight(item, "WeightedPodAffinityTerm")
        term = item.object("podAffinityTerm")
        if term is None:
            raise item.error("podAffinityTerm", "Required value")
        preferred.append(WeightedPodAffinityTerm(weight, _pod_affinity_term(term)))
    return PodAffinity(required, tuple(preferred))


def _pod_affinity_term(fields: Fields) -> PodAffinityTerm:
    fields.reject_unknown(
        {"labelSelector", "namespaces", "topologyKey", "namespaceSelector", "matchLabelKeys", "mismatchLabelKeys"}
    )
    topology_key = fields.string("topologyKey")
    if not topology_key:
        raise fields.error("topologyKey", "Required value: can not be empty")
    return PodAffinityTerm(
        topology_key=topology_key,
        label_selector=parse_label_selector(fields.object("labelSelector")),
        namespaces=fields.strings("namespaces"),
        namespace_selector=parse_label_selector(fields.object("namespaceSelector")),
        match_label_keys=fields.strings("matchLabelKeys"),
        mismatch_label_keys=fields.strings("mismatchLabelKeys"),
    )


# ---------------------------------------------------------------------------- taints, tolerations


def parse_taint(fields: Fields) -> Taint:
    fields.reject_unknown({"key", "value", "effect", "timeAdded"})
    key = _required_str(fields, "key")
    problem = qualified_name_problem(key)
    if problem:
        raise fields.error("key", f'invalid taint key "{key[:80]}": {problem}')
    value = fields.string("value")
    problem = label_value_problem(value)
    if problem:
        raise fields.error("value", f'invalid taint value "{value[:80]}": {problem}')
    effect = fields.one_of("effect", TAINT_EFFECTS)
    if effect is None:
        raise fields.error("effect", "Required value")
    return Taint(key=key, value=value, effect=effect, time_added=parse_timestamp(fields, "timeAdded"))


def parse_toleration(fields: Fields) -> Toleration:
    fields.reject_unknown({"key", "operator", "value", "effect", "tolerationSeconds"})
    operator = fields.one_of("operator", ("Equal", "Exists"), default="Equal")
    assert operator is not None
    key = fields.string("key")
    value = fields.string("value")
    if operator == "Exists" and value:
        raise fields.error("value", "Invalid value: must be empty when `operator` is 'Exists'")
    if not key and operator != "Exists":
        raise fields.error("operator", "Invalid value: must be 'Exists' when `key` is empty")
    effect = fields.one_of("effect", TAINT_EFFECTS, default="")
    seconds = fields.integer("tolerationSeconds")
    if seconds is not None and effect != "NoExecute":
        raise fields.error("effect", "Invalid value: effect must be 'NoExecute' when `tolerationSeconds` is set")
    assert effect is not None
    return Toleration(key=key, operator=operator, value=value, effect=effect, toleration_seconds=seconds)


# ---------------------------------------------------------------------------- pods


def _check_resource_names(
    fields: Fields, key: str, resources: Mapping[str, int], problem_of: Callable[[str], str | None]
) -> None:
    container = fields.object(key)
    for name in resources:
        problem = problem_of(name)
        if problem and container is not None:
            raise container.error(name, f'invalid resource name "{name[:80]}": {problem}')


def _resource_requirements(fields: Fields | None) -> ResourceRequirements:
    if fields is None:
        return ResourceRequirements()
    fields.reject_unknown({"requests", "limits", "claims"})
    limits = fields.resources("limits")
    requests = fields.resources("requests")
    _check_resource_names(fields, "limits", limits, container_resource_name_problem)
    _check_resource_names(fields, "requests", requests, container_resource_name_problem)
    # API defaulting: a resource with a limit and no request is requested at its limit.
    for name, amount in limits.items():
        requests.setdefault(name, amount)
    for name, amount in requests.items():
        if name in limits and amount > limits[name]:
            raise fields.error("requests", f"Invalid value: {name} request must be less than or equal to {name} limit")
    return ResourceRequirements(requests=requests, limits=limits)


def parse_container(fields: Fields, *, init: bool) -> Container:
    fields.reject_unknown(CONTAINER_FIELDS)
    name = _required_str(fields, "name")
    ports = []
    for port in fields.objects("ports"):
        port.reject_unknown({"containerPort", "hostPort", "hostIP", "protocol", "name"})
        container_port = port.int32("containerPort", "ContainerPort")
        if container_port is None or not 1 <= container_port <= 65535:
            raise port.error("containerPort", "Invalid value: must be between 1 and 65535, inclusive")
        host_port = port.int32("hostPort", "ContainerPort", 0) or 0
        if not 0 <= host_port <= 65535:
            raise port.error("hostPort", "Invalid value: must be between 1 and 65535, inclusive")
        protocol = port.one_of("protocol", ("TCP", "UDP", "SCTP"), default="TCP")
        assert protocol is not None
        ports.append(ContainerPort(container_port, host_port, port.string("hostIP"), protocol, port.string("name")))
    restart_policy = fields.one_of("restartPolicy", ("Always",)) if init else None
    if not init and fields.has("restartPolicy"):
        fields.one_of("restartPolicy", ("Always", "Never", "OnFailure"))
    image = fields.string("image")
    return Container(
        name=name,
        image=image,
        resources=_resource_requirements(fields.object("resources")),
        ports=tuple(ports),
        restart_policy=restart_policy,
        readiness_probe=parse_probe(fields.object("readinessProbe")),
        details=parse_container_details(fields, image),
    )


def parse_topology_spread_constraint(fields: Fields) -> TopologySpreadConstraint:
    fields.reject_unknown(
        {
            "maxSkew", "topologyKey", "whenUnsatisfiable", "labelSelector", "minDomains",
            "nodeAffinityPolicy", "nodeTaintsPolicy", "matchLabelKeys",
        }
    )  # fmt: skip
    max_skew = fields.int32("maxSkew", "TopologySpreadConstraint")
    if max_skew is None or max_skew < 1:
        raise fields.error("maxSkew", "Invalid value: must be greater than zero")
    topology_key = _required_str(fields, "topologyKey")
    when = fields.one_of("whenUnsatisfiable", ("DoNotSchedule", "ScheduleAnyway"))
    if when is None:
        raise fields.error("whenUnsatisfiable", "Required value")
    min_domains = fields.int32("minDomains", "TopologySpreadConstraint")
    if min_domains is not None:
        if min_domains < 1:
            raise fields.error("minDomains", "Invalid value: must be greater than 0")
        if when != "DoNotSchedule":
            raise fields.error(
                "minDomains", "Invalid value: can only use minDomains if whenUnsatisfiable=DoNotSchedule"
            )
    return TopologySpreadConstraint(
        max_skew=max_skew,
        topology_key=topology_key,
        when_unsatisfiable=when,
        label_selector=parse_label_selector(fields.object("labelSelector")),
        min_domains=min_domains,
        node_affinity_policy=fields.one_of("nodeAffinityPolicy", ("Honor", "Ignore")),
        node_taints_policy=fields.one_of("nodeTaintsPolicy", ("Honor", "Ignore")),
        match_label_keys=fields.strings("matchLabelKeys"),
    )


def parse_pod_spec(parent: Fields, key: str = "spec", *, pod: bool = False) -> PodSpec:
    """A pod's spec (`pod`) or a pod template's, which SetDefaults_Pod leaves alone."""
    fields = parent.object(key)
    if fields is None:
        raise parent.error(key, "Required value")
    fields.reject_unknown(POD_SPEC_FIELDS)
    containers = tuple(parse_container(item, init=False) for item in fields.objects("containers"))
    if not containers and API_VALIDATION.get():
        raise fields.error("containers", "Required value: a pod needs at least one container")
    _no_duplicate_names(fields, "containers", containers)
    init_containers = tuple(parse_container(item, init=True) for item in fields.objects("initContainers"))
    _no_duplicate_names(fields, "initContainers", init_containers)
    volumes = tuple(parse_volume(volume) for volume in fields.objects("volumes"))
    pod_resources = fields.object("resources")
    grace = fields.integer("terminationGracePeriodSeconds", 30, minimum=0)
    return PodSpec(
        containers=containers,
        init_containers=init_containers,
        node_name=fields.string("nodeName"),
        node_selector=fields.string_map("nodeSelector"),
        affinity=parse_affinity(fields.object("affinity")),
        tolerations=tuple(parse_toleration(item) for item in fields.objects("tolerations")),
        topology_spread_constraints=tuple(
            parse_topology_spread_constraint(item) for item in fields.objects("topologySpreadConstraints")
        ),
        scheduler_name=fields.string("schedulerName") or "default-scheduler",
        priority=fields.int32("priority", "PodSpec"),
        priority_class_name=fields.string("priorityClassName"),
        preemption_policy=fields.one_of("preemptionPolicy", ("PreemptLowerPriority", "Never")),
        overhead=fields.resources("overhead"),
        resources=_resource_requirements(pod_resources) if pod_resources is not None else None,
        restart_policy=fields.one_of("restartPolicy", ("Always", "OnFailure", "Never"), default="Always") or "Always",
        termination_grace_period_seconds=30 if grace is None else grace,
        host_network=fields.boolean("hostNetwork"),
        volumes=volumes,
        scheduling_gates=tuple(_required_str(gate, "name") for gate in fields.objects("schedulingGates")),
        resource_claims=tuple(_required_str(claim, "name") for claim in fields.objects("resourceClaims")),
        details=parse_pod_details(fields, pod=pod),
    )


def _no_duplicate_names(fields: Fields, key: str, containers: tuple[Container, ...]) -> None:
    seen: set[str] = set()
    for index, container in enumerate(containers):
        if container.name in seen:
            raise fields.error(key, f'Duplicate value: "{container.name}" ({fields.path_of(key)}[{index}].name)')
        seen.add(container.name)


def parse_pod_status(fields: Fields | None) -> PodStatus:
    if fields is None:
        return PodStatus()
    fields.reject_unknown(POD_STATUS_FIELDS)
    phase = fields.one_of("phase", ("Pending", "Running", "Succeeded", "Failed", "Unknown"), default="Pending")
    ready = False
    written: list[PodCondition] = []
    for condition in fields.objects("conditions"):
        kind = condition.data.get("type")
        if kind == "Ready":
            ready = condition.data.get("status") == "True"
        elif kind in WRITTEN_POD_CONDITIONS:  # a pasted victim's DisruptionTarget counts for preemption
            written.append(
                PodCondition(
                    str(kind),
                    condition.one_of("status", ("True", "False", "Unknown"), default="False") or "False",
                    condition.string("reason"),
                    condition.string("message"),
                    parse_timestamp(condition, "lastTransitionTime"),
                )
            )
    return PodStatus(
        phase=phase or "Pending",
        nominated_node_name=fields.string("nominatedNodeName"),
        start_time=parse_timestamp(fields, "startTime"),
        ready=ready,
        reason=fields.string("reason"),
        message=fields.string("message"),
        conditions=tuple(written),
    )


def parse_pod(fields: Fields) -> Pod:
    """A pod, with the defaults the API server gives a pod and not a template (SetDefaults_Pod)."""
    fields.reject_unknown({"apiVersion", "kind", "metadata", "spec", "status"})
    return Pod(
        metadata=parse_metadata(fields, namespaced=True),
        spec=default_pod_spec(parse_pod_spec(fields, pod=True)),
        status=parse_pod_status(fields.object("status")),
    )


# ---------------------------------------------------------------------------- nodes


def parse_node(fields: Fields) -> Node:
    fields.reject_unknown({"apiVersion", "kind", "metadata", "spec", "status"})
    metadata = parse_metadata(fields, namespaced=False)
    spec_fields = fields.object("spec")
    spec = NodeSpec()
    if spec_fields is not None:
        spec_fields.reject_unknown(NODE_SPEC_FIELDS)
        spec = NodeSpec(
            unschedulable=spec_fields.boolean("unschedulable"),
            taints=tuple(parse_taint(item) for item in spec_fields.objects("taints")),
        )
    status_fields = fields.object("status")
    status = NodeStatus()
    if status_fields is not None:
        status_fields.reject_unknown(NODE_STATUS_FIELDS)
        capacity = status_fields.resources("capacity")
        allocatable = status_fields.resources("allocatable") if status_fields.has("allocatable") else dict(capacity)
        _check_resource_names(status_fields, "capacity", capacity, node_resource_name_problem)
        _check_resource_names(status_fields, "allocatable", allocatable, node_resource_name_problem)
        images = []
        for image in status_fields.objects("images"):
            image.reject_unknown({"names", "sizeBytes"})
            images.append(ContainerImage(names=image.strings("names"), size_bytes=image.integer("sizeBytes", 0) or 0))
        conditions = tuple(
            parse_node_condition(condition)
            for condition in status_fields.objects("conditions")
            if condition.data.get("type") is not None
        )
        # Ready unless its Ready condition says otherwise (a node without conditions is a healthy one).
        ready = all(condition.status == "True" for condition in conditions if condition.type == "Ready")
        status = NodeStatus(
            capacity=capacity, allocatable=allocatable, images=tuple(images), ready=ready, conditions=conditions
        )
    return Node(metadata=metadata, spec=spec, status=status)


def parse_node_condition(fields: Fields) -> NodeCondition:
    """One of status.conditions, kept as written: the kubelet's four, or any other (NetworkUnavailable)."""
    return NodeCondition(
        type=fields.string("type"),
        status=fields.one_of("status", ("True", "False", "Unknown"), default="Unknown") or "Unknown",
        reason=fields.string("reason"),
        message=fields.string("message"),
        last_heartbeat_time=parse_timestamp(fields, "lastHeartbeatTime"),
        last_transition_time=parse_timestamp(fields, "lastTransitionTime"),
    )


# ---------------------------------------------------------------------------- policy objects


def parse_namespace(fields: Fields) -> Namespace:
    fields.reject_unknown({"apiVersion", "kind", "metadata", "spec", "status"})
    metadata = parse_metadata(fields, namespaced=False)
    problem = dns_label_problem(metadata.name)
    if problem:
        meta_fields = fields.object("metadata")
        assert meta_fields is not None
        raise meta_fields.error("name", f'invalid namespace name "{metadata.name[:80]}": {problem}')
    return Namespace(metadata=metadata)


def parse_priority_class(fields: Fields) -> PriorityClass:
    fields.reject_unknown(
        {"apiVersion", "kind", "metadata", "value", "globalDefault", "preemptionPolicy", "description"}
    )
    value = fields.int32("value", "PriorityClass")
    if value is None:
        raise fields.error("value", "Required value")
    if value > 1_000_000_000:
        raise fields.error("value", "Invalid value: maximum allowed value of a user defined priority is 1000000000")
    return PriorityClass(
        metadata=parse_metadata(fields, namespaced=False),
        value=value,
        global_default=fields.boolean("globalDefault"),
        preemption_policy=fields.one_of(
            "preemptionPolicy", ("PreemptLowerPriority", "Never"), default="PreemptLowerPriority"
        )
        or "PreemptLowerPriority",
        description=fields.string("description"),
    )


def parse_pod_disruption_budget(fields: Fields) -> PodDisruptionBudget:
    fields.reject_unknown({"apiVersion", "kind", "metadata", "spec", "status"})
    metadata = parse_metadata(fields, namespaced=True)
    spec_fields = fields.object("spec")
    if spec_fields is None:
        raise fields.error("spec", "Required value")
    spec_fields.reject_unknown({"selector", "minAvailable", "maxUnavailable", "unhealthyPodEvictionPolicy"})
    min_available = spec_fields.int_or_string("minAvailable", "PodDisruptionBudgetSpec")
    max_unavailable = spec_fields.int_or_string("maxUnavailable", "PodDisruptionBudgetSpec")
    if min_available is not None and max_unavailable is not None:
        raise spec_fields.error("minAvailable", "Invalid value: minAvailable and maxUnavailable cannot be both set")
    status = PodDisruptionBudgetStatus()
    status_fields = fields.object("status")
    if status_fields is not None:
        status_fields.reject_unknown(
            {
                "disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods", "disruptedPods",
                "observedGeneration", "conditions",
            }
        )  # fmt: skip
        disrupted = status_fields.object("disruptedPods")
        disrupted_pods = {name: parse_timestamp(disrupted, name) or 0.0 for name in disrupted.data} if disrupted else {}
        status_struct = "PodDisruptionBudgetStatus"
        status = PodDisruptionBudgetStatus(
            disruptions_allowed=status_fields.int32("disruptionsAllowed", status_struct, 0, minimum=0) or 0,
            current_healthy=status_fields.int32("currentHealthy", status_struct, 0, minimum=0) or 0,
            desired_healthy=status_fields.int32("desiredHealthy", status_struct, 0, minimum=0) or 0,
            expected_pods=status_fields.int32("expectedPods", status_struct, 0, minimum=0) or 0,
            disrupted_pods=disrupted_pods,
            observed_generation=status_fields.integer("observedGeneration", 0, minimum=0) or 0,
        )
    return PodDisruptionBudget(
        metadata=metadata,
        spec=PodDisruptionBudgetSpec(
            selector=parse_label_selector(spec_fields.object("selector")),
            min_available=min_available,
            max_unavailable=max_unavailable,
        ),
        status=status,
    )


def _required_str(fields: Fields, key: str) -> str:
    value = fields.string(key)
    if not value:
        raise fields.error(key, "Required value")
    return value
