"""Load harness: many websocket viewers of one run, many editors and runs at once, against real
server processes on loopback. Bounded in time and count; every check is exact (each viewer gets
every event once and in order, no edit is lost), and the figures are measured, not estimated.

    .venv/bin/python -m tests.load.harness                 # embedded default: one Daphne, SQLite
    .venv/bin/python -m tests.load.harness --scale-out     # PostgreSQL + Redis, 2 Daphne, 1 worker

The test suite runs the same scenarios (tests/web/test_load.py); the README quotes this output.
Rate limits are switched off on the servers it starts: every client here shares 127.0.0.1.
"""

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import re
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any

import orjson
import websockets
import yaml

from tests.browser.big_scenarios import wide_deployment
from tests.manifests import deployment_yaml
from tests.servers import (
    DaphneServer,
    HttpClient,
    WorkerProcess,
    create_scenario,
    ensure_postgres_database,
    manage,
    server_environment,
)

ORIGIN = "http://127.0.0.1"
DEADLINE_SECONDS = 300.0  # no phase may take longer, whatever happens


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# ---------------------------------------------------------------------------- servers


@dataclass
class Site:
    """The servers under test: the web processes' base URLs (clients are spread over them) and the
    environment management commands use to reach the same database."""

    urls: list[str]
    env: dict[str, str]
    label: str


@contextmanager
def embedded_site(var_dir: Path) -> Iterator[Site]:
    env = server_environment(var_dir, RATE_LIMITS="0")
    manage(env, "migrate", "--noinput")
    server = DaphneServer(env)
    server.start()
    try:
        yield Site([server.url], env, "embedded default: 1 Daphne, SQLite, in-memory channel layer, runs in threads")
    finally:
        server.stop()


@contextmanager
def scale_out_site(var_dir: Path, database_url: str, redis_url: str) -> Iterator[Site]:
    env = server_environment(
        var_dir,
        RATE_LIMITS="0",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        CHANNELS_PREFIX=f"load-{uuid.uuid4().hex[:8]}",  # apart from anything else on this Redis
    )
    ensure_postgres_database(database_url)
    manage(env, "migrate", "--noinput")
    servers = [DaphneServer(env), DaphneServer(env)]
    worker = WorkerProcess(env)
    try:
        for server in servers:
            server.start()
        worker.start()
        yield Site([server.url for server in servers], env, "scale-out: 2 Daphne, 1 worker, PostgreSQL, Redis")
    finally:
        worker.stop()
        for server in servers:
            server.stop()


def start_run(base: str, view_path: str) -> int:
    tab = HttpClient(base)
    tab.get(view_path)  # the CSRF cookie
    status, body = tab.submit(view_path + "/runs", {"seed": 0})
    if status != 201:
        raise RuntimeError(f"starting a run answered {status}: {body[:200]}")
    return int(re.search(r'data-run-id="(\d+)"', body).group(1))


def socket_url(base: str, slug: str) -> str:
    return base.replace("http://", "ws://") + f"/ws/scenarios/{slug}/"


# ---------------------------------------------------------------------------- viewers of one run


@dataclass
class ViewerReport:
    site: str
    viewers: int
    viewer_processes: int  # the client processes the viewers were spread over
    events: int  # in the run, as stored
    complete_viewers: int  # those that received every event exactly once, in order
    lagged_viewers: int  # those the server told they had fallen a window behind (they resumed)
    problems: list[str]
    delivery_p50_ms: float
    delivery_p95_ms: float
    delivery_max_ms: float
    run_seconds: float  # from pressing Run to the last viewer holding the last event
    # From the run's first live batch to its last leaving the server: a server slow to send also
    # slows the run (they share a process), which spreads its batches and shortens each one's delay.
    broadcast_seconds: float
    frames_delivered: int
    events_delivered_per_second: float


