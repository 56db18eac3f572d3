from dataclasses import replace

from scheduler_core.api.types import ObjectMeta, Pod, PodSpec
from scheduler_core.scheduler.plugins.priority_sort import PrioritySort
from scheduler_core.scheduler.queue import ClusterEvent, QueuedPodInfo, SchedulingQueue, backoff_duration


def pod(name: str, priority: int = 0) -> Pod:
    return Pod(ObjectMeta(name, "default"), PodSpec(priority=priority))


def queue() -> SchedulingQueue:
    return SchedulingQueue(PrioritySort().less)


def test_higher_priority_pops_first_then_the_earlier_queued():
    q = queue()
    q.add(pod("late-low"), now=2.0)
    q.add(pod("early-low"), now=1.0)
    q.add(pod("high", priority=100), now=3.0)
    assert [q.pop(now=5.0).key for _ in range(3)] == ["default/high", "default/early-low", "default/late-low"]
    assert q.pop(now=5.0) is None


def test_equal_pods_pop_in_insertion_order():
    q = queue()
    for name in ("a", "b", "c"):
        q.add(pod(name), now=0.0)
    assert [q.pop(now=0.0).key for _ in range(3)] == ["default/a", "default/b", "default/c"]


def test_backoff_doubles_from_one_second_up_to_ten():
    durations = [backoff_duration(QueuedPodInfo(pod("p"), 0.0, unschedulable_count=n), 1.0, 10.0) for n in range(7)]
    assert durations == [0.0, 1.0, 2.0, 4.0, 8.0, 10.0, 10.0]


def test_rejected_pod_waits_for_an_event_its_rejecting_plugin_cares_about():
    q = queue()
    q.add(pod("p"), now=0.0)
    info = q.pop(now=0.0)
    q.add_unschedulable(info, now=0.0, rejectors=["NodeResourcesFit"])
    assert q.location("default/p") == "unschedulable"

    assert q.move_all_to_active_or_backoff([ClusterEvent.NODE_LABEL_UPDATE], now=5.0) == 0
    assert q.location("default/p") == "unschedulable"

    assert q.move_all_to_active_or_backoff([ClusterEvent.ASSIGNED_POD_DELETE], now=5.0) == 1
    assert q.pop(now=5.0).key == "default/p"


def test_a_pod_requeued_during_its_backoff_goes_to_backoffq_then_active():
    q = queue()
    q.add(pod("p"), now=0.0)
    info = q.pop(now=0.0)
    q.add_unschedulable(info, now=10.0, rejectors=["TaintToleration"])
    q.move_all_to_active_or_backoff([ClusterEvent.NODE_TAINT_UPDATE], now=10.2)
    assert q.location("default/p") == "backoff"
    q.add(pod("other"), now=10.3)
    assert q.pop(now=10.3).key == "default/other"  # activeQ first
    assert q.flush_backoff_completed(now=12.0) == 1
    assert q.location("default/p") == "active"


def test_unschedulable_pods_are_retried_after_five_minutes_without_events():
    q = queue()
    q.add(pod("p"), now=0.0)
    q.add_unschedulable(q.pop(now=0.0), now=0.0, rejectors=["NodeAffinity"])
    assert q.flush_unschedulable_leftover(now=299.0) == 0
    assert q.flush_unschedulable_leftover(now=301.0) == 1
    assert q.location("default/p") == "active"


def test_gated_pod_waits_until_its_gates_are_removed():
    gated = replace(pod("p"), spec=replace(pod("p").spec, scheduling_gates=("example.com/wait",)))
    q = SchedulingQueue(PrioritySort().less, pre_enqueue=lambda p: not p.spec.scheduling_gates)
    q.add(gated, now=0.0)
    assert q.pop(now=0.0) is None
    q.update(pod("p"), now=1.0)
    assert q.pop(now=1.0).key == "default/p"


def test_a_pod_deleted_while_queued_is_never_popped():
    q = queue()
    q.add(pod("p"), now=0.0)
    q.delete("default/p")
    assert q.pop(now=0.0) is None
