""" "Why not this node?": the verdict for one node, from the engine's own explanation."""

import pytest
from django.urls import reverse

from playground.models import Run
from playground.runs import execute
from playground.scenarios import create_scenario, snapshot
from playground.why_not import why_not
from scheduler_core.api.manifests import load_manifests
from scheduler_core.explain.explain import explain


def node(name: str, cpu: str = "4", labels: str = "{}", taints: str = "[]") -> str:
    return (
        f"apiVersion: v1\nkind: Node\nmetadata: {{name: {name}, labels: {labels}}}\nspec: {{taints: {taints}}}\n"
        f'status: {{capacity: {{cpu: "{cpu}", memory: 8Gi, pods: "110"}}}}\n'
    )


POD = (
    "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\n"
    "spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: '1', memory: 1Gi}}}]}\n"
)
BUSY = (
    "apiVersion: v1\nkind: Pod\nmetadata: {name: busy}\n"
    "spec: {nodeName: loaded, containers: [{name: c, image: x, resources: {requests: {cpu: '3', memory: 4Gi}}}]}\n"
)


def explained(*documents: str):
    return explain(load_manifests("---\n".join(documents), source="test"), "default/web")


def test_a_filtered_node_gives_the_plugin_and_upstreams_reason():
    taint = "[{key: dedicated, value: gpu, effect: NoSchedule}]"
    explanation = explained(node("free"), node("gpu", taints=taint), POD)
    verdict = why_not(explanation, "gpu")
    assert verdict.verdict == "rejected"
    assert verdict.report.plugin == "TaintToleration"
    assert verdict.report.reasons == ["node(s) had untolerated taint {dedicated: gpu}"]


def test_a_fitting_node_that_lost_says_by_how_much_and_on_which_plugins():
    explanation = explained(node("free"), node("loaded"), BUSY, POD)
    assert explanation.selected == "free"
    verdict = why_not(explanation, "loaded")
    assert verdict.verdict == "outscored"
    assert verdict.report.total < verdict.chosen.total
    plugins = [gap.plugin for gap in verdict.gaps]
    assert "NodeResourcesFit" in plugins  # LeastAllocated prefers the emptier node
    assert sum(gap.weighted_gap for gap in verdict.gaps) == verdict.chosen.total - verdict.report.total
    assert verdict.gaps == sorted(verdict.gaps, key=lambda gap: -gap.weighted_gap)


def test_equal_totals_are_a_tie_and_the_chosen_node_is_the_chosen_one():
    explanation = explained(node("a"), node("b"), POD)
    loser = "b" if explanation.selected == "a" else "a"
    assert why_not(explanation, loser).verdict == "tied"
    assert why_not(explanation, explanation.selected).verdict == "chosen"
    assert why_not(explanation, "nowhere").verdict == "unknown"


@pytest.mark.django_db
def test_the_explain_panel_answers_why_not_for_the_node_asked(client):
    nodes = [
        {"name": "free", "labels": {}, "taints": [], "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}},
        {"name": "tiny", "labels": {}, "taints": [], "capacity": {"cpu": "500m", "memory": "8Gi", "pods": "110"}},
    ]
    scenario, _ = create_scenario("why not", nodes=nodes, workload_yaml=POD)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    execute(run, publish=lambda *args: None)
    url = reverse("explain-pod", args=[scenario.slug, run.pk])
    page = client.get(url, {"pod": "default/web", "seq": 1, "node": "tiny"}).content.decode()
    assert 'data-why-not="tiny"' in page
    assert 'Filtered out by <span class="mono">NodeResourcesFit</span>: <strong>Insufficient cpu</strong>' in page
    # Every other node's row offers the question; the chosen one does not need it.
    assert page.count('class="why-link"') == 1 and "node=tiny" in page
    chosen = client.get(url, {"pod": "default/web", "seq": 1, "node": "free"}).content.decode()
    assert "It does land there" in chosen
