"""Cell helpers shared by the printers: ages, label sets and selectors, container lists, as
upstream's printers.go and apimachinery format them."""

from collections.abc import Mapping, Sequence

from scheduler_core.api.types import Container, LabelSelector
from scheduler_core.explain.selector_text import format_label_selector, selector_string
from scheduler_core.store.event_correlation import human_duration

type Cell = str | int | bool | float

NONE = "<none>"
UNKNOWN = "<unknown>"
UNSET = "<unset>"


def age(since: float | None, now: float) -> str:
    """translateTimestampSince: how long ago, "<unknown>" for an unset time."""
    return UNKNOWN if since is None else human_duration(now - since)


def format_labels(labels: Mapping[str, str] | None) -> str:
    """labels.FormatLabels: the "key=value" pairs sorted as strings, "<none>" for none."""
    return ",".join(sorted(f"{key}={value}" for key, value in (labels or {}).items())) or NONE


def label_selector(selector: LabelSelector | None) -> str:
    """metav1.FormatLabelSelector: "<none>" for no selector or one that selects everything
    (explain/selector_text.py writes requirements as apimachinery's labels.Selector does)."""
    return format_label_selector(selector)


def selector_as_string(selector: LabelSelector | None) -> str:
    """LabelSelectorAsSelector(...).String(), what a Deployment prints: "" when it selects nothing
    or everything."""
    return "" if selector is None else selector_string(selector)


def container_cells(containers: Sequence[Container]) -> list[Cell]:
    """layoutContainerCells: the names, then the images, each joined by commas."""
    return [",".join(c.name for c in containers), ",".join(c.image for c in containers)]


def bool_text(value: bool | None) -> str:
    """printBoolPtr: "True", "False", or "<unset>" for no value."""
    if value is None:
        return UNSET
    return "True" if value else "False"
