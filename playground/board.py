"""Edits of a scenario's node board and workload. Every edit names the version it was made against;
a stale one is refused (StaleEdit) and nothing is overwritten. A valid edit moves the scenario to
the next version and saves that version's immutable snapshot."""

from collections.abc import Callable
from typing import Any

from django.db import transaction

from playground.models import WORKLOAD_FIELDS, Node, Scenario
from playground.node_loading import load_nodes
from playground.scenarios import (
    DEFAULT_CAPACITY,
    HOSTNAME_LABEL,
    MAX_IMPORT_WORKLOAD_BYTES,
    MAX_NODES,
    MAX_WORKLOAD_BYTES,
    InvalidEdit,
    StaleEdit,
    bump,
    check_node,
    snapshot,
    validate_workload,
)
from playground.workload_changes import check_changed_documents, remember_facts
from scheduler_core.api.validation import label_value_problem, qualified_name_problem, subdomain_problem

TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
CAPACITY_RESOURCES = ("cpu", "memory", "pods")
MAX_TEMPLATE_NODES = 1000
ZONE_LABEL = "topology.kubernetes.io/zone"


def edit(scenario: Scenario, expected_version: int, change: Callable[[Scenario], None]) -> Scenario:
    """Runs `change` on the locked scenario at the next version; all or nothing (a version the
    scenario's bounded history has no room for refuses the edit)."""
    with transaction.atomic():
        locked = bump(scenario.pk, expected_version)
        change(locked)
        locked.refresh_from_db(fields=["updated_at"])  # a node saved by `change` moved it (Node.save)
        nodes = load_nodes(locked.pk)
        version = snapshot(locked, bounded=True, nodes=nodes)
    locked.edited_nodes, locked.edited_version = nodes, version
    return locked


def check_key_and_value(kind: str, key: str, value: str) -> None:
    """A label's (or a taint's) key and value as Kubernetes accepts them on a node, else InvalidEdit."""
    problem = qualified_name_problem(key)
    if problem:
        raise InvalidEdit(f'invalid {kind} key "{key[:80]}": {problem}')
    problem = label_value_problem(value)
    if problem:
        raise InvalidEdit(f'invalid {kind} value "{value[:80]}": {problem}')


def _node(scenario: Scenario, node_id: int) -> Node:
    node = scenario.nodes.filter(pk=node_id).first()
    if node is None:
        raise InvalidEdit("that node no longer exists")
    return node


def _save(node: Node) -> None:
    check_node(node)
    node.save()


def _unique_name(scenario: Scenario, base: str) -> str:
    return _free_name(set(scenario.nodes.values_list("name", flat=True)), base)


def _free_name(taken: set[str], base: str) -> str:
    if base not in taken:
        return base
    index = 2
    while f"{base}-{index}" in taken:
        index += 1
    return f"{base}-{index}"


def _room_for(scenario: Scenario, count: int) -> None:
    if scenario.nodes.count() + count > MAX_NODES:
        raise InvalidEdit(f"a scenario holds at most {MAX_NODES} nodes")


# ---------------------------------------------------------------------------- nodes


def add_node(scenario: Scenario, version: int, name: str = "", capacity: dict[str, str] | None = None) -> Scenario:
    def change(locked: Scenario) -> None:
        _room_for(locked, 1)
        wanted = name.strip() or _unique_name(locked, f"worker{locked.nodes.count() + 1}")
        problem = subdomain_problem(wanted)
        if problem:
            raise InvalidEdit(f'invalid node name "{wanted[:80]}": {problem}')
        if locked.nodes.filter(name=wanted).exists():
            raise InvalidEdit(f'a node named "{wanted}" already exists')
        position = (locked.nodes.order_by("-position").values_list("position", flat=True).first() or 0) + 1
        _save(
            Node(
                scenario=locked,
                name=wanted,
                position=position,
                labels={HOSTNAME_LABEL: wanted},
                capacity=dict(capacity or DEFAULT_CAPACITY),
            )
        )

    return edit(scenario, version, change)


