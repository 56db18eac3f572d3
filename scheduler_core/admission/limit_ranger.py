"""The LimitRanger admission plugin (plugin/pkg/admission/limitranger), for pods.

Mutating phase (Admit): for each LimitRange of the pod's namespace, the Container items' `default`
becomes the limit and `defaultRequest` the request of every container (and init container) that
leaves that resource out; the pod is annotated kubernetes.io/limit-ranger with what was set. A
LimitRange item is defaulted first as the API server stores it (SetDefaults_LimitRangeItem): a
missing default limit takes `max`, a missing default request takes the default limit, then `min`.

Validating phase (Validate): each Container item's min, max and maxLimitRequestRatio are checked
against every container, each Pod item's against the pod's total requests and limits; a pod that
breaks any is refused with upstream's texts ("maximum cpu usage per Container is 1, but limit is
2"), the errors of one LimitRange together. Between the two phases the API server validates the
pod, which is where a defaulted limit below an explicit request is refused.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from scheduler_core.admission.priority import AdmissionError
from scheduler_core.api.quantity import add_amounts, format_decimal_si, format_quantity, keep_max_amounts
from scheduler_core.api.types import Container, Pod, ResourceRequirements
from scheduler_core.api.workloads import LimitRange, LimitRangeItem

LIMIT_RANGER_ANNOTATION = "kubernetes.io/limit-ranger"
LIMIT_TYPE_CONTAINER = "Container"
LIMIT_TYPE_POD = "Pod"

# Upstream's texts (admission.go minConstraint, maxConstraint, limitRequestRatioConstraint).
MIN_NO_REQUEST = "minimum {} usage per {} is {}.  No request is specified"
MIN_REQUEST = "minimum {} usage per {} is {}, but request is {}"
MIN_LIMIT = "minimum {} usage per {} is {}, but limit is {}"
MAX_NO_LIMIT = "maximum {} usage per {} is {}.  No limit is specified"
MAX_LIMIT = "maximum {} usage per {} is {}, but limit is {}"
MAX_REQUEST = "maximum {} usage per {} is {}, but request is {}"
RATIO_NO_REQUEST = "{} max limit to request ratio per {} is {}, but no request is specified or request is 0"
RATIO_NO_LIMIT = "{} max limit to request ratio per {} is {}, but no limit is specified or limit is 0"
RATIO_EXCEEDED = "{} max limit to request ratio per {} is {}, but provided ratio is {:f}"
# pkg/apis/core/validation: ValidateResourceRequirements.
REQUEST_ABOVE_LIMIT = 'Invalid value: "{}": must be less than or equal to {} limit of {}'


@dataclass(frozen=True, slots=True)
class _Defaults:
    limits: Mapping[str, int]
    requests: Mapping[str, int]


def forbidden(resource: str, name: str, message: str) -> AdmissionError:
    """apierrors.NewForbidden: `pods "web" is forbidden: ...`."""
    return AdmissionError(f'{resource} "{name}" is forbidden: {message}')


def aggregate(messages: Sequence[str]) -> str:
    """utilerrors.NewAggregate(...).Error(): one message alone, several in brackets, duplicates once."""
    unique = list(dict.fromkeys(messages))
    return unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]"


def defaulted_item(item: LimitRangeItem) -> LimitRangeItem:
    """SetDefaults_LimitRangeItem: only Container items get defaults."""
    if item.type != LIMIT_TYPE_CONTAINER:
        return item
    default = dict(item.default)
    for name, amount in item.max.items():
        default.setdefault(name, amount)
    default_request = dict(item.default_request)
    for name, amount in default.items():
        default_request.setdefault(name, amount)
    for name, amount in item.min.items():
        default_request.setdefault(name, amount)
    return replace(item, default=default, default_request=default_request)


def namespace_limit_ranges(limit_ranges: Sequence[LimitRange], namespace: str) -> list[LimitRange]:
    return sorted((lr for lr in limit_ranges if lr.metadata.namespace == namespace), key=lambda lr: lr.metadata.name)


def _defaults(limit_range: LimitRange) -> _Defaults:
    limits: dict[str, int] = {}
    requests: dict[str, int] = {}
    for item in limit_range.limits:
        if item.type == LIMIT_TYPE_CONTAINER:
            item = defaulted_item(item)
            requests.update(item.default_request)
            limits.update(item.default)
    return _Defaults(limits, requests)


def _merge_container(container: Container, defaults: _Defaults, kind: str, notes: list[str]) -> Container:
    limits = dict(container.resources.limits)
    requests = dict(container.resources.requests)
    set_limits = sorted(name for name in defaults.limits if name not in limits)
    set_requests = sorted(name for name in defaults.requests if name not in requests)
    for name in set_limits:
        limits[name] = defaults.limits[name]
    for name in set_requests:
        requests[name] = defaults.requests[name]
    if set_requests:
        notes.append(f"{', '.join(set_requests)} request for {kind} {container.name}")
    if set_limits:
        notes.append(f"{', '.join(set_limits)} limit for {kind} {container.name}")
    if not set_limits and not set_requests:
        return container
    return replace(container, resources=ResourceRequirements(requests=requests, limits=limits))


def mutate(pod: Pod, limit_ranges: Sequence[LimitRange]) -> Pod:
    """PodMutateLimitFunc for each LimitRange of the namespace, in turn."""
    for limit_range in namespace_limit_ranges(limit_ranges, pod.namespace):
        defaults = _defaults(limit_range)
        notes: list[str] = []
        containers = tuple(_merge_container(c, defaults, "container", notes) for c in pod.spec.containers)
        init_containers = tuple(
            _merge_container(c, defaults, "init container", notes) for c in pod.spec.init_containers
        )
        if not notes:
            continue
        annotations = dict(pod.metadata.annotations)
        annotations[LIMIT_RANGER_ANNOTATION] = "LimitRanger plugin set: " + "; ".join(notes)
        pod = replace(
            pod,
            metadata=replace(pod.metadata, annotations=annotations),
            spec=replace(pod.spec, containers=containers, init_containers=init_containers),
        )
    return pod


# ---------------------------------------------------------------------------- validation


def _min(kind: str, name: str, enforced: int, requests: Mapping[str, int], limits: Mapping[str, int]) -> str | None:
    shown = format_quantity(name, enforced)
    if name not in requests:
        return MIN_NO_REQUEST.format(name, kind, shown)
    if requests[name] < enforced:
        return MIN_REQUEST.format(name, kind, shown, format_quantity(name, requests[name]))
    if name in limits and limits[name] < enforced:
        return MIN_LIMIT.format(name, kind, shown, format_quantity(name, limits[name]))
    return None


def _max(kind: str, name: str, enforced: int, requests: Mapping[str, int], limits: Mapping[str, int]) -> str | None:
    shown = format_quantity(name, enforced)
    if name not in limits:
        return MAX_NO_LIMIT.format(name, kind, shown)
    if limits[name] > enforced:
        return MAX_LIMIT.format(name, kind, shown, format_quantity(name, limits[name]))
    if name in requests and requests[name] > enforced:
        return MAX_REQUEST.format(name, kind, shown, format_quantity(name, requests[name]))
    return None


def _format_ratio(ratio: Fraction) -> str:
    """A ratio quantity's String(): whole numbers plainly, others in thousandths ("1500m")."""
    if ratio.denominator == 1:
        return format_decimal_si(int(ratio))
    return f"{math.ceil(ratio * 1000)}m"


