"""The scale-out set-up against real PostgreSQL and Redis: two Daphne processes and a simulation
worker. Runs in the PostgreSQL + Redis pass of the test suite (DATABASE_URL and REDIS_URL set)."""

import asyncio
import json
import os
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets
from django.db import connection

from playground.models import Run
from playground.scenarios import create_scenario
from tests.servers import HttpClient, free_port
from tests.web.stored_events import events_with_reason

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get("REDIS_URL"),
        reason="the scale-out set-up needs DATABASE_URL (PostgreSQL) and REDIS_URL: the suite's second pass sets them",
    ),
]


@pytest.fixture
def cluster_env(collected_static: Path) -> dict[str, str]:
    settings = connection.settings_dict
    user, host, port = settings["USER"] or "postgres", settings["HOST"] or "127.0.0.1", settings["PORT"] or 5432
    database_url = f"postgres://{user}@{host}:{port}/{settings['NAME']}"
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "playground.settings",
        "SECRET_KEY": "scale-out-test-secret",
        "DATABASE_URL": database_url,
        "CHANNELS_PREFIX": f"scaleout-{uuid.uuid4().hex[:8]}",  # isolated from other runs on this Redis
        # Pages name the hashed static files from the tests' collected folder (DEBUG is off).
        "PLAYGROUND_STATIC_ROOT": str(collected_static),
    }


def start(args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def wait_http(url: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer")


@pytest.fixture
def processes(cluster_env: dict[str, str]) -> Iterator[dict[str, object]]:
    port_a, port_b = free_port(), free_port()
    daphne = ["-m", "daphne", "-b", "127.0.0.1", "-p"]
    web_a = start([*daphne, str(port_a), "playground.asgi:application"], cluster_env)
    web_b = start([*daphne, str(port_b), "playground.asgi:application"], cluster_env)
    worker = start(["manage.py", "runworker", "simulation-runs"], cluster_env)
    started = {"a": web_a, "b": web_b, "worker": worker, "port_a": port_a, "port_b": port_b}
    try:
        wait_http(f"http://127.0.0.1:{port_a}/healthz")
        wait_http(f"http://127.0.0.1:{port_b}/healthz")
        yield started
    finally:
        for process in (web_a, web_b, worker):
            process.terminate()
        for process in (web_a, web_b, worker):
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


async def receive_until(socket_: websockets.ClientConnection, predicate, timeout: float = 30) -> list[dict]:
    seen = []
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await socket_.recv())
            seen.append(message)
            if predicate(message):
                return seen


def test_a_viewer_on_one_daphne_sees_edits_and_worker_runs_made_through_another(processes):
    pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec: {containers: [{name: c, image: nginx}]}\n"
    scenario, secret = create_scenario("scale-out", workload_yaml=pod)
    node = scenario.nodes.get(name="worker1")
    port_a, port_b = processes["port_a"], processes["port_b"]
    editor = HttpClient(f"http://127.0.0.1:{port_a}")
    editor.get(f"/s/{scenario.slug}/edit/{secret}")

    async def scenario_flow() -> list[dict]:
        url = f"ws://127.0.0.1:{port_b}/ws/scenarios/{scenario.slug}/"
        async with websockets.connect(url, origin=f"http://127.0.0.1:{port_b}") as viewer:
            await asyncio.sleep(0.3)
            await asyncio.to_thread(editor.post, f"/s/{scenario.slug}/nodes/{node.pk}/cordon", {"version": 1})
            changed = await receive_until(viewer, lambda m: m.get("type") == "changed")
            assert changed[-1]["version"] == 2
            status = await asyncio.to_thread(editor.post, f"/s/{scenario.slug}/runs", {"seed": 0})
            assert status == 201
            # The web process that started the run goes away; the worker still runs it.
            processes["a"].terminate()
            return await receive_until(viewer, lambda m: m.get("type") == "run.status" and m["status"] == "finished")

    messages = asyncio.run(scenario_flow())
    events = [event for m in messages if m.get("type") == "run.events" for event in m["events"]]
    assert [event["seq"] for event in events] == list(range(1, len(events) + 1))
    assert events[0]["event"]["reason"] == "Scheduled"
    assert Run.objects.get().status == Run.Status.FINISHED


def test_a_run_a_worker_executed_is_explained_from_a_replay_off_the_request(processes):
    """The web process did not execute the run, so it keeps nothing of it: the first explanation
    answers at once that it is preparing (playground/run_state_builder.py), a later poll explains."""
    from django.urls import reverse

    from tests.web.test_explain_unkept import big_cluster

    nodes, workload = big_cluster(30, 1500)  # a replay of a few seconds: longer than a request waits
    scenario, _ = create_scenario("scale-out explain", nodes=nodes, workload_yaml=workload)
    viewer = HttpClient(f"http://127.0.0.1:{processes['port_a']}")
    viewer.get(reverse("scenario", args=[scenario.slug]))
    assert viewer.post(reverse("start-run", args=[scenario.slug]), {"seed": 0}) == 201
    deadline = time.monotonic() + 120
    while (run := Run.objects.get(scenario=scenario)).status != Run.Status.FINISHED:
        assert run.status != Run.Status.FAILED, run.error
        assert time.monotonic() < deadline, "the worker did not finish the run"
        time.sleep(0.2)
    event = events_with_reason(run, "Scheduled")[-1]
    assert event is not None
    query = urllib.parse.urlencode({"pod": event.payload["event"]["object"].removeprefix("Pod/"), "seq": event.seq})
    url = f"http://127.0.0.1:{processes['port_b']}{reverse('explain-pod', args=[scenario.slug, run.pk])}?{query}"

    def ask() -> tuple[int, str]:
        with urllib.request.urlopen(url, timeout=30) as response:
            return int(response.status), response.read().decode()

    started = time.monotonic()
    status, body = ask()
    assert time.monotonic() - started < 1.5
    assert status == 202 and 'data-testid="preparing-run"' in body
    deadline = time.monotonic() + 60
    while status == 202 and time.monotonic() < deadline:
        time.sleep(0.5)
        status, body = ask()
    assert status == 200 and "kube-scheduler picks" in body
