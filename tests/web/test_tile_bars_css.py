"""A tile's bars are sized by one of 101 classes (templates/board/node_tile.html, node-bars.js): the
page's CSP allows no style attributes, and SVG bars cost every frame of a 500-node playback a
re-layerization of 500 SVG roots (issue #14). Every share a bar can show has its class."""

import re
from pathlib import Path

CSS = Path(__file__).parents[2] / "static" / "css" / "app.css"


def test_every_share_from_0_to_100_percent_has_its_width_class():
    widths = dict(re.findall(r"\.tile-bar \.w(\d+) \{ width: (\d+)%; \}", CSS.read_text()))
    assert widths == {str(share): str(share) for share in range(101)}


def test_in_forced_colors_the_bars_and_squares_keep_their_colours():
    """High-contrast modes replace backgrounds with the system's: bars and pod squares, drawn by
    their backgrounds, would vanish."""
    block = re.search(r"@media \(forced-colors: active\) \{(.*?)\n\}", CSS.read_text(), re.S)
    assert block is not None
    kept = re.findall(r"([.\w -]+)\{[^}]*forced-color-adjust: none", block.group(1))
    assert {selector.strip() for selector in kept} == {".sq", ".tile-bar"}
