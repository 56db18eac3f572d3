"""The load harness (tests/load/harness.py) at the sizes the reliability issue names, against real
server processes: the embedded default on the first pass, the scale-out set-up (PostgreSQL, Redis,
two Daphne processes and a worker) on the PostgreSQL + Redis pass. Correctness is checked exactly;
the figures are printed (`-s` shows them) and quoted in the README from the harness's own output."""

import asyncio
import json
import os
import uuid
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

import pytest

from tests.load import harness
from tests.servers import drop_postgres_database
from tests.web.conftest import ON_POSTGRES

VIEWERS = 200
EDITORS, EDITS_PER_EDITOR, RUNS = 50, 10, 20


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[harness.Site]:
    var_dir: Path = tmp_path_factory.mktemp("load")
    if ON_POSTGRES and os.environ.get("REDIS_URL"):
        # A database of its own: the servers migrate it, and nothing else writes there.
        database_url = f"postgres://postgres@127.0.0.1:5432/playground_load_{uuid.uuid4().hex[:8]}"
        with harness.scale_out_site(var_dir, database_url, os.environ["REDIS_URL"]) as scale_out:
            yield scale_out
        drop_postgres_database(database_url)
    else:
        with harness.embedded_site(var_dir) as embedded:
            yield embedded


def test_200_viewers_of_one_run_each_receive_every_event_once_and_in_order(site: harness.Site):
    report = asyncio.run(harness.viewers_of_one_run(site, VIEWERS, nodes=40, replicas=400))
    print(json.dumps(asdict(report), indent=2))
    assert report.events >= 2000
    assert report.problems == []
    assert report.complete_viewers == VIEWERS
    assert report.frames_delivered == VIEWERS * report.events


def test_50_editors_and_20_runs_at_once_lose_nothing(site: harness.Site):
    report = asyncio.run(harness.editors_and_runs(site, EDITORS, EDITS_PER_EDITOR, RUNS))
    print(json.dumps(asdict(report), indent=2))
    assert report.errors == []
    assert report.edits_applied == EDITORS * EDITS_PER_EDITOR
    assert report.edits_lost == 0
    assert report.runs_finished == RUNS
