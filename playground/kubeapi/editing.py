"""`kubectl edit` in the page's console: the object opened where the scenario declares it, its
document in the workload editor (edited there and saved as any edit is). What a controller made is
not declared anywhere: the entry names the object that made it, to edit instead; nodes are the
board's."""

from typing import Any

from playground.models import Scenario
from scheduler_core.api.errors import ManifestError
from scheduler_core.api.yaml_loader import load_documents
from scheduler_core.kubectl.console import EditTarget


def document_line(workload_yaml: str, kind: str, namespace: str, name: str) -> int | None:
    """The first line of the workload's document that declares the object, if one does."""
    try:
        documents = load_documents(workload_yaml, source="workload")
    except ManifestError:
        return None
    for document in documents:
        data = document.data
        if not isinstance(data, dict) or data.get("kind") != kind:
            continue
        metadata = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
        declared_ns = str(metadata.get("namespace") or "default") if namespace else ""
        if metadata.get("name") == name and declared_ns == namespace:
            return document.line
    return None


def opened(scenario: Scenario, target: EditTarget, can_edit: bool) -> dict[str, Any]:
    """The console entry's fields: the line to open, and what it says."""
    shown = f"{target.kind}/{target.name}"
    line = document_line(scenario.workload_yaml, target.kind, target.namespace, target.name)
    if line is not None:
        if can_edit:
            how = (
                "change it there and Save: a new version, declared from the start, not at the player's moment "
                "as kubectl's other changes are"
            )
            return {"edit_line": line, "note": f"{shown} opened in the Workload tab at line {line}: {how}."}
        note = f"{shown} shown in the Workload YAML tab at line {line} (read-only: fork the scenario to change it)."
        return {"edit_line": line, "note": note}
    for owner in target.owners:
        kind, _, name = owner.partition("/")
        owner_line = document_line(scenario.workload_yaml, kind, target.namespace, name)
        if owner_line is not None:
            made = f"{shown} was made by {' ← '.join(target.owners[: target.owners.index(owner) + 1])}"
            return {
                "edit_line": owner_line,
                "note": f"{made}: its {owner} is what the workload declares, opened at line {owner_line}.",
            }
    if target.kind == "Node":
        why = (
            "nodes are the board's, not the workload's: drag labels and taints from the palette, or use "
            "kubectl label, taint, cordon"
        )
    else:
        why = "the workload does not declare it" + (f" (made by {' ← '.join(target.owners)})" if target.owners else "")
    return {"stderr": f"error: {shown} cannot be edited here: {why}\n"}
