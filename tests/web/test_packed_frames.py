"""A run's frames are stored packed (playground/packed_frames.py): compact JSON deflated against a
preset dictionary, each frame on its own; rows stored before keep their JSON and read as before."""

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from hypothesis import given, settings
from hypothesis import strategies as st

from playground.models import Run, RunEvent
from playground.packed_frames import FORMAT_V1, pack, unpack
from playground.runs import execute
from playground.scenarios import create_scenario, snapshot
from tests.web.test_explain_unkept import big_cluster

SCHEDULED = {
    "event": {
        "seq": 4107,
        "time": 0.0,
        "type": "Normal",
        "reason": "Scheduled",
        "object": "Pod/default/web-7f4b8765dc-sjx5c",
        "message": "Successfully assigned default/web-7f4b8765dc-sjx5c to worker-0412",
    },
    "time": 0.0,
    "changes": [{"op": "pod~", "key": "default/web-7f4b8765dc-sjx5c", "node": "worker-0412"}],
}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(), json_values, max_size=6))
def test_any_frame_reads_back_as_it_was(frame):
    packed = pack(frame)
    assert packed[0] == FORMAT_V1
    assert unpack(packed) == frame


def test_a_frame_packs_to_a_fraction_of_its_json():
    text = json.dumps(SCHEDULED, separators=(",", ":"))
    assert len(pack(SCHEDULED)) < len(text) / 3


def test_a_frame_stored_before_frames_were_packed_reads_as_its_json():
    text = json.dumps(SCHEDULED)
    assert unpack(text) == SCHEDULED  # SQLite: the remade table keeps the text
    assert unpack(text.encode()) == SCHEDULED  # PostgreSQL: the text's bytes


@pytest.mark.django_db
def test_a_runs_events_are_stored_packed_and_read_back_whole():
    nodes, workload = big_cluster(5, 40)
    scenario, _ = create_scenario("packed", nodes=nodes, workload_yaml=workload)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=3)
    execute(run, publish=lambda *_: None)
    payloads = list(run.events.order_by("seq").values_list("payload", flat=True))
    assert len(payloads) > 100 and payloads[-1]["end"] is not None
    with connection.cursor() as cursor:
        cursor.execute("SELECT payload FROM playground_runevent WHERE run_id = %s", [run.pk])
        stored = [bytes(row[0]) for row in cursor.fetchall()]
    assert all(value[0] == FORMAT_V1 for value in stored)
    packed = sum(map(len, stored))
    as_json = sum(len(json.dumps(payload, separators=(",", ":"))) for payload in payloads)
    assert packed < as_json / 3  # measured: about a sixth
    assert [row.payload for row in RunEvent.objects.filter(run=run).order_by("seq")] == payloads


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_stored_json_readable_both_ways():
    nodes, workload = big_cluster(3, 6)
    scenario, _ = create_scenario("legacy", nodes=nodes, workload_yaml=workload)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    before = ("playground", "0008_kept_sizes")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    try:
        old = executor.loader.project_state([before]).apps.get_model("playground", "RunEvent")
        old.objects.create(run_id=run.pk, seq=1, payload=SCHEDULED)  # stored as JSON, before packing
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        RunEvent.objects.create(run=run, seq=2, payload={**SCHEDULED, "time": 1.0})  # packed
        assert [row.payload["time"] for row in run.events.order_by("seq")] == [0.0, 1.0]
        executor = MigrationExecutor(connection)
        executor.migrate([before])  # back: every frame as JSON again
        old = executor.loader.project_state([before]).apps.get_model("playground", "RunEvent")
        assert [row.payload for row in old.objects.filter(run_id=run.pk).order_by("seq")] == [
            SCHEDULED,
            {**SCHEDULED, "time": 1.0},
        ]
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
