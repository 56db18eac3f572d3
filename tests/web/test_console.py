"""The page's kubectl console (issue #17, item 1): a command reads the run shown at the player's
event; an editor's change goes on the timeline there as the Act form's does (a new version and a
run, swapped into the page out of band); a viewer reads and is refused changes; Tab completes."""

import re

import pytest
import yaml
from django.test import Client
from django.urls import reverse

from playground.kubeapi import console as web_console
from playground.models import Run, Scenario
from playground.scenarios import create_scenario
from playground.views import console as console_view
from playground.views.common import SESSION_PREFIX
from tests.manifests import deployment_yaml

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
NODES = [
    {"name": f"worker{index}", "labels": {}, "taints": [], "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}}
    for index in (1, 2)
]


def scenario_with_run(client: Client, *, edit: bool = True) -> tuple[Scenario, Run]:
    scenario, key = create_scenario("console", nodes=NODES, workload_yaml=deployment_yaml(2))
    if edit:
        session = client.session
        session[SESSION_PREFIX + scenario.slug] = key
        session.save()
    assert client.post(reverse("start-run", args=[scenario.slug]), headers=HTMX).status_code == 201
    return scenario, Run.objects.get(scenario=scenario)


def command(client: Client, scenario: Scenario, line: str, **where) -> str:
    data = {"line": line, "version": scenario.version} | where
    response = client.post(reverse("console", args=[scenario.slug]), data, headers=HTMX)
    assert response.status_code == 200
    return response.content.decode()


def printed(entry: str) -> str:
    found = re.search(r"<pre class=\"console-out\"[^>]*>(.*?)</pre>", entry, re.S)
    return found.group(1) if found else ""


def test_a_read_prints_kubectls_table_at_the_players_event():
    client = Client()
    scenario, run = scenario_with_run(client)
    at_end = command(client, scenario, "kubectl get pods -o wide", run=run.pk)
    assert "at the run’s end" in at_end or "at the run&#x27;s end" in at_end
    rows = printed(at_end).splitlines()
    assert rows[0].split()[:3] == ["NAME", "READY", "STATUS"] and len(rows) == 3
    assert all("Running" in row for row in rows[1:])
    before = command(client, scenario, "get pods", run=run.pk, seq=0)
    assert "at event 0 (0s)" in before and "No resources found in default namespace." in before
    assert run.scenario.runs.count() == 1  # reading changes nothing


def test_an_editors_change_goes_on_the_timeline_at_the_players_moment():
    client = Client()
    scenario, run = scenario_with_run(client)
    frames = run.events.count()
    entry = command(client, scenario, "kubectl cordon worker2", run=run.pk, seq=frames)
    assert printed(entry) == "node/worker2 cordoned\n"
    assert 'id="run-panel"' in entry and 'hx-swap-oob="true"' in entry and "data-start-at=" in entry
    assert "On the timeline at" in entry
    scenario.refresh_from_db()
    assert scenario.version == 2
    actions = [doc for doc in yaml.safe_load_all(scenario.workload_yaml) if doc and doc.get("kind") == "Action"]
    assert [action["spec"]["op"] for action in actions] == ["cordon"]
    assert actions[0]["spec"]["target"] == "Node/worker2"
    new_run = scenario.runs.order_by("-pk").first()
    assert new_run.pk != run.pk and f'data-run-id="{new_run.pk}"' in entry
    after = command(client, scenario, "get nodes", run=new_run.pk)
    assert "Ready,SchedulingDisabled" in printed(after)


def test_a_viewer_reads_and_is_refused_every_change():
    editor = Client()
    scenario, run = scenario_with_run(editor)
    viewer = Client()
    assert "worker1" in printed(command(viewer, scenario, "get nodes", run=run.pk))
    refused = command(viewer, scenario, "taint nodes worker1 gpu=true:NoSchedule", run=run.pk)
    assert "Error from server (Forbidden)" in refused and "playground:viewer" in refused
    assert 'id="run-panel"' not in refused
    scenario.refresh_from_db()
    assert scenario.version == 1 and scenario.runs.count() == 1


def test_kubectls_own_errors_and_escaping():
    client = Client()
    scenario, run = scenario_with_run(client)
    unknown = command(client, scenario, "kubectl gett pods", run=run.pk)
    assert "error: unknown command &quot;gett&quot; for &quot;kubectl&quot;" in unknown and "\tget\n" in unknown
    tutorial = command(client, scenario, "kubectl taint node worker1 key:value:effect", run=run.pk)
    assert "invalid taint spec" in tutorial
    script = command(client, scenario, "get pods <script>alert(1)</script>", run=run.pk)
    assert "<script>" not in script and "&lt;script&gt;" in script
    assert Scenario.objects.get(pk=scenario.pk).version == 1


def test_a_change_on_a_version_the_page_no_longer_shows_is_refused():
    client = Client()
    scenario, run = scenario_with_run(client)
    stale = command(client, scenario, "cordon worker1", run=run.pk, version=scenario.version - 1 or 99)
    assert "Error from server (Conflict)" in stale and "nothing" not in stale.split("Conflict")[0]
    scenario.refresh_from_db()
    assert scenario.version == 1


def test_without_a_run_the_console_starts_one_and_the_page_shows_it():
    client = Client()
    scenario, _key = create_scenario("console", nodes=NODES, workload_yaml=deployment_yaml(1))
    entry = command(client, scenario, "get nodes")
    run = scenario.runs.get()
    assert f'data-run-id="{run.pk}"' in entry and 'hx-swap-oob="true"' in entry
    assert "worker2" in printed(entry) or "the console reads it in a moment" in entry


def test_completion_reads_names_at_the_players_event():
    client = Client()
    scenario, run = scenario_with_run(client)
    url = reverse("console-complete", args=[scenario.slug])
    assert client.get(url, {"line": "kubectl dr"}).json()["candidates"] == ["drain"]
    assert client.get(url, {"line": "cordon ", "run": run.pk}).json()["candidates"] == ["worker1", "worker2"]
    pods = client.get(url, {"line": "describe pod web", "run": run.pk}).json()["candidates"]
    assert len(pods) == 2 and all(name.startswith("web-") for name in pods)
    assert client.get(url, {"line": "describe pod ", "run": run.pk, "seq": 0}).json()["candidates"] == []


def test_apply_f_takes_the_files_text_sent_with_the_command():
    client = Client()
    scenario, run = scenario_with_run(client)
    pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: extra}\nspec: {containers: [{name: c, image: nginx}]}\n"
    data = {"filename": "pod.yaml", "file": pod}
    entry = command(client, scenario, "kubectl apply -f pod.yaml", run=run.pk, **data)
    assert printed(entry) == "pod/extra created\n" and 'id="run-panel"' in entry
    scenario.refresh_from_db()
    assert "name: extra" in scenario.workload_yaml and scenario.version == 2
    new_run = scenario.runs.order_by("-pk").first()
    assert "extra" in printed(command(client, scenario, "get pods", run=new_run.pk))
    missing = command(client, scenario, "kubectl apply -f other.yaml", run=new_run.pk, **data)
    assert "error: the path &quot;other.yaml&quot; does not exist" in missing
    huge = command(client, scenario, "apply -f pod.yaml", run=new_run.pk, filename="pod.yaml", file="#" * 300_000)
    assert "is over 256 KiB" in huge and Scenario.objects.get(pk=scenario.pk).version == 2


