"""What the node board shows, computed from the nodes and their placement: the density that fits
the cluster on screen, each node's card (bars, pods, the summary a screen reader hears), the groups
by topology label, the table's search. The views read the request (playground/forms.py) and render;
this module decides.
"""

from functools import lru_cache
from typing import Any

from scheduler_core.api import quantity


def poll_seconds(node_count: int, queue_full: bool) -> int:
    """How long the board waits before asking again for its preview: every ask renders the whole
    board (0.5 s of the server at 5,000 nodes, whose preview takes minutes), so a big board asks
    less often; a full queue, later still."""
    if queue_full:
        return 3 if node_count <= CANVAS_POLL_FROM else 10
    return 1 if node_count <= CANVAS_POLL_FROM else 5


CANVAS_POLL_FROM = 600  # as playground.board_dots.DOM_DOTS_UP_TO: the boards that take long


# How the board draws nodes: rich cards, compact tiles (name, thin bars, pods as squares), dots
# (a square per node, its pods as dots; the name on hover and focus), or a table. "auto" picks
# by the number of nodes, so that a cluster of any size is seen whole.
VIEWS = ("auto", "cards", "tiles", "dots", "table")
CARDS_UP_TO = 12
TILES_UP_TO = 48
ZONE_LABEL = "topology.kubernetes.io/zone"


def auto_density(node_count: int) -> str:
    if node_count <= CARDS_UP_TO:
        return "cards"
    return "tiles" if node_count <= TILES_UP_TO else "dots"


def group_key(asked: str | None, keys: list[str], density: str) -> str:
    """The label the board groups by: the one asked for ("" is no grouping), else by zone when the
    nodes are many and carry one (a big cluster is read zone by zone)."""
    if asked is not None:
        return asked if asked in keys else ""
    return ZONE_LABEL if density in ("tiles", "dots") and ZONE_LABEL in keys else ""


def groupable_keys(nodes: list[Any]) -> list[str]:
    """Every label key the nodes carry (zone, rack, node pool, the user's own), topology ones first;
    the hostname is unique per node, so grouping by it says nothing."""
    keys = {key for node in nodes for key in node.labels if key != "kubernetes.io/hostname"}
    return sorted(keys, key=lambda key: ("topology" not in key, key))


def matches(node: Any, query: str) -> bool:
    """The table view's search: node name, label keys and values, taints."""
    needle = query.lower()
    haystack = [node.name, *(f"{k}={v}" for k, v in node.labels.items())]
    haystack += [f"{t.get('key')}={t.get('value', '')}:{t.get('effect')}" for t in node.taints]
    return any(needle in text.lower() for text in haystack)


@lru_cache(maxsize=4096)
def _amount(resource: str, text: str) -> int:
    """A quantity's value (millicores for cpu); memoized: 5,000 nodes mostly share a few sizes, and
    parsing one is most of a card's cost."""
    try:
        return quantity.milli_value(text) if resource == "cpu" else quantity.value(text)
    except Exception:  # the board only stores values the engine accepted; be safe anyway
        return 0


@lru_cache(maxsize=4096)
def _readable(resource: str, text: str) -> str:
    return readable_quantity(resource, text)


def card(node: Any, placement: Any) -> dict[str, Any]:
    usage = placement.usage.get(node.name)
    capacity = node.allocatable or node.capacity  # what pods fit into (empty allocatable: the capacity)

    def amount(name: str) -> int:
        return _amount(name, str(capacity.get(name, "0")))

    bars = []
    for name, used in (
        ("cpu", usage.cpu if usage else 0),
        ("memory", usage.memory if usage else 0),
        ("pods", usage.pods if usage else 0),
    ):
        total = amount(name)
        bars.append(
            {
                "name": name,
                "used": used,
                "total": total,
                "percent": min(100, round(100 * used / total)) if total else (100 if used else 0),
                "used_text": _format(name, used) if placement.ready else "…",  # not placed yet
                "total_text": _readable(name, str(capacity.get(name, "0"))),
            }
        )
    toggle = "uncordon" if node.unschedulable else "cordon"
    pods = usage.pod_views if usage else []
    return {"node": node, "bars": bars, "pods": pods, "toggle": toggle, "summary": node_summary(node, bars, len(pods))}


def node_summary(node: Any, bars: list[dict[str, Any]], pods: int) -> str:
    """What a compact tile says to a screen reader and on hover: its name, state and load, and its
    taints in full (they decide where pods go); the labels are counted."""
    parts = [f"{node.name}: {pods} pod{'s' if pods != 1 else ''}"]
    parts += [f"{bar['name']} {bar['percent']}%" for bar in bars if bar["name"] != "pods"]
    if node.unschedulable:
        parts.append("SchedulingDisabled")
    for taint in node.taints:
        value = f"={taint['value']}" if taint.get("value") else ""
        parts.append(f"taint {taint.get('key')}{value}:{taint.get('effect')}")
    parts.append(f"{len(node.labels)} label{'s' if len(node.labels) != 1 else ''}")
    return ", ".join(parts)


def readable_quantity(resource: str, text: str) -> str:
    """A node's memory as people read it: "32817148Ki" shows as "31.3Gi" (the stored value stays
    exact); a value in whole units, and every other resource, shows as written."""
    if resource != "memory" or text.endswith(("Mi", "Gi", "Ti", "Pi", "Ei")):
        return text
    try:
        amount = quantity.value(text)
    except Exception:  # the board only stores values the engine accepted; be safe anyway
        return text
    exact = quantity.format_bytes(amount)
    if amount < 2**20 or exact.endswith(("Mi", "Gi", "Ti", "Pi", "Ei")):
        return exact  # whole units already ("16Gi"), or too small to round
    for suffix, factor in (("Ei", 2**60), ("Pi", 2**50), ("Ti", 2**40), ("Gi", 2**30), ("Mi", 2**20)):
        if amount >= factor:
            return f"{amount / factor:.1f}{suffix}"
    return exact


def _format(resource: str, amount: int) -> str:
    return quantity.format_quantity(resource, amount)  # as static/js/node-usage.js formatAmount prints it too


def group(cards: list[dict[str, Any]], key: str, then: str = "") -> list[tuple[str, list[dict[str, Any]]]]:
    """Cards grouped by a topology label, and optionally within it by a second one (region > zone)."""
    if not key:
        return [("", cards)]
    keys = [k for k in (key, then) if k]
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for card in cards:
        groups.setdefault(tuple(card["node"].labels.get(k, "(none)") for k in keys), []).append(card)
    ordered = sorted(groups.items(), key=lambda item: tuple((value == "(none)", value) for value in item[0]))
    return [
        (" › ".join(f"{k} = {v}" for k, v in zip(keys, values, strict=True)), members) for values, members in ordered
    ]
