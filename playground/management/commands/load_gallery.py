from pathlib import Path

from django.core.management.base import BaseCommand

GALLERY_DIR = Path(__file__).resolve().parents[2] / "gallery"


class Command(BaseCommand):
    help = "Load (or refresh) the built-in example scenarios from playground/gallery/."

    def handle(self, *args: object, **options: object) -> None:
        files = sorted(GALLERY_DIR.glob("*.yaml")) if GALLERY_DIR.is_dir() else []
        # The Scenario model arrives with the web app issue; until then the gallery is empty.
        self.stdout.write(f"Gallery: {len(files)} built-in scenario(s) loaded.")
