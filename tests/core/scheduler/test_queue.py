from dataclasses import replace

from scheduler_core.api.types import ObjectMeta, Pod, PodSpec
from scheduler_core.scheduler.cluster_events import (
    ASSIGNED_POD_DELETE,
    ActionType,
    ClusterEvent,
    EventResource,
    PluginHint,
    QueueingHint,
    build_queueing_hint_map,
)
from scheduler_core.scheduler.plugins.priority_sort import PrioritySort
from scheduler_core.scheduler.plugins.scheduling_gates import SchedulingGates
from scheduler_core.scheduler.queue import QueuedPodInfo, SchedulingQueue, backoff_duration

NODE_LABEL_UPDATE = ClusterEvent(EventResource.NODE, ActionType.UPDATE_NODE_LABEL)
POD_LABEL_UPDATE = ClusterEvent(EventResource.POD, ActionType.UPDATE_POD_LABEL)


def pod(name: str, priority: int = 0) -> Pod:
    return Pod(ObjectMeta(name, "default"), PodSpec(priority=priority))


def queue() -> SchedulingQueue:
    return SchedulingQueue(PrioritySort().less)


def _deleted_pod_helps(p: Pod, old: Pod | None, new: Pod | None) -> QueueingHint:
    return QueueingHint.QUEUE_SKIP if old is not None and old.name == "unhelpful" else QueueingHint.QUEUE


def hinted_queue() -> SchedulingQueue:
    """A queue whose "Fit" plugin registered assigned-pod deletions (any but "unhelpful" help) and
    whose "Affinity" plugin registered pod label changes."""
    hints = {
        ClusterEvent(EventResource.POD, ActionType.DELETE): (PluginHint("Fit", _deleted_pod_helps),),
        POD_LABEL_UPDATE: (PluginHint("Fit", lambda p, old, new: QueueingHint.QUEUE),),
    }
    return SchedulingQueue(PrioritySort().less, hint_maps={"default-scheduler": hints})


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
    q = hinted_queue()
    q.add(pod("p"), now=0.0)
    info = q.pop(now=0.0)
    q.add_unschedulable(info, now=0.0, rejectors=["Fit"])
    assert q.location("default/p") == "unschedulable"

    assert q.move_all_to_active_or_backoff(NODE_LABEL_UPDATE, now=5.0) == 0
    assert q.location("default/p") == "unschedulable"

    assert q.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, now=5.0, old=pod("gone")) == 1
    assert q.pop(now=5.0).key == "default/p"


def test_a_hint_that_says_skip_keeps_the_pod_parked():
    q = hinted_queue()
    q.add(pod("p"), now=0.0)
    q.add_unschedulable(q.pop(now=0.0), now=0.0, rejectors=["Fit"])
    assert q.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, now=5.0, old=pod("unhelpful")) == 0
    assert q.location("default/p") == "unschedulable"


def test_only_the_rejecting_plugins_are_asked():
    asked = []
    hints = {
        NODE_LABEL_UPDATE: (
            PluginHint("Affinity", lambda p, old, new: asked.append("Affinity") or QueueingHint.QUEUE),
            PluginHint("Fit", lambda p, old, new: asked.append("Fit") or QueueingHint.QUEUE_SKIP),
        )
    }
    q = SchedulingQueue(PrioritySort().less, hint_maps={"default-scheduler": hints})
    q.add(pod("p"), now=0.0)
    q.add_unschedulable(q.pop(now=0.0), now=0.0, rejectors=["Fit"])
    assert q.move_all_to_active_or_backoff(NODE_LABEL_UPDATE, now=5.0) == 0
    assert asked == ["Fit"]


def test_an_event_no_plugin_registered_asks_no_hint():
    asked = []
    hints = {NODE_LABEL_UPDATE: (PluginHint("Fit", lambda p, old, new: asked.append(p) or QueueingHint.QUEUE),)}
    q = SchedulingQueue(PrioritySort().less, hint_maps={"default-scheduler": hints})
    q.add(pod("p"), now=0.0)
    q.add_unschedulable(q.pop(now=0.0), now=0.0, rejectors=["Fit"])
    assert q.move_all_to_active_or_backoff(ClusterEvent(EventResource.PERSISTENT_VOLUME, ActionType.ADD), 5.0) == 0
    assert asked == [] and q.location("default/p") == "unschedulable"
    assert q.move_all_to_active_or_backoff(NODE_LABEL_UPDATE, 5.0) == 1  # the registered one is asked
    assert len(asked) == 1


def test_a_queue_from_a_pending_plugin_skips_backoff():
    q = hinted_queue()
    q.add(pod("p"), now=0.0)
    q.add_unschedulable(q.pop(now=0.0), now=10.0, rejectors=["Fit"], pending=["Fit"])
    q.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, now=10.2, old=pod("gone"))
    assert q.location("default/p") == "active"


def test_a_pod_requeued_during_its_backoff_goes_to_backoffq_then_active():
    q = hinted_queue()
    q.add(pod("p"), now=0.0)
    info = q.pop(now=0.0)
    q.add_unschedulable(info, now=10.0, rejectors=["Fit"])
    q.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, now=10.2, old=pod("gone"))
    assert q.location("default/p") == "backoff"
    q.add(pod("other"), now=10.3)
    assert q.pop(now=10.3).key == "default/other"  # activeQ first
    assert q.flush_backoff_completed(now=12.0) == 1
    assert q.location("default/p") == "active"


def test_events_seen_in_flight_decide_where_the_pod_goes_back():
    q = hinted_queue()
    q.add(pod("p"), now=0.0)
    info = q.pop(now=0.0)
    q.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, now=0.5, old=pod("gone"))
    q.add_unschedulable(info, now=1.0, rejectors=["Fit"])
    assert q.location("default/p") == "backoff"  # not parked: the deletion may have made room

    q.add(pod("r"), now=2.0)
    info = q.pop(now=2.0)
    q.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, now=2.5, old=pod("unhelpful"))
    q.add_unschedulable(info, now=3.0, rejectors=["Fit"])
    assert q.location("default/r") == "unschedulable"


def test_a_parked_pods_own_update_is_offered_to_its_rejectors():
    q = hinted_queue()
    q.add(pod("p"), now=0.0)
    q.add_unschedulable(q.pop(now=0.0), now=0.0, rejectors=["Fit"])
    status_only = replace(pod("p"), status=replace(pod("p").status, nominated_node_name="n1"))
    q.update(status_only, now=5.0, old=pod("p"))
    assert q.location("default/p") == "unschedulable"  # UpdatePodOther: nobody registered it
    labelled = replace(pod("p"), metadata=replace(pod("p").metadata, labels={"app": "x"}))
    q.update(labelled, now=5.0, old=pod("p"))
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
    gates = SchedulingGates({})
    hints = build_queueing_hint_map({"SchedulingGates": gates})
    q = SchedulingQueue(
        PrioritySort().less,
        pre_enqueue=lambda p: "SchedulingGates" if p.spec.scheduling_gates else "",
        hint_maps={"default-scheduler": hints},
    )
    q.add(gated, now=0.0)
    assert q.pop(now=0.0) is None
    assert q.flush_unschedulable_leftover(now=400.0) == 0  # the timeout does not ungate it
    q.update(pod("p"), now=401.0, old=gated)
    assert q.pop(now=401.0).key == "default/p"


def test_a_pod_deleted_while_queued_is_never_popped():
    q = queue()
    q.add(pod("p"), now=0.0)
    q.delete("default/p")
    assert q.pop(now=0.0) is None
