"""Act refuses label and taint keys Kubernetes refuses (issue #12, item 10): the engine's parser of
`kind: Action` names the field, the page shows it escaped, and the scenario and its runs are as
they were."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from playground.models import Run, Scenario

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
