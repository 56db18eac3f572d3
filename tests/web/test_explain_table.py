"""A big cluster's explanation lists the chosen node and the best that fit, counts the rest, and
groups the rejected nodes by reason (playground/explain_table.py), while every node's verdict still
reaches the board; a small cluster's keeps a row per node."""

import json
import re
from urllib.parse import urlencode

import pytest
from django.urls import reverse

from playground.explain_table import ALL_ROWS_UP_TO, EXAMPLES, TOP_FITTING, explain_table
from playground.models import Run
from playground.runs import execute
from playground.scenarios import create_scenario, snapshot
from scheduler_core.explain.explain import Explanation, NodeReport
from tests.web.stored_events import events_with_reason

pytestmark = pytest.mark.django_db


def report(index: int, feasible: bool, total: int = 0, reason: str = "Insufficient cpu") -> NodeReport:
    if feasible:
        return NodeReport(f"node-{index:03d}", True, scores={"NodeResourcesFit": total}, total=total)
    return NodeReport(f"node-{index:03d}", False, plugin="NodeResourcesFit", reasons=[reason])


def explanation(nodes: list[NodeReport], selected: str | None) -> Explanation:
    return Explanation(pod="default/web", selected=selected, message="", nodes=nodes, weights={"NodeResourcesFit": 1})


def test_a_small_cluster_keeps_a_row_per_node():
    nodes = [report(i, i % 2 == 0, total=i) for i in range(ALL_ROWS_UP_TO)]
    table = explain_table(explanation(nodes, "node-000"))
    assert table.rows == nodes and not table.summarized and not table.blocked


def test_a_big_cluster_lists_the_chosen_and_the_best_and_groups_the_rest():
    nodes = [report(i, True, total=i % 97) for i in range(300)]
    nodes += [report(300 + i, False) for i in range(500)]
    nodes += [report(800 + i, False, reason="Too many pods") for i in range(7)]
    table = explain_table(explanation(nodes, "node-010"))
    assert len(table.rows) == TOP_FITTING
    assert table.rows[0].name == "node-010"  # the chosen one first, whatever its score
    totals = [row.total for row in table.rows[1:]]
    assert totals == sorted(totals, reverse=True) and totals[0] == 96
    assert table.fitting_hidden == 300 - TOP_FITTING
    assert [(group.reason, group.count) for group in table.blocked] == [
        ("NodeResourcesFit: Insufficient cpu", 500),
        ("NodeResourcesFit: Too many pods", 7),
    ]
    assert table.blocked[0].examples == [f"node-{300 + i:03d}" for i in range(EXAMPLES)]
    verdicts = table.verdicts
    assert len(verdicts["fits"]) == 300
    assert sum(len(names) for names in verdicts["blocked"].values()) == 507


def test_the_panel_of_a_big_cluster_is_short_and_carries_every_verdict(client):
    nodes = [
        {"name": f"node-{i:03d}", "capacity": {"cpu": "2" if i < 40 else "1", "memory": "8Gi", "pods": "110"}}
        for i in range(120)
    ]
    workload = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: big}\nspec:\n"
        "  containers: [{name: c, image: nginx, resources: {requests: {cpu: 1500m}}}]\n"
    )
    scenario, _ = create_scenario("big explain", nodes=nodes, workload_yaml=workload)
    run = Run.objects.create(scenario=scenario, version=snapshot(scenario), seed=0)
    execute(run)
    scheduled = events_with_reason(run, "Scheduled")[0]
    url = reverse("explain-pod", args=[scenario.slug, run.pk])
    html = client.get(url + "?" + urlencode({"pod": "default/big", "seq": scheduled.seq})).content.decode()
    assert html.count("data-verdict-node=") == TOP_FITTING  # of the 40 that fit
    assert "The 20 best-scored of the 40 nodes that fit are shown." in html
    assert "80 nodes" in html and "NodeResourcesFit: Insufficient cpu" in html
    verdicts = json.loads(
        re.search(r'<script id="explain-verdicts" type="application/json">(.*?)</script>', html).group(1)
    )
    assert len(verdicts["fits"]) == 40 and len(verdicts["blocked"]["NodeResourcesFit: Insufficient cpu"]) == 80
    assert len(html) < 60_000, len(html)
    # "Why not a node of your choice?" asks by name, as the rows' links do.
    assert 'name="node"' in html and 'name="pod" value="default/big"' in html
    why = client.get(url, {"pod": "default/big", "seq": scheduled.seq, "node": "node-100"}).content.decode()
    assert "node-100" in why and "Insufficient cpu" in why
