"""Watch events from a run's journal, as the API server streams them."""

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.kubeapi import status
from scheduler_core.kubeapi.query_selectors import parse_field_selector, parse_label_selector
from scheduler_core.kubeapi.resources import BY_KIND
from scheduler_core.kubeapi.watch import JournalIndex, Selection, Stream, cluster_hosts, occurrences_of, watch_events
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import Change
from scheduler_core.store.events import Event
from tests.core.kubeapi.conftest import CLUSTER


def run() -> tuple[Simulation, list]:
    simulation = Simulation(load_manifests(CLUSTER))
    return simulation, [item for item in simulation.stream() if isinstance(item, Change | Event)]


def selection(kind: str, labels: str = "", fields: str = "", namespace: str = "") -> Selection:
    query = parse_field_selector(fields)
    return Selection(BY_KIND[kind], namespace, parse_label_selector(labels), query, bool(query.requirements()))


def events(kind: str, **selected) -> list[dict]:
    simulation, journal = run()
    index = JournalIndex.of(journal, simulation.cluster.resource_version)
    occurrences = occurrences_of(simulation.cluster.events)
    stream = Stream(epoch=0, now=simulation.now, as_table=selected.pop("as_table", False))
    hosts = cluster_hosts(simulation.cluster)
    return list(
        watch_events(journal, index, 0, len(journal), selection(kind, **selected), stream, lambda: occurrences, hosts)
    )


def test_a_pods_life_in_order_with_growing_versions() -> None:
    seen = events("Pod", fields="metadata.name=tool")
    assert seen[0]["type"] == "ADDED"
    assert {event["type"] for event in seen[1:]} == {"MODIFIED"}
    versions = [int(event["object"]["metadata"]["resourceVersion"]) for event in seen]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    assert seen[-1]["object"]["spec"]["nodeName"] == "worker1"
    assert seen[-1]["object"]["status"]["phase"] == "Running"


def test_selections_and_tables() -> None:
    web = events("Pod", labels="app=web")
    assert {event["object"]["metadata"]["labels"]["app"] for event in web} == {"web"}
    assert len({event["object"]["metadata"]["name"] for event in web if event["type"] == "ADDED"}) == 3
    rows = events("Pod", labels="app=web", as_table=True)
    assert rows[0]["object"]["kind"] == "Table" and len(rows[0]["object"]["rows"]) == 1
    assert rows[-1]["object"]["rows"][0]["cells"][2] == "Running"
    # A field selector on the node: a pod enters the selection when it is bound (an ADDED).
    on_worker1 = events("Pod", fields="spec.nodeName=worker1")
    assert all(event["type"] in ("ADDED", "MODIFIED") for event in on_worker1)
    assert sum(event["type"] == "ADDED" for event in on_worker1) == 4


def test_event_rows_are_added_then_counted() -> None:
    seen = events("Event", fields="involvedObject.name=tool")
    reasons = [event["object"]["reason"] for event in seen if event["type"] == "ADDED"]
    assert reasons[0] == "Scheduled" and "Started" in reasons


def test_versions_and_positions() -> None:
    simulation, journal = run()
    index = JournalIndex.of(journal, simulation.cluster.resource_version)
    assert index.version_at(len(journal)) == simulation.cluster.resource_version
    assert index.position_after(index.base) == 0
    middle = index.version_at(len(journal) // 2)
    assert index.version_at(index.position_after(middle)) == middle
    with pytest.raises(status.ApiError) as gone:
        index.position_after(index.base - 1)
    assert gone.value.code == 410
