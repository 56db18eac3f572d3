"""The CronJob controller (pkg/controller/cronjob, ControllerV2) and the garbage collector's cascade
for the Jobs of deleted CronJobs.

Each sync looks for the most recent unmet schedule time (cron_schedule.next_run, in spec.timeZone,
simulated time 0 being SIMULATION_EPOCH), creates its Job ("<cronjob>-<scheduled time in minutes
since the Unix epoch>", as getJobName does) unless concurrencyPolicy Forbid finds one still active
(JobAlreadyActive) or startingDeadlineSeconds has passed (MissSchedule); Replace deletes the active
Jobs first. It then requeues itself for the next schedule time plus 100 ms (nextScheduleDelta), so
Jobs appear at hh:mm:00.1. Finished Jobs beyond successfulJobsHistoryLimit and
failedJobsHistoryLimit are deleted, oldest first.

Those requeues are real timers: a CronJob that is not suspended keeps a simulation running forever,
so a scenario with one needs an end (`simulate --until`).
"""

import math
from dataclasses import dataclass, replace
from datetime import timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from scheduler_core.admission.priority import AdmissionError
from scheduler_core.api.cron_schedule import SIMULATION_EPOCH, CronScheduleError, next_run
from scheduler_core.api.types import ObjectMeta
from scheduler_core.api.workloads import CronJob, CronJobStatus, Job, JobReference
from scheduler_core.controllers.base import Context, record
from scheduler_core.controllers.controller_kit import DelayingQueue, OwnerIndex, collect_objects, controller_ref
from scheduler_core.controllers.job import COMPLETE, FAILED, finished_condition_type, is_finished
from scheduler_core.store.cluster import Change, ChangeType, ConflictError, StoredObject

NAME = "cronjob"
SOURCE = "cronjob-controller"
KIND = "CronJob"
API_VERSION = "batch/v1"

SCHEDULED_TIMESTAMP_ANNOTATION = "batch.kubernetes.io/cronjob-scheduled-timestamp"
NEXT_SCHEDULE_DELTA = 0.1  # nextScheduleDelta: requeue 100 ms after the schedule time
TOO_MANY_MISSED = 100
UNIX_EPOCH_SECONDS = int(SIMULATION_EPOCH.timestamp())

# Event reasons and messages (cronjob_controllerv2.go, utils.go).
SUCCESSFUL_CREATE_REASON = "SuccessfulCreate"
CREATED_JOB_MESSAGE = "Created job {}"
FAILED_CREATE_REASON = "FailedCreate"
ERROR_CREATING_JOB_MESSAGE = "Error creating job: {}"
SUCCESSFUL_DELETE_REASON = "SuccessfulDelete"
DELETED_JOB_MESSAGE = "Deleted job {}"
SAW_COMPLETED_JOB_REASON = "SawCompletedJob"
SAW_COMPLETED_JOB_MESSAGE = "Saw completed job: {}, condition: {}"
UNEXPECTED_JOB_REASON = "UnexpectedJob"
UNEXPECTED_JOB_MESSAGE = "Saw a job that the controller did not create or forgot: {}"
MISSING_JOB_REASON = "MissingJob"
MISSING_JOB_MESSAGE = "Active job went missing: {}"
JOB_ALREADY_ACTIVE_REASON = "JobAlreadyActive"
JOB_ALREADY_ACTIVE_MESSAGE = "Not starting job because prior execution is running and concurrency policy is Forbid"
MISS_SCHEDULE_REASON = "MissSchedule"
MISS_SCHEDULE_MESSAGE = "Missed scheduled time to start a job: {}"
TOO_MANY_MISSED_REASON = "TooManyMissedTimes"
TOO_MANY_MISSED_MESSAGE = (
    "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew"
)
UNKNOWN_TIME_ZONE_REASON = "UnknownTimeZone"
UNKNOWN_TIME_ZONE_MESSAGE = 'invalid timeZone: "{}": unknown time zone {}'
UNPARSEABLE_SCHEDULE_REASON = "UnparseableSchedule"
UNPARSEABLE_SCHEDULE_MESSAGE = 'unparseable schedule: "{}" : {}'
INVALID_SCHEDULE_REASON = "InvalidSchedule"
INVALID_SCHEDULE_MESSAGE = "invalid schedule: {} : {}"

