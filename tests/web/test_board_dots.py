"""A big cluster's dots travel as one JSON document for the canvas (playground/board_dots.py), not
as an element per node and per pod; up to DOM_DOTS_UP_TO nodes the dots stay elements."""

import gzip
import json
import re

import pytest
from django.urls import reverse

from playground.board_dots import DOM_DOTS_UP_TO, PHASES
from playground.preview import preview
from playground.scenarios import create_scenario, snapshot
from playground.templatetags.playground_extras import owner_hue
from tests.manifests import deployment_yaml

pytestmark = pytest.mark.django_db

DATA = re.compile(r'<script id="board-dots-data" type="application/json">(.*?)</script>', re.S)


def zoned_nodes(count: int) -> list[dict]:
    return [
        {"name": f"node-{index:04d}", "labels": {"topology.kubernetes.io/zone": f"zone-{index % 3}"}}
        for index in range(count)
    ]


def dots_of(client, scenario) -> dict | None:
    html = client.get(reverse("scenario", args=[scenario.slug])).content.decode()
    found = DATA.search(html)
    return json.loads(found.group(1)) if found else None


def test_up_to_the_bound_the_dots_are_elements(client):
    scenario, _ = create_scenario("DOM dots", nodes=zoned_nodes(DOM_DOTS_UP_TO))
    html = client.get(reverse("scenario", args=[scenario.slug])).content.decode()
    assert 'data-density="dots"' in html
    assert len(re.findall(r'class="tile[" ]', html)) == DOM_DOTS_UP_TO
    assert "data-dot-board" not in html and DATA.search(html) is None


def test_past_the_bound_one_document_carries_every_node_by_zone(client):
    nodes = zoned_nodes(DOM_DOTS_UP_TO + 1)
    nodes[4]["taints"] = [{"key": "dedicated", "value": "infra", "effect": "NoSchedule"}]
    scenario, _ = create_scenario("Canvas dots", nodes=nodes)
    scenario.nodes.filter(name="node-0007").update(unschedulable=True)
    html = client.get(reverse("scenario", args=[scenario.slug])).content.decode()
    assert 'class="tile' not in html and html.count('class="dot-canvas"') == 3
    data = json.loads(DATA.search(html).group(1))
    assert [group["title"] for group in data["groups"]] == [f"topology.kubernetes.io/zone = zone-{z}" for z in range(3)]
    rows = {row[0]: dict(zip(data["fields"], row, strict=True)) for group in data["groups"] for row in group["nodes"]}
    assert len(rows) == DOM_DOTS_UP_TO + 1
    assert data["groups"][0]["nodes"][1][0] == "node-0003"  # the board's order within a zone
    assert rows["node-0004"]["taints"] == ["dedicated=infra:NoSchedule"] and rows["node-0004"]["flags"] == 2
    assert rows["node-0007"]["flags"] == 1 and rows["node-0000"]["flags"] == 0
    assert rows["node-0000"]["labels"] == 1
    assert rows["node-0000"]["id"] == scenario.nodes.get(name="node-0000").pk  # what edits post to


def test_the_pods_are_two_characters_each_phase_and_owner_colour(client):
    scenario, _ = create_scenario(
        "Canvas pods", nodes=zoned_nodes(DOM_DOTS_UP_TO + 1), workload_yaml=deployment_yaml(30, requests="{cpu: 100m}")
    )
    placed = preview(snapshot(scenario).cluster_document, wait=60)
    assert placed.ready and not placed.stopped
    data = dots_of(client, scenario)
    rows = [row for group in data["groups"] for row in group["nodes"]]
    pods = data["fields"].index("pods")
    codes = "".join(row[pods] for row in rows)
    assert len(codes) == 2 * 30
    owners = {view.owner for usage in placed.usage.values() for view in usage.pod_views}
    assert {codes[index + 1] for index in range(0, len(codes), 2)} == {format(owner_hue(o), "x") for o in owners}
    phases = {data["phases"][int(codes[index])] for index in range(0, len(codes), 2)}
    assert phases <= set(PHASES) and phases == {view.phase for u in placed.usage.values() for view in u.pod_views}
    cpu = data["fields"].index("cpu")
    loaded = [row for row in rows if row[pods]]
    for row in loaded:  # 100m of a node's 4 cpu for each of its pods
        pods_on_node = len(row[pods]) // 2
        assert row[cpu] == round(100 * pods_on_node * 100 / 4000)


def test_5000_nodes_are_a_page_well_under_a_megabyte_packed(client):
    scenario, _ = create_scenario("5,000 nodes", nodes=zoned_nodes(5000))
    packed = client.get(reverse("scenario", args=[scenario.slug]), headers={"Accept-Encoding": "gzip"})
    html = gzip.decompress(packed.content).decode()
    data = json.loads(DATA.search(html).group(1))
    assert sum(len(group["nodes"]) for group in data["groups"]) == 5000
    assert len(packed.content) < 1_000_000 and len(html) < 2_000_000
    assert html.count("<") < 3_000  # elements: the page's own, not one per node
    assert 'data-testid="placing-pods"' in html and 'hx-trigger="load delay:5s"' in html  # asks less often


def test_a_small_board_asks_for_its_placement_every_second(client):
    scenario, _ = create_scenario("Small", nodes=zoned_nodes(600), workload_yaml=deployment_yaml(3000))
    html = client.get(reverse("scenario", args=[scenario.slug])).content.decode()
    assert 'data-testid="placing-pods"' in html and 'hx-trigger="load delay:1s"' in html
