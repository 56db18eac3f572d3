"""What a websocket client can make the server hold is bounded (playground/consumers.py): clients
that never read, a viewer that falls behind a live run, too many connections, paths no scenario
has. Against a real Daphne process, its database and channel layer; memory is the process's RSS."""

import asyncio
import json
import time
import urllib.request
from pathlib import Path

import pytest
import websockets

from tests.browser.big_scenarios import wide_deployment
from tests.load.harness import socket_url, start_run
from tests.servers import DaphneServer, create_scenario, manage

ORIGIN = "http://127.0.0.1"
ATTACK_EVENTS = 15_100  # the stored run
ATTACKERS, ATTACK_BURST, ATTACK_SECONDS = 3, 10, 30
RSS_BOUND_MIB = 32  # growth allowed while they attack (without the bounds: +347 MiB in 30 s, and rising)

STORE_RUN = """
import json
from playground.models import Run, RunEvent
from playground.scenarios import create_scenario, snapshot

def payload(seq):  # about 450 characters, as a Scheduled event with its pod change
    pod = f"default/web-7f9c5d-{seq:05d}"
    node = f"node-{seq % 40:02d}"
    return {"t": seq / 10, "event": {"type": "Normal", "reason": "Scheduled", "object": "Pod " + pod,
            "message": f"Successfully assigned {pod} to {node}"},
            "changes": [{"op": "pod", "key": pod, "node": node, "phase": "Running",
                         "owner": "ReplicaSet/web-7f9c5d", "requests": {"cpu": 100, "memory": 524288000}}]}

scenario, _ = create_scenario("socket bounds")
run = Run.objects.create(scenario=scenario, version=snapshot(scenario), status=Run.Status.FINISHED)
RunEvent.objects.bulk_create((RunEvent(run=run, seq=seq, payload=payload(seq)) for seq in range(1, EVENTS + 1)),
                             batch_size=2000)
print(json.dumps({"slug": scenario.slug, "run": run.pk}))
"""


def stored_run(env: dict[str, str], events: int) -> tuple[str, int]:
    """A finished run of `events` events in the server's database: (scenario slug, run id)."""
    made = json.loads(manage(env, "shell", "-c", f"EVENTS = {events}\n" + STORE_RUN).strip().splitlines()[-1])
    return made["slug"], made["run"]


def stored_events(env: dict[str, str], run_id: int) -> int:
    code = f"from playground.models import RunEvent; print(RunEvent.objects.filter(run_id={run_id}).count())"
    return int(manage(env, "shell", "-c", code).strip().splitlines()[-1])


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def healthz_seconds(server: DaphneServer) -> float:
    started = time.monotonic()
    with urllib.request.urlopen(server.url + "/healthz", timeout=10) as response:
        assert response.status == 200
    return time.monotonic() - started


def connect(url: str, **options: object) -> websockets.connect:
    return websockets.connect(url, origin=ORIGIN, open_timeout=30, close_timeout=2, **options)


async def ack(socket_: websockets.ClientConnection, frame: dict) -> None:
    await socket_.send(json.dumps({"type": "ack", "mark": frame["mark"]}))


async def replay(socket_: websockets.ClientConnection, run_id: int, held: list[int]) -> None:
    """As the page does: asks for the events after the last one held, acknowledges every frame,
    keeps each event once and in order, until the replay's closing status."""
    await socket_.send(json.dumps({"type": "resume", "run": run_id, "after": held[-1] if held else 0}))
    async with asyncio.timeout(120):
        while True:
            frame = json.loads(await socket_.recv())
            await ack(socket_, frame)
            if frame.get("type") == "run.events" and frame["run"] == run_id:
                held.extend(event["seq"] for event in frame["events"] if event["seq"] == (held[-1] if held else 0) + 1)
            elif frame.get("type") == "run.status" and frame["run"] == run_id:
                return
            elif frame.get("type") == "error":
                raise AssertionError(frame["message"])


