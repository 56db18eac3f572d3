"""The board's pod squares are shaded by their background's alpha, never by opacity: opacity below 1
gives each square a compositor effect node, and with 5,000 squares on a 500-node board the page
re-layerized them on every frame of a playback (issue #14: 43 → 55 frames a second at 20x)."""

import re
from pathlib import Path

CSS = Path(__file__).parents[2] / "static" / "css" / "app.css"


def square_rules() -> list[tuple[str, str]]:
    text = re.sub(r"/\*.*?\*/", "", CSS.read_text(), flags=re.S)
    rules = re.findall(r"([^{}]+)\{([^{}]*)\}", text)
    return [(selector.strip(), body) for selector, body in rules if re.search(r"\.sq\b", selector)]


def test_the_squares_have_rules():
    assert len(square_rules()) >= 5  # the phases, ready and deleting are all styled


def test_no_square_rule_sets_opacity():
    shaded = [selector for selector, body in square_rules() if re.search(r"(^|[;\s])opacity\s*:", body)]
    assert shaded == []