_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def rfc1123z(seconds: float) -> str:
    """Go's time.RFC1123Z of a UTC time: "Thu, 01 Jan 2026 00:02:00 +0000"."""
    moment = SIMULATION_EPOCH + timedelta(seconds=seconds)
    return f"{_DAYS[moment.weekday()]}, {moment:%d} {_MONTHS[moment.month - 1]} {moment:%Y %H:%M:%S} +0000"


def rfc3339(seconds: float, time_zone: str | None) -> str:
    """Go's time.RFC3339 in the zone: "2026-01-01T00:01:00Z", "2026-01-02T09:00:00+09:00"."""
    moment = (SIMULATION_EPOCH + timedelta(seconds=seconds)).astimezone(ZoneInfo(time_zone or "UTC"))
    offset = moment.utcoffset() or timedelta(0)
    if offset == timedelta(0):
        suffix = "Z"
    else:
        minutes = int(offset.total_seconds()) // 60
        sign = "+" if minutes >= 0 else "-"
        suffix = f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
    return f"{moment:%Y-%m-%dT%H:%M:%S}{suffix}"


def job_name(cron_job: CronJob, scheduled: float) -> str:
    """getJobName: the scheduled time in minutes since the Unix epoch."""
    return f"{cron_job.metadata.name}-{(UNIX_EPOCH_SECONDS + math.floor(scheduled)) // 60}"


@dataclass(slots=True)
class _Status:
    """The CronJob's status being reconciled (cronJobCopy). Its active Jobs are found by uid
    (inActiveList, deleteFromActiveList), and by name only for the schedule's next Job (inActiveListByName)."""

    active: list[JobReference]
    last_schedule_time: float | None
    last_successful_time: float | None

    def freeze(self) -> CronJobStatus:
        return CronJobStatus(tuple(self.active), self.last_schedule_time, self.last_successful_time)

    def has_uid(self, uid: str) -> bool:
        return any(ref.uid == uid for ref in self.active)

    def has_name(self, name: str) -> bool:
        return any(ref.name == name for ref in self.active)

    def remove_uid(self, uid: str) -> None:
        self.active = [ref for ref in self.active if ref.uid != uid]


class _ScheduleError(Exception):
    pass