async def never_reads(url: str, run_id: int, stop: asyncio.Event) -> None:
    """Sends resume ATTACK_BURST times, then once a second, and reads nothing (max_queue=1: the
    client stops taking data off its socket; no pings, which it could not see answered)."""
    async with connect(url, max_queue=1, ping_interval=None) as socket_:
        resume = json.dumps({"type": "resume", "run": run_id, "after": 0})
        for _ in range(ATTACK_BURST):
            await socket_.send(resume)
        while not stop.is_set():
            await asyncio.sleep(1)
            await socket_.send(resume)


def test_clients_that_never_read_hold_a_bounded_memory_while_others_are_served(live_server_process, server_env):
    server = live_server_process
    pid = server.process.pid
    slug, run_id = stored_run(server_env, ATTACK_EVENTS)
    url = socket_url(server.url, slug)

    async def scenario() -> dict[str, object]:
        async with connect(url) as warm_up:  # the replay's code paths and connections, before measuring
            await replay(warm_up, run_id, [])
        baseline = rss_mib(pid)
        samples: list[float] = []
        stop = asyncio.Event()
        attackers = [asyncio.create_task(never_reads(url, run_id, stop)) for _ in range(ATTACKERS)]

        async def sample() -> None:
            while not stop.is_set():
                samples.append(rss_mib(pid))
                await asyncio.sleep(0.5)

        async def probe_health() -> list[float]:
            answers = []
            while not stop.is_set():
                answers.append(await asyncio.to_thread(healthz_seconds, server))
                await asyncio.sleep(1)
            return answers

        sampler, health = asyncio.create_task(sample()), asyncio.create_task(probe_health())
        await asyncio.sleep(3)  # the attackers' bursts are in
        held: list[int] = []
        started = time.monotonic()
        async with connect(url) as viewer:
            await replay(viewer, run_id, held)
        viewer_seconds = time.monotonic() - started
        await asyncio.sleep(ATTACK_SECONDS - 3 - viewer_seconds)
        peak = max(samples)
        stop.set()
        await asyncio.gather(*attackers, sampler)
        answers = await health
        await asyncio.sleep(3)  # Daphne has seen them go
        after = [rss_mib(pid)]
        for _ in range(6):
            await asyncio.sleep(0.5)
            after.append(rss_mib(pid))
        return {"baseline": baseline, "peak": peak, "after": after, "held": held, "health": answers,
                "viewer_seconds": viewer_seconds}  # fmt: skip

    result = asyncio.run(scenario())
    print(json.dumps({key: value for key, value in result.items() if key != "held"}, default=str))
    assert result["held"] == list(range(1, ATTACK_EVENTS + 1))  # every event once, in order
    assert max(result["health"]) < 1.0 and len(result["health"]) >= ATTACK_SECONDS // 2
    assert result["peak"] - result["baseline"] < RSS_BOUND_MIB
    assert max(result["after"]) <= result["peak"] + 2  # closed: nothing more held, nothing growing
    # Their connections are no longer counted: the address may open its full 20 again.
    asyncio.run(open_sockets(url, 20))


async def open_sockets(url: str, count: int) -> None:
    async with asyncio.timeout(60):
        sockets = [await connect(url) for _ in range(count)]
        for socket_ in sockets:
            await socket_.send(json.dumps({"type": "resume", "run": 0, "after": 0}))
            frame = json.loads(await socket_.recv())
            assert frame["type"] == "error" and frame["message"] == "no run 0 in this scenario"  # served
        for socket_ in sockets:
            await socket_.close()


