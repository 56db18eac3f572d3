"""`kubectl describe deployment` in the rollout view (issue #16, item 7): a Deployment's card asks for
it at the player's event (views.running.describe_deployment_at)."""

import html
import re

import pytest
from django.urls import reverse

from playground import run_replay, run_states
from playground.models import Run
from playground.runs import execute
from playground.scenarios import create_scenario, snapshot
from tests.web.stored_events import events_with_reason
from tests.web.test_node_describe import gallery_run, rows

pytestmark = pytest.mark.django_db

ROLLING_UPDATE = "050-rolling-update.yaml"  # Deployment nginx, 3 replicas, maxSurge 2, new image at 20 s


def field(page: str, name: str) -> str:
    """The text of one field of the description (<dt>name</dt><dd>...</dd>), its lines joined by newlines."""
    found = re.search(rf"<dt>{re.escape(name)}</dt><dd[^>]*>(.*?)</dd>", page, re.S)
    assert found, name
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1).replace("<br>", "\n")))


def test_a_rolling_update_mid_way_at_the_players_event(client):
    scenario, run = gallery_run(ROLLING_UPDATE)
    url = reverse("describe-deployment", args=[scenario.slug, run.pk])
    # The old ReplicaSet told to go from 1 pod to none, its last pod still there: both are listed.
    scaled = events_with_reason(run, "ScalingReplicaSet")
    event = next(e for e in scaled if "from 1 to 0" in e.payload["event"]["message"])
    old = re.search(r"replica set (\S+) from", event.payload["event"]["message"]).group(1)
    page = client.get(url, {"deployment": "default/nginx", "seq": event.seq}).content.decode()
    assert "<code>kubectl describe deployment nginx</code>" in page
    assert f"at event {event.seq}, t=26s" in page
    assert field(page, "Replicas") == "3 desired | 3 updated | 4 total | 1 available | 3 unavailable"
    assert field(page, "RollingUpdateStrategy") == "2 max unavailable, 2 max surge"
    assert field(page, "Annotations") == "deployment.kubernetes.io/revision: 2"
    assert field(page, "OldReplicaSets") == f"{old} (1/0 replicas created)"
    (new,) = re.findall(r"^(nginx-\w+) \(3/3 replicas created\)$", field(page, "NewReplicaSet"))
    assert new != old
    assert field(page, "Image") == "nginx:1.26"  # the template after the set-image at 20 s
    assert rows(page, "describe-conditions") == [
        ["Available", "True", "MinimumReplicasAvailable"],
        ["Progressing", "True", "ReplicaSetUpdated"],
    ]
    assert 'data-describe-event="ScalingReplicaSet"' in page
    # At the run's end the rollout is over: the old ReplicaSet scaled to 0, the new one complete.
    end = client.get(url, {"deployment": "nginx", "seq": run.events.count()}).content.decode()
    assert field(end, "OldReplicaSets") == f"{old} (0/0 replicas created)"
    assert field(end, "NewReplicaSet") == f"{new} (3/3 replicas created)"
    assert rows(end, "describe-conditions")[-1] == ["Progressing", "True", "NewReplicaSetAvailable"]


QUOTA_NODES = [{"name": "worker1", "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}}]
OVER_QUOTA = """\
apiVersion: v1
kind: ResourceQuota
metadata: {name: memory-quota, namespace: shop}
spec:
  hard: {requests.memory: 100Mi, limits.memory: 100Mi}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: over-quota, namespace: shop}
spec:
  replicas: 1
  selector: {matchLabels: {app: over-quota}}
  template:
    metadata: {labels: {app: over-quota}}
    spec:
      containers:
      - name: nginx
        image: nginx:latest
        resources: {limits: {memory: 3000Mi, cpu: 1000m}, requests: {memory: 128Mi, cpu: 500m}}
"""


def test_a_deployment_over_its_quota_in_its_namespace(client):
    scenario, _ = create_scenario("quota", nodes=QUOTA_NODES, workload_yaml=OVER_QUOTA)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    execute(run, publish=lambda slug, run_id, events: None)
    url = reverse("describe-deployment", args=[scenario.slug, run.pk])
    page = client.get(url, {"deployment": "shop/over-quota", "seq": run.events.count()}).content.decode()
    assert "<code>kubectl describe deployment over-quota -n shop</code>" in page
    assert ["ReplicaFailure", "True", "FailedCreate"] in rows(page, "describe-conditions")
    assert field(page, "Namespace") == "shop"
    assert field(page, "NewReplicaSet").endswith("(0/1 replicas created)")
    assert field(page, "Limits") == "cpu: 1\nmemory: 3000Mi"
    assert field(page, "Requests") == "cpu: 500m\nmemory: 128Mi"
    assert field(page, "Environment") == "<none>" and field(page, "Port") == "<none>"


def test_the_same_answer_from_a_kept_run_and_from_a_replay(client):
    scenario, run = gallery_run(ROLLING_UPDATE)
    url = reverse("describe-deployment", args=[scenario.slug, run.pk])
    seq = events_with_reason(run, "ScalingReplicaSet")[2].seq
    run_states.clear()  # not kept: a replay up to the event (a short run: inline)
    replayed = client.get(url, {"deployment": "default/nginx", "seq": seq}).content.decode()
    run_replay.replay(run, 10**9)  # a replay to the end keeps the run's states in this process
    assert run_states.finished_run(run_replay.state_key(run)) is not None
    kept = client.get(url, {"deployment": "default/nginx", "seq": seq}).content.decode()
    assert replayed == kept


def test_a_deployment_not_there_and_a_run_gone(client):
    scenario, run = gallery_run(ROLLING_UPDATE)
    url = reverse("describe-deployment", args=[scenario.slug, run.pk])
    missing = client.get(url, {"deployment": "nope", "seq": 3})
    assert missing.status_code == 200
    text = html.unescape(missing.content.decode())
    assert 'Error from server (NotFound): deployments.apps "nope" not found at event 3.' in text
    assert "<code>kubectl describe deployment nope</code>" in text
    gone = client.get(reverse("describe-deployment", args=[scenario.slug, run.pk + 1000]), {"deployment": "nginx"})
    assert gone.status_code == 404 and "no longer exists" in gone.content.decode()


def test_the_run_panel_names_where_the_rollout_view_asks(client):
    scenario, run = gallery_run(ROLLING_UPDATE)
    page = client.get(reverse("scenario", args=[scenario.slug]), {"run": run.pk}).content.decode()
    assert f'data-describe-deployment-url="{reverse("describe-deployment", args=[scenario.slug, run.pk])}"' in page
    assert "js/deployment-describe." in page
