"""The Job controller (pkg/controller/job), with the TTL-after-finished controller
(pkg/controller/ttlafterfinished) and the garbage collector's cascade for the pods of deleted Jobs.

A Job runs up to `parallelism` pods at a time until `completions` of them succeed (or, without
completions, until one does). Failed pods count against `backoffLimit`; replacements wait out an
exponential backoff (10 s doubling, capped at MaxJobPodFailureBackOff) after the last failure.
`activeDeadlineSeconds` bounds the run, `suspend` deletes the active pods until resumed, and
Indexed Jobs give each pod a completion index (annotation and label
batch.kubernetes.io/job-completion-index, pod names "<job>-<index>-xxxxx").

As in v1.34 (JobPodReplacementPolicy GA), the terminal conditions come in two steps: the Job first
gets SuccessCriteriaMet or FailureTarget, and Complete or Failed (with the Completed,
BackoffLimitExceeded or DeadlineExceeded event) once none of its pods is still terminating.
Pod events reach the controller batched by one second (syncJobBatchPeriod), as upstream.

Finished pods stay (Succeeded or Failed) until their Job is deleted, by a user, a CronJob's
history limit or ttlSecondsAfterFinished; the pods then go with it.

The simulated API has no finalizers: which finished pods are already in .status is kept here
instead (the job-tracking finalizer's role). So status.uncountedTerminatedPods, upstream's list
of pods between their finish and their finalizer's removal, would always be empty and is not
kept. Every sync writes status.ready (active pods that are Ready) and status.terminating (pods
being deleted that have not finished), and an Indexed Job's status.completedIndexes
("0-2,5"); failedIndexes needs backoffLimitPerIndex, which the engine does not run.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from scheduler_core.api.pod_conditions import TERMINAL_PHASES
from scheduler_core.api.types import Condition, Pod
from scheduler_core.api.workloads import Job, JobStatus
from scheduler_core.controllers.base import Context, is_active, record
from scheduler_core.controllers.controller_kit import (
    DelayingQueue,
    OwnerIndex,
    collect_pods,
    controller_ref,
    create_pod,
    delete_owned_pod,
    slow_start,
)
from scheduler_core.controllers.job_indexes import format_indexes
from scheduler_core.controllers.naming import MAX_GENERATED_NAME_LENGTH
from scheduler_core.store.cluster import Change, ChangeType, StoredObject

NAME = "job"
SOURCE = "job-controller"
KIND = "Job"
API_VERSION = "batch/v1"

# Labels and annotations (k8s.io/api/batch/v1).
CONTROLLER_UID_LABEL = "batch.kubernetes.io/controller-uid"
JOB_NAME_LABEL = "batch.kubernetes.io/job-name"
LEGACY_CONTROLLER_UID_LABEL = "controller-uid"
LEGACY_JOB_NAME_LABEL = "job-name"
JOB_COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index"  # annotation and label

# Condition types.
COMPLETE = "Complete"
FAILED = "Failed"
SUSPENDED = "Suspended"
SUCCESS_CRITERIA_MET = "SuccessCriteriaMet"
FAILURE_TARGET = "FailureTarget"

# Condition reasons, event reasons and messages (job_controller.go).
COMPLETIONS_REACHED_REASON = "CompletionsReached"
COMPLETIONS_REACHED_MESSAGE = "Reached expected number of succeeded pods"
BACKOFF_LIMIT_EXCEEDED_REASON = "BackoffLimitExceeded"
BACKOFF_LIMIT_EXCEEDED_MESSAGE = "Job has reached the specified backoff limit"
DEADLINE_EXCEEDED_REASON = "DeadlineExceeded"
DEADLINE_EXCEEDED_MESSAGE = "Job was active longer than specified deadline"
COMPLETED_REASON = "Completed"
COMPLETED_MESSAGE = "Job completed"
TOO_MANY_SUCCEEDED_REASON = "TooManySucceededPods"
TOO_MANY_SUCCEEDED_MESSAGE = "Too many succeeded pods running after completion count reached"
SUSPENDED_REASON = "Suspended"
SUSPENDED_MESSAGE = "Job suspended"
RESUMED_REASON = "Resumed"
RESUMED_MESSAGE = "Job resumed"
JOB_SUSPENDED_REASON = "JobSuspended"  # the Suspended condition's reasons
JOB_RESUMED_REASON = "JobResumed"

SYNC_JOB_BATCH_PERIOD = 1.0  # syncJobBatchPeriod
DEFAULT_POD_FAILURE_BACKOFF = 10.0  # DefaultJobPodFailureBackOff
MAX_POD_FAILURE_BACKOFF = 600.0  # MaxJobPodFailureBackOff (10 min since v1.28; docs still say 6 min)
MAX_POD_CREATE_DELETE_PER_SYNC = 500
_EPSILON = 1e-9

# A finished condition in the making: (type, reason, message).
Finishing = tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class _Deleted:
    """Pods a sync deleted: how many, and how many of them were Ready (taken off status.ready)."""

    pods: int = 0
    ready: int = 0


@dataclass(frozen=True, slots=True)
class _Managed:
    """What manageJob leaves: the active count, the pods it deleted, whether every create went through."""

    active: int
    deleted: _Deleted = _Deleted()
    ok: bool = True


@dataclass(slots=True)
class _JobState:
    counted: set[str] = field(default_factory=set)  # uids of finished pods already in .status
    succeeded_indexes: set[int] = field(default_factory=set)  # .status.completedIndexes
    failures_after_last_success: int = 0  # the pod failure backoff record
    last_failure_time: float | None = None
    finished_at: float | None = None  # lastTransitionTime of Complete or Failed


def is_finished(job: Job) -> bool:
    """IsJobFinished: Complete or Failed is True."""
    return finished_condition_type(job) is not None


def finished_condition_type(job: Job) -> str | None:
    for condition in job.status.conditions:
        if condition.type in (COMPLETE, FAILED) and condition.status == "True":
            return condition.type
    return None


def _true(conditions: list[Condition], condition_type: str) -> Condition | None:
    return next((c for c in conditions if c.type == condition_type and c.status == "True"), None)


def _ensure(conditions: list[Condition], kind: str, status: str, reason: str, message: str, now: float) -> bool:
    """ensureJobConditionStatus: a new status, reason or message replaces the condition (its times
    now); a condition that does not exist is added unless it would be False. Whether it changed."""
    new = Condition(kind, status, reason, message, now)
    for index, old in enumerate(conditions):
        if old.type == kind:
            if (old.status, old.reason, old.message) == (status, reason, message):
                return False
            conditions[index] = new
            return True
    if status == "False":
        return False
    conditions.append(new)
    return True


def completion_index(pod: Pod) -> int | None:
    """getCompletionIndex: the annotation's value, if it is a non-negative integer."""
    raw = pod.metadata.annotations.get(JOB_COMPLETION_INDEX)
    if raw is None or not (raw.isascii() and raw.isdigit()) or len(raw) > 18:  # not "²", nor past int64
        return None
    return int(raw)


