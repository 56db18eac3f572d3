"""Static files as a server serves them with DEBUG off (issue #13, Lighthouse): under content-hashed
names, compressed with brotli or gzip as the client accepts, cached for a year as immutable; the
plain names still answer, cached for a minute. See playground/static_files.py."""

import gzip
import json
import os
import posixpath
import re
from pathlib import Path

import brotli
import pytest
from django.contrib.staticfiles.storage import staticfiles_storage
from django.template.loader import render_to_string
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from playground.outage import server_error
from playground.static_files import collect_static

pytestmark = pytest.mark.django_db

STATIC_REFERENCE = re.compile(r'(?:src|href|data-[\w-]+-url)="(/static/[^"]+)"')
HASHED = re.compile(r"\.[0-9a-f]{12}(\.[\w.]+)?$")
A_YEAR = "public, max-age=31536000, immutable"
MEDIA_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".json": "application/json"}


def static_references(html: str) -> list[str]:
    return STATIC_REFERENCE.findall(html)


def home_page() -> str:
    response = Client().get(reverse("index"))
    assert response.status_code == 200
    return response.content.decode()


def scenario_page() -> str:
    """A scenario its creator may edit: the page with the most scripts (the editor's among them)."""
    editor = Client()
    created = editor.post(reverse("new-scenario"))
    assert created.status_code == 302
    response = editor.get(created["Location"])
    assert response.status_code == 200
    return response.content.decode()


def manifest() -> dict[str, str]:
    """The hashed names this process renders with: a server started meanwhile may have collected
    newer sources into the same folder (the older hashed files stay)."""
    return dict(staticfiles_storage.hashed_files)


def fetch(url: str, accept_encoding: str | None) -> tuple[dict[str, str], bytes]:
    headers = {} if accept_encoding is None else {"HTTP_ACCEPT_ENCODING": accept_encoding}
    response = Client().get(url, **headers)
    assert response.status_code == 200, url
    return dict(response.headers), b"".join(response)


def on_disk(collected_static: Path, url: str) -> bytes:
    return (collected_static / url.removeprefix("/static/")).read_bytes()


def media_type(headers: dict[str, str]) -> str:
    return headers["Content-Type"].split(";")[0].strip()


def test_every_static_file_a_page_names_is_under_its_hashed_name():
    hashed_names = set(manifest().values())
    for page in (home_page(), scenario_page()):
        references = static_references(page)
        assert references, "no static references found: has the markup changed?"
        for url in references:
            assert url.removeprefix("/static/") in hashed_names, url
    scenario = static_references(scenario_page())
    assert any("/js/board." in url for url in scenario) and any("/js/snippets." in url for url in scenario)


@pytest.mark.parametrize(
    ("accept_encoding", "encoding", "decompress"),
    [("gzip, deflate, br, zstd", "br", brotli.decompress), ("gzip, deflate", "gzip", gzip.decompress)],
    ids=["brotli-when-accepted", "gzip-without-brotli"],
)
def test_a_hashed_file_is_served_compressed_as_the_client_accepts(
    collected_static, accept_encoding, encoding, decompress
):
    for url in sorted({*static_references(home_page()), *static_references(scenario_page())}):
        headers, body = fetch(url, accept_encoding)
        assert headers.get("Content-Encoding") == encoding, url
        assert decompress(body) == on_disk(collected_static, url)
        assert headers["Cache-Control"] == A_YEAR
        assert "Accept-Encoding" in headers["Vary"]
        assert media_type(headers) == MEDIA_TYPES[Path(url).suffix]


def test_a_client_that_accepts_no_encoding_gets_the_file_as_it_is(collected_static):
    url = next(url for url in static_references(home_page()) if url.endswith(".css"))
    headers, body = fetch(url, None)
    assert "Content-Encoding" not in headers
    assert body == on_disk(collected_static, url)
    assert headers["Cache-Control"] == A_YEAR


def test_the_compressed_files_are_much_smaller(collected_static):
    """What Lighthouse counted: the editor's bundle alone is 369 KiB as it is."""
    bundle = next(url for url in static_references(scenario_page()) if "/js/editor." in url)
    _, body = fetch(bundle, "br")
    assert len(body) < len(on_disk(collected_static, bundle)) / 3


def test_a_plain_name_still_answers_but_is_cached_for_a_minute_only(collected_static):
    """Names that do not come from `{% static %}` (an old page, a module path typed in a console)
    keep working; their content can change under them, so they are not immutable."""
    headers, body = fetch("/static/css/app.css", "br")
    assert headers["Cache-Control"] == "max-age=60, public"
    assert brotli.decompress(body) == on_disk(collected_static, "/static/css/app.css")


def test_an_unknown_or_mistyped_hash_is_not_found():
    assert Client().get("/static/css/app.000000000000.css").status_code == 404
    assert Client().get("/static/css/no-such-file.css").status_code == 404


def test_module_imports_between_scripts_name_the_hashed_files(collected_static):
    """board.<hash>.js must import "./node-usage.<hash>.js": a plain name would load a second copy
    of the module (another URL), with state of its own, and would stay cached for a minute only."""
    paths = manifest()
    imports = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"']+)["']""")
    checked = 0
    for original, hashed in paths.items():
        if not original.startswith("js/") or not original.endswith(".js"):
            continue
        for target in imports.findall((collected_static / hashed).read_text()):
            resolved = posixpath.normpath((Path(hashed).parent / target).as_posix())
            assert HASHED.search(target) and resolved in paths.values(), f"{hashed} imports {target}"
            checked += 1
    assert checked >= 10  # our scripts import one another: the pattern found them


def test_the_error_page_names_hashed_files_with_or_without_a_request():
    """The 500 page renders when anything else failed; a page rendered without a request (a
    consumer's partials, a management command) reads the same manifest."""
    hashed_names = set(manifest().values())
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    without_request = render_to_string("500.html")
    for page in (response.content.decode(), without_request):
        references = static_references(page)
        assert any(url.endswith(".css") for url in references)
        assert all(url.removeprefix("/static/") in hashed_names for url in references)


def test_collecting_again_happens_only_when_a_source_changed_and_picks_up_an_older_file(tmp_path):
    """Every server start asks (playground/serve.py): unchanged sources cost a digest, no work. A
    file put back with an older date than its copy (a release unpacked with its own dates) is
    still collected: collectstatic alone would keep the copy, judging by dates."""
    sources, root = tmp_path / "sources", tmp_path / "root"
    sources.mkdir()
    script = sources / "app.js"
    body = "export const answer = {};\n" + "// long enough to be worth compressing\n" * 20
    script.write_text(body.format(42))
    finders = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    with override_settings(STATIC_ROOT=root, STATICFILES_DIRS=[sources], STATICFILES_FINDERS=finders):
        assert collect_static() is True
        assert collect_static() is False
        first = json.loads((root / "staticfiles.json").read_text())["paths"]["app.js"]

        script.write_text(body.format(43))
        os.utime(script, (0, 0))  # 1970: older than the copy
        assert collect_static() is True
        second = json.loads((root / "staticfiles.json").read_text())["paths"]["app.js"]
        assert second != first and HASHED.search(second)
        assert (root / second).read_text() == (root / "app.js").read_text() == body.format(43)
        assert brotli.decompress((root / f"{second}.br").read_bytes()) == script.read_bytes()
        assert (root / first).is_file()  # what a server still running on the first collection serves
