"""A big scenario's preview runs in a process of its own (playground/preview.py, Sandbox): its
seconds of simulation leave this process's interpreter lock to the requests, its result is the one
this process would compute, and a sandbox that dies costs one preview, not the next."""

import logging
import os
import re
import signal
import time

from playground import preview
from playground.preview_compute import compute

NODE = (
    "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-{index}\n"
    "  labels: {{kubernetes.io/hostname: node-{index}, topology.kubernetes.io/zone: zone-{zone}}}\n"
    "status: {{capacity: {{cpu: '4', memory: 16Gi, pods: '110'}}}}\n"
)
DEPLOYMENT = (
    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: {name}}}\nspec:\n  replicas: {replicas}\n"
    "  selector: {{matchLabels: {{app: {name}}}}}\n  template:\n    metadata: {{labels: {{app: {name}}}}}\n"
    "    spec: {{containers: [{{name: c, image: nginx, resources: {{requests: {{cpu: 100m}}}}}}]}}\n"
)


def big_document(nodes: int = 400, replicas: int = 1200, name: str = "web") -> str:
    parts = [NODE.format(index=index, zone=index % 3) for index in range(nodes)]
    parts.append(DEPLOYMENT.format(name=name, replicas=replicas))
    document = "---\n".join(parts)
    assert len(document) > preview.SANDBOX_BYTES
    return document


def usage_of(result: preview.Preview) -> dict[str, tuple[int, list[str]]]:
    return {node: (usage.cpu, [view.key for view in usage.pod_views]) for node, usage in result.usage.items()}


def test_a_big_preview_is_computed_in_a_sandbox_and_is_the_same_as_here(caplog):
    document = big_document()
    caplog.set_level(logging.INFO, logger="playground.preview")
    cpu_before = time.process_time()
    result = preview.preview(document, wait=120)
    cpu_here = time.process_time() - cpu_before
    assert result.ready and not result.error and not result.stopped
    logged = [r.getMessage() for r in caplog.records if "computed in a sandbox" in r.getMessage()]
    assert len(logged) == 1, logged
    cpu_there = float(re.search(r"in ([\d.]+) s of CPU", logged[0]).group(1))
    # The log rounds to a tenth; 0.4-0.6 s on a fast machine, several times what is spent here.
    assert cpu_there >= 0.2 and cpu_here < cpu_there / 2, (cpu_here, cpu_there)  # spent elsewhere
    sandboxes = [sandbox for sandbox in preview.started_sandboxes if sandbox.alive()]
    assert sandboxes and all(sandbox.process.pid != os.getpid() for sandbox in sandboxes)
    here, _ = compute(document, preview._limits())
    assert usage_of(result) == usage_of(here) and result.pods == here.pods == 1200


def test_a_sandbox_that_dies_fails_its_preview_and_the_next_one_starts_anew():
    killed = big_document(replicas=3000, name="killed")
    job = threading_preview(killed)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(s.computing for s in preview.started_sandboxes):
        time.sleep(0.01)
    busy = [sandbox for sandbox in preview.started_sandboxes if sandbox.computing]
    assert busy, "no sandbox took the document"
    for sandbox in busy:  # it has the document, being simulated (3,000 pods: seconds)
        os.kill(sandbox.process.pid, signal.SIGKILL)
    result = job()
    assert result.ready and result.error.startswith("internal error: the preview's process ended")
    after = preview.preview(big_document(replicas=30, name="after"), wait=120)
    assert after.ready and not after.error and after.pods == 30


def threading_preview(document: str):
    """Starts the document's preview; returns a call that waits for its result."""
    preview.preview(document, wait=0)

    def result() -> preview.Preview:
        return preview.preview(document, wait=120)

    return result


def test_a_sandbox_killed_while_idle_is_replaced_before_the_next_preview():
    first = preview.preview(big_document(replicas=20, name="first"), wait=120)
    assert first.ready and not first.error
    idle = [sandbox for sandbox in preview.started_sandboxes if sandbox.alive()]
    assert idle
    for sandbox in idle:
        os.kill(sandbox.process.pid, signal.SIGKILL)  # no wait: its exit status may be uncollected yet
    for attempt in range(3):  # every worker thread's sandbox is dead: whichever takes the job
        after = preview.preview(big_document(replicas=21 + attempt, name="next"), wait=120)
        assert after.ready and not after.error, after.error
        assert after.pods == 21 + attempt


def test_a_sandbox_found_dead_only_when_sent_the_document_is_replaced_for_it(monkeypatch):
    """The race the check before sending cannot close (killed between the check and the send): the
    document never reached it, so a fresh sandbox computes it."""
    first = preview.preview(big_document(replicas=40, name="before"), wait=120)
    assert first.ready and not first.error
    for sandbox in [sandbox for sandbox in preview.started_sandboxes if sandbox.alive()]:
        os.kill(sandbox.process.pid, signal.SIGKILL)
        sandbox.process.join(timeout=10)
    monkeypatch.setattr(preview.Sandbox, "idle", lambda self: True)  # as if checked before it died
    after = preview.preview(big_document(replicas=41, name="raced"), wait=120)
    assert after.ready and not after.error and after.pods == 41
