"""Load (or refresh) the built-in example scenarios from playground/gallery/*.yaml.

Each file is one scenario: a first document `kind: Scenario` (title, description, order), then the
cluster's Nodes, then the workload (anything else, actions included), exactly as users write it.
"""

from pathlib import Path
from typing import Any

import yaml
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from playground.models import Node, Scenario
from playground.scenarios import create_scenario, snapshot, validate_workload

GALLERY_DIR = Path(__file__).resolve().parents[2] / "gallery"


def _node_row(document: dict[str, Any]) -> dict[str, Any]:
    metadata = document.get("metadata") or {}
    status = document.get("status") or {}
    spec = document.get("spec") or {}
    capacity = status.get("capacity") or status.get("allocatable") or {}
    return {
        "name": metadata["name"],
        "labels": metadata.get("labels") or {},
        "taints": spec.get("taints") or [],
        "capacity": {str(k): str(v) for k, v in capacity.items()},
        "unschedulable": bool(spec.get("unschedulable")),
    }


def split_gallery_file(text: str) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """(the Scenario header, the nodes as board rows, the workload YAML as written).

    Node documents (also inside a v1 List) go to the board; every other document stays in the
    workload exactly as written, comments included, except that a List's other items are re-written.
    """
    chunks = text.split("\n---\n")
    header = yaml.safe_load(chunks[0]) or {}
    if header.get("kind") != "Scenario":
        raise ValueError("the first document must be kind: Scenario")
    nodes: list[dict[str, Any]] = []
    workload: list[str] = []
    for chunk in chunks[1:]:
        document = yaml.safe_load(chunk)
        if isinstance(document, dict) and document.get("kind") == "Node":
            nodes.append(_node_row(document))
        elif isinstance(document, dict) and document.get("kind") == "List":
            others = []
            for item in document.get("items") or []:
                if isinstance(item, dict) and item.get("kind") == "Node":
                    nodes.append(_node_row(item))
                else:
                    others.append(item)
            workload.extend(yaml.safe_dump(item, sort_keys=False).rstrip("\n") for item in others)
        elif chunk.strip():
            workload.append(chunk.strip("\n"))
    return header, nodes, "\n---\n".join(workload) + ("\n" if workload else "")


class Command(BaseCommand):
    help = "Load (or refresh) the built-in example scenarios from playground/gallery/."

    def handle(self, *args: object, **options: object) -> None:
        files = sorted(GALLERY_DIR.glob("*.yaml"))
        for path in files:
            try:
                header, nodes, workload = split_gallery_file(path.read_text())
            except (ValueError, KeyError, yaml.YAMLError) as error:
                raise CommandError(f"{path.name}: {error}") from None
            problems = validate_workload(workload)
            if problems:
                raise CommandError(f"{path.name}: line {problems[0].line}: {problems[0].message}")
            self._load(path.stem, header, nodes, workload)
        self.stdout.write(f"Gallery: {len(files)} built-in scenario(s) loaded.")

    @transaction.atomic
    def _load(self, key: str, header: dict[str, Any], nodes: list[dict[str, Any]], workload: str) -> None:
        title = str(header.get("title", key))
        description = str(header.get("description", ""))
        order = int(header.get("order", 0))
        existing = Scenario.objects.filter(gallery_key=key).first()
        if existing is None:
            create_scenario(
                title,
                description=description,
                nodes=nodes,
                workload_yaml=workload,
                gallery_key=key,
                gallery_order=order,
            )
            return
        existing.title, existing.description, existing.gallery_order = title, description, order
        existing.workload_yaml = workload
        existing.version += 1
        existing.save()
        existing.nodes.all().delete()
        for position, spec in enumerate(nodes):
            Node.objects.create(scenario=existing, position=position, **spec)
        snapshot(existing)
