"""Reading a run's stored events in tests: frames are stored packed (playground/packed_frames.py),
so the database cannot look inside them; they are filtered here, in order."""

from playground.models import Run, RunEvent


def events_with_reason(run: Run, reason: str) -> list[RunEvent]:
    """The run's stored events with this reason, in sequence order."""
    return [row for row in run.events.order_by("seq") if (row.payload.get("event") or {}).get("reason") == reason]
