"""A run's frames make disruptions visible: the taint eviction countdown on pod frames ("evictAt")
and PodDisruptionBudget status during a drain."""

import pytest

from playground.change_deltas import expand
from playground.management.commands.load_gallery import GALLERY_DIR, split_gallery_file
from playground.models import Run, Scenario
from playground.runs import execute
from playground.scenarios import create_scenario, snapshot
from tests.web.stored_events import events_with_reason

pytestmark = pytest.mark.django_db

NODE = {"name": "n1", "labels": {}, "taints": [], "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}}
# The intolerant pod is evicted at once: its event carries the frames of the instant the taint lands
# (a taint itself records no event, as in Kubernetes).
TOLERATING_POD = """\
apiVersion: v1
kind: Pod
metadata: {name: patient}
spec:
  containers: [{name: c, image: nginx}]
  tolerations: [{key: maintenance, operator: Exists, effect: NoExecute, tolerationSeconds: 60}]
---
apiVersion: v1
kind: Pod
metadata: {name: intolerant}
spec:
  containers: [{name: c, image: nginx}]
"""


def action(at: str, op: str, extra: str = "") -> str:
    return f"---\napiVersion: playground/v1\nkind: Action\nspec: {{at: {at}, op: {op}, target: Node/n1{extra}}}\n"


TAINT = ", taint: {key: maintenance, value: 'true', effect: NoExecute}"


def run_events(scenario) -> list[dict]:
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    execute(run, publish=lambda slug, run_id, events: None)
    run.refresh_from_db()
    assert run.status == Run.Status.FINISHED, run.error
    return list(expand(row.payload for row in run.events.order_by("seq")))


def pod_frames(events: list[dict], key: str) -> list[tuple[float | None, dict]]:
    """(time of the event, frame) for every frame of the pod."""
    return [
        ((payload["event"] or {}).get("time", payload.get("end")), change)
        for payload in events
        for change in payload["changes"]
        if change["op"] == "pod" and change["key"] == key
    ]


def test_a_tolerating_pod_frame_carries_when_its_taint_eviction_is_due():
    scenario, _ = create_scenario(
        "countdown", nodes=[NODE], workload_yaml=TOLERATING_POD + action("10s", "taint", TAINT)
    )
    frames = pod_frames(run_events(scenario), "default/patient")
    assert frames[0][1]["evictAt"] is None  # scheduled and started before any taint
    tainted = next(frame for time, frame in frames if time == 10.0)
    assert tainted["evictAt"] == 70.0  # the taint at 10 s plus tolerationSeconds
    last_time, last = frames[-1]
    assert last_time == 70.0 and last["deleting"] and last["evictAt"] is None  # done: no countdown left


def test_removing_the_taint_calls_the_countdown_off():
    workload = TOLERATING_POD + action("10s", "taint", TAINT) + action("30s", "untaint", ", key: maintenance")
    scenario, _ = create_scenario("cancelled", nodes=[NODE], workload_yaml=workload)
    events = run_events(scenario)
    frames = pod_frames(events, "default/patient")
    assert [(time, frame["evictAt"]) for time, frame in frames if time in (10.0, 30.0)] == [(10.0, 70.0), (30.0, None)]
    assert not any(frame["deleting"] for _, frame in frames)
    assert any(p["event"] and p["event"]["message"] == "Cancelling deletion of Pod default/patient" for p in events)


def test_a_drain_held_back_by_a_budget_shows_zero_disruptions_allowed():
    header, nodes, workload = split_gallery_file((GALLERY_DIR / "080-drain-with-pdb.yaml").read_text())
    scenario, _ = create_scenario(header["title"], nodes=nodes, workload_yaml=workload)
    budgets = [
        (payload["time"], change)
        for payload in run_events(scenario)
        for change in payload["changes"]
        if change["op"] == "workload" and change["kind"] == "PodDisruptionBudget"
    ]
    assert budgets, "the budget's status is recorded"
    first = budgets[0][1]
    assert (first["key"], first["name"], first["minAvailable"]) == ("default/web-pdb", "web-pdb", 2)
    # Before the drain all three replicas are healthy: one disruption allowed.
    before = [frame for time, frame in budgets if time is not None and time < 40]
    assert before[-1]["currentHealthy"] == 3 and before[-1]["disruptionsAllowed"] == 1
    # The drain's first eviction spends it (the eviction itself takes the disruption, before its pod goes)...
    at_drain = [frame for time, frame in budgets if time == 40.0]
    assert (at_drain[0]["currentHealthy"], at_drain[0]["disruptionsAllowed"]) == (3, 0)
    # ...then 2 healthy of 2 desired, evictions blocked until a replacement is ready.
    during = at_drain[-1]
    assert {k: during[k] for k in ("currentHealthy", "desiredHealthy", "disruptionsAllowed", "expectedPods")} == {
        "currentHealthy": 2,
        "desiredHealthy": 2,
        "disruptionsAllowed": 0,
        "expectedPods": 4,  # an integer minAvailable counts the matching pods: the evicted one and its replacement
    }


def run_gallery_scenario(file_name: str) -> tuple[Scenario, Run]:
    header, nodes, workload = split_gallery_file((GALLERY_DIR / file_name).read_text())
    scenario, _ = create_scenario(header["title"], nodes=nodes, workload_yaml=workload)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    execute(run, publish=lambda slug, run_id, events: None)
    return scenario, run


def test_explaining_the_preemptor_while_its_victims_terminate_names_them(client):
    """Issue #16, item 4: at the preemption's own events the pod is nominated and its victims are
    terminating: the explanation is the scheduler's ("not eligible due to a terminating pod"),
    with the victims it waits for; at its FailedScheduling event, before them, the dry run's choice."""
    from django.urls import reverse

    scenario, run = run_gallery_scenario("190-preemption.yaml")
    url = reverse("explain-pod", args=[scenario.slug, run.pk])
    failed = next(
        e for e in events_with_reason(run, "FailedScheduling") if e.payload["event"]["object"].endswith("/urgent")
    )
    page = client.get(url, {"pod": "default/urgent", "seq": failed.seq}).content.decode()
    assert "Preemption" in page and 'data-preemption-node="node-1"' in page
    # The youngest three go, lowest priority (then youngest) first; the oldest is reprieved.
    victims = [name for name in ("low-3", "low-2", "low-1", "low-0") if f"default/{name}" in page]
    assert victims == ["low-3", "low-2", "low-1"]
    assert page.index("default/low-3") < page.index("default/low-2") < page.index("default/low-1")
    assert "only candidate" in page
    preempted = events_with_reason(run, "Preempted")[-1]
    page = client.get(url, {"pod": "default/urgent", "seq": preempted.seq}).content.decode()
    assert "data-preemption-waiting" in page and "not eligible due to a terminating pod on the nominated node." in page
    waiting = [
        name for name in ("low-0", "low-1", "low-2", "low-3") if f'data-terminating-victim="default/{name}"' in page
    ]
    assert waiting == ["low-1", "low-2", "low-3"]
    assert "gone by t=40s" in page


def test_explaining_a_pod_its_kubelet_refused_says_why_it_failed(client):
    """Issue #16, item 1, in the page: the pod pinned with nodeName to a node too small for it is
    Failed with OutOfcpu; its panel says so before the scheduler's own verdicts."""
    from django.urls import reverse

    scenario, run = run_gallery_scenario("035-nodename-outofcpu.yaml")
    rejected = events_with_reason(run, "OutOfcpu")[0]
    url = reverse("explain-pod", args=[scenario.slug, run.pk])
    # The kubelet's event comes first, then its status update: the event after it shows the pod Failed.
    page = client.get(url, {"pod": "default/nginx-pinned", "seq": rejected.seq + 1}).content.decode()
    assert 'data-testid="kubelet-rejected"' in page
    assert "Failed: OutOfcpu." in page
    assert "Pod was rejected: Node didn&#x27;t have enough resource: cpu, requested: 2000" in page
    # Before the rejection it is not said.
    earlier = client.get(url, {"pod": "default/nginx-pinned", "seq": rejected.seq}).content.decode()
    assert 'data-testid="kubelet-rejected"' not in earlier


def test_the_panel_ends_with_kubectl_describe_at_the_players_event(client):
    """Issue #16, item 7: status, conditions and counted events, as `kubectl describe pod` prints
    them at that moment: the victim terminating as a target of the preemption, the preemptor
    nominated in its place."""
    from django.urls import reverse

    scenario, run = run_gallery_scenario("190-preemption.yaml")
    url = reverse("explain-pod", args=[scenario.slug, run.pk])
    preempted = events_with_reason(run, "Preempted")[-1]
    victim = client.get(url, {"pod": "default/low-1", "seq": preempted.seq}).content.decode()
    assert "kubectl describe pod low-1" in victim and "at t=10s" in victim
    assert "Terminating (lasts &lt;invalid&gt;)" in victim  # kubectl's own words during the grace period
    assert "<dt>Termination Grace Period</dt><dd>30s</dd>" in victim
    assert '<tr data-container="c"><td>c</td><td>pause</td><td>Running (since t=2s)</td><td>True</td>' in victim
    target = '<tr data-condition="DisruptionTarget"><td>DisruptionTarget</td><td class="">True</td>'
    assert target + "<td>PreemptionByScheduler</td></tr>" in victim
    urgent = client.get(url, {"pod": "default/urgent", "seq": preempted.seq}).content.decode()
    assert "<dt>Nominated Node Name</dt><dd>node-1</dd>" in urgent
    assert 'data-describe-event="FailedScheduling"' in urgent
    last = run.events.order_by("-seq").first()
    latecomer = client.get(url, {"pod": "default/latecomer", "seq": last.seq}).content.decode()
    assert "<td>FailedScheduling</td><td>5s (x4 over 45s)</td><td>default-scheduler</td>" in latecomer