def _index_or_unknown(pod: Pod) -> int:
    """byCompletionIndex: pods without a valid index first."""
    index = completion_index(pod)
    return -1 if index is None else index


def pod_generate_name_with_index(job_name: str, index: int) -> str:
    """podGenerateNameWithIndex: "<job>-<index>-", the job name cut to keep the index."""
    append = f"-{index}-"
    prefix = job_name + append
    if len(prefix) > MAX_GENERATED_NAME_LENGTH:
        prefix = prefix[: MAX_GENERATED_NAME_LENGTH - len(append)] + append
    return prefix


def _is_pod_failed(pod: Pod) -> bool:
    """isPodFailed (podReplacementPolicy TerminatingOrFailed): Failed, or deleted before succeeding."""
    if pod.status.phase == "Failed":
        return True
    return pod.metadata.deletion_timestamp is not None and pod.status.phase != "Succeeded"


_PHASE_ORDINAL = {"Pending": 0, "Unknown": 1, "Running": 2}


def _active_pods_order(pod: Pod) -> tuple[bool, int, bool, float, float]:
    """controller.ActivePods: the pods to delete first (unscheduled, pending, not ready, ready for
    the shortest time, newest). The start time stands for the time the pod became ready."""
    ready = pod.status.ready
    ready_since = -(pod.status.start_time or 0.0) if ready else 0.0
    return (
        bool(pod.spec.node_name),
        _PHASE_ORDINAL.get(pod.status.phase, 0),
        ready,
        ready_since,
        -pod.metadata.creation_timestamp,
    )


