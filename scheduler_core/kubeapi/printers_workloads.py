"""The rows of the workloads upstream's printers.go prints (Kubernetes v1.34.1): printDeployment,
printReplicaSet, printStatefulSet, printDaemonSet, printJob, printCronJob and
printHorizontalPodAutoscaler (autoscaling/v2's metrics). Every row is wide, as the API server
prints it."""

from scheduler_core.api.quantity import CPU_RESOURCES, format_decimal_si, format_milli_cpu, format_quantity
from scheduler_core.api.types import Condition
from scheduler_core.api.workloads import (
    CronJob,
    DaemonSet,
    Deployment,
    HorizontalPodAutoscaler,
    Job,
    MetricStatus,
    MetricTarget,
    ReplicaSet,
    StatefulSet,
)
from scheduler_core.kubeapi.printers_common import (
    NONE,
    UNKNOWN,
    Cell,
    age,
    bool_text,
    container_cells,
    format_labels,
    label_selector,
    selector_as_string,
)
from scheduler_core.store.event_correlation import human_duration

MAX_HPA_METRICS = 2  # formatHPAMetrics lists two and counts the rest


def deployment_cells(deployment: Deployment, now: float) -> list[Cell]:
    spec, status = deployment.spec, deployment.status
    return [
        deployment.metadata.name,
        f"{status.ready_replicas}/{spec.replicas}",
        status.updated_replicas,
        status.available_replicas,
        age(deployment.metadata.creation_timestamp, now),
        *container_cells(spec.template.spec.containers),
        selector_as_string(spec.selector),  # not FormatLabelSelector: "" rather than "<none>"
    ]


def replica_set_cells(replica_set: ReplicaSet, now: float) -> list[Cell]:
    spec, status = replica_set.spec, replica_set.status
    return [
        replica_set.metadata.name,
        spec.replicas,
        status.replicas,
        status.ready_replicas,
        age(replica_set.metadata.creation_timestamp, now),
        *container_cells(spec.template.spec.containers),
        label_selector(spec.selector),
    ]


def stateful_set_cells(stateful_set: StatefulSet, now: float) -> list[Cell]:
    spec = stateful_set.spec
    return [
        stateful_set.metadata.name,
        f"{stateful_set.status.ready_replicas}/{spec.replicas}",
        age(stateful_set.metadata.creation_timestamp, now),
        *container_cells(spec.template.spec.containers),
    ]


def daemon_set_cells(daemon_set: DaemonSet, now: float) -> list[Cell]:
    spec, status = daemon_set.spec, daemon_set.status
    return [
        daemon_set.metadata.name,
        status.desired_number_scheduled,
        status.current_number_scheduled,
        status.number_ready,
        status.updated_number_scheduled,
        status.number_available,
        format_labels(spec.template.spec.node_selector),
        age(daemon_set.metadata.creation_timestamp, now),
        *container_cells(spec.template.spec.containers),
        label_selector(spec.selector),
    ]


# ---------------------------------------------------------------------------- batch/v1


def job_cells(job: Job, now: float) -> list[Cell]:
    spec = job.spec
    return [
        job.metadata.name,
        job_status(job),
        job_completions(job),
        job_duration(job, now),
        age(job.metadata.creation_timestamp, now),
        *container_cells(spec.template.spec.containers),
        label_selector(spec.selector),
    ]


def job_completions(job: Job) -> str:
    """COMPLETIONS: succeeded/completions; a Job without completions needs one success ("0/1"),
    "of N" telling its parallelism when above one."""
    succeeded, spec = job.status.succeeded, job.spec
    if spec.completions is not None:
        return f"{succeeded}/{spec.completions}"
    return f"{succeeded}/1 of {spec.parallelism}" if spec.parallelism > 1 else f"{succeeded}/1"


def job_duration(job: Job, now: float) -> str:
    """DURATION: from startTime to completionTime, or to now while running; "" before it starts."""
    start, end = job.status.start_time, job.status.completion_time
    if start is None:
        return ""
    return human_duration((now if end is None else end) - start)


