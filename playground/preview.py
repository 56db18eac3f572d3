"""Where the scheduler puts the scenario's pods at time 0: what the node board shows inside each
node, with the resources they request. Computed by the engine's simulation, cached by content (a
rename, or a fork of the same content, asks for the same preview).

A preview is computed off the request, by a small pool of daemon threads (daemons, so a preview
never holds up the process' exit on SIGTERM; concurrent.futures joins its workers at exit): at most
WORKERS at once, at most QUEUE_SIZE waiting, each once however many ask for it at the same time
(later askers wait on the same job). A request waits for it briefly (WAIT_SECONDS); after that
the board renders without pods and fetches itself again (templates/scenario.html, "placing").
Each simulation is bounded (events, objects, CPU seconds): past a bound the board says which one
instead of pods. The workers run at a lower priority (NICE) than the requests they serve.
"""

import hashlib
import logging
import multiprocessing
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess

from playground import parsed_versions
from playground.background import keep_workers, lower_priority, next_job
from playground.preview_compute import PENDING_SHOWN, STARTED, Limits, NodeUsage, PodView, Preview, compute, serve
from playground.run_simulations import RUN_LIMITS

__all__ = ["PENDING_SHOWN", "NodeUsage", "PodView", "Preview", "cached", "cached_by_key", "preview", "preview_by_key"]

logger = logging.getLogger(__name__)

# A preview's bounds, for a scenario of up to PODS_IN_BASE_BUDGET pods and nodes; a bigger one gets
# them in proportion (budgets.budget_scale): 5,000 nodes and 50,000 pods are two minutes of CPU.
MAX_EVENTS = 20_000
MAX_OBJECTS = 20_000
MAX_CPU_SECONDS = 5.0
PODS_IN_BASE_BUDGET = 1_500  # 5 s for 1,500 pods: 3.3 ms a pod, what 5,000 nodes cost with a spread
MAX_BUDGET_SCALE = 40.0
EVENTS_PER_POD = 4  # created and scheduled, a ReplicaSet's and the scheduler's: t=0 only
WORKERS = 2
QUEUE_SIZE = 32  # previews waiting for a worker; past it a board asks again later
# How long a request waits for a preview being computed (the gallery's take well under it); then
# the board renders without pods. A save of a large scenario costs this much more at most.
WAIT_SECONDS = 0.5
CACHE_SIZE = 64
CACHE_PODS = 100_000  # pods held by all cached previews together (what the cache costs in memory)
NICE = 10  # the workers' scheduling priority (0 normal, 19 lowest)
# A cluster document over this size (about 300 nodes, or a big workload) is previewed in a process
# of its own, a sandbox: its seconds of simulation then leave the server's interpreter lock to the
# requests. Smaller ones, the gallery's, take a few milliseconds in the worker thread itself.
SANDBOX_BYTES = 64 * 1024


@dataclass(slots=True)
class _Job:
    key: str
    document: str
    done: threading.Event = field(default_factory=threading.Event)
    result: Preview | None = None


_cache: "OrderedDict[str, Preview]" = OrderedDict()
_cached_pods = 0
_jobs: dict[str, _Job] = {}  # queued or being computed, by key
_queue: deque[_Job] = deque()
_lock = threading.Lock()
_work = threading.Condition(_lock)
_workers: list[threading.Thread] = []
computations = 0  # previews computed by this process (how tests see that nothing ran twice)


def document_key(document: str) -> str:
    """The cache's key of a cluster document: its content's digest."""
    return hashlib.sha256(document.encode()).hexdigest()


def preview(document: str, wait: float = WAIT_SECONDS) -> Preview:
    """The cached preview of the cluster document, or the one computed within `wait` seconds, or a
    placeholder (ready=False)."""
    return preview_by_key(document_key(document), lambda: document, wait)


def preview_by_key(cache_key: str, document: Callable[[], str], wait: float = WAIT_SECONDS) -> Preview:
    """As `preview`, for the document whose key is known (playground/preview_keys.py): `document` is
    called only to start its computation, neither cached nor under way (an imported cluster's
    document is 30 MiB, read from the database), and outside the lock."""
    text: str | None = None
    while True:
        with _lock:
            cached = _cache.get(cache_key)
            if cached is not None:
                _cache.move_to_end(cache_key)
                return cached
            job = _jobs.get(cache_key)  # if any: already queued or computed, this request waits on it
            if job is None:
                if len(_queue) >= QUEUE_SIZE:
                    return Preview(ready=False, queue_full=True)
                if text is not None:
                    job = _Job(cache_key, text)
                    _jobs[cache_key] = job
                    _queue.append(job)
                    _start_workers()
                    _work.notify()
        if job is not None:
            break
        text = document()
    if job.done.wait(wait) and job.result is not None:
        return job.result
    return Preview(ready=False)


def cached(document: str) -> Preview | None:
    """The document's preview if it is already computed (nothing is started)."""
    return cached_by_key(document_key(document))


