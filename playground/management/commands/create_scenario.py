"""Create a scenario from a file in the gallery's format (a `kind: Scenario` header, the Nodes, then
the workload), and print its view and edit links. For operators seeding a shared instance, and for
tests that need a scenario too big to build through the page."""

import json
from pathlib import Path
from typing import Any

import yaml
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from playground.management.commands.load_gallery import split_gallery_file
from playground.scenarios import create_scenario, validate_workload


class Command(BaseCommand):
    help = "Create a scenario from a gallery-format YAML file; prints its slug and links as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: object, **options: Any) -> None:
        path: Path = options["file"]
        try:
            header, nodes, workload = split_gallery_file(path.read_text())
        except (OSError, ValueError, KeyError, yaml.YAMLError) as error:
            raise CommandError(f"{path}: {error}") from None
        problems = validate_workload(workload)
        if problems:
            raise CommandError(f"{path}: line {problems[0].line}: {problems[0].message}")
        scenario, secret = create_scenario(
            str(header.get("title", path.stem)), description=str(header.get("description", "")), nodes=nodes,
            workload_yaml=workload,
        )  # fmt: skip
        links = {
            "slug": scenario.slug,
            "view": reverse("scenario", args=[scenario.slug]),
            # The old form, which claims on GET (scripts and tests follow it; no log keeps the key).
            # People are given /s/<slug>/edit#<key> (the Share panel).
            "edit": reverse("claim-edit-link", args=[scenario.slug, secret]),
        }
        self.stdout.write(json.dumps(links))
