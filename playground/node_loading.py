"""A scenario's nodes, read in one plain query instead of through the ORM's per-row machinery.

A board, an edit and a page view of a 5,000-node scenario each need every node. Through the ORM
(`scenario.nodes.all()`) that took 90-150 ms: a converter call for each of four JSON fields of each
row, and a model built through Model.__init__ (its signals, a setattr per field), where the rows
themselves are read in 10-15 ms. Here each distinct JSON text is decoded once (most nodes of a big
cluster share their capacity, allocatable and taints) and every node gets its own copy, so changing
one node's labels changes no other's; a node is made as Django makes one it read (not `adding`, bound
to the database), its fields set directly.
"""

import json
from collections.abc import Callable
from typing import Any

from django.db import connections
from django.db.models.base import ModelState

from playground.models import Node

FLAT_JSON_FIELDS = ("labels", "capacity", "allocatable")  # a dict of strings each
LIST_JSON_FIELDS = ("taints",)  # a list of such dicts


def load_nodes(scenario_id: int, using: str = "default") -> list[Node]:
    """The scenario's nodes in their order (Node.Meta.ordering), as `scenario.nodes.all()` gives them."""
    fields = Node._meta.concrete_fields
    quote = connections[using].ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    scenario_column = quote(Node._meta.get_field("scenario").column)
    order = ", ".join(_order_column(name, quote) for name in Node._meta.ordering)
    query = f"SELECT {columns} FROM {quote(Node._meta.db_table)} WHERE {scenario_column} = %s ORDER BY {order}"
    with connections[using].cursor() as cursor:
        cursor.execute(query, [scenario_id])
        rows = cursor.fetchall()
    names = [field.attname for field in fields]
    decoders = [_decoder(field.name) for field in fields]
    nodes = []
    for row in rows:
        node = Node.__new__(Node)
        state = node._state = ModelState()
        state.adding, state.db = False, using
        values = [decode(value) for decode, value in zip(decoders, row, strict=True)]
        node.__dict__.update(zip(names, values, strict=True))
        nodes.append(node)
    return nodes


def _order_column(name: Any, quote: Callable[[str], str]) -> str:
    """One term of Node.Meta.ordering as SQL: a field name, "-" first for descending."""
    descending = str(name).startswith("-")
    field = Node._meta.get_field(str(name).removeprefix("-"))
    return quote(field.column) + (" DESC" if descending else "")


def _decoder(name: str) -> Callable[[Any], Any]:
    if name in FLAT_JSON_FIELDS:
        return _json_decoder(dict)
    if name in LIST_JSON_FIELDS:
        return _json_decoder(lambda items: [dict(item) for item in items])
    if name == "unschedulable":
        return bool  # SQLite gives 0 or 1
    return _same


def _same(value: Any) -> Any:
    return value


def _json_decoder(copy: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Decodes a JSON field's text, each distinct text once: its first node gets the decoded value,
    every later one a copy (one load's values, let go when it ends)."""
    decoded: dict[str, Any] = {}

    def decode(text: Any) -> Any:
        if not isinstance(text, str):  # a driver that decodes JSON itself
            return copy(text)
        value = decoded.get(text)
        if value is None:
            value = decoded[text] = json.loads(text)
            return value
        return copy(value)

    return decode
