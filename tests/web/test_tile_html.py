"""Node tiles are rendered once for what they show (playground/tile_html.py): a kept tile is the
template's own output for that card, any change the tile shows renders it again, the kept HTML stays
within its bound, and a board drawn from kept tiles is the board drawn afresh."""

import itertools
import re

import pytest
from django.template.loader import get_template
from django.urls import reverse

from playground import preview, tile_html
from playground.models import Node
from playground.preview_compute import PodView
from playground.scenarios import create_scenario, snapshot

pytestmark = pytest.mark.django_db


def card(*, name="worker1", pk=7, cordoned=False, taints=(), cpu=40, memory=10, pods=2, phase="Running"):
    node = Node(pk=pk, name=name, unschedulable=cordoned, taints=list(taints))
    views = [
        PodView(f"default/web-{i}", f"web-{i}", "default", phase, "Burstable", "ReplicaSet/web-1") for i in range(pods)
    ]
    bars = [{"percent": cpu}, {"percent": memory}, {"percent": pods}]
    return {"node": node, "bars": bars, "pods": views, "summary": f"{name}: {pods} pods"}


def fresh(card_: dict) -> str:
    return get_template(tile_html.TILE_TEMPLATE).render({"card": card_})


VARIANTS = {
    "plain": {},
    "cordoned": {"cordoned": True},
    "tainted": {"taints": [{"key": "gpu", "value": "true", "effect": "NoSchedule"}]},
    "hot cpu": {"cpu": 95},
    "hot memory": {"memory": 91},
    "more pods": {"pods": 3},
    "pending phase": {"phase": "Pending"},
    "other name": {"name": "worker2"},
    "other id": {"pk": 8},
}


def test_a_kept_tile_is_the_templates_output_and_every_shown_change_renders_anew():
    tile_html.forget_all()
    outputs = {}
    for label, changes in VARIANTS.items():
        made = card(**changes)
        first = tile_html.tile_html(made)
        assert first == fresh(made), label
        assert tile_html.tile_html(card(**changes)) is first, label  # kept: the same string
        outputs[label] = first
    for (a, html_a), (b, html_b) in itertools.combinations(outputs.items(), 2):
        assert html_a != html_b, (a, b)  # each change shows, so none is served another's tile


def test_the_kept_tiles_stay_within_their_bound(monkeypatch):
    tile_html.forget_all()
    monkeypatch.setattr(tile_html, "MAX_CHARS", 20_000)
    for index in range(200):
        tile_html.tile_html(card(name=f"node-{index}", pk=index))
    assert 0 < tile_html.kept_chars() <= 20_000


def test_a_board_from_kept_tiles_is_the_board_drawn_afresh(client):
    nodes = [{"name": f"node-{i}", "cpu": "4", "memory": "16Gi", "labels": {"zone": f"z{i % 2}"}} for i in range(60)]
    workload = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 90\n"
        "  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n"
        "    spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]}\n"
    )
    scenario, _ = create_scenario("tiles", nodes=nodes, workload_yaml=workload)
    placed = preview.preview(snapshot(scenario).cluster_document, wait=120)  # whatever the workers were doing
    assert placed.ready and placed.pods == 90
    url = reverse("board", args=[scenario.slug])
    tile_html.forget_all()
    drawn_afresh = client.get(url).content.decode()
    assert drawn_afresh.count('<button type="button" class="tile') == 60
    assert drawn_afresh.count("data-pod=") == 90  # placed: the tiles hold their pods
    from_kept = client.get(url).content.decode()
    assert from_kept == drawn_afresh


def test_a_tiles_bars_are_spans_sized_by_a_class_never_a_style_attribute():
    html = fresh(card(cpu=37, memory=95))
    assert "<svg" not in html and "style=" not in html
    fills = re.findall(r'<i class="fill (w\d+)( hot)?" data-resource="(\w+)"></i>', html)
    assert fills == [("w37", "", "cpu"), ("w95", " hot", "memory")]
