"""DefaultPreemption's registered events (defaultpreemption/default_preemption.go, with
SchedulerAsyncPreemption on as in v1.34): pod deletions, whose hint always says skip."""

from scheduler_core.api.types import ObjectMeta, Pod, PodSpec
from scheduler_core.scheduler.cluster_events import ActionType, ClusterEvent, EventResource, QueueingHint
from scheduler_core.scheduler.plugins.default_preemption import DefaultPreemption
from scheduler_core.scheduler.runtime import Handle


def test_registers_pod_deletions() -> None:
    registrations = DefaultPreemption({}, Handle()).events_to_register()
    assert [r.event for r in registrations] == [ClusterEvent(EventResource.POD, ActionType.DELETE)]


def test_a_deletion_never_requeues_a_pod_by_itself() -> None:
    """The plugins whose failures the preemption resolves decide when the pod is retried."""
    plugin = DefaultPreemption({}, Handle())
    deleted = Pod(ObjectMeta("victim"), PodSpec(node_name="node"))
    preemptor = Pod(ObjectMeta("preemptor"))
    assert plugin.is_schedulable_after_pod_deleted(preemptor, deleted, None) is QueueingHint.QUEUE_SKIP
