"""Static files under content-hashed names, compressed ahead of time: the storage behind `{% static %}`
and the collectstatic step that a server start (playground/serve.py) and the tests go through.

With DEBUG off, ServeStatic serves what collectstatic wrote to STATIC_ROOT: each file under its hashed
name, cached for a year as immutable, with its .br and .gz beside it for the Accept-Encoding that
asks (servestatic/storage.py compresses, servestatic/responders.py picks). The plain names are
served too, cached for 60 s. With DEBUG on none of this is needed: `{% static %}` gives the plain
names (django/contrib/staticfiles/storage.py, HashedFilesMixin._url) and ServeStatic reads static/
at every request (settings.SERVESTATIC_USE_FINDERS and _AUTOREFRESH).
"""

import fcntl
import hashlib
import json
import sys
from importlib import metadata
from pathlib import Path
from wsgiref.headers import Headers

import django
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from servestatic import compress
from servestatic.storage import CompressedManifestStaticFilesStorage

# collectstatic's own default (django/contrib/staticfiles/management/commands/collectstatic.py).
IGNORE_PATTERNS = ["CVS", ".*", "*~"]
SOURCES_STAMP = "sources.sha256"  # beside the manifest: the sources STATIC_ROOT was collected from
A_YEAR = 365 * 24 * 3600


class HashedCompressedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """ServeStatic's compressed manifest storage, with the ES module imports between our scripts
    rewritten to the hashed names too: board.<hash>.js imports "./node-usage.<hash>.js", so a module
    loads once under one URL whether a template or another module names it."""

    support_js_module_import_aggregation = True


def cache_hashed_names_for_a_year(headers: Headers, path: str, url: str) -> None:
    """SERVESTATIC_ADD_HEADERS_FUNCTION: ServeStatic marks a hashed name immutable for ten years
    (servestatic/base.py, FOREVER); a year is the customary longest (RFC 2616's bound on Expires),
    and what Lighthouse asks of static files."""
    if "immutable" in (headers.get("Cache-Control") or ""):
        headers["Cache-Control"] = f"public, max-age={A_YEAR}, immutable"


def static_sources() -> dict[str, Path]:
    """What collectstatic copies: each name under STATIC_URL and the file it comes from (the first
    finder that has it, as collectstatic takes it)."""
    found: dict[str, Path] = {}
    for finder in finders.get_finders():
        for path, storage in finder.list(IGNORE_PATTERNS):
            prefix = getattr(storage, "prefix", None) or ""
            found.setdefault(f"{prefix}/{path}" if prefix else path, Path(storage.path(path)))
    return found


def sources_fingerprint(sources: dict[str, Path]) -> str:
    """A digest of the sources (names and bytes) and of what shapes collectstatic's output (this
    module, the storage setting, Django's and ServeStatic's versions, whether brotli is installed):
    a change to any of them means collecting again."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    shaping = [
        settings.STORAGES["staticfiles"]["BACKEND"],
        settings.STATIC_URL,
        django.__version__,
        metadata.version("servestatic"),
        compress.brotli is not None,
    ]
    digest.update(json.dumps(shaping).encode())
    for name in sorted(sources):
        digest.update(f"\0{name}\0".encode())
        digest.update(sources[name].read_bytes())
    return digest.hexdigest()


def collect_static(*, verbosity: int = 0) -> bool:
    """Runs collectstatic into STATIC_ROOT unless it holds the current sources already; returns
    whether it ran. One process at a time: two servers that start together (scripts/scale-out), or a
    test session beside another, take turns, and the second finds the work done."""
    root = Path(settings.STATIC_ROOT)
    root.mkdir(parents=True, exist_ok=True)
    with open(root.parent / f".{root.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp = root / SOURCES_STAMP
        sources = static_sources()
        fingerprint = sources_fingerprint(sources)
        manifest = root / HashedCompressedStaticFilesStorage.manifest_name
        if manifest.is_file() and stamp.is_file() and stamp.read_text() == fingerprint:
            return False
        print(f"Collecting static files into {root} (hashed names, gzip and brotli)…", file=sys.stderr)
        stamp.unlink(missing_ok=True)  # a collection cut short leaves no stamp: the next start redoes it
        for name, source in sources.items():
            # collectstatic skips a source whose copy is newer: an older file put back (a release
            # unpacked with its own dates) would keep the copy it replaced. Hashed names stay: a
            # server still running on the last collection serves them until it restarts.
            copy = root / name
            if copy.is_file() and copy.read_bytes() != source.read_bytes():
                copy.unlink()
        call_command("collectstatic", interactive=False, verbosity=verbosity)
        stamp.write_text(fingerprint)
        return True