def test_edit_opens_the_declaring_document_in_the_workload():
    client = Client()
    scenario, run = scenario_with_run(client)
    opened = command(client, scenario, "kubectl edit deployment web", run=run.pk)
    assert 'data-console-edit-line="1"' in opened and "Deployment/web opened in the Workload tab at line 1" in opened
    pod = printed(command(client, scenario, "get pods -o name", run=run.pk)).split()[0]
    made = command(client, scenario, f"kubectl edit {pod}", run=run.pk)
    assert "was made by ReplicaSet/web-" in made and 'data-console-edit-line="1"' in made
    node = command(client, scenario, "kubectl edit node worker1", run=run.pk)
    assert "nodes are the board" in node and "data-console-edit-line" not in node


def test_get_w_prints_the_list_then_each_change_as_the_player_moves_on():
    client = Client()
    scenario, run = scenario_with_run(client)
    started = command(client, scenario, "kubectl get pods -w", run=run.pk, seq=0)
    assert "data-console-watch" in started and 'data-after="0"' in started and "No resources found" not in started
    url = reverse("console-watch", args=[scenario.slug])
    frames = run.events.count()
    answer = client.get(url, {"line": "kubectl get pods -w", "run": run.pk, "after": 0, "seq": frames}).json()
    assert answer["position"] == frames
    rows = answer["rows"].splitlines()
    assert rows and all(row.startswith("web-") for row in rows)  # no header again, as kubectl's watch
    assert any("Pending" in row for row in rows) and any("Running" in row for row in rows)
    assert rows[-1].split()[1:3] == ["1/1", "Running"]
    nothing = client.get(url, {"line": "get pods -w", "run": run.pk, "after": frames, "seq": frames}).json()
    assert nothing == {"rows": "", "position": frames, "done": False}
    nodes = client.get(url, {"line": "get nodes -w", "run": run.pk, "after": 0, "seq": frames}).json()
    assert all(row.startswith("worker") for row in nodes["rows"].splitlines())
    wrong = client.get(url, {"line": "get pods,nodes -w", "run": run.pk, "after": 0, "seq": frames}).json()
    assert wrong["end"] and "watch is only supported on individual resources" in wrong["error"]
    gone = client.get(url, {"line": "get pods -w", "run": 999999, "after": 0, "seq": 3}).json()
    assert gone["end"]


