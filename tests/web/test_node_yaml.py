"""A node's YAML is written once per content (playground/scenarios.py): an edit to one node of many
writes that one again, and every document is the one written afresh."""

import pytest

from playground import scenarios
from playground.scenarios import create_scenario, export_document

pytestmark = pytest.mark.django_db


def written_afresh(scenario) -> str:
    scenarios._kept_node_yaml.clear()
    return export_document(scenario)


def test_an_edited_node_is_written_again_and_the_others_are_reused(monkeypatch):
    nodes = [{"name": f"node-{i}", "labels": {"zone": f"z{i % 3}"}} for i in range(30)]
    scenario, _ = create_scenario("yaml", nodes=nodes)
    first = written_afresh(scenario)
    dumps: list[dict] = []
    original = scenarios._dump
    monkeypatch.setattr(scenarios, "_dump", lambda manifest: dumps.append(manifest) or original(manifest))
    assert export_document(scenario) == first and dumps == []  # all 30 kept
    node = scenario.nodes.get(name="node-7")
    node.labels = {**node.labels, "gpu": "true"}
    node.unschedulable = True
    node.save()
    edited = export_document(scenario)
    assert [manifest["metadata"]["name"] for manifest in dumps] == ["node-7"]
    assert edited != first and "gpu: 'true'" in edited and "unschedulable: true" in edited
    assert edited == written_afresh(scenario)
