"""Django's {# #} comment ends at its line: one left open runs on into the page as text (a board
showed "{# The preview is computed off the request…" above "Placing pods…")."""

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_every_short_comment_closes_on_its_line() -> None:
    open_comments = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if line.count("{#") > line.count("#}")
    ]
    assert not open_comments, f"{{# #}} comments that do not close on their line: {open_comments}"
