"""The dots board of a big cluster as one JSON document, drawn on a canvas by static/js/board-dots.js.

Up to DOM_DOTS_UP_TO nodes, the dots level is an element per node and per pod (templates/board/
node_tile.html): 500 nodes and 5,000 pods are about 10,000 elements. Past it, 5,000 nodes and
50,000 pods would be 100,000 elements and seconds of style recalculation (issue #14), so the page
carries the same facts compactly and a canvas draws them; one roving button (the canvas's pointer
and keyboard stand-in) carries the hovered or focused node's name and summary for drops, clicks and
screen readers.

A node is a list, in the order of NODE_FIELDS; its pods are a string of two characters each: the
phase's index in PHASES and the owner's colour bucket (playground_extras.owner_hue) in hexadecimal.
"""

from typing import Any

from playground.templatetags.playground_extras import owner_hue

DOM_DOTS_UP_TO = 600
PHASES = ("Pending", "Running", "Succeeded", "Failed", "Unknown")
NODE_FIELDS = ("name", "id", "flags", "cpu", "memory", "pods", "taints", "labels")
CORDONED = 1
TAINTED = 2
_PHASE_CODE = {phase: str(index) for index, phase in enumerate(PHASES)}


def drawn_on_canvas(density: str, node_count: int) -> bool:
    return density == "dots" and node_count > DOM_DOTS_UP_TO


def dots_document(groups: list[tuple[str, list[dict[str, Any]]]]) -> dict[str, Any]:
    """The board's groups of cards (views.common.board_context) as the canvas draws them."""
    hues: dict[str, str] = {}

    def hue(owner: str) -> str:
        code = hues.get(owner)
        if code is None:
            code = hues[owner] = format(owner_hue(owner), "x")
        return code

    drawn = []
    for title, cards in groups:
        rows = []
        for card in cards:
            node = card["node"]
            bars = {bar["name"]: bar["percent"] for bar in card["bars"]}
            pods = "".join(_PHASE_CODE.get(pod.phase, "4") + hue(pod.owner) for pod in card["pods"])
            taints = [_taint_text(taint) for taint in node.taints]
            flags = (CORDONED if node.unschedulable else 0) | (TAINTED if taints else 0)
            rows.append([node.name, node.pk, flags, bars["cpu"], bars["memory"], pods, taints, len(node.labels)])
        drawn.append({"title": title, "nodes": rows})
    return {"fields": NODE_FIELDS, "phases": PHASES, "groups": drawn}


def _taint_text(taint: dict[str, Any]) -> str:
    value = f"={taint['value']}" if taint.get("value") else ""
    return f"{taint.get('key')}{value}:{taint.get('effect')}"