class CronJobController:
    name = NAME
    watch_kinds = frozenset({"Job", KIND})  # the kinds on_change reacts to

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.queue = DelayingQueue(ctx, "sync cronjob")
        self.jobs = OwnerIndex(KIND)
        self._keys_by_uid: dict[str, str] = {}
        self._orphans: list[str] = []  # Jobs of deleted CronJobs, for the garbage collector
        self._failed = False  # the current sync ended in an API error

    # ------------------------------------------------------------------ watching

    def on_change(self, change: Change[StoredObject]) -> None:
        if change.kind == "Job":
            before, after = self.jobs.observe(change)
            for uid in dict.fromkeys((before, after)):
                key = self._keys_by_uid.get(uid) if uid is not None else None
                if key is not None:
                    self.queue.add(key)
        elif (cron_job_change := change.of(CronJob)) is not None:
            self._on_cron_job(cron_job_change)

    def _on_cron_job(self, change: Change[CronJob]) -> None:
        if change.type is ChangeType.DELETED:
            uid = change.previous.metadata.uid
            self._keys_by_uid.pop(uid, None)
            self._orphans.extend(self.jobs.forget(uid))
            return
        cron_job = change.latest
        self._keys_by_uid[cron_job.metadata.uid] = change.key
        old: CronJob | None = change.old
        if old is not None and (
            old.spec.schedule != cron_job.spec.schedule or old.spec.time_zone != cron_job.spec.time_zone
        ):
            # updateCronJob: a new schedule requeues for its next time.
            try:
                self.queue.add_after(change.key, self._next_schedule_delay(cron_job, self.ctx.now))
            except CronScheduleError:
                message = f"unparseable schedule for cronjob: {cron_job.spec.schedule}"
                record(self.ctx, cron_job, "UnParseableCronJobSchedule", message, warning=True, source=SOURCE)
            return
        self.queue.add(change.key)

    # ------------------------------------------------------------------ schedule arithmetic

    def _next(self, cron_job: CronJob, after: float) -> float:
        return next_run(cron_job.spec.schedule, cron_job.spec.time_zone, after)

    def _most_recent_schedule_time(
        self, cron_job: CronJob, status: CronJobStatus | _Status, now: float, include_deadline: bool
    ) -> tuple[float, float | None, int]:
        """mostRecentScheduleTime: (earliest time considered, most recent schedule time not after
        now or None, number of missed schedules)."""
        earliest = cron_job.metadata.creation_timestamp
        if status.last_schedule_time is not None:
            earliest = status.last_schedule_time
        deadline = cron_job.spec.starting_deadline_seconds
        if include_deadline and deadline is not None:
            earliest = max(earliest, now - deadline)
        first = self._next(cron_job, earliest)
        second = self._next(cron_job, first)
        if now < first:
            return earliest, None, 0
        if now < second:
            return earliest, first, 0
        between = round(second - first)
        if between < 1:
            raise _ScheduleError("time difference between two schedules is less than 1 second")
        missed = int(now - first) // between + 1
        most_recent: float | None = None
        moment = self._next(cron_job, first + (missed - 2) * between)
        while moment <= now:
            most_recent = moment
            moment = self._next(cron_job, moment)
        return earliest, most_recent, missed

    def _next_schedule_delay(self, cron_job: CronJob, now: float, status: _Status | None = None) -> float:
        """nextScheduleTimeDuration: until the schedule after the most recent one, plus 100 ms."""
        try:
            earliest, most_recent, missed = self._most_recent_schedule_time(
                cron_job, status or cron_job.status, now, False
            )
        except _ScheduleError:
            most_recent = now
        else:
            if most_recent is None:
                most_recent = earliest if missed == 0 else now
        return self._next(cron_job, most_recent) + NEXT_SCHEDULE_DELTA - now

    # ------------------------------------------------------------------ syncing

    def sync(self) -> bool:
        orphans, self._orphans = self._orphans, []
        collect_objects(self.ctx, "Job", orphans)
        keys = self.queue.take()
        for key in keys:
            self._sync(key)
        return bool(orphans or keys)

    def _jobs_of(self, cron_job: CronJob) -> list[Job]:
        jobs = []
        for key in self.jobs.keys(cron_job.metadata.uid):
            job = self.ctx.cluster.get(Job, key)
            if job is not None:
                jobs.append(job)
        return jobs

    def _sync(self, key: str) -> None:
        cron_job: CronJob | None = self.ctx.cluster.get(CronJob, key)
        if cron_job is None:
            return
        jobs = self._jobs_of(cron_job)
        status = _Status(
            list(cron_job.status.active), cron_job.status.last_schedule_time, cron_job.status.last_successful_time
        )
        self._cleanup_finished_jobs(cron_job, jobs, status)
        self._failed = False
        requeue = self._sync_cron_job(cron_job, jobs, status)
        frozen = status.freeze()
        current = self.ctx.cluster.get(CronJob, key)
        if current is not None and current.metadata.uid == cron_job.metadata.uid and current.status != frozen:
            self.ctx.cluster.update(replace(current, status=frozen))
        if self._failed:
            self.queue.add_rate_limited(key)  # a refused Job create is retried with backoff
        elif requeue is not None:
            self.queue.forget(key)
            self.queue.add_after(key, requeue)

    def _cleanup_finished_jobs(self, cron_job: CronJob, jobs: list[Job], status: _Status) -> None:
        """cleanupFinishedJobs: keep the newest successful and failed Jobs within the history limits."""
        successful = [job for job in jobs if finished_condition_type(job) == COMPLETE]
        failed = [job for job in jobs if finished_condition_type(job) == FAILED]
        self._remove_oldest(cron_job, successful, cron_job.spec.successful_jobs_history_limit, status)
        self._remove_oldest(cron_job, failed, cron_job.spec.failed_jobs_history_limit, status)

    def _remove_oldest(self, cron_job: CronJob, jobs: list[Job], keep: int, status: _Status) -> None:
        surplus = len(jobs) - keep
        if surplus <= 0:
            return

        def by_start_time(job: Job) -> tuple[bool, float, str]:
            start = job.status.start_time
            return (start is None, start or 0.0, job.metadata.name)

        for job in sorted(jobs, key=by_start_time)[:surplus]:
            self._delete_job(cron_job, job, status)

    def _delete_job(self, cron_job: CronJob, job: Job, status: _Status) -> bool:
        """deleteJob: delete the Job (its pods follow with the garbage collector), drop it from active."""
        try:
            self.ctx.cluster.delete(Job, job.metadata.key)
        except ConflictError as error:
            record(self.ctx, cron_job, "FailedDelete", f"Deleted job: {error}", warning=True, source=SOURCE)
            return False
        status.remove_uid(job.metadata.uid)
        record(
            self.ctx, cron_job, SUCCESSFUL_DELETE_REASON, DELETED_JOB_MESSAGE.format(job.metadata.name), source=SOURCE
        )
        return True

    def _sync_cron_job(self, cron_job: CronJob, jobs: list[Job], status: _Status) -> float | None:
        """syncCronJob: reconcile the active list with the Jobs, then start the Job of the most
        recent unmet schedule time. Returns when to sync again, or None."""
        now = self.ctx.now
        children: set[str] = set()  # the uids of the CronJob's Jobs
        for job in jobs:
            name, uid = job.metadata.name, job.metadata.uid
            children.add(uid)
            found = status.has_uid(uid)
            if not found and not is_finished(job):
                message = UNEXPECTED_JOB_MESSAGE.format(name)
                record(self.ctx, cron_job, UNEXPECTED_JOB_REASON, message, warning=True, source=SOURCE)
            elif is_finished(job):
                if found:
                    status.remove_uid(uid)
                    message = SAW_COMPLETED_JOB_MESSAGE.format(name, finished_condition_type(job))
                    record(self.ctx, cron_job, SAW_COMPLETED_JOB_REASON, message, source=SOURCE)
                if finished_condition_type(job) == COMPLETE:
                    completed = job.status.completion_time
                    if status.last_successful_time is None:
                        status.last_successful_time = completed
                    if completed is not None and (
                        status.last_successful_time is None or completed > status.last_successful_time
                    ):
                        status.last_successful_time = completed
        for ref in list(status.active):
            if ref.uid in children:
                continue
            if self.ctx.cluster.get(Job, self._job_key(cron_job, ref.name)) is None:
                record(self.ctx, cron_job, MISSING_JOB_REASON, MISSING_JOB_MESSAGE.format(ref.name), source=SOURCE)
                status.remove_uid(ref.uid)

        if cron_job.metadata.deletion_timestamp is not None:
            return None
        time_zone = cron_job.spec.time_zone
        if time_zone is not None:
            try:
                ZoneInfo(time_zone)
            except (ZoneInfoNotFoundError, ValueError):
                message = UNKNOWN_TIME_ZONE_MESSAGE.format(time_zone, time_zone)
                record(self.ctx, cron_job, UNKNOWN_TIME_ZONE_REASON, message, warning=True, source=SOURCE)
                return None
        if cron_job.spec.suspend:
            return None
        try:
            self._next(cron_job, now)
        except CronScheduleError as error:
            message = UNPARSEABLE_SCHEDULE_MESSAGE.format(cron_job.spec.schedule, error)
            record(self.ctx, cron_job, UNPARSEABLE_SCHEDULE_REASON, message, warning=True, source=SOURCE)
            return None
        try:
            _, scheduled, missed = self._most_recent_schedule_time(cron_job, status, now, True)
        except _ScheduleError as error:
            message = INVALID_SCHEDULE_MESSAGE.format(cron_job.spec.schedule, error)
            record(self.ctx, cron_job, INVALID_SCHEDULE_REASON, message, warning=True, source=SOURCE)
            return None
        if scheduled is None:
            return self._next_schedule_delay(cron_job, now, status)
        if missed > TOO_MANY_MISSED:
            record(self.ctx, cron_job, TOO_MANY_MISSED_REASON, TOO_MANY_MISSED_MESSAGE, warning=True, source=SOURCE)

        deadline = cron_job.spec.starting_deadline_seconds
        if deadline is not None and scheduled + deadline < now:
            message = MISS_SCHEDULE_MESSAGE.format(rfc1123z(scheduled))
            record(self.ctx, cron_job, MISS_SCHEDULE_REASON, message, warning=True, source=SOURCE)
            return self._next_schedule_delay(cron_job, now, status)
        name = job_name(cron_job, scheduled)
        if status.has_name(name) or status.last_schedule_time == scheduled:
            return self._next_schedule_delay(cron_job, now, status)
        if cron_job.spec.concurrency_policy == "Forbid" and status.active:
            # Not starting job because the prior execution is still running.
            record(self.ctx, cron_job, JOB_ALREADY_ACTIVE_REASON, JOB_ALREADY_ACTIVE_MESSAGE, source=SOURCE)
            return self._next_schedule_delay(cron_job, now, status)
        if cron_job.spec.concurrency_policy == "Replace":
            for ref in list(status.active):
                active_job = self.ctx.cluster.get(Job, self._job_key(cron_job, ref.name))
                if active_job is None:
                    message = f'Get job: jobs.batch "{ref.name}" not found'
                    record(self.ctx, cron_job, "FailedGet", message, warning=True, source=SOURCE)
                    return None
                if not self._delete_job(cron_job, active_job, status):
                    return None

        created = self._create_job(cron_job, scheduled, name, status)
        if created is None:
            return None
        status.active.append(JobReference(created.metadata.name, created.metadata.uid))  # getRef
        status.last_schedule_time = scheduled
        return self._next_schedule_delay(cron_job, now, status)

    @staticmethod
    def _job_key(cron_job: CronJob, name: str) -> str:
        namespace = cron_job.metadata.namespace
        return f"{namespace}/{name}" if namespace else name

    def _create_job(self, cron_job: CronJob, scheduled: float, name: str, status: _Status) -> Job | None:
        """getJobFromTemplate2 and the create: the Job to add to the active list (the one created,
        or one this CronJob made before and lost track of), or None when nothing more is to be done."""
        annotations = dict(cron_job.spec.job_annotations)
        annotations[SCHEDULED_TIMESTAMP_ANNOTATION] = rfc3339(scheduled, cron_job.spec.time_zone)
        metadata = ObjectMeta(
            name=name,
            namespace=cron_job.metadata.namespace,
            labels=dict(cron_job.spec.job_labels),
            annotations=annotations,
            owner_references=(controller_ref(KIND, API_VERSION, cron_job),),
        )
        try:
            job: Job = self.ctx.cluster.create(Job(metadata=metadata, spec=cron_job.spec.job_template))
        except ConflictError:
            # Already there: adopt it into the active list if this CronJob made it.
            existing: Job | None = self.ctx.cluster.get(Job, metadata.key)
            if existing is None:
                return None
            ref = existing.metadata.controller_ref()
            if ref is None or ref.kind != KIND or ref.uid != cron_job.metadata.uid:
                return None
            return None if status.has_uid(existing.metadata.uid) else existing
        except AdmissionError as error:
            message = ERROR_CREATING_JOB_MESSAGE.format(error)
            record(self.ctx, cron_job, FAILED_CREATE_REASON, message, warning=True, source=SOURCE)
            self._failed = True
            return None
        record(
            self.ctx, cron_job, SUCCESSFUL_CREATE_REASON, CREATED_JOB_MESSAGE.format(job.metadata.name), source=SOURCE
        )
        return job