def add_nodes_from_template(
    scenario: Scenario, version: int, zones: list[str], per_zone: int, capacity: dict[str, str], prefix: str = "node"
) -> Scenario:
    """ "3 zones x 2 nodes": nodes named prefix-<zone>-<n>, labelled with their zone."""

    def change(locked: Scenario) -> None:
        if not zones or per_zone < 1:
            raise InvalidEdit("give at least one zone and one node per zone")
        total = len(zones) * per_zone
        if total > MAX_TEMPLATE_NODES:
            raise InvalidEdit(f"a template adds at most {MAX_TEMPLATE_NODES} nodes at once")
        _room_for(locked, total)
        position = (locked.nodes.order_by("-position").values_list("position", flat=True).first() or 0) + 1
        taken = set(locked.nodes.values_list("name", flat=True))
        created: list[Node] = []
        for zone in zones:
            problem = label_value_problem(zone)
            if problem:
                raise InvalidEdit(f'invalid zone "{zone[:60]}": {problem}')
            for index in range(1, per_zone + 1):
                name = _free_name(taken, f"{prefix}-{zone}-{index}".lower())
                taken.add(name)
                node = Node(
                    scenario=locked,
                    name=name,
                    position=position,
                    labels={HOSTNAME_LABEL: name, ZONE_LABEL: zone},
                    capacity=dict(capacity),
                )
                check_node(node)
                created.append(node)
                position += 1
        Node.objects.bulk_create(created, batch_size=500)  # 1,000 nodes: one insert per batch, not per node

    return edit(scenario, version, change)


def clone_node(scenario: Scenario, version: int, node_id: int) -> Scenario:
    def change(locked: Scenario) -> None:
        _room_for(locked, 1)
        original = _node(locked, node_id)
        name = _unique_name(locked, original.name)
        labels = dict(original.labels)
        if labels.get(HOSTNAME_LABEL) == original.name:
            labels[HOSTNAME_LABEL] = name
        position = (locked.nodes.order_by("-position").values_list("position", flat=True).first() or 0) + 1
        _save(
            Node(
                scenario=locked,
                name=name,
                position=position,
                labels=labels,
                taints=[dict(t) for t in original.taints],
                capacity=dict(original.capacity),
                allocatable=dict(original.allocatable),
                unschedulable=original.unschedulable,
            )
        )

    return edit(scenario, version, change)


def rename_node(scenario: Scenario, version: int, node_id: int, new_name: str) -> Scenario:
    def change(locked: Scenario) -> None:
        node = _node(locked, node_id)
        wanted = new_name.strip()
        problem = subdomain_problem(wanted)
        if problem:
            raise InvalidEdit(f'invalid node name "{wanted[:80]}": {problem}')
        if wanted != node.name and locked.nodes.filter(name=wanted).exists():
            raise InvalidEdit(f'a node named "{wanted}" already exists')
        if node.labels.get(HOSTNAME_LABEL) == node.name:
            node.labels[HOSTNAME_LABEL] = wanted
        node.name = wanted
        _save(node)

    return edit(scenario, version, change)


def delete_node(scenario: Scenario, version: int, node_id: int) -> Scenario:
    def change(locked: Scenario) -> None:
        _node(locked, node_id).delete()

    return edit(scenario, version, change)


def _with_amounts(amounts: dict[str, str], edit: dict[str, str]) -> dict[str, str]:
    """`amounts` with the edit's values set (an empty value removes the resource)."""
    result = dict(amounts)
    for name, value in edit.items():
        if value.strip():
            result[name] = value.strip()
        else:
            result.pop(name, None)
    return result


def set_capacity(scenario: Scenario, version: int, node_id: int, capacity: dict[str, str]) -> Scenario:
    def change(locked: Scenario) -> None:
        node = _node(locked, node_id)
        updated = _with_amounts(node.capacity, capacity)
        node.capacity = updated
        if node.allocatable:  # an imported node's allocatable follows the edit: what pods fit into
            allocatable = _with_amounts(node.allocatable, capacity)
            node.allocatable = {} if allocatable == updated else allocatable
        _save(node)

    return edit(scenario, version, change)


def set_unschedulable(scenario: Scenario, version: int, node_id: int, unschedulable: bool) -> Scenario:
    def change(locked: Scenario) -> None:
        node = _node(locked, node_id)
        node.unschedulable = unschedulable
        _save(node)

    return edit(scenario, version, change)


# ---------------------------------------------------------------------------- labels and taints


def set_label(scenario: Scenario, version: int, node_id: int, key: str, value: str, old_key: str = "") -> Scenario:
    def change(locked: Scenario) -> None:
        node = _node(locked, node_id)
        wanted_key, wanted_value = key.strip(), value.strip()
        check_key_and_value("label", wanted_key, wanted_value)
        if old_key and old_key != wanted_key:
            node.labels.pop(old_key, None)
        node.labels[wanted_key] = wanted_value
        _save(node)

    return edit(scenario, version, change)


