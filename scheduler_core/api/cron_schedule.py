"""CronJob schedules: the standard five-field cron syntax and @-descriptors, as the CronJob
controller accepts them (robfig/cron's standard parser), evaluated with croniter in spec.timeZone.

Simulated time 0 is SIMULATION_EPOCH (UTC), so "0 * * * *" first fires at 3600 s.
"""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from croniter import croniter

SIMULATION_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
_DESCRIPTORS = {
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
    "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
}


class CronScheduleError(ValueError):
    pass


def _expression(schedule: str) -> str:
    text = schedule.strip()
    if text.startswith(("TZ=", "CRON_TZ=")):
        raise CronScheduleError("cannot use TZ or CRON_TZ in schedule, use timeZone field instead")
    if text.startswith("@every "):
        raise CronScheduleError("@every is not simulated; write a five-field schedule")
    text = _DESCRIPTORS.get(text, text)
    if len(text.split()) != 5:
        raise CronScheduleError("expected exactly 5 fields, found " + str(len(text.split())) + f": {schedule[:60]}")
    return text


def _zone(time_zone: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name too long for a file name
        raise CronScheduleError(f'unknown time zone "{(time_zone or "")[:60]}"') from None


def validate_schedule(schedule: str, time_zone: str | None = None) -> None:
    expression = _expression(schedule)
    _zone(time_zone)
    if not croniter.is_valid(expression):
        raise CronScheduleError(f"unparseable schedule: {schedule[:60]}")


def next_run(schedule: str, time_zone: str | None, after_seconds: float) -> float:
    """The first scheduled time strictly after `after_seconds` of simulated time, in simulated seconds."""
    expression = _expression(schedule)
    zone = _zone(time_zone)
    start = (SIMULATION_EPOCH + timedelta(seconds=after_seconds)).astimezone(zone)
    following = croniter(expression, start).get_next(datetime)
    return (following.astimezone(UTC) - SIMULATION_EPOCH).total_seconds()
