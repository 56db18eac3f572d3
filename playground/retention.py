"""How many runs the database keeps: runs are never edited, but each holds every event it made (a
5,000-pod run is tens of thousands of rows), and a scenario run a hundred times would keep them all.

A scenario keeps its newest RUNS_KEPT_PER_SCENARIO runs (settings, PLAYGROUND_RUNS_KEPT) while
their events stay within EVENTS_KEPT_PER_SCENARIO (PLAYGROUND_EVENTS_KEPT: a 50,000-pod run is
250,000 events and about 22 MiB packed, so twenty of them would be 440 MB), its newest finished run
whatever its size, and always every run someone opened by its address (Run.linked: a shared
`?run=<id>` link keeps working) and every run still queued or running. Older ones are deleted with their events when a
run of the same scenario ends, by the thread or worker that executed it (never in a request), and
by `manage.py prune_runs` for all scenarios at once.
"""

from django.conf import settings
from django.db.models import Max

from playground.models import Run, RunEvent

ACTIVE = (Run.Status.QUEUED, Run.Status.RUNNING)
DELETE_CHUNK = 5_000  # event rows deleted per statement: SQLite holds its write lock that long


def runs_kept() -> int:
    return max(1, int(getattr(settings, "RUNS_KEPT_PER_SCENARIO", 20)))


def events_kept() -> int:
    return max(1, int(getattr(settings, "EVENTS_KEPT_PER_SCENARIO", 600_000)))


def prune_scenario_runs(scenario_id: int) -> int:
    """Deletes the scenario's runs that nobody linked to and that are not active, past the newest
    runs_kept() or past events_kept() events (the newest such run is kept whatever its size);
    returns how many runs were deleted."""
    newest = (
        Run.objects.filter(scenario_id=scenario_id)
        .order_by("-created_at", "-pk")
        .annotate(events_made=Max("events__seq"))  # seqs run 1..N: the index answers, no count
        .values_list("pk", "status", "linked", "events_made")
    )
    doomed: list[int] = []
    events = 0
    newest_finished = True
    for position, (pk, status, linked, made) in enumerate(newest):
        events += made or 0
        if status in ACTIVE or linked:
            continue
        if not newest_finished and (position >= runs_kept() or events > events_kept()):
            doomed.append(pk)
        newest_finished = False
    for run_id in doomed:
        delete_run(run_id)
    return len(doomed)


def delete_run(run_id: int) -> None:
    """A run and its events, the events in chunks so that no statement holds the database long."""
    while True:
        chunk = list(RunEvent.objects.filter(run_id=run_id).values_list("pk", flat=True)[:DELETE_CHUNK])
        if not chunk:
            break
        RunEvent.objects.filter(pk__in=chunk).delete()
    Run.objects.filter(pk=run_id).delete()


def prune_all() -> int:
    total = 0
    for scenario_id in Run.objects.values_list("scenario_id", flat=True).distinct():
        total += prune_scenario_runs(scenario_id)
    return total
