"""The controllers a simulation runs, in the order they sync at each instant.

Order (keep it when adding one): workload controllers top-down (deployment, replicaset,
statefulset, daemonset, cronjob, job), then autoscaling (horizontal-pod-autoscaler), then
disruption and node health (disruption, resourcequota, node-lifecycle, taint-eviction, drain), then networking
(endpoints), then storage (persistentvolume-binder), then the scheduler, then the kubelets (kubelet, then its eviction
manager node-pressure).
"""

from collections.abc import Callable
from typing import Any

from scheduler_core.controllers.cronjob import CronJobController
from scheduler_core.controllers.daemonset import DaemonSetController
from scheduler_core.controllers.deployment import DeploymentController
from scheduler_core.controllers.disruption import DisruptionController
from scheduler_core.controllers.drain import DrainController
from scheduler_core.controllers.endpoints import EndpointsController
from scheduler_core.controllers.horizontal_pod_autoscaler import HorizontalPodAutoscalerController
from scheduler_core.controllers.job import JobController
from scheduler_core.controllers.kubelet import Kubelet
from scheduler_core.controllers.node_lifecycle import NodeLifecycleController
from scheduler_core.controllers.node_pressure import NodePressureEviction
from scheduler_core.controllers.persistentvolume import PersistentVolumeController
from scheduler_core.controllers.replicaset import ReplicaSetController
from scheduler_core.controllers.resource_quota import ResourceQuotaController
from scheduler_core.controllers.scheduler_controller import SchedulerController
from scheduler_core.controllers.statefulset import StatefulSetController
from scheduler_core.controllers.taint_eviction import TaintEvictionController


def default_controllers() -> list[Callable[[Any], Any]]:
    return [
        # workload controllers
        DeploymentController,
        ReplicaSetController,
        StatefulSetController,
        DaemonSetController,
        CronJobController,
        JobController,
        # autoscaling
        HorizontalPodAutoscalerController,
        # disruption and node health
        DisruptionController,
        ResourceQuotaController,
        NodeLifecycleController,
        TaintEvictionController,
        DrainController,
        # networking
        EndpointsController,
        # storage
        PersistentVolumeController,
        SchedulerController,
        Kubelet,
        NodePressureEviction,
    ]
