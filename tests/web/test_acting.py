"""Act refuses label and taint keys Kubernetes refuses (issue #12, item 10): the engine's parser of
`kind: Action` names the field, the page shows it escaped, and the scenario and its runs are as
they were."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from playground import acting
from playground.models import Run, Scenario
from playground.scenarios import create_scenario
from playground.views.common import SESSION_PREFIX
from tests.manifests import deployment_yaml

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.mark.parametrize(
    ("op", "value", "field", "says"),
    [
        ("label", "<img src=x onerror=alert(1)>=yes", "spec.labels.", "invalid label key"),
        ("label", "zone=<b>a</b>", "spec.labels.zone", "invalid label value"),
        ("unlabel", "<script>", "spec.keys[0]", "invalid label key"),
        ("untaint", "<x>:NoSchedule", "spec.key", "invalid taint key"),
        ("taint", "<x>=1:NoSchedule", "spec.taint.key", "invalid taint key"),
    ],
)
def test_an_act_with_a_key_kubernetes_refuses_is_refused_naming_the_field(op, value, field, says):
    client = Client()
    client.post(reverse("new-scenario"))
    scenario = Scenario.objects.get()
    assert client.post(reverse("start-run", args=[scenario.slug]), headers=HTMX).status_code == 201
    run = Run.objects.get()  # one acts on a run, at its player's time
    data = {"version": scenario.version, "run": run.pk, "at": "5", "op": op, "target": "Node/worker1", "value": value}
    response = client.post(reverse("act", args=[scenario.slug]), data, headers=HTMX)
    assert response.status_code == 422
    text = response.content.decode()
    assert escape(field) in text and says in text
    assert "<img" not in text and "<script>" not in text and "<b>a" not in text  # escaped, never markup
    scenario.refresh_from_db()
    assert scenario.version == 1 and scenario.workload_yaml == "" and Run.objects.count() == 1


def scenario_with_run(client: Client, nodes: int) -> tuple[Scenario, Run]:
    node_list = [
        {"name": f"n{index:04d}", "labels": {}, "taints": [], "capacity": {"cpu": "4"}} for index in range(nodes)
    ]
    scenario, key = create_scenario("act", nodes=node_list, workload_yaml=deployment_yaml(2))
    session = client.session  # the edit right, as the edit link grants it
    session[SESSION_PREFIX + scenario.slug] = key
    session.save()
    assert client.post(reverse("start-run", args=[scenario.slug]), headers=HTMX).status_code == 201
    return scenario, Run.objects.get(scenario=scenario)


def act_on(client: Client, scenario: Scenario, run: Run, target: str):
    data = {"version": scenario.version, "run": run.pk, "at": "1", "op": "cordon", "target": target, "value": ""}
    return client.post(reverse("act", args=[scenario.slug]), data, headers=HTMX)


def test_a_few_targets_are_a_select_of_every_one():
    client = Client()
    scenario, run = scenario_with_run(client, nodes=3)
    page = act_on(client, scenario, run, "Node/n0001").content.decode()
    assert '<select name="target"' in page and "<option>Node/n0002</option>" in page
    assert "Deployment/default/web" in page and 'list="act-targets"' not in page


def test_thousands_of_targets_are_typed_with_workloads_suggested_first():
    client = Client()
    nodes = acting.SELECT_TARGETS_MAX + 200
    scenario, run = scenario_with_run(client, nodes=nodes)
    answer = act_on(client, scenario, run, "Node/n0420")  # far past what is suggested: typed
    assert answer.status_code == 201
    page = answer.content.decode()
    assert '<select name="target"' not in page and 'list="act-targets"' in page
    suggested = re.findall(r'<option value="([^"]+)"></option>', page)
    assert len(suggested) == acting.SUGGESTED_TARGETS and suggested[0] == "Deployment/default/web"
    assert f"one of {nodes + 1} nodes and workloads" in page
    scenario.refresh_from_db()
    assert "target: Node/n0420" in scenario.workload_yaml


def test_a_typed_target_the_scenario_does_not_declare_is_refused_and_nothing_changes():
    client = Client()
    scenario, run = scenario_with_run(client, nodes=acting.SELECT_TARGETS_MAX + 1)
    before = scenario.workload_yaml
    answer = act_on(client, scenario, run, "Node/n9999")
    assert answer.status_code == 422
    assert "Node/n9999 is not in this scenario" in answer.content.decode()
    scenario.refresh_from_db()
    assert scenario.workload_yaml == before and Run.objects.filter(scenario=scenario).count() == 1


def test_a_refused_act_comes_back_as_it_was_sent():
    client = Client()
    scenario, run = scenario_with_run(client, nodes=3)
    data = {
        "version": scenario.version,
        "run": run.pk,
        "at": "1",
        "op": "label",
        "target": "Node/n0002",
        "value": "<x>=1",
    }
    page = client.post(reverse("act", args=[scenario.slug]), data, headers=HTMX).content.decode()
    assert '<option value="label" data-needs="key=value" selected>' in page
    assert "<option selected>Node/n0002</option>" in page and 'value="&lt;x&gt;=1"' in page
