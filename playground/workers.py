"""Simulation workers: in the scale-out set-up (REDIS_URL), runs execute in Channels worker processes
(`manage.py runworker simulation-runs`), so web processes only serve pages and relay events, and a
run survives the restart of the web process that started it."""

from typing import Any

from channels.consumer import SyncConsumer
from django.db import close_old_connections

from playground import heap

RUN_CHANNEL = "simulation-runs"


class RunWorker(SyncConsumer):
    def run_execute(self, message: dict[str, Any]) -> None:
        from playground.models import Run
        from playground.runs import execute

        heap.install()  # this process simulates big runs: short collector pauses (playground/heap.py)
        close_old_connections()
        try:
            run = Run.objects.select_related("scenario", "version").filter(pk=message["run"]).first()
            if run is not None and run.status == Run.Status.QUEUED:
                execute(run)
        finally:
            close_old_connections()
