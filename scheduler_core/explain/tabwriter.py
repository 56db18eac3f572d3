"""Go's text/tabwriter as kubectl's describers set it up (tabbedString: minwidth 0, tabwidth 8,
padding 2, padded with spaces, aligned left), or as its table printer does (GetNewTabWriter:
minwidth 6, padding 3).

Text is cut into cells at tabs; the text after a line's last tab is not a cell and is never padded.
A column block is a run of consecutive lines that all have a cell in that column: each of its cells
is padded to the block's widest cell plus the padding. A line with fewer cells ends the blocks of
the columns it lacks, so `Name:\\tweb` lines align with each other and a table's rows with its
header, while a heading line without a tab starts afresh.
"""

PADDING = 2


def tabbed(text: str, *, minwidth: int = 0, padding: int = PADDING) -> str:
    lines = [line.split("\t") for line in text.split("\n")]
    widths: list[int] = []
    out: list[str] = []
    _format(lines, 0, len(lines), widths, out, (minwidth, padding))
    return "\n".join(out)


def _format(
    lines: list[list[str]], start: int, end: int, widths: list[int], out: list[str], sizes: tuple[int, int]
) -> None:
    """Go's format(): the lines start..end, whose first len(widths) columns are sized already."""
    column = len(widths)
    written = start
    this = start
    while this < end:
        if column >= len(lines[this]) - 1:  # no cell in this column: not part of a block
            this += 1
            continue
        _write(lines, written, this, widths, out)
        block = this
        width, padding = sizes
        while this < end and column < len(lines[this]) - 1:
            width = max(width, len(lines[this][column]) + padding)
            this += 1
        widths.append(width)
        _format(lines, block, this, widths, out, sizes)
        widths.pop()
        written = this
    _write(lines, written, end, widths, out)


def _write(lines: list[list[str]], start: int, end: int, widths: list[int], out: list[str]) -> None:
    for cells in lines[start:end]:
        out.append("".join(cell.ljust(widths[j]) if j < len(widths) else cell for j, cell in enumerate(cells)))
