"""A scenario's nodes read without the ORM's per-row work (playground/node_loading.py) are the
nodes the ORM gives, each with its own values, and save like them."""

import pytest

from playground import board
from playground.models import Node
from playground.node_loading import load_nodes
from playground.scenarios import create_scenario, snapshot

pytestmark = pytest.mark.django_db

SHARED_CAPACITY = {"cpu": "4", "memory": "16Gi", "pods": "110"}


def fields(node: Node) -> tuple:
    return (
        node.pk,
        node.scenario_id,
        node.name,
        node.position,
        node.labels,
        node.taints,
        node.capacity,
        node.allocatable,
        node.unschedulable,
    )


@pytest.fixture
def scenario():
    scenario, _ = create_scenario("loading", nodes=[])
    taint = [{"key": "gpu", "value": "true", "effect": "NoSchedule"}]
    specs = [  # positions out of creation order: the order is the position's, then the id's
        ("c", 2, {"zone": "a"}, taint, {"cpu": "3800m"}, True),
        ("a", 0, {"zone": "a"}, taint, {}, False),
        ("b", 1, {}, [], {}, False),
        ("b2", 1, {"zone": "b", "kubernetes.io/hostname": "b2"}, [], {}, False),
    ]
    for name, position, labels, taints, allocatable, unschedulable in specs:
        Node.objects.create(
            scenario=scenario,
            name=name,
            position=position,
            labels=labels,
            taints=taints,
            capacity=dict(SHARED_CAPACITY),
            allocatable=allocatable,
            unschedulable=unschedulable,
        )
    other, _ = create_scenario("another")  # its nodes are not this scenario's
    assert other.nodes.exists()
    return scenario


def test_the_nodes_are_those_the_orm_gives_in_the_same_order(scenario):
    loaded = load_nodes(scenario.pk)
    assert [fields(node) for node in loaded] == [fields(node) for node in scenario.nodes.all()]
    assert [node.name for node in loaded] == ["a", "b", "b2", "c"]
    assert all(type(node.unschedulable) is bool for node in loaded)


def test_values_shared_in_the_database_are_each_nodes_own(scenario):
    first, second, *_ = load_nodes(scenario.pk)
    first.capacity["cpu"] = "64"
    first.taints[0]["effect"] = "NoExecute"
    first.labels["zone"] = "z"
    assert second.capacity == SHARED_CAPACITY
    last = load_nodes(scenario.pk)[-1]
    assert last.taints == [{"key": "gpu", "value": "true", "effect": "NoSchedule"}]
    assert last.labels == {"zone": "a"}


def test_a_loaded_node_saves_as_an_update(scenario):
    node = load_nodes(scenario.pk)[0]
    node.labels["team"] = "blue"
    node.save()
    assert Node.objects.filter(scenario=scenario).count() == 4
    assert Node.objects.get(pk=node.pk).labels == {"zone": "a", "team": "blue"}
    assert node.scenario == scenario  # its relation still resolves


def test_an_edit_hands_its_version_and_nodes_to_the_board_drawn_in_answer(scenario):
    node = load_nodes(scenario.pk)[1]
    edited = board.set_unschedulable(scenario, scenario.version, node.pk, True)
    assert edited.edited_version == snapshot(edited)
    assert [fields(node) for node in edited.edited_nodes] == [fields(node) for node in edited.nodes.all()]