class Acknowledger:
    """As the page does (static/js/scenario-socket.js): acknowledgements are cumulative, so one goes
    for the last frame read once ACK_CHARS or ACK_FRAMES were read since the one before, else
    ACK_DELAY_SECONDS after the first frame left unacknowledged."""

    ACK_CHARS = 256 * 1024
    ACK_FRAMES = 16
    ACK_DELAY_SECONDS = 0.05

    def __init__(self, socket_: websockets.ClientConnection) -> None:
        self.socket = socket_
        self.mark: object = None
        self.chars = 0
        self.frames = 0
        self.timer: asyncio.TimerHandle | None = None

    async def read(self, frame: dict[str, object], chars: int) -> None:
        self.mark, self.chars, self.frames = frame.get("mark"), self.chars + chars, self.frames + 1
        if self.chars >= self.ACK_CHARS or self.frames >= self.ACK_FRAMES:
            await self.flush()
        elif self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(
                self.ACK_DELAY_SECONDS, lambda: asyncio.ensure_future(self.flush())
            )

    async def flush(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        mark, self.mark, self.chars, self.frames = self.mark, None, 0, 0
        if isinstance(mark, str):
            with contextlib.suppress(websockets.ConnectionClosed):
                await self.socket.send(json.dumps({"type": "ack", "mark": mark}))


@dataclass
class ViewerResult:
    seqs: list[int] = field(default_factory=list)  # as they arrived, live (and resumed, after a lag)
    delays: list[float] = field(default_factory=list)  # each live batch's, from the server sending it
    sent: list[float] = field(default_factory=list)  # when the server broadcast each live batch (wall clock)
    lagged: bool = False


# How viewers parse a frame: with orjson by default, as a browser parses with its native JSON.parse;
# with Python's json module (--parser json) the 200 clients' parsing takes most of the two CPUs the
# servers also run on, and the delay measured is then largely the clients' own.
PARSERS: dict[str, Any] = {"orjson": orjson.loads, "json": json.loads}


async def _viewer(
    url: str, ready: asyncio.Event, connected: list[int], total: int, parse: Any = orjson.loads
) -> ViewerResult:
    """Receives the live stream of the scenario's next run until its closing frame, acknowledging
    as the page does (Acknowledger). Told it lagged (the server dropped batches it had no room for),
    it resumes after the last event it holds, as the page does, and keeps each event once."""
    result = ViewerResult()
    async with websockets.connect(url, origin=ORIGIN, open_timeout=60, max_queue=None) as socket_:
        connected.append(1)
        if len(connected) == total:
            ready.set()
        acks = Acknowledger(socket_)
        try:
            async for raw in socket_:
                message = parse(raw)
                await acks.read(message, len(raw))
                if message.get("type") == "run.lagging":
                    result.lagged = True
                    after = result.seqs[-1] if result.seqs else 0
                    await socket_.send(json.dumps({"type": "resume", "run": message["run"], "after": after}))
                if message.get("type") != "run.events":
                    continue
                if "sent" in message:  # live, not a replay
                    result.delays.append(time.time() - message["sent"])
                    result.sent.append(message["sent"])
                for event in message["events"]:
                    if not result.lagged or event["seq"] == (result.seqs[-1] if result.seqs else 0) + 1:
                        result.seqs.append(event["seq"])
                last = message["events"][-1]
                if result.seqs and "end" in last and result.seqs[-1] == last["seq"]:
                    return result
        finally:
            # The last frames acknowledged now, as the page does, and no timer left behind: its
            # flush, started as the event loop closed, was a coroutine never awaited.
            await acks.flush()
    return result


def viewer_processes_default() -> int:
    """One client process per CPU: 200 viewers in one Python process spend their time decoding JSON
    (py-spy: two thirds of it), and the delay measured would be the harness's own queue."""
    return max(1, os.cpu_count() or 1)


async def _viewer_group(
    urls: list[str], slug: str, count: int, offset: int, ready: "Queue[str]", parser: str = "orjson"
) -> list[ViewerResult]:
    """`count` viewers (the `offset`-th onwards spread over the servers), connected before `ready`
    hears "ready", or the first error; then every event of the run."""
    connected: list[int] = []
    all_connected = asyncio.Event()
    tasks = [
        asyncio.create_task(
            _viewer(socket_url(urls[(offset + i) % len(urls)], slug), all_connected, connected, count, PARSERS[parser])
        )
        for i in range(count)
    ]
    async with asyncio.timeout(DEADLINE_SECONDS):
        # Every viewer connected, or the first that could not, with its error (not a silent wait
        # until the deadline).
        waiting = asyncio.create_task(all_connected.wait())
        await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
        failed = next((task for task in tasks if task.done() and task.exception() is not None), None)
        if failed is not None:
            waiting.cancel()
            for task in tasks:
                task.cancel()
            ready.put(f"a viewer failed before the run started: {failed.exception()!r}")
            return []
        ready.put("ready")
        return list(await asyncio.gather(*tasks))


def _viewer_process(
    urls: list[str], slug: str, count: int, offset: int, ready: "Queue[str]", results: "Queue[Any]", parser: str
) -> None:
    try:
        results.put((offset, asyncio.run(_viewer_group(urls, slug, count, offset, ready, parser))))
    except BaseException as error:  # the parent reports it instead of waiting for the deadline
        ready.put(f"viewer process {offset} failed: {error!r}")
        results.put((offset, error))


async def viewers_of_one_run(
    site: Site, viewers: int, nodes: int, replicas: int, processes: int | None = None, parser: str = "orjson"
) -> ViewerReport:
    """`viewers` viewers of one run, spread over `processes` client processes (one per CPU unless
    told), each checked to receive every event once and in order."""
    links = create_scenario(site.env, wide_deployment(nodes=nodes, replicas=replicas))
    processes = max(1, min(viewers, processes or viewer_processes_default()))
    context = multiprocessing.get_context("spawn")  # no inherited event loop or sockets
    ready: Queue[str] = context.Queue()
    outcomes: Queue[Any] = context.Queue()
    shares = [viewers // processes + (1 if index < viewers % processes else 0) for index in range(processes)]
    offsets = [sum(shares[:index]) for index in range(processes)]
    children = [
        context.Process(target=_viewer_process, args=(site.urls, links["slug"], share, offset, ready, outcomes, parser))
        for share, offset in zip(shares, offsets, strict=True)
    ]
    for child in children:
        child.start()
    try:
        for _ in children:
            said = await asyncio.to_thread(ready.get, timeout=DEADLINE_SECONDS)
            if said != "ready":
                raise RuntimeError(said)
        started = time.monotonic()
        await asyncio.to_thread(start_run, site.urls[0], links["view"])
        by_offset: dict[int, Any] = {}
        for _ in children:
            offset, outcome = await asyncio.to_thread(outcomes.get, timeout=DEADLINE_SECONDS)
            if isinstance(outcome, BaseException):
                raise RuntimeError(f"viewer process {offset} failed") from outcome
            by_offset[offset] = outcome
    finally:
        for child in children:
            child.join(timeout=10)
            if child.is_alive():
                child.terminate()
    results: list[ViewerResult] = [result for offset in offsets for result in by_offset[offset]]
    elapsed = time.monotonic() - started
    expected_events = max((max(result.seqs) for result in results if result.seqs), default=0)
    expected = list(range(1, expected_events + 1))
    problems = []
    for index, result in enumerate(results):
        seqs = result.seqs
        if seqs != expected:
            duplicates = len(seqs) - len(set(seqs))
            problems.append(
                f"viewer {index}: {len(seqs)} events, {duplicates} duplicated, in order: {seqs == sorted(seqs)}"
            )
    delays = [delay for result in results for delay in result.delays]
    delivered = sum(len(result.seqs) for result in results)
    sent = [stamp for result in results for stamp in result.sent]
    return ViewerReport(
        site=site.label,
        viewers=viewers,
        viewer_processes=processes,
        events=expected_events,
        complete_viewers=viewers - len(problems),
        lagged_viewers=sum(result.lagged for result in results),
        problems=problems[:10],
        delivery_p50_ms=round(percentile(delays, 0.50) * 1000, 1),
        delivery_p95_ms=round(percentile(delays, 0.95) * 1000, 1),
        delivery_max_ms=round(max(delays, default=0) * 1000, 1),
        run_seconds=round(elapsed, 2),
        broadcast_seconds=round(max(sent) - min(sent), 2) if sent else 0.0,
        frames_delivered=delivered,
        events_delivered_per_second=round(delivered / elapsed, 1) if elapsed else 0.0,
    )


# ---------------------------------------------------------------------------- editors and runs


@dataclass
class EditorsReport:
    site: str
    editors: int
    edits_per_editor: int
    edits_applied: int
    edits_lost: int
    runs: int
    runs_finished: int
    errors: list[str] = field(default_factory=list)
    edit_p50_ms: float = 0.0
    edit_p95_ms: float = 0.0
    edits_per_second: float = 0.0
    seconds: float = 0.0


RUN_WORKLOAD = deployment_yaml(replicas=12)


class Editor:
    """One person with their own scenario, editing it through the page's forms."""

    def __init__(self, base: str) -> None:
        self.tab = HttpClient(base)
        self.path = ""
        self.version = 0
        self.node_id = 0

    def open_new_scenario(self) -> None:
        self.tab.get("/")  # the CSRF cookie
        request = self.tab._form("/scenarios/new", {})
        with self.tab.opener.open(request, timeout=60) as response:  # follows the redirect to it
            self.path = urllib.parse.urlparse(response.url).path
            self._read_board(response.read().decode())

    def _read_board(self, page: str) -> None:
        self.version = int(re.search(r'data-version="(\d+)"', page).group(1))
        self.node_id = int(re.search(r'data-node-id="(\d+)"', page).group(1))

    def label(self, key: str) -> tuple[int, float]:
        started = time.monotonic()
        status, body = self.tab.submit(
            f"{self.path}/nodes/{self.node_id}/label", {"version": self.version, "key": key, "value": "x"}
        )
        if status == 200:
            self.version = int(re.search(r'data-version="(\d+)"', body).group(1))
        return status, time.monotonic() - started

    def labels_saved(self) -> set[str]:
        """The load-* labels of the first node, as the scenario's export has them."""
        documents = yaml.safe_load_all(self.tab.get(f"{self.path}/export.yaml"))
        node = next(document for document in documents if document and document.get("kind") == "Node")
        return {key for key in node["metadata"].get("labels", {}) if key.startswith("load-")}


def _edit_session(base: str, edits: int, index: int) -> tuple[int, int, list[float], list[str]]:
    """(edits applied, edits lost, latencies, errors) of one editor making `edits` edits in turn."""
    editor = Editor(base)
    editor.open_new_scenario()
    latencies: list[float] = []
    errors: list[str] = []
    applied: set[str] = set()
    for number in range(edits):
        key = f"load-{number}"
        status, seconds = editor.label(key)
        latencies.append(seconds)
        if status == 200:
            applied.add(key)
        else:
            errors.append(f"editor {index}, edit {number}: HTTP {status}")
    lost = applied - editor.labels_saved()
    return len(applied), len(lost), latencies, errors


def _scenario_to_run(base: str) -> str:
    """A new scenario with RUN_WORKLOAD, made through the page as a person would; its path."""
    editor = Editor(base)
    editor.open_new_scenario()
    status, body = editor.tab.submit(f"{editor.path}/workload", {"version": editor.version, "workload": RUN_WORKLOAD})
    if status != 200:
        raise RuntimeError(f"saving the workload answered {status}: {body[:200]}")
    return editor.path


async def _run_session(base: str, index: int) -> str | None:
    """Starts a run of a scenario of its own and waits for the run's final status."""
    path = await asyncio.to_thread(_scenario_to_run, base)
    slug = path.rsplit("/", 1)[1]
    async with websockets.connect(socket_url(base, slug), origin=ORIGIN, open_timeout=60) as socket_:
        run_id = await asyncio.to_thread(start_run, base, path)
        acks = Acknowledger(socket_)
        async for raw in socket_:
            message = orjson.loads(raw)
            await acks.read(message, len(raw))
            if message.get("type") == "run.status" and message["run"] == run_id:
                if message["status"] == "finished":
                    return None
                if message["status"] in ("failed", "interrupted"):
                    return f"run {index}: {message['status']}: {message.get('error', '')}"
    return f"run {index}: the socket closed before the run ended"


async def editors_and_runs(site: Site, editors: int, edits_per_editor: int, runs: int) -> EditorsReport:
    started = time.monotonic()
    async with asyncio.timeout(DEADLINE_SECONDS):
        edit_tasks = [
            asyncio.to_thread(_edit_session, site.urls[i % len(site.urls)], edits_per_editor, i) for i in range(editors)
        ]
        run_tasks = [_run_session(site.urls[i % len(site.urls)], i) for i in range(runs)]
        results = await asyncio.gather(*edit_tasks, *run_tasks, return_exceptions=True)
    seconds = time.monotonic() - started
    report = EditorsReport(site.label, editors, edits_per_editor, 0, 0, runs, 0, seconds=round(seconds, 2))
    latencies: list[float] = []
    for result in results[:editors]:
        if isinstance(result, BaseException):
            report.errors.append(f"editor: {type(result).__name__}: {result}")
            continue
        applied, lost, edit_latencies, errors = result
        report.edits_applied += applied
        report.edits_lost += lost
        latencies.extend(edit_latencies)
        report.errors.extend(errors)
    for result in results[editors:]:
        if isinstance(result, BaseException):
            report.errors.append(f"run: {type(result).__name__}: {result}")
        elif result is not None:
            report.errors.append(result)
        else:
            report.runs_finished += 1
    report.edit_p50_ms = round(percentile(latencies, 0.50) * 1000, 1)
    report.edit_p95_ms = round(percentile(latencies, 0.95) * 1000, 1)
    report.edits_per_second = round(report.edits_applied / seconds, 1) if seconds else 0.0
    return report


# ---------------------------------------------------------------------------- command line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale-out", action="store_true", help="PostgreSQL + Redis, 2 Daphne, 1 worker")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/playground_load")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--parser", choices=sorted(PARSERS), default="orjson", help="how viewers parse frames")
    parser.add_argument("--viewer-processes", type=int, default=None, help="client processes (default: one per CPU)")
    parser.add_argument("--nodes", type=int, default=40)
    parser.add_argument("--replicas", type=int, default=400, help="400 replicas make a 2,001-event run")
    parser.add_argument("--editors", type=int, default=50)
    parser.add_argument("--edits", type=int, default=10, help="edits per editor")
    parser.add_argument("--runs", type=int, default=20)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as var_dir:
        site_context = (
            scale_out_site(Path(var_dir), options.database_url, options.redis_url)
            if options.scale_out
            else embedded_site(Path(var_dir))
        )
        with site_context as site:
            viewers = asyncio.run(
                viewers_of_one_run(
                    site, options.viewers, options.nodes, options.replicas, options.viewer_processes, options.parser
                )
            )
            print(json.dumps(asdict(viewers), indent=2))
            editing = asyncio.run(editors_and_runs(site, options.editors, options.edits, options.runs))
            print(json.dumps(asdict(editing), indent=2))
    ok = viewers.complete_viewers == viewers.viewers and not editing.errors and not editing.edits_lost
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