def test_a_viewer_that_falls_behind_a_live_run_is_told_and_recovers_every_event_by_resuming(
    live_server_process, server_env
):
    """It receives frames but acknowledges none while a run streams more than the window: the rest
    of the live stream is dropped for it, it is told once, and a resume brings the rest."""
    server = live_server_process
    links = create_scenario(server_env, wide_deployment(nodes=40, replicas=1000))
    url = socket_url(server.url, links["slug"])

    async def scenario() -> tuple[int, list[int], list[dict], int]:
        frames: list[dict] = []
        async with connect(url, max_queue=None) as viewer:
            run_id = await asyncio.to_thread(start_run, server.url, links["view"])
            async with asyncio.timeout(120):
                while not any(f.get("type") == "run.status" and f["status"] == "finished" for f in frames):
                    frames.append(json.loads(await viewer.recv()))
            held: list[int] = []
            for frame in frames:
                if frame.get("type") == "run.events":
                    held.extend(event["seq"] for event in frame["events"] if event["seq"] == len(held) + 1)
            live = len(held)
            for frame in frames:
                await ack(viewer, frame)
            await replay(viewer, run_id, held)
        return run_id, held, frames, live

    run_id, held, frames, live = asyncio.run(scenario())
    lagging = [frame for frame in frames if frame.get("type") == "run.lagging"]
    live_chars = sum(len(json.dumps(frame)) for frame in frames if frame.get("type") == "run.events")
    print(json.dumps({"events": len(held), "live_events": live, "live_chars": live_chars, "lagging": lagging}))
    assert len(lagging) == 1 and lagging[0]["after"] == live
    assert live_chars < (1 << 20) + 100_000  # the window (1 MiB), give or take a frame's JSON spacing
    assert 0 < live < len(held) and held == list(range(1, len(held) + 1))
    assert len(held) == stored_events(server_env, run_id) > 4000  # the resume brought all the rest


def test_the_21st_socket_from_one_address_is_refused_with_try_again_later_4013(live_server_process, server_env):
    server = live_server_process
    slug, _ = stored_run(server_env, 1)
    url = socket_url(server.url, slug)

    async def scenario() -> tuple[dict, int | None, float]:
        async with asyncio.timeout(60):
            sockets = [await connect(url) for _ in range(20)]
            async with connect(url) as refused:
                frame = json.loads(await refused.recv())
                with pytest.raises(websockets.ConnectionClosed):
                    await refused.recv()
                code = refused.close_code
            health = await asyncio.to_thread(healthz_seconds, server)
            await sockets.pop().close()
            await asyncio.sleep(0.5)
            sockets.append(await connect(url))  # one closed: one more may open
            await sockets[-1].send(json.dumps({"type": "resume", "run": 0, "after": 0}))
            assert json.loads(await sockets[-1].recv())["message"] == "no run 0 in this scenario"
            for socket_ in sockets:
                await socket_.close()
        return frame, code, health

    frame, code, health = asyncio.run(scenario())
    assert code == 4013  # "try again later" (1013) as a server may send it once open
    assert frame["type"] == "error"
    assert frame["message"] == "too many live connections from your address (at most 20): close a tab"
    assert health < 1.0


@pytest.mark.parametrize(
    "path", ["/ws/scenarios/" + "a" * 33 + "/", "/ws/scenarios/" + "b" * 200 + "/", "/ws/scenarios/a%20b/", "/ws/x/"]
)
def test_a_path_no_scenario_can_have_is_refused_without_a_traceback(live_server_process, server_env, path):
    server = live_server_process
    slug, _ = stored_run(server_env, 1)

    async def scenario() -> int:
        with pytest.raises(websockets.InvalidStatus) as refused:
            async with connect(server.url.replace("http://", "ws://") + path):
                pass
        async with connect(socket_url(server.url, slug)) as viewer:  # the server still serves
            await viewer.send(json.dumps({"type": "resume", "run": 0, "after": 0}))
            assert json.loads(await viewer.recv())["type"] == "error"
        return refused.value.response.status_code

    # The consumer closes with 4404 before accepting (tests/web/test_consumers.py), which Daphne
    # answers as a refused handshake: 403, like an unknown scenario. Before, 500 and a traceback.
    assert asyncio.run(scenario()) == 403
    log = (Path(server_env["PLAYGROUND_VAR_DIR"]) / f"daphne-{server.port}.log").read_text()
    assert "Traceback" not in log and " 500 " not in log