def _ratio(kind: str, name: str, enforced: float, requests: Mapping[str, int], limits: Mapping[str, int]) -> str | None:
    ratio = Fraction(enforced).limit_denominator(1_000_000)
    shown = _format_ratio(ratio)
    request, limit = requests.get(name, 0), limits.get(name, 0)
    if request == 0:
        return RATIO_NO_REQUEST.format(name, kind, shown)
    if limit == 0:
        return RATIO_NO_LIMIT.format(name, kind, shown)
    observed = limit / request
    enforced_milli = math.ceil(ratio * 1000)  # MilliValue rounds up
    if observed * 1000 > enforced_milli:
        return RATIO_EXCEEDED.format(name, kind, shown, observed)
    return None


def _check(
    item: LimitRangeItem, kind: str, requests: Mapping[str, int], limits: Mapping[str, int], errors: list[str]
) -> None:
    for name, amount in item.min.items():
        if (error := _min(kind, name, amount, requests, limits)) is not None:
            errors.append(error)
    for name, amount in item.max.items():
        if (error := _max(kind, name, amount, requests, limits)) is not None:
            errors.append(error)
    for name, ratio in item.max_limit_request_ratio.items():
        if (error := _ratio(kind, name, ratio, requests, limits)) is not None:
            errors.append(error)