def remove_label(scenario: Scenario, version: int, node_id: int, key: str) -> Scenario:
    def change(locked: Scenario) -> None:
        node = _node(locked, node_id)
        if key not in node.labels:
            raise InvalidEdit(f'the node has no label "{key[:80]}"')
        del node.labels[key]
        _save(node)

    return edit(scenario, version, change)


def set_taint(
    scenario: Scenario, version: int, node_id: int, taint: dict[str, str], old: dict[str, str] | None = None
) -> Scenario:
    def change(locked: Scenario) -> None:
        node = _node(locked, node_id)
        key, value, effect = taint.get("key", "").strip(), taint.get("value", "").strip(), taint.get("effect", "")
        if effect not in TAINT_EFFECTS:
            raise InvalidEdit(f"taint effect must be one of {', '.join(TAINT_EFFECTS)}")
        taints: list[dict[str, Any]] = [
            t
            for t in node.taints
            if not (old and t.get("key") == old.get("key") and t.get("effect") == old.get("effect"))
        ]
        taints = [t for t in taints if not (t.get("key") == key and t.get("effect") == effect)]
        entry = {"key": key, "effect": effect}
        if value:
            entry["value"] = value
        taints.append(entry)
        node.taints = taints
        _save(node)

    return edit(scenario, version, change)


def remove_taint(scenario: Scenario, version: int, node_id: int, key: str, effect: str) -> Scenario:
    def change(locked: Scenario) -> None:
        node = _node(locked, node_id)
        kept = [t for t in node.taints if not (t.get("key") == key and t.get("effect") == effect)]
        if len(kept) == len(node.taints):
            raise InvalidEdit(f"the node has no taint {key}:{effect}")
        node.taints = kept
        _save(node)

    return edit(scenario, version, change)


# ---------------------------------------------------------------------------- workload


def set_workload(scenario: Scenario, version: int, workload_yaml: str) -> Scenario:
    # A workload an import made larger than a typed one may be edited within the import bound.
    facts = None
    if scenario.workload_imported:  # tens of thousands of documents: the ones the edit changed are checked
        problems, facts = check_changed_documents(
            scenario.workload_yaml, workload_yaml, MAX_IMPORT_WORKLOAD_BYTES, scenario.workload_digest
        )
    else:
        problems = validate_workload(workload_yaml, MAX_WORKLOAD_BYTES)
    if problems:
        first = problems[0]
        where = f"line {first.line}: " if first.line else ""
        raise InvalidEdit(f"{where}{first.document} {first.path}: {first.message}".replace("  ", " "))

    def change(locked: Scenario) -> None:
        locked.workload_yaml = workload_yaml
        locked.save(update_fields=WORKLOAD_FIELDS)

    updated = edit(scenario, version, change)
    if facts is not None and updated.workload_text_id:  # its digest is on the row: the next check counts nothing
        remember_facts(updated.workload_text_id, facts)
    return updated


def set_details(scenario: Scenario, version: int, title: str, description: str) -> Scenario:
    def change(locked: Scenario) -> None:
        if not title.strip():
            raise InvalidEdit("the title cannot be empty")
        locked.title = title.strip()[:120]
        locked.description = description.strip()[:4000]
        locked.save(update_fields=["title", "description"])

    return edit(scenario, version, change)


__all__ = ["CAPACITY_RESOURCES", "TAINT_EFFECTS", "InvalidEdit", "StaleEdit"]


def replace_cluster(
    scenario: Scenario, version: int, nodes: list[dict[str, Any]], workload_yaml: str | None
) -> Scenario:
    """An imported cluster replaces the board (and, when pods were imported, the workload)."""

    def change(locked: Scenario) -> None:
        locked.nodes.all().delete()
        # The engine's parser checked every node as imported (importing._documents): 5,000 rows
        # go in by the thousand, not one check and one INSERT at a time.
        Node.objects.bulk_create(
            [Node(scenario=locked, position=position, **spec) for position, spec in enumerate(nodes)],
            batch_size=1000,
        )
        if workload_yaml is not None:
            locked.workload_yaml = workload_yaml
            locked.save(update_fields=WORKLOAD_FIELDS)

    return edit(scenario, version, change)
