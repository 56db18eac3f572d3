"""The controllers a simulation runs, in the order they sync at each instant.

Order (keep it when adding one): workload controllers top-down (deployment, replicaset,
statefulset, daemonset, cronjob, job), then autoscaling (horizontal-pod-autoscaler), then
disruption and node health (disruption, node-lifecycle, taint-eviction, drain), then networking
(endpoints), then the scheduler, then the kubelets.
"""

from collections.abc import Callable
from typing import Any

from scheduler_core.controllers.kubelet import Kubelet
from scheduler_core.controllers.scheduler_controller import SchedulerController


def default_controllers() -> list[Callable[[Any], Any]]:
    return [
        # workload controllers
        # autoscaling
        # disruption and node health
        # networking
        SchedulerController,
        Kubelet,
    ]
