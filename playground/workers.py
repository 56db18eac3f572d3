"""Simulation workers: in the scale-out set-up (REDIS_URL), runs execute in Channels worker processes
(`manage.py runworker simulation-runs`), so web processes only serve pages and relay events, and a
run survives the restart of the web process that started it."""

import contextlib
import os
import threading
from typing import Any

from channels.consumer import SyncConsumer
from django.db import close_old_connections

from playground import heap

RUN_CHANNEL = "simulation-runs"
# The thread simulating runs yields the CPU to the web processes on the same machine: they send a
# run's frames to its viewers, and a simulation that runs ahead of them only lengthens the wait for
# each frame (load harness, scale-out, 200 viewers: p95 from send to read 0.30-0.53 s at the same
# priority, 0.15-0.21 s at this one). Linux keeps a nice value per thread.
SIMULATION_NICENESS = 10


def yield_cpu_to_web_processes() -> None:
    thread = threading.get_native_id()
    with contextlib.suppress(OSError):  # not allowed here: the run goes on at the priority it has
        if os.getpriority(os.PRIO_PROCESS, thread) < SIMULATION_NICENESS:
            os.setpriority(os.PRIO_PROCESS, thread, SIMULATION_NICENESS)


class RunWorker(SyncConsumer):
    def run_execute(self, message: dict[str, Any]) -> None:
        from playground.models import Run
        from playground.runs import execute

        heap.install()  # this process simulates big runs: short collector pauses (playground/heap.py)
        yield_cpu_to_web_processes()
        close_old_connections()
        try:
            run = Run.objects.select_related("scenario", "version").filter(pk=message["run"]).first()
            if run is not None and run.status == Run.Status.QUEUED:
                execute(run)
        finally:
            close_old_connections()