# STATUS is the first of these conditions that is True, in upstream's order; a Job being deleted
# is Terminating unless it finished first.
_FINISHED = ("Complete", "Failed")
_UNFINISHED = ("Suspended", "FailureTarget", "SuccessCriteriaMet")


def job_status(job: Job) -> str:
    conditions = job.status.conditions
    finished = next((kind for kind in _FINISHED if _job_condition(conditions, kind)), None)
    if finished is not None:
        return finished
    if job.metadata.deletion_timestamp is not None:
        return "Terminating"
    return next((kind for kind in _UNFINISHED if _job_condition(conditions, kind)), "Running")


def _job_condition(conditions: tuple[Condition, ...], condition_type: str) -> bool:
    """hasJobCondition: the first condition of the type is True."""
    return next((c.status == "True" for c in conditions if c.type == condition_type), False)


def cron_job_cells(cron_job: CronJob, now: float) -> list[Cell]:
    spec, status = cron_job.spec, cron_job.status
    last = status.last_schedule_time
    return [
        cron_job.metadata.name,
        spec.schedule,
        spec.time_zone if spec.time_zone is not None else NONE,
        bool_text(spec.suspend),  # a string ("False"), though the column's type is boolean
        len(status.active),
        NONE if last is None else age(last, now),
        age(cron_job.metadata.creation_timestamp, now),
        *container_cells(spec.job_template.template.spec.containers),
        label_selector(spec.job_template.selector),
    ]


# ---------------------------------------------------------------------------- autoscaling/v2


def hpa_cells(hpa: HorizontalPodAutoscaler, now: float) -> list[Cell]:
    spec = hpa.spec
    return [
        hpa.metadata.name,
        f"{spec.target_kind}/{spec.target_name}",
        hpa_targets(spec.metrics, hpa.status.current_metrics),
        str(spec.min_replicas),
        spec.max_replicas,
        hpa.status.current_replicas,
        age(hpa.metadata.creation_timestamp, now),
    ]


def hpa_targets(specs: tuple[MetricTarget, ...], statuses: tuple[MetricStatus, ...]) -> str:
    """formatHPAMetrics for Resource metrics: "cpu: 45%/50%" or "memory: 200Mi/500Mi" each, the
    current value read from the status at the same index; two at most, then "+ N more...". The
    engine simulates Resource metrics only (parse_hpa rejects the other types)."""
    if not specs:
        return NONE
    listed = [_hpa_target(spec, statuses[i] if i < len(statuses) else None) for i, spec in enumerate(specs)]
    if len(listed) <= MAX_HPA_METRICS:
        return ", ".join(listed)
    return f"{', '.join(listed[:MAX_HPA_METRICS])} + {len(listed) - MAX_HPA_METRICS} more..."


def _hpa_target(spec: MetricTarget, status: MetricStatus | None) -> str:
    measured = status if status is not None and status.resource else None  # type "": no Resource status
    if spec.average_value is not None:
        current = UNKNOWN
        if measured is not None:
            # A nil *Quantity prints "<nil>" in Go.
            current = "<nil>" if measured.average_value is None else _current_value(spec.resource, measured)
        return f"{spec.resource}: {current}/{format_quantity(spec.resource, spec.average_value)}"
    current = UNKNOWN
    if measured is not None and measured.average_utilization is not None:
        current = f"{measured.average_utilization}%"
    target = "<auto>" if spec.average_utilization is None else f"{spec.average_utilization}%"
    return f"{spec.resource}: {current}/{target}"


def _current_value(resource: str, status: MetricStatus) -> str:
    """An average the controller measured: resource.NewMilliQuantity(..., DecimalSI), as
    object_manifest writes status.currentMetrics."""
    amount = status.average_value or 0
    return format_milli_cpu(amount) if resource in CPU_RESOURCES else format_decimal_si(amount)