def pod_totals(pod: Pod, limits: bool) -> dict[str, int]:
    """The limitranger's own podRequests/podLimits: containers add up, init containers count at
    their peak, sidecars (restartPolicy Always) add to both. No overhead, no pod-level resources."""
    total: dict[str, int] = {}
    for container in pod.spec.containers:
        add_amounts(total, container.resources.limits if limits else container.resources.requests)
    sidecars: dict[str, int] = {}
    init_peak: dict[str, int] = {}
    for container in pod.spec.init_containers:
        amounts = container.resources.limits if limits else container.resources.requests
        if container.restart_policy == "Always":
            add_amounts(total, amounts)
            add_amounts(sidecars, amounts)
            running = dict(sidecars)
        else:
            running = dict(amounts)
            add_amounts(running, sidecars)
        keep_max_amounts(init_peak, running)
    keep_max_amounts(total, init_peak)
    return total


def limit_range_errors(pod: Pod, limit_range: LimitRange) -> list[str]:
    """PodValidateLimitFunc: every broken constraint of one LimitRange."""
    errors: list[str] = []
    for item in limit_range.limits:
        if item.type == LIMIT_TYPE_CONTAINER:
            for container in (*pod.spec.containers, *pod.spec.init_containers):
                resources = container.resources
                _check(item, LIMIT_TYPE_CONTAINER, resources.requests, resources.limits, errors)
        elif item.type == LIMIT_TYPE_POD:
            _check(item, LIMIT_TYPE_POD, pod_totals(pod, False), pod_totals(pod, True), errors)
    return errors


def validate(pod: Pod, limit_ranges: Sequence[LimitRange]) -> Pod:
    """The first LimitRange (by name) that the pod breaks refuses it."""
    for limit_range in namespace_limit_ranges(limit_ranges, pod.namespace):
        errors = limit_range_errors(pod, limit_range)
        if errors:
            raise forbidden("pods", pod.name, aggregate(errors))
    return pod


def validate_requests_within_limits(pod: Pod) -> Pod:
    """The API server's pod validation after the mutating admission plugins: a request above its
    limit (an explicit request below a defaulted limit) makes the pod invalid."""
    errors: list[str] = []
    for field, containers in (("containers", pod.spec.containers), ("initContainers", pod.spec.init_containers)):
        for index, container in enumerate(containers):
            limits = container.resources.limits
            for name, amount in container.resources.requests.items():
                if name in limits and amount > limits[name]:
                    body = REQUEST_ABOVE_LIMIT.format(
                        format_quantity(name, amount), name, format_quantity(name, limits[name])
                    )
                    errors.append(f"spec.{field}[{index}].resources.requests: {body}")
    if errors:
        raise AdmissionError(f'Pod "{pod.name}" is invalid: {aggregate(errors)}')
    return pod
