"""A scenario's own palette: labels and taints its editors keep at hand to drag onto nodes. They
belong to the scenario (every tab and every editor sees them), not to its versions: a palette
chip changes no cluster until it is dropped on a node."""

from django.db import transaction

from playground.board import TAINT_EFFECTS, check_key_and_value
from playground.models import Scenario
from playground.scenarios import InvalidEdit

MAX_PALETTE_CHIPS = 40
Chip = dict[str, str]


def chip(kind: str, key: str, value: str = "", effect: str = "") -> Chip:
    """A checked chip: a label or a taint whose key and value Kubernetes would accept on a node."""
    key, value = key.strip(), value.strip()
    if kind not in ("label", "taint"):
        raise InvalidEdit("a palette chip is a label or a taint")
    check_key_and_value(kind, key, value)
    if kind == "taint":
        if effect not in TAINT_EFFECTS:
            raise InvalidEdit(f"taint effect must be one of {', '.join(TAINT_EFFECTS)}")
        return {"kind": kind, "key": key, "value": value, "effect": effect}
    return {"kind": kind, "key": key, "value": value, "effect": ""}


def add_chip(scenario: Scenario, new: Chip) -> Scenario:
    with transaction.atomic():
        locked = Scenario.objects.select_for_update().get(pk=scenario.pk)
        chips = [existing for existing in locked.palette if existing != new]
        if len(chips) >= MAX_PALETTE_CHIPS:
            raise InvalidEdit(f"a palette holds at most {MAX_PALETTE_CHIPS} chips of its own: remove one first")
        locked.palette = [*chips, new]
        locked.save(update_fields=["palette"])
    return locked


def remove_chip(scenario: Scenario, old: Chip) -> Scenario:
    with transaction.atomic():
        locked = Scenario.objects.select_for_update().get(pk=scenario.pk)
        locked.palette = [existing for existing in locked.palette if existing != old]
        locked.save(update_fields=["palette"])
    return locked