def test_the_console_has_its_own_rate_limit_and_a_change_takes_an_edit_and_a_run(settings):
    from playground.ratelimit import Limit

    client = Client()
    scenario, run = scenario_with_run(client)
    settings.RATE_LIMITS = {
        "console": Limit(burst=3, per_minute=1, what="kubectl console commands"),
        "run": Limit(burst=1, per_minute=1, what="runs"),
    }
    assert "worker1" in command(client, scenario, "get nodes", run=run.pk)
    assert "node/worker1 cordoned" in command(client, scenario, "cordon worker1", run=run.pk)  # the one run
    refused = command(client, scenario, "cordon worker2", run=run.pk)
    assert "Error from server (TooManyRequests): too many changes" in refused and 'id="run-panel"' not in refused
    assert Scenario.objects.get(pk=scenario.pk).version == 2
    limited = client.post(reverse("console", args=[scenario.slug]), {"line": "get pods"}, headers=HTMX)
    assert limited.status_code == 429


def test_after_a_change_a_command_reads_at_its_moment_not_before():
    client = Client()
    scenario, run = scenario_with_run(client)
    entry = command(client, scenario, "kubectl cordon worker2", run=run.pk, seq=run.events.count())
    at = re.search(r'data-start-at="([0-9.]+)"', entry).group(1)
    new_run = scenario.runs.order_by("-pk").first()
    # The player has not replayed the new run up to the change yet: the page sends the change's moment.
    read = command(client, scenario, "get nodes", run=new_run.pk, at=at)
    assert f"at {float(at):g}s, the last change" in read and "Ready,SchedulingDisabled" in printed(read)


def test_a_line_too_long_is_refused_whole():
    client = Client()
    scenario, run = scenario_with_run(client)
    entry = command(client, scenario, "label nodes worker1 " + "a" * 5000 + "=b", run=run.pk)
    assert "error: the command is longer than 4,096 characters" in entry
    assert Scenario.objects.get(pk=scenario.pk).version == 1


def test_a_command_waiting_for_its_run_asks_again_with_its_file(monkeypatch):
    client = Client()
    scenario, run = scenario_with_run(client)
    monkeypatch.setattr(web_console, "snapshot_at", lambda *_: web_console.Waiting("run 1 is still being simulated"))
    pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: later}\n"
    data = {"line": "apply -f pod.yaml", "run": run.pk, "filename": "pod.yaml", "file": pod}
    answer = client.post(reverse("console", args=[scenario.slug]), data, headers=HTMX)
    assert answer.status_code == 202
    entry = answer.content.decode()
    assert 'hx-trigger="load delay:1s"' in entry
    assert '<input name="filename" value="pod.yaml">' in entry and "name: later" in entry


def test_learners_stumbles_get_a_hint_and_information_is_not_an_error():
    client = Client()
    scenario, run = scenario_with_run(client)
    template = command(client, scenario, "kubectl taint node worker1 key:value:effect", run=run.pk)
    assert 'class="console-hint"' in template and "isgpu=true:NoSchedule" in template
    empty = command(client, scenario, "get pods -n nowhere", run=run.pk)
    assert '<pre class="console-info">No resources found in nowhere namespace.' in empty
    assert "failed" not in empty.split(">")[0]
    piped = command(client, scenario, "kubectl get pods | grep web", run=run.pk)
    assert "is a shell&#x27;s" in piped and "console-err" in piped
    bare = command(client, scenario, "kubectl", run=run.pk)
    assert "kubectl controls the Kubernetes cluster manager." in printed(bare)


