"""Deletes old runs now, as the end of every run does for its scenario (playground/retention.py)."""

from typing import Any

from django.core.management.base import BaseCommand

from playground.retention import prune_all, runs_kept


class Command(BaseCommand):
    help = "Delete runs past the newest PLAYGROUND_RUNS_KEPT per scenario (linked and running runs stay)."

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = prune_all()
        self.stdout.write(f"deleted {deleted} run(s); each scenario keeps its newest {runs_kept()} and linked ones")