def cached_by_key(cache_key: str) -> Preview | None:
    with _lock:
        return _cache.get(cache_key)


def _start_workers() -> None:
    """Called with the lock held: the pool starts with the first preview (and replaces a dead worker)."""
    keep_workers(_workers, WORKERS, _work_loop, "preview")


def _work_loop() -> None:
    global computations
    lower_priority(NICE)
    while True:
        job = next_job(_work, _queue)
        with _lock:
            computations += 1
        started = time.thread_time()
        try:
            result, cpu = _compute(job.document)
        except Exception as error:  # an engine bug: the board says so, the worker lives on
            logger.exception("preview %s failed", job.key[:12])
            result, cpu = Preview(error=f"internal error: {type(error).__name__}"), time.thread_time() - started
        outcome = result.stopped or ("does not load" if result.error else f"{result.pods} pods")
        where = "in a sandbox" if len(job.document) > SANDBOX_BYTES else "in process"
        logger.info("preview %s computed %s in %.1f s of CPU: %s", job.key[:12], where, cpu, outcome)
        with _lock:
            _store(job.key, result)
            del _jobs[job.key]
        job.result = result
        job.done.set()


def _store(key: str, result: Preview) -> None:
    """Called with the lock held. Least recently used previews go first, past CACHE_SIZE or CACHE_PODS."""
    global _cached_pods
    _cache[key] = result
    _cached_pods += result.pods
    while len(_cache) > CACHE_SIZE or (_cached_pods > CACHE_PODS and len(_cache) > 1):
        _old_key, old = _cache.popitem(last=False)
        _cached_pods -= old.pods


def _limits() -> Limits:
    return Limits(
        max_events=MAX_EVENTS,
        max_objects=MAX_OBJECTS,
        max_cpu_seconds=MAX_CPU_SECONDS,
        base_pods=PODS_IN_BASE_BUDGET,
        most_scale=MAX_BUDGET_SCALE,
        events_per_pod=EVENTS_PER_POD,
        run_limits=RUN_LIMITS,
    )


def _compute(document: str) -> tuple[Preview, float]:
    """The preview and its CPU seconds: in this thread, or a big one in this worker's sandbox."""
    if len(document) <= SANDBOX_BYTES:
        return compute(document, _limits())
    sandbox = getattr(_sandboxes, "sandbox", None)
    if sandbox is None or not sandbox.idle():
        sandbox = _sandboxes.sandbox = Sandbox()
    try:
        return sandbox.compute(document, _limits())
    except SandboxGone:  # dead before the document reached it (killed while idle): a fresh one
        sandbox = _sandboxes.sandbox = Sandbox()
        try:
            return sandbox.compute(document, _limits())
        except SandboxGone:
            return Preview(error="internal error: the preview's process could not start"), 0.0


_sandboxes = threading.local()  # each worker thread's sandbox: one preview at a time in each
started_sandboxes: list["Sandbox"] = []  # every one this process started (how tests find them)


class SandboxGone(Exception):
    """The sandbox ended before it took the document: nothing of the document's doing."""


class Sandbox:
    """A process that computes previews for one worker thread, started from a clean interpreter
    (forkserver: the server's threads and locks are not copied into it) and ended with the server
    (a daemon process). The thread waits on the pipe without the interpreter lock."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["playground.preview_compute"])
        self.computing = False  # it has taken a document and not yet answered
        self.connection, child = context.Pipe()
        self.process: BaseProcess = context.Process(
            target=serve, args=(child, NICE), name="preview-sandbox", daemon=True
        )
        self.process.start()
        child.close()
        started_sandboxes.append(self)

    def alive(self) -> bool:
        return self.process.is_alive()

    def idle(self) -> bool:
        """Alive and owing no answer. A process killed between two previews can still look alive
        for a moment (its exit status not yet collected), but its end of the pipe is closed at
        once: the pipe then reads as ready, which an idle sandbox's never does."""
        try:
            return self.alive() and not self.connection.poll(0)
        except (EOFError, OSError):
            return False

    def compute(self, document: str, limits: Limits) -> tuple[Preview, float]:
        """The document's preview; SandboxGone if the process was dead before it took the document."""
        try:
            self.connection.send((document, limits))
            receipt = self.connection.recv()
        except (EOFError, OSError) as error:
            self.process.join(timeout=1)
            raise SandboxGone from error
        assert receipt == STARTED, receipt
        self.computing = True
        try:
            answer = self.connection.recv()
        except (EOFError, OSError):  # it died of this document (out of memory, killed): the next one starts anew
            self.process.join(timeout=1)
            return Preview(error=f"internal error: the preview's process ended ({self.process.exitcode})"), 0.0
        finally:
            self.computing = False
        if isinstance(answer, str):
            logger.error("preview failed in its sandbox: %s", answer)
            return Preview(error=f"internal error: {answer.split(':', 1)[0]}"), 0.0
        preview_result, cpu, parsed = answer
        if parsed is not None:
            parsed_versions.keep(parsed_versions.digest(document), parsed)
        return preview_result, cpu
