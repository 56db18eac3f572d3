"""The controllers a simulation runs, in the order they sync at each instant."""

from collections.abc import Callable
from typing import Any

from scheduler_core.controllers.kubelet import Kubelet
from scheduler_core.controllers.scheduler_controller import SchedulerController


def default_controllers() -> list[Callable[[Any], Any]]:
    return [SchedulerController, Kubelet]
