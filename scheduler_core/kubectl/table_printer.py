"""kubectl's human-readable printer over the API server's Tables (cli-runtime printers/tableprinter.go,
v1.34): upper-cased column names, the `-o wide` (priority 1) columns only when asked, NAMESPACE first
with `-A`, LABELS last with `--show-labels`, the name prefixed by its type when several types are
printed, a cell cut at its first line break with "...", and Go's tabwriter as GetNewTabWriter sets
it up (minwidth 6, padding 3)."""

from dataclasses import dataclass
from typing import Any

from scheduler_core.explain.tabwriter import tabbed

MIN_WIDTH = 6
PADDING = 3
BREAKS = "\f\n\r"


@dataclass(frozen=True, slots=True)
class PrintOptions:
    wide: bool = False
    with_namespace: bool = False
    show_labels: bool = False
    with_kind: str = ""  # "pod", "deployment.apps": the prefix of names when several types are printed
    no_headers: bool = False


def table_lines(table: dict[str, Any], options: PrintOptions) -> list[str]:
    """The header (unless no_headers) and a line per row, tab-separated, before the tabwriter."""
    columns = table["columnDefinitions"]
    shown = [index for index, column in enumerate(columns) if options.wide or not column.get("priority")]
    lines: list[str] = []
    if not options.no_headers:
        header = [str(columns[index]["name"]).upper() for index in shown]
        if options.with_namespace:
            header.insert(0, "NAMESPACE")
        if options.show_labels:
            header.append("LABELS")
        lines.append("\t".join(header))
    for row in table["rows"]:
        metadata = (row.get("object") or {}).get("metadata") or {}
        cells = [_cell(row["cells"][index]) if index < len(row["cells"]) else "" for index in shown]
        if options.with_kind and shown and columns[shown[0]].get("format") == "name":
            cells[0] = f"{options.with_kind}/{cells[0]}"
        if options.with_namespace:
            cells.insert(0, str(metadata.get("namespace", "")))
        if options.show_labels:
            cells.append(format_labels(metadata.get("labels") or {}))
        lines.append("\t".join(cells))
    return lines


def print_tables(blocks: list[list[str]]) -> str:
    """Each type's lines through one tabwriter, as kubectl prints each type's table."""
    return "\n\n".join(tabbed("\n".join(lines), minwidth=MIN_WIDTH, padding=PADDING) for lines in blocks if lines)


def _cell(value: Any) -> str:
    if value is None:
        return "<none>"
    if isinstance(value, bool):
        return "true" if value else "false"
    text = value if isinstance(value, str) else str(value)
    cut = min((text.index(c) for c in BREAKS if c in text), default=-1)
    return text[:cut] + "..." if cut >= 0 else text


def format_labels(labels: dict[str, str]) -> str:
    """labels.FormatLabels: sorted key=value pairs, "<none>" for none."""
    return ",".join(f"{key}={labels[key]}" for key in sorted(labels)) or "<none>"