DRAIN_SCENARIO = """apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx, readinessProbe: {initialDelaySeconds: 20, periodSeconds: 10}}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web-pdb}
spec: {minAvailable: 3, selector: {matchLabels: {app: web}}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: kube-system}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: a, image: agent}]}
"""


def test_drain_is_refused_as_kubectl_refuses_it_then_followed_to_drained():
    client = Client()
    nodes = [
        {"name": name, "labels": {"kubernetes.io/hostname": name}, "taints": [], "capacity": NODES[0]["capacity"]}
        for name in ("worker1", "worker2")
    ]
    scenario, key = create_scenario("drain", nodes=nodes, workload_yaml=DRAIN_SCENARIO)
    session = client.session
    session[SESSION_PREFIX + scenario.slug] = key
    session.save()
    assert client.post(reverse("start-run", args=[scenario.slug]), headers=HTMX).status_code == 201
    run = Run.objects.get(scenario=scenario)
    refused = command(client, scenario, "kubectl drain worker1", run=run.pk)
    assert printed(refused) == "node/worker1 cordoned\n"
    assert (
        "error: unable to drain node &quot;worker1&quot; due to error: cannot delete DaemonSet-managed Pods" in refused
    )
    assert "There are pending nodes to be drained:\n worker1\n" in refused and "data-console-watch" not in refused
    scenario.refresh_from_db()
    assert scenario.version == 2 and "op: cordon" in scenario.workload_yaml  # cordoned, nothing evicted

    run = scenario.runs.order_by("-pk").first()
    drained = command(client, scenario, "kubectl drain worker1 --ignore-daemonsets", run=run.pk)
    assert printed(drained).startswith("node/worker1 already cordoned\nevicting pod default/web-")
    new_run = scenario.runs.order_by("-pk").first()
    assert f'data-run="{new_run.pk}"' in drained and 'data-after=""' in drained
    since = re.search(r'data-since="([0-9.]+)"', drained).group(1)
    url = reverse("console-watch", args=[scenario.slug])
    line = "kubectl drain worker1 --ignore-daemonsets"
    answer = client.get(url, {"line": line, "run": new_run.pk, "at": since, "seq": 10**6}).json()
    lines = answer["rows"].splitlines()
    assert answer["done"] and lines[-1] == "node/worker1 drained"
    assert lines[0].startswith("Warning: ignoring DaemonSet-managed Pods: kube-system/agent-")
    assert any(
        "(will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget." in x for x in lines
    )
    evicting = printed(drained).count("evicting pod default/web-")
    assert evicting >= 2 and sum(x.startswith("pod/web-") and x.endswith(" evicted") for x in lines) == evicting


def test_rollout_status_follows_the_run_until_rolled_out():
    client = Client()
    scenario, run = scenario_with_run(client)
    entry = command(client, scenario, "kubectl set image deployment/web c=nginx:1.25", run=run.pk)
    new_run = scenario.runs.order_by("-pk").first()
    since = float(re.search(r'data-start-at="([0-9.]+)"', entry).group(1))
    status = command(client, scenario, "kubectl rollout status deployment/web", run=new_run.pk, at=since)
    assert "Waiting for deployment &quot;web&quot; rollout to finish" in status and "data-console-watch" in status
    after = int(re.search(r'data-after="(\d+)"', status).group(1))
    url = reverse("console-watch", args=[scenario.slug])
    line = "kubectl rollout status deployment/web"
    answer = client.get(url, {"line": line, "run": new_run.pk, "after": after, "seq": 10**6}).json()
    assert answer["done"] and answer["rows"].splitlines()[-1] == 'deployment "web" successfully rolled out'
    done = command(client, scenario, "rollout status deployment/web", run=new_run.pk)
    assert "successfully rolled out" in done and "data-console-watch" not in done


def test_a_following_command_reads_a_bounded_stretch_per_ask(monkeypatch):
    monkeypatch.setattr(console_view, "MAX_FOLLOW_FRAMES", 3)
    client = Client()
    scenario, run = scenario_with_run(client)
    url = reverse("console-watch", args=[scenario.slug])
    first = client.get(url, {"line": "get pods -w", "run": run.pk, "after": 0, "seq": 10**6}).json()
    assert first["position"] == 3 and not first["done"]
    second = client.get(url, {"line": "get pods -w", "run": run.pk, "after": 3, "seq": 10**6}).json()
    assert second["position"] == 6