def _active_pods_for_removal(job: Job, pods: list[Pod], at_least: int) -> list[Pod]:
    """activePodsForRemoval: for Indexed Jobs, pods with an invalid or repeated index first."""
    remove: list[Pod] = []
    left: list[Pod] = pods
    if job.spec.completion_mode == "Indexed":
        completions = job.spec.completions or 0
        left = []
        groups: dict[int, list[Pod]] = {}
        for pod in sorted(pods, key=_index_or_unknown):
            index = completion_index(pod)
            if index is None or index >= completions:
                remove.append(pod)
            else:
                groups.setdefault(index, []).append(pod)
        for group in groups.values():
            group.sort(key=_active_pods_order)
            remove.extend(group[:-1])
            left.append(group[-1])
    if len(remove) < at_least:
        remove.extend(sorted(left, key=_active_pods_order)[: at_least - len(remove)])
    return remove


class JobController:
    name = NAME
    watch_kinds = frozenset({"Pod", KIND})  # the kinds on_change reacts to

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        # The Job queue's rate limiter: DefaultJobApiBackOff (1 s) doubling to MaxJobApiBackOff (1 min).
        self.queue = DelayingQueue(ctx, "sync job", base=1.0, cap=60.0)
        self.ttl_queue = DelayingQueue(ctx, "ttl-after-finished")
        self.pods = OwnerIndex(KIND)
        self._keys_by_uid: dict[str, str] = {}
        self._states: dict[str, _JobState] = {}
        self._finish_times: dict[str, float] = {}  # pod uid -> when it was seen finishing
        self._orphans: list[str] = []  # pods of deleted Jobs, for the garbage collector

    # ------------------------------------------------------------------ watching

    def on_change(self, change: Change[StoredObject]) -> None:
        if (pod_change := change.of(Pod)) is not None:
            self._on_pod(pod_change)
        elif (job_change := change.of(Job)) is not None:
            self._on_job(job_change)

    def _on_job(self, change: Change[Job]) -> None:
        if change.type is ChangeType.DELETED:
            uid = change.previous.metadata.uid
            self._keys_by_uid.pop(uid, None)
            self._states.pop(uid, None)
            self._orphans.extend(self.pods.forget(uid))
            return
        job = change.latest
        self._keys_by_uid[job.metadata.uid] = change.key
        old: Job | None = change.old
        if old is None or old.spec != job.spec:
            self.queue.add(change.key)  # creation and spec changes: at once
        else:
            self.queue.add_after(change.key, SYNC_JOB_BATCH_PERIOD)  # status updates: batched
        if old is not None and job.status.start_time is not None:
            deadline = job.spec.active_deadline_seconds
            if deadline is not None and deadline != old.spec.active_deadline_seconds:
                self.queue.add_after(change.key, deadline - (self.ctx.now - job.status.start_time))
        if job.spec.ttl_seconds_after_finished is not None and is_finished(job):
            self.ttl_queue.add(change.key)

    def _on_pod(self, change: Change[Pod]) -> None:
        old: Pod | None = change.old
        new: Pod | None = change.new
        before, after = self.pods.observe(change)
        finishing = after is not None and new is not None and new.status.phase in TERMINAL_PHASES
        if finishing and new is not None and (old is None or old.status.phase not in TERMINAL_PHASES):
            self._finish_times.setdefault(new.metadata.uid, self.ctx.now)
        if change.type is ChangeType.DELETED and old is not None:
            self._finish_times.pop(old.metadata.uid, None)
        for uid in dict.fromkeys((before, after)):
            if uid is None:
                continue
            key = self._keys_by_uid.get(uid)
            if key is not None:
                self.queue.add_after(key, SYNC_JOB_BATCH_PERIOD)

    # ------------------------------------------------------------------ syncing

    def sync(self) -> bool:
        orphans, self._orphans = self._orphans, []
        collect_pods(self.ctx, orphans)
        keys = self.queue.take()
        for key in keys:
            self._sync_job(key)
        expiring = self.ttl_queue.take()
        for key in expiring:
            self._process_ttl(key)
        return bool(orphans or keys or expiring)

    def _state(self, job: Job) -> _JobState:
        return self._states.setdefault(job.metadata.uid, _JobState())

    def _pods_of(self, job: Job) -> list[Pod]:
        pods = []
        for key in self.pods.keys(job.metadata.uid):
            pod = self.ctx.cluster.get(Pod, key)
            if pod is not None:
                pods.append(pod)
        return pods

    def _finish_time(self, pod: Pod) -> float:
        """getFinishedTime: when the pod finished, else when it was deleted, else its creation."""
        seen = self._finish_times.get(pod.metadata.uid)
        if seen is not None:
            return seen
        if pod.metadata.deletion_timestamp is not None:
            return pod.metadata.deletion_timestamp
        return pod.metadata.creation_timestamp

    def _sync_job(self, key: str) -> None:
        if self._sync_job_once(key):
            self.queue.forget(key)
        else:
            self.queue.add_rate_limited(key)  # a refused pod create is retried with backoff

    def _sync_job_once(self, key: str) -> bool:
        """syncJob; False when a pod create failed (the sync is retried)."""
        job: Job | None = self.ctx.cluster.get(Job, key)
        if job is None:
            return True
        state = self._state(job)
        if is_finished(job):
            state.failures_after_last_success, state.last_failure_time = 0, None
            return True
        now = self.ctx.now
        spec = job.spec
        indexed = spec.completion_mode == "Indexed"
        completions = spec.completions

        def valid(pod: Pod) -> bool:
            if not indexed:
                return True
            index = completion_index(pod)
            return index is not None and index < (completions or 0)

        pods = self._pods_of(job)
        active_pods = [pod for pod in pods if is_active(pod)]
        active = len(active_pods)
        ready = sum(1 for pod in active_pods if pod.status.ready)  # countReadyPods
        terminating = sum(
            1 for pod in pods if pod.metadata.deletion_timestamp is not None and pod.status.phase not in TERMINAL_PHASES
        )
        uncounted = [pod for pod in pods if pod.metadata.uid not in state.counted and valid(pod)]
        new_succeeded = [pod for pod in uncounted if pod.status.phase == "Succeeded"]
        new_failed = [pod for pod in uncounted if _is_pod_failed(pod)]
        succeeded = job.status.succeeded + len(new_succeeded)
        failed = job.status.failed + len(new_failed)
        start_time = job.status.start_time
        if start_time is None and not spec.suspend:
            start_time = now
        backoff = self._new_backoff_record(state, new_succeeded, new_failed)
        conditions = list(job.status.conditions)

        finished: Finishing | None = None
        if _true(conditions, SUCCESS_CRITERIA_MET):
            finished = (SUCCESS_CRITERIA_MET, COMPLETIONS_REACHED_REASON, COMPLETIONS_REACHED_MESSAGE)
        elif target := _true(conditions, FAILURE_TARGET):
            finished = (FAILED, target.reason, target.message)
        elif failed > spec.backoff_limit:
            finished = (FAILURE_TARGET, BACKOFF_LIMIT_EXCEEDED_REASON, BACKOFF_LIMIT_EXCEEDED_MESSAGE)
        elif self._past_active_deadline(job, start_time):
            finished = (FAILURE_TARGET, DEADLINE_EXCEEDED_REASON, DEADLINE_EXCEEDED_MESSAGE)
        elif spec.active_deadline_seconds is not None and not spec.suspend and start_time is not None:
            self.queue.add_after(key, spec.active_deadline_seconds - (now - start_time))

        succeeded_indexes = state.succeeded_indexes
        if indexed:
            succeeded_indexes = succeeded_indexes | {
                index for pod in new_succeeded if (index := completion_index(pod)) is not None
            }
            succeeded = len(succeeded_indexes)

        manage_ok = True
        if finished is not None:
            deleted = self._delete_pods(job, active_pods)
            active -= deleted.pods
            terminating += deleted.pods
            ready -= deleted.ready
        else:
            manage_called = False
            if job.metadata.deletion_timestamp is None:
                managed = self._manage(job, active_pods, succeeded, succeeded_indexes, backoff)
                active, manage_ok = managed.active, managed.ok
                terminating += managed.deleted.pods
                ready -= managed.deleted.ready
                manage_called = True
            if completions is None:
                complete = succeeded > 0 and active == 0
            else:
                complete = succeeded >= completions and active == 0
            if complete:
                finished = (SUCCESS_CRITERIA_MET, COMPLETIONS_REACHED_REASON, COMPLETIONS_REACHED_MESSAGE)
            elif manage_called:
                if spec.suspend and not _true(conditions, SUSPENDED):
                    if _ensure(conditions, SUSPENDED, "True", JOB_SUSPENDED_REASON, SUSPENDED_MESSAGE, now):
                        record(self.ctx, job, SUSPENDED_REASON, SUSPENDED_MESSAGE, source=SOURCE)
                elif not spec.suspend and _true(conditions, SUSPENDED):
                    _ensure(conditions, SUSPENDED, "False", JOB_RESUMED_REASON, RESUMED_MESSAGE, now)
                    record(self.ctx, job, RESUMED_REASON, RESUMED_MESSAGE, source=SOURCE)
                    start_time = now  # a resumed Job's deadline counts from now

        # trackJobStatusAndRemoveFinalizers: count the finished pods not yet in .status.
        status_succeeded = job.status.succeeded
        status_failed = job.status.failed
        counted_now: list[str] = []
        for pod in pods:
            uid = pod.metadata.uid
            if uid in state.counted:
                continue
            failed_pod = _is_pod_failed(pod)
            settling = job.metadata.deletion_timestamp is not None or finished is not None
            if not settling and pod.status.phase != "Succeeded" and not failed_pod:
                continue  # still running: its finalizer stays
            counted_now.append(uid)
            if not valid(pod):
                continue
            if pod.status.phase == "Succeeded":
                if not indexed:
                    status_succeeded += 1
            elif failed_pod or (finished is not None and finished[0] != SUCCESS_CRITERIA_MET):
                status_failed += 1  # when the Job fails, every unfinished pod counts as failed
        state.counted.update(counted_now)
        if indexed:
            state.succeeded_indexes = succeeded_indexes
            status_succeeded = len(succeeded_indexes)
        # The interim condition first (FailureTarget, SuccessCriteriaMet), the final one once no pod
        # is terminating any more, both with the same reason and message.
        if finished is not None and finished[0] == FAILURE_TARGET:
            _ensure(conditions, FAILURE_TARGET, "True", finished[1], finished[2], now)
            finished = (FAILED, finished[1], finished[2])
        if finished is not None and finished[0] == SUCCESS_CRITERIA_MET:
            _ensure(conditions, SUCCESS_CRITERIA_MET, "True", finished[1], finished[2], now)
            finished = (COMPLETE, finished[1], finished[2])
        completion_time = job.status.completion_time
        job_finished = finished is not None and terminating == 0
        if job_finished and finished is not None:
            _ensure(conditions, finished[0], "True", finished[1], finished[2], now)
            if finished[0] == COMPLETE:
                completion_time = now
        status = JobStatus(
            active=active,
            succeeded=status_succeeded,
            failed=status_failed,
            start_time=start_time,
            completion_time=completion_time,
            conditions=tuple(conditions),
            ready=ready,
            terminating=terminating,
            completed_indexes=format_indexes(succeeded_indexes) if indexed else "",
        )
        state.failures_after_last_success, state.last_failure_time = backoff
        if job_finished:
            state.finished_at = now
        current = self.ctx.cluster.get(Job, key)
        if current is not None and current.metadata.uid == job.metadata.uid and current.status != status:
            job = self.ctx.cluster.update(replace(current, status=status))
        if job_finished and finished is not None:
            self._record_finished(job, finished)
        return manage_ok

    def _record_finished(self, job: Job, finished: Finishing) -> None:
        if finished[0] == COMPLETE:
            completions = job.spec.completions
            if completions is not None and job.status.succeeded > completions:
                record(
                    self.ctx, job, TOO_MANY_SUCCEEDED_REASON, TOO_MANY_SUCCEEDED_MESSAGE, warning=True, source=SOURCE
                )
            record(self.ctx, job, COMPLETED_REASON, COMPLETED_MESSAGE, source=SOURCE)
        else:
            record(self.ctx, job, finished[1], finished[2], warning=True, source=SOURCE)

    def _past_active_deadline(self, job: Job, start_time: float | None) -> bool:
        deadline = job.spec.active_deadline_seconds
        if deadline is None or start_time is None or job.spec.suspend:
            return False
        return self.ctx.now - start_time >= deadline - _EPSILON

    # ------------------------------------------------------------------ pod failure backoff

    def _new_backoff_record(
        self, state: _JobState, new_succeeded: list[Pod], new_failed: list[Pod]
    ) -> tuple[int, float | None]:
        """newBackoffRecord: consecutive failures since the last success, and the last failure."""
        failures, last_failure = state.failures_after_last_success, state.last_failure_time
        success_times = sorted(self._finish_time(pod) for pod in new_succeeded)
        failure_times = sorted(self._finish_time(pod) for pod in new_failed)
        if not success_times:
            if not failure_times:
                return failures, last_failure
            return failures + len(failure_times), failure_times[-1]
        if not failure_times:
            return 0, None
        failures, last_failure = 0, None
        last_success = success_times[-1]
        for failed_at in reversed(failure_times):
            if failed_at <= last_success:
                break
            if last_failure is None:
                last_failure = failed_at
            failures += 1
        return failures, last_failure

    def _backoff_remaining(self, backoff: tuple[int, float | None]) -> float:
        """getRemainingTimeForFailuresCount: 10 s after one failure, doubling per failure, capped."""
        failures, last_failure = backoff
        if failures == 0 or last_failure is None:
            return 0.0
        delay = DEFAULT_POD_FAILURE_BACKOFF
        for _ in range(1, failures):
            delay *= 2
            if delay >= MAX_POD_FAILURE_BACKOFF:
                delay = MAX_POD_FAILURE_BACKOFF
                break
        elapsed = self.ctx.now - last_failure
        remaining = delay - elapsed
        return remaining if remaining > _EPSILON else 0.0

    # ------------------------------------------------------------------ manageJob

    def _manage(
        self,
        job: Job,
        active_pods: list[Pod],
        succeeded: int,
        succeeded_indexes: set[int],
        backoff: tuple[int, float | None],
    ) -> _Managed:
        """manageJob: delete surplus pods or create missing ones."""
        spec = job.spec
        active = len(active_pods)
        if spec.suspend:
            removed = self._delete_pods(job, _active_pods_for_removal(job, active_pods, active))
            return _Managed(active - removed.pods, removed)
        if spec.completions is None:
            # Without completions every pod may finish the Job: after a success, let the rest run.
            want_active = active if succeeded > 0 else spec.parallelism
        else:
            want_active = max(min(spec.completions - succeeded, spec.parallelism), 0)
        surplus = max(active - want_active, 0)
        to_delete = _active_pods_for_removal(job, active_pods, surplus)[:MAX_POD_CREATE_DELETE_PER_SYNC]
        if to_delete:
            removed = self._delete_pods(job, to_delete)
            return _Managed(active - removed.pods, removed)
        missing = want_active - active
        if missing <= 0:
            return _Managed(active)
        remaining = self._backoff_remaining(backoff)
        if remaining > 0:
            self.queue.add_after(job.metadata.key, max(remaining, SYNC_JOB_BATCH_PERIOD))
            return _Managed(0)  # upstream reports no active pods while it waits out the backoff
        missing = min(missing, MAX_POD_CREATE_DELETE_PER_SYNC)
        indexes: list[int | None] = [None] * missing
        if spec.completion_mode == "Indexed":
            indexes = list(self._first_pending_indexes(job, active_pods, succeeded_indexes, missing))
        made = slow_start(len(indexes), lambda i: self._create_job_pod(job, indexes[i]))
        return _Managed(active + made, ok=made == len(indexes))

    @staticmethod
    def _first_pending_indexes(
        job: Job, active_pods: list[Pod], succeeded_indexes: set[int], count: int
    ) -> Iterable[int]:
        """firstPendingIndexes: the lowest indexes neither succeeded nor running."""
        taken = set(succeeded_indexes)
        taken.update(index for pod in active_pods if (index := completion_index(pod)) is not None)
        found = 0
        for index in range(job.spec.completions or 0):
            if found >= count:
                return
            if index not in taken:
                found += 1
                yield index

    def _create_job_pod(self, job: Job, index: int | None) -> bool:
        template = job.spec.template
        labels = dict(template.labels)
        labels[CONTROLLER_UID_LABEL] = job.metadata.uid
        labels[JOB_NAME_LABEL] = job.metadata.name
        labels[LEGACY_CONTROLLER_UID_LABEL] = job.metadata.uid
        labels[LEGACY_JOB_NAME_LABEL] = job.metadata.name
        annotations = dict(template.annotations)
        prefix = f"{job.metadata.name}-"
        if index is not None:
            annotations[JOB_COMPLETION_INDEX] = str(index)
            labels[JOB_COMPLETION_INDEX] = str(index)  # PodIndexLabel
            prefix = pod_generate_name_with_index(job.metadata.name, index)
        pod = create_pod(
            self.ctx,
            job,
            controller_ref(KIND, API_VERSION, job),
            prefix=prefix,
            labels=labels,
            annotations=annotations,
            spec=template.spec,
            source=SOURCE,
        )
        return pod is not None

    def _delete_pods(self, job: Job, pods: list[Pod]) -> _Deleted:
        """deleteJobPods / deleteActivePods: the pods deleted, and the Ready ones among them."""
        deleted = [pod for pod in pods if delete_owned_pod(self.ctx, job, pod, source=SOURCE)]
        return _Deleted(len(deleted), sum(1 for pod in deleted if pod.status.ready))

    # ------------------------------------------------------------------ TTL after finished

    def _process_ttl(self, key: str) -> None:
        """The TTL-after-finished controller: a finished Job with ttlSecondsAfterFinished is
        deleted that long after its Complete or Failed condition (no event); its pods follow."""
        job: Job | None = self.ctx.cluster.get(Job, key)
        if job is None or job.spec.ttl_seconds_after_finished is None or not is_finished(job):
            return
        state = self._states.get(job.metadata.uid)
        finished_at = state.finished_at if state is not None else None
        if finished_at is None:
            finished_at = job.status.completion_time if job.status.completion_time is not None else self.ctx.now
        remaining = finished_at + job.spec.ttl_seconds_after_finished - self.ctx.now
        if remaining > _EPSILON:
            self.ttl_queue.add_after(key, remaining)
            return
        self.ctx.cluster.delete(Job, key)
