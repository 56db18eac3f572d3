"""The object store's journal and its copies as they were (Cluster.before): what a viewer stopped
between two events of one instant is shown."""

import random
import uuid
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scheduler_core.api.types import Container, Node, ObjectMeta, Pod, PodDisruptionBudget, PodSpec
from scheduler_core.store.cluster import Change, ChangeType, Cluster, kind_name, uuid4_text
from scheduler_core.store.events import Event


def node(name: str) -> Node:
    return Node(metadata=ObjectMeta(name=name))


def pod(name: str) -> Pod:
    return Pod(metadata=ObjectMeta(name=name, namespace="default"), spec=PodSpec(containers=(Container("c"),)))


def bind(cluster: Cluster, key: str, node_name: str) -> Pod:
    current: Pod = cluster.get(Pod, key)
    return cluster.update(replace(current, spec=replace(current.spec, node_name=node_name)))


def seen(cluster: Cluster) -> dict[str, object]:
    """Everything a reader can ask the store, in the order it answers."""
    return {
        "pods": [(p.key, p.spec.node_name) for p in cluster.objects(Pod)],
        "nodes": [n.name for n in cluster.objects(Node)],
        "on n1": [p.key for p in cluster.pods_on_node("n1")],
        "on n2": [p.key for p in cluster.pods_on_node("n2")],
        "events": [event.as_dict() for event in cluster.events],
        "version": cluster.resource_version,
        "pod count": cluster.count(Pod),
    }


def describe(item: Change | Event) -> str:
    if isinstance(item, Event):
        return f"event {item.reason} {item.object}"
    return f"{item.type} {item.kind} {item.key}"


def populated() -> Cluster:
    cluster = Cluster(lambda: 7.0, random.Random(0))
    for name in ("n1", "n2"):
        cluster.create(node(name))
    for name in ("a", "b", "c"):
        cluster.create(pod(name))
    bind(cluster, "default/a", "n1")
    bind(cluster, "default/b", "n1")
    return cluster


def test_the_journal_lists_changes_and_events_in_the_order_they_happened_before_any_watcher_acts():
    cluster = populated()
    journal: list[Change | Event] = []
    cluster.journal = journal

    def scheduler_like(change: Change) -> None:  # a watcher that writes and records at once
        if change.kind == "Pod" and change.type is ChangeType.ADDED:
            bound = bind(cluster, change.key, "n2")
            cluster.record(bound, "Scheduled", f"Successfully assigned {change.key} to n2")

    cluster.watch(scheduler_like)
    cluster.create(pod("d"))
    assert [describe(item) for item in journal] == [
        "ADDED Pod default/d",  # first, though the watcher's own writes happen while it is told of it
        "MODIFIED Pod default/d",
        "event Scheduled Pod/default/d",
    ]


def test_a_copy_before_the_latest_changes_is_the_store_as_it_was_then_in_store_order():
    cluster = populated()
    before = seen(cluster)
    journal: list[Change | Event] = []
    cluster.journal = journal
    bind(cluster, "default/c", "n2")
    cluster.record(cluster.get(Pod, "default/c"), "Scheduled", "to n2")
    cluster.delete(Pod, "default/a")  # the first pod goes: undone, it comes back first
    cluster.delete(Node, "n1")
    cluster.create(pod("a"))  # and one of the same name is created again, last in store order
    cluster.record(cluster.get(Pod, "default/a"), "Created", "again")
    assert seen(cluster.before(journal)) == before
    assert seen(cluster.before([])) == seen(cluster)
    # Stopped between the two events: the binding and its event happened, nothing after them.
    middle = seen(cluster.before(journal[2:]))
    assert middle["pods"] == [("default/a", "n1"), ("default/b", "n1"), ("default/c", "n2")]
    assert middle["on n2"] == ["default/c"] and [e["reason"] for e in middle["events"]] == ["Scheduled"]


def test_a_copy_is_its_own_store_watched_by_no_one_with_its_clock_stopped():
    cluster = populated()
    told: list[Change] = []
    cluster.watch(told.append)
    copy = cluster.before([])
    bind(copy, "default/c", "n2")
    copy.delete("Pod", "default/a")
    created = copy.create(pod("e"))
    assert told == []  # nobody heard of the copy's writes
    assert cluster.get(Pod, "default/c").spec.node_name == "" and cluster.get(Pod, "default/a") is not None
    assert cluster.get(Pod, "default/e") is None
    assert created.metadata.creation_timestamp == 7.0
    assert [p.key for p in copy.objects("Pod")] == ["default/b", "default/c", "default/e"]
    # The copy drew a uid from a generator of its own: the store's next one is the same as before.
    assert cluster.before([]).new_uid() == created.metadata.uid


@given(st.integers(min_value=0, max_value=2**128 - 1))
def test_a_uid_is_the_text_of_a_version_4_uuid_of_the_same_bits(bits: int):
    assert uuid4_text(bits) == str(uuid.UUID(int=bits, version=4))


def test_reads_by_class_and_by_a_kind_named_in_data_find_the_same_objects():
    cluster = Cluster(lambda: 0.0, random.Random(0))
    cluster.create(node("n1"))
    created = cluster.create(pod("a"))
    assert cluster.get(Pod, "default/a") is created is cluster.get("Pod", "default/a")
    assert cluster.objects(Pod) == cluster.objects("Pod") == [created]
    assert list(cluster.items(Node)) == list(cluster.items("Node"))
    assert cluster.count(Pod) == cluster.count("Pod") == 1
    assert cluster.get(Pod, "default/missing") is None and cluster.objects(PodDisruptionBudget) == []
    assert kind_name(Pod) == "Pod" and kind_name(PodDisruptionBudget) == "PodDisruptionBudget"
    assert cluster.delete(Pod, "default/a") == created and cluster.count(Pod) == 0


def test_a_change_is_narrowed_to_its_kind_and_names_its_objects_before_and_after():
    cluster = Cluster(lambda: 0.0, random.Random(0))
    changes: list[Change] = []
    cluster.watch(changes.append)
    added = cluster.create(pod("a"))
    cluster.create(node("n1"))
    bound = bind(cluster, "default/a", "n1")
    cluster.delete(Pod, "default/a")
    pod_changes = [change.of(Pod) for change in changes]
    assert [change is not None for change in pod_changes] == [True, False, True, True]
    assert changes[1].of(Node) is changes[1]
    add, update, deletion = (change for change in pod_changes if change is not None)
    assert add.latest is added and update.latest is bound and deletion.latest is bound
    assert update.previous is added and deletion.previous is bound
    with pytest.raises(AssertionError, match="ADDED Pod default/a has no object before it"):
        _ = add.previous
