"""A compact node tile's HTML (templates/board/node_tile.html), kept by what it shows.

At 500 nodes the board is 500 tiles and 5,000 pod squares, and rendering them was most of every
edit's answer (0.35 s of a cordon's 0.58 s) and of every page view, though an edit changes one
tile: the board shows the placement before the edit until the new one is computed. The template
reads only its card, so the same card gives the same HTML: tiles are kept by `tile_inputs`, the most
recently used up to MAX_CHARS of HTML, and only the tiles that changed are rendered again.
"""

import threading
from collections import OrderedDict
from typing import Any

from django.template.loader import get_template

TILE_TEMPLATE = "board/node_tile.html"
MAX_CHARS = 16 << 20  # about 9,000 tiles of ten pods: a 5,000-node board and a few smaller ones

_kept: "OrderedDict[tuple[Any, ...], str]" = OrderedDict()
_kept_chars = 0
_lock = threading.Lock()


def tile_inputs(card: dict[str, Any]) -> tuple[Any, ...]:
    """Everything node_tile.html reads of its card. A field the template starts to read must be
    added here (tests/web/test_tile_html.py renders tiles both ways and compares)."""
    node, bars = card["node"], card["bars"]
    return (
        node.pk,
        node.name,
        bool(node.unschedulable),
        bool(node.taints),
        card["summary"],
        bars[0]["percent"],
        bars[1]["percent"],
        tuple((pod.phase, pod.owner, pod.key) for pod in card["pods"]),
    )


def tile_html(card: dict[str, Any]) -> str:
    global _kept_chars
    key = tile_inputs(card)
    with _lock:
        html = _kept.get(key)
        if html is not None:
            _kept.move_to_end(key)
            return html
    html = get_template(TILE_TEMPLATE).render({"card": card})
    with _lock:
        if key not in _kept:
            _kept[key] = html
            _kept_chars += len(html)
        while _kept_chars > MAX_CHARS and _kept:
            _old, dropped = _kept.popitem(last=False)
            _kept_chars -= len(dropped)
    return html


def forget_all() -> None:
    """For tests: the next tiles are rendered afresh."""
    global _kept_chars
    with _lock:
        _kept.clear()
        _kept_chars = 0


def kept_chars() -> int:
    return _kept_chars
