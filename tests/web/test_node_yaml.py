"""A node's YAML is written once per content (playground/scenarios.py): an edit to one node of many
writes that one again, and every document is the one written afresh."""

import pytest
import yaml

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
    original = scenarios.block_yaml
    monkeypatch.setattr(scenarios, "block_yaml", lambda manifest: dumps.append(manifest) or original(manifest))
    assert export_document(scenario) == first and dumps == []  # all 30 kept
    node = scenario.nodes.get(name="node-7")
    node.labels = {**node.labels, "gpu": "true"}
    node.unschedulable = True
    node.save()
    edited = export_document(scenario)
    assert [manifest["metadata"]["name"] for manifest in dumps] == ["node-7"]
    assert edited != first and "gpu: 'true'" in edited and "unschedulable: true" in edited
    assert edited == written_afresh(scenario)


def test_a_node_block_yaml_declines_is_dumped_by_pyyaml():
    nodes = [{"name": "odd", "labels": {"note": "x"}}]
    scenario, _ = create_scenario("odd-yaml", nodes=nodes)
    node = scenario.nodes.get(name="odd")
    node.capacity = {**node.capacity, "example.com/wide": "1"}
    node.save()
    plain = written_afresh(scenario)
    node.taints = [{"key": "k", "value": "v", "effect": "NoSchedule", "timeAdded": None}]  # a null: PyYAML's
    node.save()
    dumped = written_afresh(scenario)
    assert "timeAdded: null" in dumped and dumped != plain
    assert next(yaml.safe_load_all(dumped))["spec"]["taints"][0] == node.taints[0]
